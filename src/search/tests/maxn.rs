//! Max^n on Nim.

use super::*;

fn maxn_params(limits: Limits) -> Params {
    Params {
        multi_player: MultiPlayer::MaxN,
        ..params(limits)
    }
}

type Scores = [i32; MAX_SEATS];

/// Independent truth for max^n, by enumerating the whole tree: every seat-score vector the
/// node can take under some tie-breaking (a seat may pick any of the children that give it
/// the most). A win scores WIN - ply for the winner and the opposite for every other seat.
fn maxn_values(nim: &Nim, ply: i32) -> Vec<Scores> {
    if let Some(outcome) = nim.outcome() {
        let mut scores = [0; MAX_SEATS];
        if let crate::position::GameResult::Win(winner) = outcome.result {
            for (seat, score) in scores.iter_mut().enumerate().take(nim.seats()) {
                let win = score::WIN - ply;
                *score = if seat == usize::from(winner) {
                    win
                } else {
                    -win
                };
            }
        }
        return vec![scores];
    }
    let children: Vec<Vec<Scores>> = nim
        .moves()
        .iter()
        .map(|mv| maxn_values(&nim.after(mv), ply + 1))
        .collect();
    let mover = usize::from(nim.to_move);
    let mut values = Vec::new();
    for index in 0..children.len() {
        for value in choosable(&children, index, mover) {
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    values
}

/// The values of child `index` its mover may choose: at least what every sibling can be
/// made to give at least.
fn choosable(children: &[Vec<Scores>], index: usize, mover: usize) -> Vec<Scores> {
    let floor = children
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != index)
        .filter_map(|(_, values)| values.iter().map(|v| v[mover]).min())
        .max()
        .unwrap_or(i32::MIN);
    children[index]
        .iter()
        .copied()
        .filter(|v| v[mover] >= floor)
        .collect()
}

/// Whether `found` is a max^n answer at the root (seat 0): its move is one seat 0 may choose
/// and its score seat 0's entry of a value that move may have.
fn is_maxn_answer(nim: &Nim, found: &alphabeta::Found<Take>) -> bool {
    let moves = nim.moves();
    let children: Vec<Vec<Scores>> = moves
        .iter()
        .map(|mv| maxn_values(&nim.after(mv), 1))
        .collect();
    let Some(index) = moves.iter().position(|mv| *mv == found.best) else {
        return false;
    };
    choosable(&children, index, 0)
        .iter()
        .any(|v| v[0] == found.score)
}

#[test]
fn maxn_agrees_with_a_brute_force_maxn_for_three_and_four_seats() {
    let stop = AtomicBool::new(false);
    let mut paranoid_wrong = 0;
    for seats in [3, 4] {
        for piles in maxn_positions() {
            let nim = Nim::new(piles, seats);
            let found = alphabeta::search(
                &nim,
                &[],
                &maxn_params(Limits::depth(40)),
                &stop,
                &SearchContext::new(),
            )
            .expect("moves");
            assert!(score::is_decisive(found.score), "{seats} seats, {piles:?}");
            assert!(
                is_maxn_answer(&nim, &found),
                "{seats} seats, {piles:?}: {:?} {}",
                found.best,
                found.score
            );
            // The check can fail: the paranoid search's answers often are not max^n's.
            if !is_maxn_answer(&nim, &solve(&nim)) {
                paranoid_wrong += 1;
            }
        }
    }
    assert!(paranoid_wrong > 10, "{paranoid_wrong}");
}

#[test]
fn maxn_shallow_pruning_keeps_the_answer_and_saves_nodes() {
    let stop = AtomicBool::new(false);
    let (mut pruned_nodes, mut full_nodes) = (0, 0);
    for seats in [3, 4] {
        for piles in maxn_positions() {
            let pruned = Nim::new(piles, seats);
            let full = Nim {
                seat_bounds: false,
                ..pruned.clone()
            };
            let params = maxn_params(Limits::depth(40));
            let with = alphabeta::search(&pruned, &[], &params, &stop, &SearchContext::new())
                .expect("moves");
            let without = alphabeta::search(&full, &[], &params, &stop, &SearchContext::new())
                .expect("moves");
            assert!(is_maxn_answer(&pruned, &with), "{seats} seats, {piles:?}");
            assert!(
                is_maxn_answer(&pruned, &without),
                "{seats} seats, {piles:?}"
            );
            pruned_nodes += with.nodes;
            full_nodes += without.nodes;
        }
    }
    assert!(
        pruned_nodes * 10 < full_nodes * 9,
        "{pruned_nodes} against {full_nodes}"
    );
}

/// Three seats, piles 2, 2, seat 0 to move (plies counted from 0). Taking a pair leaves 2:
/// seat 1 takes it and wins. Taking 1 leaves 1, 2 for seat 1, which wins with no move: the
/// single stone leaves 2 (seat 2 takes both at ply 2), the pair leaves 1 (seat 2 again), and
/// 1 of the pair leaves 1, 1: seat 2 takes one and seat 0 the last at ply 3. Seat 1 loses
/// every way, and the latest loss is the last one, so it plays that: seat 0 wins, 4 plies
/// deep. The paranoid search lets seats 1 and 2 play together and calls the position lost.
#[test]
fn maxn_counts_on_each_seat_playing_for_itself() {
    let stop = AtomicBool::new(false);
    let nim = Nim::new([2, 2, 0, 0], 3);
    let found = alphabeta::search(
        &nim,
        &[],
        &maxn_params(Limits::depth(40)),
        &stop,
        &SearchContext::new(),
    )
    .expect("moves");
    assert_eq!(found.best.count, 1, "{:?}", found.best);
    assert_eq!(found.score, score::WIN - 4);
    assert!(solve(&nim).score <= -WIN_MIN, "paranoid: lost");
}

#[test]
fn maxn_honours_the_budget_and_replays_exactly() {
    assert_budget_honoured_and_replayed(MultiPlayer::MaxN);
}
