//! The alpha-beta search ([`crate::search::alphabeta`]) on Nim.

use super::*;

#[test]
fn two_seats_find_the_winning_move_wherever_there_is_one() {
    for piles in small_positions() {
        let nim = Nim::new(piles, 2);
        let found = solve(&nim);
        let won = nim.is_won_for_mover();
        assert_eq!(
            found.score >= WIN_MIN,
            won,
            "{piles:?}: score {}",
            found.score
        );
        assert_eq!(
            found.score <= -WIN_MIN,
            !won,
            "{piles:?}: score {}",
            found.score
        );
        if won {
            assert!(
                !nim.after(&found.best).is_won_for_mover(),
                "{piles:?}: {:?}",
                found.best
            );
        }
    }
}

#[test]
fn paranoid_search_agrees_with_plain_minimax_for_three_and_four_seats() {
    for seats in [3, 4] {
        for piles in small_positions().filter(|p| p.iter().map(|&x| u32::from(x)).sum::<u32>() <= 9)
        {
            let nim = Nim::new(piles, seats);
            let found = solve(&nim);
            let truth = paranoid(&nim, 0);
            assert!(
                score::is_decisive(found.score),
                "{piles:?}: {}",
                found.score
            );
            assert_eq!(found.score.signum(), truth, "{seats} seats, {piles:?}");
            if truth > 0 {
                assert_eq!(paranoid(&nim.after(&found.best), 0), 1, "{piles:?}");
            }
        }
    }
}

/// Best-Reply Search: the root seat and one opponent at a time alternate, and whoever takes
/// the last stone wins, so for any number of seats its value is the two-seat game's (the
/// XOR rule), for the root seat against "the others". With two seats it is plain minimax.

#[test]
fn the_fastest_win_is_preferred() {
    // Taking the whole last pile wins at once; other moves win later or not at all.
    let nim = Nim::new([0, 0, 3, 0], 2);
    let found = solve(&nim);
    assert_eq!(found.best, Take { pile: 2, count: 3 });
    assert_eq!(found.score, score::WIN - 1);
}

fn pruned(first: u32, per_ply: u32, depth: u32) -> Params {
    Params {
        move_pruning: Some(MovePruning { first, per_ply }),
        ..params(Limits::depth(depth))
    }
}

#[test]
fn late_move_pruning_keeps_the_root_and_the_moves_that_win_at_once() {
    // A pile of 4: every move loses, the opponent then taking the rest. After taking 1 or
    // 2, that winning reply is not the first in Nim's order (by pile, then stones taken),
    // so keeping one move a node would miss it; a move that wins at once is always kept.
    let nim = Nim::new([4, 0, 0, 0], 2);
    let stop = AtomicBool::new(false);
    let found = alphabeta::search(&nim, &[], &pruned(1, 0, 2), &stop, &SearchContext::new())
        .expect("moves");
    assert_eq!(found.score, -(score::WIN - 2), "every move loses");
    // The root is never pruned: searched one ply, keeping one move a node changes nothing;
    // two plies deep, it leaves out all but the first reply to each root move.
    let nim = Nim::new([1, 2, 3, 0], 2);
    for depth in [1, 2] {
        let full = alphabeta::search(
            &nim,
            &[],
            &params(Limits::depth(depth)),
            &stop,
            &SearchContext::new(),
        )
        .expect("moves");
        let one = alphabeta::search(
            &nim,
            &[],
            &pruned(1, 0, depth),
            &stop,
            &SearchContext::new(),
        )
        .expect("moves");
        assert_eq!(one.nodes == full.nodes, depth == 1, "depth {depth}");
    }
}

#[test]
fn late_move_pruning_searches_the_first_moves_only() {
    let nim = Nim::new([5, 6, 7, 0], 2);
    let stop = AtomicBool::new(false);
    let full = alphabeta::search(
        &nim,
        &[],
        &params(Limits::depth(5)),
        &stop,
        &SearchContext::new(),
    )
    .expect("moves");
    // Nim offers at most 9 moves here: keeping 9 a node prunes nothing.
    let wide = alphabeta::search(&nim, &[], &pruned(9, 0, 5), &stop, &SearchContext::new())
        .expect("moves");
    assert_eq!(
        (wide.best, wide.score, wide.nodes),
        (full.best, full.score, full.nodes)
    );
    let one = alphabeta::search(&nim, &[], &pruned(1, 0, 5), &stop, &SearchContext::new())
        .expect("moves");
    let growing = alphabeta::search(&nim, &[], &pruned(1, 2, 5), &stop, &SearchContext::new())
        .expect("moves");
    assert!(
        one.nodes < growing.nodes && growing.nodes < full.nodes,
        "{} {} {}",
        one.nodes,
        growing.nodes,
        full.nodes
    );
}

/// Two seats: whether `mv` leaves the opponent a lost position (Sprague–Grundy).

