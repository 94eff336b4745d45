//! Sharing a game through the session layer on the real games: an imported game keeps its tags
//! (shown in its view, saved, written back unchanged), the app's own exports name the day, the
//! players and the result, star games with three players number their moves by round, and a text
//! that does not import says why as a code with arguments.

use damas::notation::fen::FenError;
use damas::position::PositionError;
use damas::session::{pdn_date, GameSetup, ImportError, ImportProblem, SavedSession, Session};
use damas::{MoveError, SearchContext, SetupError};
use serde_json::json;

fn setup(kind: &str, players: u8, mode: serde_json::Value) -> GameSetup {
    let mut value = json!({"variant": {"kind": kind, "players": players}});
    for (key, item) in mode.as_object().expect("an object") {
        value[key] = item.clone();
    }
    serde_json::from_value(value).expect("a setup")
}

fn local() -> damas::session::Mode {
    damas::session::Mode::Local
}

fn tag_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|line| line.starts_with('[')).collect()
}

/// A PDN as another program might write it: its own tag order, every roster tag filled, a tag
/// this app does not know. Its movetext is in the writer's layout, so the whole text comes back.
const CLUB_GAME: &str = "[GameType \"21\"]\n\
[Event \"Club night\"]\n\
[Site \"Zaragoza\"]\n\
[Date \"2026.11.28\"]\n\
[Round \"3\"]\n\
[White \"Ana Ruiz\"]\n\
[Black \"Luis \\\"el Rápido\\\" Gil\"]\n\
[Annotator \"Marta\"]\n\
[Result \"*\"]\n\
\n\
1. 11-15 22-18 2. 15x22 25x18 *\n";

#[test]
fn an_imported_pdn_keeps_its_tags_and_exports_unchanged() {
    let session = Session::import("a".into(), CLUB_GAME, local()).expect("imports");
    assert_eq!(
        session.export_text(),
        CLUB_GAME,
        "the text round trips unchanged"
    );
    // Even with a player's name given, the imported players stay.
    assert_eq!(session.export_text_for(Some("Pepa")), CLUB_GAME);
    let view = session.view();
    let shown: Vec<(&str, &str)> = view
        .tags
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            ("GameType", "21"),
            ("Event", "Club night"),
            ("Site", "Zaragoza"),
            ("Date", "2026.11.28"),
            ("Round", "3"),
            ("White", "Ana Ruiz"),
            ("Black", "Luis \"el Rápido\" Gil"),
            ("Annotator", "Marta"),
            ("Result", "*"),
        ]
    );
    // Saved and restored with the game.
    let saved = SavedSession::from_json(&session.to_save().to_json()).expect("reads");
    let restored = saved.restore().expect("replays");
    assert_eq!(restored.export_text(), CLUB_GAME);
    assert_eq!(restored.view().tags, view.tags);
}

#[test]
fn an_imported_game_played_on_keeps_its_header_and_tells_the_new_result() {
    let mut session = Session::import("a".into(), CLUB_GAME, local()).expect("imports");
    session.resign().expect("Black, to move, resigns");
    let text = session.export_text();
    assert_eq!(
        tag_lines(&text),
        [
            "[GameType \"21\"]",
            "[Event \"Club night\"]",
            "[Site \"Zaragoza\"]",
            "[Date \"2026.11.28\"]",
            "[Round \"3\"]",
            "[White \"Ana Ruiz\"]",
            "[Black \"Luis \\\"el Rápido\\\" Gil\"]",
            "[Annotator \"Marta\"]",
            "[Result \"1-0\"]",
            "[Resigned \"black\"]",
        ]
    );
    assert!(text.trim_end().ends_with("25x18 1-0"), "{text}");
    // Another program's win the rules did not reach reads as a resignation: its header is kept,
    // the resignation added.
    let won = CLUB_GAME.replace('*', "1-0");
    let session = Session::import("b".into(), &won, local()).expect("imports");
    assert_eq!(session.resigned(), Some(0));
    assert_eq!(
        session.export_text(),
        won.replace(
            "[Result \"1-0\"]\n",
            "[Result \"1-0\"]\n[Resigned \"black\"]\n"
        )
    );
}

#[test]
fn the_apps_own_export_names_the_day_the_players_and_the_result() {
    let vs_hard = json!({"mode": "cpu", "level": "hard", "human_seats": [1]});
    let mut session = Session::new("g".into(), &setup("english", 2, vs_hard)).expect("a game");
    // English: Black (seat 0, the CPU) moves first.
    session
        .play_cpu_move(&SearchContext::new())
        .expect("the CPU's first move");
    let reply = session.game().legal_moves()[0].text.clone();
    session.play_move(&reply).expect("the human's reply");
    session.resign().expect("the human resigns");
    let text = session.export_text_for(Some("  Pepa  "));
    let tags = tag_lines(&text);
    let date = format!("[Date \"{}\"]", pdn_date(session.created()));
    for expected in [
        "[Event \"Damas\"]",
        date.as_str(),
        "[White \"Pepa\"]",
        "[Black \"CPU (hard)\"]",
        "[Result \"0-1\"]",
        "[Resigned \"white\"]",
    ] {
        assert!(tags.contains(&expected), "{expected} in {text}");
    }
    assert!(text.trim_end().ends_with("0-1"), "{text}");
    // No name given: the human seat is unknown ("?"), the CPU's still named.
    let text = session.export_text();
    assert!(text.contains("[White \"?\"]") && text.contains("[Black \"CPU (hard)\"]"));
    // A name that would break the tag line is cleaned.
    let text = session.export_text_for(Some("Pe\npa"));
    assert!(text.contains("[White \"Pepa\"]"), "{text}");
    // Re-imported, the export is a fixed point.
    let again = Session::import("h".into(), &text, local()).expect("re-imports");
    assert_eq!(again.export_text(), text);
}

