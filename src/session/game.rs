//! The session of one game: its record, seats, undo/redo and the CPU's turn. The save format,
//! the views and the import/export live in sibling modules.

use super::error::SessionError;
use super::setup::{GameSetup, Mode};
use crate::catalogue;
use crate::describe::MoveInfo;
use crate::position::{Outcome, Seat};
use crate::search::levels::MoveTime;
use crate::search::{Level, Playable, Player, SearchContext};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// A move played, by whom, in the game's notation (the text its `parse_move` reads back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Played {
    pub(super) seat: Seat,
    pub(super) text: String,
}

/// One game in progress or finished.
#[derive(Debug)]
pub struct Session {
    pub(super) id: String,
    pub(super) game: Box<dyn Playable>,
    /// The moves of `game`, with their seats.
    pub(super) played: Vec<Played>,
    /// Undone moves, the next one to redo last.
    pub(super) redo: Vec<Played>,
    pub(super) mode: Mode,
    pub(super) resigned: Option<Seat>,
    /// The CPU's seed (its moves vary between games, yet replay the same within one).
    pub(super) seed: u64,
    /// Games the human(s) finished against the CPU in this game kind before, when the app knows
    /// (not saved with the game: the app keeps the count).
    pub(super) games_played: Option<u32>,
    /// Whether this game's end against the CPU has been reported (saved with the game).
    pub(super) finish_counted: bool,
    /// Hints given in this game (saved with it).
    pub(super) hints: u32,
    /// The tags an imported game was read with, in their order (saved with it; none for a game
    /// started here).
    pub(super) tags: Vec<(String, String)>,
    pub(super) created: u64,
    pub(super) last_played: u64,
    /// Bumped by every change of the game.
    pub(super) version: u64,
    /// The stop flag of the CPU move being computed, if any.
    pub(super) thinking: Option<Arc<AtomicBool>>,
}

/// What a CPU seat needs to think off the session's lock: a copy of the game, and the flag that
/// stops it.
#[derive(Debug)]
pub struct CpuTurn {
    pub(super) game: Box<dyn Playable>,
    pub(super) level: Level,
    /// Expert's thinking time (the app's setting; the other levels ignore it).
    pub(super) movetime: MoveTime,
    pub(super) seed: u64,
    pub(super) games_played: Option<u32>,
    pub(super) version: u64,
    pub(super) stop: Arc<AtomicBool>,
}

impl CpuTurn {
    /// The same turn with expert thinking `movetime` (default [`MoveTime::DEFAULT`]).
    pub fn with_movetime(self, movetime: MoveTime) -> CpuTurn {
        CpuTurn { movetime, ..self }
    }

    /// Runs the search (slow: call it off the UI thread), keeping expert's state in the
    /// caller's `context`. `None` when stopped or without moves.
    pub fn think(&self, context: &SearchContext) -> Option<MoveInfo> {
        self.game
            .decide(
                Player::at_level(self.level, self.movetime),
                self.seed,
                self.games_played,
                &self.stop,
                context,
            )
            .map(|decision| decision.info)
    }

    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Session {
    /// A new game as `setup` asks, from the standard start or the given position.
    pub fn new(id: String, setup: &GameSetup) -> Result<Session, SessionError> {
        let (variant, mode) = setup.validate()?;
        let game = catalogue::new_game(variant, setup.position.as_deref())?;
        Session::from_game(id, game, mode)
    }

    /// A session over a game that has no moves yet.
    pub fn from_game(
        id: String,
        game: Box<dyn Playable>,
        mode: Mode,
    ) -> Result<Session, SessionError> {
        if game.ply() != 0 {
            return Err(SessionError::BadInput(
                "a session starts from a game without moves".into(),
            ));
        }
        mode.check(game.seats())?;
        let now = unix_ms();
        Ok(Session {
            id,
            game,
            played: Vec::new(),
            redo: Vec::new(),
            mode,
            resigned: None,
            seed: now ^ 0x9e37_79b9_7f4a_7c15,
            games_played: None,
            finish_counted: false,
            hints: 0,
            tags: Vec::new(),
            created: now,
            last_played: now,
            version: 0,
            thinking: None,
        })
    }

    /// A new game with the same variant, start and mode, the human seats moved one place on.
    pub fn rematch(&self, id: String) -> Result<Session, SessionError> {
        let game = catalogue::new_game(self.game.variant(), Some(&self.game.start_text()))?;
        Session::from_game(id, game, self.mode.rotated(self.game.seats()))
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn game(&self) -> &dyn Playable {
        self.game.as_ref()
    }

    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    pub fn resigned(&self) -> Option<Seat> {
        self.resigned
    }

    pub fn created(&self) -> u64 {
        self.created
    }

    pub fn last_played(&self) -> u64 {
        self.last_played
    }

    /// Games the human(s) finished against the CPU in this game kind, as the app last told.
    pub fn games_played(&self) -> Option<u32> {
        self.games_played
    }

    /// Tells the CPU how many games the human(s) finished against it in this game kind (`None`:
    /// unknown, played as against a regular).
    pub fn set_games_played(&mut self, games: Option<u32>) {
        self.games_played = games;
    }

    /// True once per game: the first time it is over against the CPU (a win, a loss, a draw or a
    /// resignation). The mark is kept and saved, so an end replayed by redo, or reached again after
    /// an undo, is not reported twice. Pass-and-play games are never reported.
    pub fn take_first_finish(&mut self) -> bool {
        let first = !self.finish_counted && self.is_over() && matches!(self.mode, Mode::Cpu { .. });
        self.finish_counted |= first;
        first
    }

    /// Who moved at each ply.
    pub fn movers(&self) -> impl Iterator<Item = Seat> + '_ {
        self.played.iter().map(|p| p.seat)
    }

    /// The end: a resignation, else the game's own verdict.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.resigned {
            Some(seat) => Some(self.game.resignation_outcome(seat)),
            None => self.game.outcome(),
        }
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    pub fn is_human(&self, seat: Seat) -> bool {
        self.mode.is_human(seat)
    }

