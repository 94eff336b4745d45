//! Property tests over random playouts of the two star games: piece counts, closed areas, no
//! "gift" win, move text and position text round trips, replay through `AnyGame`, and garbage
//! position texts rejected without panicking.

use damas::catalogue::new_game;
use damas::games::capture::{Capture, CaptureMove, PIECES};
use damas::games::diamond::{Diamond, DiamondMove, START_POINTS};
use damas::geometry::holeset::{Hole, HoleSet};
use damas::geometry::star::NO_HOLE;
use damas::geometry::star::{star, Point};
use damas::{GameKind, Position, Variant};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays up to `plies` random moves, checking `each(before, move, after)` and the round trips, and
/// replays the game through the `AnyGame` face.
fn playout<P: Position>(start: P, seed: u64, plies: usize, mut each: impl FnMut(&P, &P::Move, &P)) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = start.clone();
    let mut texts = Vec::new();
    for _ in 0..plies {
        if position.outcome().is_some() {
            break;
        }
        let moves = position.moves();
        assert!(!moves.is_empty(), "an unfinished game always has a move");
        assert_eq!(position.count_moves(), moves.len() as u64);
        let mv = moves[rng.gen_range(0..moves.len())].clone();
        let info = position.move_info(&mv);
        assert_eq!(
            position.parse_move(&info.text),
            Ok(mv.clone()),
            "{}",
            info.text
        );
        let after = position.after(&mv);
        each(&position, &mv, &after);
        let reread = P::from_text(after.variant(), &after.to_text());
        assert_eq!(reread.as_ref().map(P::to_text), Ok(after.to_text()));
        assert_eq!(reread.map(|p| p.zobrist()), Ok(after.zobrist()));
        texts.push(info.text);
        position = after;
    }
    let mut game = new_game(start.variant(), Some(&start.to_text())).expect("start text");
    for text in &texts {
        game.play(text).expect("replayed move");
    }
    assert_eq!(game.position_text(), position.to_text());
    let history: Vec<String> = game.history().into_iter().map(|i| i.text).collect();
    assert_eq!(history, texts);
}

/// Diamond moves by a plain second method: walk each jump line hole by hole, explore chains with
/// an explicit stack, and judge the "no gift" rule by playing the move on a copy of the board.
fn reference_moves(position: &Diamond) -> Vec<DiamondMove> {
    let star = star();
    let players = position.variant().players;
    let mover = position.to_move();
    let occupied = (0..players).fold(HoleSet::EMPTY, |set, c| set | position.pieces_of(c));
    let kings: Vec<Hole> = (0..players).filter_map(|c| position.king_of(c)).collect();
    let open_for = |colour: u8| {
        let start = START_POINTS[usize::from(colour)];
        star.hexagon() | star.point(start) | star.point(start.opposite())
    };
    let open = open_for(mover);
    let mut moves = Vec::new();
    for from in position.pieces_of(mover) {
        let king = position.king_of(mover) == Some(from);
        let mut others = occupied;
        others.remove(from);
        let mut targets = Vec::new();
        for d in 0..6 {
            let n = star.neighbour(from, d);
            if n != NO_HOLE && !others.contains(n) && open.contains(n) {
                targets.push(n);
            }
        }
        let mut stack = vec![from];
        let mut visited = vec![from];
        while let Some(hole) = stack.pop() {
            for d in 0..6 {
                let mut line = Vec::new();
                let mut cell = star.neighbour(hole, d);
                while cell != NO_HOLE && others.contains(cell) {
                    line.push(cell);
                    cell = star.neighbour(cell, d);
                }
                let jumpable = match line.len() {
                    0 => false,
                    1 => !kings.contains(&line[0]),
                    _ => king && line.iter().all(|h| !kings.contains(h)),
                };
                if jumpable && cell != NO_HOLE && open.contains(cell) && !visited.contains(&cell) {
                    visited.push(cell);
                    stack.push(cell);
                }
            }
        }
        targets.extend(visited.into_iter().filter(|&h| h != from));
        targets.sort_unstable();
        targets.dedup();
        for to in targets {
            let mut board = others;
            board.insert(to);
            let gift = (0..players).filter(|&c| c != mover).any(|c| {
                let target = START_POINTS[usize::from(c)].opposite();
                position.king_of(c) == Some(star.apex(target))
                    && star.punta(target).is_subset(board)
            });
            if !gift {
                moves.push(DiamondMove::Go { from, to });
            }
        }
    }
    if moves.is_empty() {
        moves.push(DiamondMove::Pass);
    }
    moves
}

