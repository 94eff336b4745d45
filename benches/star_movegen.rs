//! Legal-move generation throughput of the star games on mid-game positions (positions/s).
//!
//! Positions come from seeded playouts that mostly pick the move bringing the mover closest to
//! home (Diamond) or taking most pieces (Capture), with some random moves mixed in, so the
//! boards look like real games rather than random scatter.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas::games::capture::Capture;
use damas::games::diamond::Diamond;
use damas::{GameKind, Position, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

fn playout<P: Position>(
    start: &P,
    seed: u64,
    plies: std::ops::Range<usize>,
    score: impl Fn(&P, &P::Move) -> i64,
) -> Vec<P> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = start.clone();
    let mut kept = Vec::new();
    for ply in 0..plies.end {
        if position.outcome().is_some() {
            break;
        }
        let moves = position.moves();
        let mv = if rng.gen_bool(0.25) {
            moves[rng.gen_range(0..moves.len())].clone()
        } else {
            moves
                .iter()
                .max_by_key(|mv| score(&position, mv))
                .cloned()
                .unwrap_or_else(|| moves[0].clone())
        };
        position.play(&mv);
        if ply >= plies.start {
            kept.push(position.clone());
        }
    }
    kept
}

fn diamond_positions() -> Vec<Diamond> {
    let variant = Variant::new(GameKind::Diamond, Some(3), false).expect("variant");
    let start = Diamond::start(variant).expect("start");
    (0..8)
        .flat_map(|seed| {
            playout(&start, seed, 45..95, |position, mv| {
                let mover = position.to_move();
                -i64::from(position.after(mv).distance_to_goal(mover))
            })
        })
        .collect()
}

fn capture_positions() -> Vec<Capture> {
    let variant = Variant::new(GameKind::Capture, Some(6), false).expect("variant");
    let start = Capture::start(variant).expect("start");
    (0..16)
        .flat_map(|seed| playout(&start, seed, 4..16, |_, mv| i64::from(mv.captured.len())))
        .collect()
}

/// CPU time this thread has used, where Linux reports it (the machine may be shared, so wall time
/// understates what one core does).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

/// Generates the moves of every position `rounds` times and prints positions per second of wall
/// time and of this thread's CPU time.
fn print_throughput<P: Position>(name: &str, positions: &[P], rounds: usize) {
    let mut moves = Vec::with_capacity(4096);
    let cpu_start = thread_cpu_seconds();
    let wall_start = std::time::Instant::now();
    for _ in 0..rounds {
        for position in positions {
            position.legal_moves(&mut moves);
            black_box(moves.len());
        }
    }
    let wall = wall_start.elapsed().as_secs_f64();
    let generated = (rounds * positions.len()) as f64;
    let cpu = match (cpu_start, thread_cpu_seconds()) {
        (Some(start), Some(end)) if end > start => format!("{:.0}", generated / (end - start)),
        _ => "n/a".to_string(),
    };
    println!(
        "{name}: legal_moves {:.0} positions/s (wall), {cpu} positions/s (thread CPU time)",
        generated / wall
    );
}

fn bench_movegen<P: Position>(c: &mut Criterion, name: &str, positions: &[P]) {
    let moves_per_position = positions.iter().map(|p| p.moves().len()).sum::<usize>() as f64
        / positions.len().max(1) as f64;
    println!(
        "{name}: {} positions, {moves_per_position:.1} legal moves on average",
        positions.len()
    );
    print_throughput(name, positions, 1000);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut moves = Vec::with_capacity(4096);
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            for position in positions {
                position.legal_moves(&mut moves);
                black_box(moves.len());
            }
        })
    });
    group.bench_function("count_moves", |b| {
        b.iter(|| {
            for position in positions {
                black_box(position.count_moves());
            }
        })
    });
    group.finish();
}

fn star_movegen(c: &mut Criterion) {
    bench_movegen(c, "diamond_3p", &diamond_positions());
    bench_movegen(c, "capture_6p", &capture_positions());
}

criterion_group!(benches, star_movegen);
criterion_main!(benches);
