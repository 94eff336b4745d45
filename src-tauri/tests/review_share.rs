//! Review (the view at an earlier ply) and sharing (PDN / record text export and import) through
//! the app's commands: every game's export re-imports to the same record, and bad texts are typed
//! errors that keep nothing.

mod common;

use common::TestApp;
use serde_json::{json, Value};

fn setup(kind: &str, players: u8, long_jump: bool) -> Value {
    json!({"setup": {"variant": {"kind": kind, "players": players, "long_jump": long_jump}, "mode": "local"}})
}

fn local() -> Value {
    json!({"mode": "local"})
}

/// Plays `plies` moves (or until the end), choosing among the legal moves by the ply so games
/// differ from the first-move line; returns the view after each ply, the start first.
fn play(app: &TestApp, mut view: Value, plies: usize) -> Vec<Value> {
    let mut views = vec![view.clone()];
    for ply in 0..plies {
        let moves = view["legal_moves"].as_array().expect("legal moves").clone();
        if moves.is_empty() {
            break;
        }
        let chosen = &moves[(ply * 7 + 3) % moves.len()]["move"];
        view = app.ok("play_move", json!({"id": view["id"], "moveText": chosen}));
        views.push(view.clone());
    }
    views
}

fn move_texts(view: &Value) -> Vec<Value> {
    view["history"]
        .as_array()
        .expect("a history")
        .iter()
        .map(|entry| entry["move"]["move"].clone())
        .collect()
}

#[test]
fn the_view_at_each_ply_is_the_position_then_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let start = app.ok("new_game", setup("turkish", 2, false));
    let views = play(&app, start, 10);
    let id = &views[0]["id"];
    for (ply, then) in views.iter().enumerate() {
        let review = app.ok("view_at", json!({"id": id, "ply": ply}));
        assert_eq!(review["review_ply"], ply);
        assert_eq!(review["ply"], ply);
        assert_eq!(review["pieces"], then["pieces"], "ply {ply}");
        assert_eq!(review["to_move"], then["to_move"], "ply {ply}");
        assert_eq!(review["legal_moves"], json!([]), "read-only at ply {ply}");
        assert_eq!(review["can_undo"], false);
    }
    // The live game is untouched and carries no review mark.
    let live = app.ok("get_game", json!({"id": id}));
    assert_eq!(live["ply"], views.len() - 1);
    assert!(live.get("review_ply").is_none());
    let past = json!({"id": id, "ply": views.len()});
    assert_eq!(app.error_code("view_at", past), "bad_input");
    assert_eq!(
        app.error_code("view_at", json!({"id": "nope", "ply": 0})),
        "no_such_game"
    );
}

#[test]
fn every_games_export_reimports_to_the_same_record() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    for (kind, players, long_jump, header) in [
        ("english", 2, false, "[GameType \"21\"]"),
        ("international", 2, false, "[GameType \"20\"]"),
        ("turkish", 2, false, "[GameType \"30\"]"),
        ("diamond", 3, false, "[FEN \"diamond:3 "),
        ("diamond", 2, false, "[FEN \"diamond:2 "),
        ("capture", 2, false, "[FEN \"capture:2 "),
        ("capture", 4, true, "[FEN \"capture:4:long "),
    ] {
        let start = app.ok("new_game", setup(kind, players, long_jump));
        let views = play(&app, start, 14);
        let last = views.last().expect("a view");
        let export = app.ok("export_game", json!({"id": last["id"]}));
        let text = export["text"].as_str().expect("the text");
        assert!(text.contains(header), "{kind}: {text}");
        let file_name = export["file_name"].as_str().expect("a file name");
        let extension = if header.starts_with("[GameType") {
            ".pdn"
        } else {
            ".txt"
        };
        assert!(file_name.ends_with(extension), "{file_name}");
        let imported = app.ok("import_game", json!({"text": text, "setup": local()}));
        assert_ne!(imported["id"], last["id"]);
        assert_eq!(imported["variant"], last["variant"], "{kind}");
        assert_eq!(move_texts(&imported), move_texts(last), "{kind}");
        assert_eq!(imported["pieces"], last["pieces"], "{kind}");
        assert_eq!(imported["to_move"], last["to_move"], "{kind}");
        let again = app.ok("export_game", json!({"id": imported["id"]}));
        assert_eq!(
            again["text"], export["text"],
            "{kind}: the export is a fixed point"
        );
    }
}

