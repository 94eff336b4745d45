//! International draughts, one test per rule sentence of the seed, each citing `docs/rules.md`.

use crate::common;

use common::{international, move_texts, play, play_cycle};
use damas::games::international::International;
use damas::{Describe, EndReason, GameKind, GameResult, Outcome, Position, Record, Variant};

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn is_king_on(position: &International, square: &str) -> Option<bool> {
    position
        .pieces()
        .into_iter()
        .find(|p| p.cell == square)
        .map(|p| p.king)
}

/// rules.md I1: 20 men each, White on 31–50, White moves first.
#[test]
fn start_has_twenty_men_each_and_white_moves_first() {
    let start = International::start(Variant::standard(GameKind::International)).unwrap();
    let stats = start.seat_stats();
    assert_eq!((stats[0].name.as_str(), stats[0].pieces), ("white", 20));
    assert_eq!((stats[1].name.as_str(), stats[1].pieces), ("black", 20));
    assert_eq!(start.to_move(), 0);
    assert_eq!(
        start.to_text(),
        International::from_text(start.variant(), "W:W31-50:B1-20")
            .unwrap()
            .to_text()
    );
    assert_eq!(
        move_texts(&start),
        strings(&["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"])
    );
}

/// rules.md I2: men step forward only.
#[test]
fn men_move_forward_only() {
    assert_eq!(
        move_texts(&international("W:W33:B1")),
        strings(&["33-28", "33-29"])
    );
    assert_eq!(
        move_texts(&international("B:W50:B18")),
        strings(&["18-22", "18-23"])
    );
}

/// rules.md I3: men capture backward as well as forward.
#[test]
fn men_capture_backward() {
    assert_eq!(move_texts(&international("W:W28:B33")), strings(&["28x39"]));
    assert_eq!(move_texts(&international("B:W18:B23")), strings(&["23x12"]));
}

/// rules.md I2: flying kings move any distance along a free diagonal.
#[test]
fn kings_fly() {
    assert_eq!(
        move_texts(&international("W:WK46:B1")),
        strings(&["46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41", "46-5"])
    );
    // Blocked by its own man on 28.
    assert_eq!(
        move_texts(&international("W:WK46,28:B1")),
        strings(&["28-22", "28-23", "46-32", "46-37", "46-41"])
    );
}

/// rules.md I3: a king captures an isolated piece at distance and lands on any empty square
/// beyond it.
#[test]
fn king_captures_at_distance_and_lands_anywhere_beyond() {
    assert_eq!(
        move_texts(&international("W:WK46:B28")),
        strings(&["46x10", "46x14", "46x19", "46x23", "46x5"])
    );
}

/// rules.md I3: two pieces side by side on a diagonal cannot be captured.
#[test]
fn king_cannot_capture_two_adjacent_pieces() {
    assert_eq!(
        move_texts(&international("W:WK46:B23,28")),
        strings(&["46-32", "46-37", "46-41"])
    );
}

/// rules.md I4: the majority rule counts pieces, a king as one: three men beat two kings.
#[test]
fn majority_rule_three_men_beat_two_kings() {
    let position = international("W:W32,34:B8,17,27,K20,K30");
    let moves = position.moves();
    assert_eq!(move_texts(&position), strings(&["32x21x12x3"]));
    assert_eq!(moves[0].capture_count(), 3);
    // Without the third man both captures take two pieces: free choice.
    assert_eq!(
        move_texts(&international("W:W32,34:B17,27,K20,K30")),
        strings(&["32x21x12", "34x25x14"])
    );
}

/// rules.md I4: captures of equal size are a free choice.
#[test]
fn equal_captures_are_a_free_choice() {
    assert_eq!(
        move_texts(&international("W:W32,34:B27,29")),
        strings(&["32x21", "34x23"])
    );
}

/// rules.md I5: captured pieces stay until the end and block the capturing king. Here the king
/// takes 28, 13 and 12 and lands on 17, 21 or 26; from 17 it cannot go on over 33 because 28,
/// already taken, still stands between them.
#[test]
fn captured_pieces_block_until_the_end() {
    let position = international("W:WK37:B12,13,28,33");
    assert_eq!(
        move_texts(&position),
        strings(&["37x19x8x17", "37x19x8x21", "37x19x8x26"])
    );
    assert!(position.moves().iter().all(|mv| mv.capture_count() == 3));
}

