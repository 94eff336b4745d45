//! The app's commands through the mock runtime: replies in the contract's JSON shape, typed
//! errors that leave the state unchanged, everything saved and reloaded.

mod common;

use common::TestApp;
use serde_json::{json, Value};

fn english(mode: &str) -> Value {
    json!({"setup": {"variant": {"kind": "english", "players": 2}, "mode": mode, "level": "easy"}})
}

fn new_game(app: &TestApp, setup: Value) -> Value {
    app.ok("new_game", setup)
}

fn id(view: &Value) -> Value {
    json!({"id": view["id"]})
}

fn first_move(view: &Value) -> String {
    view["legal_moves"][0]["move"]
        .as_str()
        .expect("a legal move")
        .to_string()
}

#[test]
fn a_new_game_replies_with_the_whole_view() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("local"));
    for field in [
        "id",
        "variant",
        "mode",
        "level",
        "human_seats",
        "seats",
        "to_move",
        "ply",
        "layout",
        "pieces",
        "legal_moves",
        "must_capture",
        "history",
        "outcome",
        "draw_counters",
        "can_undo",
        "can_redo",
        "cpu_to_move",
        "last_played",
        "created",
    ] {
        assert!(view.get(field).is_some(), "no {field} in {view}");
    }
    assert_eq!(
        view["variant"],
        json!({"kind": "english", "players": 2, "long_jump": false})
    );
    assert_eq!(view["mode"], "local");
    assert_eq!(view["level"], Value::Null);
    assert_eq!(view["human_seats"], json!([0, 1]));
    assert_eq!(view["ply"], 0);
    assert_eq!(view["to_move"], 0);
    assert_eq!(view["outcome"], Value::Null);
    // English draughts opens with 7 moves (published perft(1)).
    assert_eq!(view["legal_moves"].as_array().map(Vec::len), Some(7));
    assert_eq!(view["pieces"].as_array().map(Vec::len), Some(24));
    assert_eq!(view["seats"][0]["cpu"], false);
    assert_eq!(view["layout"]["shape"]["type"], "grid");
    // Listed once a move is played (a game without one is no saved game).
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
    app.ok(
        "play_move",
        json!({"id": view["id"], "moveText": first_move(&view)}),
    );
    let list = app.ok("list_saved", json!({}));
    assert_eq!(list[0]["id"], view["id"]);
    assert_eq!(list[0]["finished"], false);
}

#[test]
fn games_without_a_move_are_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let (played, empty) = {
        let app = TestApp::start(dir.path());
        let played = new_game(&app, english("local"));
        app.ok(
            "play_move",
            json!({"id": played["id"], "moveText": first_move(&played)}),
        );
        let empty = new_game(&app, english("local"));
        let list = app.ok("list_saved", json!({}));
        assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
        assert_eq!(list[0]["id"], played["id"]);
        (played, empty)
    };
    // After a restart: still only the game with a move is listed; the other can be opened.
    let app = TestApp::start(dir.path());
    let list = app.ok("list_saved", json!({}));
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["id"], played["id"]);
    assert_eq!(app.ok("get_game", id(&empty))["ply"], 0);
}

#[test]
fn bad_setups_are_typed_errors_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    for (setup, code) in [
        (
            json!({"variant": {"kind": "chess"}, "mode": "local"}),
            "unknown_game",
        ),
        (
            json!({"variant": {"kind": "english", "players": 4}, "mode": "local"}),
            "bad_players",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": "grandmaster"}),
            "bad_level",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": 3}),
            "bad_input",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": "easy", "human_seats": [2]}),
            "bad_input",
        ),
        (json!({"mode": "local"}), "bad_input"),
    ] {
        assert_eq!(
            app.error_code("new_game", json!({"setup": setup})),
            code,
            "{setup}"
        );
    }
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
}

