//! The wire protocol, version 2: JSON text messages, one object each, with `v` (the version) and
//! `type`. Version 2 only adds to version 1 (pools, sign-in, draw offers, abort, play the CPU,
//! undo/redo, rating changes in a result), so messages marked `v: 1` are served as before. Message by message in docs/protocol.md. Parsing never panics: anything else is a
//! typed [`RoomError`] answered with an `error` message.

pub use crate::clocks::ClockChoice;
use crate::error::RoomError;
use crate::pools::choice::{Opponent, PoolChoice};
use crate::store::GameChoice;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

/// The protocol version this server speaks (also the `v` of every `room` it sends) …
pub const VERSION: u64 = 2;
/// … and the oldest it still serves: a version-1 client keeps working unchanged.
pub const OLDEST_VERSION: u64 = 1;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Opens a room and takes its first seat.
    Create {
        game: GameChoice,
        nickname: String,
        /// `"default"` (absent), `"none"`, or explicit settings.
        #[serde(default)]
        clock: Option<ClockChoice>,
    },
    /// Takes a free seat of a room.
    Join {
        code: String,
        nickname: String,
    },
    /// Takes one's seat back (after a dropped connection) with the seat token.
    Resume {
        code: String,
        token: String,
    },
    /// Watches a room, read-only.
    Watch {
        code: String,
    },
    /// Asks whether a room exists (before asking a visitor's nickname); any time, in a room or not.
    Lookup {
        code: String,
    },
    /// Starts the game with the CPU (medium) in every free seat.
    StartCpu {},
    /// Plays a move of the seat to move (the text of one of the state's legal moves). `ply`, if
    /// given, must be the current ply (a move sent for an older position is refused).
    Move {
        #[serde(rename = "move")]
        text: String,
        #[serde(default)]
        ply: Option<usize>,
    },
    Resign {},
    /// Leaves the room (3+ players: the CPU takes the seat; 2 players: resigns a game in play).
    Leave {},
    /// Starts the next game with the same people, each one seat on.
    Rematch {},
    /// Asks for the room's state again.
    Sync {},
    Ping {},
    /// Offers a draw (2 players; offering back accepts the opponent's offer).
    OfferDraw {},
    /// Answers the opponent's draw offer.
    AnswerDraw {
        accept: bool,
    },
    /// Ends the game without a result while a side has not moved yet.
    Abort {},
    /// Rooms against the CPU: takes back the sender's last move (and the CPU's replies).
    Undo {},
    /// Rooms against the CPU: replays what the last undo took back.
    Redo {},
    /// "Play the CPU": a room with the sender and the CPU at `level` in every other seat.
    PlayCpu {
        game: GameChoice,
        nickname: String,
        level: String,
        /// The sender's seat (default 0).
        #[serde(default)]
        seat: Option<u8>,
    },
    /// Waits in a pairing pool for an opponent.
    PoolJoin {
        pool: PoolChoice,
        nickname: String,
    },
    /// Leaves the pool.
    PoolLeave {},
    /// Proves the connection's account with its session token (from the sign-in): rated pools
    /// admit it from then on, at its rating.
    SignIn {
        session: String,
    },
}

/// Parses one text message: size, JSON, version, then the message itself.
pub fn parse(text: &str, max_bytes: usize) -> Result<ClientMessage, RoomError> {
    if text.len() > max_bytes {
        return Err(RoomError::TooLarge(max_bytes));
    }
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| RoomError::Malformed(e.to_string()))?;
    let Some(object) = value.as_object_mut() else {
        return Err(RoomError::Malformed("expected a JSON object".into()));
    };
    match object.remove("v") {
        Some(Value::Number(n))
            if n.as_u64()
                .is_some_and(|v| (OLDEST_VERSION..=VERSION).contains(&v)) => {}
        Some(Value::Number(n)) => return Err(RoomError::Version(n.as_u64().unwrap_or(0))),
        Some(_) => return Err(RoomError::Malformed("`v` must be a number".into())),
        None => return Err(RoomError::Malformed("missing protocol version `v`".into())),
    }
    serde_json::from_value(value).map_err(|e| RoomError::Malformed(e.to_string()))
}

/// A message to a client.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// The connection sits in `seat` of room `code` (create, join, resume). Keep `token`: it
    /// takes the seat back after a dropped connection.
    Joined {
        code: &'a str,
        seat: u8,
        token: &'a str,
    },
    /// The connection watches room `code`.
    Watching {
        code: &'a str,
    },
    /// The answer to `lookup`: the room exists; `code` in its canonical form.
    RoomInfo {
        code: &'a str,
        game: &'a GameChoice,
        started: bool,
        free_seats: usize,
    },
    /// The room as it is now; `you` is the connection's seat (`null` for a spectator).
    State {
        you: Option<u8>,
        room: &'a RawValue,
    },
    /// The connection left its room.
    Left,
    /// The room is gone (expired or deleted).
    Closed {
        code: &'a str,
    },
    /// A newer connection resumed this connection's seat token and plays the seat now; this
    /// connection is closed (close code 4000). Clients do not reconnect by themselves after it.
    Replaced {
        code: &'a str,
    },
    Error {
        code: &'a str,
        message: String,
    },
    Pong,
    /// The connection waits in `pool`; the CPU stands in at `cpu_at` (unix ms) if nobody comes.
    PoolWaiting {
        pool: &'a str,
        rating: u32,
        cpu_at: u64,
    },
    /// A pairing made room `code` (`joined` and `state` follow).
    Paired {
        code: &'a str,
        opponent: &'a Opponent,
        rated: bool,
    },
    /// The connection left its pool.
    PoolLeft,
    /// The answer to `sign_in`: the account, its display name and its rating in each game kind.
    SignedIn {
        account: i64,
        name: &'a str,
        ratings: Value,
    },
}

