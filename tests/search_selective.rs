//! ProbCut on the draughts games (`Params::probcut`): below its depth it changes nothing a search
//! does, move, score and nodes alike; above it, it cuts nodes and still answers a legal move.
//! The tactical shots with it on are in `search_tactics.rs`.

use damas::games::english::English;
use damas::games::international::International;
use damas::games::turkish::Turkish;
use damas::search::alphabeta::{self, Params};
use damas::search::levels;
use damas::search::limits::Limits;
use damas::search::searchable::Searchable;
use damas::search::SearchContext;
use damas::{GameKind, Position, Variant};
use std::sync::atomic::AtomicBool;

/// Expert's search at a fixed depth, with ProbCut as `levels::selective_probcut` sets it when
/// `probcut`.
fn fixed(kind: GameKind, depth: u32, probcut: bool) -> Params {
    Params {
        quiescence: true,
        reductions: true,
        table_bits: 18,
        probcut: levels::selective_probcut(kind).filter(|_| probcut),
        ..Params::plain(Limits::depth(depth))
    }
}

/// The start, and the position after `plies` moves each taken from the middle of the move list
/// (a varied, reproducible middle game).
fn positions<P: Position>(kind: GameKind, plies: usize) -> Vec<P> {
    let start = P::start(Variant::standard(kind)).expect("start");
    let mut middle = start.clone();
    for _ in 0..plies {
        let moves = middle.moves();
        if moves.is_empty() {
            break;
        }
        middle.play(&moves[moves.len() / 2]);
    }
    vec![start, middle]
}

fn search<P: Searchable + Sync>(position: &P, params: &Params) -> alphabeta::Found<P::Move> {
    let stop = AtomicBool::new(false);
    alphabeta::search(position, &[], params, &stop, &SearchContext::new()).expect("moves")
}

fn check_game<P: Searchable + Position + Sync>(kind: GameKind)
where
    P::Move: PartialEq + std::fmt::Debug,
{
    let min_depth = levels::selective_probcut(kind).expect("a fit").min_depth;
    for (index, position) in positions::<P>(kind, 12).iter().enumerate() {
        let below = min_depth - 1;
        let off = search(position, &fixed(kind, below, false));
        let on = search(position, &fixed(kind, below, true));
        assert_eq!(
            (&off.best, off.score, off.depth, off.nodes),
            (&on.best, on.score, on.depth, on.nodes),
            "{kind:?} position {index}: depth {below} is below ProbCut's"
        );
        let deep = min_depth + 2;
        let off = search(position, &fixed(kind, deep, false));
        let on = search(position, &fixed(kind, deep, true));
        assert_ne!(
            off.nodes, on.nodes,
            "{kind:?} position {index}: ProbCut acts at depth {deep}"
        );
        assert!(position.moves().contains(&on.best), "{kind:?} {index}");
        assert_eq!(on.depth, deep);
    }
}

#[test]
fn english_probcut_acts_only_from_its_depth() {
    check_game::<English>(GameKind::English);
}

#[test]
fn international_probcut_acts_only_from_its_depth() {
    check_game::<International>(GameKind::International);
}

#[test]
fn turkish_probcut_acts_only_from_its_depth() {
    check_game::<Turkish>(GameKind::Turkish);
}