#[test]
fn an_illegal_move_is_rejected_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("local"));
    for text in ["a1-h8", "", "9-14x"] {
        let args = json!({"id": view["id"], "moveText": text});
        assert_eq!(app.error_code("play_move", args), "illegal_move");
    }
    assert_eq!(app.ok("get_game", id(&view)), view);
}

#[test]
fn the_human_cannot_move_for_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    // The human takes white (seat 1): black, the CPU, moves first.
    let mut setup = english("cpu");
    setup["setup"]["human_seats"] = json!([1]);
    let view = new_game(&app, setup);
    assert_eq!(view["cpu_to_move"], true);
    assert_eq!(view["seats"][0]["cpu"], true);
    let args = json!({"id": view["id"], "moveText": first_move(&view)});
    assert_eq!(app.error_code("play_move", args), "not_your_turn");
    assert_eq!(app.ok("get_game", id(&view)), view);

    let after = app.ok("cpu_move", id(&view));
    assert_eq!(after["ply"], 1);
    assert_eq!(after["cpu_to_move"], false);
    assert_eq!(after["history"][0]["seat"], 0);
    // Now it is the human's turn: the CPU may not move for them.
    assert_eq!(app.error_code("cpu_move", id(&view)), "not_your_turn");
}

#[test]
fn undo_and_redo_against_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("cpu"));
    assert_eq!(app.error_code("undo", id(&view)), "nothing_to_undo");
    let played = app.ok(
        "play_move",
        json!({"id": view["id"], "moveText": first_move(&view)}),
    );
    assert_eq!(played["cpu_to_move"], true);
    let replied = app.ok("cpu_move", id(&view));
    assert_eq!(replied["ply"], 2);
    assert_eq!(replied["can_undo"], true);

    let undone = app.ok("undo", id(&view));
    assert_eq!(undone["ply"], 0);
    assert_eq!(undone["can_redo"], true);
    assert_eq!(undone["legal_moves"], view["legal_moves"]);
    let redone = app.ok("redo", id(&view));
    assert_eq!(redone["history"], replied["history"]);
    assert_eq!(app.error_code("redo", id(&view)), "nothing_to_redo");
}

#[test]
fn a_cpu_move_request_overtaken_by_an_undo_is_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("cpu"));
    let played = app.ok(
        "play_move",
        json!({"id": view["id"], "moveText": first_move(&view)}),
    );
    assert_eq!(played["ply"], 1);
    // The undo reaches the game before the CPU request the UI sent just before it.
    let undone = app.ok("undo", id(&view));
    assert_eq!(undone["ply"], 0);
    let stale = json!({"id": view["id"], "ply": 1});
    assert_eq!(app.error_code("cpu_move", stale.clone()), "cancelled");
    assert_eq!(
        app.ok("get_game", id(&view)),
        undone,
        "the game is as the undo left it"
    );
    // Redone, the same request is the CPU's turn again.
    app.ok("redo", id(&view));
    let replied = app.ok("cpu_move", stale);
    assert_eq!(replied["ply"], 2);
    assert_eq!(replied["history"][1]["seat"], 1);
}

#[test]
fn resigning_ends_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("local"));
    let resigned = app.ok("resign", id(&view));
    assert_eq!(
        resigned["outcome"],
        json!({"winner": 1, "reason": "resignation"})
    );
    assert_eq!(resigned["legal_moves"], json!([]));
    let args = json!({"id": view["id"], "moveText": first_move(&view)});
    assert_eq!(app.error_code("play_move", args), "game_over");
    assert_eq!(app.error_code("resign", id(&view)), "game_over");
    assert_eq!(app.ok("list_saved", json!({}))[0]["finished"], true);
}

#[test]
fn unknown_ids_are_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let missing = json!({"id": "nope"});
    for cmd in [
        "get_game",
        "cpu_move",
        "undo",
        "redo",
        "resign",
        "rematch",
        "delete_saved",
    ] {
        assert_eq!(
            app.error_code(cmd, missing.clone()),
            "no_such_game",
            "{cmd}"
        );
    }
    let args = json!({"id": "nope", "moveText": "9-13"});
    assert_eq!(app.error_code("play_move", args), "no_such_game");
}

