//! Rated play, where the rooms meet the accounts:
//!
//! - A connection proves its account with its session token (`sign_in`): from then on the pools
//!   see the account (never paired with itself on another device) and its rating in the pool's
//!   game kind, read again at every pool join (the session is checked again too, so a signed-out
//!   token stops working at once). A token acts only for its own account.
//! - [`StoreRatedResults`]: the end of a rated game goes to the player store, which writes the
//!   game, both ratings and counts in one transaction. The game key is the room code and the
//!   game's number in the room, so a repeated report cannot count a game twice; white is seat 0
//!   (the side that moved first). Aborted games and games with the CPU never get here
//!   ([`crate::rated_results::rated_end`]). Once written, each seat's change goes back to the room
//!   ([`seat_ratings`]): the room's result shows it to both players.

use crate::accounts::http::AccountsService;
use crate::accounts::{Account, AccountId};
use crate::error::RoomError;
use crate::player_store::{
    PlayerStore, PlayerStoreError, RatedGame, Rating, RatingChange, RecordedGame,
};
use crate::pools::choice::PlayerIdentity;
use crate::rated_results::{RatedResults, RatingsReport};
use crate::ratings::{GameResult, RatedKind, PROVISIONAL_GAMES};
use crate::store::SeatRating;
use crate::time::TimeSource;
use std::sync::Arc;
use std::time::Duration;

/// Attempts at writing a rated game while the store fails, and the pause before each retry.
const RECORD_ATTEMPTS: u32 = 4;
const RECORD_RETRY: Duration = Duration::from_secs(2);

/// A connection's proven account, and its ratings in the five game kinds.
pub struct SignedIn {
    pub account: Account,
    pub ratings: Vec<Rating>,
}

fn unavailable(error: PlayerStoreError) -> RoomError {
    tracing::warn!(%error, "player store failed during a socket sign-in");
    RoomError::AccountsUnavailable
}

/// The account of a session token (live, not revoked) and its ratings (1,200 where it never
/// played rated); `bad_session` otherwise.
pub async fn sign_in(service: &AccountsService, token: &str) -> Result<SignedIn, RoomError> {
    let account = service
        .session_account(token)
        .await
        .map_err(unavailable)?
        .ok_or(RoomError::BadSession)?;
    let played = service
        .store
        .ratings(account.id)
        .await
        .map_err(unavailable)?;
    let ratings = RatedKind::ALL
        .into_iter()
        .map(|kind| {
            played
                .iter()
                .find(|rating| rating.kind == kind)
                .copied()
                .unwrap_or_else(|| Rating::new_player(kind))
        })
        .collect();
    Ok(SignedIn { account, ratings })
}

/// The rated kind of a pool's game (`diamond` and `capture` pools are the 2-player forms).
pub fn rated_kind(pool_kind: &str) -> Option<RatedKind> {
    match pool_kind {
        "english" => Some(RatedKind::English),
        "turkish" => Some(RatedKind::Turkish),
        "international" => Some(RatedKind::International),
        "diamond" => Some(RatedKind::Diamond2),
        "capture" => Some(RatedKind::Capture2),
        _ => None,
    }
}

/// The pools' key of an account (shared by all its devices).
pub fn player_key(account: AccountId) -> String {
    format!("account:{}", account.0)
}

/// Who a signed-in connection is to the pool of `pool_kind`: its session checked again, its
/// current rating in that kind.
pub async fn identity(
    service: &AccountsService,
    token: &str,
    pool_kind: &str,
) -> Result<PlayerIdentity, RoomError> {
    let account = service
        .session_account(token)
        .await
        .map_err(unavailable)?
        .ok_or(RoomError::BadSession)?;
    let rating = match rated_kind(pool_kind) {
        Some(kind) => {
            service
                .store
                .rating(account.id, kind)
                .await
                .map_err(unavailable)?
                .rating
        }
        None => crate::ratings::START_RATING,
    };
    Ok(PlayerIdentity {
        player: player_key(account.id),
        account: Some(account.id.0.to_string()),
        rating: rating.round().clamp(0.0, f64::from(u32::MAX)) as u32,
    })
}

/// Rated results written to the player store (on a task of their own: the room's save that
/// ended the game does not wait for it).
pub struct StoreRatedResults {
    store: Arc<dyn PlayerStore>,
    time: TimeSource,
}

impl std::fmt::Debug for StoreRatedResults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreRatedResults")
    }
}

impl StoreRatedResults {
    pub fn new(store: Arc<dyn PlayerStore>, time: TimeSource) -> StoreRatedResults {
        StoreRatedResults { store, time }
    }
}

