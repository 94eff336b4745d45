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
        args.extend_from_slice(&["--level", "expert", "--movetime", "500"]);
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
        &[
            "selfplay",
            "english",
            "--levels",
            "expert,baseline",
            "--movetime",
            "6000",
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
fn the_harness_knows_expert_and_baseline_and_names_the_levels_it_knows() {
    let output = damas(&["selfplay", "english", "--levels", "expert,grandmaster"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for name in ["grandmaster", "expert", "baseline"] {
        assert!(stderr.contains(name), "{name} missing: {stderr}");
    }
    // A deterministic baseline answer: the same move twice, and a legal one.
    let args = [
        "bestmove",
        "international",
        "--level",
        "baseline",
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

/// `selfplay --record FILE` writes one line per game (number, players by seat, result, ending,
/// plies, moves) and the table ends with the endings; a file that cannot be created is a typed
/// error before any game is played.
#[test]
fn selfplay_records_its_games_and_refuses_a_bad_record_path() {
    let dir = std::env::temp_dir().join(format!("damas-cli-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.tsv");
    let path_text = path.to_str().expect("utf-8 path");
    let args = [
        "selfplay",
        "english",
        "--levels",
        "easy,easy",
        "--games",
        "2",
        "--record",
        path_text,
    ];
    let output = damas(&args);
    assert!(output.status.success(), "{output:?}");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("endings: "), "{table}");
    let recorded = std::fs::read_to_string(&path).expect("the record file");
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), 2, "{recorded}");
    for (index, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "{line}");
        assert_eq!(fields[0], index.to_string());
        assert_eq!(fields[1], "easy,easy");
        assert_eq!(
            fields[5].split(' ').count().to_string(),
            fields[4],
            "one move per ply: {line}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);

    let missing = dir.join("no-such-dir").join("games.tsv");
    // 400 games of hard would take an hour: the refusal must come before them.
    let output = damas(&[
        "selfplay",
        "international",
        "--levels",
        "hard,hard",
        "--games",
        "400",
        "--record",
        missing.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no-such-dir"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// `selfplay --level-openings` judges openings by the draughts reference search: a star game
/// is refused before any game is played, and a draughts match reports how many openings it
/// drew again.
#[test]
fn level_openings_are_for_the_draughts_games() {
    for game in ["diamond", "capture"] {
        let output = damas(&[
            "selfplay",
            game,
            "--levels",
            "hard,hard",
            "--games",
            "400",
            "--opening-plies",
            "4",
            "--level-openings",
        ]);
        assert_eq!(output.status.code(), Some(2), "{game}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--level-openings"), "{game}: {stderr}");
        assert!(!stderr.contains("panicked"), "{game}: {stderr}");
        assert!(output.stdout.is_empty(), "{game}");
    }
    let output = damas(&[
        "selfplay",
        "international",
        "--levels",
        "easy,easy",
        "--games",
        "4",
        "--seed",
        "3",
        "--opening-plies",
        "4",
        "--level-openings",
    ]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("level openings: 1 of 2 openings drawn again"),
        "{stdout}"
    );
}

/// `selfplay --list-openings` prints each pair's opening without playing (pair, openings turned
/// down before it, moves); `--only-games` plays some games of a match, numbered as in the whole
/// match, and refuses a number outside it before anything is played.
#[test]
fn selfplay_lists_openings_and_plays_only_the_games_asked_for() {
    let base = [
        "selfplay",
        "turkish",
        "--levels",
        "easy,easy",
        "--games",
        "20",
        "--seed",
        "10",
        "--opening-plies",
        "4",
        "--level-openings",
    ];
    let output = damas(&[&base[..], &["--list-openings"]].concat());
    assert!(output.status.success(), "{output:?}");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 10, "{lines:?}");
    for (pair, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[0], pair.to_string());
        assert_eq!(fields[2].split(' ').count(), 4, "{line}");
        // Pair 2's first draw, f3-f4 c6-c5 g3-g4 f6-f5, loses two men and a king by force
        // (tests/search_smoke.rs has the four turned down).
        assert_eq!(fields[1] != "0", [2, 3, 5, 7].contains(&pair), "{line}");
    }

    let dir = std::env::temp_dir().join(format!("damas-cli-only-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.tsv");
    let record = path.to_str().expect("utf-8 path");
    let output = damas(&[&base[..], &["--only-games", "5", "--record", record]].concat());
    assert!(output.status.success(), "{output:?}");
    let recorded = std::fs::read_to_string(&path).expect("the record file");
    let fields: Vec<&str> = recorded.trim_end().split('\t').collect();
    assert_eq!(recorded.lines().count(), 1, "{recorded}");
    assert_eq!(fields[0], "5");
    let pair_two: Vec<&str> = lines[2].split('\t').collect();
    assert!(fields[5].starts_with(pair_two[2]), "{recorded}");
    let _ = std::fs::remove_dir_all(&dir);

    for bad in ["3,20", "x", "-1"] {
        let output = damas(&[&base[..], &["--only-games", bad]].concat());
        assert_eq!(output.status.code(), Some(2), "{bad}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{bad}: {stderr}");
        assert!(output.stdout.is_empty(), "{bad}");
        if bad == "3,20" {
            assert!(stderr.contains("game 20"), "{stderr}");
        }
    }
}

/// `tune capture` fits the win shares to recorded games and prints the weights as Rust, and
/// refuses a match that is not of three seats, a game it cannot tune, recorded games for the
/// draughts tuner, and files that are missing or not records, each with a message before
/// anything is played.
#[test]
fn tune_capture_fits_recorded_games_and_refuses_what_it_cannot_use() {
    let dir = std::env::temp_dir().join(format!("damas-cli-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("games.tsv");
    let record_text = record.to_str().expect("utf-8 path");
    let output = damas(&[
        "selfplay",
        "capture",
        "--players",
        "3",
        "--levels",
        "easy,easy,easy",
        "--games",
        "20",
        "--record",
        record_text,
    ]);
    assert!(output.status.success(), "{output:?}");
    let output = damas(&["tune", "capture", "--games-from", record_text]);
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(report.contains("capture, 3 seats: 20 games"), "{report}");
    assert!(
        report.contains("pub const WEIGHTS: [f32; FEATURES] = ["),
        "{report}"
    );
    assert_eq!(report.matches(", // ").count(), 13, "{report}");

    let not_a_record = dir.join("not-a-record.tsv");
    std::fs::write(&not_a_record, "a line\n").expect("write");
    let missing = dir.join("missing.tsv");
    for (args, message) in [
        (
            vec![
                "tune",
                "capture",
                "--levels",
                "hard,medium",
                "--games",
                "400",
            ],
            "3 seats, not 2",
        ),
        (vec!["tune", "diamond", "--games", "400"], "the tuner fits"),
        (
            vec!["tune", "english", "--games-from", record_text],
            "only available for capture",
        ),
        (
            vec![
                "tune",
                "capture",
                "--games-from",
                not_a_record.to_str().expect("utf-8"),
            ],
            "line 1 of the games file",
        ),
        (
            vec![
                "tune",
                "capture",
                "--games-from",
                missing.to_str().expect("utf-8"),
            ],
            "could not read the games",
        ),
    ] {
        let output = damas(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