#[test]
fn a_rematch_swaps_sides() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("cpu"));
    let rematch = app.ok("rematch", id(&view));
    assert_ne!(rematch["id"], view["id"]);
    assert_eq!(view["human_seats"], json!([0]));
    assert_eq!(rematch["human_seats"], json!([1]));
    assert_eq!(rematch["level"], "easy");
    assert_eq!(rematch["cpu_to_move"], true);
}

#[test]
fn games_are_saved_and_resumed_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (view, list) = {
        let app = TestApp::start(dir.path());
        let view = new_game(&app, english("cpu"));
        app.ok(
            "play_move",
            json!({"id": view["id"], "moveText": first_move(&view)}),
        );
        app.ok("cpu_move", id(&view));
        let moved = app.ok(
            "play_move",
            json!({"id": view["id"], "moveText": first_move(&app.ok("get_game", id(&view)))}),
        );
        app.ok("cpu_move", id(&view));
        let view = app.ok("undo", id(&view));
        assert_eq!(view["ply"], 2);
        assert_eq!(moved["ply"], 3);
        (view, app.ok("list_saved", json!({})))
    };
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    assert_eq!(app.ok("get_game", id(&view)), view);
    assert_eq!(app.ok("list_saved", json!({})), list);
    // The undone moves came back too.
    assert_eq!(app.ok("redo", id(&view))["ply"], 4);
}

#[test]
fn deleting_a_game_removes_it_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let kept = {
        let app = TestApp::start(dir.path());
        let gone = new_game(&app, english("local"));
        app.ok(
            "play_move",
            json!({"id": gone["id"], "moveText": first_move(&gone)}),
        );
        let kept = new_game(&app, english("local"));
        app.ok(
            "play_move",
            json!({"id": kept["id"], "moveText": first_move(&kept)}),
        );
        assert_eq!(app.ok("delete_saved", id(&gone)), Value::Null);
        assert_eq!(app.error_code("get_game", id(&gone)), "no_such_game");
        assert_eq!(app.error_code("delete_saved", id(&gone)), "no_such_game");
        kept
    };
    let app = TestApp::start(dir.path());
    let list = app.ok("list_saved", json!({}));
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["id"], kept["id"]);
}

/// The file that holds game `view` (`saves/<id>.json`).
fn game_file(dir: &std::path::Path, view: &Value) -> std::path::PathBuf {
    dir.join(damas_app_lib::SAVES_DIR)
        .join(format!("{}.json", view["id"].as_str().unwrap()))
}

/// Names of the files in `dir` that start with `prefix` and end in `.json`.
fn files_named(dir: &std::path::Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(prefix) && name.ends_with(".json"))
        .collect()
}

#[test]
fn each_game_has_its_own_file_and_a_move_rewrites_only_that_one() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let quiet = new_game(&app, english("local"));
    let busy = new_game(&app, english("local"));
    let quiet_file = game_file(dir.path(), &quiet);
    let written = std::fs::metadata(&quiet_file).unwrap().modified().unwrap();
    let quiet_bytes = std::fs::read(&quiet_file).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let moved = app.ok(
        "play_move",
        json!({"id": busy["id"], "moveText": first_move(&busy)}),
    );
    let on_disk: Value =
        serde_json::from_slice(&std::fs::read(game_file(dir.path(), &busy)).unwrap()).unwrap();
    assert_eq!(on_disk["id"], busy["id"]);
    assert_eq!(
        on_disk["moves"],
        json!([moved["history"][0]["move"]["move"]])
    );
    assert_eq!(std::fs::read(&quiet_file).unwrap(), quiet_bytes);
    assert_eq!(
        std::fs::metadata(&quiet_file).unwrap().modified().unwrap(),
        written,
        "the other game's file was not rewritten"
    );
}

