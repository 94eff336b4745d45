//! Monte-Carlo tree search ([`crate::search::mcts`]) on Nim.

use super::*;

fn mcts_params(max_nodes: u64, seed: u64) -> Params {
    Params {
        multi_player: MultiPlayer::MonteCarlo,
        seed,
        ..params(Limits {
            max_nodes,
            ..unbounded()
        })
    }
}

#[test]
fn mcts_honours_the_budget_and_replays_exactly() {
    assert_budget_honoured_and_replayed(MultiPlayer::MonteCarlo);
}

/// Wherever seat 0 can force a win against the others playing together (plain paranoid
/// minimax, the independent truth), Monte-Carlo tree search plays a move that keeps the
/// forced win, for three and four seats: its playouts are random, but its tree converges.
#[test]
fn mcts_finds_a_forced_win_wherever_there_is_one() {
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for seats in [3, 4] {
        for piles in maxn_positions() {
            let nim = Nim::new(piles, seats);
            if paranoid(&nim, 0) < 1 {
                continue;
            }
            let params = mcts_params(20_000, u64::from(piles[0]) * 31 + u64::from(seats));
            let found =
                alphabeta::search(&nim, &[], &params, &stop, &SearchContext::new()).expect("moves");
            assert_eq!(
                paranoid(&nim.after(&found.best), 0),
                1,
                "{seats} seats, {piles:?}: {:?}",
                found.best
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} positions with a forced win");
}

/// The position of `maxn_counts_on_each_seat_playing_for_itself`: seat 0 wins only if seat 1
/// plays for itself, not for seat 2. Monte-Carlo tree search lets every seat play for itself,
/// as max^n does, and takes the single stone; the paranoid search sees a loss whatever it plays.
#[test]
fn mcts_counts_on_each_seat_playing_for_itself() {
    let stop = AtomicBool::new(false);
    let nim = Nim::new([2, 2, 0, 0], 3);
    for seed in 0..4 {
        let found = alphabeta::search(
            &nim,
            &[],
            &mcts_params(5_000, seed),
            &stop,
            &SearchContext::new(),
        )
        .expect("moves");
        assert_eq!(found.best.count, 1, "seed {seed}: {:?}", found.best);
        assert!(found.score > 0, "seed {seed}: score {}", found.score);
    }
}

#[test]
fn mcts_stops_at_its_time_limit_and_at_the_stop_flag() {
    let nim = Nim::new([40, 41, 42, 43], 3);
    let timed = Params {
        multi_player: MultiPlayer::MonteCarlo,
        ..params(Limits::timed(
            Duration::from_millis(50),
            Duration::from_millis(100),
            64,
        ))
    };
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let found = alphabeta::search(&nim, &[], &timed, &stop, &SearchContext::new()).expect("moves");
    assert!(found.timed_out && found.nodes > 0);
    assert!(nim.moves().contains(&found.best));
    // CPU time of this thread: the wall clock can only be longer.
    assert!(started.elapsed() >= Duration::from_millis(100));
    let found = stopped_after_100_ms(&nim, mcts_params(u64::MAX, 3));
    assert!(nim.moves().contains(&found.best) && !found.timed_out);
}
