//! Session-layer tests on a toy game (`toy`), so they hold whatever the real rules do.

mod cpu;
mod games_played;
mod hint;
mod resign;
mod review;
mod save;
mod saved_list;
mod setup;
mod toy;
mod undo;

use super::{Mode, Session};
use crate::search::Level;

fn local(players: u8) -> Session {
    Session::from_game("t".into(), toy::new_game(players), Mode::Local).expect("local session")
}

fn vs_cpu(players: u8, human_seats: &[u8]) -> Session {
    let mode = Mode::Cpu {
        level: Level::Easy,
        human_seats: human_seats.to_vec(),
    };
    Session::from_game("t".into(), toy::new_game(players), mode).expect("cpu session")
}

/// The moves played so far, in notation.
fn moves(session: &Session) -> Vec<String> {
    session
        .game()
        .history()
        .into_iter()
        .map(|m| m.text)
        .collect()
}
