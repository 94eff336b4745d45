//! How often a connection may act: a token bucket per connection, and the actions it limits.

use tokio::time::Instant;

/// Pool joins a connection may make: one every 2 s on average, bursts of 5.
pub(super) const POOL_JOINS_PER_SECOND: f64 = 0.5;
pub(super) const POOL_JOIN_BURST: f64 = 5.0;
/// Draw offers a connection may make: one every 5 s on average, bursts of 3.
pub(super) const DRAW_OFFERS_PER_SECOND: f64 = 0.2;
pub(super) const DRAW_OFFER_BURST: f64 = 3.0;
/// The actions limited per connection and per account.
#[derive(Clone, Copy)]
pub(super) enum Limited {
    PoolJoin,
    DrawOffer,
}

/// Per-connection token bucket.
pub(super) struct RateLimit {
    tokens: f64,
    last: Instant,
    per_second: f64,
    burst: f64,
}

impl RateLimit {
    pub(super) fn new(per_second: f64, burst: f64) -> RateLimit {
        RateLimit {
            tokens: burst,
            last: Instant::now(),
            per_second,
            burst,
        }
    }

    pub(super) fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
