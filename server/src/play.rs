//! Play: the game of a room rebuilt through `damas::session`, moves (human and CPU), resignation,
//! time losses, and who controls each seat.
//!
//! The server is the only judge: a move is applied by the session (the same engine the app uses),
//! so the record only ever holds moves the rules accepted. The session is kept in "local" mode
//! (every seat human to it); the room decides who plays a seat:
//! - a seat the CPU took at the start, a seat whose player left a 3+ player game, and a seat whose
//!   player has been disconnected for the takeover time (45 s) are played by the CPU (medium);
//! - a reconnection with the seat token gives the seat back at once.

use crate::clocks;
use crate::error::RoomError;
use crate::store::{GameChoice, RoomRecord, RoomResult, SeatKind};
use damas::search::levels::MoveTime;
use damas::search::SearchContext;
use damas::session::{GameSetup, GameView, OutcomeView, Session, SessionError, VariantSetup};

pub use crate::store::CPU_LEVEL;

fn setup(game: &GameChoice, cpu_seat: Option<u8>, level: &str) -> GameSetup {
    let players = game.players;
    GameSetup {
        variant: VariantSetup {
            kind: game.kind.clone(),
            players: Some(i64::from(players)),
            long_jump: game.long_jump,
        },
        mode: if cpu_seat.is_some() { "cpu" } else { "local" }.into(),
        level: Some(level.into()),
        human_seats: cpu_seat
            .map(|cpu| (0..players).filter(|&s| s != cpu).map(i64::from).collect()),
        position: None,
    }
}

/// Checks a game choice (kind, player count, long jump) by opening it.
pub fn check_game(game: &GameChoice) -> Result<(), RoomError> {
    Session::new(String::new(), &setup(game, None, CPU_LEVEL))?;
    Ok(())
}

/// The session of `record`'s game, every move replayed; `cpu_seat`: the seat the session treats
/// as the CPU's (to ask it for a move), else every seat is human.
pub fn replay(record: &RoomRecord, cpu_seat: Option<u8>) -> Result<Session, RoomError> {
    let fresh = Session::new(
        record.code.to_string(),
        &setup(&record.game, cpu_seat, record.cpu_level()),
    )?;
    let mut save = fresh.to_save();
    save.moves = record.moves.clone();
    save.resigned = record.resigned;
    save.seed = record.seed;
    save.created = record.created_at;
    Ok(save.restore()?)
}

/// The session's view with its history left out, and the history's length.
fn view_without_history(session: &Session) -> (GameView, usize) {
    let mut view = session.view();
    let history_len = std::mem::take(&mut view.history).len();
    (view, history_len)
}

/// A room's session kept in step with its record: new moves are played on it, anything else
/// rebuilds it.
pub struct Game {
    /// Which game of the room (a rematch starts another).
    rematch: u32,
    moves: Vec<String>,
    resigned: Option<u8>,
    session: Session,
    /// The session's view after the last change, without its history: the session holds the
    /// history, and a second copy here cost a room ≈ 0.6 KiB a ply (docs/performance.md).
    /// [`Game::view`] gives the whole view.
    current: GameView,
    /// The length of the history left out of `current`.
    history_len: usize,
}

impl Game {
    pub fn new(record: &RoomRecord) -> Result<Game, RoomError> {
        let session = replay(record, None)?;
        let (current, history_len) = view_without_history(&session);
        Ok(Game {
            rematch: record.rematch,
            moves: record.moves.clone(),
            resigned: record.resigned,
            current,
            history_len,
            session,
        })
    }

    /// Takes the session's view after a change.
    fn refresh(&mut self) {
        (self.current, self.history_len) = view_without_history(&self.session);
    }

    /// The session's whole view, history included (what a room's `state` shows).
    pub fn view(&self) -> GameView {
        self.session.view()
    }

    /// Identifies this game of the room (the session's `view.id`).
    pub fn id(&self) -> &str {
        &self.current.id
    }

    /// How many moves the history holds.
    pub fn history_len(&self) -> usize {
        self.history_len
    }

    /// Brings `game` to `record` (cheaply when the record only added moves).
    pub fn sync(game: &mut Option<Game>, record: &RoomRecord) -> Result<(), RoomError> {
        if let Some(current) = game {
            if current.rematch == record.rematch
                && current.resigned.is_none()
                && record.resigned.is_none()
                && record.moves.starts_with(&current.moves)
            {
                if current.moves.len() == record.moves.len() {
                    return Ok(());
                }
                let mut ok = true;
                for text in &record.moves[current.moves.len()..] {
                    if current.session.play_move(text).is_err() {
                        ok = false;
                        break;
                    }
                    current.moves.push(text.clone());
                }
                if ok {
                    current.refresh();
                    return Ok(());
                }
            }
        }
        *game = None;
        *game = Some(Game::new(record)?);
        Ok(())
    }

    /// Who moved at each ply.
    pub fn movers(&self) -> Vec<u8> {
        self.session.movers().collect()
    }

    pub fn to_move(&self) -> u8 {
        self.current.to_move
    }

    pub fn ply(&self) -> usize {
        self.current.ply
    }

    pub fn is_over(&self) -> bool {
        self.current.outcome.is_some()
    }

