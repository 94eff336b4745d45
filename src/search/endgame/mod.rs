//! Endgame databases for the three draughts games: the exact value — win, loss or draw
//! for the side to move, with the distance in plies to the end — of every position with few
//! pieces, built by the engine itself (`damas endgame build`), cached on disk and probed by the
//! expert level. What was built, its figures and how expert uses it: docs/cpu.md, "Endgame
//! databases".
//!
//! - [`index`]: the slices (one per material balance) and the numbering of their positions;
//! - [`build`]: solving a slice by iterating the game's own move generator, smaller slices first;
//! - [`slice`]: a solved slice as built, one value byte an index;
//! - [`compact`]: a slice cut into blocks deflated one by one, in memory or read from its file;
//! - [`cache`]: the bounded cache of inflated blocks a game's probes share;
//! - [`file`]: the on-disk format, its header checked when opened, each block when read;
//! - [`tables`]: the solved slices of a game and probing them;
//! - [`error`]: why a table could not be built, written or read;
//! - [`games`]: what a game gives the databases (English, International, Turkish).
//!
//! The values ignore the draw counters (no-progress plies, the move limit, International's
//! 16-move count): they are the game-theoretic values of the positions with fresh counters, and
//! the rules' immediate material draws (International two kings or one against one, Turkish king
//! against king) are part of them because the position alone decides those. The search trusts a
//! win or loss only when the position's counters leave room for it (see
//! [`crate::search::alphabeta`]); a draw is always sound, as counters only add draws.

pub mod build;
pub(crate) mod cache;
pub(crate) mod compact;
pub(crate) mod error;
pub(crate) mod file;
pub(crate) mod games;
pub mod index;
pub(crate) mod slice;
pub(crate) mod tables;
#[cfg(test)]
mod tests;
pub(crate) mod value;

pub use cache::DEFAULT_CACHE_BYTES;
pub use compact::{CompactSlice, BLOCK_POSITIONS};
pub use error::{EndgameError, MAX_BUILD_PIECES};
pub use games::EndgameGame;
pub use slice::{Counts, SliceTable};
pub use tables::GameTables;
pub use value::Value;

use crate::games::english::English;
use crate::games::international::International;
use crate::games::turkish::Turkish;
use crate::position::{GameKind, Variant};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The cache directory when none is set: `$XDG_DATA_HOME/damas/endgame`, else
/// `$HOME/.local/share/damas/endgame`; `None` without either variable.
pub fn default_directory() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|dir| !dir.is_empty())
                .map(|home| PathBuf::from(home).join(".local/share"))
        })?;
    Some(data.join("damas").join("endgame"))
}

/// What a directory holds for one game: the tables read (every piece count from 2 up to the
/// first one missing or refused) and why reading stopped there when a file was refused.
pub struct Loaded {
    pub tables: GameTables,
    pub refused: Option<EndgameError>,
}

fn load_game<G: EndgameGame>(dir: &Path) -> Loaded {
    let mut tables = GameTables::new(G::KIND);
    let mut refused = None;
    for pieces in 2..=MAX_BUILD_PIECES {
        if !file::path(dir, G::KIND, pieces).exists() {
            break;
        }
        match file::open::<G>(dir, pieces) {
            Ok(slices) => {
                for slice in slices {
                    tables.insert_compact(slice);
                }
                tables.pieces = pieces;
            }
            Err(error) => {
                refused = Some(error);
                break;
            }
        }
    }
    Loaded { tables, refused }
}

/// Opens `kind`'s tables in `dir`: reads each file's header (a few hundred kilobytes at most),
/// not its values, which a probe reads block by block.
pub fn load(kind: GameKind, dir: &Path) -> Result<Loaded, EndgameError> {
    Ok(match kind {
        GameKind::English => load_game::<English>(dir),
        GameKind::International => load_game::<International>(dir),
        GameKind::Turkish => load_game::<Turkish>(dir),
        other => return Err(EndgameError::NotDraughts(other.as_str())),
    })
}

/// The tables expert probes: a directory and what was read from it, per game, read once on
/// first use. The caller owns it (inside its [`crate::search::SearchContext`]): the app points it
/// at its data directory, the CLI at the default one, tests at their own or at none.
#[derive(Debug, Default)]
pub struct EndgameTables {
    directory: Option<PathBuf>,
    loaded: Mutex<HashMap<GameKind, Option<Arc<GameTables>>>>,
}

