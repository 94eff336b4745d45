//! A game as text to share and read back. The draughts games are written as PDN (`GameType` 20, 21
//! or 30; the result token names the winner by colour). The star games use the same tag and
//! movetext shape, their record text: the start position always in the `FEN` tag (its header
//! names the variant), moves in F/P notation, the result token `*` (PDN results name White and
//! Black) and the end in a `Winner` tag. A resignation is a `Resigned` tag naming the seat.
//!
//! Reading replays every move through the rules; anything wrong is an [`ImportError`] naming the
//! line, and no session is made.

use super::{Mode, Played, Session, SessionError};
use crate::catalogue;
use crate::notation::pdn::{self, PdnError, PdnResult};
use crate::notation::star_text;
use crate::position::{GameKind, GameResult, Seat, Variant};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImportError {
    /// The text is not a game this app can replay; `line` is 1-based (0: the text as a whole).
    #[error("line {line}: {detail}")]
    BadText { line: usize, detail: String },
    /// The game is fine but cannot be played as asked (a mode that does not fit its seats).
    #[error(transparent)]
    Session(#[from] SessionError),
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

impl Session {
    /// The game as PDN (draughts) or record text (star games), re-read by [`Session::import`].
    pub fn export_text(&self) -> String {
        let game = self.game();
        let variant = game.variant();
        let outcome = self.outcome();
        let mut tags: Vec<(&str, String)> = vec![("Event", "Damas".into())];
        if is_draughts(variant.kind) {
            let result = match outcome.map(|o| o.result) {
                None => PdnResult::Unfinished,
                Some(GameResult::Draw) => PdnResult::Draw,
                Some(GameResult::Win(seat)) if game.seat_name(seat) == "white" => {
                    PdnResult::WhiteWins
                }
                Some(GameResult::Win(_)) => PdnResult::BlackWins,
            };
            tags.push(("Result", result.as_str().into()));
        } else {
            tags.push(("Result", PdnResult::Unfinished.as_str().into()));
            tags.push(("SetUp", "1".into()));
            tags.push(("FEN", game.start_text()));
            if let Some(outcome) = outcome {
                let winner = match outcome.result {
                    GameResult::Win(seat) => game.seat_name(seat),
                    GameResult::Draw => "draw",
                };
                tags.push(("Winner", winner.into()));
            }
        }
        if let Some(seat) = self.resigned {
            tags.push(("Resigned", game.seat_name(seat).into()));
        }
        let borrowed: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (*n, v.as_str())).collect();
        pdn::write(game, &borrowed)
    }

    /// A file name for [`Session::export_text`]: `.pdn` for draughts, `.txt` for star games.
    pub fn export_file_name(&self) -> String {
        let kind = self.game().variant().kind;
        let extension = if is_draughts(kind) { "pdn" } else { "txt" };
        format!("damas-{}-{}.{extension}", kind.as_str(), self.id)
    }

    /// A session replaying `text` (see the module), to be played on as `mode` asks.
    pub fn import(id: String, text: &str, mode: Mode) -> Result<Session, ImportError> {
        let bad = |line: usize, detail: String| ImportError::BadText { line, detail };
        let tag_line = |name: &str| {
            let needle = format!("[{name}");
            text.lines()
                .position(|line| line.trim_start().starts_with(&needle))
                .map_or(0, |index| index + 1)
        };
        let parsed = pdn::parse(text).map_err(|error| match &error {
            PdnError::Syntax { at, .. } => bad(pdn::line_of(text, *at), error.to_string()),
            other => bad(0, other.to_string()),
        })?;
        let fen = parsed.tag("FEN");
        let variant = match parsed
            .game_kind()
            .map_err(|error| bad(tag_line("GameType"), error.to_string()))?
        {
            Some(kind) => Variant::standard(kind),
            None => match fen.map(star_text::variant_of) {
                Some(Ok(variant)) => variant,
                // No game type and no star position: PDN's default, the English game.
                _ => Variant::standard(GameKind::English),
            },
        };
        let game = catalogue::new_game(variant, fen)
            .map_err(|error| bad(tag_line("FEN"), format!("start position: {error}")))?;
        let mut session = Session::from_game(id, game, mode)?;
        for (index, text_move) in parsed.moves.iter().enumerate() {
            let seat = session.game.to_move();
            let info = session.game.play(text_move).map_err(|error| {
                let at = parsed.move_starts.get(index).copied().unwrap_or(0);
                bad(
                    pdn::line_of(text, at),
                    format!("move {} '{text_move}': {error}", index + 1),
                )
            })?;
            session.played.push(Played {
                seat,
                text: info.text,
            });
        }
        let resigned = match parsed.tag("Resigned") {
            Some(name) => Some(
                seat_named(&session, name)
                    .ok_or_else(|| bad(tag_line("Resigned"), format!("no seat named '{name}'")))?,
            ),
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
                return Err(bad(
                    tag_line("Resigned"),
                    "a resignation after the end of the game".into(),
                ));
            }
            session.resigned = Some(seat);
        }
        // An imported end is not one played here: it is not counted as a game finished.
        session.finish_counted = session.is_over();
        session.version += 1;
        Ok(session)
    }
}

fn seat_named(session: &Session, name: &str) -> Option<Seat> {
    let game = session.game();
    (0..game.seats() as Seat).find(|&seat| game.seat_name(seat).eq_ignore_ascii_case(name))
}
