use crate::search::Level;
use crate::session::{GameSetup, Mode, Session, SessionError};
use serde_json::json;

fn setup(value: serde_json::Value) -> GameSetup {
    serde_json::from_value(value).unwrap()
}

#[test]
fn a_valid_setup_names_variant_and_mode() {
    let (variant, mode) = setup(json!({
        "variant": {"kind": "diamond", "players": 3},
        "mode": "cpu", "level": "hard"
    }))
    .validate()
    .unwrap();
    assert_eq!(variant.players, 3);
    assert_eq!(
        mode,
        Mode::Cpu {
            level: Level::Hard,
            human_seats: vec![0]
        }
    );
}

#[test]
fn each_bad_field_has_its_code() {
    for (value, code) in [
        (
            json!({"variant": {"kind": "chess"}, "mode": "local"}),
            "unknown_game",
        ),
        (
            json!({"variant": {"kind": "english", "players": 3}, "mode": "local"}),
            "bad_players",
        ),
        (
            json!({"variant": {"kind": "capture", "players": 7}, "mode": "local"}),
            "bad_players",
        ),
        (
            json!({"variant": {"kind": "capture", "players": -1}, "mode": "local"}),
            "bad_players",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": "extreme"}),
            "bad_level",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu"}),
            "bad_level",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "online"}),
            "bad_input",
        ),
        (
            json!({"variant": {"kind": "english", "long_jump": true}, "mode": "local"}),
            "bad_input",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": "easy", "human_seats": [2]}),
            "bad_input",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": "easy", "human_seats": [0, 1]}),
            "bad_input",
        ),
        (
            json!({"variant": {"kind": "english"}, "mode": "cpu", "level": "easy", "human_seats": []}),
            "bad_input",
        ),
    ] {
        let error = Session::new("x".into(), &setup(value.clone())).unwrap_err();
        assert_eq!(error.code(), code, "{value}: {error}");
    }
}

#[test]
fn a_rematch_rotates_the_human_seats() {
    let mode = Mode::Cpu {
        level: Level::Easy,
        human_seats: vec![0],
    };
    assert_eq!(
        mode.rotated(2),
        Mode::Cpu {
            level: Level::Easy,
            human_seats: vec![1]
        }
    );
    assert_eq!(
        mode.rotated(3).rotated(3).rotated(3),
        mode,
        "three rotations of three seats come back"
    );
    assert_eq!(Mode::Local.rotated(2), Mode::Local);
}

#[test]
fn errors_have_distinct_codes() {
    let errors = [
        SessionError::UnknownGame(String::new()),
        SessionError::BadPlayers(String::new()),
        SessionError::IllegalMove(crate::position::MoveError::Illegal(String::new())),
        SessionError::NotYourTurn(String::new()),
        SessionError::GameOver,
        SessionError::NoSuchGame(String::new()),
        SessionError::BadLevel(String::new()),
        SessionError::Cancelled,
        SessionError::NothingToUndo,
        SessionError::NothingToRedo,
        SessionError::BadInput(String::new()),
        SessionError::BadSave(String::new()),
    ];
    let mut codes: Vec<&str> = errors.iter().map(SessionError::code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), errors.len());
}
