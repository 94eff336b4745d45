//! Table play in won endings, checked move by move with the real rules and counters.

use super::{move_values, three_pieces};
use crate::games::english::English;
use crate::games::international::International;
use crate::games::turkish::Turkish;
use crate::position::{GameResult, Position, Variant};
use crate::search::endgame::index::{Material, SliceIndex};
use crate::search::endgame::value::Value;
use crate::search::endgame::*;
use crate::search::searchable::Searchable;
use std::collections::HashMap;

/// Whether `seat`'s pieces could capture if it were to move.
fn threatens<G: EndgameGame + Searchable>(position: &G, seat: u8) -> bool {
    let mut placement = position.placement();
    placement.to_move = seat;
    let turned = G::from_placement(&placement);
    turned.moves().iter().any(|mv| turned.is_capture(mv))
}

#[test]
fn english_two_kings_against_one_win_nearly_always_and_never_lose() {
    // Two kings against one win in English checkers (the lone king is driven out of the double
    // corner). Not from every quiet position: a king shut in the single corner behind its partner
    // can be held (`W:WK7:BK4,K12`, 7-11!, is a draw). So: every position with the two kings to
    // move and no capture for either side is a win or such a draw, never a loss, and wins are
    // all but a few.
    let tables = three_pieces::<English>();
    let material = Material {
        men: [0, 0],
        kings: [2, 1],
    };
    let slice = SliceIndex::new(material, English::squares());
    let (mut wins, mut draws) = (0, 0);
    for index in (0..slice.len()).step_by(2) {
        let Some(placement) = slice.placement(English::squares(), index) else {
            continue;
        };
        let position = English::from_placement(&placement);
        if threatens(&position, 0) || threatens(&position, 1) {
            continue;
        }
        match tables.probe(&position) {
            Some(Value::Win(_)) => wins += 1,
            Some(Value::Draw) => draws += 1,
            other => panic!("{}: {other:?}", position.to_text()),
        }
    }
    assert!(
        wins > 4_000 && draws < wins / 100,
        "{wins} wins, {draws} draws"
    );
    let held = English::from_text(Variant::standard(GameKind::English), "W:WK7:BK4,K12")
        .expect("valid FEN");
    assert_eq!(tables.probe(&held), Some(Value::Draw));
}

/// Plays the winner's table moves against every defence, with the real rules and counters, and
/// returns the longest game: every line must end in a win for the side to move at the start
/// within its table distance.
fn convert<G: EndgameGame + Searchable>(
    tables: &GameTables,
    position: &G,
    winner: u8,
    plies_left: u32,
    seen: &mut HashMap<(u64, u32), u32>,
) -> u32 {
    if let Some(outcome) = position.outcome() {
        assert_eq!(
            outcome.result,
            GameResult::Win(winner),
            "{}",
            position.to_text()
        );
        return 0;
    }
    assert!(plies_left > 0, "not won in time: {}", position.to_text());
    let key = (position.zobrist(), plies_left);
    if let Some(&length) = seen.get(&key) {
        return length;
    }
    let length = if position.to_move() == winner {
        let value = tables.probe(position).expect("in the tables");
        let Value::Win(n) = value else {
            panic!("the winner lost its win: {}", position.to_text());
        };
        assert!(n <= plies_left);
        let (best, _) = move_values(tables, position)
            .into_iter()
            .find(|(_, child)| *child == Value::Win(n))
            .expect("a win has a move keeping its distance");
        1 + convert(tables, &position.after(&best), winner, plies_left - 1, seen)
    } else {
        position
            .moves()
            .iter()
            .map(|mv| 1 + convert(tables, &position.after(mv), winner, plies_left - 1, seen))
            .max()
            .unwrap_or(0)
    };
    seen.insert(key, length);
    length
}

fn converts_every_defence<G: EndgameGame + Searchable>(tables: &GameTables, fen: &str) -> u32 {
    let position = G::from_text(Variant::standard(G::KIND), fen).expect("valid FEN");
    let Some(Value::Win(n)) = tables.probe(&position) else {
        panic!("{fen} is not a win in the tables");
    };
    let length = convert(
        tables,
        &position,
        position.to_move(),
        n,
        &mut HashMap::new(),
    );
    // The defender's best resistance takes exactly the distance the table claims.
    assert_eq!(length, n, "{fen}");
    length
}

#[test]
fn table_play_converts_two_kings_against_one_against_every_defence() {
    let english = three_pieces::<English>();
    // The lone king in its double corner, the two kings far away.
    for fen in ["B:WK1:BK29,K30", "B:WK5:BK27,K32", "W:WK30,K31:BK4"] {
        assert!(converts_every_defence::<English>(english, fen) > 5);
    }
    let turkish = three_pieces::<Turkish>();
    let mut won = 0;
    for fen in ["W:WKa1,Kh8:BKd5", "W:WKb2,Kc3:BKg7", "B:WKe4:BKa8,Kh1"] {
        let position =
            Turkish::from_text(Variant::standard(GameKind::Turkish), fen).expect("valid FEN");
        if matches!(turkish.probe(&position), Some(Value::Win(_))) {
            converts_every_defence::<Turkish>(turkish, fen);
            won += 1;
        }
    }
    assert!(won > 0, "no Turkish two kings against one is won?");
    // International: a king that takes the last piece wins at once (docs/rules.md, I9), the
    // same king with the other side to move is drawn (two kings or one against one).
    let international = three_pieces::<International>();
    assert_eq!(
        converts_every_defence::<International>(international, "W:WK14:BK9"),
        1
    );
    // Kings in the two corners of the long diagonal: neither can take the other.
    let drawn = International::from_text(Variant::standard(GameKind::International), "B:WK46:BK5")
        .expect("valid FEN");
    assert_eq!(international.probe(&drawn), Some(Value::Draw));
}

#[test]
fn positions_with_more_pieces_than_the_tables_are_not_in_them_unless_the_mover_has_none() {
    let tables = three_pieces::<International>();
    let variant = Variant::standard(GameKind::International);
    let position = |fen: &str| International::from_text(variant, fen).expect("valid FEN");
    // Kings in the two corners of the long diagonal: a draw (see above); with a third piece
    // still in the tables, with a fourth not.
    assert_eq!(tables.probe(&position("B:WK46:BK5")), Some(Value::Draw));
    assert!(tables.probe(&position("B:WK46,K14:BK5")).is_some());
    assert_eq!(tables.probe(&position("W:WK14,K46:BK9,K5")), None);
    assert_eq!(tables.probe(&position("W:W31,32,33:B20")), None);
    // The side to move has nothing left: lost, however many pieces the other holds.
    assert_eq!(
        tables.probe(&position("W:W:B1,2,3,4,5")),
        Some(Value::Loss(0))
    );
}
