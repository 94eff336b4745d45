//! A learned estimate of each seat's share of the win in the capture game with three seats:
//! what the Monte-Carlo search ([`crate::search::mcts`]) takes at a new leaf instead of playing
//! the game out at random (docs/cpu.md, "A learned estimate at the leaves").
//!
//! The estimate is a conditional logit: each seat gets a score `WEIGHTS · features(seat)`, and
//! the shares are the scores' softmax over the seats, so they are positive and add up to one,
//! like a playout's rewards (1 to a sole leader, 1/k to each of k sharing the top). Only what
//! tells the seats apart counts: the captures between them, whose turn comes when, and what the
//! board offers the seat to move (its longest chain, the single jumps on the board). The weights
//! are fitted to the ends of the engine's own games (hard against two mediums) by
//! `damas-lab tune capture` (`lab/src/share_tuning.rs`); on games it did not see, the fitted
//! estimate predicts how the games end better than 128 random playouts from the same positions.

use crate::games::capture::{Capture, PIECES};
use crate::geometry::holeset::HoleSet;
use crate::position::{Position, Seat};
use crate::search::searchable::{Rewards, MAX_SEATS};

/// The seats the estimate is made for (its features name each seat's two opponents).
pub const SEATS: usize = 3;

/// Features of one seat ([`features`]).
pub const FEATURES: usize = 13;

/// Names of the features, in order (the tuner's report).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "lead",
    "margins",
    "lead x taken",
    "to move",
    "next",
    "longest x to move",
    "longest x next",
    "jumps x to move",
    "jumps x next",
    "lead x to move",
    "lead x next",
    "taken x to move",
    "taken x next",
];

/// Fitted by `damas-lab tune capture --players 3 --levels hard,medium,medium --games 800 --seed 21`
/// (docs/cpu.md, "A learned estimate at the leaves").
pub const WEIGHTS: [f32; FEATURES] = [
    -0.0897, // lead
    0.1133,  // margins
    0.4601,  // lead x taken
    0.2934,  // to move
    -0.5212, // next
    0.4383,  // longest x to move
    0.0424,  // longest x next
    -0.1163, // jumps x to move
    0.0925,  // jumps x next
    0.1187,  // lead x to move
    0.0329,  // lead x next
    0.2040,  // taken x to move
    1.2473,  // taken x next
];

/// What the board offers the seat to move: its longest chain (pieces) and the single jumps on the
/// board (every piece, every direction). The same for every seat, so computed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outlook {
    pub longest: u32,
    pub jumps: u32,
}

impl Outlook {
    pub fn of(position: &Capture) -> Outlook {
        let longest = position.longest_chain();
        let board = position.board();
        let jumps = board
            .iter()
            .map(|from| {
                let rest = HoleSet(board.0 & !(1u128 << from));
                position.jumps_from(rest, from).count() as u32
            })
            .sum();
        Outlook { longest, jumps }
    }
}

/// The features of `seat` in a three-seat game: its lead (captures minus the most either other
/// seat has), the sum of its two margins, the lead as the game goes on (`taken`: the share of the
/// pieces captured so far), whether it moves now or next (the third seat is the reference), the
/// mover's longest chain and the board's single jumps (tenths) for the seat that moves now or
/// next, and its lead and `taken` for those two.
pub fn features(position: &Capture, seat: Seat, outlook: Outlook) -> [f32; FEATURES] {
    let seats = SEATS as Seat;
    let captures = |s: Seat| position.captures_of(s % seats) as f32;
    let margin_next = captures(seat) - captures(seat + 1);
    let margin_after = captures(seat) - captures(seat + 2);
    let lead = margin_next.min(margin_after);
    let taken = (0..seats).map(captures).sum::<f32>() / PIECES as f32;
    let turns_away = (seat + seats - position.to_move()) % seats;
    let to_move = f32::from(u8::from(turns_away == 0));
    let next = f32::from(u8::from(turns_away == 1));
    let longest = outlook.longest as f32;
    let jumps = outlook.jumps as f32 / 10.0;
    [
        lead,
        margin_next + margin_after,
        lead * taken,
        to_move,
        next,
        longest * to_move,
        longest * next,
        jumps * to_move,
        jumps * next,
        lead * to_move,
        lead * next,
        taken * to_move,
        taken * next,
    ]
}

/// Each seat's estimated share of the win with `weights`: the softmax of the seats' scores.
/// `None` unless the game has [`SEATS`] seats and no long jump (the games they were fitted on).
pub fn shares(position: &Capture, weights: &[f32; FEATURES]) -> Option<Rewards> {
    let variant = position.variant();
    if usize::from(variant.players) != SEATS || variant.long_jump {
        return None;
    }
    let outlook = Outlook::of(position);
    let mut scores = [0.0f32; SEATS];
    for (seat, score) in scores.iter_mut().enumerate() {
        let x = features(position, seat as Seat, outlook);
        *score = x.iter().zip(weights).map(|(x, w)| x * w).sum();
    }
    Some(softmax(&scores))
}

