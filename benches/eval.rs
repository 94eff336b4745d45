//! What English checkers' learned pattern evaluation costs: static evaluations per second and a
//! search's nodes per second with the tuned evaluation (`EvalStyle::Full`, what expert played
//! before) and with the patterns added (`EvalStyle::Learned`), on the start and two positions of
//! a seeded game of medium against medium. The searches are hard's (1 200 000 nodes, one thread,
//! no noise), so both do comparable work on every run; time is the thread's CPU time. Prints a
//! table; `cargo bench --bench eval` takes about half a minute of CPU time.

use damas::catalogue;
use damas::games::english::English;
use damas::search::levels;
use damas::search::searchable::{EvalStyle, Searchable};
use damas::search::{Level, Player, PlayerConfig, SearchContext};
use damas::{GameKind, Position, Record, Variant};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

const SEED: u64 = 1;
const PLIES: [usize; 3] = [0, 10, 24];

fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|stat| stat.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(
            || {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64())
            },
            |nanos| nanos / 1e9,
        )
}

/// The positions after `PLIES` plies of a seeded medium-against-medium game, as moves.
fn openings() -> Vec<Vec<String>> {
    let variant = Variant::standard(GameKind::English);
    let mut game = catalogue::new_game(variant, None).expect("english");
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    let mut out = Vec::new();
    for ply in 0..=PLIES[2] {
        if PLIES.contains(&ply) {
            out.push(moves.clone());
        }
        let decision = game
            .decide(
                Player::Cpu(Level::Medium),
                SEED,
                None,
                &stop,
                &SearchContext::new(),
            )
            .expect("a move");
        game.play(&decision.info.text).expect("legal");
        moves.push(decision.info.text);
    }
    out
}

fn main() {
    let variant = Variant::standard(GameKind::English);
    let start = English::start(variant).expect("english");
    let hard = levels::config(variant, Player::Cpu(Level::Hard));
    println!("style    ply  evals/s (M)  depth  nodes      CPU ms  nodes/s (M)");
    for moves in openings() {
        let mut record = Record::new(start);
        for text in &moves {
            record.play_text(text).expect("legal");
        }
        let position = *record.position();
        for style in [EvalStyle::Full, EvalStyle::Learned] {
            let rounds = 200_000;
            let begin = thread_cpu_seconds();
            let mut total = 0i64;
            for round in 0..rounds {
                total += i64::from(black_box(&position).evaluate((round & 1) as u8, style));
            }
            black_box(total);
            let evals = rounds as f64 / (thread_cpu_seconds() - begin).max(1e-9);
            let config = PlayerConfig {
                params: damas::search::alphabeta::Params {
                    style,
                    noise: 0,
                    ..hard.params
                },
                ..hard
            };
            let mut game = catalogue::new_game(variant, None).expect("english");
            for text in &moves {
                game.play(text).expect("legal");
            }
            let stop = AtomicBool::new(false);
            let begin = thread_cpu_seconds();
            let decision = game
                .decide_as(&config, SEED, None, &stop, &SearchContext::new())
                .expect("a move");
            let seconds = (thread_cpu_seconds() - begin).max(1e-9);
            println!(
                "{:<8} {:>3}  {:>11.2}  {:>5}  {:>9}  {:>6.0}  {:>11.2}",
                format!("{style:?}"),
                moves.len(),
                evals / 1e6,
                decision.depth,
                decision.nodes,
                seconds * 1e3,
                decision.nodes as f64 / seconds / 1e6
            );
        }
    }
}
