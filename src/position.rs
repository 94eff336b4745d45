//! The one trait every game implements, and the small types it speaks in.
//!
//! A [`Position`] is everything needed to continue a game from here: the board, whose turn it is,
//! the variant options (player count, long jump) and the draw counters that a position carries
//! (plies without progress, plies played). What needs the whole history — repetition — is judged
//! one layer up, by [`crate::record::Record`].
//!
//! Search, sessions, the CLI and the app only ever talk to games through this trait (or through the
//! object-safe [`crate::record::AnyGame`] built on it), so no layer above the rules special-cases a game.

use crate::notation::fen::FenError;
use crate::notation::star_text::error::StarTextError;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use thiserror::Error;

/// A seat at the table, in turn order: 0 moves first.
pub type Seat = u8;

/// The five games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    English,
    International,
    Turkish,
    Diamond,
    Capture,
}

impl GameKind {
    pub const ALL: [GameKind; 5] = [
        GameKind::English,
        GameKind::International,
        GameKind::Turkish,
        GameKind::Diamond,
        GameKind::Capture,
    ];

    /// The name used on the command line and in save files.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::English => "english",
            GameKind::International => "international",
            GameKind::Turkish => "turkish",
            GameKind::Diamond => "diamond",
            GameKind::Capture => "capture",
        }
    }

    pub fn parse(name: &str) -> Result<GameKind, SetupError> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
            .ok_or_else(|| SetupError::UnknownGame(name.to_string()))
    }

    /// Player counts the game allows.
    pub fn player_range(self) -> std::ops::RangeInclusive<u8> {
        match self {
            GameKind::English | GameKind::International | GameKind::Turkish => 2..=2,
            GameKind::Diamond => 2..=3,
            GameKind::Capture => 2..=6,
        }
    }

    /// Player count when none is asked for.
    pub fn default_players(self) -> u8 {
        match self {
            GameKind::Diamond => 3,
            _ => 2,
        }
    }

    /// Whether this is one of the two-player draughts games.
    pub fn is_draughts(self) -> bool {
        matches!(
            self,
            GameKind::English | GameKind::International | GameKind::Turkish
        )
    }
}

/// A game with its options: what a new game, a save file or a CLI call names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Variant {
    pub kind: GameKind,
    pub players: u8,
    /// "Salto largo" (capture game only).
    #[serde(default)]
    pub long_jump: bool,
}

impl Variant {
    /// A validated variant: the player count must suit the game, and the long jump exists only in
    /// the capture game.
    pub fn new(
        kind: GameKind,
        players: Option<u8>,
        long_jump: bool,
    ) -> Result<Variant, SetupError> {
        let players = players.unwrap_or_else(|| kind.default_players());
        if !kind.player_range().contains(&players) {
            return Err(SetupError::PlayerCount {
                game: kind.as_str(),
                players,
            });
        }
        if long_jump && kind != GameKind::Capture {
            return Err(SetupError::LongJumpNotAvailable(kind.as_str()));
        }
        Ok(Variant {
            kind,
            players,
            long_jump,
        })
    }

    pub fn standard(kind: GameKind) -> Variant {
        Variant {
            kind,
            players: kind.default_players(),
            long_jump: false,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    Win(Seat),
    Draw,
}

/// Why a game ended; the serialised name doubles as the UI's translation key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The side to move has no legal move (draughts): it loses.
    NoLegalMoves,
    /// Diamond: destination full and the king on the apex.
    DestinationReached,
    /// Capture game: no jump is left anywhere; most captures wins (or a tie at the top draws).
    NoJumpsLeft,
    /// The same position with the same player to move for the third time.
    Repetition,
    /// Plies without capture or man move (English 80, Turkish/International 50).
    NoProgress,
    /// Plies in all (English 400, Diamond 800/1200).
    MoveLimit,
    /// A material balance that cannot be won (one king each, 2 kings vs 1 in International …).
    InsufficientMaterial,
    /// International: the strong side did not win within its 16 counted moves.
    EndgameCount,
    /// Diamond: every player passed in a row.
    AllPassed,
    Resignation,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::NoLegalMoves => "no_legal_moves",
            EndReason::DestinationReached => "destination_reached",
            EndReason::NoJumpsLeft => "no_jumps_left",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no_progress",
            EndReason::MoveLimit => "move_limit",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::EndgameCount => "endgame_count",
            EndReason::AllPassed => "all_passed",
            EndReason::Resignation => "resignation",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::Win(seat),
            reason,
        }
    }

    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }
}

/// Plies left before a counting draw rule ends the game (shown by the UI when it nears).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawCounter {
    pub reason: EndReason,
    pub plies_left: u32,
}

