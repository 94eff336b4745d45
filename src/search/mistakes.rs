//! The easy level's human mistakes: usually the best move of a shallow search, sometimes
//! (a bounded, seeded chance) another move that looks almost as good — never one the shallow
//! search sees losing outright. Gentler still in a player's first games, as the seed asks.

use super::score;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mistakes {
    /// Depth of the shallow search that scores every move.
    pub depth: u32,
    /// Chance of a mistake on a move, in percent.
    pub chance: u32,
    /// A mistake loses at most this much (in evaluation units) by the shallow search's count.
    pub margin: i32,
    /// Games during which the player counts as a beginner.
    pub beginner_games: u32,
    pub beginner_chance: u32,
    pub beginner_margin: i32,
    /// Score the moves in the game's hint order (the most plausible first, so a spent budget
    /// leaves out unlikely moves) and bound, rather than score exactly, the moves that fall
    /// below the best so far by more than any margin: they can never be picked.
    pub plausible_first: bool,
}

impl Mistakes {
    /// The widest margin a mistake may lose.
    pub fn widest_margin(&self) -> i32 {
        self.margin.max(self.beginner_margin)
    }

    /// Chance (percent) and margin for a player with `games_played` games (unknown: a regular).
    pub fn for_player(&self, games_played: Option<u32>) -> (u32, i32) {
        match games_played {
            Some(games) if games < self.beginner_games => {
                (self.beginner_chance, self.beginner_margin)
            }
            _ => (self.chance, self.margin),
        }
    }

    /// Index into `scored` (best first) of the move to play.
    pub fn pick<M>(&self, scored: &[(M, i32)], games_played: Option<u32>, seed: u64) -> usize {
        let Some(&(_, best)) = scored.first() else {
            return 0;
        };
        let (chance, margin) = self.for_player(games_played);
        let mut rng = SmallRng::seed_from_u64(seed);
        if rng.gen_range(0..100) >= chance {
            return 0;
        }
        let plausible: Vec<usize> = (1..scored.len())
            .filter(|&i| {
                let value = scored[i].1;
                value >= best.saturating_sub(margin) && !(value < 0 && score::is_decisive(value))
            })
            .collect();
        if plausible.is_empty() {
            return 0;
        }
        plausible[rng.gen_range(0..plausible.len())]
    }
}
