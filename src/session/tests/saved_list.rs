//! The list of saved games holds only games with a move (or an end).

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