#[test]
fn a_corrupt_old_saves_file_is_set_aside_and_the_app_starts() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join(damas_app_lib::OLD_SAVES_FILE);
    std::fs::write(&saves, b"{\"half\": [1, 2").unwrap();
    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices.as_array().map(Vec::len), Some(1), "{notices}");
    assert_eq!(notices[0]["code"], "corrupt_saves");
    let message = notices[0]["message"].as_str().unwrap();
    let aside = files_named(dir.path(), "saves.corrupt-");
    assert_eq!(aside.len(), 1);
    assert!(message.contains(&aside[0]), "{message}");
    assert_eq!(
        std::fs::read(dir.path().join(&aside[0])).unwrap(),
        b"{\"half\": [1, 2"
    );
    // Told once; the app works and saves again.
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
    let view = new_game(&app, english("local"));
    let on_disk: Value =
        serde_json::from_slice(&std::fs::read(game_file(dir.path(), &view)).unwrap()).unwrap();
    assert_eq!(on_disk["id"], view["id"]);
}

#[test]
fn the_games_of_an_old_saves_file_get_their_own_files() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = {
        let app = TestApp::start(dir.path());
        let first = new_game(&app, english("local"));
        let first = app.ok(
            "play_move",
            json!({"id": first["id"], "moveText": first_move(&first)}),
        );
        let second = new_game(&app, english("cpu"));
        (first, second)
    };
    // The single file of earlier versions: {id: save record}.
    let mut old = serde_json::Map::new();
    for view in [&first, &second] {
        let record: Value =
            serde_json::from_slice(&std::fs::read(game_file(dir.path(), view)).unwrap()).unwrap();
        old.insert(view["id"].as_str().unwrap().to_string(), record);
    }
    std::fs::remove_dir_all(dir.path().join(damas_app_lib::SAVES_DIR)).unwrap();
    let old_saves = dir.path().join(damas_app_lib::OLD_SAVES_FILE);
    std::fs::write(&old_saves, serde_json::to_vec(&Value::Object(old)).unwrap()).unwrap();

    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    assert_eq!(app.ok("get_game", id(&first)), first);
    assert_eq!(app.ok("get_game", id(&second)), second);
    assert!(game_file(dir.path(), &first).exists());
    assert!(game_file(dir.path(), &second).exists());
    assert!(!old_saves.exists(), "read once");
    assert_eq!(files_named(dir.path(), "saves.migrated-").len(), 1, "kept");
    drop(app);
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("get_game", id(&first)), first);
}

#[test]
fn a_garbled_game_file_is_set_aside_and_the_others_load() {
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = {
        let app = TestApp::start(dir.path());
        (
            new_game(&app, english("local")),
            new_game(&app, english("local")),
        )
    };
    let garbage = b"{\"format\": 1, \"id\": \"half a wri";
    std::fs::write(game_file(dir.path(), &bad), garbage).unwrap();

    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices.as_array().map(Vec::len), Some(1), "{notices}");
    assert_eq!(notices[0]["code"], "corrupt_game");
    let bad_id = bad["id"].as_str().unwrap();
    assert!(notices[0]["message"].as_str().unwrap().contains(bad_id));
    let saves = dir.path().join(damas_app_lib::SAVES_DIR);
    let aside = files_named(&saves, &format!("{bad_id}.corrupt-"));
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(saves.join(&aside[0])).unwrap(), garbage);
    assert!(!game_file(dir.path(), &bad).exists());
    assert_eq!(app.error_code("get_game", id(&bad)), "no_such_game");
    assert_eq!(app.ok("get_game", id(&good)), good);
}