#[test]
fn a_finished_game_reimports_with_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    // English: Black's capture takes White's last man (hand-checked: 14x23 over 18).
    let mut won = setup("english", 2, false);
    won["setup"]["position"] = json!("B:W18:B14");
    let view = app.ok("new_game", won);
    let view = app.ok("play_move", json!({"id": view["id"], "moveText": "14x23"}));
    assert_eq!(view["outcome"]["winner"], 0, "Black (seat 0) wins");
    let text = app.ok("export_game", json!({"id": view["id"]}))["text"].clone();
    let text = text.as_str().expect("text");
    assert!(
        text.contains("[FEN \"B:W18:B14\"]") && text.contains("0-1"),
        "{text}"
    );
    let imported = app.ok("import_game", json!({"text": text, "setup": local()}));
    assert_eq!(imported["outcome"], view["outcome"]);

    // A resignation, in a draughts game and in a star game.
    for (kind, players) in [("international", 2), ("diamond", 3)] {
        let start = app.ok("new_game", setup(kind, players, false));
        let views = play(&app, start, 4);
        let id = &views.last().expect("a view")["id"];
        let resigned = app.ok("resign", json!({"id": id}));
        let text = app.ok("export_game", json!({"id": id}))["text"].clone();
        let imported = app.ok("import_game", json!({"text": text, "setup": local()}));
        assert_eq!(imported["outcome"], resigned["outcome"], "{kind}: {text}");
        assert_eq!(move_texts(&imported), move_texts(&resigned));
    }
}

#[test]
fn a_pdn_from_another_program_continues_against_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let text =
        "[Event \"Club night\"]\n[GameType \"21\"]\n\n1. 11-15 {book} 22-18 2. 15x22 25x18 *\n";
    let setup = json!({"mode": "cpu", "level": "easy", "human_seats": [0]});
    let view = app.ok("import_game", json!({"text": text, "setup": setup}));
    assert_eq!(view["mode"], "cpu");
    assert_eq!(view["ply"], 4);
    assert_eq!(
        move_texts(&view),
        vec![
            json!("11-15"),
            json!("22-18"),
            json!("15x22"),
            json!("25x18")
        ]
    );
    // Black (seat 0) is to move and human: the game goes on from the PDN's last position.
    assert_eq!(view["to_move"], 0);
    assert_eq!(view["cpu_to_move"], false);
    // Without human seats the human takes the side to move at the end: here White (seat 1).
    let text = "[GameType \"21\"]\n1. 11-15 22-18 2. 15x22 *\n";
    let setup = json!({"mode": "cpu", "level": "easy"});
    let white = app.ok("import_game", json!({"text": text, "setup": setup}));
    assert_eq!(white["human_seats"], json!([1]));
    assert_eq!(white["to_move"], 1);
    assert_eq!(white["cpu_to_move"], false);
    let listed = app.ok("list_saved", json!({}));
    let ids: Vec<&Value> = listed
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| &row["id"])
        .collect();
    assert!(
        ids.contains(&&view["id"]) && ids.contains(&&white["id"]),
        "{listed}"
    );
    // Saved: still there after a restart.
    drop(app);
    let app = TestApp::start(dir.path());
    let again = app.ok("get_game", json!({"id": view["id"]}));
    assert_eq!(move_texts(&again), move_texts(&view));
}

