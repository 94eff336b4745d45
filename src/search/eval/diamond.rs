//! Evaluation of the Diamond Game, built on the seed's tips ("Consejos para ganar"):
//! every piece's distance to the destination apex (jumps make distance cheap, so distance is
//! the race), counted convexly so that a step of a piece far behind is worth more than a step
//! of one already near or inside the destination (the rear moves first, the pack stays together
//! and keeps its jump ladders, and nothing is gained by shuffling inside the destination), the
//! king's own distance (only the king may finish on the apex), a penalty for a normal piece
//! sitting on the apex ("no metas una ficha normal en ◎"), stragglers left behind the pack ("no
//! dejes una ficha sola atrás"), pieces hugging the board's edge ("no te acerques demasiado a los
//! bordes") and a destination filled from the back ("llena el destino desde el fondo", which the
//! distance to the apex already rewards: within the destination's cone the distance to the apex
//! is the rows still to go, so it equals, up to a constant, the distance to the free holes).
//!
//! With two seats a seat's value is its standing minus three quarters of the other's: a race is
//! won against the opponent, but weighing the opponent's standing fully made both sides spend
//! their moves blocking each other (longer games, and weaker: see docs/cpu.md). With three, the
//! search is paranoid (both others are assumed to play against the searching seat), so its value
//! is its own standing alone: subtracting the leader's made the paranoid replies race instead of
//! hinder, and in 30-game trials own-only standing won more games against the easy level (77 %
//! against 57 %) and finished games sooner (189 plies against 215 in medium self-play).

use crate::games::diamond::{Diamond, DiamondMove, START_POINTS};
use crate::geometry::holeset::Hole;
use crate::geometry::star::{star, HOLES, NO_HOLE};
use crate::position::{Position, Seat};
use crate::search::searchable::{EvalStyle, Searchable};
use std::sync::OnceLock;

/// Value of one step of one piece.
const STEP: i32 = 10;
/// Each piece also costs its distance squared (a piece `d` steps away gains `2d - 1` more by
/// stepping closer): rear pieces are worth moving first.
const CONVEX: i32 = 1;
/// Extra weight of the king's distance (it must end exactly on the apex).
const KING_STEP: i32 = 6;
/// A normal piece on the apex must leave again before the king can finish.
const APEX_BLOCKED: i32 = 60;
/// Per step (squared) the rear piece lags behind the pack beyond [`STRAGGLER_SLACK`], with two
/// seats and with three: with two, the opponent's straggler is also a target worth blocking.
const STRAGGLER: [i32; 2] = [12, 4];
const STRAGGLER_SLACK: i32 = 4;
/// A piece on the board's rim, outside its own points (fewer ways forward).
const EDGE: i32 = 3;
/// With two seats, the share (in quarters) of the opponent's standing subtracted from one's own.
const OPPONENT_QUARTERS: i32 = 3;

struct Tables {
    /// `[seat][hole]`: hexagonal distance to the seat's destination apex.
    distance: [[u8; HOLES]; 3],
    apex: [Hole; 3],
    /// Holes with fewer than six neighbours on the star.
    rim: [bool; HOLES],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let star = star();
        let mut distance = [[0; HOLES]; 3];
        let mut apex = [NO_HOLE; 3];
        for (seat, point) in START_POINTS.iter().enumerate() {
            apex[seat] = star.apex(point.opposite());
            for hole in 0..HOLES as Hole {
                distance[seat][hole as usize] = star.distance(hole, apex[seat]).min(255) as u8;
            }
        }
        let mut rim = [false; HOLES];
        for hole in 0..HOLES as Hole {
            rim[hole as usize] = star.neighbours(hole).contains(&NO_HOLE);
        }
        Tables {
            distance,
            apex,
            rim,
        }
    })
}

/// How well `seat` stands: larger is better.
fn standing(position: &Diamond, seat: Seat, style: EvalStyle) -> i32 {
    let tables = tables();
    let colour = usize::from(seat);
    let distance = &tables.distance[colour];
    let king = position.king_of(seat);
    let pieces = position.pieces_of(seat);
    let mut sum = 0;
    let mut squares = 0;
    let mut farthest = 0;
    let mut edges = 0;
    for hole in pieces {
        let d = i32::from(distance[hole as usize]);
        sum += d;
        squares += d * d;
        farthest = farthest.max(d);
        if tables.rim[hole as usize] && d > 4 && d < 12 {
            edges += 1;
        }
    }
    let mut value = -STEP * sum - CONVEX * squares;
    if let Some(king) = king {
        value -= KING_STEP * i32::from(distance[king as usize]);
    }
    if style == EvalStyle::Material {
        return value;
    }
    if king != Some(tables.apex[colour]) && pieces.contains(tables.apex[colour]) {
        value -= APEX_BLOCKED;
    }
    let count = pieces.len().max(1) as i32;
    let lag = farthest - sum / count - STRAGGLER_SLACK;
    if lag > 0 {
        let straggler = STRAGGLER[usize::from(position.seats() > 2)];
        value -= straggler * lag * lag;
    }
    value - EDGE * edges
}

