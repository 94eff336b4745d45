//! Waiting on a condition, never for a fixed time: the one poll loop of the tests, for async
//! tests and for the blocking helpers that start services (Redis, PostgreSQL). Every module
//! of the test binary takes it with `use crate::wait;`.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// How often a condition is checked.
pub const POLL: Duration = Duration::from_millis(20);

/// Waits until `condition` holds, checking every [`POLL`]; fails the test, saying `what` did not
/// happen, if it does not hold within `timeout`.
pub async fn wait_until(what: &str, timeout: Duration, mut condition: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + timeout;
    while !condition().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: not within {timeout:?}"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// [`wait_until`] for blocking code.
pub fn wait_until_blocking(what: &str, timeout: Duration, mut condition: impl FnMut() -> bool) {
    let held = answer_within(timeout, || condition().then_some(()));
    assert!(held.is_some(), "{what}: not within {timeout:?}");
}

/// Checks every [`POLL`] until `check` answers (`Some`); `None` if it did not within `timeout`.
/// For conditions that can also fail for good (a service that exited while starting).
pub fn answer_within<T>(timeout: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(answer) = check() {
            return Some(answer);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(POLL);
    }
}
