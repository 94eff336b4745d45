//! The count of games finished against the CPU: reported once per game, handed to every session of
//! the kind, and passed on to the search (the easy level is gentler in the first games).

use super::{local, toy, vs_cpu};
use crate::catalogue;
use crate::position::{GameKind, Variant};
use crate::search::SearchContext;
use crate::search::{Level, Player};
use crate::session::{Mode, SavedSession, Session, Sessions};
use std::sync::atomic::AtomicBool;

/// Plays the human seats' "take1" and the CPU's moves until the game ends.
fn play_out(session: &mut Session) {
    while !session.is_over() {
        if session.cpu_to_move() {
            session.play_cpu_move(&SearchContext::new()).unwrap();
        } else {
            session.play_move("take1").unwrap();
        }
    }
}

#[test]
fn a_game_against_the_cpu_reports_its_end_once() {
    let mut session = vs_cpu(2, &[0]);
    assert!(!session.take_first_finish(), "not over yet");
    play_out(&mut session);
    assert!(session.take_first_finish());
    assert!(!session.take_first_finish());
}

#[test]
fn an_end_replayed_after_undo_is_not_reported_again() {
    let mut session = vs_cpu(2, &[0]);
    play_out(&mut session);
    assert!(session.take_first_finish());
    session.undo().unwrap();
    assert!(!session.is_over());
    assert!(!session.take_first_finish());
    session.redo().unwrap();
    assert!(session.is_over());
    assert!(!session.take_first_finish());
}

#[test]
fn the_mark_survives_a_save_and_reload() {
    let mut session = vs_cpu(2, &[0]);
    play_out(&mut session);
    assert!(session.take_first_finish());
    session.undo().unwrap();
    let value = session.to_save().to_json();
    assert_eq!(value["finish_counted"], true);
    let mut loaded = SavedSession::from_json(&value)
        .and_then(|record| record.restore_with(&toy::factory))
        .unwrap();
    loaded.redo().unwrap();
    assert!(loaded.is_over());
    assert!(!loaded.take_first_finish());
}

#[test]
fn a_record_without_the_mark_loads_as_not_counted() {
    let mut session = vs_cpu(2, &[0]);
    play_out(&mut session);
    let mut value = session.to_save().to_json();
    value
        .as_object_mut()
        .unwrap()
        .remove("finish_counted")
        .unwrap();
    let mut loaded = SavedSession::from_json(&value)
        .and_then(|record| record.restore_with(&toy::factory))
        .unwrap();
    assert!(loaded.take_first_finish());
}

#[test]
fn a_resignation_against_the_cpu_is_reported() {
    let mut session = vs_cpu(3, &[0]);
    session.play_move("take2").unwrap();
    assert!(!session.take_first_finish());
    session.resign().unwrap();
    assert!(session.take_first_finish());
    assert!(!session.take_first_finish());
}

#[test]
fn pass_and_play_games_are_never_reported() {
    let mut session = local(2);
    while !session.is_over() {
        session.play_move("take1").unwrap();
    }
    assert!(!session.take_first_finish());
    let mut session = local(3);
    session.resign().unwrap();
    assert!(!session.take_first_finish());
}

#[test]
fn sessions_hand_the_count_to_the_games_of_its_kind() {
    let mut sessions = Sessions::new();
    // The toy game borrows the capture game's variant.
    let toy_kind = toy::variant(2).kind;
    assert_eq!(toy_kind, GameKind::Capture);
    let mut first = vs_cpu(2, &[0]);
    first.id = "first".into();
    assert_eq!(first.games_played(), None);
    assert_eq!(sessions.insert(first).games_played(), Some(0));

    sessions.set_games_played(toy_kind, 4);
    sessions.set_games_played(GameKind::Turkish, 9);
    assert_eq!(sessions.get("first").unwrap().games_played(), Some(4));
    assert_eq!(sessions.count_finished_game(toy_kind), 5);
    assert_eq!(sessions.get("first").unwrap().games_played(), Some(5));
    assert_eq!(sessions.games_played(GameKind::Turkish), 9);
    assert_eq!(sessions.games_played(GameKind::English), 0);

    let mut second = vs_cpu(3, &[0]);
    second.id = "second".into();
    assert_eq!(sessions.insert(second).games_played(), Some(5));

    let english = Variant::new(GameKind::English, None, false).unwrap();
    let game = catalogue::new_game(english, None).unwrap();
    let mode = Mode::Cpu {
        level: Level::Easy,
        human_seats: vec![0],
    };
    let mut third = Session::from_game("third".into(), game, mode).unwrap();
    third.set_games_played(Some(77));
    assert_eq!(sessions.insert(third).games_played(), Some(0));
    sessions.count_finished_game(toy_kind);
    assert_eq!(sessions.get("third").unwrap().games_played(), Some(0));
}

/// An English game against the easy CPU, which plays black and so moves first.
fn english_vs_easy(seed: u64, games_played: Option<u32>) -> Session {
    let english = Variant::new(GameKind::English, None, false).unwrap();
    let game = catalogue::new_game(english, None).unwrap();
    let mode = Mode::Cpu {
        level: Level::Easy,
        human_seats: vec![1],
    };
    let mut session = Session::from_game("t".into(), game, mode).unwrap();
    session.seed = seed;
    session.set_games_played(games_played);
    session
}

#[test]
fn the_cpu_turn_passes_the_count_to_the_search() {
    let stop = AtomicBool::new(false);
    let start = english_vs_easy(0, None);
    let pick = |seed: u64, games: Option<u32>| {
        start
            .game()
            .decide(
                Player::Cpu(Level::Easy),
                seed,
                games,
                &stop,
                &SearchContext::new(),
            )
            .unwrap()
            .info
    };
    // A seed on which the easy level slips with a beginner (a 45 % chance, twice the margin) but
    // not with a regular (25 %).
    let seed = (0..200)
        .find(|&seed| pick(seed, Some(0)) != pick(seed, Some(10)))
        .expect("a seed where a beginner gets another move");
    let beginner = pick(seed, Some(0));
    let regular = pick(seed, Some(10));

    let mut session = english_vs_easy(seed, Some(0));
    assert_eq!(
        session.play_cpu_move(&SearchContext::new()).unwrap(),
        beginner
    );
    let mut session = english_vs_easy(seed, Some(10));
    assert_eq!(
        session.play_cpu_move(&SearchContext::new()).unwrap(),
        regular
    );
    // Unknown (a session outside the app): played as against a regular.
    let mut session = english_vs_easy(seed, None);
    assert_eq!(
        session.play_cpu_move(&SearchContext::new()).unwrap(),
        regular
    );

    // Through `Sessions`, as the app does it: the count of the game's kind replaces the session's.
    for (count, expected) in [(10, &regular), (2, &beginner)] {
        let mut sessions = Sessions::new();
        sessions.set_games_played(GameKind::English, count);
        sessions.set_games_played(GameKind::Turkish, 50 - count);
        sessions.insert(english_vs_easy(seed, Some(50 - count)));
        let played = sessions
            .get_mut("t")
            .unwrap()
            .play_cpu_move(&SearchContext::new())
            .unwrap();
        assert_eq!(&played, expected, "{count} games played");
    }
}
