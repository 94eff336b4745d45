//! English checkers, one test per rule sentence of the seed, each citing `docs/rules.md`.

use crate::common;

use common::{english, move_texts, play, play_cycle};
use damas::games::english::English;
use damas::{
    Describe, EndReason, GameKind, GameResult, MoveError, Outcome, PieceView, Position, Record,
    Variant,
};

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn piece_on(position: &English, square: &str) -> Option<PieceView> {
    position.pieces().into_iter().find(|p| p.cell == square)
}

/// rules.md E1: 12 men each on 1–12 (Black) and 21–32 (White); Black moves first.
#[test]
fn start_has_twelve_men_each_and_black_moves_first() {
    let start = English::start(Variant::standard(GameKind::English)).unwrap();
    assert_eq!(
        start.to_text(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(start.to_move(), 0);
    assert_eq!(start.seat_name(0), "black");
    assert_eq!(
        move_texts(&start),
        strings(&["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"])
    );
}

/// rules.md E2: men step diagonally forward only.
#[test]
fn men_move_forward_only() {
    assert_eq!(
        move_texts(&english("B:W32:B14")),
        strings(&["14-17", "14-18"])
    );
    assert_eq!(
        move_texts(&english("W:W14:B1")),
        strings(&["14-10", "14-9"])
    );
}

/// rules.md E2: men capture forward only (a piece behind cannot be taken).
#[test]
fn men_capture_forward_only() {
    // White man behind the black man on 14 (on 10, with 6 empty): no capture.
    assert_eq!(
        move_texts(&english("B:W10:B14")),
        strings(&["14-17", "14-18"])
    );
    // In front (on 18, with 23 empty): the capture.
    assert_eq!(move_texts(&english("B:W18:B14")), strings(&["14x23"]));
}

/// rules.md E2: capturing is mandatory.
#[test]
fn capture_is_mandatory() {
    let position = english("B:W18:B1,14");
    assert_eq!(move_texts(&position), strings(&["14x23"]));
    assert!(matches!(
        position.parse_move("1-6"),
        Err(MoveError::Illegal(_))
    ));
}

/// rules.md E2: any capture may be chosen, even a shorter one (no majority rule).
#[test]
fn any_capture_may_be_chosen() {
    assert_eq!(
        move_texts(&english("B:W17,18,27:B14")),
        strings(&["14x21", "14x23x32"])
    );
}

/// rules.md E2: a started sequence must be completed.
#[test]
fn started_sequence_must_be_completed() {
    let position = english("B:W17,18,27:B14");
    assert!(position.parse_move("14x23").is_err());
    assert!(position
        .moves()
        .iter()
        .all(|mv| position.move_info(mv).to != "23"));
}

/// rules.md E3 and E4: captured pieces stay until the end, none is jumped twice, and the two
/// directions round a loop are one move.
#[test]
fn king_loop_is_one_move_and_no_piece_is_jumped_twice() {
    let position = english("B:W14,15,22,23:BK10");
    let moves = position.moves();
    assert_eq!(moves.len(), 1);
    let info = position.move_info(&moves[0]);
    assert_eq!(info.from, "10");
    assert_eq!(info.to, "10");
    assert_eq!(info.captures, strings(&["14", "15", "22", "23"]));
    // Both directions are accepted as that one move.
    for path in ["10x19x26x17x10", "10x17x26x19x10"] {
        assert_eq!(position.parse_move(path), Ok(moves[0]));
    }
    let mut after = position;
    after.play(&moves[0]);
    assert_eq!(after.to_text(), "W:W:BK10");
}

/// rules.md E2: kings move one square in any diagonal direction, not further.
#[test]
fn kings_move_one_square_both_ways() {
    assert_eq!(
        move_texts(&english("B:W32:BK14")),
        strings(&["14-10", "14-17", "14-18", "14-9"])
    );
    assert_eq!(
        move_texts(&english("W:WK14:B1")),
        strings(&["14-10", "14-17", "14-18", "14-9"])
    );
}

/// rules.md E2: kings capture one square backward as well as forward.
#[test]
fn kings_capture_backward() {
    assert_eq!(move_texts(&english("B:W10:BK14")), strings(&["14x7"]));
}

/// rules.md E5: a man reaching the last row by a capture is crowned and the move ends there.
#[test]
fn crowning_ends_the_move() {
    // As a king on 31 it could jump 27 next, but the move ends at the crowning.
    let mut position = english("B:W26,27:B22");
    assert_eq!(move_texts(&position), strings(&["22x31"]));
    play(&mut position, &["22x31"]);
    assert_eq!(piece_on(&position, "31").map(|p| p.king), Some(true));
    assert_eq!(position.to_move(), 1);
    assert!(piece_on(&position, "27").is_some());
}

/// rules.md E5: a man stepping onto the last row is crowned.
#[test]
fn man_stepping_to_last_row_is_crowned() {
    let mut position = english("B:W5:B27");
    play(&mut position, &["27-32"]);
    assert_eq!(position.to_text(), "W:W5:BK32");
}

/// rules.md E6: no pieces left loses.
#[test]
fn no_pieces_loses() {
    assert_eq!(
        english("B:W10:B").outcome(),
        Some(Outcome::win(1, EndReason::NoLegalMoves))
    );
}

/// rules.md E6: pieces all blocked loses.
#[test]
fn blocked_side_loses() {
    let blocked = english("B:W25,30:B21");
    assert!(blocked.moves().is_empty());
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(1, EndReason::NoLegalMoves))
    );
    assert_eq!(english("W:W25,30:B21").outcome(), None);
}

