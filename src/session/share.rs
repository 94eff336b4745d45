//! A game as text to share and read back. The draughts games are written as PDN (`GameType` 20, 21
//! or 30; the result token names the winner by colour). The star games use the same tag and
//! movetext shape, their record text: the start position always in the `FEN` tag (its header
//! names the variant), moves in F/P notation, the result token `*` (PDN results name White and
//! Black) and the end in a `Winner` tag. A resignation is a `Resigned` tag naming the seat.
//!
//! Reading replays every move through the rules; anything wrong is an [`ImportError`] naming the
//! line and the problem as a code with its arguments (a UI words it in the player's language),
//! and no session is made.
//!
//! The tags read with a game (Event, Site, Date, players, anything else) are kept with it, saved,
//! shown in its view and written back first and unchanged by the export. The app's own games are
//! exported with the day they were started, the players (the human's name as the app gives it,
//! "CPU (hard)" for a CPU seat) and the result.

use super::error::SessionError;
use super::game::{Played, Session};
use super::setup::Mode;
use crate::catalogue;
use crate::notation::pdn::{self, PdnError, PdnResult, SyntaxProblem};
use crate::notation::star_text;
use crate::position::{GameKind, GameResult, MoveError, Seat, SetupError, Variant};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImportError {
    /// The text is not a game this app can replay; `line` is 1-based (0: the text as a whole).
    #[error("line {line}: {problem}")]
    BadText { line: usize, problem: ImportProblem },
    /// The game is fine but cannot be played as asked (a mode that does not fit its seats).
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// Why a text does not replay: a stable [`ImportProblem::code`] and its [`ImportProblem::args`];
/// the `Display` text is English detail.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImportProblem {
    #[error("PDN syntax: {0}")]
    Syntax(SyntaxProblem),
    #[error("unsupported GameType '{0}' (expected 20, 21 or 30)")]
    GameType(String),
    /// The `FEN` tag's position, as the game's setup refused it: a [`SetupError::Position`]
    /// wraps the FEN or star-text reader's error, or what the rules forbid on the board.
    #[error("start position: {0}")]
    StartPosition(SetupError),
    /// Move `ply` (1-based) of the movetext, as written.
    #[error("move {ply} '{text}': {error}")]
    Move {
        ply: usize,
        text: String,
        error: MoveError,
    },
    #[error("no seat named '{0}'")]
    UnknownSeat(String),
    #[error("a resignation after the end of the game")]
    ResignedAfterEnd,
}

impl ImportProblem {
    /// The stable key the UI translates.
    pub fn code(&self) -> &'static str {
        match self {
            ImportProblem::Syntax(_) => "syntax",
            ImportProblem::GameType(_) => "game_type",
            ImportProblem::StartPosition(_) => "start_position",
            ImportProblem::Move { error, .. } => match error {
                MoveError::Syntax(_) => "move_syntax",
                MoveError::Illegal(_) => "illegal_move",
                MoveError::Ambiguous(_) => "ambiguous_move",
                MoveError::GameOver => "move_after_end",
            },
            ImportProblem::UnknownSeat(_) => "unknown_seat",
            ImportProblem::ResignedAfterEnd => "resigned_after_end",
        }
    }

    /// The code's arguments, by name: `syntax` → `what` (a [`SyntaxProblem::code`]) and, for an
    /// unexpected character, `symbol`; `game_type` → `value`; `start_position` → `detail`
    /// (English); the move codes → `ply`, `move`; `unknown_seat` → `name`.
    pub fn args(&self) -> Vec<(&'static str, String)> {
        match self {
            ImportProblem::Syntax(problem) => {
                let mut args = vec![("what", problem.code().to_string())];
                if let SyntaxProblem::Unexpected(symbol) = problem {
                    args.push(("symbol", symbol.to_string()));
                }
                args
            }
            ImportProblem::GameType(value) => vec![("value", value.clone())],
            ImportProblem::StartPosition(error) => vec![("detail", error.to_string())],
            ImportProblem::Move { ply, text, .. } => {
                vec![("ply", ply.to_string()), ("move", text.clone())]
            }
            ImportProblem::UnknownSeat(name) => vec![("name", name.clone())],
            ImportProblem::ResignedAfterEnd => Vec::new(),
        }
    }
}

