//! A tiny game with known answers for testing the search: Nim on up to four piles, taking one
//! to three stones from one pile, for 2–6 seats; whoever takes the last stone wins. With two
//! seats a position is lost for the side to move exactly when the XOR of `pile % 4` is zero
//! (Sprague–Grundy: a pile of n has Grundy value n mod 4).

use super::searchable::{EvalStyle, Searchable};
use crate::position::{
    BoardLayout, BoardShape, EndReason, GameKind, MoveInfo, Outcome, PieceView, Position, Seat,
    SeatStats, SetupError, Variant,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    pub piles: [u8; 4],
    pub to_move: Seat,
    pub seats: u8,
    pub last: Option<Seat>,
    /// Whether max^n may prune shallowly ([`Searchable::seat_score_bounds`]): Nim's evaluation
    /// is 0 for every seat, so every entry is at least 0 and they add up to at most 0.
    pub seat_bounds: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub pile: usize,
    pub count: u8,
}

impl Nim {
    pub fn new(piles: [u8; 4], seats: u8) -> Nim {
        Nim {
            piles,
            to_move: 0,
            seats,
            last: None,
            seat_bounds: true,
        }
    }

    /// Two seats: whether the side to move wins with best play.
    pub fn is_won_for_mover(&self) -> bool {
        self.piles.iter().fold(0, |x, &p| x ^ (p % 4)) != 0
    }
}

impl Position for Nim {
    type Move = Take;

    fn start(variant: Variant) -> Result<Self, SetupError> {
        Ok(Nim::new([5, 6, 7, 0], variant.players))
    }

    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError> {
        let mut piles = [0; 4];
        for (slot, part) in piles.iter_mut().zip(text.split(',')) {
            *slot = part
                .trim()
                .parse()
                .map_err(|_| SetupError::Position(text.to_string()))?;
        }
        Ok(Nim::new(piles, variant.players))
    }

    fn to_text(&self) -> String {
        let parts: Vec<String> = self.piles.iter().map(u8::to_string).collect();
        parts.join(",")
    }

    fn variant(&self) -> Variant {
        Variant {
            kind: GameKind::Capture,
            players: self.seats,
            long_jump: false,
        }
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Take>) {
        out.clear();
        for (pile, &stones) in self.piles.iter().enumerate() {
            for count in 1..=stones.min(3) {
                out.push(Take { pile, count });
            }
        }
    }

    fn play(&mut self, mv: &Take) {
        self.piles[mv.pile] -= mv.count;
        self.last = Some(self.to_move);
        self.to_move = (self.to_move + 1) % self.seats;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.piles.iter().all(|&p| p == 0) {
            return self
                .last
                .map(|seat| Outcome::win(seat, EndReason::NoLegalMoves));
        }
        None
    }

