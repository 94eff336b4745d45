//! The endgame tables through the commands: what the device holds, a build with its progress
//! events, the tables the engine then reads, bad requests refused, one build at a time, and a
//! build stopped half way that keeps what it finished. One test: the engine's table directory is
//! process-wide, and each app sets it to its own.

mod common;

use common::TestApp;
use damas::search::endgame;
use damas::GameKind;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tauri::{Listener, Manager};

fn status_of(app: &TestApp, game: &str) -> Value {
    let all = app.ok("endgame_status", json!({}));
    all.as_array()
        .expect("a list")
        .iter()
        .find(|row| row["game"] == game)
        .cloned()
        .unwrap_or_else(|| panic!("{game} is not listed in {all}"))
}

fn files_size(dir: &std::path::Path, game: &str) -> u64 {
    std::fs::read_dir(dir)
        .expect("the tables' directory")
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.starts_with(&format!("{game}-")) && name.ends_with(".egtb")
        })
        .map(|entry| entry.metadata().expect("metadata").len())
        .sum()
}

#[test]
fn endgame_tables_are_built_from_the_app_read_by_the_engine_and_stopped_on_request() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = TestApp::start(dir.path());
    let tables = dir.path().join("endgame");

    // Nothing yet: the three draughts games, the piece counts the app offers.
    let all = app.ok("endgame_status", json!({}));
    let games: Vec<&str> = all
        .as_array()
        .expect("a list")
        .iter()
        .map(|row| row["game"].as_str().expect("a game"))
        .collect();
    assert_eq!(games, ["english", "international", "turkish"]);
    for (game, offered) in [("english", 5), ("international", 4), ("turkish", 4)] {
        let row = status_of(&app, game);
        assert_eq!(row["pieces"], 0, "{row}");
        assert_eq!(row["offered"], offered, "{row}");
        assert_eq!(row["building"], false, "{row}");
    }
    let search = app
        .handle()
        .state::<damas_app_lib::AppState>()
        .search
        .clone();
    assert!(search.endgame().tables(GameKind::English).is_none());

    // Bad requests change nothing.
    for args in [
        json!({"game": "diamond"}),
        json!({"game": "chess"}),
        json!({"game": "english", "pieces": 6}),
        json!({"game": "international", "pieces": 5}),
        json!({"game": "english", "pieces": 1}),
    ] {
        assert_eq!(app.error_code("build_endgame", args), "bad_input");
    }
    assert!(!tables.exists());
    assert_eq!(app.ok("stop_endgame_build", json!({})), false);

    // English up to 3 pieces: a progress event per slice, the last one complete; the files are
    // in the app's directory and the engine reads them from there.
    let events: Arc<Mutex<Vec<Value>>> = Arc::default();
    let heard = events.clone();
    app.handle()
        .listen_any(damas_app_lib::ENDGAME_PROGRESS_EVENT, move |event| {
            let payload = serde_json::from_str(event.payload()).expect("a JSON payload");
            heard.lock().expect("events").push(payload);
        });
    let built = app.ok("build_endgame", json!({"game": "english", "pieces": 3}));
    assert_eq!(built["game"], "english");
    assert_eq!(built["pieces"], 3);
    assert_eq!(built["building"], false);
    assert_eq!(built["bytes"], files_size(&tables, "english"));
    assert!(built["bytes"].as_u64().expect("bytes") > 0);
    assert_eq!(status_of(&app, "english"), built);
    // One event a slice, then one that says the build ended.
    let mut events = std::mem::take(&mut *events.lock().expect("events"));
    let slices: usize = (2..=3)
        .map(|n| endgame::index::Material::slices(n).len())
        .sum();
    assert_eq!(events.len(), slices + 1, "{events:?}");
    let total = endgame::positions(GameKind::English, 3).expect("english");
    let finished = events.pop().expect("the last event");
    assert_eq!(
        finished,
        json!({"game": "english", "done": total, "total": total, "finished": true})
    );
    let last = events.last().expect("events");
    assert_eq!(
        (last["game"].clone(), last["done"].clone()),
        (json!("english"), json!(total))
    );
    assert!(events.iter().all(|event| event["finished"] == false));
    assert!(events
        .windows(2)
        .all(|pair| pair[0]["done"].as_u64() < pair[1]["done"].as_u64()));
    let read = search
        .endgame()
        .tables(GameKind::English)
        .expect("the app's search context reads the new tables");
    assert_eq!(read.pieces, 3);

    // A build under way holds the slot: another game is refused, and a stop ends it after its
    // current slice with the piece counts it finished kept (3 here, read from the files).
    let other = app.window("other");
    std::thread::scope(|scope| {
        let long = scope.spawn(|| other.invoke("build_endgame", json!({"game": "english"})));
        let mut seen = false;
        for _ in 0..2000 {
            let row = status_of(&app, "english");
            if row["building"] == true {
                assert_eq!(
                    row["total"],
                    endgame::positions(GameKind::English, 5).expect("5")
                );
                seen = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(seen, "the 5-piece build shows as under way");
        assert_eq!(
            app.error_code("build_endgame", json!({"game": "turkish", "pieces": 2})),
            "endgame_busy"
        );
        assert_eq!(app.ok("stop_endgame_build", json!({})), true);
        let stopped = long.join().expect("the build thread");
        let error = stopped.expect_err("a stopped build fails");
        assert_eq!(error["code"], "endgame_stopped", "{error}");
    });
    let after = status_of(&app, "english");
    assert_eq!(after["building"], false);
    assert!(after["pieces"].as_u64() >= Some(3), "{after}");
    assert_eq!(after["bytes"], files_size(&tables, "english"));
    assert_eq!(status_of(&app, "turkish")["pieces"], 0);
    assert_eq!(app.ok("stop_endgame_build", json!({})), false);
}
