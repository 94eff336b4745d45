//! The match harness: CPU players play each other with seats rotated every game, and the
//! report counts wins per player and per seat, draws, game length, move times and search depths.

use crate::players::Player;
pub use crate::report::{GameSummary, MatchReport, ParticipantStats};
use damas::search::limits::ThinkClock;
use damas::search::{GameFactory, Playable, SearchContext};
use damas::{AnyGame, GameResult, MoveInfo, Seat, SetupError, Variant};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SelfplayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("{participants} players given for {seats} seats")]
    Seats { participants: usize, seats: usize },
    #[error("game {game}: {player} answered '{text}', which is not legal: {reason}")]
    IllegalMove {
        game: u32,
        player: String,
        text: String,
        reason: String,
    },
    #[error("game {game}: {player} found no move in an unfinished game")]
    NoMove { game: u32, player: String },
    #[error("game {game}: none of {draws} seeded openings was level")]
    NoLevelOpening { game: u32, draws: u32 },
    #[error("game {game} is not in a match of {games} games (games are numbered from 0)")]
    NoSuchGame { game: u32, games: u32 },
}

/// Half a man in the reference search's material units: the draughts harness's margin for a
/// level opening (`damas-lab selfplay --level-openings`).
pub const LEVEL_MARGIN: i32 = 50;

/// Openings drawn at most for one game when only level ones are wanted
/// ([`MatchConfig::level_openings`]).
pub const OPENING_DRAWS: u32 = 64;

/// A game longer than this is stopped and counted as a draw (every game's own rules end games
/// well before: 400 plies in English, 1200 in Diamond 3p, draw counters elsewhere).
pub const MAX_PLIES: usize = 3000;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: Variant,
    /// Start position text (the variant's start when `None`).
    pub start: Option<String>,
    /// The participants, one per seat; participant `p` sits at seat `(p + game) % seats`.
    pub players: Vec<Player>,
    pub games: u32,
    pub seed: u64,
    /// Games played at once (threads).
    pub jobs: usize,
    /// Random legal moves played from the start before the players take over, drawn from the
    /// match seed. Each opening is played `seats` times in a row, once with every seating (both
    /// colours in a two-player game), so neither side owns a lucky opening. 0: none.
    pub opening_plies: u32,
    /// Keep only openings that the seed's reference search ([`Player::Reference`]: 6 plies,
    /// material only, captures finished) scores within this margin of level, from the side to
    /// move once any forced moves are played ([`is_level_opening`]); any other is drawn again
    /// from the seed, so a pair of games cannot be decided by an opening that already loses
    /// material by force. An opening's first draw is the one played without this filter.
    /// `None`: every opening.
    pub level_openings: Option<i32>,
    /// Play only these games of the match (numbers below `games`), each exactly as the whole
    /// match would play it: to replay some pairs after a change to the harness. `None`: all.
    pub only_games: Option<Vec<u32>>,
}

impl MatchConfig {
    /// A match from the variant's start, every opening kept, every game played.
    pub fn from_start(
        variant: Variant,
        players: Vec<Player>,
        games: u32,
        seed: u64,
        jobs: usize,
        opening_plies: u32,
    ) -> MatchConfig {
        MatchConfig {
            variant,
            start: None,
            players,
            games,
            seed,
            jobs,
            opening_plies,
            level_openings: None,
            only_games: None,
        }
    }
}

/// A player's move in a match, with its score and the deepest iteration its search completed.
#[derive(Clone, Debug)]
pub struct Answer {
    pub info: MoveInfo,
    /// From the mover's side, in the game's evaluation units.
    pub score: i32,
    pub depth: u32,
}

/// How a harness asks a player for a move on a game `G` (the real one is
/// [`Playable::decide_as`]).
pub type Mover<'a, G> = dyn Fn(&G, Player, u64, &AtomicBool) -> Option<Answer> + Sync + 'a;
/// Called with (games finished, games in all) after each game.
pub type Progress<'a> = dyn Fn(u32, u32) + Sync + 'a;

