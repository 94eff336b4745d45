//! The `damas` command line contract, exercised through the real binary.

use serde_json::Value;
use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .output()
        .expect("the damas binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn last_line_count(args: &[&str]) -> u64 {
    let output = damas(args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    let lines = stdout_lines(&output);
    lines
        .last()
        .and_then(|line| line.parse().ok())
        .unwrap_or_else(|| panic!("{args:?}: last line is not a count: {lines:?}"))
}

#[test]
fn perft_prints_the_count_last() {
    assert_eq!(last_line_count(&["perft", "english", "4"]), 1469);
    assert_eq!(last_line_count(&["perft", "international", "3"]), 658);
    assert_eq!(last_line_count(&["perft", "turkish", "3"]), 708);
    assert_eq!(last_line_count(&["perft", "english", "3", "--divide"]), 302);
}

#[test]
fn moves_prints_one_json_object_per_legal_move() {
    let output = damas(&["moves", "english"]);
    assert!(output.status.success());
    let moves: Vec<Value> = stdout_lines(&output)
        .iter()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    assert_eq!(moves.len(), 7);
    for mv in &moves {
        let keys: Vec<&str> = mv.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 5, "{mv}");
        for key in ["move", "from", "to", "path", "captures"] {
            assert!(mv.get(key).is_some(), "{key} missing in {mv}");
        }
    }
    // Black (1–12) moves first: every move starts on row 9–12.
    assert!(moves.iter().all(|mv| {
        let from: u32 = mv["from"].as_str().unwrap().parse().unwrap();
        (9..=12).contains(&from)
    }));
}

#[test]
fn moves_after_a_sequence_show_the_forced_capture() {
    // The Single Corner opening: after 11-15 22-18 Black's only legal move is 15x22.
    let output = damas(&["moves", "english", "--after", "11-15 22-18"]);
    assert!(output.status.success(), "{output:?}");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let mv: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(mv["move"], "15x22");
    assert_eq!(mv["captures"], serde_json::json!(["18"]));
    assert_eq!(mv["path"], serde_json::json!(["15", "22"]));
}

#[test]
fn status_reports_side_result_and_fen() {
    let output = damas(&["status", "international"]);
    assert!(output.status.success());
    let status: Value = serde_json::from_str(stdout_lines(&output)[0].as_str()).unwrap();
    assert_eq!(status["to_move"], "white");
    assert_eq!(status["result"], "ongoing");
    assert!(status["reason"].is_null());
    assert!(status["fen"].as_str().unwrap().starts_with("W:W"));

    // Black to move without pieces has lost.
    let output = damas(&["status", "english", "--fen", "B:W18:B"]);
    let status: Value = serde_json::from_str(stdout_lines(&output)[0].as_str()).unwrap();
    assert_eq!(status["result"], "white");
    assert_eq!(status["reason"], "no_legal_moves");

    // Two kings or one against a lone king is drawn only when no capture is pending (rules.md
    // I9): here White takes the last piece with 14x3.
    let output = damas(&["status", "international", "--fen", "W:WK14:BK9"]);
    let status: Value = serde_json::from_str(stdout_lines(&output)[0].as_str()).unwrap();
    assert_eq!(status["result"], "ongoing");
    let output = damas(&[
        "status",
        "international",
        "--fen",
        "W:WK14:BK9",
        "--after",
        "14x3",
    ]);
    let status: Value = serde_json::from_str(stdout_lines(&output)[0].as_str()).unwrap();
    assert_eq!(status["result"], "white");
}

#[test]
fn bad_input_is_exit_code_two_with_a_message() {
    for args in [
        &["perft", "chess", "3"][..],
        &["perft", "english", "many"],
        &["moves", "english", "--fen", "W:W99:B1"],
        &["moves", "english", "--fen", "not a fen"],
        &["moves", "english", "--fen", "B::"],
        &["status", "international", "--fen", "B::"],
        &["status", "international", "--fen", "B:W,,:B1"],
        &["status", "turkish", "--fen", "B:W,,:B1"],
        &["moves", "english", "--after", "9-14 9-14"],
        &["status", "turkish", "--after", "a1-a9"],
        &["moves", "diamond", "--players", "7"],
        &["moves", "english", "--long-jump"],
        &["perft", "english", "3", "--paths"],
        &["frobnicate"],
    ] {
        let output = damas(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(!output.stderr.is_empty(), "{args:?} says nothing on stderr");
        assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    }
}