impl EndgameTables {
    /// Tables read from `directory` (none at all when `None`).
    pub fn new(directory: Option<PathBuf>) -> EndgameTables {
        EndgameTables {
            directory,
            loaded: Mutex::new(HashMap::new()),
        }
    }

    /// The directory the tables are read from.
    pub fn directory(&self) -> Option<&Path> {
        self.directory.as_deref()
    }

    /// `kind`'s tables, read on first use; `None` when there are none (missing, refused or not a
    /// draughts game): the engine then plays without them.
    pub fn tables(&self, kind: GameKind) -> Option<Arc<GameTables>> {
        if !kind.is_draughts() {
            return None;
        }
        let mut loaded = self
            .loaded
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(found) = loaded.get(&kind) {
            return found.clone();
        }
        let found = self
            .directory
            .as_deref()
            .and_then(|dir| load(kind, dir).ok())
            .filter(|loaded| loaded.tables.pieces >= 2)
            .map(|loaded| Arc::new(loaded.tables));
        loaded.insert(kind, found.clone());
        found
    }

    /// Drops `kind`'s tables read so far, so that the next [`EndgameTables::tables`] call reads
    /// the directory again (after a build added piece counts).
    pub fn forget(&self, kind: GameKind) {
        self.loaded
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(&kind);
    }
}

/// What a directory holds for one game, judged from the files' headers (a file whose header is
/// sound may still hold a damaged block: each block is checked when read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Installed {
    /// Every piece count from 2 up to this one has its file (0: none).
    pub pieces: u32,
    /// Their size on disk.
    pub bytes: u64,
}

fn installed_game<G: EndgameGame>(dir: &Path) -> Installed {
    let mut installed = Installed::default();
    for pieces in 2..=MAX_BUILD_PIECES {
        let path = file::path(dir, G::KIND, pieces);
        let size = std::fs::metadata(&path).map(|meta| meta.len());
        match (file::open::<G>(dir, pieces), size) {
            (Ok(_), Ok(size)) => {
                installed.pieces = pieces;
                installed.bytes += size;
            }
            _ => break,
        }
    }
    installed
}

/// What `dir` holds for `kind` (nothing for a game without databases).
pub fn installed(kind: GameKind, dir: &Path) -> Installed {
    match kind {
        GameKind::English => installed_game::<English>(dir),
        GameKind::International => installed_game::<International>(dir),
        GameKind::Turkish => installed_game::<Turkish>(dir),
        _ => Installed::default(),
    }
}

fn positions_game<G: EndgameGame>(pieces: u32) -> u64 {
    (2..=pieces)
        .flat_map(Material::slices)
        .map(|material| index::SliceIndex::new(material, G::squares()).len())
        .sum()
}

/// How many indices `kind`'s tables of 2 to `pieces` pieces hold: the sum of
/// [`build::SliceReport::positions`] over a build's reports, slices read included.
pub fn positions(kind: GameKind, pieces: u32) -> Result<u64, EndgameError> {
    if !(2..=MAX_BUILD_PIECES).contains(&pieces) {
        return Err(EndgameError::Pieces(pieces));
    }
    match kind {
        GameKind::English => Ok(positions_game::<English>(pieces)),
        GameKind::International => Ok(positions_game::<International>(pieces)),
        GameKind::Turkish => Ok(positions_game::<Turkish>(pieces)),
        other => Err(EndgameError::NotDraughts(other.as_str())),
    }
}

/// What `damas endgame build` did for one piece count.
#[derive(Debug)]
pub struct PiecesReport {
    pub pieces: u32,
    pub counts: Counts,
    pub slices: usize,
    /// Read from an existing file instead of built.
    pub cached: bool,
    pub seconds: f64,
    pub file_bytes: u64,
}

/// The slices of a file already in `dir` when every block of it reads back sound.
fn cached<G: EndgameGame>(dir: &Path, pieces: u32) -> Option<Vec<CompactSlice>> {
    let slices = file::open::<G>(dir, pieces).ok()?;
    file::verify(&slices).ok()?;
    Some(slices)
}

