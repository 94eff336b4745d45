//! The Hub protocol's lines from the engine to the GUI, written with the quoting the reader in
//! `message` expects.

use std::fmt;

/// The type of an engine parameter, with its constraints.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamType {
    Enum(Vec<&'static str>),
    Int { min: i64, max: i64 },
}

/// A line to the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Id {
        name: String,
        version: String,
        author: String,
        country: String,
    },
    Param {
        name: &'static str,
        value: String,
        kind: ParamType,
    },
    Wait,
    Ready,
    /// Search figures: `score` in the engine's units (a man is 100), written in men.
    Info {
        depth: u32,
        score: i32,
        nodes: u64,
        seconds: f64,
    },
    Done {
        mv: String,
    },
    Pong,
    Error(String),
}

/// `value`, quoted when the protocol requires it (a space, `=`, a quote, or empty).
pub(super) fn quoted(value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=' || c == '"') {
        // A double quote cannot be escaped in Hub: it is dropped from the text.
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

/// A score in men with two decimals; decisive scores as Hub engines write them, 100 men less a
/// hundredth per ply to the end (so that clients read the distance back).
pub fn score_text(score: i32) -> String {
    use crate::search::score::{is_decisive, plies_to_end};
    let hundredths = if is_decisive(score) {
        let plies = plies_to_end(score).min(9_999) as i64;
        (10_000 - plies) * i64::from(score.signum())
    } else {
        i64::from(score)
    };
    let sign = if hundredths < 0 { "-" } else { "" };
    let magnitude = hundredths.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id {
                name,
                version,
                author,
                country,
            } => write!(
                f,
                "id name={} version={} author={} country={}",
                quoted(name),
                quoted(version),
                quoted(author),
                quoted(country)
            ),
            Reply::Param { name, value, kind } => {
                write!(f, "param name={} value={}", quoted(name), quoted(value))?;
                match kind {
                    ParamType::Enum(values) => {
                        write!(f, " type=enum values={}", quoted(&values.join(" ")))
                    }
                    ParamType::Int { min, max } => write!(f, " type=int min={min} max={max}"),
                }
            }
            Reply::Wait => write!(f, "wait"),
            Reply::Ready => write!(f, "ready"),
            Reply::Info {
                depth,
                score,
                nodes,
                seconds,
            } => {
                let nps = if *seconds > 0.0 {
                    *nodes as f64 / seconds / 1e6
                } else {
                    0.0
                };
                write!(
                    f,
                    "info depth={depth} score={} nodes={nodes} time={seconds:.3} nps={nps:.1}",
                    score_text(*score)
                )
            }
            Reply::Done { mv } => write!(f, "done move={}", quoted(mv)),
            Reply::Pong => write!(f, "pong"),
            Reply::Error(message) => write!(f, "error message={}", quoted(message)),
        }
    }
}
