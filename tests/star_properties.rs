//! Property tests over random playouts of the two star games: piece counts, closed areas, no
//! "gift" win, move text and position text round trips, replay through `AnyGame`, and garbage
//! position texts rejected without panicking.

use damas::catalogue::new_game;
use damas::games::capture::{Capture, PIECES};
use damas::games::diamond::{Diamond, DiamondMove, START_POINTS};
use damas::geometry::star::{star, Point};
use damas::{Describe, GameKind, Position, Variant};
use proptest::prelude::*;

use crate::common;
use common::{star_reference, DEEP_CASES};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays up to `plies` random moves, checking `each(before, move, after)` and the round trips, and
/// replays the game through the `AnyGame` face.
fn playout<P: Describe>(start: P, seed: u64, plies: usize, mut each: impl FnMut(&P, &P::Move, &P)) {
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

fn diamond_checks(before: &Diamond, after: &Diamond) {
    let mut generated = before.moves();
    let mut reference = star_reference::diamond_moves(before);
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

fn diamond_playout(seed: u64, players: u8, plies: usize) {
    let variant = Variant::new(GameKind::Diamond, Some(players), false).expect("variant");
    let start = Diamond::start(variant).expect("start");
    playout(start, seed, plies, |before, _, after| {
        diamond_checks(before, after)
    });
}

fn capture_playout(seed: u64, players: u8, long: bool) {
    let variant = Variant::new(GameKind::Capture, Some(players), long).expect("variant");
    let start = Capture::start(variant).expect("start");
    playout(start, seed, 200, |before, mv, after| {
        let mut generated = before.moves();
        generated.sort_unstable();
        assert_eq!(
            generated,
            star_reference::capture_moves(before),
            "{}",
            before.to_text()
        );
        let captured: u32 = (0..players).map(|s| after.captures_of(s)).sum();
        assert_eq!(after.board().len() + captured, PIECES);
        assert!(!mv.captured.is_empty());
        assert_eq!(
            after.captures_of(before.to_move()),
            before.captures_of(before.to_move()) + mv.captured.len()
        );
        assert_eq!(
            after.board().len() + mv.captured.len(),
            before.board().len()
        );
    });
}

// The comparisons with the reference generators: a few dozen games in `cargo test`, a thousand
// in the run of the ignored tests.
proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn diamond_random_playouts(seed in any::<u64>(), players in 2u8..=3, plies in 1usize..300) {
        diamond_playout(seed, players, plies);
    }

    #[test]
    fn capture_random_playouts(seed in any::<u64>(), players in 2u8..=6, long in any::<bool>()) {
        capture_playout(seed, players, long);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: DEEP_CASES, .. ProptestConfig::default() })]

    #[test]
    #[ignore = "deep: 1000 Diamond games against the reference generator (release)"]
    fn deep_diamond_random_playouts(seed in any::<u64>(), players in 2u8..=3, plies in 1usize..300) {
        diamond_playout(seed, players, plies);
    }

    #[test]
    #[ignore = "deep: 1000 Capture games against the reference generator (release)"]
    fn deep_capture_random_playouts(seed in any::<u64>(), players in 2u8..=6, long in any::<bool>()) {
        capture_playout(seed, players, long);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
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
                    // Either an error or a valid position, which reads back as the same position.
                    if let Ok(game) = new_game(variant, Some(&mutated)) {
                        let written = game.position_text();
                        let again = new_game(variant, Some(&written)).expect("written text reads back");
                        prop_assert_eq!(again.position_text(), written);
                    }
                }
            }
        }
    }
}