#[test]
fn bad_texts_name_their_line_and_keep_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    for (text, line, reason, args) in [
        // An illegal move on line 5: White must take back on 22 (captures are compulsory).
        (
            "[GameType \"21\"]\n[Event \"x\"]\n\n1. 11-15 22-18\n2. 15x22 21-17\n",
            5,
            "illegal_move",
            json!({"ply": "4", "move": "21-17"}),
        ),
        // A square the English board does not have, on line 4.
        (
            "[GameType \"21\"]\n\n1. 11-15 23-19\n2. 9-13 40-45\n",
            4,
            "move_syntax",
            json!({"ply": "4", "move": "40-45"}),
        ),
        // A tag not closed, on line 2.
        (
            "[Event \"x\"]\n[Site \"open\n1. 11-15 *\n",
            2,
            "syntax",
            json!({"what": "tag_value_not_closed"}),
        ),
        // A game type this app does not play.
        (
            "[Event \"x\"]\n[GameType \"25\"]\n1. 11-15 *\n",
            2,
            "game_type",
            json!({"value": "25"}),
        ),
        // A start position that is not one (its detail is the position reader's English).
        (
            "[GameType \"20\"]\n[SetUp \"1\"]\n[FEN \"W:Wzz:B1\"]\n1. 1-6 *\n",
            3,
            "start_position",
            Value::Null,
        ),
        (
            "[GameType \"30\"]\n[Resigned \"purple\"]\n*\n",
            2,
            "unknown_seat",
            json!({"name": "purple"}),
        ),
        (
            "1. 11-15 * 2. 9-13\n",
            1,
            "syntax",
            json!({"what": "text_after_result"}),
        ),
        // The star games' record text: an illegal Diamond move on line 3, an unknown player count.
        (
            "[SetUp \"1\"]\n[FEN \"diamond:2 R/rr/rrr/rrrr/4rrrrr4/12/11/10/y8/yy8/yyy8/yyyy8/Yyyyy8/4/3/2/1 r 0 0\"]\n1. F1P1-F9P5 *\n",
            3,
            "illegal_move",
            json!({"ply": "1", "move": "F1P1-F9P5"}),
        ),
        (
            "[Event \"x\"]\n[FEN \"diamond:7 R/rr/rrr/rrrr/4rrrrr4/12/11/10/y8/yy8/yyy8/yyyy8/Yyyyy8/4/3/2/1 r 0 0\"]\n*\n",
            2,
            "start_position",
            Value::Null,
        ),
    ] {
        let error = app
            .invoke("import_game", json!({"text": text, "setup": local()}))
            .expect_err(text);
        assert_eq!(error["code"], "bad_record", "{text}: {error}");
        let message = error["message"].as_str().expect("a message");
        assert!(
            message.starts_with(&format!("line {line}:")),
            "{text}: {message}"
        );
        // The problem as a code with arguments, for the UI to word in the player's language.
        assert_eq!(error["line"], line, "{text}: {error}");
        assert_eq!(error["reason"], reason, "{text}: {error}");
        if args.is_null() {
            assert!(error["args"]["detail"].is_string(), "{text}: {error}");
        } else {
            assert_eq!(error["args"], args, "{text}: {error}");
        }
    }
    // A mode that does not fit the game's seats is the setup's error.
    let cpu_everywhere = json!({"mode": "cpu", "level": "easy", "human_seats": [0, 1]});
    let text = "[GameType \"21\"]\n1. 11-15 *\n";
    assert_eq!(
        app.error_code(
            "import_game",
            json!({"text": text, "setup": cpu_everywhere})
        ),
        "bad_input"
    );
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
    drop(app);
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
}

#[test]
fn an_imported_pdn_keeps_its_header_and_the_apps_export_names_the_players() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let text = "[Event \"Open\"]\n[Site \"Huesca\"]\n[Date \"2026.10.01\"]\n[Round \"?\"]\n\
                [White \"Ana\"]\n[Black \"Luis\"]\n[Result \"*\"]\n[GameType \"20\"]\n\n1. 32-28 *\n";
    let view = app.ok("import_game", json!({"text": text, "setup": local()}));
    assert_eq!(view["tags"][0], json!(["Event", "Open"]), "{view}");
    assert_eq!(view["tags"][4], json!(["White", "Ana"]));
    let export = app.ok("export_game", json!({"id": view["id"], "player": "Pepa"}));
    assert_eq!(export["text"], text, "written back unchanged");
    // Kept across a restart.
    drop(app);
    let app = TestApp::start(dir.path());
    let again = app.ok("get_game", json!({"id": view["id"]}));
    assert_eq!(again["tags"], view["tags"]);

    // The app's own game against the CPU: the player's name, the CPU's level, the day, the result.
    let setup = json!({"setup": {"variant": {"kind": "international"}, "mode": "cpu", "level": "easy", "human_seats": [0]}});
    let view = app.ok("new_game", setup);
    assert!(
        view.get("tags").is_none(),
        "a game started here has no read tags"
    );
    let resigned = app.ok("resign", json!({"id": view["id"]}));
    assert_eq!(resigned["outcome"]["winner"], 1);
    let export = app.ok("export_game", json!({"id": view["id"], "player": "Pepa"}));
    let text = export["text"].as_str().expect("text");
    let date = format!(
        "[Date \"{}\"]",
        damas::session::pdn_date(view["created"].as_u64().expect("created"))
    );
    for tag in [
        "[White \"Pepa\"]",
        "[Black \"CPU (easy)\"]",
        "[Result \"0-1\"]",
        date.as_str(),
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    let path = app.ok("save_export", json!({"id": view["id"], "player": "Pepa"}));
    let written = std::fs::read_to_string(path.as_str().expect("a path")).expect("the file");
    assert_eq!(written, text);
}