    fn zobrist(&self) -> u64 {
        let mut key = u64::from(self.to_move) + 1;
        for &pile in &self.piles {
            key = key.wrapping_mul(0x100_0000_01B3) ^ u64::from(pile);
        }
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn move_info(&self, mv: &Take) -> MoveInfo {
        let text = format!("{}-{}", mv.pile, mv.count);
        MoveInfo {
            text: text.clone(),
            from: mv.pile.to_string(),
            to: mv.pile.to_string(),
            path: vec![text],
            jumps: 0,
            captures: Vec::new(),
            legs: Vec::new(),
            pass: false,
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["1", "2", "3", "4", "5", "6"][usize::from(seat) % 6]
    }

    fn seat_stats(&self) -> Vec<SeatStats> {
        Vec::new()
    }

    fn layout(&self) -> BoardLayout {
        BoardLayout {
            shape: BoardShape::Star,
            cells: Vec::new(),
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        Vec::new()
    }
}

impl Searchable for Nim {
    /// No knowledge: the search must see the end to tell wins from losses.
    fn evaluate(&self, _seat: Seat, _style: EvalStyle) -> i32 {
        0
    }

    fn history_key(&self, mv: &Take) -> usize {
        mv.pile * 4 + usize::from(mv.count)
    }

    /// Taking every stone left.
    fn wins_at_once(&self, mv: &Take) -> bool {
        self.piles.iter().map(|&p| u32::from(p)).sum::<u32>() == u32::from(mv.count)
    }

    fn seat_score_bounds(&self) -> Option<(i32, i32)> {
        self.seat_bounds.then_some((0, 0))
    }

    /// The piles are shared: any seat may take from them.
    fn with_turn(&self, seat: Seat) -> Option<Nim> {
        (seat < self.seats).then(|| Nim {
            to_move: seat,
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::search::alphabeta::{self, MovePruning, MultiPlayer, Params};
    use crate::search::limits::Limits;
    use crate::search::mistakes::Mistakes;
    use crate::search::player::{self, PlayerConfig};
    use crate::search::score::{self, WIN_MIN};
    use crate::search::searchable::MAX_SEATS;
    use crate::search::selfplay::{self, MatchConfig};
    use crate::search::Playable;
    use crate::search::{Level, Player};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    fn params(limits: Limits) -> Params {
        Params {
            limits,
            style: EvalStyle::Full,
            quiescence: false,
            noise: 0,
            seed: 0,
            table_bits: 16,
            reductions: false,
            multi_player: MultiPlayer::Paranoid,
            aspiration: 0,
            endgame: false,
            contempt: 0,
            move_pruning: None,
            threads: 1,
        }
    }

    fn solve(nim: &Nim) -> alphabeta::Found<Take> {
        let stop = AtomicBool::new(false);
        alphabeta::search(nim, &[], &params(Limits::depth(40)), &stop).expect("moves")
    }

    fn solve_best_reply(nim: &Nim) -> alphabeta::Found<Take> {
        let stop = AtomicBool::new(false);
        let params = Params {
            multi_player: MultiPlayer::BestReply,
            ..params(Limits::depth(40))
        };
        alphabeta::search(nim, &[], &params, &stop).expect("moves")
    }

    /// Independent truth for more seats: plain paranoid minimax, no pruning, no table.
    /// +1 when `root` wins against the others playing together, -1 otherwise.
    fn paranoid(nim: &Nim, root: Seat) -> i32 {
        if let Some(outcome) = nim.outcome() {
            return if outcome.result == crate::position::GameResult::Win(root) {
                1
            } else {
                -1
            };
        }
        let values = nim
            .moves()
            .into_iter()
            .map(|mv| paranoid(&nim.after(&mv), root));
        if nim.to_move == root {
            values.max().unwrap_or(-1)
        } else {
            values.min().unwrap_or(-1)
        }
    }

    fn small_positions() -> impl Iterator<Item = [u8; 4]> {
        (0..6u8)
            .flat_map(|a| (0..6u8).flat_map(move |b| (0..5u8).map(move |c| [a, b, c, 0])))
            // More than one move: a single legal move is played without searching.
            .filter(|piles| piles.iter().map(|&p| u32::from(p)).sum::<u32>() > 1)
    }

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
            for piles in
                small_positions().filter(|p| p.iter().map(|&x| u32::from(x)).sum::<u32>() <= 9)
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
    fn assert_budget_honoured_and_replayed(multi_player: MultiPlayer) {
        let nim = Nim::new([40, 41, 42, 43], 3);
        let limits = Limits {
            max_depth: 40,
            min_depth: 1,
            max_nodes: 20_000,
            max_time: Duration::from_secs(60),
            soft_time: None,
            wall_cap: None,
        };
        let stop = AtomicBool::new(false);
        let params = Params {
            noise: 20,
            seed: 7,
            multi_player,
            ..params(limits)
        };
        let first = alphabeta::search(&nim, &[], &params, &stop).expect("moves");
        let second = alphabeta::search(&nim, &[], &params, &stop).expect("moves");
        assert!(first.nodes <= 20_000 + 512, "{} nodes", first.nodes);
        assert!(first.depth >= 3, "depth {}", first.depth);
        assert_eq!(
            (first.best, first.score, first.depth, first.nodes),
            (second.best, second.score, second.depth, second.nodes)
        );
        stop.store(true, Ordering::Relaxed);
        let stopped = alphabeta::search(&nim, &[], &params, &stop).expect("a move when stopped");
        assert!(nim.moves().contains(&stopped.best));
    }

    #[test]
    fn best_reply_search_honours_the_budget_and_replays_exactly() {
        assert_budget_honoured_and_replayed(MultiPlayer::BestReply);
    }

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

    fn maxn_positions() -> impl Iterator<Item = [u8; 4]> {
        small_positions().filter(|p| p.iter().map(|&x| u32::from(x)).sum::<u32>() <= 7)
    }

    #[test]
    fn maxn_agrees_with_a_brute_force_maxn_for_three_and_four_seats() {
        let stop = AtomicBool::new(false);
        let mut paranoid_wrong = 0;
        for seats in [3, 4] {
            for piles in maxn_positions() {
                let nim = Nim::new(piles, seats);
                let found = alphabeta::search(&nim, &[], &maxn_params(Limits::depth(40)), &stop)
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
                let with = alphabeta::search(&pruned, &[], &params, &stop).expect("moves");
                let without = alphabeta::search(&full, &[], &params, &stop).expect("moves");
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
        let found =
            alphabeta::search(&nim, &[], &maxn_params(Limits::depth(40)), &stop).expect("moves");
        assert_eq!(found.best.count, 1, "{:?}", found.best);
        assert_eq!(found.score, score::WIN - 4);
        assert!(solve(&nim).score <= -WIN_MIN, "paranoid: lost");
    }

    #[test]
    fn maxn_honours_the_budget_and_replays_exactly() {
        assert_budget_honoured_and_replayed(MultiPlayer::MaxN);
    }

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
                let found = alphabeta::search(&nim, &[], &params, &stop).expect("moves");
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
            let found =
                alphabeta::search(&nim, &[], &mcts_params(5_000, seed), &stop).expect("moves");
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
        let found = alphabeta::search(&nim, &[], &timed, &stop).expect("moves");
        assert!(found.timed_out && found.nodes > 0);
        assert!(nim.moves().contains(&found.best));
        // CPU time of this thread: the wall clock can only be longer.
        assert!(started.elapsed() >= Duration::from_millis(100));
        let found = stopped_after_100_ms(&nim, mcts_params(u64::MAX, 3));
        assert!(nim.moves().contains(&found.best) && !found.timed_out);
    }

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
        let found = alphabeta::search(&nim, &[], &pruned(1, 0, 2), &stop).expect("moves");
        assert_eq!(found.score, -(score::WIN - 2), "every move loses");
        // The root is never pruned: searched one ply, keeping one move a node changes nothing;
        // two plies deep, it leaves out all but the first reply to each root move.
        let nim = Nim::new([1, 2, 3, 0], 2);
        for depth in [1, 2] {
            let full =
                alphabeta::search(&nim, &[], &params(Limits::depth(depth)), &stop).expect("moves");
            let one = alphabeta::search(&nim, &[], &pruned(1, 0, depth), &stop).expect("moves");
            assert_eq!(one.nodes == full.nodes, depth == 1, "depth {depth}");
        }
    }

    #[test]
    fn late_move_pruning_searches_the_first_moves_only() {
        let nim = Nim::new([5, 6, 7, 0], 2);
        let stop = AtomicBool::new(false);
        let full = alphabeta::search(&nim, &[], &params(Limits::depth(5)), &stop).expect("moves");
        // Nim offers at most 9 moves here: keeping 9 a node prunes nothing.
        let wide = alphabeta::search(&nim, &[], &pruned(9, 0, 5), &stop).expect("moves");
        assert_eq!(
            (wide.best, wide.score, wide.nodes),
            (full.best, full.score, full.nodes)
        );
        let one = alphabeta::search(&nim, &[], &pruned(1, 0, 5), &stop).expect("moves");
        let growing = alphabeta::search(&nim, &[], &pruned(1, 2, 5), &stop).expect("moves");
        assert!(
            one.nodes < growing.nodes && growing.nodes < full.nodes,
            "{} {} {}",
            one.nodes,
            growing.nodes,
            full.nodes
        );
    }

    /// Two seats: whether `mv` leaves the opponent a lost position (Sprague–Grundy).
    fn wins(nim: &Nim, mv: &Take) -> bool {
        let after = nim.after(mv);
        after.outcome().is_some() || !after.is_won_for_mover()
    }

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
                let found = alphabeta::search(&nim, &[], &params(limits), &stop).expect("moves");
                if found.depth == 0 || score::is_decisive(found.score) {
                    continue;
                }
                let complete =
                    alphabeta::search(&nim, &[], &params(Limits::depth(found.depth)), &stop)
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
            let found = alphabeta::search(&nim, &[], &two, &stop).expect("moves");
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
        let found = alphabeta::search(&nim, &[], &timed, &stop).expect("moves");
        assert!(found.depth >= 1);
        assert!(nim.moves().contains(&found.best));
        // Unbounded but for the stop flag: both threads end once it is set.
        let found = stopped_after_100_ms(&nim, two(unbounded()));
        assert!(nim.moves().contains(&found.best));
    }

    /// Deep enough never to finish by itself.
    fn unbounded() -> Limits {
        let mut limits = Limits::depth(60);
        limits.min_depth = 60;
        limits
    }

    /// The search with `params`, its stop flag set after 100 ms.
    fn stopped_after_100_ms(nim: &Nim, params: Params) -> alphabeta::Found<Take> {
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            });
            alphabeta::search(nim, &[], &params, &stop)
        })
        .expect("a move even when stopped")
    }

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
        let found = alphabeta::search(&nim, &[], &timed, &stop).expect("moves");
        assert!(found.timed_out, "the hard limit must have cut the search");
        assert!(found.depth >= 1, "at least one iteration completes");
        // Independent truth: the same search stopped after that depth by its depth cap.
        let complete = alphabeta::search(&nim, &[], &params(Limits::depth(found.depth)), &stop)
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
                    endgame: false,
                    contempt: 0,
                    move_pruning: None,
                    ..full
                };
                let plain = alphabeta::search(&nim, &[], &full, &stop).expect("moves");
                let aspired = alphabeta::search(&nim, &[], &aspiring, &stop).expect("moves");
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
        let found = alphabeta::search(&nim, &[], &spent, &stop).expect("moves");
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
        let first = alphabeta::search(&nim, &[], &noisy, &stop).expect("moves");
        let second = alphabeta::search(&nim, &[], &noisy, &stop).expect("moves");
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

