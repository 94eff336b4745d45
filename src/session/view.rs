//! What the UI draws: the whole state of a session as one JSON value ([`GameView`]), and the row
//! the home screen lists ([`SavedGame`]). Field names are the app contract (`docs/commands.md`).

use super::error::SessionError;
use super::game::Session;
use crate::describe::{BoardLayout, MoveInfo, PieceView, SeatStats};
use crate::position::{DrawCounter, EndReason, GameKind, GameResult, Outcome, Seat, Variant};
use crate::search::{Level, Playable};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: Seat,
    pub name: String,
    pub cpu: bool,
    pub stats: SeatStats,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub seat: Seat,
    #[serde(rename = "move")]
    pub played: MoveInfo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeView {
    /// `None` for a draw.
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

impl From<Outcome> for OutcomeView {
    fn from(outcome: Outcome) -> Self {
        OutcomeView {
            winner: match outcome.result {
                GameResult::Win(seat) => Some(seat),
                GameResult::Draw => None,
            },
            reason: outcome.reason,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub id: String,
    pub variant: Variant,
    pub mode: String,
    pub level: Option<Level>,
    pub human_seats: Vec<Seat>,
    pub seats: Vec<SeatView>,
    pub to_move: Seat,
    pub ply: usize,
    pub layout: BoardLayout,
    pub pieces: Vec<PieceView>,
    /// Legal moves of the current position; empty once the game is over.
    pub legal_moves: Vec<MoveInfo>,
    /// Draughts games, where capturing is compulsory: the pieces that must capture now (the
    /// origins of the legal captures, in first-seen order); empty otherwise.
    #[serde(default)]
    pub must_capture: Vec<String>,
    pub history: Vec<HistoryEntry>,
    pub outcome: Option<OutcomeView>,
    pub draw_counters: Vec<DrawCounter>,
    pub can_undo: bool,
    pub can_redo: bool,
    pub cpu_to_move: bool,
    /// Unix milliseconds of the last change.
    pub last_played: u64,
    /// Unix milliseconds when the game was created (with `last_played`: its length).
    pub created: u64,
    /// Set on a review view ([`Session::view_at`]): the plies replayed. Such a view is read-only
    /// (no legal moves, nothing to undo or redo, no CPU to move); absent from the live view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_ply: Option<usize>,
    /// Hints given in this game (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hints: u32,
    /// The tags an imported game was read with (Event, Site, Date, players …), `[name, value]`
    /// in their order; absent for a game started here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// The origins of the capturing moves in the games where capturing is compulsory (docs/rules.md:
/// English, International and Turkish draughts), which the board rings.
fn must_capture(kind: GameKind, legal_moves: &[MoveInfo]) -> Vec<String> {
    if !matches!(
        kind,
        GameKind::English | GameKind::International | GameKind::Turkish
    ) {
        return Vec::new();
    }
    let mut pieces: Vec<String> = Vec::new();
    for mv in legal_moves.iter().filter(|mv| !mv.captures.is_empty()) {
        if !pieces.contains(&mv.from) {
            pieces.push(mv.from.clone());
        }
    }
    pieces
}

/// A row of the home screen's list of saved games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    pub id: String,
    pub variant: Variant,
    pub mode: String,
    pub level: Option<Level>,
    pub ply: usize,
    pub to_move_name: String,
    pub finished: bool,
    pub last_played: u64,
}

impl Session {
    pub fn view(&self) -> GameView {
        self.describe(self.game(), self.outcome(), None)
    }

    /// The position after the game's first `ply` moves, as a read-only view marked with
    /// `review_ply` (the whole game's end shows at its last ply only). Fails with `BadInput` past
    /// the last move.
    pub fn view_at(&self, ply: usize) -> Result<GameView, SessionError> {
        let played = self.game().ply();
        if ply > played {
            return Err(SessionError::BadInput(format!(
                "ply {ply} is past the game's {played} moves"
            )));
        }
        let mut game = self.game().clone_box();
        for _ in ply..played {
            if !game.undo() {
                return Err(SessionError::BadInput(format!(
                    "ply {ply} cannot be reached from this game's record"
                )));
            }
        }
        let outcome = if ply == played {
            self.outcome()
        } else {
            game.outcome()
        };
        Ok(self.describe(game.as_ref(), outcome, Some(ply)))
    }

    /// The view of `game` (this session's game, or a copy taken back to an earlier ply for
    /// `review_ply`).
    fn describe(
        &self,
        game: &dyn Playable,
        outcome: Option<Outcome>,
        review_ply: Option<usize>,
    ) -> GameView {
        let live = review_ply.is_none();
        let stats = game.seat_stats();
        let seats = (0..game.seats() as Seat)
            .map(|seat| SeatView {
                seat,
                name: game.seat_name(seat).to_string(),
                cpu: !self.is_human(seat),
                stats: stats
                    .iter()
                    .find(|s| s.seat == seat)
                    .cloned()
                    .unwrap_or_else(|| SeatStats {
                        seat,
                        name: game.seat_name(seat).to_string(),
                        ..SeatStats::default()
                    }),
            })
            .collect();
        let legal_moves = if outcome.is_some() || !live {
            Vec::new()
        } else {
            game.legal_moves()
        };
        let history = self
            .movers()
            .zip(game.history())
            .map(|(seat, played)| HistoryEntry { seat, played })
            .collect();
        GameView {
            id: self.id().to_string(),
            variant: game.variant(),
            mode: self.mode().name().to_string(),
            level: self.mode().level(),
            human_seats: self.mode().human_seats(game.seats()),
            seats,
            to_move: game.to_move(),
            ply: game.ply(),
            layout: game.layout(),
            pieces: game.pieces(),
            must_capture: must_capture(game.variant().kind, &legal_moves),
            legal_moves,
            history,
            outcome: outcome.map(OutcomeView::from),
            draw_counters: game.draw_counters(),
            can_undo: live && self.can_undo(),
            can_redo: live && self.can_redo(),
            cpu_to_move: live && self.cpu_to_move(),
            last_played: self.last_played(),
            created: self.created(),
            review_ply,
            hints: self.hints(),
            tags: self.tags().to_vec(),
        }
    }

    pub fn summary(&self) -> SavedGame {
        let game = self.game();
        SavedGame {
            id: self.id().to_string(),
            variant: game.variant(),
            mode: self.mode().name().to_string(),
            level: self.mode().level(),
            ply: game.ply(),
            to_move_name: game.seat_name(game.to_move()).to_string(),
            finished: self.is_over(),
            last_played: self.last_played(),
        }
    }
}
