//! Draw offers and aborts, in every 2-player room (friends, pairings, the CPU):
//! - a player offers a draw at any time, on their turn or the opponent's; the opponent accepts
//!   (the game ends drawn, reason `agreement`) or declines; offering while the opponent's own
//!   offer waits accepts it;
//! - an offer lapses when its receiver moves (the move answers it);
//! - a declined or lapsed offer keeps its offerer from offering again for
//!   [`OFFER_COOLDOWN_PLIES`] plies (no spam);
//! - a game is aborted (ended without a result, reason `aborted`) only while a side has not made
//!   its first move; a pairing's game between two people is aborted by itself when the side to
//!   make its first move has not made it [`FIRST_MOVE_MS`] (30 s) after its turn began (a player
//!   who never came, or whose instance died before they were told), as lichess does.
//!
//! Pure functions on the room record, like `play` and `lobby`.

use crate::error::RoomError;
pub use crate::first_move::{abort_deadline, abort_if_due, ABORTED, FIRST_MOVE_MS};
use crate::play::{self, Game};
pub use crate::store::draw_offers::{DrawOffers, PendingOffer, OFFER_COOLDOWN_PLIES};
use crate::store::{RoomRecord, RoomResult};
use damas::session::SessionError;

/// The `result.reason` of a draw by agreement.
pub const AGREEMENT: &str = "agreement";
/// The game of a 2-player room in play, and the opponent of `seat`.
fn opponent_in_play(record: &RoomRecord, game: &Option<Game>, seat: u8) -> Result<u8, RoomError> {
    if record.seats.len() != 2 {
        return Err(RoomError::TwoPlayersOnly);
    }
    if !record.started {
        return Err(RoomError::NotStarted);
    }
    let current = game.as_ref().ok_or(RoomError::Busy)?;
    if record.result.is_some() || current.is_over() {
        return Err(SessionError::GameOver.into());
    }
    Ok(1 - seat.min(1))
}

/// `seat` offers a draw (or accepts the opponent's waiting offer by offering back).
pub fn offer(
    record: &mut RoomRecord,
    game: &Option<Game>,
    seat: u8,
    now: u64,
    takeover_ms: u64,
) -> Result<(), RoomError> {
    let opponent = opponent_in_play(record, game, seat)?;
    let ply = record.moves.len();
    match record.offers.pending {
        Some(pending) if pending.to == seat => return agree(record),
        Some(_) => return Err(RoomError::OfferPending),
        None => {}
    }
    if play::cpu_controls(record, opponent, now, takeover_ms) {
        return Err(RoomError::OpponentIsCpu);
    }
    let allowed_from = record.offers.next_offer_ply(seat);
    if ply < allowed_from {
        return Err(RoomError::OfferTooSoon(allowed_from));
    }
    record.offers.pending = Some(PendingOffer {
        from: seat,
        to: opponent,
        ply,
    });
    Ok(())
}

/// `seat` answers the offer waiting for it.
pub fn answer(
    record: &mut RoomRecord,
    game: &Option<Game>,
    seat: u8,
    accept: bool,
) -> Result<(), RoomError> {
    opponent_in_play(record, game, seat)?;
    let pending = record
        .offers
        .pending
        .filter(|p| p.to == seat)
        .ok_or(RoomError::NoDrawOffer)?;
    if accept {
        return agree(record);
    }
    record.offers.pending = None;
    let until = record.moves.len() + OFFER_COOLDOWN_PLIES;
    record.offers.hold_back(pending.from, until);
    Ok(())
}

fn agree(record: &mut RoomRecord) -> Result<(), RoomError> {
    record.offers.pending = None;
    record.result = Some(RoomResult {
        winner: None,
        reason: AGREEMENT.into(),
        flagged: None,
        ratings: None,
    });
    record.turn_started_at = None;
    Ok(())
}

/// `seat` aborts the game: only while a side has not made its first move.
pub fn abort(record: &mut RoomRecord, game: &Option<Game>, seat: u8) -> Result<(), RoomError> {
    opponent_in_play(record, game, seat)?;
    if record.moves.len() >= record.seats.len() {
        return Err(RoomError::CannotAbort);
    }
    record.offers.pending = None;
    record.result = Some(RoomResult {
        winner: None,
        reason: ABORTED.into(),
        flagged: None,
        ratings: None,
    });
    record.turn_started_at = None;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby;
    use crate::store::GameChoice;

    /// A started Turkish room with two people.
    fn room() -> (RoomRecord, Option<Game>) {
        let game = GameChoice {
            kind: "turkish".into(),
            players: 2,
            long_jump: false,
        };
        let (mut record, _) =
            lobby::new_room(lobby::new_code(), game, None, "Ana".into(), "a".into(), 0).unwrap();
        lobby::join(&mut record, "Bea".into(), "b".into(), 0).unwrap();
        let mut game = None;
        Game::sync(&mut game, &record).unwrap();
        (record, game)
    }

    fn first_move(game: &Option<Game>) -> String {
        game.as_ref().unwrap().view().legal_moves[0].text.clone()
    }

    #[test]
    fn offers_are_answered_lapse_and_cool_down() {
        let (mut record, mut game) = room();
        offer(&mut record, &game, 1, 0, 45_000).unwrap();
        assert_eq!(
            offer(&mut record, &game, 1, 0, 45_000).unwrap_err().code(),
            "offer_pending"
        );
        assert_eq!(
            answer(&mut record, &game, 1, false).unwrap_err().code(),
            "no_draw_offer"
        );
        answer(&mut record, &game, 0, false).unwrap();
        assert_eq!(record.offers.next_offer_ply(1), OFFER_COOLDOWN_PLIES);
        assert_eq!(
            offer(&mut record, &game, 1, 0, 45_000).unwrap_err().code(),
            "offer_too_soon"
        );
        // Seat 0 offers; seat 0 moves: its own offer stands; seat 1's move lets it lapse.
        offer(&mut record, &game, 0, 0, 45_000).unwrap();
        let text = first_move(&game);
        play::play_move(&mut record, &mut game, 0, &text, None, 0).unwrap();
        assert!(record.offers.pending.is_some());
        let text = first_move(&game);
        play::play_move(&mut record, &mut game, 1, &text, None, 0).unwrap();
        assert!(record.offers.pending.is_none());
        assert_eq!(record.offers.next_offer_ply(0), 2 + OFFER_COOLDOWN_PLIES);
        assert_eq!(
            abort(&mut record, &game, 0).unwrap_err().code(),
            "cannot_abort"
        );
    }

    #[test]
    fn offering_back_accepts_and_abort_before_the_first_moves() {
        let (mut record, game) = room();
        offer(&mut record, &game, 0, 0, 45_000).unwrap();
        offer(&mut record, &game, 1, 0, 45_000).unwrap();
        let result = record.result.clone().unwrap();
        assert_eq!((result.winner, result.reason.as_str()), (None, AGREEMENT));
        let (mut record, game) = room();
        abort(&mut record, &game, 1).unwrap();
        assert_eq!(record.result.unwrap().reason, ABORTED);
    }
}
