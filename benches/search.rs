//! The CPU's decision time per game and level: what `damas bestmove` does, on a few fixed
//! positions of each game — the start, and two positions reached by a seeded game of medium
//! against medium (an early and a middle-game one).
//!
//! Searches are bounded in nodes, so every decision does the same work on every run; a table of
//! each decision's depth, nodes and thread CPU time is printed before criterion's own figures.
//! Criterion takes 10 samples in a target time of 1 s (flat sampling): the fast levels repeat the
//! pass over the positions within each sample, the slow ones make one pass a sample (criterion
//! then warns that 10 samples do not fit in 1 s — meant: it keeps the run short). The whole
//! `cargo bench --bench search` takes about 2 minutes of CPU time.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use damas::catalogue;
use damas::search::{self, Level, Player, SearchContext};
use damas::{GameKind, Playable, Variant};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The seed of the games that reach the positions and of every decision measured.
const SEED: u64 = 1;

struct Case {
    name: &'static str,
    kind: GameKind,
    players: u8,
    /// Plies of the seeded medium-against-medium game after which a position is taken.
    plies: [usize; 3],
}

const CASES: [Case; 7] = [
    Case {
        name: "english",
        kind: GameKind::English,
        players: 2,
        plies: [0, 10, 24],
    },
    Case {
        name: "international",
        kind: GameKind::International,
        players: 2,
        plies: [0, 10, 30],
    },
    Case {
        name: "turkish",
        kind: GameKind::Turkish,
        players: 2,
        plies: [0, 10, 24],
    },
    Case {
        name: "diamond_2p",
        kind: GameKind::Diamond,
        players: 2,
        plies: [0, 20, 50],
    },
    Case {
        name: "diamond_3p",
        kind: GameKind::Diamond,
        players: 3,
        plies: [0, 30, 75],
    },
    Case {
        name: "capture_2p",
        kind: GameKind::Capture,
        players: 2,
        plies: [0, 6, 14],
    },
    Case {
        name: "capture_3p",
        kind: GameKind::Capture,
        players: 3,
        plies: [0, 6, 13],
    },
];

const LEVELS: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

/// The case's positions: its start and the positions after `plies` moves of a seeded game.
fn positions(case: &Case) -> Vec<Box<dyn Playable>> {
    let variant = Variant::new(case.kind, Some(case.players), false).expect("a valid variant");
    let mut game = catalogue::new_game(variant, None).expect("the start position");
    let stop = AtomicBool::new(false);
    let last = case.plies.iter().copied().max().unwrap_or(0);
    let mut kept = Vec::new();
    for ply in 0..=last {
        if case.plies.contains(&ply) {
            kept.push(game.clone_box());
        }
        if ply == last {
            break;
        }
        let decision = game
            .decide(
                Player::Cpu(Level::Medium),
                SEED,
                None,
                &stop,
                &SearchContext::new(),
            )
            .unwrap_or_else(|| panic!("{}: the game ended before ply {last}", case.name));
        game.play(&decision.info.text)
            .expect("the CPU's move is legal");
    }
    kept
}

fn decide(game: &dyn Playable, level: Level) -> search::Decision {
    let stop = AtomicBool::new(false);
    game.decide(Player::Cpu(level), SEED, None, &stop, &SearchContext::new())
        .expect("a position with moves")
}

/// CPU time this thread has used, where Linux reports it (the machine may be shared, so wall time
/// overstates what one free core takes).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

/// One decision per position and level, with its figures.
fn print_decisions(case: &Case, positions: &[Box<dyn Playable>]) {
    for level in LEVELS {
        for game in positions {
            let start = thread_cpu_seconds();
            let wall = std::time::Instant::now();
            let decision = decide(game.as_ref(), level);
            let time = match (start, thread_cpu_seconds()) {
                (Some(start), Some(end)) => format!("{:.1} ms CPU", (end - start) * 1e3),
                _ => format!("{:.1} ms wall", wall.elapsed().as_secs_f64() * 1e3),
            };
            println!(
                "{} {} ply {}: {} depth {} nodes {} score {} ({time})",
                case.name,
                level.as_str(),
                game.ply(),
                decision.info.text,
                decision.depth,
                decision.nodes,
                decision.score,
            );
        }
    }
}

fn bench_search(c: &mut Criterion) {
    for case in &CASES {
        let positions = positions(case);
        print_decisions(case, &positions);
        let mut group = c.benchmark_group(format!("search/{}", case.name));
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(1))
            .throughput(Throughput::Elements(positions.len() as u64));
        for level in LEVELS {
            group.bench_function(level.as_str(), |b| {
                b.iter(|| {
                    for game in &positions {
                        black_box(decide(game.as_ref(), level));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
