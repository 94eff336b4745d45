//! What a CPU player's searches keep between moves, owned by whoever asks for moves: the app,
//! the room server, the CLI, each test. Nothing in the engine is process-wide, so two contexts
//! never see each other's tables.

use super::endgame::EndgameTables;
use super::table_pool::TablePool;
use std::path::PathBuf;

/// Tables kept for expert: one per seat of two games at once (a game and a hint, or two games of
/// a match played at once), 16 MiB each at expert's size.
const EXPERT_TABLES: usize = 2;

/// The state expert's searches share: its transposition tables kept from one move to the next
/// ([`TablePool`]) and the endgame databases ([`EndgameTables`]). The node-budgeted levels read
/// neither, so they play the same moves with any context.
#[derive(Debug)]
pub struct SearchContext {
    tables: TablePool,
    endgame: EndgameTables,
}

impl SearchContext {
    /// A context without endgame databases.
    pub fn new() -> SearchContext {
        SearchContext::with_endgame(None)
    }

    /// A context whose expert reads the endgame databases in `directory` (none when `None`).
    pub fn with_endgame(directory: Option<PathBuf>) -> SearchContext {
        SearchContext {
            tables: TablePool::new(EXPERT_TABLES),
            endgame: EndgameTables::new(directory),
        }
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