/// Capture moves by a plain second method: every chain walked hole by hole (long jumps by
/// counting the gap), no pruning, duplicates removed through an ordered set.
fn reference_capture_moves(position: &Capture) -> Vec<CaptureMove> {
    fn walk(
        long: bool,
        from: Hole,
        hole: Hole,
        board: HoleSet,
        captured: HoleSet,
        found: &mut std::collections::BTreeSet<CaptureMove>,
    ) {
        let star = star();
        for d in 0..6 {
            let mut line = Vec::new();
            let mut cell = star.neighbour(hole, d);
            while cell != NO_HOLE {
                line.push(cell);
                cell = star.neighbour(cell, d);
            }
            let Some(at) = line.iter().position(|&h| board.contains(h)) else {
                continue;
            };
            if at > 0 && !long {
                continue;
            }
            let landing_at = 2 * at + 1;
            let clear =
                (at + 1..=landing_at).all(|i| line.get(i).is_some_and(|&h| !board.contains(h)));
            if !clear {
                continue;
            }
            let (over, land) = (line[at], line[landing_at]);
            let mut taken = captured;
            taken.insert(over);
            found.insert(CaptureMove {
                from,
                to: land,
                captured: taken,
            });
            let mut rest = board;
            rest.remove(over);
            walk(long, from, land, rest, taken, found);
        }
    }
    let mut found = std::collections::BTreeSet::new();
    for from in position.board() {
        let mut board = position.board();
        board.remove(from);
        walk(
            position.variant().long_jump,
            from,
            from,
            board,
            HoleSet::EMPTY,
            &mut found,
        );
    }
    found.into_iter().collect()
}

fn diamond_checks(before: &Diamond, after: &Diamond) {
    let mut generated = before.moves();
    let mut reference = reference_moves(before);
    let key = |mv: &DiamondMove| format!("{mv:?}");
    generated.sort_by_key(key);
    reference.sort_by_key(key);
    assert_eq!(generated, reference, "{}", before.to_text());
    let star = star();
    let players = before.variant().players;
    for colour in 0..players {
        let pieces = after.pieces_of(colour);
        assert_eq!(pieces.len(), 15);
        let king = after.king_of(colour).expect("a king");
        assert!(pieces.contains(king));
        // Only the hexagon and the colour's own two points.
        let start = START_POINTS[usize::from(colour)];
        let open = star.hexagon() | star.point(start) | star.point(start.opposite());
        assert!(
            pieces.is_subset(open),
            "{} in a closed area",
            before.seat_name(colour)
        );
        // No move completes another colour's goal.
        if colour != before.to_move() {
            assert!(!after.has_won(colour), "gift win for {colour}");
        }
    }
    // Green's points stay empty with two players but for their border holes.
    if players == 2 {
        let closed = star.point(Point::NorthEast) | star.point(Point::SouthWest);
        assert!((after.pieces_of(0) | after.pieces_of(1)).is_subset(!closed));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn diamond_random_playouts(seed in any::<u64>(), players in 2u8..=3, plies in 1usize..300) {
        let variant = Variant::new(GameKind::Diamond, Some(players), false).expect("variant");
        let start = Diamond::start(variant).expect("start");
        playout(start, seed, plies, |before, _, after| diamond_checks(before, after));
    }

    #[test]
    fn capture_random_playouts(seed in any::<u64>(), players in 2u8..=6, long in any::<bool>()) {
        let variant = Variant::new(GameKind::Capture, Some(players), long).expect("variant");
        let start = Capture::start(variant).expect("start");
        playout(start, seed, 200, |before, mv, after| {
            let mut generated = before.moves();
            generated.sort_unstable();
            assert_eq!(generated, reference_capture_moves(before), "{}", before.to_text());
            let captured: u32 = (0..players).map(|s| after.captures_of(s)).sum();
            assert_eq!(after.board().len() + captured, PIECES);
            assert!(!mv.captured.is_empty());
            assert_eq!(
                after.captures_of(before.to_move()),
                before.captures_of(before.to_move()) + mv.captured.len()
            );
            assert_eq!(after.board().len() + mv.captured.len(), before.board().len());
        });
    }

    #[test]
    fn garbage_texts_are_errors(text in ".{0,200}") {
        for variant in [
            Variant::new(GameKind::Diamond, Some(3), false).expect("variant"),
            Variant::new(GameKind::Capture, Some(4), true).expect("variant"),
        ] {
            prop_assert!(new_game(variant, Some(&text)).is_err());
        }
    }

    #[test]
    fn mutated_texts_never_panic(index in 0usize..200, byte in any::<u8>()) {
        let texts = [
            Diamond::start(Variant::new(GameKind::Diamond, Some(3), false).expect("v")).expect("s").to_text(),
            Capture::start(Variant::new(GameKind::Capture, Some(6), true).expect("v")).expect("s").to_text(),
        ];
        for text in texts {
            let mut bytes = text.into_bytes();
            let at = index % bytes.len();
            bytes[at] = byte;
            if let Ok(mutated) = String::from_utf8(bytes) {
                if let Ok(variant) = damas::notation::star_text::variant_of(&mutated) {
                    // Either a valid position (then it round-trips) or an error: never a panic.
                    if let Ok(game) = new_game(variant, Some(&mutated)) {
                        let again = new_game(variant, Some(&game.position_text()));
                        prop_assert!(again.is_ok());
                    }
                }
            }
        }
    }
}
