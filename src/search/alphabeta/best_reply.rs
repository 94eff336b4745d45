//! Best-Reply Search (Schadd & Winands 2011) for more than two seats.
//!
//! The root seat's layers alternate with one opponents' layer: there ONE move is chosen among
//! every opponent's moves (the others pass), the one worst for the root seat, and then the root
//! seat moves again. Scores stay from the root seat's side, so the layers are plain max and min
//! nodes and alpha-beta, the table, ordering and budget work as in the paranoid search. Unlike
//! paranoid search, the opponents are never assumed to combine several moves against the root
//! seat, and the root seat gets twice as many of its own moves into the same depth.
//!
//! The opponents' layer is built with [`Searchable::with_turn`]; positions in the tree are not
//! reachable in play, so the repetition rule is not applied here.

use super::searcher::{Searcher, MAX_PLY};
use super::window::{Probe, Window};
use crate::position::Seat;
use crate::search::searchable::Searchable;

/// Set in the table keys of the opponents' layer: the root seat's layer may meet the same
/// position, and the two are different nodes.
const REPLY_LAYER: u64 = 0x6A09_E667_F3BC_C909;

impl<P: Searchable> Searcher<'_, P> {
    /// The position's value for the root seat, `depth` layers deep; the root seat moves at even
    /// plies, the opponents' best reply at odd ones.
    pub(super) fn best_reply(
        &mut self,
        position: &P,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(value) = self.settled(position, ply) {
            return value;
        }
        let maximizing = ply.is_multiple_of(2);
        let key = position.search_key() ^ if maximizing { 0 } else { REPLY_LAYER };
        if depth <= 0 || ply >= MAX_PLY {
            return self.leaf(position, key, maximizing);
        }
        let tt_move = match self.probe(key, ply, depth, alpha, beta) {
            Probe::Cut(score) => return score,
            Probe::First(index) => index,
        };
        // Who may move here: the root seat, or every opponent in turn order.
        let movers: Vec<P> = if maximizing {
            vec![position.clone()]
        } else {
            self.opponents(position)
                .filter_map(|seat| position.with_turn(seat))
                .collect()
        };
        let mut moves: Vec<(usize, P::Move)> = Vec::new();
        let mut scratch = Vec::new();
        for (mover, seat_position) in movers.iter().enumerate() {
            seat_position.legal_moves(&mut scratch);
            moves.extend(scratch.drain(..).map(|mv| (mover, mv)));
        }
        if moves.is_empty() {
            return self.leaf(position, key, maximizing);
        }
        let order = self.order(
            moves.iter().map(|(mover, mv)| (&movers[*mover], mv)),
            ply,
            tt_move,
        );
        let mut window = Window::new(alpha, beta, maximizing, order[0]);
        for (rank, &index) in order.iter().enumerate() {
            let (mover, mv) = &moves[index];
            let mover = &movers[*mover];
            let played = mover.after(mv);
            // After an opponent's reply the root seat moves again.
            let back = if maximizing {
                None
            } else {
                played.with_turn(self.root)
            };
            let child = if maximizing {
                Some(&played)
            } else {
                back.as_ref()
            };
            let value = match child {
                // The root seat cannot take the turn back: the reply is scored where it stands.
                None => match played.outcome() {
                    Some(outcome) => self.terminal(outcome, ply + 1),
                    None => self.evaluate(&played, played.search_key()),
                },
                Some(child) => window.search(rank, |low, high| {
                    self.best_reply(child, depth - 1, ply + 1, low, high)
                }),
            };
            if self.budget.aborted() {
                return 0;
            }
            if self.take_value(&mut window, index, value, (mover, mv), ply, depth) {
                break;
            }
        }
        self.store(key, ply, depth, &window)
    }

    /// The horizon: the root seat to move, or any opponent to move.
    fn leaf(&self, position: &P, key: u64, root_to_move: bool) -> i32 {
        if root_to_move {
            self.evaluate(position, key)
        } else {
            self.noisy(position.evaluate_reply(self.root, self.params.style), key)
        }
    }

    /// The seats other than the root seat, in turn order from the seat to move.
    fn opponents(&self, position: &P) -> impl Iterator<Item = Seat> {
        let seats = position.seats() as Seat;
        let (first, root) = (position.to_move(), self.root);
        (0..seats)
            .map(move |offset| (first + offset) % seats)
            .filter(move |&seat| seat != root)
    }
}
