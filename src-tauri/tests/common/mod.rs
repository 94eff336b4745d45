//! Drives the app's commands through Tauri's mock runtime: real IPC, JSON in and out.

#![allow(dead_code)]

use serde_json::Value;
use std::path::Path;
use tauri::test::{get_ipc_response, mock_builder, mock_context, noop_assets, MockRuntime};
use tauri::webview::InvokeRequest;
use tauri::{App, Manager, WebviewWindow, WebviewWindowBuilder};

pub struct TestApp {
    // Kept alive for the webview.
    app: App<MockRuntime>,
    webview: WebviewWindow<MockRuntime>,
}

impl TestApp {
    /// The app with its stores in `dir`.
    pub fn start(dir: &Path) -> TestApp {
        TestApp::build(Some(dir.to_path_buf()))
    }

    /// The app with its stores in the app data directory (identifier `app.damas.board`).
    pub fn start_in_app_data_dir() -> TestApp {
        TestApp::build(None)
    }

    fn build(dir: Option<std::path::PathBuf>) -> TestApp {
        let mut context = mock_context(noop_assets());
        context.config_mut().identifier = "app.damas.board".into();
        let app = damas_app_lib::build_app(mock_builder(), context, dir).expect("the app builds");
        let webview = WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .expect("a webview");
        TestApp { app, webview }
    }

    pub fn handle(&self) -> tauri::AppHandle<MockRuntime> {
        self.app.handle().clone()
    }

    /// Invokes a command; `Err` holds the rejection value.
    pub fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        invoke_on(&self.webview, cmd, args)
    }

    /// Another window of the app, which another thread can use (the app itself stays here).
    pub fn window(&self, label: &str) -> Window {
        let webview = WebviewWindowBuilder::new(&self.app, label, Default::default())
            .build()
            .expect("a webview");
        Window { webview }
    }

    pub fn ok(&self, cmd: &str, args: Value) -> Value {
        self.invoke(cmd, args.clone())
            .unwrap_or_else(|error| panic!("{cmd} {args} failed: {error}"))
    }

    /// The count of finished games vs the CPU that game `id`'s CPU hears (not part of the
    /// command contract: read from the app's state).
    pub fn games_played(&self, id: &Value) -> Option<u32> {
        let state = self.app.state::<damas_app_lib::AppState>();
        let sessions = state.sessions.lock().expect("the sessions lock");
        let id = id.as_str().expect("an id");
        sessions.get(id).expect("a known game").games_played()
    }

    /// The error code of a rejected command, after checking the `{code, message}` shape.
    pub fn error_code(&self, cmd: &str, args: Value) -> String {
        let error = self
            .invoke(cmd, args.clone())
            .expect_err(&format!("{cmd} {args} should fail"));
        let message = error["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{error} has no message");
        assert_eq!(error.as_object().map(|o| o.len()), Some(2), "{error}");
        error["code"].as_str().expect("a code").to_string()
    }
}

/// A window of a [`TestApp`] for another thread.
pub struct Window {
    webview: WebviewWindow<MockRuntime>,
}

impl Window {
    /// Invokes a command; `Err` holds the rejection value.
    pub fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        invoke_on(&self.webview, cmd, args)
    }
}

fn invoke_on(webview: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: tauri::ipc::CallbackFn(0),
        error: tauri::ipc::CallbackFn(1),
        url: "tauri://localhost".parse().expect("url"),
        body: tauri::ipc::InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: tauri::test::INVOKE_KEY.to_string(),
    };
    get_ipc_response(webview, request)
        .map(|body| body.deserialize::<Value>().expect("a JSON reply"))
}