#[test]
fn a_timed_search_cut_mid_iteration_plays_a_better_move_it_proved() {
    // Nim's evaluation is 0: an iteration tells moves apart only once it sees a win or a
    // loss, and a seen one is real. Node budgets on a timed search (whose soft limit never
    // stops it) cut iterations at every check (each 512 nodes). Where the cut iteration
    // proved a move better than the last complete iteration's, that move is played: it never
    // gives up a winning move, and in these positions it finds a win the complete iterations
    // had not seen.
    let stop = AtomicBool::new(false);
    let mut wins_found_in_a_cut_iteration = 0;
    for piles in [[3, 3, 7, 0], [3, 5, 5, 0], [3, 6, 7, 0]] {
        let nim = Nim::new(piles, 2);
        assert!(nim.is_won_for_mover());
        for max_nodes in (512..16_000).step_by(512) {
            let limits = Limits {
                max_depth: 40,
                min_depth: 1,
                max_nodes,
                max_time: Duration::from_secs(600),
                soft_time: Some(Duration::from_secs(600)),
                wall_cap: None,
            };
            let found = alphabeta::search(&nim, &[], &params(limits), &stop, &SearchContext::new())
                .expect("moves");
            if found.depth == 0 || score::is_decisive(found.score) {
                continue;
            }
            let complete = alphabeta::search(
                &nim,
                &[],
                &params(Limits::depth(found.depth)),
                &stop,
                &SearchContext::new(),
            )
            .expect("moves");
            assert_eq!(found.score, complete.score, "{piles:?} {max_nodes}");
            if found.best == complete.best {
                continue;
            }
            assert!(
                wins(&nim, &found.best) || !wins(&nim, &complete.best),
                "{piles:?}, {max_nodes} nodes: {:?} replaced the winning {:?}",
                found.best,
                complete.best
            );
            if wins(&nim, &found.best) && !wins(&nim, &complete.best) {
                wins_found_in_a_cut_iteration += 1;
            }
        }
    }
    assert!(
        wins_found_in_a_cut_iteration >= 3,
        "{wins_found_in_a_cut_iteration} wins played from a cut iteration"
    );
}

#[test]
fn two_search_threads_solve_nim_as_one_does() {
    let stop = AtomicBool::new(false);
    for piles in small_positions() {
        let nim = Nim::new(piles, 2);
        let two = Params {
            threads: 2,
            ..params(Limits::depth(40))
        };
        let found =
            alphabeta::search(&nim, &[], &two, &stop, &SearchContext::new()).expect("moves");
        let single = solve(&nim);
        assert_eq!(found.score, single.score, "{piles:?}");
        assert_eq!(found.score > 0, nim.is_won_for_mover(), "{piles:?}");
        if nim.is_won_for_mover() {
            assert!(wins(&nim, &found.best), "{piles:?}: {:?}", found.best);
        }
    }
}

#[test]
fn two_search_threads_stop_at_the_time_limit_and_at_the_stop_flag() {
    let nim = Nim::new([60, 61, 62, 63], 2);
    let two = |limits| Params {
        threads: 2,
        ..params(limits)
    };
    let stop = AtomicBool::new(false);
    let timed = two(Limits::timed(
        Duration::from_millis(30),
        Duration::from_millis(60),
        200,
    ));
    let found = alphabeta::search(&nim, &[], &timed, &stop, &SearchContext::new()).expect("moves");
    assert!(found.depth >= 1);
    assert!(nim.moves().contains(&found.best));
    // Unbounded but for the stop flag: both threads end once it is set.
    let found = stopped_after_100_ms(&nim, two(unbounded()));
    assert!(nim.moves().contains(&found.best));
}

/// Deep enough never to finish by itself.

#[test]
fn a_timed_search_cut_mid_iteration_plays_its_last_complete_iteration() {
    // Too large to finish: the hard limit cuts an iteration; the soft one never stops it.
    // No iteration sees a win, so none proves a move better than another.
    let nim = Nim::new([40, 41, 42, 43], 2);
    let stop = AtomicBool::new(false);
    let timed = params(Limits::timed(
        Duration::from_secs(600),
        Duration::from_millis(60),
        200,
    ));
    let found = alphabeta::search(&nim, &[], &timed, &stop, &SearchContext::new()).expect("moves");
    assert!(found.timed_out, "the hard limit must have cut the search");
    assert!(found.depth >= 1, "at least one iteration completes");
    // Independent truth: the same search stopped after that depth by its depth cap.
    let complete = alphabeta::search(
        &nim,
        &[],
        &params(Limits::depth(found.depth)),
        &stop,
        &SearchContext::new(),
    )
    .expect("moves");
    assert_eq!(found.best, complete.best, "depth {}", found.depth);
    assert_eq!(found.score, complete.score);
}