#[test]
fn pdn_dates_are_the_utc_day() {
    assert_eq!(pdn_date(0), "1970.01.01");
    assert_eq!(pdn_date(951_782_400_000), "2000.02.29");
    assert_eq!(pdn_date(946_598_400_000 + 86_399_999), "1999.12.31");
    assert_eq!(pdn_date(1_796_601_600_000), "2026.12.07");
}

#[test]
fn star_games_with_three_players_number_their_moves_by_round() {
    let mut session =
        Session::new("d".into(), &setup("diamond", 3, json!({"mode": "local"}))).expect("a game");
    let mut played = Vec::new();
    for _ in 0..4 {
        let text = session.game().legal_moves()[0].text.clone();
        session.play_move(&text).expect("a legal move");
        played.push(text);
    }
    let export = session.export_text();
    let movetext: String = export
        .lines()
        .filter(|line| !line.starts_with('[') && !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        movetext,
        format!(
            "1. {} {} {} 2. {} *",
            played[0], played[1], played[2], played[3]
        )
    );
    let again = Session::import("e".into(), &export, local()).expect("re-imports");
    assert_eq!(again.game().ply(), 4);
    assert_eq!(again.export_text(), export);
}

fn problem(text: &str) -> (usize, ImportProblem) {
    match Session::import("x".into(), text, local()) {
        Err(ImportError::BadText { line, problem }) => (line, problem),
        other => panic!("{text}: {other:?}"),
    }
}

/// A start position the FEN reader or the board refuses comes back as their own error, wrapped,
/// not as text; its `detail` argument is that error's English text.
#[test]
fn a_bad_start_position_keeps_the_readers_typed_error() {
    // International (GameType 20) has squares 1 to 50: "zz" is none of them.
    let (line, start) = problem("[GameType \"20\"]\n[SetUp \"1\"]\n[FEN \"W:Wzz:B1\"]\n1. 1-6 *\n");
    assert_eq!(line, 3);
    let ImportProblem::StartPosition(SetupError::Position(error)) = &start else {
        panic!("expected the position's error, got {start:?}");
    };
    assert_eq!(
        error,
        &PositionError::NotOnBoard {
            square: "zz".into(),
            squares: 50
        }
    );
    assert_eq!(
        start.args(),
        [("detail", format!("invalid position: {error}"))]
    );
    // The side to move is neither W nor B: the FEN reader's own error.
    let (line, syntax) = problem("[GameType \"20\"]\n[FEN \"X:W31:B20\"]\n*\n");
    assert_eq!(line, 2);
    assert_eq!(
        syntax,
        ImportProblem::StartPosition(SetupError::Position(PositionError::Fen(
            FenError::SideToMove("X".into())
        )))
    );
}

#[test]
fn import_errors_are_codes_with_arguments() {
    let (line, illegal) =
        problem("[GameType \"21\"]\n[Event \"x\"]\n\n1. 11-15 22-18\n2. 15x22 21-17\n");
    // White must take back on 22 (captures are compulsory): move 4, line 5.
    assert_eq!(line, 5);
    assert_eq!(
        illegal,
        ImportProblem::Move {
            ply: 4,
            text: "21-17".into(),
            error: MoveError::Illegal("21-17".into()),
        }
    );
    assert_eq!(illegal.code(), "illegal_move");
    assert_eq!(
        illegal.args(),
        [("ply", "4".to_string()), ("move", "21-17".to_string())]
    );
    let (line, syntax) = problem("[Event \"x\"]\n[Site \"open\n1. 11-15 *\n");
    assert_eq!((line, syntax.code()), (2, "syntax"));
    assert_eq!(
        syntax.args(),
        [("what", "tag_value_not_closed".to_string())]
    );
    let (_, unexpected) = problem("1. 11-15 ) *");
    assert_eq!(
        unexpected.args(),
        [
            ("what", "unexpected".to_string()),
            ("symbol", ")".to_string())
        ]
    );
    let (line, game_type) = problem("[Event \"x\"]\n[GameType \"25\"]\n1. 11-15 *\n");
    assert_eq!((line, game_type.code()), (2, "game_type"));
    assert_eq!(game_type.args(), [("value", "25".to_string())]);
    let (line, start) = problem("[GameType \"20\"]\n[SetUp \"1\"]\n[FEN \"W:Wzz:B1\"]\n1. 1-6 *\n");
    assert_eq!((line, start.code()), (3, "start_position"));
    let (line, seat) = problem("[GameType \"30\"]\n[Resigned \"purple\"]\n*\n");
    assert_eq!((line, seat.code()), (2, "unknown_seat"));
    assert_eq!(seat.args(), [("name", "purple".to_string())]);
    let (_, notation) = problem("[GameType \"21\"]\n1. 11-15 40-45 *\n");
    assert_eq!(notation.code(), "move_syntax");
    assert_eq!(
        problem("[GameType \"21\"]\n[FEN \"B:W18:B14\"]\n1. 14x23 [Resigned \"black\"] *")
            .1
            .code(),
        "syntax",
        "a tag after the moves is a syntax error"
    );
    let (_, after) =
        problem("[GameType \"21\"]\n[FEN \"B:W18:B14\"]\n[Resigned \"white\"]\n1. 14x23 *\n");
    assert_eq!(after, ImportProblem::ResignedAfterEnd);
}
