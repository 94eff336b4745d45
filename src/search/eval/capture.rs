//! Evaluation of capture Chinese checkers: own captures minus the most any other seat has, after
//! the seat to move takes the longest chain it has (every move captures, so the horizon is never
//! quiet: the next seat's best take is the first thing the position offers).

use super::capture_shares;
use crate::games::capture::{Capture, CaptureMove, PIECES};
use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::HOLES;
use crate::position::{Position, Seat};
use crate::search::searchable::{EvalStyle, Rewards, Searchable, SeatScores, MAX_SEATS};
use rand::rngs::SmallRng;
use rand::Rng;

/// Value of one captured piece.
const PIECE: i32 = 100;

/// The chance that a playout's chain takes one more piece when it can.
const PLAYOUT_GOES_ON: f64 = 0.9;
/// Random chains a playout move draws; it plays the one that takes most (the first of equals).
const PLAYOUT_TRIES: usize = 2;

/// Own captures minus the most any other seat has, after the longest chain on the board is
/// credited to every seat for which `takes_next` holds.
fn standing(position: &Capture, seat: Seat, takes_next: impl Fn(Seat) -> bool) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let next_take = moves.iter().map(|mv| mv.captured.len()).max().unwrap_or(0) as i32;
    let tally =
        |who: Seat| position.captures_of(who) as i32 + if takes_next(who) { next_take } else { 0 };
    let best_other = (0..position.seats() as Seat)
        .filter(|&other| other != seat)
        .map(tally)
        .max()
        .unwrap_or(0);
    PIECE * (tally(seat) - best_other)
}

impl Searchable for Capture {
    fn evaluate(&self, seat: Seat, _style: EvalStyle) -> i32 {
        let mover = self.to_move();
        standing(self, seat, |who| who == mover)
    }

    /// Any other seat may take the longest chain next: the best placed of them does.
    fn evaluate_reply(&self, seat: Seat, _style: EvalStyle) -> i32 {
        standing(self, seat, |who| who != seat)
    }

    /// Every seat's captures minus the most any other seat has, after one round in turn order
    /// from the seat to move in which every seat takes its longest chain (the first of equals):
    /// pieces are shared, so what a seat gets next depends on what the seats before it take.
    fn evaluate_seats(&self, _style: EvalStyle) -> SeatScores {
        let mut position = self.clone();
        let mut moves = Vec::new();
        for _ in 0..self.seats() {
            position.legal_moves(&mut moves);
            // `max_by_key` keeps the last of equals: search the list backwards for the first.
            let Some(longest) = moves.iter().rev().max_by_key(|mv| mv.captured.len()) else {
                break;
            };
            let longest = *longest;
            position.play(&longest);
        }
        let mut scores = [0; MAX_SEATS];
        let seats = self.seats() as Seat;
        for seat in 0..seats {
            let best_other = (0..seats)
                .filter(|&other| other != seat)
                .map(|other| position.captures_of(other))
                .max()
                .unwrap_or(0);
            scores[usize::from(seat)] =
                PIECE * (position.captures_of(seat) as i32 - best_other as i32);
        }
        scores
    }

    /// Pieces belong to nobody: only the turn changes.
    fn with_turn(&self, seat: Seat) -> Option<Capture> {
        self.with_seat_to_move(seat)
    }

