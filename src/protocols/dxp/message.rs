//! DXP's messages: reading what the initiator sends and writing what Damas answers (the layout
//! table is in the parent module's documentation).

use crate::describe::MoveInfo;
use thiserror::Error;

/// DXP's longest message.
pub const MAX_MESSAGE: usize = 127;

/// The name Damas gives in `GAMEACC`.
const NAME: &str = "Damas";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    fn from_code(code: u8) -> Option<Colour> {
        match code {
            b'W' => Some(Colour::White),
            b'Z' => Some(Colour::Black),
            _ => None,
        }
    }
}

/// A message from the initiator, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    GameRequest {
        initiator: String,
        follower: Colour,
        minutes: u32,
        moves: u32,
        /// `None`: the start position; else the side to move and the 50 squares.
        position: Option<(Colour, String)>,
    },
    Move {
        seconds: u32,
        from: u32,
        to: u32,
        captures: Vec<u32>,
    },
    GameEnd {
        reason: u8,
        stop: u8,
    },
    Chat(String),
    BackRequest,
    BackAnswer,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MessageError {
    #[error("empty message")]
    Empty,
    #[error("message longer than {MAX_MESSAGE} characters")]
    TooLong,
    #[error("message is not ASCII")]
    NotAscii,
    #[error("unknown message type '{0}'")]
    UnknownType(char),
    #[error("{kind} message too short ({length} characters)")]
    TooShort { kind: &'static str, length: usize },
    #[error("{kind}: field '{field}' is not a number: '{text}'")]
    Number {
        kind: &'static str,
        field: &'static str,
        text: String,
    },
    #[error("{kind}: bad colour '{0}'", kind = "GAMEREQ")]
    Colour(char),
    #[error("GAMEREQ: position indicator must be A or B, found '{0}'")]
    PositionKind(char),
    #[error("GAMEREQ: square {square} holds '{found}' (expected e, w, z, W or Z)")]
    Square { square: usize, found: char },
}

fn number(
    text: &str,
    range: std::ops::Range<usize>,
    kind: &'static str,
    field: &'static str,
) -> Result<u32, MessageError> {
    let part = text.get(range).ok_or(MessageError::TooShort {
        kind,
        length: text.len(),
    })?;
    let trimmed = part.trim();
    if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Err(MessageError::Number {
            kind,
            field,
            text: part.to_string(),
        });
    }
    trimmed.parse().map_err(|_| MessageError::Number {
        kind,
        field,
        text: part.to_string(),
    })
}

fn need(text: &str, length: usize, kind: &'static str) -> Result<(), MessageError> {
    if text.len() < length {
        Err(MessageError::TooShort {
            kind,
            length: text.len(),
        })
    } else {
        Ok(())
    }
}

/// Reads one message (without its NUL).
pub fn parse_message(text: &str) -> Result<Message, MessageError> {
    if !text.is_ascii() {
        return Err(MessageError::NotAscii);
    }
    if text.len() > MAX_MESSAGE {
        return Err(MessageError::TooLong);
    }
    let bytes = text.as_bytes();
    let kind = *bytes.first().ok_or(MessageError::Empty)?;
    match kind {
        b'R' => {
            need(text, 43, "GAMEREQ")?;
            let follower =
                Colour::from_code(bytes[35]).ok_or(MessageError::Colour(bytes[35] as char))?;
            let minutes = number(text, 36..39, "GAMEREQ", "time")?;
            let moves = number(text, 39..42, "GAMEREQ", "moves")?;
            let position = match bytes[42] {
                b'A' => None,
                b'B' => {
                    need(text, 94, "GAMEREQ")?;
                    let to_move = Colour::from_code(bytes[43])
                        .ok_or(MessageError::Colour(bytes[43] as char))?;
                    let board = &text[44..94];
                    if let Some((index, found)) = board
                        .chars()
                        .enumerate()
                        .find(|(_, c)| !matches!(c, 'e' | 'w' | 'z' | 'W' | 'Z'))
                    {
                        return Err(MessageError::Square {
                            square: index + 1,
                            found,
                        });
                    }
                    Some((to_move, board.to_string()))
                }
                other => return Err(MessageError::PositionKind(other as char)),
            };
            Ok(Message::GameRequest {
                initiator: text[3..35].trim().to_string(),
                follower,
                minutes,
                moves,
                position,
            })
        }
        b'M' => {
            need(text, 11, "MOVE")?;
            let count = number(text, 9..11, "MOVE", "captured count")? as usize;
            need(text, 11 + 2 * count, "MOVE")?;
            let captures = (0..count)
                .map(|i| number(text, 11 + 2 * i..13 + 2 * i, "MOVE", "captured square"))
                .collect::<Result<_, _>>()?;
            Ok(Message::Move {
                seconds: number(text, 1..5, "MOVE", "time")?,
                from: number(text, 5..7, "MOVE", "from")?,
                to: number(text, 7..9, "MOVE", "to")?,
                captures,
            })
        }
        b'E' => {
            need(text, 3, "GAMEEND")?;
            Ok(Message::GameEnd {
                reason: bytes[1],
                stop: bytes[2],
            })
        }
        b'C' => Ok(Message::Chat(text[1..].to_string())),
        b'B' => Ok(Message::BackRequest),
        b'K' => Ok(Message::BackAnswer),
        other => Err(MessageError::UnknownType(other as char)),
    }
}

/// `GAMEACC`: `code` 0 accepts.
pub fn game_accept(code: char) -> String {
    format!("A{NAME:<32}{code}")
}

/// `MOVE` for a move Damas plays.
pub fn move_message(info: &MoveInfo, seconds: u32) -> String {
    let square = |text: &str| text.parse::<u32>().unwrap_or(0) % 100;
    let mut text = format!(
        "M{:04}{:02}{:02}{:02}",
        seconds.min(9_999),
        square(&info.from),
        square(&info.to),
        info.captures.len() % 100
    );
    for captured in &info.captures {
        text.push_str(&format!("{:02}", square(captured)));
    }
    text
}

/// `GAMEEND`.
pub fn game_end(reason: u8, stop: u8) -> String {
    format!("E{}{}", reason as char, stop as char)
}
