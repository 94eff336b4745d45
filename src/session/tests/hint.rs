use super::{local, toy, vs_cpu};
use crate::search::SearchContext;
use crate::session::SessionError;

#[test]
fn a_hint_is_a_legal_move_not_played_and_counted_with_the_game() {
    let mut session = vs_cpu(2, &[0]);
    let legal = session.game().legal_moves();
    let before = session.game().position_text();
    let turn = session.begin_hint().unwrap();
    let chosen = turn.think(&SearchContext::new());
    let hint = session.finish_hint(&turn, chosen).unwrap();
    assert!(legal.contains(&hint), "{hint:?}");
    assert_eq!(
        session.game().position_text(),
        before,
        "the hint is not played"
    );
    assert_eq!(session.hints(), 1);
    assert_eq!(session.view().hints, 1);
    // Kept with the game.
    let restored = session.to_save().restore_with(&toy::factory).unwrap();
    assert_eq!(restored.hints(), 1);
}

#[test]
fn a_hint_for_a_changed_game_is_dropped_uncounted() {
    let mut session = vs_cpu(2, &[0]);
    let turn = session.begin_hint().unwrap();
    session.play_move("take1").unwrap();
    let chosen = turn.think(&SearchContext::new());
    assert_eq!(
        session.finish_hint(&turn, chosen),
        Err(SessionError::Cancelled)
    );
    assert_eq!(session.hints(), 0);
}

#[test]
fn no_hint_on_one_device_nor_for_the_cpu_seat() {
    let mut session = local(2);
    assert!(matches!(
        session.begin_hint(),
        Err(SessionError::BadInput(_))
    ));
    let mut session = vs_cpu(2, &[1]);
    assert!(matches!(
        session.begin_hint(),
        Err(SessionError::NotYourTurn(_))
    ));
}
