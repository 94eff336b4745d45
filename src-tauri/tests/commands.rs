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

#[test]
fn a_corrupt_store_is_set_aside_and_the_app_starts() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join(damas_app_lib::SAVES_FILE);
    std::fs::write(&saves, b"{\"half\": [1, 2").unwrap();
    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices.as_array().map(Vec::len), Some(1), "{notices}");
    assert_eq!(notices[0]["code"], "corrupt_saves");
    let message = notices[0]["message"].as_str().unwrap();
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("saves.corrupt-") && name.ends_with(".json"))
        .collect();
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
    let on_disk: Value = serde_json::from_slice(&std::fs::read(&saves).unwrap()).unwrap();
    assert!(on_disk.get(view["id"].as_str().unwrap()).is_some());
}

#[test]
fn a_tampered_game_is_moved_out_and_the_others_load() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join(damas_app_lib::SAVES_FILE);
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
    let mut on_disk: Value = serde_json::from_slice(&std::fs::read(&saves).unwrap()).unwrap();
    let bad_id = bad["id"].as_str().unwrap();
    on_disk[bad_id]["moves"] = json!(["1-32"]);
    std::fs::write(&saves, serde_json::to_vec(&on_disk).unwrap()).unwrap();

    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices[0]["code"], "corrupt_game", "{notices}");
    assert!(notices[0]["message"].as_str().unwrap().contains(bad_id));
    assert_eq!(app.error_code("get_game", id(&bad)), "no_such_game");
    assert_eq!(app.ok("get_game", id(&good)), good);
    let on_disk: Value = serde_json::from_slice(&std::fs::read(&saves).unwrap()).unwrap();
    assert!(on_disk.get(bad_id).is_none());
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
    // A directory where the temporary file goes makes the next write fail.
    let blocker = dir
        .path()
        .join(format!("{}.tmp", damas_app_lib::SAVES_FILE));
    std::fs::create_dir(&blocker).unwrap();
    let args = json!({"id": view["id"], "moveText": first_move(&view)});
    assert_eq!(app.error_code("play_move", args.clone()), "storage");
    assert_eq!(app.ok("get_game", id(&view)), view);
    assert_eq!(app.error_code("new_game", english("local")), "storage");
    // The failed new game took nothing out, not even this game without a move.
    assert_eq!(app.ok("get_game", id(&view)), view);
    // The file on disk still holds the game as it was.
    let on_disk: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(damas_app_lib::SAVES_FILE)).unwrap())
            .unwrap();
    assert_eq!(on_disk[view["id"].as_str().unwrap()]["moves"], json!([]));

    std::fs::remove_dir(&blocker).unwrap();
    assert_eq!(app.ok("play_move", args)["ply"], 1);
}

