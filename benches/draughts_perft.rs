//! Perft speed of the draughts move generators: English perft(11) and International perft(9).
//! Targets on a 2-core machine: English under 1 s, International under 1.5 s (hashed or 2-thread
//! perft allowed). Prints one timed run of every perft flavour, then criterion's statistics
//! (throughput in nodes/s as "elem/s").

use criterion::{Criterion, Throughput};
use damas::games::english::English;
use damas::games::international::International;
use damas::perft::{perft, perft_hashed, perft_parallel};
use damas::{GameKind, Position, Variant};
use std::time::{Duration, Instant};

const TABLE_BITS: u32 = 22;

fn english() -> English {
    English::start(Variant::standard(GameKind::English)).expect("English start")
}

fn international() -> International {
    International::start(Variant::standard(GameKind::International)).expect("International start")
}

/// A perft flavour: position and depth to node count.
type PerftFn<P> = fn(&P, u32) -> u64;

/// The perft flavours measured: name and how to run it.
fn flavours<P: Position>() -> Vec<(&'static str, PerftFn<P>)> {
    vec![
        ("plain", |p, d| perft(p, d)),
        ("hashed", |p, d| perft_hashed(p, d, TABLE_BITS)),
        ("2 threads", |p, d| perft_parallel(p, d, 2, 0)),
        ("2 threads hashed", |p, d| {
            perft_parallel(p, d, 2, TABLE_BITS - 1)
        }),
    ]
}

fn one_shot<P: Position>(game: &str, position: &P, depth: u32) {
    for (name, run) in flavours::<P>() {
        let start = Instant::now();
        let nodes = run(position, depth);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{game} perft({depth}) {name:>16}: {nodes} nodes in {seconds:.3} s = {:.1} M nodes/s",
            nodes as f64 / seconds / 1e6
        );
    }
}

fn bench<P: Position>(c: &mut Criterion, game: &str, position: &P, depth: u32, skip_plain: bool) {
    let nodes = perft_hashed(position, depth, TABLE_BITS);
    let mut group = c.benchmark_group(format!("{game}_perft_{depth}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(nodes));
    for (name, run) in flavours::<P>() {
        if skip_plain && !name.contains("hashed") {
            continue;
        }
        group.bench_function(name, |b| b.iter(|| run(position, depth)));
    }
    group.finish();
}

fn main() {
    // `cargo bench` passes `--bench`; test runs of the bench target (`cargo test --benches`) skip
    // the one-shot timings.
    if std::env::args().any(|arg| arg == "--bench") {
        one_shot("english", &english(), 11);
        one_shot("international", &international(), 9);
    }
    let mut c = Criterion::default().configure_from_args();
    // Plain English perft(11) takes seconds per run: its one-shot figure above is enough.
    bench(&mut c, "english", &english(), 11, true);
    bench(&mut c, "international", &international(), 9, false);
    c.final_summary();
}
