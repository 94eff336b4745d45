//! The friends' room games kept across restarts (`rooms.json`): list_rooms / save_room /
//! forget_room through real IPC, validation with typed errors, a corrupt file set aside.

mod common;

use common::TestApp;
use serde_json::{json, Value};

const TOKEN: &str = "q1w2e3r4t5y6u7i8o9p0-_ASDFGHJKLZXCVBNMqwert";

fn room(code: &str) -> Value {
    json!({"server": "http://127.0.0.1:8080/", "code": code, "token": TOKEN,
           "kind": "english", "nickname": " Ana  María "})
}

fn codes(app: &TestApp) -> Vec<String> {
    app.ok("list_rooms", json!({}))
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["code"].as_str().expect("a code").to_string())
        .collect()
}

#[test]
fn rooms_are_kept_across_restarts_until_forgotten() {
    let dir = tempfile::tempdir().unwrap();
    {
        let app = TestApp::start(dir.path());
        assert_eq!(app.ok("list_rooms", json!({})), json!([]));
        let kept = app.ok("save_room", json!({"room": room("AAAAAAAAAAAAAAAA")}));
        assert_eq!(kept["nickname"], "Ana María", "kept as the server keeps it");
        assert_eq!(kept["server"], "http://127.0.0.1:8080");
        assert_eq!(kept["token"], TOKEN);
        assert!(kept["at"].as_u64().unwrap() > 1_700_000_000_000, "{kept}");
        std::thread::sleep(std::time::Duration::from_millis(2));
        let mut second = room("BBBBBBBBBBBBBBBB");
        second["kind"] = json!("diamond");
        app.ok("save_room", json!({"room": second}));
        // A room the app hosts itself is listed while the app runs.
        let mut hosted = room("CCCCCCCCCCCCCCCC");
        hosted["hosted"] = json!(true);
        std::thread::sleep(std::time::Duration::from_millis(2));
        app.ok("save_room", json!({"room": hosted}));
        assert_eq!(
            codes(&app),
            ["CCCCCCCCCCCCCCCC", "BBBBBBBBBBBBBBBB", "AAAAAAAAAAAAAAAA"]
        );
    }
    // The file is there, and the token with it (the UI needs it to resume).
    let text = std::fs::read_to_string(dir.path().join(damas_app_lib::ROOMS_FILE)).unwrap();
    assert!(text.contains(TOKEN));
    let app = TestApp::start(dir.path());
    // The hosted room ended with the app that hosted it.
    assert_eq!(codes(&app), ["BBBBBBBBBBBBBBBB", "AAAAAAAAAAAAAAAA"]);
    let listed = app.ok("list_rooms", json!({}));
    assert_eq!(listed[0]["kind"], "diamond");
    assert_eq!(listed[1]["token"], TOKEN);
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    assert_eq!(
        app.ok("forget_room", json!({"code": "AAAAAAAAAAAAAAAA"})),
        json!(true)
    );
    assert_eq!(
        app.ok("forget_room", json!({"code": "AAAAAAAAAAAAAAAA"})),
        json!(false)
    );
    drop(app);
    let app = TestApp::start(dir.path());
    assert_eq!(codes(&app), ["BBBBBBBBBBBBBBBB"]);
}

#[test]
fn bad_rooms_are_refused_with_bad_input_and_the_token_is_not_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let with = |key: &str, value: Value| {
        let mut r = room("AAAAAAAAAAAAAAAA");
        r[key] = value;
        json!({ "room": r })
    };
    for args in [
        with("server", json!("file:///etc/passwd")),
        with("server", json!("not an address")),
        with("code", json!("../../x")),
        with("code", json!("short")),
        with("token", json!("")),
        with("token", json!("has spaces in it, not a token")),
        with("kind", json!("chess")),
        with("nickname", json!("   ")),
        with("nickname", json!("x".repeat(25))),
        with("extra", json!(1)),
        with("at", json!(TOKEN)),
        json!({"room": {"code": "AAAAAAAAAAAAAAAA"}}),
        json!({"room": "AAAAAAAAAAAAAAAA"}),
    ] {
        let error = app
            .invoke("save_room", args.clone())
            .expect_err(&format!("{args} should fail"));
        assert_eq!(error["code"], "bad_input", "{args}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(!message.is_empty());
        assert!(!message.contains(TOKEN), "{message}");
        assert!(!message.contains("has spaces in it"), "{message}");
    }
    assert_eq!(app.ok("list_rooms", json!({})), json!([]));
    assert!(!dir.path().join(damas_app_lib::ROOMS_FILE).exists());
}

#[test]
fn a_corrupt_rooms_file_is_set_aside_and_bad_entries_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(damas_app_lib::ROOMS_FILE);
    std::fs::write(&path, b"{\"format\": 1, \"rooms\": [").unwrap();
    {
        let app = TestApp::start(dir.path());
        let notices = app.ok("take_startup_notices", json!({}));
        assert_eq!(notices[0]["code"], "corrupt_rooms", "{notices}");
        assert_eq!(app.ok("list_rooms", json!({})), json!([]));
        let aside: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("rooms.corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1, "set aside, kept byte for byte");
        assert_eq!(
            std::fs::read(dir.path().join(&aside[0])).unwrap(),
            b"{\"format\": 1, \"rooms\": ["
        );
        app.ok("save_room", json!({"room": room("AAAAAAAAAAAAAAAA")}));
    }
    // One good entry and two bad ones.
    let mut file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let good = file["rooms"][0].clone();
    let mut bad = good.clone();
    bad["code"] = json!("../../etc");
    file["rooms"] = json!([good, bad, {"server": 3}]);
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let app = TestApp::start(dir.path());
    assert_eq!(codes(&app), ["AAAAAAAAAAAAAAAA"]);
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices[0]["code"], "corrupt_rooms");
    assert!(
        notices[0]["message"].as_str().unwrap().contains("2 of 3"),
        "{notices}"
    );
}

#[test]
fn the_room_server_is_a_setting_kept_by_the_app() {
    let dir = tempfile::tempdir().unwrap();
    let base = json!({"language": null, "skin": "wood", "sound": true, "animations": true});
    let with = |server: Value| {
        let mut settings = base.clone();
        settings["room_server"] = server;
        json!({ "settings": settings })
    };
    {
        let app = TestApp::start(dir.path());
        let kept = app.ok("set_settings", with(json!(" http://10.0.0.7:8080/ ")));
        assert_eq!(kept["room_server"], "http://10.0.0.7:8080");
        for bad in [json!("ftp://x.org"), json!("not an address"), json!(7)] {
            assert_eq!(
                app.error_code("set_settings", with(bad.clone())),
                "bad_input",
                "{bad}"
            );
        }
        assert_eq!(
            app.ok("get_settings", json!({}))["room_server"],
            "http://10.0.0.7:8080"
        );
    }
    let app = TestApp::start(dir.path());
    assert_eq!(
        app.ok("get_settings", json!({}))["room_server"],
        "http://10.0.0.7:8080",
        "kept across a restart"
    );
    // Cleared: the app hosts the rooms itself again; not written.
    assert_eq!(app.ok("set_settings", with(json!(""))), base);
    assert_eq!(app.ok("set_settings", with(Value::Null)), base);
}