    /// The longer of [`PLAYOUT_TRIES`] chains drawn at random, each a uniformly random first
    /// jump and then random further jumps while the piece has one and a draw of
    /// [`PLAYOUT_GOES_ON`] says so: a player who mostly takes what a chain offers, without
    /// weighing what it leaves. A few walks, not every chain: a playout move costs a fraction of
    /// a move generation.
    fn playout_move(
        &self,
        rng: &mut SmallRng,
        _scratch: &mut Vec<CaptureMove>,
    ) -> Option<CaptureMove> {
        let board = self.board();
        // Each piece jumps in at most six directions.
        let mut firsts = [(0 as Hole, 0 as Hole, 0 as Hole); PIECES as usize * 6];
        let mut count = 0;
        for from in board {
            let rest = HoleSet(board.0 & !(1u128 << from));
            for (over, land) in self.jumps_from(rest, from) {
                firsts[count] = (from, over, land);
                count += 1;
            }
        }
        if count == 0 {
            return None;
        }
        let mut best: Option<CaptureMove> = None;
        for _ in 0..PLAYOUT_TRIES {
            let (from, mut over, mut hole) = firsts[rng.gen_range(0..count)];
            let mut rest = HoleSet(board.0 & !(1u128 << from));
            let mut captured = HoleSet::EMPTY;
            loop {
                captured.insert(over);
                rest.remove(over);
                let mut next = [(0 as Hole, 0 as Hole); 6];
                let mut options = 0;
                for jump in self.jumps_from(rest, hole) {
                    next[options] = jump;
                    options += 1;
                }
                if options == 0 || !rng.gen_bool(PLAYOUT_GOES_ON) {
                    break;
                }
                (over, hole) = next[rng.gen_range(0..options)];
            }
            if best.is_none_or(|b| captured.len() > b.captured.len()) {
                best = Some(CaptureMove {
                    from,
                    to: hole,
                    captured,
                });
            }
        }
        best
    }

    /// The sole leader wins; seats sharing the top share the win.
    fn playout_rewards(&self) -> Rewards {
        let seats = self.seats() as Seat;
        let best = (0..seats).map(|s| self.captures_of(s)).max().unwrap_or(0);
        let leaders = (0..seats).filter(|&s| self.captures_of(s) == best).count();
        let mut rewards = [0.0; MAX_SEATS];
        for seat in (0..seats).filter(|&s| self.captures_of(s) == best) {
            rewards[usize::from(seat)] = 1.0 / leaders as f32;
        }
        rewards
    }

    /// The learned win shares, in the game they were fitted for (three seats, no long jump).
    fn leaf_rewards(&self) -> Option<Rewards> {
        capture_shares::shares(self, &capture_shares::WEIGHTS)
    }

    /// Longer chains first.
    fn order_hint(&self, mv: &CaptureMove) -> i32 {
        mv.captured.len() as i32
    }