fn build_game<G: EndgameGame>(
    dir: &Path,
    pieces: u32,
    threads: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&build::SliceReport),
) -> Result<Vec<PiecesReport>, EndgameError> {
    // Each slice is compressed as soon as it is solved, and each piece count read back from its
    // file once written: the build holds one slice's working memory and the compressed piece
    // count under way, not every value byte.
    let mut tables = GameTables::compressing(G::KIND);
    let mut reports = Vec::new();
    for n in 2..=pieces {
        let started = std::time::Instant::now();
        let target = file::path(dir, G::KIND, n);
        // A valid file already there is used as it is; a refused one is rebuilt.
        let mut counts = Counts::default();
        let (slices, was_cached) = match cached::<G>(dir, n) {
            Some(slices) => {
                let count = slices.len();
                for slice in slices {
                    counts.add(&slice.counts);
                    progress(&build::SliceReport {
                        material: slice.index.material,
                        positions: slice.index.len(),
                        counts: slice.counts,
                        levels: 0,
                        seconds: 0.0,
                        read: true,
                    });
                    tables.insert_compact(slice);
                }
                tables.pieces = n;
                (count, true)
            }
            None => {
                let built = build::build_pieces::<G>(&mut tables, n, threads, stop, |report| {
                    progress(report)
                })?;
                for report in &built {
                    counts.add(&report.counts);
                }
                let materials = Material::slices(n);
                let refs: Vec<&CompactSlice> = materials
                    .iter()
                    .filter_map(|material| tables.compact_slice(material))
                    .collect();
                file::write(dir, G::KIND, n, &refs)?;
                tables.remove_pieces(n);
                for slice in file::open::<G>(dir, n)? {
                    tables.insert_compact(slice);
                }
                (built.len(), false)
            }
        };
        let file_bytes = std::fs::metadata(&target)
            .map(|meta| meta.len())
            .map_err(|source| EndgameError::Io {
                path: target.clone(),
                source,
            })?;
        reports.push(PiecesReport {
            pieces: n,
            counts,
            slices,
            cached: was_cached,
            seconds: started.elapsed().as_secs_f64(),
            file_bytes,
        });
    }
    Ok(reports)
}

use index::Material;

/// Builds (or reads, when already cached) `kind`'s tables for 2 to `pieces` pieces into `dir`,
/// reporting each slice built or read.
pub fn build_into(
    kind: GameKind,
    pieces: u32,
    dir: &Path,
    threads: usize,
    progress: &mut dyn FnMut(&build::SliceReport),
) -> Result<Vec<PiecesReport>, EndgameError> {
    build_until(
        kind,
        pieces,
        dir,
        threads,
        &AtomicBool::new(false),
        progress,
    )
}

/// [`build_into`] that gives up with [`EndgameError::Stopped`] once `stop` is set (checked
/// between slices); the piece counts finished by then keep their files.
pub fn build_until(
    kind: GameKind,
    pieces: u32,
    dir: &Path,
    threads: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&build::SliceReport),
) -> Result<Vec<PiecesReport>, EndgameError> {
    if !(2..=MAX_BUILD_PIECES).contains(&pieces) {
        return Err(EndgameError::Pieces(pieces));
    }
    match kind {
        GameKind::English => build_game::<English>(dir, pieces, threads, stop, progress),
        GameKind::International => {
            build_game::<International>(dir, pieces, threads, stop, progress)
        }
        GameKind::Turkish => build_game::<Turkish>(dir, pieces, threads, stop, progress),
        other => Err(EndgameError::NotDraughts(other.as_str())),
    }
}

fn probe_game<G: EndgameGame>(
    tables: &GameTables,
    text: &str,
) -> Result<Option<Value>, EndgameError> {
    let position = G::from_text(Variant::standard(G::KIND), text)?;
    Ok(tables.probe(&position))
}

/// The value of the position `text` (FEN) in `tables`; `None` when its material is not there.
pub fn probe_text(tables: &GameTables, text: &str) -> Result<Option<Value>, EndgameError> {
    match tables.kind {
        GameKind::English => probe_game::<English>(tables, text),
        GameKind::International => probe_game::<International>(tables, text),
        GameKind::Turkish => probe_game::<Turkish>(tables, text),
        other => Err(EndgameError::NotDraughts(other.as_str())),
    }
}