/// Plays the match of `config` with the games of `factory` (the catalogue's `new_game`) and the
/// real players, whose searches keep their state in `context`.
pub fn run(
    config: &MatchConfig,
    factory: &GameFactory<'_>,
    context: &SearchContext,
    progress: Option<&Progress<'_>>,
) -> Result<MatchReport, SelfplayError> {
    run_at_nodes(config, factory, context, None, progress)
}

/// [`run`], the timed players searching `nodes` nodes a move on one thread instead when given
/// ([`Player::node_budgeted`]): a short match that replays whatever the machine's load.
pub fn run_at_nodes(
    config: &MatchConfig,
    factory: &GameFactory<'_>,
    context: &SearchContext,
    nodes: Option<u64>,
    progress: Option<&Progress<'_>>,
) -> Result<MatchReport, SelfplayError> {
    // A player's first search reads the endgame databases on its clock; read them before the
    // games, so that every move of the match gets its whole thinking time.
    let probes_tables = config
        .players
        .iter()
        .any(|&player| player.config(config.variant).params.endgame);
    if probes_tables {
        context.endgame().tables(config.variant.kind);
    }
    run_with(config, factory, &real_mover(context, nodes), progress)
}

/// The real players' moves in a match, their searches keeping their state in `context`; the
/// timed ones searching `nodes` nodes a move instead when given.
fn real_mover(
    context: &SearchContext,
    nodes: Option<u64>,
) -> impl Fn(&(dyn Playable + 'static), Player, u64, &AtomicBool) -> Option<Answer> + Sync + '_ {
    move |game, player, seed, stop| {
        let config = player.config(game.variant());
        let config = match nodes {
            Some(nodes) => Player::node_budgeted(config, nodes),
            None => config,
        };
        game.decide_as(&config, seed, None, stop, context)
            .map(|decision| Answer {
                info: decision.info,
                score: decision.score,
                depth: decision.depth,
            })
    }
}

/// Whether the harness with [`MatchConfig::level_openings`] set to `margin` would play the
/// position `game` is in as an opening (forced moves played first, see `opening_is_level`).
pub fn is_level_opening(game: &mut (dyn Playable + 'static), margin: i32) -> bool {
    opening_is_level(game, margin, &real_mover(&SearchContext::new(), None))
}

/// Forced moves played at most before an opening is judged ([`opening_is_level`]).
const MAX_FORCED_PLIES: usize = 8;

/// Whether the reference search scores the opening `game` is in within `margin` of level.
/// The search answers a position with a single legal move at once, with a score of 0, and
/// after a few random moves that move is often a forced capture: in Turkish, f3-f4 c6-c5 g3-g4
/// f6-f5 leaves White only f4xf6xf8, two men and a king. So forced moves are played first
/// (and taken back after) and the position after them is judged. An opening whose forced
/// moves end the game, or go on for more than [`MAX_FORCED_PLIES`], is not level.
fn opening_is_level<G: AnyGame + ?Sized>(game: &mut G, margin: i32, mover: &Mover<'_, G>) -> bool {
    let mut forced = 0;
    let level = loop {
        if game.outcome().is_some() {
            break false;
        }
        let legal = game.legal_moves();
        if legal.len() != 1 {
            break mover(game, Player::Reference, 0, &AtomicBool::new(false))
                .is_some_and(|answer| answer.score.abs() < margin);
        }
        if forced == MAX_FORCED_PLIES || game.play(&legal[0].text).is_err() {
            break false;
        }
        forced += 1;
    };
    for _ in 0..forced {
        game.undo();
    }
    level
}

/// Plays a match with any game type, factory and mover (tests use a small game of their own
/// with players of their own).
pub fn run_with<G: AnyGame + ?Sized>(
    config: &MatchConfig,
    factory: &GameFactory<'_, G>,
    mover: &Mover<'_, G>,
    progress: Option<&Progress<'_>>,
) -> Result<MatchReport, SelfplayError> {
    let new_game = || factory(config.variant, config.start.as_deref());
    let probe = new_game()?;
    let seats = probe.seats();
    if config.players.len() != seats {
        return Err(SelfplayError::Seats {
            participants: config.players.len(),
            seats,
        });
    }
    let seat_names = (0..seats as Seat)
        .map(|seat| probe.seat_name(seat).to_string())
        .collect();
    let numbers = game_numbers(config)?;
    let count = numbers.len() as u32;
    let next = AtomicU32::new(0);
    let finished = AtomicU32::new(0);
    let results: Mutex<Vec<Option<Result<GameSummary, SelfplayError>>>> =
        Mutex::new(vec![None; numbers.len()]);
    let worker = || loop {
        let slot = next.fetch_add(1, Ordering::Relaxed);
        let Some(&index) = numbers.get(slot as usize) else {
            break;
        };
        let summary = play_one(config, index, &new_game, mover);
        if let Ok(mut slots) = results.lock() {
            slots[slot as usize] = Some(summary);
        }
        let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(progress) = progress {
            progress(done, count);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.max(1) {
            scope.spawn(worker);
        }
    });
    let slots = results.into_inner().unwrap_or_default();
    let mut games = Vec::with_capacity(slots.len());
    for slot in slots.into_iter().flatten() {
        games.push(slot?);
    }
    Ok(MatchReport::new(
        config.variant,
        config.players.clone(),
        seat_names,
        games,
    ))
}

/// The numbers of the games the match plays, in order: all of them, or
/// [`MatchConfig::only_games`] without repeats.
fn game_numbers(config: &MatchConfig) -> Result<Vec<u32>, SelfplayError> {
    let Some(only) = &config.only_games else {
        return Ok((0..config.games).collect());
    };
    let mut numbers = only.clone();
    numbers.sort_unstable();
    numbers.dedup();
    match numbers.iter().find(|&&game| game >= config.games) {
        Some(&game) => Err(SelfplayError::NoSuchGame {
            game,
            games: config.games,
        }),
        None => Ok(numbers),
    }
}

/// Each pair's opening (the moves, and how many draws were turned down before it) as the
/// match of `config` would play it, for the games it plays, without playing them.
pub fn openings(
    config: &MatchConfig,
    factory: &GameFactory<'_>,
) -> Result<Vec<OpeningDraw>, SelfplayError> {
    // Openings are judged by the reference search, which keeps nothing between moves.
    openings_with(config, factory, &real_mover(&SearchContext::new(), None))
}

/// [`openings`] with any game type, factory and mover.
pub fn openings_with<G: AnyGame + ?Sized>(
    config: &MatchConfig,
    factory: &GameFactory<'_, G>,
    mover: &Mover<'_, G>,
) -> Result<Vec<OpeningDraw>, SelfplayError> {
    let new_game = || factory(config.variant, config.start.as_deref());
    let seats = config.players.len().max(1) as u32;
    let mut pairs = game_numbers(config)?;
    pairs.dedup_by_key(|game| *game / seats);
    pairs
        .into_iter()
        .map(|game| {
            let (_, moves, redraws) = opening(config, game, &new_game, mover)?;
            Ok(OpeningDraw {
                pair: game / seats,
                moves,
                redraws,
            })
        })
        .collect()
}

/// One pair's opening ([`openings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningDraw {
    /// The pair's number: it opens games `pair * seats` to `pair * seats + seats - 1`.
    pub pair: u32,
    pub moves: Vec<String>,
    /// Draws turned down before this one ([`MatchConfig::level_openings`]).
    pub redraws: u32,
}

/// Game `index` of the match: participant `p` sits at seat `(p + index) % seats`.
fn play_one<G: AnyGame + ?Sized>(
    config: &MatchConfig,
    index: u32,
    new_game: &dyn Fn() -> Result<Box<G>, SetupError>,
    mover: &Mover<'_, G>,
) -> Result<GameSummary, SelfplayError> {
    let seats = config.players.len();
    let mut seating = vec![0; seats];
    for participant in 0..seats {
        seating[(participant + index as usize) % seats] = participant;
    }
    let game_seed = match_seed(config.seed, Stream::Game, u64::from(index));
    let stop = AtomicBool::new(false);
    let mut move_times = vec![Vec::new(); seats];
    let mut move_depths = vec![Vec::new(); seats];
    let (mut game, mut moves, opening_redraws) = opening(config, index, new_game, mover)?;
    let (result, reason) = loop {
        if let Some(outcome) = game.outcome() {
            break (outcome.result, Some(outcome.reason));
        }
        if game.ply() >= MAX_PLIES {
            break (GameResult::Draw, None);
        }
        let participant = seating[usize::from(game.to_move())];
        let started = ThinkClock::start();
        let chosen = mover(game.as_ref(), config.players[participant], game_seed, &stop);
        move_times[participant].push(started.elapsed());
        let player = config.players[participant].label();
        let Answer { info, depth, .. } = chosen.ok_or_else(|| SelfplayError::NoMove {
            game: index,
            player: player.clone(),
        })?;
        move_depths[participant].push(depth);
        game.play(&info.text)
            .map_err(|error| SelfplayError::IllegalMove {
                game: index,
                player,
                text: info.text.clone(),
                reason: error.to_string(),
            })?;
        moves.push(info.text);
    };
    Ok(GameSummary {
        number: index,
        seating,
        result,
        reason,
        plies: game.ply(),
        moves,
        opening_redraws,
        move_times,
        move_depths,
    })
}

/// Game `index`'s seeded opening, shared by the `seats` games of its pair: the game after it,
/// its moves, and how many openings were drawn and turned down before it (only
/// [`MatchConfig::level_openings`] turns any down). Draw 0 is the plain harness's opening.
fn opening<G: AnyGame + ?Sized>(
    config: &MatchConfig,
    index: u32,
    new_game: &dyn Fn() -> Result<Box<G>, SetupError>,
    mover: &Mover<'_, G>,
) -> Result<(Box<G>, Vec<String>, u32), SelfplayError> {
    let pair = u64::from(index) / config.players.len() as u64;
    let pair_seed = match_seed(config.seed, Stream::Opening, pair);
    let draws = if config.level_openings.is_some() {
        OPENING_DRAWS
    } else {
        1
    };
    for draw in 0..draws {
        let opening_seed = match draw {
            0 => pair_seed,
            _ => splitmix(pair_seed.wrapping_add(u64::from(draw))),
        };
        let mut game = new_game()?;
        let mut moves = Vec::new();
        for ply in 0..config.opening_plies {
            let legal = game.legal_moves();
            if game.outcome().is_some() || legal.is_empty() {
                break;
            }
            let pick = splitmix(opening_seed ^ u64::from(ply)) % legal.len() as u64;
            let text = legal[pick as usize].text.clone();
            game.play(&text)
                .map_err(|error| SelfplayError::IllegalMove {
                    game: index,
                    player: "opening".to_string(),
                    text: text.clone(),
                    reason: error.to_string(),
                })?;
            moves.push(text);
        }
        // The judge's seed is fixed: every game of the pair must judge the opening alike.
        let level = match config.level_openings {
            None => true,
            Some(margin) => opening_is_level(game.as_mut(), margin, mover),
        };
        if level {
            return Ok((game, moves, draw));
        }
    }
    Err(SelfplayError::NoLevelOpening { game: index, draws })
}

/// What a seed drawn from the match seed is for.
#[derive(Clone, Copy)]
enum Stream {
    /// The players' seed in one game (noise, mistakes).
    Game = 1,
    /// One pair's opening.
    Opening = 2,
}

/// The seed of game or opening `n` of a match seeded `seed`. Every (seed, stream, n) gets its
/// own: matches with different seeds share no opening and no game seed. (Until 2026-12-05 the
/// harness used `seed + n`, so that seed 2's openings were seed 1's shifted by one: ten 40-game
/// matches of seeds 1–10 played only 29 distinct openings.)
fn match_seed(seed: u64, stream: Stream, n: u64) -> u64 {
    splitmix(splitmix(splitmix(seed) ^ stream as u64).wrapping_add(n))
}

/// A well-mixed 64-bit number from `x` (SplitMix64's finaliser).
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