#[test]
fn a_tampered_game_is_moved_out_and_the_others_load() {
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = {
        let app = TestApp::start(dir.path());
        let good = new_game(&app, english("local"));
        let bad = new_game(&app, english("local"));
        app.ok(
            "play_move",
            json!({"id": bad["id"], "moveText": first_move(&bad)}),
        );
        (good, bad)
    };
    let bad_file = game_file(dir.path(), &bad);
    let mut on_disk: Value = serde_json::from_slice(&std::fs::read(&bad_file).unwrap()).unwrap();
    on_disk["moves"] = json!(["1-32"]);
    std::fs::write(&bad_file, serde_json::to_vec(&on_disk).unwrap()).unwrap();

    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices[0]["code"], "corrupt_game", "{notices}");
    let bad_id = bad["id"].as_str().unwrap();
    assert!(notices[0]["message"].as_str().unwrap().contains(bad_id));
    assert_eq!(app.error_code("get_game", id(&bad)), "no_such_game");
    assert_eq!(app.ok("get_game", id(&good)), good);
    assert!(!bad_file.exists());
}

#[test]
fn a_renamed_game_file_is_not_loaded_under_the_wrong_id() {
    let dir = tempfile::tempdir().unwrap();
    let view = {
        let app = TestApp::start(dir.path());
        new_game(&app, english("local"))
    };
    let saves = dir.path().join(damas_app_lib::SAVES_DIR);
    std::fs::rename(game_file(dir.path(), &view), saves.join("g1-0001.json")).unwrap();
    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices[0]["code"], "corrupt_game", "{notices}");
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
    assert_eq!(
        app.error_code("get_game", json!({"id": "g1-0001"})),
        "no_such_game"
    );
}

#[test]
fn settings_default_persist_and_reject_bad_values() {
    let dir = tempfile::tempdir().unwrap();
    let wanted = json!({"language": "en", "skin": "candy", "sound": false, "animations": false});
    {
        let app = TestApp::start(dir.path());
        assert_eq!(
            app.ok("get_settings", json!({})),
            json!({"language": null, "skin": "wood", "sound": true, "animations": true})
        );
        assert_eq!(app.ok("set_settings", json!({"settings": wanted})), wanted);
        for bad in [
            json!({"language": "fr", "skin": "wood", "sound": true, "animations": true}),
            json!({"language": null, "skin": "marble", "sound": true, "animations": true}),
            json!({"skin": "wood"}),
        ] {
            assert_eq!(
                app.error_code("set_settings", json!({"settings": bad})),
                "bad_input"
            );
        }
        assert_eq!(app.ok("get_settings", json!({})), wanted);
    }
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("get_settings", json!({})), wanted);
    // The optional "turn the board to the player" choice is kept too.
    let turning = json!({"language": "en", "skin": "candy", "sound": false, "animations": false, "turn_board": true});
    assert_eq!(
        app.ok("set_settings", json!({"settings": turning})),
        turning
    );
    drop(app);
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("get_settings", json!({})), turning);
    // The star games' board: "2d" is kept across a restart, "3d" is the default and is not written.
    let flat =
        json!({"language": null, "skin": "wood", "sound": true, "animations": true, "board": "2d"});
    assert_eq!(app.ok("set_settings", json!({"settings": flat})), flat);
    let bad =
        json!({"language": null, "skin": "wood", "sound": true, "animations": true, "board": "4d"});
    assert_eq!(
        app.error_code("set_settings", json!({"settings": bad})),
        "bad_input"
    );
    drop(app);
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("get_settings", json!({})), flat);
    let three_d =
        json!({"language": null, "skin": "wood", "sound": true, "animations": true, "board": "3d"});
    assert_eq!(
        app.ok("set_settings", json!({"settings": three_d})),
        json!({"language": null, "skin": "wood", "sound": true, "animations": true})
    );
}

