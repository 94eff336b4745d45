//! The rules pages' diagrams (`ui/js/diagrams.js`): every one replays through the `diagram` command
//! and shows what its caption says (a capture, a jump, the win); bad diagrams are typed errors.

mod common;

use common::TestApp;
use serde_json::{json, Value};

/// The module's object: plain JSON after `export const DIAGRAMS = `, up to the final `;`.
fn diagrams() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ui/js/diagrams.js");
    let text = std::fs::read_to_string(path).expect("ui/js/diagrams.js");
    let start = text
        .find("export const DIAGRAMS = ")
        .expect("the DIAGRAMS export");
    let object = text[start..]
        .trim_start_matches("export const DIAGRAMS = ")
        .trim_end()
        .trim_end_matches(';');
    serde_json::from_str(object).expect("diagrams JSON")
}

#[test]
fn every_rules_diagram_replays_as_its_caption_says() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let all = diagrams();
    let games = all["games"].as_object().expect("games");
    assert_eq!(games.len(), 5, "a diagram list for every game");
    for (kind, list) in games {
        let list = list.as_array().expect("a list");
        assert!(list.len() >= 2, "{kind}: an opening and a move at least");
        for diagram in list {
            for language in ["es", "en"] {
                let caption = diagram["caption"][language].as_str().unwrap_or_default();
                assert!(!caption.is_empty(), "{kind}: a caption in {language}");
            }
            let mut setup = json!({"variant": {"kind": kind}, "mode": "local"});
            if let Some(players) = diagram.get("players") {
                setup["variant"]["players"] = players.clone();
            }
            if let Some(position) = diagram.get("position") {
                setup["position"] = position.clone();
            }
            let view = app.ok(
                "diagram",
                json!({"setup": setup, "moves": diagram["moves"]}),
            );
            let moves = diagram["moves"].as_array().expect("moves");
            assert_eq!(view["history"].as_array().map(Vec::len), Some(moves.len()));
            let Some(expect) = diagram.get("expect") else {
                continue;
            };
            let last = &view["history"][moves.len() - 1]["move"];
            if let Some(captures) = expect.get("captures") {
                let taken = last["captures"].as_array().map(Vec::len);
                assert_eq!(
                    taken,
                    captures.as_u64().map(|n| n as usize),
                    "{kind}: {diagram}"
                );
            }
            if let Some(jumps) = expect.get("jumps") {
                assert_eq!(&last["jumps"], jumps, "{kind}: {diagram}");
            }
            if let Some(winner) = expect.get("winner") {
                assert_eq!(&view["outcome"]["winner"], winner, "{kind}: {diagram}");
            }
        }
    }
    // Drawing diagrams keeps no game.
    assert_eq!(app.ok("list_saved", json!({})), json!([]));
}

#[test]
fn a_bad_diagram_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    let setup = |position: &str| json!({"variant": {"kind": "english"}, "mode": "local", "position": position});
    let bad_position = json!({"setup": setup("B:W99:B14"), "moves": []});
    assert_eq!(app.error_code("diagram", bad_position), "bad_input");
    let illegal = json!({"setup": setup("B:W18:B14"), "moves": ["14-17"]});
    assert_eq!(app.error_code("diagram", illegal), "illegal_move");
}
