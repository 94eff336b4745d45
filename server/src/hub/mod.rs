//! One task per room per instance: the room's hub. Connections in the room send it their
//! actions and watch its latest snapshot; it loads/saves the record through the store, keeps the
//! room's session in step (`play::Game`), and, while it holds the room's lease, runs the room's
//! timers from the record's absolute deadlines: the CPU's moves, the 45 s takeover, clock flags.
//!
//! A hub lives while a connection of this instance is in the room; another instance's hub may
//! serve the same room (the store's compare-and-set and events keep them in step, the lease lets
//! one of them run the timers).
//!
//! - [`registry`]: the hubs of this instance, by room ([`Hubs`]), and a connection's
//!   [`HubHandle`].
//! - `command`: what a hub is asked ([`Action`]) and what it works with ([`HubContext`]).
//! - `live`: the running hubs by room (a hub takes itself out when it stops).
//! - `liveness`: the instance's heartbeat and the live set of instances it reads back.
//! - `actor`: the hub's task — actions through compare-and-set saves, store events.
//! - `timers`: what the lease holder runs — housekeeping, presence, takeover, flags, CPU moves;
//!   `schedule`: how often, how long a heartbeat lives, and the CPU's decisions.
//! - [`snapshot`]: what a hub publishes to its connections (a whole room and its delta).
//! - `view`: the `room` of a `state` message as typed structs (docs/protocol.md).

mod actor;
mod command;
mod live;
mod liveness;
pub mod registry;
mod schedule;
pub mod snapshot;
mod timers;
mod view;

pub use command::{Action, Command, HubContext};
pub use registry::{HubHandle, Hubs};
pub use snapshot::{Delta, HistoryMark, Snapshot};
