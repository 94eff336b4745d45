use super::{local, vs_cpu};
use crate::session::SessionError;

#[test]
fn the_view_at_each_ply_is_the_live_view_then_read_only() {
    let mut session = local(2);
    let mut live = vec![session.view()];
    for text in ["take2", "take1", "take2", "take1"] {
        session.play_move(text).unwrap();
        live.push(session.view());
    }
    for (ply, then) in live.iter().enumerate() {
        let review = session.view_at(ply).unwrap();
        assert_eq!(review.review_ply, Some(ply));
        assert_eq!(review.ply, ply);
        assert_eq!(review.to_move, then.to_move);
        assert_eq!(review.seats, then.seats, "ply {ply}");
        assert_eq!(review.history, then.history, "ply {ply}");
        assert!(review.legal_moves.is_empty(), "read-only at ply {ply}");
        assert!(!review.can_undo && !review.can_redo && !review.cpu_to_move);
    }
    // The review leaves the game as it was.
    assert_eq!(session.game().ply(), 4);
    assert_eq!(session.view().review_ply, None);
}

#[test]
fn the_end_shows_at_the_last_ply_only_and_a_resignation_counts() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take2").unwrap();
    session.resign().unwrap();
    let last = session.view_at(1).unwrap();
    assert_eq!(last.outcome, session.view().outcome);
    assert!(last.outcome.is_some());
    assert_eq!(session.view_at(0).unwrap().outcome, None);
}

#[test]
fn a_ply_past_the_last_move_is_rejected() {
    let mut session = local(2);
    session.play_move("take1").unwrap();
    assert!(matches!(session.view_at(2), Err(SessionError::BadInput(_))));
    assert_eq!(session.game().ply(), 1);
}
