//! The list of saved games holds only games with a move; a new game takes the empty ones out.

use super::{local, toy};
use crate::session::{Mode, Session, Sessions};

fn session(id: &str) -> Session {
    Session::from_game(id.into(), toy::new_game(2), Mode::Local).expect("local session")
}

#[test]
fn a_game_without_a_move_is_not_listed() {
    let mut sessions = Sessions::new();
    sessions.insert(session("a"));
    assert!(sessions.list().is_empty());
    sessions.get_mut("a").unwrap().play_move("take1").unwrap();
    let ids: Vec<String> = sessions.list().into_iter().map(|row| row.id).collect();
    assert_eq!(ids, ["a"]);
}

#[test]
fn a_move_taken_back_still_counts_while_it_can_be_redone() {
    let mut game = local(2);
    assert!(!game.has_moves());
    game.play_move("take1").unwrap();
    assert!(game.has_moves());
    game.undo().unwrap();
    assert_eq!(game.game().ply(), 0);
    assert!(game.has_moves(), "the move can be redone");
}

#[test]
fn a_new_game_takes_out_the_other_empty_games_only() {
    let mut sessions = Sessions::new();
    sessions.insert(session("empty-1"));
    sessions.insert(session("played"));
    sessions.insert(session("empty-2"));
    sessions.insert(session("new"));
    sessions
        .get_mut("played")
        .unwrap()
        .play_move("take1")
        .unwrap();
    assert_eq!(sessions.take_empty_except("new"), ["empty-1", "empty-2"]);
    assert!(sessions.get("played").is_ok());
    assert!(sessions.get("new").is_ok());
    assert!(sessions.get("empty-1").is_err());
    assert_eq!(sessions.len(), 2);
}
