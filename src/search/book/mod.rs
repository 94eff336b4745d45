//! Expert's opening book in the draughts games: position → move, made by the lab
//! (`damas-lab book`, docs/cpu.md "Opening book") from expert's own deeper searches of the
//! first plies, committed beside this module and included in the binary.
//!
//! Rule: a player consults the book only when its [`crate::search::Params::book`] is set
//! (expert alone), and plays the stored move only if it is one of the position's legal moves;
//! anything else — no book for the game, a refused file, an unknown position, a stored move
//! that is not legal there — and the player searches as without a book. The books are owned
//! by the caller's [`crate::search::SearchContext`], never process-wide.
//!
//! `format` holds the file format and its typed errors.

mod format;

pub use format::{encode, Book, BookEntry, BookError, VERSION};

use crate::describe::Describe;
use crate::position::{GameKind, Position};

/// The committed books, one per draughts game.
const ENGLISH: &[u8] = include_bytes!("english.book");
const INTERNATIONAL: &[u8] = include_bytes!("international.book");
const TURKISH: &[u8] = include_bytes!("turkish.book");

/// The book of each draughts game, or why it was refused.
#[derive(Clone, Debug)]
pub struct OpeningBooks {
    english: Result<Book, BookError>,
    international: Result<Book, BookError>,
    turkish: Result<Book, BookError>,
}

/// What a game without a book answers: nothing to refuse, nothing to play.
fn absent() -> Result<Book, BookError> {
    Err(BookError::Absent)
}

impl OpeningBooks {
    /// The books committed with the engine; a damaged one is left out (see [`Self::error`]).
    pub fn embedded() -> OpeningBooks {
        OpeningBooks {
            english: Book::decode(ENGLISH, GameKind::English),
            international: Book::decode(INTERNATIONAL, GameKind::International),
            turkish: Book::decode(TURKISH, GameKind::Turkish),
        }
    }

    /// No book for any game (matches and commands played without one).
    pub fn none() -> OpeningBooks {
        OpeningBooks {
            english: absent(),
            international: absent(),
            turkish: absent(),
        }
    }

    /// These books with `kind`'s replaced by the file `bytes` (refused with its error, which
    /// then leaves `kind` without a book).
    pub fn with_file(
        mut self,
        kind: GameKind,
        bytes: impl Into<std::borrow::Cow<'static, [u8]>>,
    ) -> OpeningBooks {
        let book = Book::decode(bytes, kind);
        if let Some(slot) = self.slot(kind) {
            *slot = book;
        }
        self
    }

    fn slot(&mut self, kind: GameKind) -> Option<&mut Result<Book, BookError>> {
        match kind {
            GameKind::English => Some(&mut self.english),
            GameKind::International => Some(&mut self.international),
            GameKind::Turkish => Some(&mut self.turkish),
            GameKind::Diamond | GameKind::Capture => None,
        }
    }

    fn result(&self, kind: GameKind) -> Option<&Result<Book, BookError>> {
        match kind {
            GameKind::English => Some(&self.english),
            GameKind::International => Some(&self.international),
            GameKind::Turkish => Some(&self.turkish),
            GameKind::Diamond | GameKind::Capture => None,
        }
    }

    /// `kind`'s book, when it has one that was accepted.
    pub fn get(&self, kind: GameKind) -> Option<&Book> {
        self.result(kind)?.as_ref().ok()
    }

    /// Why `kind`'s book was refused (or is absent).
    pub fn error(&self, kind: GameKind) -> Option<&BookError> {
        self.result(kind)?.as_ref().err()
    }
}

/// The book's move in `position` with the score its search gave (from the mover's side), when
/// its game's book holds the position and the stored move is legal there.
pub fn book_move<P: Position + Describe>(
    position: &P,
    books: &OpeningBooks,
) -> Option<(P::Move, i32)> {
    let (text, score) = books
        .get(position.variant().kind)?
        .lookup_scored(position.zobrist())?;
    let mv = position.parse_move(text).ok()?;
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.contains(&mv).then_some((mv, score))
}

#[cfg(test)]
mod tests;