impl ImportError {
    pub fn line(&self) -> Option<usize> {
        match self {
            ImportError::BadText { line, .. } => Some(*line),
            ImportError::Session(_) => None,
        }
    }
}

fn is_draughts(kind: GameKind) -> bool {
    pdn::game_type(kind).is_some()
}

/// The tags that tell a game's end: written as the game stands now, never as read (`Result`
/// keeps its place among the kept tags).
const RESULT_TAGS: [&str; 3] = ["Result", "Winner", "Resigned"];

/// A day as PDN writes it, `YYYY.MM.DD` (UTC), from Unix milliseconds.
pub fn pdn_date(unix_ms: u64) -> String {
    // Days to the civil date (Howard Hinnant's algorithm, proleptic Gregorian calendar).
    let days = (unix_ms / 86_400_000) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn push(tags: &mut Vec<(String, String)>, name: &str, value: String) {
    tags.push((name.to_string(), value));
}

/// The longest player name written (a nickname's length).
const PLAYER_NAME_CHARS: usize = 24;

/// A player's name fit for a tag line: no control characters, trimmed, at most
/// [`PLAYER_NAME_CHARS`] characters.
fn clean_player(name: &str) -> String {
    let kept: String = name.chars().filter(|c| !c.is_control()).collect();
    kept.trim()
        .chars()
        .take(PLAYER_NAME_CHARS)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A seat's tag name: its name capitalised (`White`, `Black`, `Red` …), `Player3` for a seat
/// named by its number (the capture game).
fn seat_tag(name: &str) -> String {
    if name.bytes().all(|b| b.is_ascii_digit()) {
        return format!("Player{name}");
    }
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl Session {
    /// The tags read with an imported game (none for a game started here).
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The game as PDN (draughts) or record text (star games), re-read by [`Session::import`],
    /// the players unnamed where the app does not know them.
    pub fn export_text(&self) -> String {
        self.export_text_for(None)
    }

    /// [`Session::export_text`] with `player` as the human's name against the CPU. A game started
    /// here names its day (UTC), its players (`player` or `?` for a human seat, `CPU (<level>)`
    /// for the CPU's) and its end; an imported one keeps the tags it was read with.
    pub fn export_text_for(&self, player: Option<&str>) -> String {
        let game = self.game();
        let variant = game.variant();
        let outcome = self.outcome();
        let mut tags: Vec<(String, String)> = Vec::new();
        if self.tags.is_empty() {
            push(&mut tags, "Event", "Damas".into());
            push(&mut tags, "Date", pdn_date(self.created));
            for seat in 0..game.seats() as Seat {
                let name = match &self.mode {
                    Mode::Cpu { level, .. } if !self.is_human(seat) => {
                        format!("CPU ({})", level.as_str())
                    }
                    Mode::Cpu { .. } => player
                        .map(clean_player)
                        .filter(|name| !name.is_empty())
                        .unwrap_or_else(|| "?".into()),
                    Mode::Local => "?".into(),
                };
                // "?" is the roster's default for White and Black; star seats unknown are left out.
                if name != "?" {
                    push(&mut tags, &seat_tag(game.seat_name(seat)), name);
                }
            }
        }
        if is_draughts(variant.kind) {
            let result = match outcome.map(|o| o.result) {
                None => PdnResult::Unfinished,
                Some(GameResult::Draw) => PdnResult::Draw,
                Some(GameResult::Win(seat)) if game.seat_name(seat) == "white" => {
                    PdnResult::WhiteWins
                }
                Some(GameResult::Win(_)) => PdnResult::BlackWins,
            };
            push(&mut tags, "Result", result.as_str().into());
        } else {
            push(&mut tags, "Result", PdnResult::Unfinished.as_str().into());
            if !self.tags.iter().any(|(name, _)| name == "FEN") {
                push(&mut tags, "SetUp", "1".into());
                push(&mut tags, "FEN", game.start_text());
            }
            if let Some(outcome) = outcome {
                let winner = match outcome.result {
                    GameResult::Win(seat) => game.seat_name(seat),
                    GameResult::Draw => "draw",
                };
                push(&mut tags, "Winner", winner.into());
            }
        }
        if let Some(seat) = self.resigned {
            push(&mut tags, "Resigned", game.seat_name(seat).into());
        }
        // The kept tags describe the game as read; the result tags are the game's now.
        let kept: Vec<(String, String)> = self
            .tags
            .iter()
            .filter(|(name, _)| !RESULT_TAGS.contains(&name.as_str()) || name == "Result")
            .cloned()
            .collect();
        let borrowed: Vec<(&str, &str)> =
            tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        pdn::write_kept(game, &kept, &borrowed)
    }

    /// A file name for [`Session::export_text`]: `.pdn` for draughts, `.txt` for star games.
    pub fn export_file_name(&self) -> String {
        let kind = self.game().variant().kind;
        let extension = if is_draughts(kind) { "pdn" } else { "txt" };
        format!("damas-{}-{}.{extension}", kind.as_str(), self.id)
    }

    /// A session replaying `text` (see the module), to be played on as `mode` asks.
    pub fn import(id: String, text: &str, mode: Mode) -> Result<Session, ImportError> {
        let bad = |line: usize, problem: ImportProblem| ImportError::BadText { line, problem };
        let tag_line = |name: &str| {
            let needle = format!("[{name}");
            text.lines()
                .position(|line| line.trim_start().starts_with(&needle))
                .map_or(0, |index| index + 1)
        };
        let parsed = pdn::parse(text).map_err(|error| match error {
            PdnError::Syntax { at, problem } => {
                bad(pdn::line_of(text, at), ImportProblem::Syntax(problem))
            }
            // `parse` fails on syntax only; the rest are mapped for completeness.
            PdnError::GameType(value) => bad(0, ImportProblem::GameType(value)),
            PdnError::WrongGame { found, .. } => bad(0, ImportProblem::GameType(found)),
            PdnError::Setup(error) => bad(0, ImportProblem::StartPosition(error)),
            PdnError::Move { ply, text, error } => bad(0, ImportProblem::Move { ply, text, error }),
        })?;
        let fen = parsed.tag("FEN");
        let game_type = parsed.game_kind().map_err(|error| {
            let value = match error {
                PdnError::GameType(value) => value,
                other => other.to_string(),
            };
            bad(tag_line("GameType"), ImportProblem::GameType(value))
        })?;
        let variant = match game_type {
            Some(kind) => Variant::standard(kind),
            None => match fen.map(star_text::variant_of) {
                Some(Ok(variant)) => variant,
                // No game type and no star position: PDN's default, the English game.
                _ => Variant::standard(GameKind::English),
            },
        };
        let game = catalogue::new_game(variant, fen)
            .map_err(|error| bad(tag_line("FEN"), ImportProblem::StartPosition(error)))?;
        let mut session = Session::from_game(id, game, mode)?;
        for (index, text_move) in parsed.moves.iter().enumerate() {
            let seat = session.game.to_move();
            let info = session.game.play(text_move).map_err(|error| {
                let at = parsed.move_starts.get(index).copied().unwrap_or(0);
                bad(
                    pdn::line_of(text, at),
                    ImportProblem::Move {
                        ply: index + 1,
                        text: text_move.clone(),
                        error,
                    },
                )
            })?;
            session.played.push(Played {
                seat,
                text: info.text,
            });
        }
        let resigned = match parsed.tag("Resigned") {
            Some(name) => Some(seat_named(&session, name).ok_or_else(|| {
                bad(
                    tag_line("Resigned"),
                    ImportProblem::UnknownSeat(name.to_string()),
                )
            })?),
            // Another program's PDN: a win the rules did not reach was a resignation.
            None if session.game.outcome().is_none() => match parsed.result {
                PdnResult::WhiteWins => seat_named(&session, "black"),
                PdnResult::BlackWins => seat_named(&session, "white"),
                _ => None,
            },
            None => None,
        };
        if let Some(seat) = resigned {
            if session.game.outcome().is_some() {
                return Err(bad(tag_line("Resigned"), ImportProblem::ResignedAfterEnd));
            }
            session.resigned = Some(seat);
        }
        // An imported end is not one played here: it is not counted as a game finished.
        session.finish_counted = session.is_over();
        session.tags = parsed.tags;
        session.version += 1;
        Ok(session)
    }
}

fn seat_named(session: &Session, name: &str) -> Option<Seat> {
    let game = session.game();
    (0..game.seats() as Seat).find(|&seat| game.seat_name(seat).eq_ignore_ascii_case(name))
}
