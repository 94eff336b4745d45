//! A CPU player on a concrete game: the search or the easy level's scored pick, on a record.

use super::alphabeta;
use super::context::SearchContext;
use super::mistakes::Mistakes;
use super::params::Params;
use super::searchable::Searchable;
use crate::position::Position;
use crate::record::Record;
use std::sync::atomic::AtomicBool;

/// Everything that makes one CPU player.
#[derive(Clone, Copy, Debug)]
pub struct PlayerConfig {
    pub params: Params,
    /// The easy level: score every move shallowly and sometimes play a near-best one.
    pub mistakes: Option<Mistakes>,
}

/// A chosen move with how it was found.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    pub mv: M,
    /// From the mover's side.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    /// The per-level time guard cut the thinking short.
    pub timed_out: bool,
}

/// Keys of the positions before the current one that it or its successors may still repeat.
pub fn repeatable_history<P: Position>(record: &Record<P>) -> Vec<u64> {
    let moves = record.moves();
    let mut keys = Vec::new();
    for index in (0..moves.len()).rev() {
        let Some(before) = record.position_before(index) else {
            break;
        };
        if before.is_irreversible(&moves[index]) {
            break;
        }
        keys.push(before.zobrist());
    }
    keys.reverse();
    keys
}

/// The move `config` plays in the record's current position; `None` once the game is over.
pub fn choose<P: Searchable>(
    record: &Record<P>,
    config: &PlayerConfig,
    seed: u64,
    games_played: Option<u32>,
    stop: &AtomicBool,
    context: &SearchContext,
) -> Option<Choice<P::Move>> {
    if record.outcome().is_some() {
        return None;
    }
    let position = record.position();
    let history = repeatable_history(record);
    // Each move of a game draws its own numbers from the game's seed.
    let seed = seed ^ (record.ply() as u64).wrapping_mul(0xA24B_AED4_963E_E407);
    let params = Params {
        seed,
        ..config.params
    };
    match &config.mistakes {
        Some(mistakes) => {
            let prune = mistakes.plausible_first.then(|| mistakes.widest_margin());
            let (scored, timed_out) = alphabeta::score_root_moves(
                position,
                &history,
                &params,
                mistakes.depth,
                prune,
                stop,
            );
            let index = mistakes.pick(&scored, games_played, seed);
            // Stopped before any move was scored: any legal move will do.
            let (mv, score) = match scored.into_iter().nth(index) {
                Some(scored) => scored,
                None => (position.moves().into_iter().next()?, 0),
            };
            Some(Choice {
                mv,
                score,
                depth: mistakes.depth,
                nodes: 0,
                timed_out,
            })
        }
        None => alphabeta::search(position, &history, &params, stop, context).map(|found| Choice {
            mv: found.best,
            score: found.score,
            depth: found.depth,
            nodes: found.nodes,
            timed_out: found.timed_out,
        }),
    }
}
