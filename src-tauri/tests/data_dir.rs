//! The stores live in the app data directory, which on Linux honours `XDG_DATA_HOME` (the
//! end-to-end tests point it at a fresh directory per test). Alone in its test binary because it
//! sets an environment variable.

mod common;

use common::TestApp;
use serde_json::json;

#[cfg(target_os = "linux")]
#[test]
fn the_stores_follow_xdg_data_home() {
    let home = tempfile::tempdir().unwrap();
    std::env::set_var("XDG_DATA_HOME", home.path());
    let app = TestApp::start_in_app_data_dir();
    let settings = json!({"language": "es", "skin": "wood", "sound": true, "animations": false});
    app.ok("set_settings", json!({"settings": settings}));
    let file = home
        .path()
        .join("app.damas.board")
        .join(damas_app_lib::SETTINGS_FILE);
    let on_disk: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).expect("settings.json under XDG_DATA_HOME"))
            .unwrap();
    assert_eq!(on_disk["settings"], settings);
}
