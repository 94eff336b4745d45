//! The process's open-file limit: every socket is a file descriptor, and a server at the usual
//! soft limit (1,024) refuses sockets long before its rooms are full. At start the soft limit is
//! raised to the hard one, and the connection cap is kept below it with room for the store's
//! connections, the UI's files and the runtime.

/// A TCP connection's place under `Config::max_connections`, taken when it is accepted (so a
/// connection that never finishes its HTTP request counts too) and held until it closes: by the
/// HTTP connection, then by the WebSocket it may become.
#[derive(Clone)]
pub struct ConnectionPermit(
    #[allow(dead_code)] pub std::sync::Arc<tokio::sync::OwnedSemaphorePermit>,
);

/// Connections at most even with a higher file limit (the default of `Config::max_connections`).
pub const MAX_CONNECTIONS: usize = 20_000;

/// File descriptors kept for everything that is not a client connection: at least this many …
const RESERVED_FILES: u64 = 256;
/// … or this fraction of the limit, whichever is more.
const RESERVED_SHARE: u64 = 10;

/// Raises the soft open-file limit to the hard limit; the soft limit now. Where there is no such
/// limit (not Unix) or it cannot be read, `None`.
pub fn raise_file_limit() -> Option<u64> {
    imp::raise_file_limit()
}

/// The connection cap for a process that may open `file_limit` files.
pub fn connection_cap(file_limit: u64) -> usize {
    let reserved = RESERVED_FILES.max(file_limit / RESERVED_SHARE);
    let cap = file_limit.saturating_sub(reserved).max(1);
    usize::try_from(cap)
        .unwrap_or(usize::MAX)
        .min(MAX_CONNECTIONS)
}

#[cfg(unix)]
mod imp {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

    /// Linux refuses an infinite open-file limit; a hard limit of "unlimited" is taken as this.
    const UNLIMITED: u64 = 1 << 20;

    pub fn raise_file_limit() -> Option<u64> {
        let limit = getrlimit(Resource::Nofile);
        let hard = limit.maximum.unwrap_or(UNLIMITED);
        let soft = limit.current.unwrap_or(UNLIMITED);
        if soft >= hard {
            return Some(soft);
        }
        let raised = Rlimit {
            current: Some(hard),
            maximum: limit.maximum,
        };
        match setrlimit(Resource::Nofile, raised) {
            Ok(()) => Some(hard),
            Err(error) => {
                tracing::warn!(%error, soft, hard, "open-file limit not raised");
                Some(soft)
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn raise_file_limit() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_room_below_the_file_limit() {
        // The usual soft limit: 256 kept for the rest.
        assert_eq!(connection_cap(1024), 768);
        // A tenth kept above 2,560.
        assert_eq!(connection_cap(20_000), 18_000);
        // Never above the default cap, never zero.
        assert_eq!(connection_cap(1 << 20), MAX_CONNECTIONS);
        assert_eq!(connection_cap(100), 1);
    }

    #[test]
    fn the_soft_limit_ends_at_the_hard_limit() {
        let Some(now) = raise_file_limit() else {
            return;
        };
        assert!(now >= 1);
        // Raising again changes nothing.
        assert_eq!(raise_file_limit(), Some(now));
    }
}