#[test]
fn diamond_for_three_against_two_cpus() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let setup = json!({"setup": {"variant": {"kind": "diamond", "players": 3}, "mode": "cpu", "level": "medium"}});
    let view = new_game(&app, setup);
    assert_eq!(view["layout"]["shape"]["type"], "star");
    assert_eq!(view["layout"]["cells"].as_array().map(Vec::len), Some(121));
    assert_eq!(view["human_seats"], json!([0]));
    let cpu: Vec<&Value> = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["cpu"])
        .collect();
    assert_eq!(cpu, [&json!(false), &json!(true), &json!(true)]);
    let mut seats: Vec<u64> = view["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["seat"].as_u64().unwrap())
        .collect();
    seats.dedup();
    assert_eq!(seats, [0, 1, 2]);

    let played = app.ok(
        "play_move",
        json!({"id": view["id"], "moveText": first_move(&view)}),
    );
    assert_eq!(
        (played["to_move"].clone(), played["cpu_to_move"].clone()),
        (json!(1), json!(true))
    );
    let first_reply = app.ok("cpu_move", id(&view));
    assert_eq!(
        (
            first_reply["to_move"].clone(),
            first_reply["cpu_to_move"].clone()
        ),
        (json!(2), json!(true))
    );
    let second_reply = app.ok("cpu_move", id(&view));
    assert_eq!(
        (
            second_reply["to_move"].clone(),
            second_reply["cpu_to_move"].clone()
        ),
        (json!(0), json!(false))
    );
    let movers: Vec<&Value> = second_reply["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["seat"])
        .collect();
    assert_eq!(movers, [&json!(0), &json!(1), &json!(2)]);
    // Undo takes back both CPU replies and the human move.
    assert_eq!(app.ok("undo", id(&view))["ply"], 0);
}

// Games finished against the CPU, counted per game kind in `progress.json` (the easy CPU is
// gentler in the first ones).

/// The counts on disk, `null` when none was written.
fn progress_on_disk(dir: &std::path::Path) -> Value {
    match std::fs::read(dir.join(damas_app_lib::PROGRESS_FILE)) {
        Ok(bytes) => {
            let file: Value = serde_json::from_slice(&bytes).expect("JSON");
            file[damas_app_lib::GAMES_PLAYED_KEY].clone()
        }
        Err(_) => Value::Null,
    }
}

fn counts(english: u32, turkish: u32) -> Value {
    json!({"english": english, "international": 0, "turkish": turkish, "diamond": 0, "capture": 0})
}

/// English vs the easy CPU from black to move with one capture, 14x23, that takes white's last
/// man and wins. `human` is the human's seat (0: black).
fn english_one_capture_from_the_end(human: u8) -> Value {
    json!({"setup": {"variant": {"kind": "english"}, "mode": "cpu", "level": "easy",
        "human_seats": [human], "position": "B:W18:B14"}})
}

#[test]
fn each_game_finished_against_the_cpu_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let waiting = new_game(&app, english("cpu"));
    assert_eq!(app.games_played(&waiting["id"]), Some(0));
    assert_eq!(progress_on_disk(dir.path()), Value::Null);

    // Won by the rules, then undone and replayed: one game.
    let won = new_game(&app, english_one_capture_from_the_end(0));
    let args = json!({"id": won["id"], "moveText": "14x23"});
    assert_eq!(app.ok("play_move", args)["outcome"]["winner"], 0);
    assert_eq!(progress_on_disk(dir.path()), counts(1, 0));
    assert_eq!(app.ok("undo", id(&won))["outcome"], Value::Null);
    assert_eq!(app.ok("redo", id(&won))["outcome"]["winner"], 0);
    assert_eq!(progress_on_disk(dir.path()), counts(1, 0));

    // Lost to the CPU's move.
    let lost = new_game(&app, english_one_capture_from_the_end(1));
    assert_eq!(app.ok("cpu_move", id(&lost))["outcome"]["winner"], 0);
    assert_eq!(progress_on_disk(dir.path()), counts(2, 0));

    // Resigned; resigning again is refused and counts nothing.
    let resigned = new_game(&app, english("cpu"));
    app.ok("resign", id(&resigned));
    assert_eq!(app.error_code("resign", id(&resigned)), "game_over");
    assert_eq!(progress_on_disk(dir.path()), counts(3, 0));

    // Pass-and-play does not count.
    let local = new_game(&app, english("local"));
    app.ok("resign", id(&local));
    assert_eq!(progress_on_disk(dir.path()), counts(3, 0));

    // The CPU of every English game hears it, the one waiting since before too; other games not.
    assert_eq!(app.games_played(&waiting["id"]), Some(3));
    assert_eq!(
        app.games_played(&new_game(&app, english("cpu"))["id"]),
        Some(3)
    );
    let turkish =
        json!({"setup": {"variant": {"kind": "turkish"}, "mode": "cpu", "level": "easy"}});
    let turkish = new_game(&app, turkish);
    assert_eq!(app.games_played(&turkish["id"]), Some(0));
    app.ok("resign", id(&turkish));
    assert_eq!(progress_on_disk(dir.path()), counts(3, 1));
    assert_eq!(app.games_played(&waiting["id"]), Some(3));
    let rematch = app.ok("rematch", id(&turkish));
    assert_eq!(app.games_played(&rematch["id"]), Some(1));
}

#[test]
fn the_count_survives_a_restart_and_a_finished_game_stays_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (won, waiting) = {
        let app = TestApp::start(dir.path());
        let waiting = new_game(&app, english("cpu"));
        let won = new_game(&app, english_one_capture_from_the_end(0));
        app.ok("play_move", json!({"id": won["id"], "moveText": "14x23"}));
        app.ok("undo", id(&won));
        (won, waiting)
    };
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    assert_eq!(app.games_played(&waiting["id"]), Some(1));
    assert_eq!(app.games_played(&won["id"]), Some(1));
    // The end replayed after the restart is the same game.
    assert_eq!(app.ok("redo", id(&won))["outcome"]["winner"], 0);
    assert_eq!(progress_on_disk(dir.path()), counts(1, 0));
    app.ok("resign", id(&waiting));
    assert_eq!(progress_on_disk(dir.path()), counts(2, 0));
}

#[test]
fn an_unreadable_count_is_zero_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join(damas_app_lib::PROGRESS_FILE);
    std::fs::write(
        &progress,
        serde_json::to_vec(&json!({"games_finished_vs_cpu": {"english": "lots", "turkish": 4}}))
            .unwrap(),
    )
    .unwrap();
    {
        let app = TestApp::start(dir.path());
        let notices = app.ok("take_startup_notices", json!({}));
        assert_eq!(notices.as_array().map(Vec::len), Some(1), "{notices}");
        assert_eq!(notices[0]["code"], "corrupt_progress");
        assert!(notices[0]["message"].as_str().unwrap().contains("english"));
        let game = new_game(&app, english("cpu"));
        assert_eq!(app.games_played(&game["id"]), Some(0));
        app.ok("resign", id(&game));
        // Rewritten whole: the unreadable count replaced, the readable one kept.
        assert_eq!(progress_on_disk(dir.path()), counts(1, 4));
    }
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));

    // A file that is not JSON is set aside, and the counts start from 0.
    drop(app);
    std::fs::write(&progress, b"{\"games_finished").unwrap();
    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices[0]["code"], "corrupt_progress", "{notices}");
    let aside = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("progress.corrupt-")
        })
        .count();
    assert_eq!(aside, 1);
    let game = new_game(&app, english("cpu"));
    assert_eq!(app.games_played(&game["id"]), Some(0));
}
