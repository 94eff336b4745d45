//! Token buckets keyed by who acts (an account, a peer address): `per_second` tokens come back
//! each second, up to `burst`. Used for the HTTP routes (per account or address) and for the
//! socket actions that cost the most (pool joins, draw offers) per account, on top of each
//! connection's own buckets — so an account cannot multiply its allowance by opening sockets.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Buckets kept at most; beyond, the full ones (those that would allow a whole burst) are
/// forgotten first.
const MAX_BUCKETS: usize = 100_000;

pub struct KeyedLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl KeyedLimiter {
    pub fn new(per_second: f64, burst: f64) -> KeyedLimiter {
        KeyedLimiter {
            per_second,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token from `key`'s bucket; false when it is empty.
    pub fn allow(&self, key: &str) -> bool {
        let now = Instant::now();
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() >= MAX_BUCKETS && !buckets.contains_key(key) {
            let (per_second, burst) = (self.per_second, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * per_second < burst
            });
        }
        let (tokens, at) = buckets.entry(key.to_owned()).or_insert((self.burst, now));
        *tokens =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Per-account limits of the socket actions that cost the most.
pub struct AccountLimits {
    /// `pool_join`: one every 2 s on average, bursts of 5, whatever the sockets.
    pub pool_joins: KeyedLimiter,
    /// `offer_draw`: one every 5 s on average, bursts of 3.
    pub draw_offers: KeyedLimiter,
}

impl Default for AccountLimits {
    fn default() -> AccountLimits {
        AccountLimits {
            pool_joins: KeyedLimiter::new(0.5, 5.0),
            draw_offers: KeyedLimiter::new(0.2, 3.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_has_its_own_burst() {
        let limiter = KeyedLimiter::new(0.0, 2.0);
        assert!(limiter.allow("a") && limiter.allow("a"));
        assert!(!limiter.allow("a"), "a's burst is spent");
        assert!(limiter.allow("b"), "b has its own bucket");
    }
}