impl Searchable for Diamond {
    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32 {
        let own = standing(self, seat, style);
        if self.seats() > 2 {
            return own;
        }
        own - OPPONENT_QUARTERS * standing(self, 1 - seat, style) / 4
    }

    /// Steps gained toward the apex.
    fn order_hint(&self, mv: &DiamondMove) -> i32 {
        match *mv {
            DiamondMove::Go { from, to } => {
                let distance = &tables().distance[usize::from(self.to_move())];
                i32::from(distance[from as usize]) - i32::from(distance[to as usize])
            }
            DiamondMove::Pass => 0,
        }
    }

    fn wins_at_once(&self, mv: &DiamondMove) -> bool {
        self.wins_with(mv)
    }

    fn history_key(&self, mv: &DiamondMove) -> usize {
        match *mv {
            DiamondMove::Go { from, to } => usize::from(from) * HOLES + usize::from(to),
            DiamondMove::Pass => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::holeset::HoleSet;
    use crate::notation::star_text::write_board;
    use crate::position::{GameKind, Variant};

    /// Red's king on ◎ and 12 men in the destination, two of its third-row holes free; two men
    /// outside, 9 and 8 steps from ◎. Red can step the man 8 steps away forward, or step a man of
    /// the destination's entrance into a free hole deeper inside: the same one step gained, but
    /// the piece still travelling must move first ("llena el destino desde el fondo" with the
    /// pack together; nothing is gained by shuffling inside).
    #[test]
    fn a_step_from_behind_is_worth_more_than_a_step_inside_the_destination() {
        let star = star();
        let tables = tables();
        let apex = tables.apex[0];
        let d = |hole: Hole| i32::from(tables.distance[0][hole as usize]);
        let destination = star.punta(START_POINTS[0].opposite());
        let open = |hole: Hole| {
            star.hexagon().contains(hole)
                && !destination.contains(hole)
                && !tables.rim[hole as usize]
        };
        let third_row: Vec<Hole> = destination.iter().filter(|&h| d(h) == 3).collect();
        let (free, entrance) = third_row
            .iter()
            .find_map(|&hole| {
                star.neighbours(hole)
                    .iter()
                    .find(|&&n| n != NO_HOLE && destination.contains(n) && d(n) == 4)
                    .map(|&n| (hole, n))
            })
            .expect("a third-row hole next to the entrance");
        let other_free = *third_row.iter().find(|&&h| h != free).expect("two holes");
        let (behind, ahead) = star
            .hexagon()
            .iter()
            .filter(|&h| open(h) && d(h) == 8)
            .find_map(|hole| {
                star.neighbours(hole)
                    .iter()
                    .find(|&&n| n != NO_HOLE && open(n) && d(n) == 7)
                    .map(|&n| (hole, n))
            })
            .expect("a man 8 steps away with a step forward");
        let last = star
            .hexagon()
            .iter()
            .find(|&h| open(h) && d(h) == 9 && h != ahead)
            .expect("a man 9 steps away");

        let mut cells = [0u8; HOLES];
        cells[apex as usize] = 4; // R
        for hole in destination {
            if hole != apex && hole != free && hole != other_free {
                cells[hole as usize] = 1; // r
            }
        }
        cells[behind as usize] = 1;
        cells[last as usize] = 1;
        let yellow_apex = star.apex(START_POINTS[1]);
        cells[yellow_apex as usize] = 5; // Y
        let yellow_holes = star.punta(START_POINTS[1]) | star.punta(START_POINTS[1].opposite());
        let yellow_men: HoleSet = yellow_holes
            .iter()
            .filter(|&h| cells[h as usize] == 0)
            .take(14)
            .collect();
        for hole in yellow_men {
            cells[hole as usize] = 2; // y
        }
        let board = write_board(b"rygRYG", |hole| cells[hole as usize]);
        let variant = Variant::new(GameKind::Diamond, Some(2), false).expect("variant");
        let position =
            Diamond::from_text(variant, &format!("diamond:2 {board} r 10 0")).expect("position");

        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let rear = DiamondMove::Go {
            from: behind,
            to: ahead,
        };
        let inside = DiamondMove::Go {
            from: entrance,
            to: free,
        };
        assert!(moves.contains(&rear) && moves.contains(&inside));
        let after = |mv: DiamondMove| {
            let mut next = position.clone();
            next.play(&mv);
            next.evaluate(0, EvalStyle::Full)
        };
        assert!(
            after(rear) > after(inside),
            "rear {} inside {}",
            after(rear),
            after(inside)
        );
    }
}