#[test]
fn save_export_writes_the_text_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let start = app.ok("new_game", setup("english", 2, false));
    let views = play(&app, start, 6);
    let id = &views.last().expect("a view")["id"];
    let path = app.ok("save_export", json!({"id": id}));
    let path = std::path::PathBuf::from(path.as_str().expect("a path"));
    assert!(path.starts_with(dir.path().join("exports")), "{path:?}");
    let written = std::fs::read_to_string(&path).expect("the file");
    assert_eq!(written, app.ok("export_game", json!({"id": id}))["text"]);
    assert!(written.starts_with("[Event \"Damas\"]"));
}

#[test]
fn a_hint_is_a_legal_move_left_to_play_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let setup = json!({"setup": {"variant": {"kind": "english"}, "mode": "cpu", "level": "easy"}});
    let view = app.ok("new_game", setup);
    let hint = app.ok("hint", json!({"id": view["id"]}));
    let legal = view["legal_moves"].as_array().expect("legal moves");
    assert!(legal.contains(&hint["move"]), "{}", hint["move"]);
    assert_eq!(hint["view"]["ply"], 0, "not played");
    assert_eq!(hint["view"]["hints"], 1);
    let played = app.ok(
        "play_move",
        json!({"id": view["id"], "moveText": hint["move"]["move"]}),
    );
    assert_eq!(played["hints"], 1);
    // Kept with the game across a restart.
    drop(app);
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("get_game", json!({"id": view["id"]}))["hints"], 1);
    // Not on one device.
    let local = app.ok(
        "new_game",
        json!({"setup": {"variant": {"kind": "english"}, "mode": "local"}}),
    );
    assert_eq!(
        app.error_code("hint", json!({"id": local["id"]})),
        "bad_input"
    );
    assert!(
        local.get("hints").is_none(),
        "no hint count in a view without hints"
    );
}

#[test]
fn a_star_games_record_text_is_as_documented() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let view = app.ok("new_game", setup("diamond", 2, false));
    app.ok(
        "play_move",
        json!({"id": view["id"], "moveText": "F1P1-F6P4"}),
    );
    let text = app.ok("export_game", json!({"id": view["id"]}))["text"].clone();
    // docs/notation.md, "Sharing a game": the day the game was started (UTC).
    let date = damas::session::pdn_date(view["created"].as_u64().expect("created"));
    let documented = format!(
        "[Event \"Damas\"]\n[Site \"?\"]\n[Date \"{date}\"]\n[Round \"?\"]\n[White \"?\"]\n\
         [Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"diamond:2 R/rr/rrr/rrrr/\
         4rrrrr4/12/11/10/y8/yy8/yyy8/yyyy8/Yyyyy8/4/3/2/1 r 0 0\"]\n\n1. F1P1-F6P4 *\n"
    );
    assert_eq!(text, documented);
}

#[test]
fn a_win_the_rules_did_not_reach_is_read_as_a_resignation() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    // Another program's PDN: White (seat 1 in English checkers) won after two moves, so Black
    // resigned.
    let text = "[GameType \"21\"]\n[Result \"1-0\"]\n1. 11-15 22-18 1-0\n";
    let view = app.ok("import_game", json!({"text": text, "setup": local()}));
    assert_eq!(
        view["outcome"],
        json!({"winner": 1, "reason": "resignation"})
    );
    let again = app.ok("export_game", json!({"id": view["id"]}))["text"].clone();
    let again = again.as_str().expect("text");
    assert!(
        again.contains("[Resigned \"black\"]") && again.contains("1-0"),
        "{again}"
    );
    // An unfinished result keeps the game going.
    let going = "[GameType \"21\"]\n1. 11-15 22-18 *\n";
    let view = app.ok("import_game", json!({"text": going, "setup": local()}));
    assert_eq!(view["outcome"], Value::Null);
    assert_eq!(view["to_move"], 0);
}
