//! The builder of expert's opening books (`damas-lab book`, docs/cpu.md "Opening book").
//!
//! Rule: the book is made from expert's own searches only. Two walks from the start position,
//! one for each seat the book plays: where the book's seat is to move (and has a choice), expert
//! searches the position deeper than it does in play and the walk follows that one move; where
//! the other seat is to move, the walk follows every legal reply, since the book's side may
//! face any of them. Every position the book's seat meets within `plies` plies of the start
//! along those lines is stored with expert's move. A position reached twice (a transposition,
//! or by both walks) is searched once.
//!
//! The searches are expert's (tuned evaluation, quiescence, late-move reductions, aspiration,
//! contempt) on one thread, without the endgame databases or a book: to a fixed depth they are
//! deterministic, so the same arguments make the same file on any machine; timed
//! (`--movetime`) they are not.

use damas::catalogue::{self, GameTask};
use damas::search::book::{self, BookEntry, BookError};
use damas::search::levels::{self, MoveTime};
use damas::search::limits::Limits;
use damas::search::searchable::Searchable;
use damas::search::{Params, Player, PlayerConfig, SearchContext};
use damas::{Describe, GameKind, Playable, Record, Seat, Variant};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How deep each of the book's searches goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookSearch {
    /// To this depth: reproducible.
    Depth(u32),
    /// For this CPU time each (expert's own time management): not reproducible.
    MoveTime(MoveTime),
}

/// What to build.
#[derive(Clone, Copy, Debug)]
pub struct BookConfig {
    pub kind: GameKind,
    /// Positions of the book's seat up to this many plies from the start are stored.
    pub plies: u32,
    pub search: BookSearch,
}

/// Why a book could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BookBuildError {
    #[error("opening books are made for the draughts games only")]
    Game,
    #[error("--plies must be within 1–{max}", max = u8::MAX)]
    Plies,
    #[error("--depth must be within 1–{max}", max = u16::MAX)]
    Depth,
    #[error(transparent)]
    Setup(#[from] damas::SetupError),
    #[error(transparent)]
    Format(#[from] BookError),
    #[error("expert's move '{0}' does not replay in its own position")]
    Replay(String),
}

/// A built book: its file and what it took.
#[derive(Debug)]
pub struct BuiltBook {
    pub bytes: Vec<u8>,
    /// Positions stored, each searched once.
    pub entries: usize,
    /// Total nodes of those searches.
    pub nodes: u64,
    /// Wall-clock time of the whole build.
    pub elapsed: Duration,
}

impl std::fmt::Display for BuiltBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} positions, {} nodes, {:.1} s wall, {} bytes",
            self.entries,
            self.nodes,
            self.elapsed.as_secs_f64(),
            self.bytes.len()
        )
    }
}

/// The search configuration of the book's searches in `kind`.
fn search_config(kind: GameKind, search: BookSearch) -> PlayerConfig {
    let movetime = match search {
        BookSearch::MoveTime(movetime) => movetime,
        BookSearch::Depth(_) => MoveTime::DEFAULT,
    };
    let expert = levels::config(Variant::standard(kind), Player::Expert(movetime));
    let limits = match search {
        BookSearch::Depth(depth) => Limits::depth(depth),
        BookSearch::MoveTime(_) => expert.params.limits,
    };
    PlayerConfig {
        params: Params {
            limits,
            threads: 1,
            endgame: false,
            book: false,
            ..expert.params
        },
        ..expert
    }
}

/// Builds the book `config` asks for; `progress` hears the count of searches done after each.
pub fn build(
    config: &BookConfig,
    progress: Option<&dyn Fn(usize)>,
) -> Result<BuiltBook, BookBuildError> {
    if !config.kind.is_draughts() {
        return Err(BookBuildError::Game);
    }
    let plies = u8::try_from(config.plies)
        .ok()
        .filter(|&plies| plies > 0)
        .ok_or(BookBuildError::Plies)?;
    let depth = match config.search {
        BookSearch::Depth(depth) => u16::try_from(depth)
            .ok()
            .filter(|&depth| depth > 0)
            .ok_or(BookBuildError::Depth)?,
        BookSearch::MoveTime(_) => 0,
    };
    let started = Instant::now();
    let walked = catalogue::for_game(
        config.kind,
        Walk {
            kind: config.kind,
            plies: config.plies,
            config: search_config(config.kind, config.search),
            progress,
        },
    )?;
    let bytes = book::encode(config.kind, plies, depth, &walked.entries)?;
    Ok(BuiltBook {
        bytes,
        entries: walked.entries.len(),
        nodes: walked.nodes,
        elapsed: started.elapsed(),
    })
}

