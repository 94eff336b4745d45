//! The `damas-lab` command line, exercised through the real binary: matches, their records and
//! openings, and the tuners.

use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas-lab"))
        .args(args)
        .output()
        .expect("the damas-lab binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_harness_knows_expert_and_baseline_and_names_the_players_it_knows() {
    let output = lab(&["selfplay", "english", "--levels", "expert,grandmaster"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for name in [
        "grandmaster",
        "expert",
        "baseline",
        "reference",
        "expert-frozen",
        "expert-learned",
        "expert-nobook",
    ] {
        assert!(stderr.contains(name), "{name} missing: {stderr}");
    }
}

#[test]
fn a_movetime_out_of_range_is_refused_before_anything_runs() {
    let output = lab(&[
        "selfplay",
        "english",
        "--levels",
        "expert,baseline",
        "--movetime",
        "6000",
    ]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--movetime"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.stdout.is_empty());
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
    let output = lab(&args);
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
    let output = lab(&[
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
        let output = lab(&[
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
    let output = lab(&[
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
    let output = lab(&[&base[..], &["--list-openings"]].concat());
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
    let output = lab(&[&base[..], &["--only-games", "5", "--record", record]].concat());
    assert!(output.status.success(), "{output:?}");
    let recorded = std::fs::read_to_string(&path).expect("the record file");
    let fields: Vec<&str> = recorded.trim_end().split('\t').collect();
    assert_eq!(recorded.lines().count(), 1, "{recorded}");
    assert_eq!(fields[0], "5");
    let pair_two: Vec<&str> = lines[2].split('\t').collect();
    assert!(fields[5].starts_with(pair_two[2]), "{recorded}");
    let _ = std::fs::remove_dir_all(&dir);

    for bad in ["3,20", "x", "-1"] {
        let output = lab(&[&base[..], &["--only-games", bad]].concat());
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
    let output = lab(&[
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
    let output = lab(&["tune", "capture", "--games-from", record_text]);
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
        let output = lab(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_eval_fits_recorded_games_into_a_weights_file_and_refuses_what_it_cannot_use() {
    use damas::search::eval::patterns::{PatternWeights, GAME_ENGLISH};
    let dir = std::env::temp_dir().join(format!("damas-cli-train-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("games.tsv");
    let record_text = record.to_str().expect("utf-8 path");
    let output = lab(&[
        "selfplay",
        "english",
        "--levels",
        "easy,easy",
        "--games",
        "10",
        "--opening-plies",
        "2",
        "--record",
        record_text,
    ]);
    assert!(output.status.success(), "{output:?}");
    let weights = dir.join("english.pattern");
    let weights_text = weights.to_str().expect("utf-8 path");
    let train = |seed: &str| {
        lab(&[
            "train-eval",
            "english",
            "--games-from",
            record_text,
            "--seed",
            seed,
            "--epochs",
            "20",
            "--skip",
            "2",
            "--out",
            weights_text,
        ])
    };
    let output = train("7");
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(report.contains("english: 10 games"), "{report}");
    assert!(report.contains("5022 weights"), "{report}");
    let bytes = std::fs::read(&weights).expect("the weights were written");
    let read = PatternWeights::from_bytes(&bytes, GAME_ENGLISH).expect("a valid weights file");
    assert!(read.weights.iter().any(|&w| w != 0));
    assert!(train("7").status.success());
    assert_eq!(std::fs::read(&weights).expect("written again"), bytes);

    let not_a_record = dir.join("not-a-record.tsv");
    std::fs::write(&not_a_record, "a line\n").expect("write");
    let missing = dir.join("missing.tsv");
    let nowhere = dir.join("no-such-dir").join("w.pattern");
    for (args, message) in [
        (
            vec![
                "train-eval",
                "turkish",
                "--games-from",
                record_text,
                "--out",
                weights_text,
            ],
            "english only",
        ),
        (
            vec![
                "train-eval",
                "english",
                "--games-from",
                not_a_record.to_str().expect("utf-8"),
                "--out",
                weights_text,
            ],
            "line 1 of the games file",
        ),
        (
            vec![
                "train-eval",
                "english",
                "--games-from",
                missing.to_str().expect("utf-8"),
                "--out",
                weights_text,
            ],
            "could not read the games",
        ),
        (
            vec![
                "train-eval",
                "english",
                "--games-from",
                record_text,
                "--epochs",
                "1",
                "--out",
                nowhere.to_str().expect("utf-8"),
            ],
            "could not write the weights",
        ),
    ] {
        let output = lab(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_writes_the_same_valid_file_twice_and_refuses_what_it_cannot_make() {
    use damas::search::book::Book;
    use damas::{English, GameKind, Position, Variant};
    let dir = std::env::temp_dir().join(format!("damas-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (first, second) = (dir.join("first.book"), dir.join("second.book"));
    for path in [&first, &second] {
        let path = path.to_str().expect("a UTF-8 path");
        let args = [
            "book", "english", "--plies", "3", "--depth", "4", "--out", path,
        ];
        let output = lab(&args);
        assert!(output.status.success(), "{output:?}");
        assert!(
            stdout_lines(&output)
                .iter()
                .any(|line| line.contains("positions")),
            "{output:?}"
        );
    }
    let bytes = std::fs::read(&first).expect("the book was written");
    assert_eq!(
        bytes,
        std::fs::read(&second).expect("written"),
        "depth-limited: the same file"
    );
    let book = Book::decode(bytes, GameKind::English).expect("a valid book");
    assert_eq!((book.plies(), book.depth()), (3, 4));
    // The start, White after each of its 7 moves, Black after the replies to its book move.
    assert!(book.len() > 7, "{}", book.len());
    let start = English::start(Variant::standard(GameKind::English)).expect("a start");
    let text = book
        .lookup(start.zobrist())
        .expect("the start is in the book");
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    assert!(
        moves
            .iter()
            .any(|mv| damas::Describe::move_info(&start, mv).text == text),
        "{text}"
    );

    let out = dir.join("refused.book");
    let out = out.to_str().expect("a UTF-8 path");
    for args in [
        &[
            "book", "diamond", "--plies", "2", "--depth", "2", "--out", out,
        ][..],
        &[
            "book", "english", "--plies", "0", "--depth", "2", "--out", out,
        ],
        &[
            "book", "english", "--plies", "300", "--depth", "2", "--out", out,
        ],
        &["book", "english", "--plies", "2", "--out", out],
        &[
            "book",
            "english",
            "--plies",
            "2",
            "--depth",
            "2",
            "--movetime",
            "500",
            "--out",
            out,
        ],
    ] {
        let output = lab(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
    assert!(!std::path::Path::new(out).exists(), "nothing written");
    std::fs::remove_dir_all(&dir).ok();
}
