//! Best-Reply Search on Nim.

use super::*;

#[test]
fn best_reply_search_plays_nim_as_the_two_seat_game_for_any_number_of_seats() {
    for seats in [2, 3, 4] {
        for piles in small_positions() {
            let nim = Nim::new(piles, seats);
            let found = solve_best_reply(&nim);
            let won = nim.is_won_for_mover();
            assert!(
                score::is_decisive(found.score),
                "{seats} seats, {piles:?}: {}",
                found.score
            );
            assert_eq!(found.score > 0, won, "{seats} seats, {piles:?}");
            if won {
                assert!(
                    !nim.after(&found.best).is_won_for_mover(),
                    "{seats} seats, {piles:?}: {:?}",
                    found.best
                );
            }
        }
    }
}

#[test]
fn best_reply_search_wins_where_paranoid_search_gives_up() {
    // Three seats, one pile of 5. Paranoid: whatever seat 1 takes, seats 2 and 3 together
    // can take the rest (5-1 = 4: 1 then 3; 5-2 = 3: 1 then 2; 5-3 = 2: 1 then 1), so it is
    // lost. Best reply: taking 1 leaves 4, and whatever one opponent takes (1-3), seat 1
    // takes the rest.
    let nim = Nim::new([5, 0, 0, 0], 3);
    assert!(solve(&nim).score <= -WIN_MIN);
    let found = solve_best_reply(&nim);
    assert_eq!(found.best, Take { pile: 0, count: 1 });
    assert_eq!(found.score, score::WIN - 3);
    // Three piles of one: seat 1 takes one, a single opponent takes one, seat 1 the last.
    let nim = Nim::new([1, 1, 1, 0], 3);
    assert!(solve(&nim).score <= -WIN_MIN);
    assert_eq!(solve_best_reply(&nim).score, score::WIN - 3);
}

/// A 20 000-node search of a large 3-seat Nim in `multi_player` mode keeps to its budget
/// (checked every 512 nodes), reaches depth 3, replays exactly, and answers a legal move
/// when stopped at once.

#[test]
fn best_reply_search_honours_the_budget_and_replays_exactly() {
    assert_budget_honoured_and_replayed(MultiPlayer::BestReply);
}
