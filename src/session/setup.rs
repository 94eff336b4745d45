//! What a new game asks for, as the app sends it, and its validation into a [`Variant`] and a
//! [`Mode`]. Fields arrive as loose JSON types (strings, wide integers) so that a bad value
//! becomes a typed [`SessionError`] rather than a deserialisation failure.

use super::error::SessionError;
use crate::position::{GameKind, Seat, Variant};
use crate::search::Level;
use serde::{Deserialize, Serialize};

/// Who plays the seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Mode {
    /// The CPU plays every seat not listed in `human_seats`, at one level.
    Cpu {
        level: Level,
        human_seats: Vec<Seat>,
    },
    /// Pass-and-play on one device: every seat is human.
    Local,
}

impl Mode {
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Cpu { .. } => "cpu",
            Mode::Local => "local",
        }
    }

    pub fn level(&self) -> Option<Level> {
        match self {
            Mode::Cpu { level, .. } => Some(*level),
            Mode::Local => None,
        }
    }

    pub fn is_human(&self, seat: Seat) -> bool {
        match self {
            Mode::Cpu { human_seats, .. } => human_seats.contains(&seat),
            Mode::Local => true,
        }
    }

    /// The human seats of a game with `seats` seats, ascending.
    pub fn human_seats(&self, seats: usize) -> Vec<Seat> {
        (0..seats as Seat).filter(|&s| self.is_human(s)).collect()
    }

    /// Checks the mode against the game's seat count: vs CPU needs at least one human seat and
    /// one CPU seat, each seat named once and existing.
    pub fn check(&self, seats: usize) -> Result<(), SessionError> {
        let Mode::Cpu { human_seats, .. } = self else {
            return Ok(());
        };
        if human_seats.is_empty() {
            return Err(SessionError::BadInput(
                "a game vs the CPU needs a human seat".into(),
            ));
        }
        for (i, &seat) in human_seats.iter().enumerate() {
            if usize::from(seat) >= seats {
                return Err(SessionError::BadInput(format!(
                    "seat {seat} does not exist in a {seats}-player game"
                )));
            }
            if human_seats[..i].contains(&seat) {
                return Err(SessionError::BadInput(format!("seat {seat} listed twice")));
            }
        }
        if human_seats.len() >= seats {
            return Err(SessionError::BadInput(
                "a game vs the CPU needs a CPU seat; use local mode".into(),
            ));
        }
        Ok(())
    }

    /// The same mode with every human seat moved one place on (a rematch).
    pub fn rotated(&self, seats: usize) -> Mode {
        match self {
            Mode::Cpu { level, human_seats } => {
                let mut rotated: Vec<Seat> = human_seats
                    .iter()
                    .map(|&s| ((usize::from(s) + 1) % seats.max(1)) as Seat)
                    .collect();
                rotated.sort_unstable();
                Mode::Cpu {
                    level: *level,
                    human_seats: rotated,
                }
            }
            Mode::Local => Mode::Local,
        }
    }
}

/// The `variant` of a new-game request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantSetup {
    pub kind: String,
    #[serde(default)]
    pub players: Option<i64>,
    #[serde(default)]
    pub long_jump: bool,
}

impl VariantSetup {
    pub fn validate(&self) -> Result<Variant, SessionError> {
        let kind = GameKind::parse(&self.kind)?;
        let players = match self.players {
            None => None,
            Some(n) => Some(u8::try_from(n).map_err(|_| {
                SessionError::BadPlayers(format!("{} cannot be played by {n} players", self.kind))
            })?),
        };
        Ok(Variant::new(kind, players, self.long_jump)?)
    }
}

/// A new-game request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    pub variant: VariantSetup,
    /// "cpu" or "local".
    pub mode: String,
    /// "easy", "medium" or "hard"; required vs the CPU, ignored in local mode.
    #[serde(default)]
    pub level: Option<String>,
    /// Vs the CPU: the human seats (default: seat 0). Ignored in local mode.
    #[serde(default)]
    pub human_seats: Option<Vec<i64>>,
    /// A start position in the game's text format instead of the standard start.
    #[serde(default)]
    pub position: Option<String>,
}

impl GameSetup {
    /// The variant and mode asked for, checked against each other.
    pub fn validate(&self) -> Result<(Variant, Mode), SessionError> {
        let variant = self.variant.validate()?;
        let mode = parse_mode(
            &self.mode,
            self.level.as_deref(),
            self.human_seats.as_deref(),
        )?;
        mode.check(usize::from(variant.players))?;
        Ok((variant, mode))
    }
}

/// How a game is played: the mode fields of a new-game request (also an imported game's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeSetup {
    /// "cpu" or "local".
    pub mode: String,
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub human_seats: Option<Vec<i64>>,
}

impl ModeSetup {
    /// The mode asked for (not yet checked against a game's seats: see [`Mode::check`]).
    pub fn validate(&self) -> Result<Mode, SessionError> {
        parse_mode(
            &self.mode,
            self.level.as_deref(),
            self.human_seats.as_deref(),
        )
    }
}

fn parse_mode(
    mode: &str,
    level: Option<&str>,
    human_seats: Option<&[i64]>,
) -> Result<Mode, SessionError> {
    let parsed = match mode {
        "local" => Mode::Local,
        "cpu" => {
            let level = match level {
                None => return Err(SessionError::BadLevel("a CPU level is required".into())),
                Some(text) => Level::parse(text).ok_or_else(|| {
                    SessionError::BadLevel(format!(
                        "unknown level '{text}' (expected easy, medium, hard or expert)"
                    ))
                })?,
            };
            let human_seats = match human_seats {
                None => vec![0],
                Some(seats) => seats
                    .iter()
                    .map(|&s| {
                        Seat::try_from(s)
                            .map_err(|_| SessionError::BadInput(format!("seat {s} does not exist")))
                    })
                    .collect::<Result<_, _>>()?,
            };
            Mode::Cpu { level, human_seats }
        }
        other => {
            return Err(SessionError::BadInput(format!(
                "unknown mode '{other}' (expected cpu or local)"
            )))
        }
    };
    Ok(parsed)
}
