//! The `damas-lab` command line: matches between CPU players and the tuners (see README.md,
//! "The lab"). Every failure — bad arguments, an unknown player, an unwritable file — is a
//! message on stderr and exit code 2.

use clap::{Parser, Subcommand};
use damas::search::endgame;
use damas::search::levels::MoveTime;
use damas::search::SearchContext;
use damas::{catalogue, GameKind, Variant};
use damas_lab::book::{self, BookConfig, BookSearch};
use damas_lab::selfplay::{self, MatchConfig};
use damas_lab::tuning::{self, TuneConfig};
use damas_lab::{eval_training, probcut_fit, share_tuning, Player};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "damas-lab",
    version,
    about = "The Damas lab: matches between CPU players, and the tuners"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// CPU against CPU with seats rotated every game; prints a table of the results.
    Selfplay {
        /// english, international, turkish, diamond or capture.
        game: String,
        #[arg(long)]
        players: Option<u8>,
        #[arg(long)]
        long_jump: bool,
        /// One player per seat, comma-separated (easy, medium, hard, expert, expert-single, expert-frozen, expert-learned,
        /// expert-selective, expert-nobook, reference, baseline).
        #[arg(long, value_delimiter = ',', required = true)]
        levels: Vec<String>,
        /// Expert's thinking time per move in milliseconds (500–5000).
        #[arg(long, value_parser = parse_movetime, default_value = "1000", allow_hyphen_values = true)]
        movetime: MoveTime,
        /// Instead of a time, the timed players (expert and its lab variants) search this many
        /// nodes a move on one thread: a short match that replays whatever the machine's load.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Random moves from the seed before the players take over; each opening is played with
        /// every seating in a row.
        #[arg(long, default_value_t = 0)]
        opening_plies: u32,
        /// Draughts: play only openings that the reference search (6 plies, material only,
        /// captures finished) scores within half a man of level, after any forced moves;
        /// others are drawn again.
        #[arg(long)]
        level_openings: bool,
        #[arg(long, default_value_t = 10)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Also writes every game to this file, one line each: number, players by seat,
        /// result, ending rule, plies and moves.
        #[arg(long)]
        record: Option<PathBuf>,
        /// Play only these games of the match (numbers from 0, comma-separated), each as the
        /// whole match would play it.
        #[arg(long, value_delimiter = ',')]
        only_games: Option<Vec<u32>>,
        /// Print each pair's opening instead of playing: pair number, openings turned down
        /// before it, and its moves, tab-separated.
        #[arg(long)]
        list_openings: bool,
    },
    /// Texel tuning: plays the engine against itself and fits the draughts evaluation's weights
    /// to the games' results (docs/cpu.md, "Tuned evaluation"), or the capture game's learned
    /// win shares to how its games end ("A learned estimate at the leaves"); prints the weights.
    Tune {
        /// english, international, turkish, or capture (3 seats).
        game: String,
        /// Draughts: who plays both sides (easy, medium, hard, baseline...).
        #[arg(long, default_value = "medium")]
        level: String,
        /// Capture: one player per seat, three, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "hard,medium,medium")]
        levels: Vec<String>,
        /// Capture: fit on the games of these files (written by `selfplay --record`) instead
        /// of playing a match.
        #[arg(long)]
        games_from: Vec<PathBuf>,
        #[arg(long, default_value_t = 400)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Random plies opening each game (in draughts not used as samples); by default 8 in
        /// draughts, 0 in capture (its games vary with the levels' noise).
        #[arg(long)]
        opening_plies: Option<u32>,
        /// Passes of coordinate descent at most.
        #[arg(long, default_value_t = 400)]
        passes: u32,
    },
    /// One move of each player from one position: depth reached, nodes, nodes a second (the
    /// figures of docs/cpu.md's "Depth at one second").
    Think {
        /// english, international, turkish, diamond or capture.
        game: String,
        /// The players, comma-separated, each searching the position in turn.
        #[arg(long, value_delimiter = ',', required = true)]
        levels: Vec<String>,
        #[arg(long, value_parser = parse_movetime, default_value = "1000", allow_hyphen_values = true)]
        movetime: MoveTime,
        /// The position's text (the start when absent).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it first, space-separated.
        #[arg(long, default_value = "")]
        after: String,
        /// Instead of a time, the timed players search this many nodes on one thread.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
    },
    /// Fits ProbCut's linear relation between shallow and deep search values (docs/cpu.md,
    /// "How it searches"): plays the games, searches sampled quiet positions at both depths.
    ProbcutFit {
        /// english, international or turkish.
        game: String,
        /// Who plays the games the positions come from.
        #[arg(long, default_value = "medium")]
        level: String,
        #[arg(long, default_value_t = 20)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Random plies opening each game (not sampled).
        #[arg(long, default_value_t = 8)]
        opening_plies: u32,
        /// Depth of the deep search.
        #[arg(long, default_value_t = 8)]
        deep: u32,
        /// How many plies shallower the other search is.
        #[arg(long, default_value_t = 4)]
        reduction: u32,
        /// One quiet position in this many is searched.
        #[arg(long, default_value_t = 3)]
        every: usize,
    },
    /// Fits the learned pattern evaluation (English) to the results of recorded games
    /// (docs/cpu.md, "Learned pattern evaluation") and writes the weights file.
    TrainEval {
        /// english (the only game with a pattern evaluation so far).
        game: String,
        /// Files of games written by `damas-lab selfplay --record`.
        #[arg(long, required = true)]
        games_from: Vec<PathBuf>,
        /// Training positions used at most (drawn with the seed when there are more).
        #[arg(long, default_value_t = 1_000_000)]
        positions: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies of each game's random opening, not used as samples.
        #[arg(long, default_value_t = 8)]
        skip: usize,
        #[arg(long, default_value_t = 300)]
        epochs: u32,
        /// Adam's step in hundredths of a man.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// Ridge on each weight.
        #[arg(long, default_value_t = 1e-6)]
        ridge: f64,
        /// Where to write the weights file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Makes expert's opening book from its own searches of the first plies (docs/cpu.md,
    /// "Opening book") and writes the book file.
    Book {
        /// english, international or turkish.
        game: String,
        /// Store the book's positions up to this many plies from the start.
        #[arg(long)]
        plies: u32,
        /// Search each position to this depth (reproducible).
        #[arg(
            long,
            required_unless_present = "movetime",
            conflicts_with = "movetime"
        )]
        depth: Option<u32>,
        /// Or search each position for this many milliseconds of CPU time (500–5000; not
        /// reproducible).
        #[arg(long, value_parser = parse_movetime, allow_hyphen_values = true)]
        movetime: Option<MoveTime>,
        /// Where to write the book file.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Debug, thiserror::Error)]
