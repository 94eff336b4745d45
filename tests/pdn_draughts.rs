//! PDN import and export of English and International games.

use damas::catalogue::new_game;
use damas::games::english::English;
use damas::games::international::International;
use damas::notation::pdn::{self, PdnError, PdnResult, SyntaxProblem};
use damas::{AnyGame, GameKind, MoveError, Position, Record, Variant};

#[test]
fn english_game_with_comments_reads_and_writes_back() {
    let text = r#"[Event "Club night"]
[White "Ana"]
[Black "Beto"]
[Result "*"]
[GameType "21"]

1. 11-15 {an exchange} 22-18 2. 15x22 25x18! ; either capture was legal
3. 8-11 (3. 9-13 29-25) 29-25 4. 4-8 25-22 *
"#;
    let game = pdn::read(text, None, new_game).unwrap();
    assert_eq!(game.game.variant().kind, GameKind::English);
    assert_eq!(game.game.ply(), 8);
    assert_eq!(game.result, PdnResult::Unfinished);
    let history: Vec<String> = game.game.history().into_iter().map(|m| m.text).collect();
    assert_eq!(history[2], "15x22");
    let written = pdn::write(game.game.as_ref(), &[("White", "Ana"), ("Black", "Beto")]);
    assert!(written.contains("[GameType \"21\"]"));
    assert!(written.contains("[White \"Ana\"]"));
    assert!(!written.contains("[FEN"), "standard start needs no FEN tag");
    assert!(written.contains("1. 11-15 22-18 2. 15x22 25x18"));
    assert!(written.trim_end().ends_with("4. 4-8 25-22 *"));
    let again = pdn::read(&written, None, new_game).unwrap();
    assert_eq!(again.game.position_text(), game.game.position_text());
}

#[test]
fn international_game_from_fen_writes_setup_and_result() {
    let variant = Variant::standard(GameKind::International);
    let mut record = Record::new(International::from_text(variant, "B:WK46,K47:BK4,28").unwrap());
    // Black's last man is taken: two kings against one, a draw at once.
    record.play_text("28-32").unwrap();
    record.play_text("46x23").unwrap();
    let written = pdn::write(&record, &[]);
    assert!(written.contains("[GameType \"20\"]"));
    assert!(written.contains("[SetUp \"1\"]"));
    assert!(written.contains("[FEN \"B:WK46,K47:BK4,28\"]"));
    assert!(written.contains("[Result \"1/2-1/2\"]"));
    assert!(written.contains("1... 28-32 2. 46x23 1/2-1/2"), "{written}");
    let read = pdn::read(&written, None, new_game).unwrap();
    assert_eq!(read.result, PdnResult::Draw);
    assert_eq!(read.game.outcome(), AnyGame::outcome(&record));
}

#[test]
fn english_black_win_is_zero_one() {
    let variant = Variant::standard(GameKind::English);
    let mut record = Record::new(English::from_text(variant, "B:W18:B14").unwrap());
    record.play_text("14x23").unwrap();
    let written = pdn::write(&record, &[]);
    assert!(written.contains("[Result \"0-1\"]"), "{written}");
}

#[test]
fn result_tag_given_by_the_caller_wins() {
    let record = Record::new(English::start(Variant::standard(GameKind::English)).unwrap());
    let written = pdn::write(&record, &[("Result", "1/2-1/2")]);
    assert!(written.contains("[Result \"1/2-1/2\"]"));
    assert!(written.trim_end().ends_with("1/2-1/2"));
}

#[test]
fn errors_are_typed() {
    assert!(matches!(
        pdn::read("1. 11-15 23-19 2. 11-15 *", None, new_game),
        Err(PdnError::Move {
            ply: 3,
            error: MoveError::Illegal(_),
            ..
        })
    ));
    assert!(matches!(
        pdn::read("[GameType \"99\"] 1. 11-15 *", None, new_game),
        Err(PdnError::GameType(_))
    ));
    assert!(matches!(
        pdn::read("[GameType \"20\"][FEN \"W:W99:B1\"] *", None, new_game),
        Err(PdnError::Setup(_))
    ));
    assert!(matches!(
        pdn::read_record::<English>(Variant::standard(GameKind::English), "[GameType \"20\"] *"),
        Err(PdnError::WrongGame { .. })
    ));
    assert!(matches!(
        pdn::read("1. 11-15 {never closed", None, new_game),
        Err(PdnError::Syntax {
            at: 9,
            problem: SyntaxProblem::CommentNotClosed
        })
    ));
    for (text, problem) in [
        ("1. 11-15 * 2. 9-13", SyntaxProblem::TextAfterResult),
        ("1. 11-15 [Event \"late\"]", SyntaxProblem::TagInMovetext),
        ("(1. 11-15", SyntaxProblem::VariationNotClosed),
        ("1. 11-15 }", SyntaxProblem::Unexpected('}')),
        ("[ \"x\"]", SyntaxProblem::TagWithoutName),
        ("[Event x]", SyntaxProblem::TagValueNotQuoted),
        ("[Event \"x]\n", SyntaxProblem::TagValueNotClosed),
        ("[Event \"a\\b\"]", SyntaxProblem::BadEscape),
        ("[Event \"x\" 1", SyntaxProblem::TagNotClosed),
    ] {
        match pdn::parse(text) {
            Err(PdnError::Syntax { problem: found, .. }) => assert_eq!(found, problem, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn default_game_applies_without_game_type() {
    let game = pdn::read("1. 32-28 19-23 *", Some(GameKind::International), new_game).unwrap();
    assert_eq!(game.game.variant().kind, GameKind::International);
    assert_eq!(game.game.ply(), 2);
}
