//! The Redis calls of a measured window, for a run's report.

use super::harness::{BenchError, BenchStore};

/// Counts the Redis calls of a window (nothing for the memory store).
pub(super) struct CallCounter {
    #[cfg(feature = "redis")]
    calls: Option<super::redis_calls::RedisCalls>,
    #[cfg(feature = "redis")]
    before: super::redis_calls::CommandStats,
}

impl CallCounter {
    pub(super) async fn connect(store: &BenchStore) -> Result<CallCounter, BenchError> {
        #[cfg(feature = "redis")]
        {
            Ok(CallCounter {
                calls: super::redis_calls::RedisCalls::connect(store).await?,
                before: Default::default(),
            })
        }
        #[cfg(not(feature = "redis"))]
        match store {
            BenchStore::Memory => Ok(CallCounter {}),
            _ => Err(BenchError::NoRedis),
        }
    }

    /// The window starts.
    pub(super) async fn start(&mut self) -> Result<(), BenchError> {
        #[cfg(feature = "redis")]
        if let Some(calls) = &self.calls {
            self.before = calls.sample().await?;
        }
        Ok(())
    }

    /// The window ends: its line, if the store is Redis.
    pub(super) async fn finish(
        &mut self,
        seconds: f64,
        rooms: usize,
    ) -> Result<Option<String>, BenchError> {
        #[cfg(feature = "redis")]
        if let Some(calls) = &self.calls {
            let after = calls.sample().await?;
            let delta = super::redis_calls::delta(&self.before, &after);
            return Ok(Some(super::redis_calls::summary(
                &delta,
                seconds,
                rooms,
                calls.masters(),
            )));
        }
        let _ = (seconds, rooms);
        Ok(None)
    }
}
