//! The Lua scripts that make a room's writes atomic.

use redis::Script;

/// The Lua scripts. Each names every key it touches in KEYS (all in the room's slot).
pub(super) struct Scripts {
    pub(super) create: Script,
    pub(super) save: Script,
    pub(super) delete: Script,
    pub(super) heartbeat: Script,
    pub(super) lease: Script,
    pub(super) release: Script,
    pub(super) set_presence: Script,
    pub(super) clear_presence: Script,
}

/// KEYS: record. ARGV: json, ttl ms. 1 if created at version 1, 0 if the code is taken.
pub(super) const CREATE_LUA: &str = "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
     redis.call('HSET', KEYS[1], 'version', 1, 'record', ARGV[1])
     redis.call('PEXPIRE', KEYS[1], ARGV[2])
     return 1";

/// KEYS: record. ARGV: expected version, json, ttl ms. The new version, or 0 when the stored
/// version differs or the room is gone.
pub(super) const SAVE_LUA: &str = "local current = redis.call('HGET', KEYS[1], 'version')
     if not current or current ~= ARGV[1] then return 0 end
     local next = tonumber(current) + 1
     redis.call('HSET', KEYS[1], 'version', next, 'record', ARGV[2])
     redis.call('PEXPIRE', KEYS[1], ARGV[3])
     return next";

/// Redis's clock in ms, so that instances with skewed clocks agree on presence expiry.
pub(super) const LUA_NOW_MS: &str = "local now = redis.call('TIME')\n\
     local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)\n";

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            create: Script::new(CREATE_LUA),
            save: Script::new(SAVE_LUA),
            // KEYS: record. Deletes the room (its lease and presence are fields of the record).
            // (The event is published after, as a shard channel's `SPUBLISH` on a Cluster.)
            delete: Script::new("return redis.call('DEL', KEYS[1])"),
            // KEYS: the live set. ARGV: instance, ttl ms. Renews the instance's heartbeat, drops
            // lapsed ones (scores are expiry times on Redis's clock); the live instances.
            heartbeat: Script::new(
                format!(
                    "{LUA_NOW_MS}
                 redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[1])
                 redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
                 return redis.call('ZRANGE', KEYS[1], 0, -1)"
                )
                .as_str(),
            ),
            // KEYS: record. ARGV: owner, then the live instances. Takes the lease when it is
            // free, the owner's, or held by an instance that is not live; 1 if the owner holds
            // it now. No lease for a room that is gone.
            lease: Script::new(
                "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
                 local holder = redis.call('HGET', KEYS[1], 'lease')
                 if holder and holder ~= ARGV[1] then
                   for i = 2, #ARGV do
                     if ARGV[i] == holder then return 0 end
                   end
                 end
                 if holder ~= ARGV[1] then redis.call('HSET', KEYS[1], 'lease', ARGV[1]) end
                 return 1",
            ),
            // KEYS: record. ARGV: owner. Drops the lease only if the owner holds it.
            release: Script::new(
                "if redis.call('HGET', KEYS[1], 'lease') == ARGV[1] then
                   redis.call('HDEL', KEYS[1], 'lease')
                 end
                 return 0",
            ),
            // KEYS: record. ARGV: presence field, connection, instance. The seat's entry becomes
            // this connection's (an older connection's entry for the seat is replaced).
            set_presence: Script::new(
                "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
                 redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3])
                 return 1",
            ),
            // KEYS: record. ARGV: presence field, connection. Drops the entry if the connection
            // still owns it.
            clear_presence: Script::new(
                "local entry = redis.call('HGET', KEYS[1], ARGV[1])
                 if entry and string.sub(entry, 1, #ARGV[2] + 1) == ARGV[2] .. ' ' then
                   redis.call('HDEL', KEYS[1], ARGV[1])
                 end
                 return 0",
            ),
        }
    }
}
