//! The session layer on the real games: games against the CPU played to their end, save → load
//! giving the same state, tampered records rejected. (The session's own rules — undo spans, resign,
//! cancellation — are unit-tested on a toy game in `src/session/tests`.)

use damas::search::SearchContext;
use damas::session::{GameSetup, SavedSession, Session, SessionError};
use serde_json::{json, Value};

const GAMES: [&str; 5] = ["english", "international", "turkish", "diamond", "capture"];

fn setup(kind: &str, human_seats: &[u8]) -> GameSetup {
    serde_json::from_value(json!({
        "variant": {"kind": kind},
        "mode": "cpu",
        "level": "easy",
        "human_seats": human_seats,
    }))
    .unwrap()
}

/// The human always plays its first legal move; the CPU its own. At most `plies` plies.
fn play(session: &mut Session, plies: usize) {
    let context = SearchContext::new();
    for _ in 0..plies {
        if session.is_over() {
            return;
        }
        if session.cpu_to_move() {
            session.play_cpu_move(&context).unwrap();
        } else {
            let text = session.game().legal_moves()[0].text.clone();
            session.play_move(&text).unwrap();
        }
    }
}

fn reload(session: &Session) -> Session {
    let text = serde_json::to_string(&session.to_save().to_json()).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    SavedSession::from_json(&value).unwrap().restore().unwrap()
}

#[test]
fn games_against_the_cpu_reach_their_end_and_reload_identically() {
    for kind in GAMES {
        let mut session = Session::new("g".into(), &setup(kind, &[0])).unwrap();
        play(&mut session, 30);
        assert_eq!(reload(&session).view(), session.view(), "{kind} mid-game");
        // Every game ends within its move or no-progress limits.
        play(&mut session, 5000);
        assert!(session.is_over(), "{kind} did not end");
        let view = session.view();
        assert!(view.legal_moves.is_empty() && !view.cpu_to_move);
        assert_eq!(reload(&session).view(), view, "{kind} finished");
        let any_move = json!(view.history[0].played.text);
        assert_eq!(
            session.play_move(any_move.as_str().unwrap()),
            Err(SessionError::GameOver)
        );
    }
}

#[test]
fn undo_against_the_cpu_keeps_the_cpu_opening_move() {
    for kind in GAMES {
        // The human plays seat 1: the CPU (seat 0) opens.
        let mut session = Session::new("g".into(), &setup(kind, &[1])).unwrap();
        play(&mut session, 3);
        let opening = session.view().history[0].clone();
        session.undo().unwrap();
        let view = session.view();
        assert_eq!(view.ply, 1, "{kind}");
        assert_eq!(view.history[0], opening);
        assert!(!view.can_undo && view.can_redo && !view.cpu_to_move);
        session.redo().unwrap();
        assert_eq!(session.view().ply, 3, "{kind}");
    }
}

#[test]
fn a_tampered_record_is_rejected() {
    for kind in GAMES {
        let mut session = Session::new("g".into(), &setup(kind, &[0])).unwrap();
        play(&mut session, 6);
        let good = session.to_save().to_json();
        // The first move twice: its piece has left the square. (Swapping two moves is not enough:
        // in the capture game pieces belong to nobody.)
        let mut repeated = good.clone();
        repeated["moves"][1] = good["moves"][0].clone();
        let mut garbage = good.clone();
        garbage["moves"][2] = json!("zz-99");
        let mut other_start = good.clone();
        other_start["start"] = json!("not a position");
        for tampered in [repeated, garbage, other_start] {
            let loaded = SavedSession::from_json(&tampered).and_then(|r| r.restore());
            assert!(
                matches!(loaded, Err(SessionError::BadSave(_))),
                "{kind}: {tampered}"
            );
        }
        assert!(SavedSession::from_json(&good).unwrap().restore().is_ok());
    }
}

#[test]
fn three_player_resignations_follow_the_seed_rules() {
    // Capture game, 3 players: of the others, the one with most captures wins; on a tie the first
    // to play after the resigner. Find a game where the two rules disagree (seat 2 ahead of 1).
    let local: GameSetup = serde_json::from_value(json!({
        "variant": {"kind": "capture", "players": 3}, "mode": "local"
    }))
    .unwrap();
    let mut session = Session::new("g".into(), &local).unwrap();
    let captures = |s: &Session, seat: usize| s.view().seats[seat].stats.captures.unwrap();
    // Seat 2 plays its longest capture, seats 0 and 1 their shortest.
    while !(session.game().to_move() == 0 && captures(&session, 2) > captures(&session, 1)) {
        assert!(!session.is_over(), "no position found");
        let moves = session.game().legal_moves();
        let seat = session.game().to_move();
        let choice = if seat == 2 {
            moves.iter().max_by_key(|m| m.jumps)
        } else {
            moves.iter().min_by_key(|m| m.jumps)
        };
        let text = choice.unwrap().text.clone();
        session.play_move(&text).unwrap();
    }
    let outcome = session.resign().unwrap();
    assert_eq!(outcome.result, damas::GameResult::Win(2));
    assert_eq!(session.view().outcome.unwrap().winner, Some(2));

    // Diamond, 3 players vs the CPU: the human (seat 0) resigns while a CPU is to move; one of the
    // other two wins.
    let mut session = Session::new("g".into(), &setup("diamond", &[0])).unwrap();
    play(&mut session, 4);
    assert!(session.cpu_to_move());
    let outcome = session.resign().unwrap();
    assert_eq!(session.resigned(), Some(0));
    assert!(matches!(outcome.result, damas::GameResult::Win(1 | 2)));
    assert_eq!(outcome.reason, damas::EndReason::Resignation);
}
