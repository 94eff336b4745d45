//! `damas://join/<code>` links reaching the UI: a received link waits until the UI takes it
//! (`take_deep_link`, once), and a running UI hears the `deep-link` event with the code.

mod common;

use common::TestApp;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tauri::Listener;

#[test]
fn a_received_join_link_waits_for_the_ui_and_is_taken_once() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_deep_link", json!({})), Value::Null);
    let heard = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = heard.clone();
    app.handle()
        .listen(damas_app_lib::LINK_EVENT, move |event| {
            sink.lock().unwrap().push(event.payload().to_string());
        });
    let code = damas_app_lib::join_code("damas://join/x8Jd0-qL2mZ_a9Qe").expect("a join link");
    damas_app_lib::receive_join_link(&app.handle(), code);
    assert_eq!(
        app.ok("take_deep_link", json!({})),
        json!("x8Jd0-qL2mZ_a9Qe")
    );
    assert_eq!(
        app.ok("take_deep_link", json!({})),
        Value::Null,
        "taken once"
    );
    assert_eq!(*heard.lock().unwrap(), ["\"x8Jd0-qL2mZ_a9Qe\""]);
}

#[test]
fn only_join_links_with_a_room_code_get_through() {
    for bad in [
        "damas://join/short",
        "damas://join/../../x",
        "damas://play/x8Jd0-qL2mZ_a9Qe",
        "https://x.org/r/x8Jd0-qL2mZ_a9Qe",
        "",
    ] {
        let error = damas_app_lib::join_code(bad).expect_err(bad);
        assert!(!error.to_string().is_empty());
    }
}

/// A sign-in that comes back by `damas://signed-in#session=…` waits for the UI, is taken once,
/// and a running UI hears the `signed-in` event (without the token in it).
#[test]
fn a_sign_in_link_brings_the_session_to_the_ui_once() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_signed_in", json!({})), Value::Null);
    let heard = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = heard.clone();
    app.handle()
        .listen(damas_app_lib::SIGNED_IN_EVENT, move |event| {
            sink.lock().unwrap().push(event.payload().to_string());
        });
    let token = "q2Zt0vY5mS1xN8cR4bK7wP3eH6uJ9aL0dF2gI5oT8yU";
    let session = damas_app_lib::signed_in_session(&format!("damas://signed-in#session={token}"))
        .expect("a sign-in link");
    damas_app_lib::receive_session(&app.handle(), session);
    assert_eq!(app.ok("take_signed_in", json!({})), json!(token));
    assert_eq!(
        app.ok("take_signed_in", json!({})),
        Value::Null,
        "taken once"
    );
    assert_eq!(heard.lock().unwrap().len(), 1);
    assert!(
        !heard.lock().unwrap()[0].contains(token),
        "the event does not carry the token"
    );
}

/// Only a room server's sign-in address is opened in the system browser.
#[test]
fn only_a_sign_in_address_opens_the_browser() {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start(dir.path());
    for bad in [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "http://127.0.0.1:8080/api/session",
        "http://127.0.0.1:8080/auth/startx?to=app",
        "http://127.0.0.1:8080/auth/start?to=app x",
        "damas://signed-in#session=x",
        "",
    ] {
        assert_eq!(
            app.error_code("open_sign_in", json!({ "url": bad })),
            "bad_input",
            "{bad:?}"
        );
    }
}