enum LabError {
    #[error(transparent)]
    Setup(#[from] damas::SetupError),
    #[error(
        "unknown player '{0}' (expected easy, medium, hard, expert, expert-single, expert-frozen, expert-learned, expert-selective, expert-nobook, reference or baseline)"
    )]
    Player(String),
    #[error(transparent)]
    Selfplay(#[from] selfplay::SelfplayError),
    #[error(transparent)]
    Tune(#[from] tuning::TuneError),
    #[error("--level-openings is only available for the draughts games")]
    LevelOpeningsUnavailable,
    #[error("could not write output: {0}")]
    Output(#[from] std::io::Error),
    #[error("could not write the games to {path}: {source}")]
    Record {
        path: String,
        source: std::io::Error,
    },
    #[error("could not read the games in {path}: {source}")]
    GamesFile {
        path: String,
        source: std::io::Error,
    },
    #[error("--games-from: {0}")]
    GamesFileContent(String),
    #[error("--games-from is only available for capture (the draughts tuner plays its own games)")]
    GamesFromUnavailable,
    #[error(transparent)]
    Train(#[from] eval_training::TrainError),
    #[error(transparent)]
    ProbcutFit(#[from] probcut_fit::FitError),
    #[error("--after: {0}")]
    Move(String),
    #[error("the position has no legal move")]
    NoMove,
    #[error(transparent)]
    Book(#[from] book::BookBuildError),
    #[error("could not write the book to {path}: {source}")]
    BookFile {
        path: String,
        source: std::io::Error,
    },
    #[error("could not write the weights to {path}: {source}")]
    WeightsFile {
        path: String,
        source: std::io::Error,
    },
}

/// `--movetime`: milliseconds within expert's range, checked by clap before anything runs.
fn parse_movetime(text: &str) -> Result<MoveTime, String> {
    let ms: u64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of milliseconds"))?;
    MoveTime::from_millis(ms).map_err(|error| error.to_string())
}

/// The player a name means, expert thinking `movetime`.
fn player(text: String, movetime: MoveTime) -> Result<Player, LabError> {
    Player::parse(&text)
        .map(|player| player.with_movetime(movetime))
        .ok_or(LabError::Player(text))
}

/// The searches' context of a run: expert reads the endgame databases of the default directory,
/// as the `damas` CLI's does.
fn context() -> SearchContext {
    SearchContext::with_endgame(endgame::default_directory())
}

fn run(command: Command, out: &mut impl Write) -> Result<(), LabError> {
    match command {
        Command::Selfplay {
            game,
            players,
            long_jump,
            levels,
            movetime,
            nodes,
            opening_plies,
            level_openings,
            games,
            seed,
            jobs,
            record,
            only_games,
            list_openings,
        } => {
            let kind = GameKind::parse(&game)?;
            if level_openings && !kind.is_draughts() {
                return Err(LabError::LevelOpeningsUnavailable);
            }
            let players_count = players.or(Some(levels.len() as u8));
            let variant = Variant::new(kind, players_count, long_jump)?;
            let players = levels
                .into_iter()
                .map(|text| player(text, movetime))
                .collect::<Result<Vec<_>, _>>()?;
            let config = MatchConfig {
                level_openings: level_openings.then_some(selfplay::LEVEL_MARGIN),
                only_games,
                ..MatchConfig::from_start(variant, players, games, seed, jobs, opening_plies)
            };
            if list_openings {
                for draw in selfplay::openings(&config, &catalogue::new_game)? {
                    writeln!(
                        out,
                        "{}\t{}\t{}",
                        draw.pair,
                        draw.redraws,
                        draw.moves.join(" ")
                    )?;
                }
                return Ok(());
            }
            // Opened before the match, so a bad path costs no games.
            let record_error = |path: &std::path::Path| {
                let path = path.display().to_string();
                move |source| LabError::Record { path, source }
            };
            let record = record
                .map(|path| {
                    std::fs::File::create(&path)
                        .map(|file| (file, path.clone()))
                        .map_err(record_error(&path))
                })
                .transpose()?;
            let report = selfplay::run_at_nodes(
                &config,
                &catalogue::new_game,
                &context(),
                nodes,
                Some(&progress_bar),
            )?;
            if let Some((mut file, path)) = record {
                file.write_all(report.game_lines().as_bytes())
                    .map_err(record_error(&path))?;
            }
            write!(out, "{report}")?;
        }
        Command::Tune {
            game,
            level,
            levels,
            games_from,
            games,
            seed,
            jobs,
            opening_plies,
            passes,
        } => {
            let kind = GameKind::parse(&game)?;
            if !games_from.is_empty() && kind != GameKind::Capture {
                return Err(LabError::GamesFromUnavailable);
            }
            if !games_from.is_empty() {
                let mut games = Vec::new();
                for path in games_from {
                    let text =
                        std::fs::read_to_string(&path).map_err(|source| LabError::GamesFile {
                            path: path.display().to_string(),
                            source,
                        })?;
                    games.extend(share_tuning::games_of_record(&text).map_err(|error| {
                        LabError::GamesFileContent(format!("{}: {error}", path.display()))
                    })?);
                }
                write!(out, "{}", share_tuning::fit_games(&games)?)?;
                return Ok(());
            }
            if kind == GameKind::Capture {
                let config = share_tuning::ShareTuneConfig {
                    players: levels
                        .into_iter()
                        .map(|level| player(level, MoveTime::DEFAULT))
                        .collect::<Result<_, _>>()?,
                    games,
                    seed,
                    jobs,
                    opening_plies: opening_plies.unwrap_or(0),
                };
                let report = share_tuning::run(
                    &config,
                    &catalogue::new_game,
                    &context(),
                    Some(&progress_bar),
                )?;
                write!(out, "{report}")?;
                return Ok(());
            }
            let config = TuneConfig {
                kind,
                player: player(level, MoveTime::DEFAULT)?,
                games,
                seed,
                jobs,
                opening_plies: opening_plies.unwrap_or(8),
                max_passes: passes,
            };
            let report = tuning::run(
                &config,
                &catalogue::new_game,
                &context(),
                Some(&progress_bar),
            )?;
            write!(out, "{report}")?;
        }
        Command::Think {
            game,
            levels,
            movetime,
            fen,
            after,
            nodes,
        } => {
            let variant = Variant::standard(GameKind::parse(&game)?);
            let context = context();
            for text in levels {
                let player = player(text, movetime)?;
                let mut position = catalogue::new_game(variant, fen.as_deref())?;
                for mv in after.split_whitespace() {
                    position
                        .play(mv)
                        .map_err(|error| LabError::Move(format!("{mv}: {error}")))?;
                }
                let config = player.config(variant);
                let config = match nodes {
                    Some(nodes) => Player::node_budgeted(config, nodes),
                    None => config,
                };
                if config.params.endgame {
                    context.endgame().tables(variant.kind);
                }
                let stop = std::sync::atomic::AtomicBool::new(false);
                let started = std::time::Instant::now();
                let decision = position
                    .decide_as(&config, 1, None, &stop, &context)
                    .ok_or(LabError::NoMove)?;
                let seconds = started.elapsed().as_secs_f64();
                writeln!(
                    out,
                    "{}\tdepth {}\tnodes {}\t{:.2} M nodes/s (wall)\ttime {seconds:.3} s\tscore {}\t{}",
                    player.label(),
                    decision.depth,
                    decision.nodes,
                    decision.nodes as f64 / seconds / 1e6,
                    decision.score,
                    decision.info.text
                )?;
            }
        }
        Command::ProbcutFit {
            game,
            level,
            games,
            seed,
            jobs,
            opening_plies,
            deep,
            reduction,
            every,
        } => {
            let config = probcut_fit::FitConfig {
                kind: GameKind::parse(&game)?,
                player: player(level, MoveTime::DEFAULT)?,
                games,
                seed,
                jobs,
                opening_plies,
                deep,
                reduction,
                every,
            };
            let report = probcut_fit::run(
                &config,
                &catalogue::new_game,
                &context(),
                Some(&progress_bar),
            )?;
            write!(out, "{report}")?;
        }
        Command::TrainEval {
            game,
            games_from,
            positions,
            seed,
            skip,
            epochs,
            rate,
            ridge,
            out: path,
        } => {
            if GameKind::parse(&game)? != GameKind::English {
                return Err(eval_training::TrainError::Game.into());
            }
            let mut games = Vec::new();
            for file in games_from {
                let text =
                    std::fs::read_to_string(&file).map_err(|source| LabError::GamesFile {
                        path: file.display().to_string(),
                        source,
                    })?;
                games.extend(eval_training::games_of_record(&text).map_err(|error| {
                    LabError::GamesFileContent(format!("{}: {error}", file.display()))
                })?);
            }
            let config = eval_training::TrainConfig {
                positions,
                seed,
                skip,
                fit: eval_training::FitOptions {
                    epochs,
                    rate,
                    ridge,
                },
            };
            let report = eval_training::train(&games, &config)?;
            std::fs::write(&path, report.weights.to_bytes()).map_err(|source| {
                LabError::WeightsFile {
                    path: path.display().to_string(),
                    source,
                }
            })?;
            writeln!(out, "{report}")?;
            writeln!(out, "written to {}", path.display())?;
        }
        Command::Book {
            game,
            plies,
            depth,
            movetime,
            out: path,
        } => {
            let search = match (depth, movetime) {
                (Some(depth), _) => BookSearch::Depth(depth),
                (None, Some(movetime)) => BookSearch::MoveTime(movetime),
                (None, None) => BookSearch::Depth(0),
            };
            let config = BookConfig {
                kind: GameKind::parse(&game)?,
                plies,
                search,
            };
            let built = book::build(
                &config,
                Some(&|done| eprint!("\r{done} positions searched")),
            )?;
            eprintln!();
            std::fs::write(&path, &built.bytes).map_err(|source| LabError::BookFile {
                path: path.display().to_string(),
                source,
            })?;
            writeln!(out, "{built}")?;
            writeln!(out, "written to {}", path.display())?;
        }
    }
    Ok(())
}

/// A progress bar on stderr, redrawn after each game.
fn progress_bar(done: u32, total: u32) {
    let width = 30;
    let filled = (done as usize * width) / total.max(1) as usize;
    eprint!(
        "\r[{}{}] {done}/{total}",
        "#".repeat(filled),
        " ".repeat(width - filled)
    );
    if done == total {
        eprintln!();
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(cli.command, &mut out).and_then(|()| out.flush().map_err(LabError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("damas-lab: {error}");
            ExitCode::from(2)
        }
    }
}
