use super::{local, moves, vs_cpu};
use crate::search::SearchContext;
use crate::session::SessionError;

#[test]
fn local_undo_takes_back_one_ply_and_redo_replays_it() {
    let mut session = local(2);
    for text in ["take1", "take2", "take1"] {
        session.play_move(text).unwrap();
    }
    let before = session.game().position_text();
    session.undo().unwrap();
    assert_eq!(moves(&session), ["take1", "take2"]);
    assert_eq!(session.game().to_move(), 0);
    assert!(session.can_redo());
    session.redo().unwrap();
    assert_eq!(moves(&session), ["take1", "take2", "take1"]);
    assert_eq!(session.game().position_text(), before);
    assert!(!session.can_redo());
    assert_eq!(session.redo(), Err(SessionError::NothingToRedo));
}

#[test]
fn local_undo_to_the_start_then_nothing_to_undo() {
    let mut session = local(3);
    session.play_move("take2").unwrap();
    session.undo().unwrap();
    assert_eq!(session.game().ply(), 0);
    assert!(!session.can_undo());
    assert_eq!(session.undo(), Err(SessionError::NothingToUndo));
    assert_eq!(session.game().ply(), 0);
}

#[test]
fn a_new_move_after_undo_clears_redo() {
    let mut session = local(2);
    session.play_move("take1").unwrap();
    session.play_move("take1").unwrap();
    session.undo().unwrap();
    session.play_move("take2").unwrap();
    assert!(!session.can_redo());
    assert_eq!(moves(&session), ["take1", "take2"]);
}

#[test]
fn vs_cpu_undo_goes_back_to_before_the_human_move_with_the_cpu_reply() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take1").unwrap();
    let reply = session.play_cpu_move(&SearchContext::new()).unwrap();
    assert_eq!(session.game().ply(), 2);
    session.undo().unwrap();
    assert_eq!(session.game().ply(), 0);
    assert_eq!(session.game().to_move(), 0);
    assert!(!session.cpu_to_move());
    // Redo replays the human move and the CPU's reply, leaving the human to move.
    session.redo().unwrap();
    assert_eq!(moves(&session), vec!["take1".to_string(), reply.text]);
    assert!(!session.can_redo());
    assert!(!session.cpu_to_move());
}

#[test]
fn vs_cpu_undo_while_the_cpu_is_to_move_takes_back_the_human_move() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take2").unwrap();
    assert!(session.cpu_to_move());
    session.undo().unwrap();
    assert_eq!(session.game().ply(), 0);
}

#[test]
fn vs_cpu_with_three_seats_undo_takes_back_both_cpu_replies() {
    let mut session = vs_cpu(3, &[0]);
    session.play_move("take1").unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    session.play_move("take1").unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    let after_round_one: Vec<String> = moves(&session)[..3].to_vec();
    let all = moves(&session);

    session.undo().unwrap();
    assert_eq!(moves(&session), after_round_one);
    assert_eq!(session.game().to_move(), 0);
    session.undo().unwrap();
    assert_eq!(session.game().ply(), 0);
    assert_eq!(session.undo(), Err(SessionError::NothingToUndo));

    session.redo().unwrap();
    assert_eq!(moves(&session), after_round_one);
    session.redo().unwrap();
    assert_eq!(moves(&session), all);
    assert!(
        session.cpu_to_move(),
        "the CPU's second reply was never played"
    );
}

#[test]
fn vs_cpu_nothing_to_undo_when_only_the_cpu_has_moved() {
    let mut session = vs_cpu(2, &[1]);
    assert!(session.cpu_to_move());
    session.play_cpu_move(&SearchContext::new()).unwrap();
    assert!(!session.can_undo());
    assert_eq!(session.undo(), Err(SessionError::NothingToUndo));
    assert_eq!(session.game().ply(), 1);
}

#[test]
fn undo_is_allowed_after_the_game_ended_by_its_rules() {
    let mut session = local(2);
    for text in ["take2", "take2", "take2", "take2", "take2"] {
        session.play_move(text).unwrap();
    }
    assert!(session.is_over());
    assert_eq!(session.play_move("take1"), Err(SessionError::GameOver));
    session.undo().unwrap();
    assert!(!session.is_over());
    assert_eq!(session.game().ply(), 4);
}