    #[test]
    fn mistakes_stay_within_the_margin_and_are_rarer_for_regulars() {
        let mistakes = Mistakes {
            depth: 1,
            chance: 20,
            margin: 50,
            beginner_games: 3,
            beginner_chance: 60,
            beginner_margin: 100,
            plausible_first: false,
        };
        let scored = vec![
            ("best", 300),
            ("near", 280),
            ("fair", 220),
            ("poor", 100),
            ("lost", -WIN_MIN),
        ];
        let mut picks = [[0u32; 5]; 2];
        for seed in 0..2000 {
            picks[0][mistakes.pick(&scored, None, seed)] += 1;
            picks[1][mistakes.pick(&scored, Some(0), seed)] += 1;
        }
        // Regulars: only "near" is within 50; beginners also get "fair".
        assert_eq!(picks[0][2..], [0, 0, 0]);
        assert_eq!(picks[1][3..], [0, 0]);
        assert!(picks[1][2] > 0);
        let regular_rate = f64::from(picks[0][1]) / 2000.0;
        let beginner_rate = f64::from(picks[1][1] + picks[1][2]) / 2000.0;
        assert!((0.15..0.25).contains(&regular_rate), "{regular_rate}");
        assert!((0.5..0.7).contains(&beginner_rate), "{beginner_rate}");
        assert_eq!(mistakes.pick(&[("only", -WIN_MIN)], None, 1), 0);
    }