struct Walked {
    entries: Vec<BookEntry>,
    nodes: u64,
}

/// Both walks on the game's concrete type.
struct Walk<'a> {
    kind: GameKind,
    plies: u32,
    config: PlayerConfig,
    progress: Option<&'a dyn Fn(usize)>,
}

/// One walk's state: the positions searched so far (shared by both walks) and those expanded.
struct Walker<'a> {
    config: PlayerConfig,
    context: SearchContext,
    searched: HashMap<u64, BookEntry>,
    /// Insertion order of `searched`, so the result does not depend on the map's order.
    order: Vec<u64>,
    expanded: HashSet<(u64, Seat, u32)>,
    nodes: u64,
    progress: Option<&'a dyn Fn(usize)>,
}

impl GameTask for Walk<'_> {
    type Output = Result<Walked, BookBuildError>;

    fn run<P: Searchable + Describe>(self) -> Self::Output {
        let mut record = Record::new(P::start(Variant::standard(self.kind))?);
        let mut walker = Walker {
            config: self.config,
            context: SearchContext::new().with_books(book::OpeningBooks::none()),
            searched: HashMap::new(),
            order: Vec::new(),
            expanded: HashSet::new(),
            nodes: 0,
            progress: self.progress,
        };
        for seat in 0..2 {
            walker.walk(&mut record, seat, self.plies)?;
        }
        let Walker {
            mut searched,
            order,
            nodes,
            ..
        } = walker;
        let entries = order
            .iter()
            .filter_map(|key| searched.remove(key))
            .collect();
        Ok(Walked { entries, nodes })
    }
}

impl Walker<'_> {
    fn walk<P: Searchable + Describe>(
        &mut self,
        record: &mut Record<P>,
        book_seat: Seat,
        plies_left: u32,
    ) -> Result<(), BookBuildError> {
        if plies_left == 0 || record.outcome().is_some() {
            return Ok(());
        }
        let key = record.position().zobrist();
        if !self.expanded.insert((key, book_seat, plies_left)) {
            return Ok(());
        }
        let mut moves = Vec::new();
        record.position().legal_moves(&mut moves);
        if record.position().to_move() == book_seat && moves.len() > 1 {
            let text = self.book_move(record, key)?;
            let mv = record
                .position()
                .parse_move(&text)
                .map_err(|_| BookBuildError::Replay(text.clone()))?;
            moves = vec![mv];
        }
        for mv in moves {
            record
                .play(mv)
                .map_err(|error| BookBuildError::Replay(error.to_string()))?;
            let result = self.walk(record, book_seat, plies_left - 1);
            record.undo();
            result?;
        }
        Ok(())
    }

    /// Expert's move in the record's position, searched once per position.
    fn book_move<P: Searchable + Describe>(
        &mut self,
        record: &Record<P>,
        key: u64,
    ) -> Result<String, BookBuildError> {
        if let Some(entry) = self.searched.get(&key) {
            return Ok(entry.text.clone());
        }
        let stop = AtomicBool::new(false);
        let decision = record
            .decide_as(&self.config, 0, None, &stop, &self.context)
            .ok_or_else(|| BookBuildError::Replay(record.position().to_text()))?;
        self.nodes += decision.nodes;
        let entry = BookEntry {
            key,
            text: decision.info.text.clone(),
            score: decision.score,
        };
        self.searched.insert(key, entry);
        self.order.push(key);
        if let Some(progress) = self.progress {
            progress(self.order.len());
        }
        Ok(decision.info.text)
    }
}
