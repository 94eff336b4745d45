//! Rows read back into the store's types.

use crate::accounts::AccountId;
use crate::player_store::model::{RankingEntry, Rating};
use crate::ratings::{self, GameResult, RatedKind};

pub(super) fn kind_of(text: String) -> rusqlite::Result<RatedKind> {
    text.parse::<RatedKind>().map_err(|error| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(error))
    })
}

pub(super) fn result_of(text: String) -> rusqlite::Result<GameResult> {
    GameResult::from_key(&text).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            6,
            rusqlite::types::Type::Text,
            format!("unknown game result {text:?}").into(),
        )
    })
}

pub(super) fn rating_row(
    kind: RatedKind,
    row: &rusqlite::Row<'_>,
    first: usize,
) -> rusqlite::Result<Rating> {
    let games: u32 = row.get(first + 1)?;
    Ok(Rating {
        kind,
        rating: row.get(first)?,
        games,
        wins: row.get(first + 2)?,
        draws: row.get(first + 3)?,
        losses: row.get(first + 4)?,
        provisional: games < ratings::PROVISIONAL_GAMES,
    })
}

pub(super) fn ranking_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RankingEntry> {
    let games: u32 = row.get(3)?;
    Ok(RankingEntry {
        account: AccountId(row.get(0)?),
        display_name: row.get(1)?,
        rating: row.get(2)?,
        games,
        place: row.get(4)?,
        provisional: games < ratings::PROVISIONAL_GAMES,
    })
}
