//! Ratings: Elo from 1,200 per game kind ("rated games use their own Elo that starts at 1,200"),
//! computed by the `skillratings` crate with a K-factor per player:
//!
//! - **K = 40** while a player is provisional in that game kind: fewer than
//!   [`PROVISIONAL_GAMES`] (20) rated games played. Their rating is shown with a `?`
//!   (`provisional: true` in the protocol) and moves fast towards their strength.
//! - **K = 20** from the 20th rated game on.
//!
//! Each side's change uses its own K (as FIDE does), so a provisional player meeting an
//! established one moves twice as far as the established one. Only games between two signed-in
//! accounts in rated play count; CPU games, guests and aborted games never reach
//! [`crate::player_store::PlayerStore::record_rated_game`].

use serde::{Deserialize, Serialize};
use skillratings::elo::{elo, EloConfig, EloRating};
use skillratings::Outcomes;
use std::fmt;
use std::str::FromStr;

/// Every account starts each game kind at this rating.
pub const START_RATING: f64 = 1200.0;
/// Rated games played before a rating stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 20;
/// K-factor while provisional.
pub const K_PROVISIONAL: f64 = 40.0;
/// K-factor once established.
pub const K_ESTABLISHED: f64 = 20.0;

/// The five games' 2-player forms, each with its own rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatedKind {
    English,
    Turkish,
    International,
    Diamond2,
    Capture2,
}

impl RatedKind {
    pub const ALL: [RatedKind; 5] = [
        RatedKind::English,
        RatedKind::Turkish,
        RatedKind::International,
        RatedKind::Diamond2,
        RatedKind::Capture2,
    ];

    /// The stable key stored and sent (`english`, `turkish`, `international`, `diamond2`,
    /// `capture2`).
    pub fn key(self) -> &'static str {
        match self {
            RatedKind::English => "english",
            RatedKind::Turkish => "turkish",
            RatedKind::International => "international",
            RatedKind::Diamond2 => "diamond2",
            RatedKind::Capture2 => "capture2",
        }
    }
}

impl fmt::Display for RatedKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown game kind {0:?} (english, turkish, international, diamond2, capture2)")]
pub struct UnknownKind(pub String);

impl FromStr for RatedKind {
    type Err = UnknownKind;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        RatedKind::ALL
            .into_iter()
            .find(|kind| kind.key() == text)
            .ok_or_else(|| UnknownKind(text.chars().take(32).collect()))
    }
}

/// How a rated game ended, from the board: the first seat is "white" in the store's words (the
/// side that moved first in the record), whatever the game calls its colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn key(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "white_wins",
            GameResult::BlackWins => "black_wins",
            GameResult::Draw => "draw",
        }
    }

    pub fn from_key(key: &str) -> Option<GameResult> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ]
        .into_iter()
        .find(|result| result.key() == key)
    }
}

/// One side's standing before a game: its rating and rated games played in that kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub rating: f64,
    pub games: u32,
}

impl Standing {
    pub const NEW: Standing = Standing {
        rating: START_RATING,
        games: 0,
    };

    pub fn provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }

    /// This player's K-factor for their next game.
    pub fn k_factor(&self) -> f64 {
        if self.provisional() {
            K_PROVISIONAL
        } else {
            K_ESTABLISHED
        }
    }
}

/// The new ratings of white and black after `result`, each side with its own K-factor.
pub fn rate(white: Standing, black: Standing, result: GameResult) -> (f64, f64) {
    let outcome = match result {
        GameResult::WhiteWins => Outcomes::WIN,
        GameResult::BlackWins => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
    };
    let white_rating = EloRating {
        rating: white.rating,
    };
    let black_rating = EloRating {
        rating: black.rating,
    };
    let (new_white, _) = elo(
        &white_rating,
        &black_rating,
        &outcome,
        &EloConfig {
            k: white.k_factor(),
        },
    );
    let (_, new_black) = elo(
        &white_rating,
        &black_rating,
        &outcome,
        &EloConfig {
            k: black.k_factor(),
        },
    );
    (new_white.rating, new_black.rating)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() < 1e-3,
            "{actual} is not {expected}"
        );
    }

    #[test]
    fn equal_new_players_move_by_half_the_provisional_k() {
        // Expected score 0.5 each; K = 40: the winner gains 40 × 0.5 = 20.
        let (white, black) = rate(Standing::NEW, Standing::NEW, GameResult::WhiteWins);
        close(white, 1220.0);
        close(black, 1180.0);
        let (white, black) = rate(Standing::NEW, Standing::NEW, GameResult::Draw);
        close(white, 1200.0);
        close(black, 1200.0);
    }

    #[test]
    fn each_side_uses_its_own_k() {
        // White 1400 established (K 20), black 1200 provisional (K 40), draw.
        // E(white) = 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.316228) = 0.759747.
        // White: 1400 + 20 × (0.5 − 0.759747) = 1394.805; black: 1200 + 40 × (0.5 − 0.240253)
        // = 1210.390.
        let white = Standing {
            rating: 1400.0,
            games: 20,
        };
        let black = Standing {
            rating: 1200.0,
            games: 19,
        };
        let (new_white, new_black) = rate(white, black, GameResult::Draw);
        close(new_white, 1394.805);
        close(new_black, 1210.390);
        assert!(!white.provisional() && black.provisional());
    }

    #[test]
    fn kinds_round_trip() {
        for kind in RatedKind::ALL {
            assert_eq!(kind.key().parse::<RatedKind>(), Ok(kind));
        }
        assert!("diamond".parse::<RatedKind>().is_err());
    }
}
