//! What recording a rated game computes, whatever the backend: from both players' standings
//! before the game, their ratings after it, the rows to write and the answer.

use super::model::{RatedGame, RatingChange, RecordedGame};
use crate::accounts::AccountId;
use crate::ratings::{self, GameResult, Standing};

/// A rated game's effect on both players.
pub(crate) struct Rated {
    white: Standing,
    black: Standing,
    white_after: f64,
    black_after: f64,
}

/// One rating row's update: the account, its rating after the game, and the wins, draws and
/// losses the game adds (`sql::UPSERT_RATING`).
pub(crate) struct RatingUpdate {
    pub account: AccountId,
    pub after: f64,
    pub tally: [i64; 3],
}

impl Rated {
    pub fn new(game: &RatedGame, white: Standing, black: Standing) -> Rated {
        let (white_after, black_after) = ratings::rate(white, black, game.result);
        Rated {
            white,
            black,
            white_after,
            black_after,
        }
    }

    /// The game row's values after `game_key, kind, white_id, black_id, result, pdn`:
    /// `white_before, white_after, black_before, black_after` (`sql::INSERT_GAME`).
    pub fn game_ratings(&self) -> [f64; 4] {
        [
            self.white.rating,
            self.white_after,
            self.black.rating,
            self.black_after,
        ]
    }

    /// Both rating rows' updates, white's first (the crash hook runs between the two).
    pub fn updates(&self, game: &RatedGame) -> [RatingUpdate; 2] {
        let (white_tally, black_tally) = tallies(game.result);
        [
            RatingUpdate {
                account: game.white,
                after: self.white_after,
                tally: white_tally,
            },
            RatingUpdate {
                account: game.black,
                after: self.black_after,
                tally: black_tally,
            },
        ]
    }

    /// What the store answers once the game row (`game_id`) and both ratings are committed.
    pub fn recorded(&self, game: &RatedGame, game_id: i64) -> RecordedGame {
        RecordedGame {
            game_id,
            white: RatingChange {
                account: game.white,
                before: self.white.rating,
                after: self.white_after,
                games: self.white.games + 1,
            },
            black: RatingChange {
                account: game.black,
                before: self.black.rating,
                after: self.black_after,
                games: self.black.games + 1,
            },
        }
    }
}

/// The win/draw/loss counts a result adds to white's and black's rows.
fn tallies(result: GameResult) -> ([i64; 3], [i64; 3]) {
    match result {
        GameResult::WhiteWins => ([1, 0, 0], [0, 0, 1]),
        GameResult::BlackWins => ([0, 0, 1], [1, 0, 0]),
        GameResult::Draw => ([0, 1, 0], [0, 1, 0]),
    }
}