    /// Pieces that must capture now: the origins of the legal moves when every one captures.
    pub fn must_capture(&self) -> Vec<String> {
        let moves = &self.current.legal_moves;
        if moves.is_empty() || moves.iter().any(|m| m.captures.is_empty()) {
            return Vec::new();
        }
        let mut from: Vec<String> = moves.iter().map(|m| m.from.clone()).collect();
        from.sort();
        from.dedup();
        from
    }
}

/// Whether the CPU plays `seat` at unix ms `now`.
pub fn cpu_controls(record: &RoomRecord, seat: u8, now: u64, takeover_ms: u64) -> bool {
    record.seats.get(usize::from(seat)).is_some_and(|s| {
        s.kind == SeatKind::Cpu
            || s.left
            || s.away_since
                .is_some_and(|since| now >= since.saturating_add(takeover_ms))
    })
}

fn ensure_in_play(record: &RoomRecord, game: &Game) -> Result<(), RoomError> {
    if !record.started {
        return Err(RoomError::NotStarted);
    }
    if record.result.is_some() || game.is_over() {
        return Err(SessionError::GameOver.into());
    }
    Ok(())
}

/// Applies a due clock flag: the seat to move loses on time. True if it did.
pub fn settle(
    record: &mut RoomRecord,
    game: &mut Option<Game>,
    now: u64,
) -> Result<bool, RoomError> {
    let Some(current) = game.as_ref() else {
        return Ok(false);
    };
    if !record.started || record.result.is_some() || current.is_over() {
        return Ok(false);
    }
    // A first move that never came ends the game without a result (before any flag falls).
    if crate::first_move::abort_if_due(record, now) {
        return Ok(true);
    }
    let seat = current.to_move();
    match clocks::flag_deadline(record, seat) {
        Some(deadline) if now >= deadline => {
            if let Some(clock) = record.clocks.get_mut(usize::from(seat)) {
                clock.main_ms = 0;
                clock.periods = 0;
            }
            end_by_resignation(record, game, seat, Some("time"))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Ends the game as if `seat` resigned (a resignation, or a time loss with `reason` "time").
fn end_by_resignation(
    record: &mut RoomRecord,
    game: &mut Option<Game>,
    seat: u8,
    reason: Option<&str>,
) -> Result<(), RoomError> {
    record.resigned = Some(seat);
    Game::sync(game, record)?;
    let outcome = game.as_ref().and_then(|g| g.current.outcome);
    record.result = outcome.map(|o| result_of(o, reason, seat));
    record.turn_started_at = None;
    Ok(())
}

fn result_of(outcome: OutcomeView, reason: Option<&str>, flagged: u8) -> RoomResult {
    let rules_reason = serde_json::to_value(outcome.reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "unknown".into());
    RoomResult {
        winner: outcome.winner,
        flagged: reason.map(|_| flagged),
        reason: reason.map(str::to_string).unwrap_or(rules_reason),
        ratings: None,
    }
}

/// Plays `text` for `seat` (a human's move when `by_cpu` is false) at `now`.
pub fn play_move(
    record: &mut RoomRecord,
    game: &mut Option<Game>,
    seat: u8,
    text: &str,
    ply: Option<usize>,
    now: u64,
) -> Result<(), RoomError> {
    let current = game.as_mut().ok_or(RoomError::Busy)?;
    ensure_in_play(record, current)?;
    if let Some(expected) = ply {
        if expected != current.ply() {
            return Err(RoomError::StalePly {
                expected,
                actual: current.ply(),
            });
        }
    }
    if current.to_move() != seat {
        return Err(RoomError::NotYourTurn);
    }
    let info = current.session.play_move(text)?;
    current.moves.push(info.text.clone());
    current.refresh();
    record.moves.push(info.text);
    record.redo.clear();
    let plies = record.moves.len();
    record.offers.after_move(seat, plies);
    if let (Some(settings), Some(started)) = (record.clock, record.turn_started_at) {
        let index = usize::from(seat);
        if let Some(clock) = record.clocks.get(index).copied() {
            // `settle` ran first at the same `now`, so the clock has time left.
            if let Some(left) = clocks::charge(settings, clock, now.saturating_sub(started)) {
                record.clocks[index] = left;
            }
        }
        record.turn_started_at = Some(now);
    }
    if let Some(outcome) = current.current.outcome {
        record.result = Some(result_of(outcome, None, seat));
        record.turn_started_at = None;
    }
    Ok(())
}

/// `seat` resigns the game in play.
pub fn resign(record: &mut RoomRecord, game: &mut Option<Game>, seat: u8) -> Result<(), RoomError> {
    let current = game.as_ref().ok_or(RoomError::Busy)?;
    ensure_in_play(record, current)?;
    end_by_resignation(record, game, seat, None)
}

/// The move the CPU (at the room's level; expert thinking `movetime`) picks for the seat to move
/// (slow: call it off the async threads).
pub fn cpu_choice(
    record: &RoomRecord,
    seat: u8,
    movetime: MoveTime,
) -> Result<Option<String>, RoomError> {
    let mut session = replay(record, Some(seat))?;
    let turn = session.begin_cpu_turn()?.with_movetime(movetime);
    // Each CPU move gets a context of its own: rooms keep no search state between moves.
    Ok(turn.think(&SearchContext::new()).map(|info| info.text))
}
