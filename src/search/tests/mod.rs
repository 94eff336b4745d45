//! The search's tests on Nim ([`super::nim`]), whose answers are known: one file per search
//! module, the shared helpers here.

use super::nim::{Nim, Take};
use crate::position::{Position, Seat};
use crate::record::Record;
use crate::search::alphabeta::{self, MovePruning, MultiPlayer, Params, ProbCut};
use crate::search::limits::Limits;
use crate::search::mistakes::Mistakes;
use crate::search::player::{self, PlayerConfig};
use crate::search::score::{self, WIN_MIN};
use crate::search::searchable::MAX_SEATS;
use crate::search::{Level, Playable, Player, SearchContext};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod alphabeta_nim;
mod best_reply;
mod maxn;
mod mcts;
mod mistakes;
mod playable;
mod table_pool;

pub(super) fn params(limits: Limits) -> Params {
    Params::plain(limits)
}

pub(super) fn solve(nim: &Nim) -> alphabeta::Found<Take> {
    let stop = AtomicBool::new(false);
    alphabeta::search(
        nim,
        &[],
        &params(Limits::depth(40)),
        &stop,
        &SearchContext::new(),
    )
    .expect("moves")
}

pub(super) fn solve_best_reply(nim: &Nim) -> alphabeta::Found<Take> {
    let stop = AtomicBool::new(false);
    let params = Params {
        multi_player: MultiPlayer::BestReply,
        ..params(Limits::depth(40))
    };
    alphabeta::search(nim, &[], &params, &stop, &SearchContext::new()).expect("moves")
}

/// Independent truth for more seats: plain paranoid minimax, no pruning, no table.
/// +1 when `root` wins against the others playing together, -1 otherwise.
pub(super) fn paranoid(nim: &Nim, root: Seat) -> i32 {
    if let Some(outcome) = nim.outcome() {
        return if outcome.result == crate::position::GameResult::Win(root) {
            1
        } else {
            -1
        };
    }
    let values = nim
        .moves()
        .into_iter()
        .map(|mv| paranoid(&nim.after(&mv), root));
    if nim.to_move == root {
        values.max().unwrap_or(-1)
    } else {
        values.min().unwrap_or(-1)
    }
}

pub(super) fn small_positions() -> impl Iterator<Item = [u8; 4]> {
    (0..6u8)
        .flat_map(|a| (0..6u8).flat_map(move |b| (0..5u8).map(move |c| [a, b, c, 0])))
        // More than one move: a single legal move is played without searching.
        .filter(|piles| piles.iter().map(|&p| u32::from(p)).sum::<u32>() > 1)
}

pub(super) fn assert_budget_honoured_and_replayed(multi_player: MultiPlayer) {
    let nim = Nim::new([40, 41, 42, 43], 3);
    let limits = Limits {
        max_depth: 40,
        min_depth: 1,
        max_nodes: 20_000,
        max_time: Duration::from_secs(60),
        soft_time: None,
        wall_cap: None,
    };
    let stop = AtomicBool::new(false);
    let params = Params {
        noise: 20,
        seed: 7,
        multi_player,
        ..params(limits)
    };
    let first = alphabeta::search(&nim, &[], &params, &stop, &SearchContext::new()).expect("moves");
    let second =
        alphabeta::search(&nim, &[], &params, &stop, &SearchContext::new()).expect("moves");
    assert!(first.nodes <= 20_000 + 512, "{} nodes", first.nodes);
    assert!(first.depth >= 3, "depth {}", first.depth);
    assert_eq!(
        (first.best, first.score, first.depth, first.nodes),
        (second.best, second.score, second.depth, second.nodes)
    );
    stop.store(true, Ordering::Relaxed);
    let stopped = alphabeta::search(&nim, &[], &params, &stop, &SearchContext::new())
        .expect("a move when stopped");
    assert!(nim.moves().contains(&stopped.best));
}

pub(super) fn wins(nim: &Nim, mv: &Take) -> bool {
    let after = nim.after(mv);
    after.outcome().is_some() || !after.is_won_for_mover()
}

pub(super) fn unbounded() -> Limits {
    let mut limits = Limits::depth(60);
    limits.min_depth = 60;
    limits
}

/// The search with `params`, its stop flag set after 100 ms.
pub(super) fn stopped_after_100_ms(nim: &Nim, params: Params) -> alphabeta::Found<Take> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        alphabeta::search(nim, &[], &params, &stop, &SearchContext::new())
    })
    .expect("a move even when stopped")
}

pub(super) fn maxn_positions() -> impl Iterator<Item = [u8; 4]> {
    small_positions().filter(|p| p.iter().map(|&x| u32::from(x)).sum::<u32>() <= 7)
}
