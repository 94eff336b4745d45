//! Turkish perft(8) from the start position: ours against the `kish` crate, in the same run.
//!
//! Prints nodes/s for both (criterion's throughput line, plus one plain timed run each).
//! Target: ours no slower than 2× kish. Run: `cargo bench --bench turkish_perft`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas::games::turkish::{perft_paths, Turkish};
use damas::perft::perft;
use damas::{GameKind, Position, Variant};
use std::hint::black_box;
use std::time::{Duration, Instant};

const DEPTH: u32 = 8;
/// kish's published figure: it counts capture paths, as `perft_paths` does.
const PATHS_AT_8: u64 = 123_290_300;

fn timed(label: &str, run: impl Fn() -> u64) -> f64 {
    let started = Instant::now();
    let nodes = run();
    let seconds = started.elapsed().as_secs_f64();
    let rate = nodes as f64 / seconds;
    println!(
        "{label:<28} {nodes:>11} nodes in {seconds:.3} s = {:.1} M nodes/s",
        rate / 1e6
    );
    rate
}

fn turkish_perft(c: &mut Criterion) {
    let ours = Turkish::start(Variant::standard(GameKind::Turkish)).expect("start position");
    let theirs = kish::Board::new_default();

    let paths = timed("damas perft_paths(8)", || perft_paths(&ours, DEPTH));
    let unique = timed("damas perft(8), unique", || perft(&ours, DEPTH));
    let kish_rate = timed("kish perft(8)", || theirs.perft(u64::from(DEPTH)));
    println!(
        "damas/kish speed: paths {:.2}×, unique {:.2}× (target ≥ 0.5×)",
        paths / kish_rate,
        unique / kish_rate
    );

    let mut group = c.benchmark_group("turkish_perft_8");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(PATHS_AT_8));
    group.bench_function("damas_paths", |b| {
        b.iter(|| perft_paths(black_box(&ours), DEPTH))
    });
    group.bench_function("damas_unique", |b| {
        b.iter(|| perft(black_box(&ours), DEPTH))
    });
    group.bench_function("kish", |b| {
        b.iter(|| black_box(&theirs).perft(u64::from(DEPTH)))
    });
    group.finish();
}

criterion_group!(benches, turkish_perft);
criterion_main!(benches);
