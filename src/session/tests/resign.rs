use super::{local, toy, vs_cpu};
use crate::position::{EndReason, Outcome};
use crate::search::SearchContext;
use crate::session::{OutcomeView, SessionError};

#[test]
fn two_seats_local_the_seat_to_move_resigns_and_the_other_wins() {
    let mut session = local(2);
    session.play_move("take1").unwrap();
    let outcome = session.resign().unwrap();
    assert_eq!(outcome, Outcome::win(0, EndReason::Resignation));
    assert_eq!(session.outcome(), Some(outcome));
    let view = session.view();
    assert_eq!(
        view.outcome,
        Some(OutcomeView {
            winner: Some(0),
            reason: EndReason::Resignation
        })
    );
    assert!(view.legal_moves.is_empty());
    assert!(!view.can_undo && !view.can_redo);
}

#[test]
fn vs_cpu_the_human_resigns_even_while_the_cpu_is_to_move() {
    let mut session = vs_cpu(2, &[1]);
    assert!(session.cpu_to_move());
    let turn = session.begin_cpu_turn().unwrap();
    let outcome = session.resign().unwrap();
    assert_eq!(outcome, Outcome::win(0, EndReason::Resignation));
    assert_eq!(session.resigned(), Some(1));
    let chosen = turn.think(&SearchContext::new());
    assert_eq!(
        session.finish_cpu_turn(&turn, chosen),
        Err(SessionError::Cancelled)
    );
}

#[test]
fn three_seats_resignation_follows_the_games_rule() {
    // Seats 0 and 1 take one stone each, seat 2 takes two; seat 0 resigns. The trait's default
    // would name the next seat (1); the toy's rule gives the win to the other seat that took
    // most (2), so the session must ask the game.
    let mut session = local(3);
    for text in ["take1", "take1", "take2"] {
        session.play_move(text).unwrap();
    }
    assert_eq!(session.game().to_move(), 0);
    assert_eq!(
        session.resign().unwrap(),
        Outcome::win(2, EndReason::Resignation)
    );
    assert_eq!(session.resigned(), Some(0));
}

#[test]
fn after_resigning_nothing_more_is_played_or_undone() {
    let mut session = local(2);
    session.play_move("take1").unwrap();
    session.resign().unwrap();
    let before = session.view();
    assert_eq!(session.play_move("take1"), Err(SessionError::GameOver));
    assert_eq!(session.undo(), Err(SessionError::GameOver));
    assert_eq!(session.redo(), Err(SessionError::GameOver));
    assert_eq!(session.resign(), Err(SessionError::GameOver));
    assert_eq!(session.view(), before);
}

#[test]
fn resigning_an_ended_game_is_refused() {
    let mut session = local(2);
    for _ in 0..toy::START_STONES {
        session.play_move("take1").unwrap();
    }
    assert_eq!(session.resign(), Err(SessionError::GameOver));
    assert_eq!(session.resigned(), None);
}
