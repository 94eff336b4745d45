//! The server's time: unix milliseconds, with an offset tests move forward so a 45 s takeover or
//! a 5 min clock runs out without a test sleeping. Every deadline is an absolute unix-ms value
//! kept in the room record; a task waiting for one sleeps on tokio's timer and wakes early when
//! the offset moves.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// A shared handle to the server's time.
#[derive(Clone, Debug)]
pub struct TimeSource {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// Added to the system time: moved only by tests through [`TimeSource::advance`].
    offset_ms: AtomicU64,
    /// Tells sleepers the offset moved, so they re-check their deadline.
    moved: watch::Sender<u64>,
}

impl Default for TimeSource {
    fn default() -> Self {
        TimeSource::new()
    }
}

impl TimeSource {
    pub fn new() -> TimeSource {
        TimeSource {
            inner: Arc::new(Inner {
                offset_ms: AtomicU64::new(0),
                moved: watch::channel(0).0,
            }),
        }
    }

    /// Unix milliseconds now.
    pub fn now_ms(&self) -> u64 {
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        system + self.inner.offset_ms.load(Ordering::SeqCst)
    }

    /// Moves this source's time forward (tests).
    pub fn advance(&self, by: Duration) {
        let total = self
            .inner
            .offset_ms
            .fetch_add(by.as_millis() as u64, Ordering::SeqCst);
        self.inner.moved.send_replace(total);
    }

    /// Sleeps until unix-ms `deadline` on this source's time.
    pub async fn sleep_until(&self, deadline: u64) {
        let mut moved = self.inner.moved.subscribe();
        loop {
            let now = self.now_ms();
            if now >= deadline {
                return;
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(deadline - now)) => {}
                changed = moved.changed() => {
                    if changed.is_err() {
                        // The source is gone with the server; plain sleeping is all that is left.
                        tokio::time::sleep(Duration::from_millis(deadline - now)).await;
                    }
                }
            }
        }
    }
}
