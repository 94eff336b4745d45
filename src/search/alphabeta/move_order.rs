//! The order a node searches its moves in: the table's move, captures, killers, history and the
//! game's hints, as [`Ordering`](crate::search::ordering::Ordering) ranks them.

use super::searcher::Searcher;
use crate::search::ordering::MoveHints;
use crate::search::searchable::Searchable;

impl<'a, P: Searchable> Searcher<'a, P> {
    /// Indices of the moves in search order, each move given with the position it is played in.
    pub(super) fn order<'m>(
        &self,
        moves: impl Iterator<Item = (&'m P, &'m P::Move)>,
        ply: usize,
        tt_move: usize,
    ) -> Vec<usize>
    where
        P: 'm,
    {
        let mut ranked = Vec::new();
        self.rank_moves(moves, ply, tt_move, &mut ranked);
        ranked.into_iter().map(|(_, index)| index).collect()
    }

    /// Fills `ranked` with (rank, index) of the moves, in search order, each move given with the
    /// position it is played in.
    pub(super) fn rank_moves<'m>(
        &self,
        moves: impl Iterator<Item = (&'m P, &'m P::Move)>,
        ply: usize,
        tt_move: usize,
        ranked: &mut Vec<(u32, usize)>,
    ) where
        P: 'm,
    {
        ranked.clear();
        let counter = self
            .previous_key(ply)
            .and_then(|previous| self.ordering.countermove(previous));
        ranked.extend(moves.enumerate().map(|(index, (position, mv))| {
            let rank = self.ordering.rank(
                mv,
                ply,
                MoveHints {
                    is_tt: index == tt_move,
                    is_capture: position.is_capture(mv),
                    hint: position.order_hint(mv),
                    history_key: position.history_key(mv),
                    is_counter: counter == Some(mv),
                },
            );
            (rank, index)
        }));
        // Stable: equal ranks keep the game's move order, so searches replay exactly.
        ranked.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank));
    }
}
