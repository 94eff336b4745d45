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

/// The legal moves' texts, from `damas moves` (independent of the search).
fn legal_moves(args: &[&str]) -> Vec<String> {
    let output = damas(args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    stdout_lines(&output)
        .iter()
        .map(|line| {
            let mv: Value = serde_json::from_str(line).expect("each line is JSON");
            mv["move"].as_str().expect("a move text").to_string()
        })
        .collect()
}

#[test]
fn expert_bestmove_plays_a_legal_move_within_its_movetime_setting() {
    for game in [
        &["english"][..],
        &["turkish", "--after", "c3-c4"],
        &["diamond", "--players", "2"],
    ] {
        let mut args = vec!["bestmove"];
        args.extend_from_slice(game);
        // The search itself: the opening book would answer the draughts openings at once.
        args.extend_from_slice(&["--level", "expert", "--movetime", "500", "--no-book"]);
        let output = damas(&args);
        assert!(output.status.success(), "{args:?}: {output:?}");
        let chosen = stdout_lines(&output).last().cloned().expect("a move line");
        let mut moves_args = vec!["moves"];
        moves_args.extend_from_slice(game);
        assert!(
            legal_moves(&moves_args).contains(&chosen),
            "{args:?}: {chosen} is not legal"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        let depth: u32 = stderr
            .split_whitespace()
            .skip_while(|word| *word != "depth")
            .nth(1)
            .and_then(|word| word.parse().ok())
            .unwrap_or_else(|| panic!("{args:?}: no depth in {stderr}"));
        assert!(depth >= 1, "{args:?}: {stderr}");
    }
}

/// The first number after `word` in a search's figures line.
fn figure(stderr: &str, word: &str) -> Option<u64> {
    stderr
        .split_whitespace()
        .skip_while(|found| *found != word)
        .nth(1)
        .and_then(|number| number.parse().ok())
}

#[test]
fn expert_answers_the_start_from_its_book_and_searches_with_no_book() {
    for game in ["english", "international", "turkish"] {
        let args = ["bestmove", game, "--level", "expert", "--movetime", "500"];
        let booked = damas(&args);
        assert!(booked.status.success(), "{args:?}: {booked:?}");
        let stderr = String::from_utf8_lossy(&booked.stderr);
        assert!(stderr.starts_with("book "), "{game}: {stderr}");
        assert_eq!(figure(&stderr, "nodes"), Some(0), "{game}: {stderr}");
        let legal = legal_moves(&["moves", game]);
        let chosen = stdout_lines(&booked).last().cloned().expect("a move line");
        assert!(legal.contains(&chosen), "{game}: {chosen}");

        let mut searching = args.to_vec();
        searching.push("--no-book");
        let searched = damas(&searching);
        assert!(searched.status.success(), "{searching:?}: {searched:?}");
        let stderr = String::from_utf8_lossy(&searched.stderr);
        assert!(!stderr.contains("book"), "{game}: {stderr}");
        assert!(
            figure(&stderr, "depth").is_some_and(|depth| depth >= 1),
            "{game}: {stderr}"
        );
        assert!(
            figure(&stderr, "nodes").is_some_and(|nodes| nodes > 0),
            "{game}: {stderr}"
        );
        let chosen = stdout_lines(&searched)
            .last()
            .cloned()
            .expect("a move line");
        assert!(legal.contains(&chosen), "{game}: {chosen}");
    }
}

#[test]
fn a_movetime_out_of_range_is_refused_before_anything_runs() {
    for args in [
        &[
            "bestmove",
            "english",
            "--level",
            "expert",
            "--movetime",
            "499",
        ][..],
        &[
            "bestmove",
            "english",
            "--level",
            "expert",
            "--movetime",
            "5001",
        ],
        &[
            "bestmove",
            "english",
            "--level",
            "expert",
            "--movetime",
            "0",
        ],
        &[
            "bestmove",
            "english",
            "--level",
            "expert",
            "--movetime",
            "-1",
        ],
        &[
            "bestmove",
            "english",
            "--level",
            "expert",
            "--movetime",
            "fast",
        ],
        &[
            "bestmove",
            "english",
            "--level",
            "expert",
            "--movetime",
            "99999999999999999999",
        ],
    ] {
        let output = damas(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--movetime"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    }
    let output = damas(&[
        "bestmove",
        "english",
        "--level",
        "expert",
        "--movetime",
        "5001",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("500–5000 ms"),
        "the range is named: {stderr}"
    );
}

#[test]
fn bestmove_knows_the_levels_and_names_them_and_a_level_replays() {
    let output = damas(&["bestmove", "english", "--level", "baseline"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for name in ["baseline", "easy", "medium", "hard", "expert"] {
        assert!(stderr.contains(name), "{name} missing: {stderr}");
    }
    // A deterministic hard answer: the same move twice, and a legal one.
    let args = [
        "bestmove",
        "international",
        "--level",
        "hard",
        "--seed",
        "3",
    ];
    let first = damas(&args);
    assert!(first.status.success(), "{first:?}");
    assert_eq!(stdout_lines(&first), stdout_lines(&damas(&args)));
    let chosen = stdout_lines(&first).last().cloned().expect("a move line");
    assert!(legal_moves(&["moves", "international"]).contains(&chosen));
}

#[test]
fn endgame_build_writes_tables_that_probe_and_info_read_and_a_damaged_file_is_reported() {
    let dir = std::env::temp_dir().join(format!("damas-cli-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_string_lossy().to_string();
    let build = damas(&[
        "endgame", "build", "english", "--pieces", "3", "--dir", &dir_text,
    ]);
    assert!(build.status.success(), "{build:?}");
    let lines = stdout_lines(&build);
    assert!(
        lines.iter().any(|line| line.trim_start().starts_with("3 ")),
        "{lines:?}"
    );
    assert!(dir.join("english-2.egtb").exists() && dir.join("english-3.egtb").exists());
    // White's two kings against Black's lone king in the corner: a win, and the
    // moves that keep it are listed with their values.
    let probe = damas(&[
        "endgame",
        "probe",
        "english",
        "W:WK30,K31:BK4",
        "--dir",
        &dir_text,
    ]);
    assert!(probe.status.success(), "{probe:?}");
    let lines = stdout_lines(&probe);
    assert!(lines[0].starts_with("win in "), "{lines:?}");
    assert!(
        lines
            .iter()
            .skip(1)
            .any(|line| line.ends_with(&lines[0][..])),
        "{lines:?}"
    );
    // A truncated 3-piece file: info reports it, probing a 3-piece position has no table.
    let three = dir.join("english-3.egtb");
    let bytes = std::fs::read(&three).expect("written");
    std::fs::write(&three, &bytes[..bytes.len() / 2]).expect("writable");
    let info = damas(&["endgame", "info", "english", "--dir", &dir_text]);
    assert!(info.status.success(), "{info:?}");
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("complete up to 2 pieces"), "{text}");
    assert!(
        text.contains("refused: endgame table file is truncated"),
        "{text}"
    );
    let probe = damas(&[
        "endgame",
        "probe",
        "english",
        "W:WK30,K31:BK4",
        "--dir",
        &dir_text,
    ]);
    assert!(probe.status.success(), "{probe:?}");
    assert_eq!(stdout_lines(&probe)[0], "not in the tables");
    // Not a draughts game, or a piece count out of range: a message and exit code 2.
    for args in [
        ["endgame", "build", "diamond", "--pieces", "3"],
        ["endgame", "build", "english", "--pieces", "9"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--dir", &dir_text]);
        let output = damas(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
