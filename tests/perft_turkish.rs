//! Turkish perft from the start position against the published figures (kish, issue 2).
//!
//! kish counts capture paths, we count moves (from, to, captured set); `perft_paths` counts
//! paths like kish so both readings are checked.

use damas::games::turkish::{perft_paths, Turkish};
use damas::perft::perft;
use damas::{GameKind, Position, Variant};

const START: [u64; 8] = [8, 64, 708, 7538, 85090, 931312, 10782382, 123290300];

fn start() -> Turkish {
    Turkish::start(Variant::standard(GameKind::Turkish)).expect("start position")
}

#[test]
fn start_perft_depths_1_to_6() {
    let position = start();
    for (depth, &expected) in (1..=6).zip(START.iter()) {
        assert_eq!(perft(&position, depth), expected, "depth {depth}");
    }
}

#[test]
fn start_perft_paths_depths_1_to_6() {
    let position = start();
    for (depth, &expected) in (1..=6).zip(START.iter()) {
        assert_eq!(perft_paths(&position, depth), expected, "depth {depth}");
    }
}

#[test]
fn start_perft_depth_7() {
    assert_eq!(perft(&start(), 7), START[6]);
}

#[test]
#[ignore = "deep: Turkish perft(8), about a second in release"]
fn start_perft_depth_8() {
    assert_eq!(perft(&start(), 8), START[7]);
}

#[test]
#[ignore = "deep: Turkish path perft(8), about a second in release"]
fn start_perft_paths_depth_8() {
    assert_eq!(perft_paths(&start(), 8), START[7]);
}