/// Errors reading a position or a move, or setting up a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("unknown game '{0}' (expected english, international, turkish, diamond or capture)")]
    UnknownGame(String),
    #[error("{game} cannot be played by {players} players")]
    PlayerCount { game: &'static str, players: u8 },
    #[error("the long jump option exists only in the capture game, not in {0}")]
    LongJumpNotAvailable(&'static str),
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
}

impl From<StarTextError> for SetupError {
    fn from(error: StarTextError) -> SetupError {
        SetupError::Position(error.into())
    }
}

impl From<FenError> for SetupError {
    fn from(error: FenError) -> SetupError {
        SetupError::Position(error.into())
    }
}

/// Why a position text was refused: its syntax (FEN, star text) or what a game's rules forbid
/// on its board. The texts are English detail; callers match the variants.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    StarText(#[from] StarTextError),
    /// A numbered draughts square outside the board (English 1-32, International 1-50).
    #[error("square '{square}' is not on this board (1-{squares})")]
    NotOnBoard { square: String, squares: u32 },
    /// A Turkish square name outside `a1`–`h8`.
    #[error("'{0}' is not a square a1-h8")]
    NotAlgebraic(String),
    #[error("square {0} is listed twice")]
    ListedTwice(String),
    /// Turkish wording of [`PositionError::ListedTwice`].
    #[error("square {0} is given twice")]
    GivenTwice(String),
    /// A man on the row where it would have been crowned.
    #[error("a man on square {0} stands on its crowning row")]
    ManOnCrowningRow(String),
    /// Turkish wording of [`PositionError::ManOnCrowningRow`].
    #[error("a man cannot stand on its last row ({0})")]
    ManOnLastRow(String),
    #[error("{colour} has {pieces} pieces, at most {max} are allowed")]
    TooManyPieces {
        colour: &'static str,
        pieces: u32,
        max: u32,
    },
    /// A position of one game given to start another.
    #[error("an {game} position cannot start a {asked} game")]
    OtherGame {
        game: &'static str,
        asked: &'static str,
    },
    #[error("not a {game} variant: {variant:?}")]
    NotVariant {
        game: &'static str,
        variant: Variant,
    },
    /// A text the game cannot read at all (the small test games' formats).
    #[error("{0}")]
    Unreadable(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("'{0}' is not a move in this game's notation")]
    Syntax(String),
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
    #[error("'{0}' matches several legal moves; give the full path")]
    Ambiguous(String),
    #[error("the game is over")]
    GameOver,
}

/// The rules of one game, on one position. Required: the board logic; provided: helpers built on it.
/// How a position is shown and written (move texts, seats, board, pieces) is
/// [`Describe`](crate::describe::Describe), built on this trait.
pub trait Position: Clone + Debug + Send + Sync + 'static {
    /// A legal move. Games keep it small; the path for display comes from
    /// [`Describe::move_info`](crate::describe::Describe::move_info).
    type Move: Clone + PartialEq + Debug + Send + Sync + 'static;

    /// The start position of a variant (the variant's kind must be this game's).
    fn start(variant: Variant) -> Result<Self, SetupError>;

    /// Reads the game's position text (FEN for draughts, the star format for the others).
    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError>;

    /// Writes the position text that `from_text` reads back.
    fn to_text(&self) -> String;

    fn variant(&self) -> Variant;

    /// Number of seats in turn order.
    fn seats(&self) -> usize {
        usize::from(self.variant().players)
    }

    fn to_move(&self) -> Seat;

    /// Every legal move once (moves are identified as each game's rules say: draughts by
    /// (from, to, captured set), Diamond by (from, to) …). Where a game lets a blocked player pass,
    /// the pass is the single move returned. A finished position may still list moves; callers ask
    /// [`Position::outcome`] first.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a move from `legal_moves` of this position.
    fn play(&mut self, mv: &Self::Move);

    /// The end decided by this position alone (no moves, draw counters carried in the position,
    /// material draws, Diamond's destination). Repetition needs the history and is judged by the
    /// record.
    fn outcome(&self) -> Option<Outcome>;

    /// A hash of board and side to move (not the counters): equal positions for repetition and
    /// the search's transposition table.
    fn zobrist(&self) -> u64;

    /// The end when `resigning` gives up. Two seats: the other wins. More seats: the next seat in
    /// turn order wins unless the game defines better (Diamond 3p: the closest to home).
    fn resignation_outcome(&self, resigning: Seat) -> Outcome {
        let seats = self.seats().max(1) as u8;
        Outcome::win((resigning + 1) % seats, EndReason::Resignation)
    }

    /// How often the same position may occur before the game is drawn (draughts: 3).
    fn repetition_limit(&self) -> Option<u32> {
        None
    }

    /// Whether a move can never be undone by later moves (a capture, a man move): positions before
    /// it cannot repeat after it. Used to bound repetition checks.
    fn is_irreversible(&self, _mv: &Self::Move) -> bool {
        false
    }

    /// The counting draw rules' remaining plies, for display.
    fn draw_counters(&self) -> Vec<DrawCounter> {
        Vec::new()
    }

    /// Number of legal moves (perft's last ply). Games override it with a faster count.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// Perft counting every capture path separately (two paths to the same capture are one move
    /// but two paths): `Some` where the game's published figures count paths (Turkish draughts,
    /// as kish does), `None` for the other games.
    fn perft_paths(&self, _depth: u32) -> Option<u64> {
        None
    }

    /// All legal moves, freshly allocated.
    fn moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
    }

    /// The position after a move.
    fn after(&self, mv: &Self::Move) -> Self {
        let mut next = self.clone();
        next.play(mv);
        next
    }
}