/// rules.md I6: landing on different squares between two pieces of one diagonal gives one move.
#[test]
fn paths_with_one_capture_set_are_one_move() {
    // The king on 5 takes 14 and 32 on the long diagonal, landing on 37 (its own man stands on
    // 41); between them it may touch down on 19, 23 or 28.
    let position = international("W:WK5,41:B14,32");
    let moves = position.moves();
    assert_eq!(moves.len(), 1);
    let info = position.move_info(&moves[0]);
    assert_eq!((info.from.as_str(), info.to.as_str()), ("5", "37"));
    assert_eq!(info.captures, strings(&["14", "32"]));
    for path in ["5x19x37", "5x23x37", "5x28x37", "5x37"] {
        assert_eq!(position.parse_move(path), Ok(moves[0]), "{path}");
    }
}

/// rules.md I7: a man that only passes the last row during a capture is not crowned.
#[test]
fn passing_the_last_row_does_not_crown() {
    let mut position = international("W:W11:B7,8");
    assert_eq!(move_texts(&position), strings(&["11x2x13"]));
    play(&mut position, &["11x2x13"]);
    assert_eq!(is_king_on(&position, "13"), Some(false));
}

/// rules.md I7: a man whose capture ends on the last row is crowned.
#[test]
fn capture_ending_on_last_row_crowns() {
    let mut position = international("W:W32,34:B8,17,27,K20,K30");
    play(&mut position, &["32x21x12x3"]);
    assert_eq!(is_king_on(&position, "3"), Some(true));
    assert_eq!(position.to_move(), 1);
}

/// rules.md I8: no legal move loses, even a lone king against two kings.
#[test]
fn blocked_lone_king_loses() {
    let position = international("B:WK10,K14:BK5");
    assert!(position.moves().is_empty());
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
    assert_eq!(
        international("B:W10:B").outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
}

/// rules.md I9: two kings against one king, and one king against one king, are drawn at once
/// when the side to move has no capture.
#[test]
fn two_kings_or_one_against_one_king_draw() {
    let drawn = Some(Outcome::draw(EndReason::InsufficientMaterial));
    assert_eq!(international("W:WK46,K47:BK4").outcome(), drawn);
    assert_eq!(international("B:WK46:BK4,K3").outcome(), drawn);
    assert_eq!(international("W:WK46:BK4").outcome(), drawn);
    // Not listed by the seed: king and man against king, three kings against king and man.
    assert_eq!(international("W:WK46,33:BK4").outcome(), None);
    assert_eq!(international("W:WK46,K47,K48:BK4,18").outcome(), None);
}

/// rules.md I9: the drawn balances stand only once no capture is pending; a capture of the last
/// piece wins.
#[test]
fn king_ending_with_a_capture_to_play_is_not_drawn() {
    let drawn = Some(Outcome::draw(EndReason::InsufficientMaterial));
    // 14x3 takes the last black piece.
    let mut position = international("W:WK14:BK9");
    assert_eq!(position.outcome(), None);
    assert_eq!(move_texts(&position), strings(&["14x3"]));
    play(&mut position, &["14x3"]);
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
    // Two kings against one, the strong side able to take it.
    assert_eq!(international("W:WK14,K50:BK9").outcome(), None);
    // The lone king to move takes one of two kings: king against king after it, and the other
    // king (46, in the corner) cannot take back — drawn then.
    let mut position = international("B:WK14,K46:BK9");
    assert_eq!(position.outcome(), None);
    play(&mut position, &["9x20"]);
    assert_eq!(position.outcome(), drawn);
    // A king that could be taken if the other side were to move: still a draw (Black on 41 cannot
    // jump the king in the corner 46).
    assert_eq!(international("B:WK46:BK41").outcome(), drawn);
    assert_eq!(international("W:WK46:BK41").outcome(), None);
}

/// rules.md I9: the 25-move rule — 50 plies of king moves without capture: not at 49, at 50.
#[test]
fn fifty_king_plies_draw() {
    let cycle = ["47-42", "4-9", "42-47", "9-4"];
    let mut position = international("W:WK47,33:BK4,18");
    play_cycle(&mut position, &cycle, 49);
    assert_eq!(position.outcome(), None);
    assert_eq!(position.draw_counters()[0].plies_left, 1);
    play(&mut position, &["4-9"]);
    assert_eq!(
        position.outcome(),
        Some(Outcome::draw(EndReason::NoProgress))
    );
}

/// rules.md I9: a man move restarts the 25-move count.
#[test]
fn man_move_restarts_king_move_count() {
    let cycle = ["47-42", "4-9", "42-47", "9-4"];
    let mut position = international("W:WK47,33:BK4,18");
    play_cycle(&mut position, &cycle, 49);
    play(&mut position, &["18-22"]);
    assert_eq!(position.outcome(), None);
    assert_eq!(position.draw_counters()[0].plies_left, 50);
}

const COUNTED_SHUFFLE: [&str; 4] = ["46-41", "4-9", "41-46", "9-4"];

/// rules.md I9: three kings against one king — the strong side's 16th move draws, its 15th not.
#[test]
fn three_kings_have_sixteen_moves() {
    let mut position = international("W:WK46,K47,K48:BK4");
    // 15 white moves and 15 black moves.
    play_cycle(&mut position, &COUNTED_SHUFFLE, 30);
    assert_eq!(position.outcome(), None);
    let count = position
        .draw_counters()
        .into_iter()
        .find(|c| c.reason == EndReason::EndgameCount)
        .unwrap();
    assert_eq!(count.plies_left, 1);
    play(&mut position, &["41-46"]);
    assert_eq!(
        position.outcome(),
        Some(Outcome::draw(EndReason::EndgameCount))
    );
}

/// rules.md I9: two kings and a man, or a king and two men, against a king are counted too;
/// only the strong side's moves count, here with the lone king moving first.
#[test]
fn two_kings_and_man_and_king_and_two_men_are_counted() {
    for fen in ["B:WK46,K47,38:BK4", "B:WK46,38,39:BK4"] {
        let mut position = international(fen);
        // Black, then White, 15 times each, then Black: 15 white moves.
        play_cycle(&mut position, &["4-9", "46-41", "9-4", "41-46"], 31);
        assert_eq!(position.outcome(), None, "{fen}");
        play(&mut position, &["41-46"]);
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::EndgameCount)),
            "{fen}"
        );
    }
}

