//! Evaluation of capture Chinese checkers: own captures minus the most any other seat has, after
//! the seat to move takes the longest chain it has (every move captures, so the horizon is never
//! quiet: the next seat's best take is the first thing the position offers).

use crate::games::capture::{Capture, CaptureMove};
use crate::geometry::star::HOLES;
use crate::position::{Position, Seat};
use crate::search::searchable::{EvalStyle, Searchable};

/// Value of one captured piece.
const PIECE: i32 = 100;

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

    /// Pieces belong to nobody: only the turn changes.
    fn with_turn(&self, seat: Seat) -> Option<Capture> {
        self.with_seat_to_move(seat)
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
    use crate::search::alphabeta::{self, Params};
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

    /// The easy level's pruned scoring keeps the exact score of every move it could pick (within
    /// the margin of the best) and scores the others below that margin.
    #[test]
    fn pruned_root_scoring_keeps_every_move_within_the_margin_exact() {
        let params = Params {
            limits: Limits::depth(2),
            style: EvalStyle::Full,
            quiescence: false,
            noise: 4,
            seed: 5,
            table_bits: 16,
            reductions: false,
            best_reply: false,
            aspiration: 0,
            endgame: false,
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