#[test]
fn aspiration_windows_return_the_full_window_value() {
    // Seeded noise gives the leaves varied values; narrow windows fail often, both ways.
    let stop = AtomicBool::new(false);
    for (piles, seed) in [([7, 9, 11, 4], 3), ([12, 5, 8, 9], 8), ([3, 14, 6, 10], 21)] {
        let nim = Nim::new(piles, 2);
        for depth in 4..=7 {
            let full = Params {
                noise: 40,
                seed,
                ..params(Limits::depth(depth))
            };
            let aspiring = Params {
                aspiration: 2,
                ..full
            };
            let plain =
                alphabeta::search(&nim, &[], &full, &stop, &SearchContext::new()).expect("moves");
            let aspired = alphabeta::search(&nim, &[], &aspiring, &stop, &SearchContext::new())
                .expect("moves");
            assert_eq!(aspired.score, plain.score, "{piles:?} depth {depth}");
            assert_eq!(aspired.depth, depth);
            assert!(nim.moves().contains(&aspired.best));
        }
    }
}

#[test]
fn a_timed_search_starts_no_iteration_past_its_soft_limit() {
    let nim = Nim::new([40, 41, 42, 43], 2);
    let stop = AtomicBool::new(false);
    let spent = params(Limits::timed(Duration::ZERO, Duration::from_secs(600), 200));
    let found = alphabeta::search(&nim, &[], &spent, &stop, &SearchContext::new()).expect("moves");
    assert_eq!(found.depth, 1, "only the first iteration runs");
    assert!(!found.timed_out);
    let legal = nim.moves();
    assert!(legal.contains(&found.best));
}

#[test]
fn the_node_budget_bounds_the_search_and_replays_exactly() {
    let nim = Nim::new([40, 41, 42, 43], 2);
    let limits = Limits {
        max_depth: 40,
        min_depth: 1,
        max_nodes: 20_000,
        max_time: Duration::from_secs(60),
        soft_time: None,
        wall_cap: None,
    };
    let stop = AtomicBool::new(false);
    let mut noisy = params(limits);
    noisy.noise = 20;
    noisy.seed = 7;
    let first = alphabeta::search(&nim, &[], &noisy, &stop, &SearchContext::new()).expect("moves");
    let second = alphabeta::search(&nim, &[], &noisy, &stop, &SearchContext::new()).expect("moves");
    assert!(first.nodes <= 20_000 + 512, "{} nodes", first.nodes);
    assert!(first.depth >= 3);
    assert_eq!(
        (first.best, first.score, first.depth, first.nodes),
        (second.best, second.score, second.depth, second.nodes)
    );
}

#[test]
fn the_stop_flag_ends_an_unbounded_search() {
    let nim = Nim::new([60, 61, 62, 63], 2);
    let started = Instant::now();
    let found = stopped_after_100_ms(&nim, params(unbounded()));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(nim.moves().contains(&found.best));
}

fn selective(limits: Limits, min_depth: u32) -> Params {
    Params {
        probcut: Some(ProbCut {
            min_depth,
            reduction: 1,
            slope_permille: 1000,
            intercept: 0,
            margin: 0,
        }),
        countermoves: true,
        ..params(limits)
    }
}

#[test]
fn probcut_and_countermoves_still_solve_nim() {
    // Nim's only values are wins, losses and the unknown 0 of the horizon: a shallow search
    // that proves a win proves it for the deep one too, so ProbCut at its tightest (every node
    // of two plies or more, no margin) must keep every answer exact.
    let stop = AtomicBool::new(false);
    for piles in small_positions() {
        let nim = Nim::new(piles, 2);
        let found = alphabeta::search(
            &nim,
            &[],
            &selective(Limits::depth(40), 2),
            &stop,
            &SearchContext::new(),
        )
        .expect("moves");
        let won = nim.is_won_for_mover();
        assert_eq!(found.score >= WIN_MIN, won, "{piles:?}: {}", found.score);
        assert_eq!(found.score <= -WIN_MIN, !won, "{piles:?}: {}", found.score);
        if won {
            assert!(!nim.after(&found.best).is_won_for_mover(), "{piles:?}");
        }
    }
}

#[test]
fn probcut_below_its_depth_changes_nothing() {
    let stop = AtomicBool::new(false);
    for piles in [[9, 7, 5, 3], [12, 4, 9, 1], [6, 6, 6, 6]] {
        let nim = Nim::new(piles, 2);
        let search = |params: &Params| {
            alphabeta::search(&nim, &[], params, &stop, &SearchContext::new()).expect("moves")
        };
        let plain = search(&params(Limits::depth(6)));
        let probcut = search(&Params {
            countermoves: false,
            ..selective(Limits::depth(6), 7)
        });
        assert_eq!(
            (plain.best, plain.score, plain.depth, plain.nodes),
            (probcut.best, probcut.score, probcut.depth, probcut.nodes),
            "{piles:?}"
        );
    }
}