    fn history_key(&self, mv: &CaptureMove) -> usize {
        usize::from(mv.from) * HOLES + usize::from(mv.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{GameKind, Variant};
    use crate::search::alphabeta::{self, MultiPlayer, Params};
    use crate::search::limits::Limits;
    use std::sync::atomic::AtomicBool;

    fn start(players: u8) -> Capture {
        Capture::start(Variant {
            kind: GameKind::Capture,
            players,
            long_jump: false,
        })
        .expect("start")
    }

    #[test]
    fn the_opening_offers_one_piece_to_whoever_moves_next() {
        // Only the centre is empty: every first move jumps one piece into it, and no chain goes
        // on (the holes it empties lie behind the jumper, in line with the jumped piece).
        let position = start(3);
        assert!(position.moves().iter().all(|mv| mv.captured.len() == 1));
        assert_eq!(position.evaluate(0, EvalStyle::Full), PIECE);
        assert_eq!(position.evaluate(1, EvalStyle::Full), -PIECE);
        assert_eq!(position.evaluate_reply(0, EvalStyle::Full), -PIECE);
    }

    /// Two groups far apart on the board, seat 0 ("1") to move: on row r = 0 a piece can jump
    /// two in a row ((-4,0) over (-3,0) to (-2,0), then over (-1,0) to (0,0)); on row r = 3 two
    /// pieces side by side offer one capture. One round of longest chains: seat 0 takes the two,
    /// seat 1 the one, seat 2 nothing is left. With tallies 0, 0, 0 that makes 2, 1, 0; with
    /// tallies 0, 0, 2 it makes 2, 1, 2 (seats 0 and 2 share the top). The paranoid search's
    /// evaluation credits only the seat to move's chain.
    #[test]
    fn the_seat_scores_play_one_round_of_longest_chains_in_turn_order() {
        let star = crate::geometry::star::star();
        let at = |q: i8, r: i8| star.by_axial(q, r).expect("hole on the board");
        let pieces: crate::geometry::holeset::HoleSet =
            [at(-4, 0), at(-3, 0), at(-1, 0), at(0, 3), at(1, 3)]
                .into_iter()
                .collect();
        let board = crate::notation::star_text::write_board(b"o", |h| u8::from(pieces.contains(h)));
        let variant = Variant::new(GameKind::Capture, Some(3), false).expect("variant");
        let read = |tallies: &str| {
            Capture::from_text(variant, &format!("capture:3 {board} 1 {tallies}"))
                .expect("position")
        };
        let position = read("0,0,0");
        let longest = position.moves().iter().map(|mv| mv.captured.len()).max();
        assert_eq!(longest, Some(2));
        assert_eq!(
            position.evaluate_seats(EvalStyle::Full),
            [PIECE, -PIECE, -2 * PIECE, 0, 0, 0]
        );
        assert_eq!(position.evaluate(0, EvalStyle::Full), 2 * PIECE);
        let position = read("0,0,2");
        assert_eq!(
            position.evaluate_seats(EvalStyle::Full),
            [0, -PIECE, 0, 0, 0, 0]
        );
    }

    /// Independent truth for small positions: whether `root` wins outright against the other
    /// seats playing together, by plain minimax over every move (no search code involved).
    fn forced_win(position: &Capture, root: Seat) -> bool {
        if let Some(outcome) = position.outcome() {
            return outcome.result == crate::position::GameResult::Win(root);
        }
        let mut wins = position
            .moves()
            .into_iter()
            .map(|mv| forced_win(&position.after(&mv), root));
        if position.to_move() == root {
            wins.any(|won| won)
        } else {
            wins.all(|won| won)
        }
    }

    /// Positions of three seats with at most `pieces` pieces left and a jump to make, from
    /// seeded random games.
    fn small_positions(pieces: u32, count: usize) -> Vec<Capture> {
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(11);
        let mut found = Vec::new();
        while found.len() < count {
            let mut position = start(3);
            while position.outcome().is_none() {
                if position.board().len() <= pieces {
                    found.push(position.clone());
                    break;
                }
                let moves = position.moves();
                position.play(&moves[rng.gen_range(0..moves.len())]);
            }
        }
        found
    }

    /// Monte-Carlo tree search, at hard's budget in the capture game, keeps a forced win
    /// wherever the root seat has one (by exhaustive minimax) in small endings.
    #[test]
    fn mcts_keeps_a_forced_win_in_small_endings() {
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for (index, position) in small_positions(7, 60).into_iter().enumerate() {
            let root = position.to_move();
            if !forced_win(&position, root) {
                continue;
            }
            let params = Params {
                limits: Limits {
                    max_nodes: 100_000,
                    ..Limits::depth(20)
                },
                multi_player: MultiPlayer::MonteCarlo,
                seed: index as u64,
                ..search_params()
            };
            let found = alphabeta::search(
                &position,
                &[],
                &params,
                &stop,
                &crate::search::SearchContext::new(),
            )
            .expect("a move");
            assert!(
                forced_win(&position.after(&found.best), root),
                "{}: {:?} gives up the win",
                position.to_text(),
                found.best
            );
            checked += 1;
        }
        assert!(checked >= 10, "{checked} positions with a forced win");
    }

    /// The playout's chain is a legal move of the position, and a finished game has none.
    #[test]
    fn playout_moves_are_legal_chains() {
        use rand::SeedableRng;
        let mut rng = SmallRng::seed_from_u64(3);
        let mut scratch = Vec::new();
        for players in [2, 3, 6] {
            for long_jump in [false, true] {
                let variant =
                    Variant::new(GameKind::Capture, Some(players), long_jump).expect("variant");
                let mut position = Capture::start(variant).expect("start");
                let mut plies = 0;
                while let Some(mv) = position.playout_move(&mut rng, &mut scratch) {
                    assert!(
                        position.moves().contains(&mv),
                        "{}: {mv:?}",
                        position.to_text()
                    );
                    position.play(&mv);
                    plies += 1;
                }
                assert!(position.outcome().is_some() && plies > 5, "{plies} plies");
                let rewards = position.playout_rewards();
                let total: f32 = rewards.iter().sum();
                assert!((total - 1.0).abs() < 1e-6, "{rewards:?}");
            }
        }
    }

    #[test]
    fn a_seat_moving_out_of_turn_has_the_same_moves_and_keeps_the_tallies() {
        let mut position = start(3);
        for _ in 0..4 {
            let mv = position.moves()[0];
            position.play(&mv);
        }
        let moved = position.with_turn(2).expect("a seat of the game");
        assert_eq!(moved.to_move(), 2);
        assert_eq!(moved.moves(), position.moves());
        assert_eq!(moved.board(), position.board());
        for seat in 0..3 {
            assert_eq!(moved.captures_of(seat), position.captures_of(seat));
        }
        assert_ne!(moved.search_key(), position.search_key());
        assert!(position.with_turn(3).is_none());
    }

    #[test]
    fn the_reply_evaluation_is_the_worst_of_the_others_moving() {
        for players in [3, 4, 6] {
            let mut position = start(players);
            for ply in 0..12 {
                for seat in 0..players {
                    let worst = (0..players)
                        .filter(|&other| other != seat)
                        .map(|other| {
                            position
                                .with_turn(other)
                                .expect("seat")
                                .evaluate(seat, EvalStyle::Full)
                        })
                        .min();
                    assert_eq!(
                        Some(position.evaluate_reply(seat, EvalStyle::Full)),
                        worst,
                        "{players} players, ply {ply}, seat {seat}"
                    );
                }
                let moves = position.moves();
                let Some(mv) = moves.get(ply % moves.len().max(1)) else {
                    break;
                };
                position.play(mv);
            }
        }
    }

    /// A search of two plies with a full evaluation and no noise: what the tests below vary.
    fn search_params() -> Params {
        Params::plain(Limits::depth(2))
    }

    /// The easy level's pruned scoring keeps the exact score of every move it could pick (within
    /// the margin of the best) and scores the others below that margin.
    #[test]
    fn pruned_root_scoring_keeps_every_move_within_the_margin_exact() {
        let params = Params {
            noise: 4,
            seed: 5,
            ..search_params()
        };
        let stop = AtomicBool::new(false);
        let margin = 200;
        for players in [2, 3] {
            let mut position = start(players);
            for ply in 0..5 {
                let (full, _) =
                    alphabeta::score_root_moves(&position, &[], &params, 2, None, &stop);
                let pruned =
                    alphabeta::score_root_moves(&position, &[], &params, 2, Some(margin), &stop).0;
                assert_eq!(full.len(), pruned.len());
                let best = full[0].1;
                assert_eq!(pruned[0].1, best, "{players} players, ply {ply}");
                for (mv, value) in &full {
                    let (_, bounded) = pruned
                        .iter()
                        .find(|(other, _)| other == mv)
                        .expect("every move scored");
                    if *value >= best - margin {
                        assert_eq!(bounded, value, "{players} players, ply {ply}, {mv:?}");
                    } else {
                        assert!(*bounded < best - margin, "{players} players, ply {ply}");
                    }
                }
                let moves = position.moves();
                let Some(mv) = moves.get((ply * 7) % moves.len().max(1)) else {
                    break;
                };
                position.play(mv);
            }
        }
    }
}
