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