/// The store's form of a rated game's end; `None` when an account is not a store account.
pub fn to_store_game(
    game: &crate::rated_results::RatedGame,
    finished_ms: i64,
) -> Option<RatedGame> {
    let kind = rated_kind(&game.kind)?;
    let [white, black] = [&game.accounts[0], &game.accounts[1]].map(|a| a.parse::<i64>().ok());
    let result = match game.winner {
        Some(0) => GameResult::WhiteWins,
        Some(1) => GameResult::BlackWins,
        None => GameResult::Draw,
        Some(_) => return None,
    };
    Some(RatedGame {
        game_key: format!("{}/{}", game.room, game.game_number),
        kind,
        white: AccountId(white?),
        black: AccountId(black?),
        result,
        pdn: game.pdn.clone(),
        finished_ms,
    })
}

/// The record with each player named by their account's display name (the name the ranking
/// shows); a name the store cannot give keeps the seat's nickname.
async fn with_display_names(
    store: &dyn PlayerStore,
    game: &RatedGame,
    name_tags: &[String; 2],
) -> String {
    let mut tags = Vec::new();
    for (account, tag) in [game.white, game.black].into_iter().zip(name_tags) {
        match store.account(account).await {
            Ok(Some(account)) => tags.push((tag.clone(), account.display_name)),
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "display name not read for a rated record"),
        }
    }
    if game.pdn.is_empty() {
        return String::new();
    }
    crate::rated_record::set_tags(&game.pdn, &tags)
}

/// Each seat's change in a written game, seat 0 (white) first.
pub fn seat_ratings(recorded: &RecordedGame) -> [SeatRating; 2] {
    let seat = |change: &RatingChange| SeatRating {
        before: change.before,
        after: change.after,
        provisional: change.games < PROVISIONAL_GAMES,
    };
    [seat(&recorded.white), seat(&recorded.black)]
}

impl RatedResults for StoreRatedResults {
    fn record(&self, game: crate::rated_results::RatedGame, report: RatingsReport) {
        let finished_ms = i64::try_from(self.time.now_ms()).unwrap_or(i64::MAX);
        let Some(rated) = to_store_game(&game, finished_ms) else {
            tracing::warn!(room = %game.room, pool = %game.pool, "rated game with no store accounts: not recorded");
            return;
        };
        let store = Arc::clone(&self.store);
        let name_tags = game.name_tags.clone();
        tokio::spawn(async move {
            let mut rated = rated;
            rated.pdn = with_display_names(store.as_ref(), &rated, &name_tags).await;
            for attempt in 1..=RECORD_ATTEMPTS {
                match store.record_rated_game(&rated).await {
                    Ok(recorded) => {
                        tracing::info!(game = %rated.game_key, id = recorded.game_id, "rated game recorded");
                        report(seat_ratings(&recorded));
                        return;
                    }
                    Err(PlayerStoreError::AlreadyRecorded(_)) => return,
                    Err(error @ PlayerStoreError::Backend(_)) if attempt < RECORD_ATTEMPTS => {
                        tracing::warn!(game = %rated.game_key, %error, attempt, "recording a rated game failed; retrying");
                        tokio::time::sleep(RECORD_RETRY).await;
                    }
                    Err(error) => {
                        tracing::error!(game = %rated.game_key, %error, "rated game not recorded");
                        return;
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::RoomCode;

    fn ended(winner: Option<u8>, accounts: [&str; 2]) -> crate::rated_results::RatedGame {
        crate::rated_results::RatedGame {
            room: RoomCode::parse("K7Q2M9XRTDABCDEFGH1J").expect("code"),
            game_number: 3,
            pool: "turkish/rated".into(),
            kind: "turkish".into(),
            accounts: accounts.map(str::to_owned),
            winner,
            reason: "resignation".into(),
            moves: vec![],
            pdn: "1. a3-a4 *".into(),
            name_tags: ["White".into(), "Black".into()],
        }
    }

    #[test]
    fn seat_zero_is_white_and_the_key_names_the_room_game() {
        let game = to_store_game(&ended(Some(1), ["7", "9"]), 55).expect("a store game");
        assert_eq!(game.game_key, "K7Q2M9XRTDABCDEFGH1J/3");
        assert_eq!(game.kind, RatedKind::Turkish);
        assert_eq!((game.white, game.black), (AccountId(7), AccountId(9)));
        assert_eq!(game.result, GameResult::BlackWins);
        assert_eq!(game.pdn, "1. a3-a4 *");
        assert_eq!(game.finished_ms, 55);
        let won = to_store_game(&ended(Some(0), ["7", "9"]), 0).expect("a store game");
        assert_eq!(won.result, GameResult::WhiteWins);
        let drawn = to_store_game(&ended(None, ["7", "9"]), 0).expect("a store game");
        assert_eq!(drawn.result, GameResult::Draw);
        assert!(to_store_game(&ended(Some(0), ["guest:x", "9"]), 0).is_none());
        assert!(to_store_game(&ended(Some(2), ["7", "9"]), 0).is_none());
    }

    #[test]
    fn every_pool_has_its_rated_kind() {
        for pool in crate::pools::choice::all_pools() {
            assert!(rated_kind(&pool.kind).is_some(), "{}", pool.kind);
        }
        assert_eq!(rated_kind("diamond"), Some(RatedKind::Diamond2));
        assert_eq!(rated_kind("chess"), None);
    }
}