/// rules.md E6: the loss is checked before the draw counters.
#[test]
fn blocked_loss_beats_draw_counters() {
    let blocked = english("B:W25,30:B21").with_counters(80, 400);
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(1, EndReason::NoLegalMoves))
    );
}

const KING_SHUFFLE: [&str; 4] = ["1-5", "32-28", "5-1", "28-32"];

/// rules.md E7: 80 plies without a capture or a man move draw — not at 79, at 80.
#[test]
fn eighty_quiet_plies_draw() {
    let mut position = english("B:WK32,21:BK1,12");
    play_cycle(&mut position, &KING_SHUFFLE, 79);
    assert_eq!(position.outcome(), None);
    assert_eq!(position.draw_counters()[0].plies_left, 1);
    play_cycle(&mut position, &["28-32"], 1);
    assert_eq!(
        position.outcome(),
        Some(Outcome::draw(EndReason::NoProgress))
    );
}

/// rules.md E7: a man move restarts the 80-ply count.
#[test]
fn man_move_restarts_quiet_count() {
    let mut position = english("B:WK32,21:BK1,12");
    play_cycle(&mut position, &KING_SHUFFLE, 78);
    play(&mut position, &["12-16"]);
    assert_eq!(position.draw_counters()[0].plies_left, 80);
    play_cycle(&mut position, &["28-32", "5-1", "32-28", "1-5"], 79);
    assert_eq!(position.outcome(), None);
}

/// rules.md E7: a capture restarts the 80-ply count.
#[test]
fn capture_restarts_quiet_count() {
    let mut position = english("B:W18,K32:BK14").with_counters(79, 79);
    play(&mut position, &["14x23"]);
    assert_eq!(position.outcome(), None);
    assert_eq!(position.draw_counters()[0].plies_left, 80);
}

/// rules.md E7: 400 plies in all draw — not at 399, at 400.
#[test]
fn four_hundred_plies_draw() {
    let mut position = english("B:WK32,21:BK1,12").with_counters(0, 398);
    play(&mut position, &["12-16"]);
    assert_eq!(position.outcome(), None);
    assert_eq!(position.draw_counters()[1].plies_left, 1);
    play(&mut position, &["21-17"]);
    assert_eq!(
        position.outcome(),
        Some(Outcome::draw(EndReason::MoveLimit))
    );
}

/// rules.md E7: the third occurrence of a position with the same side to move draws.
#[test]
fn third_repetition_draws() {
    let mut record = Record::new(english("B:WK32:BK1"));
    for (ply, text) in KING_SHUFFLE.iter().cycle().take(8).enumerate() {
        assert_eq!(record.outcome(), None, "before ply {ply}");
        record.play_text(text).unwrap();
    }
    assert_eq!(record.repetitions(), 3);
    assert_eq!(record.outcome().map(|o| o.result), Some(GameResult::Draw));
    assert_eq!(
        record.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
}

/// rules.md E1: FEN reading rejects what is not a position of this board.
#[test]
fn bad_positions_are_rejected() {
    let variant = Variant::standard(GameKind::English);
    for bad in [
        "B:W33:B1",
        "B:W0:B1",
        "B:W5:B5",
        "B:W5:B29",
        "B:W1:B9",
        "W:WK1:B32x",
        "Q:W1:B2",
        "",
    ] {
        assert!(English::from_text(variant, bad).is_err(), "{bad} accepted");
    }
    // A man on its own far row would already be a king.
    assert!(English::from_text(variant, "B:W5:B32").is_err());
    assert!(English::from_text(variant, "B:WK1:BK32").is_ok());
}

/// rules.md E4: two captures with the same start and end but different captured pieces are two
/// moves; the short form `from x to` is then ambiguous and the full path is needed.
#[test]
fn same_ends_different_captures_are_two_moves() {
    let position = english("B:W14,15,22,23:B10");
    assert_eq!(move_texts(&position), strings(&["10x17x26", "10x19x26"]));
    assert!(matches!(
        position.parse_move("10x26"),
        Err(MoveError::Ambiguous(_))
    ));
    assert!(position.parse_move("10x17x26").is_ok());
    assert!(matches!(
        position.parse_move("10-26"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(
        position.parse_move("10x99"),
        Err(MoveError::Syntax(_))
    ));
}
