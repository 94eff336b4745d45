//! The app's command arguments through the session layer, as `src-tauri` hands them over: the
//! first line is `new_game`'s setup JSON, each further line a command (`undo`, `redo`, `resign`)
//! or a move text for `play_move`. A rejected command must leave the game as it was; an accepted
//! move must have been legal; the game's save record must restore to the same game. The same
//! first line is also read as a saved record (saves.json entries are input too).
#![no_main]

use damas::session::{GameSetup, SavedSession, Session, Sessions};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// What a command may not change when it is refused.
fn state(session: &Session) -> (String, Vec<String>, bool, bool, Option<u8>) {
    let game = session.game();
    (
        game.position_text(),
        game.history().into_iter().map(|info| info.text).collect(),
        session.can_undo(),
        session.can_redo(),
        session.resigned(),
    )
}

fn restores_the_same(session: &Session) {
    let saved = session.to_save();
    let json = saved.to_json();
    let read = SavedSession::from_json(&json).expect("a written save reads back");
    let restored = read.restore().expect("a written save restores");
    assert_eq!(state(&restored), state(session));
    assert_eq!(restored.outcome(), session.outcome());
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let Some(first) = lines.next() else {
        return;
    };
    let Ok(value) = serde_json::from_str::<Value>(first) else {
        return;
    };
    if let Ok(saved) = SavedSession::from_json(&value) {
        if let Ok(session) = saved.restore() {
            restores_the_same(&session);
        }
    }
    let Ok(setup) = serde_json::from_value::<GameSetup>(value) else {
        return;
    };
    let mut sessions = Sessions::new();
    let Ok(created) = sessions.create(&setup) else {
        return;
    };
    let id = created.id().to_string();
    let session = sessions.get_mut(&id).expect("the game just created");
    for command in lines.take(64) {
        let before = state(session);
        let legal: Vec<String> = session
            .game()
            .legal_moves()
            .into_iter()
            .map(|info| info.text)
            .collect();
        let result = match command {
            "undo" => session.undo().map(|_| None),
            "redo" => session.redo().map(|_| None),
            "resign" => session.resign().map(|_| None),
            text => session.play_move(text).map(Some),
        };
        match result {
            Ok(Some(info)) => assert!(legal.contains(&info.text), "{command} played {}", info.text),
            Ok(None) => {}
            Err(error) => {
                assert_eq!(
                    state(session),
                    before,
                    "{command} refused ({error}) but changed the game"
                );
                assert!(!error.code().is_empty());
            }
        }
    }
    restores_the_same(session);
});
