//! "Play the CPU" for clients without an engine of their own (a browser): a room with one person
//! and the CPU, at any level, in every other seat, served by the server. As the seeds say of games
//! against the AI: no clock, and undo/redo allowed — these are the only rooms where undo is.
//!
//! Undo takes back to before the person's last move (the CPU's replies with it), as the app's
//! own games against the CPU do; redo replays the person's move and the CPU's replies that
//! followed it. Pure functions on the room record.

use crate::error::RoomError;
use crate::lobby;
use crate::offers::{ABORTED, AGREEMENT};
use crate::play::{self, Game};
use crate::store::{GameChoice, RoomCode, RoomKind, RoomRecord, SeatKind};
use damas::search::levels::Level;
use damas::session::SessionError;

/// A CPU level a client asks for, checked.
pub fn check_level(level: &str) -> Result<String, RoomError> {
    Level::parse(level)
        .map(|l| l.as_str().to_string())
        .ok_or_else(|| RoomError::BadLevel(level.chars().take(16).collect()))
}

/// A started room where the person sits in `seat` (default 0) and the CPU at `level` everywhere
/// else; no clock.
pub fn new_room(
    code: RoomCode,
    game: GameChoice,
    level: String,
    seat: Option<u8>,
    nickname: String,
    token_hash: String,
    now: u64,
) -> Result<(RoomRecord, u8), RoomError> {
    let (mut record, creator) = lobby::new_room(code, game, None, nickname, token_hash, now)?;
    let seat = seat.unwrap_or(0);
    if usize::from(seat) >= record.seats.len() {
        return Err(SessionError::BadInput(format!(
            "seat {seat} does not exist in a {}-player game",
            record.seats.len()
        ))
        .into());
    }
    record.seats.swap(usize::from(creator), usize::from(seat));
    record.kind = RoomKind::Cpu { level };
    lobby::start_with_cpu(&mut record, now)?;
    Ok((record, seat))
}

fn ensure_cpu_room(record: &RoomRecord) -> Result<(), RoomError> {
    match record.kind {
        RoomKind::Cpu { .. } => Ok(()),
        _ => Err(RoomError::UndoNotAllowed),
    }
}

/// Ends that undo cannot take back: a resignation, an agreed draw, an abort.
fn final_end(record: &RoomRecord) -> bool {
    record.resigned.is_some()
        || record.result.as_ref().is_some_and(|r| {
            r.reason == AGREEMENT || r.reason == ABORTED || r.reason == "resignation"
        })
}

/// Takes back the person's last move and the CPU's replies after it.
pub fn undo(record: &mut RoomRecord, game: &mut Option<Game>) -> Result<(), RoomError> {
    ensure_cpu_room(record)?;
    if final_end(record) {
        return Err(SessionError::GameOver.into());
    }
    let movers = game.as_ref().ok_or(RoomError::Busy)?.movers();
    let last_human = movers
        .iter()
        .rposition(|&seat| {
            record
                .seats
                .get(usize::from(seat))
                .is_some_and(|s| s.kind == SeatKind::Human)
        })
        .ok_or(SessionError::NothingToUndo)?;
    let span = record.moves.len().saturating_sub(last_human);
    for _ in 0..span {
        if let Some(text) = record.moves.pop() {
            record.redo.push(text);
        }
    }
    // A rules' end taken back: the game goes on.
    record.result = None;
    Game::sync(game, record)?;
    Ok(())
}

/// Replays what the last undo took back.
pub fn redo(record: &mut RoomRecord, game: &mut Option<Game>, now: u64) -> Result<(), RoomError> {
    ensure_cpu_room(record)?;
    let mut stack = std::mem::take(&mut record.redo);
    let first = stack.pop().ok_or(SessionError::NothingToRedo)?;
    let mut next = Some(first);
    while let Some(text) = next.take() {
        let seat = game.as_ref().ok_or(RoomError::Busy)?.to_move();
        play::play_move(record, game, seat, &text, None, now)?;
        let over = record.result.is_some();
        let cpu_next = game.as_ref().is_some_and(|g| {
            record
                .seats
                .get(usize::from(g.to_move()))
                .is_some_and(|s| s.kind == SeatKind::Cpu)
        });
        if cpu_next && !over {
            next = stack.pop();
        }
    }
    record.redo = stack;
    Ok(())
}
