//! The room server's integration tests, one binary: each file beside this one is a module (the
//! shared helpers first). One binary links the server once and compiles the tests' generic
//! code once: as sixteen binaries they were most of the workspace's test build.

mod common;
mod postgres_server;
mod redis_cluster;
mod redis_server;
mod server_process;
mod wait;

mod bad_input;
mod bench;
mod connections;
mod http;
mod play_anyone;
mod player_store;
mod rated_instances;
mod rated_play;
mod redis_failover;
mod redis_outage;
mod redis_pools;
mod room_codes;
mod rooms;
mod shutdown;
mod sign_in;
mod store_conformance;