#[test]
fn a_move_that_cannot_be_saved_is_not_played() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = new_game(&app, english("local"));
    // A directory where the game's temporary file goes makes its next write fail.
    let file = game_file(dir.path(), &view);
    let mut blocker = file.clone().into_os_string();
    blocker.push(".tmp");
    let blocker = std::path::PathBuf::from(blocker);
    std::fs::create_dir(&blocker).unwrap();
    let args = json!({"id": view["id"], "moveText": first_move(&view)});
    assert_eq!(app.error_code("play_move", args.clone()), "storage");
    assert_eq!(app.ok("get_game", id(&view)), view);
    // The file on disk still holds the game as it was.
    let on_disk: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(on_disk["moves"], json!([]));
    std::fs::remove_dir(&blocker).unwrap();

    // No folder for the saves: a new game cannot be written, so it is not kept.
    let saves = dir.path().join(damas_app_lib::SAVES_DIR);
    let moved = dir.path().join("saves-elsewhere");
    std::fs::rename(&saves, &moved).unwrap();
    std::fs::write(&saves, b"not a folder").unwrap();
    assert_eq!(app.error_code("new_game", english("local")), "storage");
    assert_eq!(app.ok("get_game", id(&view)), view);
    std::fs::remove_file(&saves).unwrap();
    std::fs::rename(&moved, &saves).unwrap();

    assert_eq!(app.ok("play_move", args)["ply"], 1);
}

#[test]
fn the_expert_thinking_time_is_a_checked_setting_and_a_corrupt_one_reads_as_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let slow = json!({"language": null, "skin": "wood", "sound": true, "animations": true, "movetime": 2500});
    {
        let app = TestApp::start(dir.path());
        assert_eq!(app.ok("set_settings", json!({"settings": slow})), slow);
        for bad in [
            json!(499),
            json!(5001),
            json!(0),
            json!(-1000),
            json!(1.5),
            json!("2s"),
        ] {
            let mut settings = slow.clone();
            settings["movetime"] = bad.clone();
            assert_eq!(
                app.error_code("set_settings", json!({"settings": settings})),
                "bad_input",
                "{bad}"
            );
        }
        assert_eq!(app.ok("get_settings", json!({})), slow);
    }
    let app = TestApp::start(dir.path());
    assert_eq!(
        app.ok("get_settings", json!({})),
        slow,
        "kept across a restart"
    );
    drop(app);
    // A file edited by hand (or damaged) with a time out of range: the default, the rest kept.
    let file = dir.path().join(damas_app_lib::SETTINGS_FILE);
    let mut on_disk: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    on_disk["settings"]["movetime"] = json!(99_999);
    on_disk["settings"]["skin"] = json!("candy");
    std::fs::write(&file, serde_json::to_vec(&on_disk).unwrap()).unwrap();
    let app = TestApp::start(dir.path());
    assert_eq!(
        app.ok("get_settings", json!({})),
        json!({"language": null, "skin": "candy", "sound": true, "animations": true})
    );
}

#[test]
fn the_expert_cpu_answers_a_legal_move_with_the_thinking_time_set() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let fast = json!({"language": null, "skin": "wood", "sound": true, "animations": true, "movetime": 500});
    app.ok("set_settings", json!({"settings": fast}));
    for kind in ["english", "diamond"] {
        // The human takes the second seat: the expert CPU moves first.
        let setup = json!({"setup": {"variant": {"kind": kind, "players": 2}, "mode": "cpu",
            "level": "expert", "human_seats": [1]}});
        let view = new_game(&app, setup);
        assert_eq!(view["level"], "expert");
        assert_eq!(view["cpu_to_move"], true);
        let after = app.ok("cpu_move", id(&view));
        assert_eq!(after["ply"], 1, "{kind}");
        let played = &after["history"][0]["move"]["move"];
        let legal: Vec<&Value> = view["legal_moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|mv| &mv["move"])
            .collect();
        assert!(legal.contains(&played), "{kind}: {played} is not legal");
        assert_eq!(after["cpu_to_move"], false);
    }
}