/// `e^score` over the sum, each seat's; the highest score is subtracted first so that no
/// exponential overflows.
pub fn softmax(scores: &[f32; SEATS]) -> Rewards {
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut rewards = [0.0; MAX_SEATS];
    for (reward, score) in rewards.iter_mut().zip(scores) {
        *reward = (score - top).exp();
    }
    let total: f32 = rewards.iter().sum();
    rewards.iter_mut().for_each(|reward| *reward /= total);
    rewards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{GameKind, Variant};
    use crate::search::searchable::Searchable;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn start(players: u8, long_jump: bool) -> Capture {
        Capture::start(Variant::new(GameKind::Capture, Some(players), long_jump).expect("variant"))
            .expect("start")
    }

    /// A seeded game of playout moves, `plies` in.
    fn played(plies: usize, seed: u64) -> Capture {
        let mut position = start(3, false);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        for _ in 0..plies {
            let mv = position
                .playout_move(&mut rng, &mut scratch)
                .expect("the game goes on");
            position.play(&mv);
        }
        position
    }

    /// The same board and seat to move with the captures handed out anew (`to_text`'s last
    /// field).
    fn with_captures(position: &Capture, captures: [u32; 3]) -> Capture {
        let text = position.to_text();
        let (rest, _) = text.rsplit_once(' ').expect("fields");
        let list = captures.map(|c| c.to_string()).join(",");
        Capture::from_text(position.variant(), &format!("{rest} {list}")).expect("position")
    }

    #[test]
    fn after_the_first_jump_the_features_name_the_leader_and_the_turn() {
        let mut position = start(3, false);
        let first = position.moves()[0];
        position.play(&first);
        // Seat 0 took one piece; seat 1 moves, seat 2 next.
        let outlook = Outlook::of(&position);
        let taken = 1.0 / PIECES as f32;
        let seat0 = features(&position, 0, outlook);
        assert_eq!(&seat0[..5], &[1.0, 2.0, taken, 0.0, 0.0]);
        assert_eq!(&seat0[5..], &[0.0; 8]);
        let seat1 = features(&position, 1, outlook);
        assert_eq!(&seat1[..5], &[-1.0, -1.0, -taken, 1.0, 0.0]);
        assert_eq!(seat1[5], outlook.longest as f32);
        assert_eq!(seat1[6], 0.0);
        assert_eq!(seat1[9..], [-1.0, 0.0, taken, 0.0]);
        let seat2 = features(&position, 2, outlook);
        assert_eq!(&seat2[..5], &[-1.0, -1.0, -taken, 0.0, 1.0]);
        assert_eq!(seat2[6], outlook.longest as f32);
        assert!(outlook.longest >= 1 && outlook.jumps >= 1, "{outlook:?}");
    }

    #[test]
    fn the_outlook_counts_the_movers_longest_chain_and_the_boards_single_jumps() {
        for seed in 0..5 {
            let position = played(10, seed);
            let outlook = Outlook::of(&position);
            let longest = position.moves().iter().map(|mv| mv.captured.len()).max();
            assert_eq!(Some(outlook.longest), longest);
            let singles = position
                .moves()
                .iter()
                .filter(|mv| mv.captured.len() == 1)
                .count() as u32;
            // Every single jump is a move of its own (a chain may stop after any jump).
            assert_eq!(outlook.jumps, singles);
        }
    }

    #[test]
    fn the_shares_add_up_to_one_only_in_the_game_they_were_fitted_for() {
        for seed in 0..5 {
            let position = played(8, seed);
            let shares = shares(&position, &WEIGHTS).expect("three seats");
            assert!(shares[..SEATS].iter().all(|&s| s > 0.0), "{shares:?}");
            assert!(shares[SEATS..].iter().all(|&s| s == 0.0));
            assert!(
                (shares.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                "{shares:?}"
            );
        }
        for (players, long_jump) in [(2, false), (4, false), (6, false), (3, true)] {
            assert_eq!(shares(&start(players, long_jump), &WEIGHTS), None);
        }
    }

    #[test]
    fn a_seat_well_ahead_late_in_the_game_gets_most_of_the_win() {
        // The board allows fewer pieces taken than it shows gone, so captures can be handed out
        // anew on the same board.
        let position = played(14, 3);
        let taken: u32 = (0..3).map(|seat| position.captures_of(seat)).sum();
        assert!(taken >= 20, "{taken} taken");
        for leader in 0..3 {
            let mut captures = [2; 3];
            captures[leader] = taken - 4;
            let shares = shares(&with_captures(&position, captures), &WEIGHTS).expect("three");
            assert!(shares[leader] > 0.9, "leader {leader}: {shares:?}");
        }
    }

    #[test]
    fn taking_more_never_lowers_a_seats_share() {
        for (plies, seed) in [(4, 1), (10, 2), (16, 4)] {
            let position = played(plies, seed);
            let taken: u32 = (0..3).map(|seat| position.captures_of(seat)).sum();
            for seat in 0..3 {
                let mut last = 0.0;
                for own in 2..=taken.saturating_sub(4) {
                    let mut captures = [2; 3];
                    captures[seat] = own;
                    let shares =
                        shares(&with_captures(&position, captures), &WEIGHTS).expect("three");
                    assert!(
                        shares[seat] >= last,
                        "ply {plies}, seat {seat} with {own}: {} after {last}",
                        shares[seat]
                    );
                    last = shares[seat];
                }
            }
        }
    }
}
