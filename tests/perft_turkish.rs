//! Turkish perft from the start position against the published figures (kish).
//!
//! The published figures count capture paths. Our `perft` counts moves, (from, to, captured set)
//! (docs/rules.md §T14–§T15): the two agree to depth 6 and part from depth 7, where some moves
//! have two paths. `perft_paths` counts paths and must equal the published figures at every
//! depth; the move count is checked against kish's own moves with duplicates merged in
//! `props_turkish.rs`.

use damas::catalogue::{for_game, GameTask};
use damas::games::turkish::{perft_paths, Turkish};
use damas::perft::perft;
use damas::search::searchable::Searchable;
use damas::{Describe, GameKind, Position, Variant};

/// Published Turkish start-position perft, depths 1–8 (kish).
const PUBLISHED: [u64; 8] = [8, 64, 708, 7538, 85090, 931312, 10782382, 123290300];

fn start() -> Turkish {
    Turkish::start(Variant::standard(GameKind::Turkish)).expect("start position")
}

#[test]
fn move_perft_equals_published_figures_to_depth_6() {
    let position = start();
    for (depth, &expected) in (1..=6).zip(PUBLISHED.iter()) {
        assert_eq!(perft(&position, depth), expected, "depth {depth}");
    }
}

#[test]
fn path_perft_equals_published_figures_to_depth_7() {
    let position = start();
    for (depth, &expected) in (1..=7).zip(PUBLISHED.iter()) {
        assert_eq!(perft_paths(&position, depth), expected, "depth {depth}");
    }
}

#[test]
fn path_perft_through_the_game_registry() {
    /// Both perfts of the game the registry names, run on its own type.
    struct Perfts(u32);
    impl GameTask for Perfts {
        type Output = (Option<u64>, u64);
        fn run<P: Searchable + Describe>(self) -> Self::Output {
            let start = P::start(Variant::standard(GameKind::Turkish)).expect("start position");
            (start.perft_paths(self.0), perft(&start, self.0))
        }
    }
    let (paths, moves) = for_game(GameKind::Turkish, Perfts(4));
    assert_eq!(paths, Some(PUBLISHED[3]));
    assert_eq!(moves, PUBLISHED[3]);
}

#[test]
#[ignore = "deep: Turkish path perft(8), about a second in release"]
fn path_perft_8_equals_published_figure() {
    assert_eq!(perft_paths(&start(), 8), PUBLISHED[7]);
}
