//! The CPU's speed, asserted: every level's node budget must finish well inside its time guard
//! (`levels::time_guard`, on the thinking thread's CPU clock). The guard is a safety net for slow
//! devices; if it fires on this machine, the engine has become slower than its budgets assume
//! and moves silently stop being the budgets' (so matches stop replaying). The deep test runs in
//! the run of the ignored tests, on a fixed set of positions per game (the start and two
//! positions of a seeded medium-against-medium game, as `benches/search.rs` measures). Hard's
//! wall-clock cap (`Limits::wall_cap`) may cut a search on a loaded machine; such a cut is printed,
//! not counted.

mod common;

use common::cpu_positions::positions;
use damas::search::levels::time_guard;
use damas::search::limits::{Budget, Limits, ThinkClock};
use damas::search::{Level, Player, SearchContext};
use damas::GameKind;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const SEED: u64 = 1;

/// (name, game, players, plies of the seeded game after which a position is taken).
const CASES: [(&str, GameKind, u8, [usize; 3]); 7] = [
    ("english", GameKind::English, 2, [0, 10, 24]),
    ("international", GameKind::International, 2, [0, 10, 30]),
    ("turkish", GameKind::Turkish, 2, [0, 10, 24]),
    ("diamond 2p", GameKind::Diamond, 2, [0, 20, 50]),
    ("diamond 3p", GameKind::Diamond, 3, [0, 30, 75]),
    ("capture 2p", GameKind::Capture, 2, [0, 6, 14]),
    ("capture 3p", GameKind::Capture, 3, [0, 6, 13]),
];

/// The flag itself: set by the clock, not by the node budget or the stop flag.
#[test]
fn budget_reports_the_time_guard_only_when_it_fires() {
    let stop = AtomicBool::new(false);
    let timed = Limits {
        max_time: Duration::ZERO,
        ..Limits::depth(10)
    };
    let mut budget = Budget::new(timed, &stop);
    budget.start_iteration(1);
    while !budget.tick() {}
    assert!(budget.timed_out());

    let counted = Limits {
        max_depth: 10,
        min_depth: 0,
        max_nodes: 2_000,
        max_time: Duration::from_secs(3600),
        soft_time: None,
        wall_cap: None,
    };
    let mut budget = Budget::new(counted, &stop);
    budget.start_iteration(1);
    while !budget.tick() {}
    assert!(budget.aborted() && !budget.timed_out());

    let stopped = AtomicBool::new(true);
    let mut budget = Budget::new(Limits::depth(10), &stopped);
    while !budget.tick() {}
    assert!(budget.aborted() && !budget.timed_out());
}

#[test]
#[ignore = "deep: every level's budget ends inside its time guard (release)"]
fn deep_no_level_reaches_its_time_guard() {
    let stop = AtomicBool::new(false);
    let mut fired = Vec::new();
    for (name, kind, players, plies) in CASES {
        for (index, game) in positions(kind, players, &plies, SEED).iter().enumerate() {
            for level in [Level::Easy, Level::Medium, Level::Hard] {
                let started = ThinkClock::start();
                let decision = game
                    .decide(Player::Cpu(level), SEED, None, &stop, &SearchContext::new())
                    .expect("a position with moves");
                println!(
                    "{name:<14} ply {:>3} {:<6} depth {:>2} nodes {:>8} thread CPU {:>5} ms (guard {} ms)",
                    plies[index],
                    level.as_str(),
                    decision.depth,
                    decision.nodes,
                    started.elapsed().as_millis(),
                    time_guard(level).as_millis()
                );
                // Hard also stops at a wall-clock cap (1.5 × its guard) so that a loaded machine
                // does not keep a player waiting: a cut with CPU time left is the machine's load,
                // not the budget's speed, and is told rather than counted.
                let cpu = started.elapsed();
                if decision.timed_out && cpu < time_guard(level) {
                    println!("  cut by the wall-clock cap at {} ms of CPU: the machine is loaded; rerun on a quiet one", cpu.as_millis());
                } else if decision.timed_out {
                    fired.push(format!("{name} ply {} {}", plies[index], level.as_str()));
                }
            }
        }
    }
    assert!(fired.is_empty(), "the time guard fired: {fired:?}");
}