    /// Whether the CPU should move now.
    pub fn cpu_to_move(&self) -> bool {
        !self.is_over() && !self.is_human(self.game.to_move())
    }

    /// Plays a human seat's move.
    pub fn play_move(&mut self, text: &str) -> Result<MoveInfo, SessionError> {
        self.ensure_playing()?;
        let seat = self.game.to_move();
        if !self.is_human(seat) {
            return Err(self.not_your_turn(seat));
        }
        let info = self.game.play(text)?;
        self.record_move(seat, &info);
        self.redo.clear();
        Ok(info)
    }

    /// Starts the CPU's turn: a copy of the game to think on. Cancels an earlier turn still
    /// thinking.
    pub fn begin_cpu_turn(&mut self) -> Result<CpuTurn, SessionError> {
        self.ensure_playing()?;
        let seat = self.game.to_move();
        let Some(level) = self.mode.level().filter(|_| !self.is_human(seat)) else {
            return Err(SessionError::NotYourTurn(format!(
                "{} is a human seat, not the CPU",
                self.game.seat_name(seat)
            )));
        };
        Ok(self.start_thinking(level, self.seed, self.games_played))
    }

    /// A copy of the game for `level` to think on, the one turn that may finish (an earlier one
    /// still thinking is cancelled).
    fn start_thinking(&mut self, level: Level, seed: u64, games_played: Option<u32>) -> CpuTurn {
        self.cancel_cpu();
        let stop = Arc::new(AtomicBool::new(false));
        self.thinking = Some(Arc::clone(&stop));
        CpuTurn {
            game: self.game.clone_box(),
            level,
            movetime: MoveTime::DEFAULT,
            seed,
            games_played,
            version: self.version,
            stop,
        }
    }

    /// [`Session::begin_cpu_turn`] for a request made when the game had `seen_ply` plies. A request
    /// that an undo, redo or resign overtook on its way (the UI sends both at once; the backend may
    /// take them in either order) finds another ply and is `Cancelled`, game unchanged, instead of
    /// thinking for a position nobody asked about or failing with `NotYourTurn`.
    pub fn begin_cpu_turn_seen(&mut self, seen_ply: usize) -> Result<CpuTurn, SessionError> {
        if seen_ply != self.game.ply() {
            return Err(SessionError::Cancelled);
        }
        self.begin_cpu_turn()
    }

    /// Ends `turn`'s thinking: `Cancelled` if the game changed or the turn was stopped meanwhile.
    fn end_thinking(&mut self, turn: &CpuTurn) -> Result<(), SessionError> {
        if turn.version != self.version || turn.stop.load(Ordering::SeqCst) {
            return Err(SessionError::Cancelled);
        }
        self.thinking = None;
        Ok(())
    }

    /// Plays the move the CPU chose on `turn`, unless the game changed or the turn was stopped
    /// meanwhile (then `Cancelled`, game unchanged).
    pub fn finish_cpu_turn(
        &mut self,
        turn: &CpuTurn,
        chosen: Option<MoveInfo>,
    ) -> Result<MoveInfo, SessionError> {
        self.end_thinking(turn)?;
        self.ensure_playing()?;
        let chosen = chosen.ok_or(SessionError::GameOver)?;
        let seat = self.game.to_move();
        let info = self.game.play(&chosen.text)?;
        self.record_move(seat, &info);
        self.redo.clear();
        Ok(info)
    }

    /// The CPU's move, computed on this thread (tests, the command line).
    pub fn play_cpu_move(&mut self, context: &SearchContext) -> Result<MoveInfo, SessionError> {
        let turn = self.begin_cpu_turn()?;
        let chosen = turn.think(context);
        self.finish_cpu_turn(&turn, chosen)
    }

