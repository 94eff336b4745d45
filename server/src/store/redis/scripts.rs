//! The Lua scripts that make a room's writes atomic.

use redis::Script;

/// The Lua scripts. Each names every key it touches in KEYS (all in the room's slot).
pub(super) struct Scripts {
    pub(super) create: Script,
    pub(super) save: Script,
    pub(super) delete: Script,
    pub(super) lease: Script,
    pub(super) release: Script,
    pub(super) set_presence: Script,
    pub(super) present: Script,
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
            // KEYS: record, lease, presence. Deletes the room.
            // (The event is published after, as a shard channel's `SPUBLISH` on a Cluster.)
            delete: Script::new("return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])"),
            // KEYS: lease, record. ARGV: owner, ttl ms. Takes a free lease (SET NX PX) or renews
            // the owner's own; 1 if the owner holds it now. No lease for a room that is gone.
            lease: Script::new(
                "if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
                 if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
                 if redis.call('GET', KEYS[1]) == ARGV[1] then
                   redis.call('PEXPIRE', KEYS[1], ARGV[2])
                   return 1
                 end
                 return 0",
            ),
            // KEYS: lease. ARGV: owner. Deletes the lease only if the owner holds it.
            release: Script::new(
                "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
                 return 0",
            ),
            // KEYS: presence, record. ARGV: seat, connection, ttl ms. The seat's entry becomes this
            // connection's (an older connection's entry for the seat is replaced).
            set_presence: Script::new(
                format!(
                    "if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
                 {LUA_NOW_MS}
                 local ttl = tonumber(ARGV[3])
                 for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
                   if string.sub(member, 1, #ARGV[1] + 1) == ARGV[1] .. ':' then
                     redis.call('ZREM', KEYS[1], member)
                   end
                 end
                 redis.call('ZADD', KEYS[1], now_ms + ttl, ARGV[1] .. ':' .. ARGV[2])
                 if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
                 return 1"
                )
                .as_str(),
            ),
            // KEYS: presence. Drops lapsed entries; the live members.
            present: Script::new(
                format!(
                    "{LUA_NOW_MS}
                 redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
                 return redis.call('ZRANGE', KEYS[1], 0, -1)"
                )
                .as_str(),
            ),
        }
    }
}
