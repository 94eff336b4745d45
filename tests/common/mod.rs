//! Helpers shared by the rule tests; `star_reference` is the second implementation of the star
//! games, `cpu_positions` the positions the CPU tests search.
#![allow(dead_code)]

pub mod cpu_positions;
pub mod star_reference;

/// Cases of a property test in the run of the ignored ("deep") tests.
pub const DEEP_CASES: u32 = 1000;

use damas::games::english::English;
use damas::games::international::International;
use damas::{Describe, GameKind, Position, Variant};

pub fn english(fen: &str) -> English {
    English::from_text(Variant::standard(GameKind::English), fen).expect("valid English FEN")
}

pub fn international(fen: &str) -> International {
    International::from_text(Variant::standard(GameKind::International), fen)
        .expect("valid International FEN")
}

/// The legal moves' texts, sorted.
pub fn move_texts<P: Describe>(position: &P) -> Vec<String> {
    let mut texts: Vec<String> = position
        .moves()
        .iter()
        .map(|mv| position.move_info(mv).text)
        .collect();
    texts.sort();
    texts
}

/// Plays moves given as text, panicking on an illegal one.
pub fn play<P: Describe>(position: &mut P, moves: &[&str]) {
    for text in moves {
        let mv = position
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", position.to_text()));
        position.play(&mv);
    }
}

/// Plays `plies` moves cycling through `cycle`.
pub fn play_cycle<P: Describe>(position: &mut P, cycle: &[&str], plies: usize) {
    for i in 0..plies {
        play(position, &[cycle[i % cycle.len()]]);
    }
}
