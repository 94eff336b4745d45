//! Damas room server: friends play the five games in rooms opened by link, over WebSocket; the
//! server alone judges every move through `damas::session`.
//!
//! Map of the crate:
//! - [`store`]: the `RoomStore` seam (room records, compare-and-set saves, events, leases,
//!   presence) and its backends: [`store::memory`] (embedded default) and `store::redis`.
//! - [`time`]: unix-ms time with a test offset (deadlines are absolute and stored).
pub mod store;
pub mod time;
