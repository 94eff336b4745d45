//! What a CPU player's searches keep between moves, owned by whoever asks for moves: the app,
//! the room server, the CLI, each test. Nothing in the engine is process-wide, so two contexts
//! never see each other's tables.

use super::book::OpeningBooks;
use super::endgame::EndgameTables;
use super::table_pool::TablePool;
use std::path::PathBuf;

/// Tables kept for expert: one per seat of two games at once (a game and a hint, or two games of
/// a match played at once), 16 MiB each at expert's size.
const EXPERT_TABLES: usize = 2;

/// The state expert's searches share: its transposition tables kept from one move to the next
/// ([`TablePool`]), the endgame databases ([`EndgameTables`]) and the opening books
/// ([`OpeningBooks`]). The node-budgeted levels read none of them, so they play the same moves
/// with any context.
#[derive(Debug)]
pub struct SearchContext {
    tables: TablePool,
    endgame: EndgameTables,
    books: OpeningBooks,
}

impl SearchContext {
    /// A context without endgame databases, with the committed opening books.
    pub fn new() -> SearchContext {
        SearchContext::with_endgame(None)
    }

    /// A context whose expert reads the endgame databases in `directory` (none when `None`)
    /// and the committed opening books.
    pub fn with_endgame(directory: Option<PathBuf>) -> SearchContext {
        SearchContext {
            tables: TablePool::new(EXPERT_TABLES),
            endgame: EndgameTables::new(directory),
            books: OpeningBooks::embedded(),
        }
    }

    /// The same context with these opening books instead ([`OpeningBooks::none`]: expert
    /// searches from the first move).
    pub fn with_books(self, books: OpeningBooks) -> SearchContext {
        SearchContext { books, ..self }
    }

    /// The opening books.
    pub fn books(&self) -> &OpeningBooks {
        &self.books
    }

    /// The endgame databases.
    pub fn endgame(&self) -> &EndgameTables {
        &self.endgame
    }

    /// Expert's kept transposition tables.
    pub(crate) fn table_pool(&self) -> &TablePool {
        &self.tables
    }
}

impl Default for SearchContext {
    fn default() -> Self {
        SearchContext::new()
    }
}
