//! Rows read back into the store's types, written once for both backends: a backend says how
//! to read one column of its rows ([`Columns`]); which column holds what is said here, next to
//! the queries in [`super::sql`] that produce them.

use super::model::{
    GameSummary, HistoryPoint, PendingSignIn, PlayerStoreError, RankingEntry, Rating, Session,
    StoreResult,
};
use crate::accounts::Account;
use crate::accounts::AccountId;
use crate::ratings::{self, GameResult, RatedKind, Standing};

/// One row of a query's answer, read column by column (0-based).
pub(crate) trait Columns {
    fn int(&self, index: usize) -> StoreResult<i64>;
    fn real(&self, index: usize) -> StoreResult<f64>;
    fn text(&self, index: usize) -> StoreResult<String>;
    fn maybe_text(&self, index: usize) -> StoreResult<Option<String>>;

    /// A count (games, wins …): a value past `u32` reads as `u32::MAX`.
    fn count(&self, index: usize) -> StoreResult<u32> {
        Ok(u32::try_from(self.int(index)?).unwrap_or(u32::MAX))
    }

    fn kind(&self, index: usize) -> StoreResult<RatedKind> {
        self.text(index)?
            .parse::<RatedKind>()
            .map_err(|_| bad_row("kind"))
    }

    fn result(&self, index: usize) -> StoreResult<GameResult> {
        GameResult::from_key(&self.text(index)?).ok_or_else(|| bad_row("result"))
    }
}

pub(crate) fn bad_row(what: &str) -> PlayerStoreError {
    PlayerStoreError::Backend(format!("unreadable row: {what}"))
}

/// `id, issuer, subject, display_name` (`sql::ACCOUNT`, `sql::ACCOUNT_OF_SUBJECT`).
pub(crate) fn account(row: &impl Columns) -> StoreResult<Account> {
    Ok(Account {
        id: AccountId(row.int(0)?),
        issuer: row.text(1)?,
        subject: row.text(2)?,
        display_name: row.text(3)?,
    })
}

/// An account's columns, then `expires_ms` (`sql::SESSION`).
pub(crate) fn session(row: &impl Columns) -> StoreResult<Session> {
    Ok(Session {
        account: account(row)?,
        expires_ms: row.int(4)?,
    })
}

/// `pkce_verifier, nonce, return_to, display_name, expires_ms` (`sql::TAKE_PENDING`).
pub(crate) fn pending_sign_in(row: &impl Columns) -> StoreResult<PendingSignIn> {
    Ok(PendingSignIn {
        pkce_verifier: row.text(0)?,
        nonce: row.text(1)?,
        return_to: row.text(2)?,
        display_name: row.maybe_text(3)?,
        expires_ms: row.int(4)?,
    })
}

/// `rating, games` (the first columns of `sql::RATING`).
pub(crate) fn standing(row: &impl Columns) -> StoreResult<Standing> {
    Ok(Standing {
        rating: row.real(0)?,
        games: row.count(1)?,
    })
}

/// `rating, games, wins, draws, losses` from column `first` on (`sql::RATING`).
pub(crate) fn rating(kind: RatedKind, row: &impl Columns, first: usize) -> StoreResult<Rating> {
    let games = row.count(first + 1)?;
    Ok(Rating {
        kind,
        rating: row.real(first)?,
        games,
        wins: row.count(first + 2)?,
        draws: row.count(first + 3)?,
        losses: row.count(first + 4)?,
        provisional: games < ratings::PROVISIONAL_GAMES,
    })
}

/// `kind`, then a rating's columns (`sql::RATINGS`).
pub(crate) fn kind_rating(row: &impl Columns) -> StoreResult<Rating> {
    rating(row.kind(0)?, row, 1)
}

/// `account_id, display_name, rating, games, place` (`sql::RANKING`, `sql::PLACE`).
pub(crate) fn ranking_entry(row: &impl Columns) -> StoreResult<RankingEntry> {
    let games = row.count(3)?;
    Ok(RankingEntry {
        account: AccountId(row.int(0)?),
        display_name: row.text(1)?,
        rating: row.real(2)?,
        games,
        place: row.count(4)?,
        provisional: games < ratings::PROVISIONAL_GAMES,
    })
}

/// `id, finished_ms, rating after` (`sql::HISTORY`).
pub(crate) fn history_point(row: &impl Columns) -> StoreResult<HistoryPoint> {
    Ok(HistoryPoint {
        game_id: row.int(0)?,
        finished_ms: row.int(1)?,
        rating: row.real(2)?,
    })
}

/// A game with both players' names (`sql::LAST_GAMES`).
pub(crate) fn game_summary(row: &impl Columns) -> StoreResult<GameSummary> {
    Ok(GameSummary {
        game_id: row.int(0)?,
        kind: row.kind(1)?,
        white: AccountId(row.int(2)?),
        white_name: row.text(3)?,
        black: AccountId(row.int(4)?),
        black_name: row.text(5)?,
        result: row.result(6)?,
        white_before: row.real(7)?,
        white_after: row.real(8)?,
        black_before: row.real(9)?,
        black_after: row.real(10)?,
        finished_ms: row.int(11)?,
    })
}

/// `pdn` (`sql::GAME_PDN`).
pub(crate) fn pdn(row: &impl Columns) -> StoreResult<String> {
    row.text(0)
}
