//! The games the app holds, by id, and how many games the human(s) finished against the CPU in
//! each game kind (handed to every session of that kind for the CPU's easy level).

use super::error::SessionError;
use super::game::{unix_ms, Session};
use super::setup::GameSetup;
use super::view::SavedGame;
use crate::position::GameKind;
use rand::Rng;
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Sessions {
    games: HashMap<String, Session>,
    /// Games finished against the CPU, per game kind (absent: none).
    games_played: HashMap<GameKind, u32>,
}

impl Sessions {
    pub fn new() -> Sessions {
        Sessions::default()
    }

    /// An id unlikely to meet another one: the time and a random suffix.
    pub fn fresh_id(&self) -> String {
        let mut rng = rand::thread_rng();
        loop {
            let id = format!("g{:x}-{:04x}", unix_ms(), rng.gen::<u16>());
            if !self.games.contains_key(&id) {
                return id;
            }
        }
    }

    pub fn create(&mut self, setup: &GameSetup) -> Result<&Session, SessionError> {
        let session = Session::new(self.fresh_id(), setup)?;
        Ok(self.insert(session))
    }

    /// A rematch of game `id` (see [`Session::rematch`]).
    pub fn rematch(&mut self, id: &str) -> Result<&Session, SessionError> {
        let session = self.get(id)?.rematch(self.fresh_id())?;
        Ok(self.insert(session))
    }

    /// Games the human(s) finished against the CPU in `kind`.
    pub fn games_played(&self, kind: GameKind) -> u32 {
        self.games_played.get(&kind).copied().unwrap_or(0)
    }

    /// Sets the count of games finished against the CPU in `kind` (the app's stored figure), for
    /// the games held and those to come.
    pub fn set_games_played(&mut self, kind: GameKind, games: u32) {
        self.games_played.insert(kind, games);
        for session in self.games.values_mut() {
            if session.game().variant().kind == kind {
                session.set_games_played(Some(games));
            }
        }
    }

    /// One more game finished against the CPU in `kind`; returns the new count.
    pub fn count_finished_game(&mut self, kind: GameKind) -> u32 {
        let games = self.games_played(kind).saturating_add(1);
        self.set_games_played(kind, games);
        games
    }

    /// Adds a session, replacing one with the same id. It gets the count of games finished
    /// against the CPU in its kind.
    pub fn insert(&mut self, mut session: Session) -> &Session {
        session.set_games_played(Some(self.games_played(session.game().variant().kind)));
        let id = session.id().to_string();
        if let Some(mut old) = self.games.insert(id.clone(), session) {
            old.cancel_cpu();
        }
        &self.games[&id]
    }

    pub fn get(&self, id: &str) -> Result<&Session, SessionError> {
        self.games
            .get(id)
            .ok_or_else(|| SessionError::NoSuchGame(id.to_string()))
    }

    pub fn get_mut(&mut self, id: &str) -> Result<&mut Session, SessionError> {
        self.games
            .get_mut(id)
            .ok_or_else(|| SessionError::NoSuchGame(id.to_string()))
    }

    /// Removes a game, stopping its CPU move.
    pub fn remove(&mut self, id: &str) -> Result<Session, SessionError> {
        let mut session = self
            .games
            .remove(id)
            .ok_or_else(|| SessionError::NoSuchGame(id.to_string()))?;
        session.cancel_cpu();
        Ok(session)
    }

    /// Stops every CPU move (the app is quitting).
    pub fn cancel_all(&mut self) {
        self.games.values_mut().for_each(Session::cancel_cpu);
    }

    /// The home screen's rows, last played first: the games with at least one move or an end (a
    /// game started and left at once is no saved game and is never listed).
    pub fn list(&self) -> Vec<SavedGame> {
        let mut rows: Vec<SavedGame> = self
            .games
            .values()
            .filter(|session| session.has_moves() || session.is_over())
            .map(Session::summary)
            .collect();
        rows.sort_by(|a, b| {
            b.last_played
                .cmp(&a.last_played)
                .then_with(|| b.id.cmp(&a.id))
        });
        rows
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}
