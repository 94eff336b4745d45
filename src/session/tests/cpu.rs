use super::{local, vs_cpu};
use crate::search::SearchContext;
use crate::session::SessionError;

#[test]
fn a_human_cannot_move_for_the_cpu_and_the_game_is_unchanged() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take1").unwrap();
    let before = session.view();
    assert!(matches!(
        session.play_move("take1"),
        Err(SessionError::NotYourTurn(_))
    ));
    assert_eq!(session.view(), before);
}

#[test]
fn the_cpu_does_not_move_for_a_human() {
    let mut session = vs_cpu(2, &[0]);
    assert!(matches!(
        session.begin_cpu_turn(),
        Err(SessionError::NotYourTurn(_))
    ));
    let mut session = local(2);
    assert!(matches!(
        session.play_cpu_move(&SearchContext::new()),
        Err(SessionError::NotYourTurn(_))
    ));
}

#[test]
fn the_cpu_plays_a_legal_move_for_its_seat() {
    let mut session = vs_cpu(2, &[1]);
    let legal = session.game().legal_moves();
    let played = session.play_cpu_move(&SearchContext::new()).unwrap();
    assert!(legal.contains(&played));
    assert_eq!(session.movers().collect::<Vec<_>>(), [0]);
    assert!(!session.cpu_to_move());
}

#[test]
fn undo_while_thinking_cancels_the_cpu_move() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take1").unwrap();
    let turn = session.begin_cpu_turn().unwrap();
    let stop = turn.stop_flag();
    session.undo().unwrap();
    assert!(stop.load(std::sync::atomic::Ordering::SeqCst));
    let chosen = turn.think(&SearchContext::new());
    let before = session.view();
    assert_eq!(
        session.finish_cpu_turn(&turn, chosen),
        Err(SessionError::Cancelled)
    );
    assert_eq!(session.view(), before);
    assert_eq!(session.game().ply(), 0);
}

#[test]
fn a_cpu_request_overtaken_by_an_undo_is_cancelled_and_starts_nothing() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take1").unwrap();
    // The UI asked for the CPU's move at ply 1 and then for an undo; the undo was taken first.
    session.undo().unwrap();
    let before = session.view();
    assert!(matches!(
        session.begin_cpu_turn_seen(1),
        Err(SessionError::Cancelled)
    ));
    assert_eq!(session.view(), before);
    // Redone, the game is at ply 1 again and the same request starts the CPU's turn.
    session.redo().unwrap();
    let turn = session.begin_cpu_turn_seen(1).unwrap();
    let chosen = turn.think(&SearchContext::new());
    assert!(session.finish_cpu_turn(&turn, chosen).is_ok());
    assert_eq!(session.game().ply(), 2);
}

#[test]
fn a_stale_turn_is_cancelled_even_if_its_flag_was_not_seen() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take1").unwrap();
    let first = session.begin_cpu_turn().unwrap();
    let second = session.begin_cpu_turn().unwrap();
    let chosen = first.think(&SearchContext::new());
    assert_eq!(
        session.finish_cpu_turn(&first, chosen),
        Err(SessionError::Cancelled)
    );
    let chosen = second.think(&SearchContext::new());
    assert!(session.finish_cpu_turn(&second, chosen).is_ok());
    assert_eq!(session.game().ply(), 2);
}

#[test]
fn the_cpu_finishes_a_game_and_then_stops() {
    let mut session = vs_cpu(3, &[0]);
    while !session.is_over() {
        if session.cpu_to_move() {
            session.play_cpu_move(&SearchContext::new()).unwrap();
        } else {
            session.play_move("take1").unwrap();
        }
    }
    let view = session.view();
    assert!(view.legal_moves.is_empty());
    assert!(!view.cpu_to_move);
    assert!(view.outcome.is_some());
    assert_eq!(
        session.play_cpu_move(&SearchContext::new()),
        Err(SessionError::GameOver)
    );
}