    /// Hints given in this game.
    pub fn hints(&self) -> u32 {
        self.hints
    }

    /// Starts a hint for the human to move against the CPU: the hard CPU thinks on a copy of the
    /// game, for that seat. Local games get no hint (`BadInput`); nor does a CPU seat to move.
    pub fn begin_hint(&mut self) -> Result<CpuTurn, SessionError> {
        self.ensure_playing()?;
        if !matches!(self.mode, Mode::Cpu { .. }) {
            return Err(SessionError::BadInput(
                "hints are given in games against the CPU".into(),
            ));
        }
        let seat = self.game.to_move();
        if !self.is_human(seat) {
            return Err(SessionError::NotYourTurn(format!(
                "{} is played by the CPU",
                self.game.seat_name(seat)
            )));
        }
        // The hard level ignores the games played; a hint is the best move found, not a gentle one.
        Ok(self.start_thinking(Level::Hard, self.seed.rotate_left(17), None))
    }

    /// The hint's move, counted with the game, unless the game changed meanwhile (`Cancelled`).
    /// The move is not played: the player still confirms it.
    pub fn finish_hint(
        &mut self,
        turn: &CpuTurn,
        chosen: Option<MoveInfo>,
    ) -> Result<MoveInfo, SessionError> {
        self.end_thinking(turn)?;
        let chosen = chosen.ok_or(SessionError::GameOver)?;
        self.hints += 1;
        Ok(chosen)
    }

    /// Stops a CPU move being computed; its result will be discarded.
    pub fn cancel_cpu(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Plies the next undo takes back: one in local play; vs the CPU, back to before the last
    /// human move (the CPU's replies with it). `None` when there is nothing to undo.
    pub(super) fn undo_span(&self) -> Option<usize> {
        if self.resigned.is_some() {
            return None;
        }
        let last_human = self.played.iter().rposition(|p| self.is_human(p.seat))?;
        Some(self.played.len() - last_human)
    }

    pub fn can_undo(&self) -> bool {
        self.undo_span().is_some()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Whether a move was ever played in this game (one on the board or one to redo). A game
    /// without one is not worth keeping: it is not listed and a new game replaces it.
    pub fn has_moves(&self) -> bool {
        self.game().ply() > 0 || self.can_redo()
    }

    /// Takes back moves (see [`Session::undo_span`]). A resignation is final: undo then fails with
    /// `GameOver`.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if self.resigned.is_some() {
            return Err(SessionError::GameOver);
        }
        let span = self.undo_span().ok_or(SessionError::NothingToUndo)?;
        self.cancel_cpu();
        for _ in 0..span {
            match self.played.pop() {
                Some(played) if self.game.undo() => self.redo.push(played),
                _ => break,
            }
        }
        self.touch();
        Ok(())
    }

    /// Replays what the last undo took back: one move in local play; vs the CPU the human move and
    /// the CPU replies that followed it.
    pub fn redo(&mut self) -> Result<(), SessionError> {
        self.ensure_playing()?;
        let first = self.redo.pop().ok_or(SessionError::NothingToRedo)?;
        self.cancel_cpu();
        self.replay(first)?;
        if matches!(self.mode, Mode::Cpu { .. }) {
            while let Some(next) = self.redo.pop() {
                if self.is_human(next.seat) {
                    self.redo.push(next);
                    break;
                }
                self.replay(next)?;
            }
        }
        Ok(())
    }

    /// Resigns for a human seat: the one to move, else (the CPU thinking) the first human seat.
    pub fn resign(&mut self) -> Result<Outcome, SessionError> {
        self.ensure_playing()?;
        let to_move = self.game.to_move();
        let seat = if self.is_human(to_move) {
            to_move
        } else {
            self.mode
                .human_seats(self.game.seats())
                .first()
                .copied()
                .ok_or_else(|| self.not_your_turn(to_move))?
        };
        self.cancel_cpu();
        self.resigned = Some(seat);
        self.redo.clear();
        self.touch();
        Ok(self.game.resignation_outcome(seat))
    }

    pub(super) fn replay(&mut self, played: Played) -> Result<(), SessionError> {
        let info = self.game.play(&played.text)?;
        self.record_move(played.seat, &info);
        Ok(())
    }

    pub(super) fn record_move(&mut self, seat: Seat, info: &MoveInfo) {
        self.played.push(Played {
            seat,
            text: info.text.clone(),
        });
        self.touch();
    }

    pub(super) fn touch(&mut self) {
        self.version += 1;
        self.last_played = unix_ms().max(self.last_played);
    }

    pub(super) fn ensure_playing(&self) -> Result<(), SessionError> {
        if self.is_over() {
            Err(SessionError::GameOver)
        } else {
            Ok(())
        }
    }

    pub(super) fn not_your_turn(&self, seat: Seat) -> SessionError {
        SessionError::NotYourTurn(format!(
            "{} is played by the CPU",
            self.game.seat_name(seat)
        ))
    }
}
