//! Max^n (Luckhardt & Irani 1986) for more than two seats, with shallow pruning (Korf 1991,
//! Sturtevant & Korf 2000) where the game bounds its seat scores.
//!
//! A node's value is one score per seat ([`SeatScores`]); the seat to move picks the child whose
//! entry for itself is largest (the first of equals, in search order). Nobody is assumed to play
//! against anybody: each seat pursues its own standing, which is what the opponents of a
//! multi-player game actually do. Alpha-beta's deep cut-offs are unsound here; shallow pruning is
//! not: when every entry is at least `low` and the entries add up to at most `sum`, a seat whose
//! best child already gives it `x` leaves its parent's mover at most `sum - x - (n - 2) low`, and
//! once that is no more than what the parent's mover already has, the node's other children
//! cannot change the parent's choice.
//!
//! The iterative deepening, node budget, table (for the move to try first only: a seat-score
//! vector does not fit its single score) and move ordering are the paranoid search's.

use super::searcher::{Searcher, MAX_PLY};
use crate::position::{GameResult, Outcome};
use crate::search::score::{DRAW, WIN, WIN_MIN};
use crate::search::searchable::{Searchable, SeatScores, MAX_SEATS};
use crate::search::table::Bound;

impl<P: Searchable> Searcher<'_, P> {
    /// One max^n iteration at the root; the root seat's entry of the value.
    pub(super) fn maxn_root(&mut self, position: &P, depth: i32) -> i32 {
        self.root_best = None;
        let bounds = self.seat_bounds(position);
        let value = self.maxn(position, depth, 0, None, bounds);
        value[usize::from(self.root)]
    }

    /// The game's bounds on seat scores, widened by the evaluation noise (each entry gets its own).
    fn seat_bounds(&self, position: &P) -> Option<(i32, i32)> {
        let noise = self.params.noise.max(0);
        position
            .seat_score_bounds()
            .map(|(low, sum)| (low - noise, sum + position.seats() as i32 * noise))
    }

    fn maxn(
        &mut self,
        position: &P,
        depth: i32,
        ply: usize,
        // The parent's mover's best entry so far (shallow pruning).
        parent: Option<i32>,
        bounds: Option<(i32, i32)>,
    ) -> SeatScores {
        if self.budget.tick() {
            return [0; MAX_SEATS];
        }
        if let Some(outcome) = position.outcome() {
            return terminal_seats(outcome, ply, position.seats());
        }
        let key = position.search_key();
        if ply > 0 && self.repeats(position.zobrist()) {
            return [DRAW; MAX_SEATS];
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.evaluate_seats(position, key);
        }
        let tt_move = self
            .table
            .probe(key, ply)
            .map_or(usize::MAX, |entry| usize::from(entry.best));
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.evaluate_seats(position, key);
        }
        let order = self.order(moves.iter().map(|mv| (position, mv)), ply, tt_move);
        // A forced reply costs one node: look one ply further.
        let child_depth = if moves.len() == 1 { depth } else { depth - 1 };
        let mover = position.to_move();
        let own = usize::from(mover);
        let seats = position.seats() as i32;
        let mut best: Option<SeatScores> = None;
        let mut best_index = order[0];
        let irreversible_key = position.zobrist();
        for &index in &order {
            let mv = &moves[index];
            let child = position.after(mv);
            self.push(irreversible_key, position.is_irreversible(mv));
            let secured = best.map(|scores| scores[own]);
            let value = self.maxn(&child, child_depth, ply + 1, secured, bounds);
            self.pop();
            if self.budget.aborted() {
                return [0; MAX_SEATS];
            }
            if best.is_none_or(|scores| value[own] > scores[own]) {
                best = Some(value);
                best_index = index;
                if ply == 0 {
                    self.root_best = Some(index);
                }
            }
            let got = best.map_or(value[own], |scores| scores[own]);
            // A win on the next ply cannot be bettered.
            if got >= WIN - (ply as i32 + 1) {
                break;
            }
            if let Some(parent) = parent {
                if parent_cannot_gain(got, parent, seats, bounds) {
                    if !position.is_capture(mv) {
                        self.ordering
                            .cutoff(mv, ply, depth, position.history_key(mv), None);
                    }
                    break;
                }
            }
        }
        // Only the move is used (ordering of the next iteration); the score is a placeholder.
        self.table
            .store(key, ply, depth, 0, Bound::Upper, best_index);
        best.unwrap_or([0; MAX_SEATS])
    }

    /// The leaf's seat scores, each with the seeded noise of its own.
    fn evaluate_seats(&self, position: &P, key: u64) -> SeatScores {
        let mut scores = position.evaluate_seats(self.params.style);
        for (seat, score) in scores.iter_mut().enumerate().take(position.seats()) {
            *score = self.noisy(*score, key ^ SEAT_KEYS[seat]);
        }
        scores
    }
}

/// Mixed into a leaf's key so each seat's noise differs.
const SEAT_KEYS: [u64; MAX_SEATS] = [
    0,
    0xA54F_F53A_5F1D_36F1,
    0x510E_527F_ADE6_82D1,
    0x9B05_688C_2B3E_6C1F,
    0x1F83_D9AB_FB41_BD6B,
    0x5BE0_CD19_137E_2179,
];

/// A finished game: the winner's entry a win (sooner is better), the others' the matching loss;
/// a draw 0 for every seat.
fn terminal_seats(outcome: Outcome, ply: usize, seats: usize) -> SeatScores {
    let mut scores = [0; MAX_SEATS];
    if let GameResult::Win(winner) = outcome.result {
        let win = WIN - ply as i32;
        for (seat, score) in scores.iter_mut().enumerate().take(seats) {
            *score = if seat == usize::from(winner) {
                win
            } else {
                -win
            };
        }
    }
    scores
}

/// Shallow pruning: whether a node whose mover already has `got` leaves its parent's mover
/// nothing above `secured`, whatever the node's other children hold.
fn parent_cannot_gain(got: i32, secured: i32, seats: i32, bounds: Option<(i32, i32)>) -> bool {
    // The mover wins: the parent's mover loses at least as soon.
    if got >= WIN_MIN {
        return -got <= secured;
    }
    if got <= -WIN_MIN {
        return false;
    }
    let Some((low, sum)) = bounds else {
        return false;
    };
    // The mover's choice is an evaluation (bounded), a win of its own, or (if `got` ≤ 0) a draw.
    let mut most = (sum - got - (seats - 2) * low).max(-WIN_MIN);
    if got <= DRAW {
        most = most.max(DRAW);
    }
    most <= secured
}