    fn nim_config(level: Level) -> PlayerConfig {
        let nodes = match level {
            Level::Easy => 200,
            Level::Medium => 2_000,
            Level::Hard | Level::Expert => 50_000,
        };
        PlayerConfig {
            params: Params {
                noise: 3,
                ..params(Limits {
                    max_depth: 30,
                    min_depth: 1,
                    max_nodes: nodes,
                    max_time: Duration::from_secs(10),
                    soft_time: None,
                    wall_cap: None,
                })
            },
            mistakes: (level == Level::Easy).then_some(Mistakes {
                depth: 2,
                chance: 30,
                margin: 10,
                beginner_games: 0,
                beginner_chance: 0,
                beginner_margin: 0,
                plausible_first: false,
            }),
        }
    }

    #[test]
    fn every_level_answers_a_legal_move_even_when_stopped_at_once() {
        let record = Record::new(Nim::new([30, 31, 32, 33], 2));
        let stop = AtomicBool::new(true);
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            let choice =
                player::choose(&record, &nim_config(level), 3, None, &stop).expect("a move");
            assert!(record.position().moves().contains(&choice.mv), "{level:?}");
        }
    }

    #[test]
    fn a_test_game_plays_through_the_object_safe_face_like_a_real_one() {
        // Piles 3, 4, 5: the XOR of 3, 0, 1 is not zero, so the side to move wins.
        let game: Box<dyn Playable> = Box::new(Record::new(Nim::new([3, 4, 5, 0], 2)));
        let stop = AtomicBool::new(false);
        let hard = Player::Cpu(Level::Hard);
        let first = game.decide(hard, 9, None, &stop).expect("a move");
        assert!(game.legal_moves().contains(&first.info));
        assert!(first.score >= WIN_MIN, "{first:?}");
        assert_eq!(game.decide(hard, 9, None, &stop), Some(first.clone()));
        let mut next = game.clone_box();
        next.play(&first.info.text).expect("legal");
        assert_eq!(next.ply(), 1);
        assert_eq!(game.ply(), 0, "the clone is a copy");
    }

    fn nim_match(players: Vec<Player>, games: u32, jobs: usize) -> selfplay::MatchReport {
        nim_match_from_openings(players, games, jobs, 0)
    }

    fn nim_match_from_openings(
        players: Vec<Player>,
        games: u32,
        jobs: usize,
        opening_plies: u32,
    ) -> selfplay::MatchReport {
        nim_match_with(players, games, jobs, opening_plies, None, &|_| 0).expect("match")
    }

    /// A Nim match whose reference player answers hard's move with the score `reference` gives
    /// the position (the harness's judge of level openings).
    fn nim_match_with(
        players: Vec<Player>,
        games: u32,
        jobs: usize,
        opening_plies: u32,
        level_openings: Option<i32>,
        reference: &(dyn Fn(&Nim) -> i32 + Sync),
    ) -> Result<selfplay::MatchReport, selfplay::SelfplayError> {
        nim_games(
            players,
            games,
            jobs,
            opening_plies,
            level_openings,
            None,
            reference,
        )
    }

    /// [`nim_match_with`] playing only `only_games` of the match.
    fn nim_games(
        players: Vec<Player>,
        games: u32,
        jobs: usize,
        opening_plies: u32,
        level_openings: Option<i32>,
        only_games: Option<Vec<u32>>,
        reference: &(dyn Fn(&Nim) -> i32 + Sync),
    ) -> Result<selfplay::MatchReport, selfplay::SelfplayError> {
        let seats = players.len() as u8;
        let config = MatchConfig {
            variant: Variant {
                kind: GameKind::Capture,
                players: seats,
                long_jump: false,
            },
            start: None,
            players,
            games,
            seed: 11,
            jobs,
            opening_plies,
            level_openings,
            only_games,
        };
        let factory = |_: Variant, _: Option<&str>| -> Result<Box<Record<Nim>>, SetupError> {
            Ok(Box::new(Record::new(Nim::new([9, 10, 11, 12], seats))))
        };
        let mover = |record: &Record<Nim>, player: Player, seed: u64, stop: &AtomicBool| {
            let (level, score) = match player {
                Player::Cpu(level) => (level, None),
                Player::Reference => (Level::Hard, Some(reference(record.position()))),
                _ => return None,
            };
            let choice = player::choose(record, &nim_config(level), seed, None, stop)?;
            Some(selfplay::Answer {
                info: record.position().move_info(&choice.mv),
                score: score.unwrap_or(choice.score),
                depth: choice.depth,
            })
        };
        selfplay::run_with(&config, &factory, &mover, None)
    }

    /// The piles' XOR after replaying a game's first `plies` moves from the test match's start.
    fn nim_sum_after(moves: &[String], plies: usize, seats: u8) -> u8 {
        let mut nim = Nim::new([9, 10, 11, 12], seats);
        for text in &moves[..plies] {
            let mv = nim.parse_move(text).expect("a Nim move");
            nim.play(&mv);
        }
        nim.piles.iter().fold(0, |x, &pile| x ^ pile)
    }

    #[test]
    fn level_openings_keep_only_openings_the_reference_calls_level() {
        // The judge calls a Nim position level when its piles' XOR is 0 (the side to move
        // loses against perfect play) and a man up otherwise.
        let judge = |nim: &Nim| {
            if nim.piles.iter().fold(0, |x, &p| x ^ p) == 0 {
                0
            } else {
                100
            }
        };
        let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
        let plain = nim_match_with(players.clone(), 16, 2, 3, None, &judge).expect("match");
        let level = nim_match_with(players, 16, 2, 3, Some(50), &judge).expect("match");
        let unbalanced = |report: &selfplay::MatchReport| {
            report
                .games
                .iter()
                .filter(|g| nim_sum_after(&g.moves, 3, 2) != 0)
                .count()
        };
        assert!(
            unbalanced(&plain) > 0,
            "the plain openings include unbalanced ones"
        );
        assert_eq!(unbalanced(&level), 0, "{level}");
        let (redrawn, turned_down) = level.opening_redraws();
        assert!(redrawn > 0 && turned_down as usize >= redrawn, "{level}");
        assert_eq!(plain.opening_redraws(), (0, 0));
        for (plain, level) in plain.games.iter().zip(&level.games) {
            // Both games of a pair share the opening, and an opening level at its first draw
            // is the plain harness's own.
            if level.opening_redraws == 0 {
                assert_eq!(plain.moves[..3], level.moves[..3]);
            } else {
                assert_ne!(plain.moves[..3], level.moves[..3]);
            }
        }
        for pair in level.games.chunks(2) {
            assert_eq!(pair[0].moves[..3], pair[1].moves[..3]);
            assert_eq!(pair[0].opening_redraws, pair[1].opening_redraws);
        }
        assert!(
            level.to_string().contains("openings drawn again"),
            "{level}"
        );
    }

    #[test]
    fn a_match_without_any_level_opening_stops_with_an_error() {
        let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
        let result = nim_match_with(players, 2, 1, 3, Some(50), &|_| 500);
        assert!(
            matches!(
                result,
                Err(selfplay::SelfplayError::NoLevelOpening {
                    draws: selfplay::OPENING_DRAWS,
                    ..
                })
            ),
            "{result:?}"
        );
    }

    #[test]
    fn a_match_plays_only_the_games_asked_for_as_the_whole_match_plays_them() {
        let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
        let whole = nim_match_with(players.clone(), 10, 2, 3, None, &|_| 0).expect("match");
        let some = nim_games(
            players.clone(),
            10,
            2,
            3,
            None,
            Some(vec![7, 2, 7, 3]),
            &|_| 0,
        )
        .expect("match");
        let numbers: Vec<u32> = some.games.iter().map(|game| game.number).collect();
        assert_eq!(numbers, [2, 3, 7]);
        for game in &some.games {
            let same = &whole.games[game.number as usize];
            assert_eq!((&game.moves, game.result), (&same.moves, same.result));
            assert_eq!(game.seating, same.seating);
        }
        let text = some.game_lines();
        let lines: Vec<&str> = text
            .lines()
            .map(|line| line.split('\t').next().unwrap_or(""))
            .collect();
        assert_eq!(lines, ["2", "3", "7"]);
        let firsts = |report: &selfplay::MatchReport| -> Vec<Vec<String>> {
            report
                .games
                .iter()
                .map(|game| game.moves[..3].to_vec())
                .collect()
        };
        let config = |only_games| MatchConfig {
            variant: Variant {
                kind: GameKind::Capture,
                players: 2,
                long_jump: false,
            },
            start: None,
            players: players.clone(),
            games: 10,
            seed: 11,
            jobs: 1,
            opening_plies: 3,
            level_openings: None,
            only_games,
        };
        let factory = |_: Variant, _: Option<&str>| -> Result<Box<Record<Nim>>, SetupError> {
            Ok(Box::new(Record::new(Nim::new([9, 10, 11, 12], 2))))
        };
        let never = |_: &Record<Nim>, _: Player, _: u64, _: &AtomicBool| None;
        let listed =
            selfplay::openings_with(&config(Some(vec![3, 7])), &factory, &never).expect("openings");
        let pairs: Vec<u32> = listed.iter().map(|draw| draw.pair).collect();
        assert_eq!(pairs, [1, 3]);
        assert_eq!(listed[0].moves, firsts(&some)[1]);
        assert_eq!(listed[1].moves, firsts(&some)[2]);
        let all = selfplay::openings_with(&config(None), &factory, &never).expect("openings");
        assert_eq!(all.len(), 5);
        let beyond = nim_games(players, 10, 1, 3, None, Some(vec![3, 10]), &|_| 0);
        assert!(
            matches!(
                beyond,
                Err(selfplay::SelfplayError::NoSuchGame {
                    game: 10,
                    games: 10
                })
            ),
            "{beyond:?}"
        );
    }

    #[test]
    fn a_match_counts_every_game_once_and_rotates_seats() {
        let report = nim_match(
            vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Easy)],
            8,
            2,
        );
        assert_eq!(report.games.len(), 8);
        let hard = report.by_player(Player::Cpu(Level::Hard));
        let easy = report.by_player(Player::Cpu(Level::Easy));
        assert_eq!(hard.wins + hard.draws + hard.losses, 8);
        assert_eq!(hard.wins, easy.losses);
        assert_eq!(report.seat_wins.iter().sum::<u32>() + report.draws, 8);
        for (index, game) in report.games.iter().enumerate() {
            assert_eq!(game.seating[0], index % 2, "participant 0 alternates seats");
            assert_eq!(game.plies, game.moves.len());
            let depths: usize = game.move_depths.iter().map(Vec::len).sum();
            assert_eq!(depths, game.plies, "one depth per move");
        }
        // Easy scores its moves 2 plies deep; hard deepens on 50 000 nodes.
        assert_eq!(easy.mean_depth(), 2.0);
        assert!(hard.mean_depth() > 4.0, "{report}");
        // In Nim [9,10,11,12] the XOR of 1, 2, 3, 0 is 0: the first player loses against perfect
        // play, so the hard player wins at least the games where it moves second.
        assert!(hard.wins >= 4, "{report}");
        assert!(report.to_string().contains("hard"));
    }

    #[test]
    fn seeded_openings_are_played_once_with_each_seating() {
        let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
        let report = nim_match_from_openings(players.clone(), 12, 2, 3);
        let openings: Vec<&[String]> = report.games.iter().map(|g| &g.moves[..3]).collect();
        for pair in openings.chunks(2) {
            assert_eq!(pair[0], pair[1], "both seatings play the same opening");
        }
        let distinct: std::collections::HashSet<_> = openings.iter().collect();
        assert!(
            distinct.len() > 1,
            "openings vary with the game: {openings:?}"
        );
        // The players' moves come after the opening: the same match without one differs.
        let plain = nim_match(players, 12, 2);
        assert_ne!(
            plain.games.iter().map(|g| &g.moves).collect::<Vec<_>>(),
            report.games.iter().map(|g| &g.moves).collect::<Vec<_>>()
        );
        assert_eq!(report.games.len(), 12);
    }

    #[test]
    fn a_three_seat_match_adds_up_and_replays() {
        let players = vec![
            Player::Cpu(Level::Hard),
            Player::Cpu(Level::Medium),
            Player::Cpu(Level::Medium),
        ];
        let one = nim_match(players.clone(), 6, 1);
        let two = nim_match(players, 6, 2);
        let wins: u32 = one.participants.iter().map(|p| p.wins).sum();
        assert_eq!(wins + one.draws, 6);
        for (a, b) in one.games.iter().zip(&two.games) {
            assert_eq!(
                a.moves, b.moves,
                "same seed, same moves, whatever the threads"
            );
        }
    }
}
