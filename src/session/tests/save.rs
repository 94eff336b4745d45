use super::{local, toy, vs_cpu};
use crate::search::SearchContext;
use crate::session::{SavedSession, Session, SessionError, SAVE_FORMAT};
use serde_json::{json, Value};

/// Through JSON text, as the store keeps it.
fn round_trip(session: &Session) -> Session {
    let text = serde_json::to_string(&session.to_save().to_json()).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    SavedSession::from_json(&value)
        .and_then(|record| record.restore_with(&toy::factory))
        .unwrap()
}

fn assert_same(a: &Session, b: &Session) {
    assert_eq!(a.view(), b.view());
    assert_eq!(a.to_save(), b.to_save());
    assert_eq!(
        a.movers().collect::<Vec<_>>(),
        b.movers().collect::<Vec<_>>()
    );
    assert_eq!(a.game().position_text(), b.game().position_text());
}

#[test]
fn save_then_load_gives_the_same_session() {
    let mut session = vs_cpu(3, &[1]);
    session.play_cpu_move(&SearchContext::new()).unwrap();
    session.play_move("take2").unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    let loaded = round_trip(&session);
    assert_same(&session, &loaded);
    assert_eq!(loaded.created(), session.created());
    assert_eq!(loaded.last_played(), session.last_played());
}

#[test]
fn undone_moves_survive_a_reload_and_redo_the_same() {
    let mut session = vs_cpu(2, &[0]);
    session.play_move("take1").unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    session.play_move("take2").unwrap();
    session.play_cpu_move(&SearchContext::new()).unwrap();
    session.undo().unwrap();
    let mut loaded = round_trip(&session);
    assert_same(&session, &loaded);
    assert!(loaded.can_redo());
    session.redo().unwrap();
    loaded.redo().unwrap();
    assert_same(&session, &loaded);
}

#[test]
fn a_resignation_survives_a_reload() {
    let mut session = local(3);
    session.play_move("take1").unwrap();
    session.resign().unwrap();
    let loaded = round_trip(&session);
    assert_same(&session, &loaded);
    assert_eq!(loaded.resigned(), Some(1));
}

fn saved_json() -> Value {
    let mut session = local(2);
    session.play_move("take1").unwrap();
    session.play_move("take2").unwrap();
    session.to_save().to_json()
}

fn load(value: Value) -> Result<Session, SessionError> {
    SavedSession::from_json(&value)?.restore_with(&toy::factory)
}

fn assert_rejected(value: Value) {
    match load(value.clone()) {
        Err(SessionError::BadSave(_)) => {}
        other => panic!("{value} should be rejected, got {other:?}"),
    }
}

#[test]
fn the_untampered_record_loads() {
    let session = load(saved_json()).unwrap();
    assert_eq!(session.game().ply(), 2);
}

#[test]
fn an_illegal_move_in_the_record_is_rejected() {
    let mut value = saved_json();
    value["moves"][1] = json!("take3");
    assert_rejected(value);
}

#[test]
fn moves_after_the_end_are_rejected() {
    let mut value = saved_json();
    value["moves"] = json!(["take2", "take2", "take2", "take2", "take2", "take1"]);
    assert_rejected(value);
}

#[test]
fn an_illegal_undone_move_is_rejected() {
    let mut value = saved_json();
    value["redo"] = json!(["take1", "take9"]);
    assert_rejected(value);
}

#[test]
fn a_changed_start_position_is_checked() {
    let mut value = saved_json();
    value["start"] = json!("1/0/0,0");
    // Only one stone: the second recorded move cannot be played.
    assert_rejected(value.clone());
    value["start"] = json!("not a position");
    assert_rejected(value);
}

#[test]
fn bad_setup_fields_are_rejected() {
    for (field, bad) in [
        ("format", json!(SAVE_FORMAT + 1)),
        ("format", json!("one")),
        (
            "variant",
            json!({"kind": "capture", "players": 9, "long_jump": false}),
        ),
        ("variant", json!({"kind": "chess", "players": 2})),
        (
            "mode",
            json!({"type": "cpu", "level": "hard", "human_seats": [0, 1]}),
        ),
        (
            "mode",
            json!({"type": "cpu", "level": "extreme", "human_seats": [0]}),
        ),
        ("mode", json!({"type": "online"})),
        ("resigned", json!(4)),
        ("id", json!("")),
        ("moves", json!("take1")),
    ] {
        let mut value = saved_json();
        value[field] = bad;
        assert_rejected(value);
    }
}

#[test]
fn unknown_fields_and_non_records_are_rejected() {
    let mut value = saved_json();
    value["cheat"] = json!(true);
    assert_rejected(value);
    assert_rejected(json!("garbage"));
    assert_rejected(json!(null));
    assert_rejected(json!({"format": SAVE_FORMAT}));
}

#[test]
fn a_resignation_after_the_end_is_rejected() {
    let mut value = saved_json();
    value["moves"] = json!(["take2", "take2", "take2", "take2", "take2"]);
    assert!(load(value.clone()).is_ok());
    value["resigned"] = json!(0);
    assert_rejected(value);
}