/// rules.md I9: a promotion inside the counted material keeps the count; leaving it restarts it.
#[test]
fn count_survives_promotion_and_restarts_after_other_changes() {
    // Two kings and a man (on 7) against a king, 10 strong moves counted; the man is crowned.
    let mut position = international("W:WK46,K47,7:BK4").with_counters(0, 0, 10);
    play(&mut position, &["7-1"]);
    let left = |p: &International| {
        p.draw_counters()
            .into_iter()
            .find(|c| c.reason == EndReason::EndgameCount)
            .map(|c| c.plies_left)
    };
    // 11 strong moves made: 5 left, Black to move: 10 plies.
    assert_eq!(left(&position), Some(10));
    // Material outside the list: no count at all.
    let other = international("W:WK46,K47,K48,K49:BK4").with_counters(0, 0, 10);
    assert_eq!(left(&other), None);
}

/// rules.md I9: the third occurrence of a position draws.
#[test]
fn third_repetition_draws() {
    let mut record = Record::new(international("W:WK47,33:BK4,18"));
    for (ply, text) in ["47-42", "4-9", "42-47", "9-4"]
        .iter()
        .cycle()
        .take(8)
        .enumerate()
    {
        assert_eq!(record.outcome(), None, "before ply {ply}");
        record.play_text(text).unwrap();
    }
    assert_eq!(record.outcome().map(|o| o.result), Some(GameResult::Draw));
    assert_eq!(
        record.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
}

/// rules.md I1: FEN reading rejects what is not a position of this board.
#[test]
fn bad_positions_are_rejected() {
    let variant = Variant::standard(GameKind::International);
    for bad in [
        "W:W51:B1",
        "W:W0:B1",
        "W:W30:B30",
        "W:W3:B20",
        "W:W40:B48",
        "W:Wx:B1",
        "B::",
        "B:W,,:B1",
        "W:W1,:B2",
        "W:W31",
    ] {
        assert!(
            International::from_text(variant, bad).is_err(),
            "{bad} accepted"
        );
    }
}