/// The JSON text of a message, with the version.
pub fn encode(message: &ServerMessage<'_>) -> String {
    #[derive(Serialize)]
    struct Envelope<'a, 'b> {
        v: u64,
        #[serde(flatten)]
        message: &'a ServerMessage<'b>,
    }
    // Strings, numbers and pre-serialised JSON: serialisation cannot fail.
    serde_json::to_string(&Envelope {
        v: VERSION,
        message,
    })
    .unwrap_or_default()
}

/// The `error` message of `error`.
pub fn error_message(error: &RoomError) -> String {
    encode(&ServerMessage::Error {
        code: error.code(),
        message: error.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_message() {
        let create = parse(
            r#"{"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"Ana"}"#,
            4096,
        )
        .unwrap();
        assert!(matches!(create, ClientMessage::Create { clock: None, .. }));
        let timed = parse(
            r#"{"v":1,"type":"create","game":{"kind":"turkish","players":2},"nickname":"A","clock":{"main_ms":1000,"periods":1,"period_ms":500}}"#,
            4096,
        )
        .unwrap();
        assert!(matches!(
            timed,
            ClientMessage::Create {
                clock: Some(ClockChoice::Settings(_)),
                ..
            }
        ));
        assert_eq!(
            parse(r#"{"v":1,"type":"move","move":"11-15","ply":0}"#, 4096).unwrap(),
            ClientMessage::Move {
                text: "11-15".into(),
                ply: Some(0)
            }
        );
        assert_eq!(
            parse(r#"{"type":"ping","v":1}"#, 4096).unwrap(),
            ClientMessage::Ping {}
        );
        // Version 2 adds to version 1: both are served, every message under either.
        assert_eq!(
            parse(r#"{"type":"ping","v":2}"#, 4096).unwrap(),
            ClientMessage::Ping {}
        );
        assert_eq!(
            parse(r#"{"v":2,"type":"abort"}"#, 4096).unwrap(),
            ClientMessage::Abort {}
        );
        assert_eq!(
            parse(r#"{"v":1,"type":"answer_draw","accept":false}"#, 4096).unwrap(),
            ClientMessage::AnswerDraw { accept: false }
        );
        assert!(matches!(
            parse(
                r#"{"v":1,"type":"pool_join","pool":{"kind":"english","rated":false},"nickname":"A"}"#,
                4096
            )
            .unwrap(),
            ClientMessage::PoolJoin { .. }
        ));
        assert!(matches!(
            parse(
                r#"{"v":1,"type":"play_cpu","game":{"kind":"english","players":2},"nickname":"A","level":"expert"}"#,
                4096
            )
            .unwrap(),
            ClientMessage::PlayCpu { seat: None, .. }
        ));
        assert_eq!(
            parse(r#"{"v":1,"type":"sign_in","session":"abc"}"#, 4096).unwrap(),
            ClientMessage::SignIn {
                session: "abc".into()
            }
        );
    }

    #[test]
    fn refuses_bad_messages_with_their_codes() {
        let cases = [
            ("", "malformed"),
            ("[]", "malformed"),
            ("{}", "malformed"),
            (r#"{"v":3,"type":"ping"}"#, "unsupported_version"),
            (r#"{"v":0,"type":"ping"}"#, "unsupported_version"),
            (r#"{"v":"1","type":"ping"}"#, "malformed"),
            (r#"{"v":1}"#, "malformed"),
            (r#"{"v":1,"type":"fly"}"#, "malformed"),
            (r#"{"v":1,"type":"move"}"#, "malformed"),
            (r#"{"v":1,"type":"move","move":7}"#, "malformed"),
            (r#"{"v":1,"type":"ping","extra":1}"#, "malformed"),
            (r#"{"v":1,"type":"answer_draw"}"#, "malformed"),
            (r#"{"v":1,"type":"sign_in"}"#, "malformed"),
            (r#"{"v":1,"type":"sign_in","session":7}"#, "malformed"),
            (
                r#"{"v":1,"type":"answer_draw","accept":"yes"}"#,
                "malformed",
            ),
            (
                r#"{"v":1,"type":"pool_join","pool":{"kind":"english","x":1},"nickname":"A"}"#,
                "malformed",
            ),
        ];
        for (text, code) in cases {
            assert_eq!(parse(text, 4096).unwrap_err().code(), code, "{text}");
        }
        let long = format!(r#"{{"v":1,"type":"ping","pad":"{}"}}"#, "x".repeat(5000));
        assert_eq!(parse(&long, 4096).unwrap_err().code(), "too_large");
    }

    #[test]
    fn encodes_with_the_version() {
        let text = encode(&ServerMessage::Pong);
        assert_eq!(text, r#"{"v":2,"type":"pong"}"#);
        let error = error_message(&RoomError::NotYourTurn);
        let value: Value = serde_json::from_str(&error).unwrap();
        assert_eq!(value["type"], "error");
        assert_eq!(value["code"], "not_your_turn");
    }
}
