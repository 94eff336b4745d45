//! The `damas` command line: a stable contract other tools call (see README.md, "The CLI").
//! Every failure — bad arguments, a malformed position, an illegal move — is a message on stderr
//! and exit code 2.

use clap::{Args, Parser, Subcommand};
use damas::notation::star_text;
use damas::search::endgame::{self, EndgameError, Value as EndgameValue};
use damas::search::levels::MoveTime;
use damas::search::{selfplay, share_tuning, Player};
use damas::{catalogue, AnyGame, GameKind, GameResult, MoveInfo, Playable, Variant};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "damas",
    version,
    about = "Five jumping games: rules, perft and CPU players"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal-move tree; the last line is the count.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        depth: u32,
        /// Print each first move with its count before the total.
        #[arg(long)]
        divide: bool,
        /// Count capture paths instead of unique moves (Turkish, for comparing with kish).
        #[arg(long)]
        paths: bool,
    },
    /// Lists the legal moves, one JSON object a line.
    Moves {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Prints the game's state as one JSON object.
    Status {
        #[command(flatten)]
        game: GameArgs,
    },
    /// The CPU's move: search figures on stderr, the move (in `moves` notation) as the last line.
    Bestmove {
        #[command(flatten)]
        game: GameArgs,
        /// easy, medium, hard, expert (thinks --movetime), expert-single (expert on one search
        /// thread), reference (the seed's Turkish CPU: 3 plies a side) or baseline (hard frozen
        /// as it was when expert came).
        #[arg(long, default_value = "hard")]
        level: String,
        /// Expert's thinking time per move in milliseconds (500–5000).
        #[arg(long, value_parser = parse_movetime, default_value = "1000", allow_hyphen_values = true)]
        movetime: MoveTime,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// CPU against CPU with seats rotated every game; prints a table of the results.
    Selfplay {
        /// english, international, turkish, diamond or capture.
        game: String,
        #[arg(long)]
        players: Option<u8>,
        #[arg(long)]
        long_jump: bool,
        /// One level per seat, comma-separated (easy, medium, hard, expert, expert-single,
        /// reference, baseline).
        #[arg(long, value_delimiter = ',', required = true)]
        levels: Vec<String>,
        /// Expert's thinking time per move in milliseconds (500–5000).
        #[arg(long, value_parser = parse_movetime, default_value = "1000", allow_hyphen_values = true)]
        movetime: MoveTime,
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
        record: Option<std::path::PathBuf>,
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
        /// Capture: one level per seat, three, comma-separated.
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
    /// Endgame databases of the draughts games: build them, list them, probe a position.
    Endgame {
        #[command(subcommand)]
        action: EndgameCommand,
    },
    /// Speaks the Hub protocol (version 2) on standard input and output, as an International
    /// draughts engine for GUIs and match tools (docs/hub.md).
    Hub,
    /// Plays International draughts games over DamExchange (DXP) as the follower, listening on
    /// 127.0.0.1; prints "listening on ADDRESS" first (docs/hub.md, "DamExchange").
    Dxp {
        /// TCP port (0: any free port, printed).
        #[arg(long, default_value_t = 27531)]
        port: u16,
        /// easy, medium, hard or expert.
        #[arg(long, default_value = "expert")]
        level: String,
        /// Expert's milliseconds a move when the game request gives no time (500–5000).
        #[arg(long, value_parser = parse_movetime, default_value = "1000", allow_hyphen_values = true)]
        movetime: MoveTime,
    },
    /// Times perft on the three draughts start positions and prints nodes per second.
    Bench {
        /// English depth.
        #[arg(long, default_value_t = 11)]
        english: u32,
        /// International depth.
        #[arg(long, default_value_t = 9)]
        international: u32,
        /// Turkish depth.
        #[arg(long, default_value_t = 8)]
        turkish: u32,
    },
}

#[derive(Subcommand)]
enum EndgameCommand {
    /// Builds every table of 2 to N pieces (files already there and valid are kept) and prints
    /// what each piece count holds.
    Build {
        /// english, international or turkish.
        game: String,
        #[arg(long)]
        pieces: u32,
        /// Cache directory (default: $XDG_DATA_HOME/damas/endgame or ~/.local/share/damas/endgame).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Threads building each slice.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print every slice as it is built.
        #[arg(long)]
        verbose: bool,
    },
    /// Lists the tables a directory holds for a game, with their counts.
    Info {
        game: String,
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// The value of a position (FEN) for the side to move, and of each of its moves.
    Probe {
        game: String,
        fen: String,
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

/// Which game, from where.
#[derive(Args)]
struct GameArgs {
    /// english, international, turkish, diamond or capture.
    game: String,
    /// Number of players (diamond 2–3, default 3; capture 2–6, default 2).
    #[arg(long)]
    players: Option<u8>,
    /// Capture game: allow the long jump ("Salto largo").
    #[arg(long)]
    long_jump: bool,
    /// Start position as FEN (draughts).
    #[arg(long, conflicts_with = "position")]
    fen: Option<String>,
    /// Start position in the star games' position format (docs/notation.md); FEN also accepted.
    #[arg(long)]
    position: Option<String>,
    /// Moves to play first, separated by spaces, in the notation `moves` prints.
    #[arg(long, allow_hyphen_values = true)]
    after: Option<String>,
}

#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error(transparent)]
    Setup(#[from] damas::SetupError),
    #[error("move {index} ('{text}'): {source}")]
    Move {
        index: usize,
        text: String,
        source: damas::MoveError,
    },
    #[error("unknown level '{0}' (expected easy, medium, hard, expert, reference or baseline)")]
    Level(String),
    #[error("the game is over: there is no move to choose")]
    NoMove,
    #[error(transparent)]
    Selfplay(#[from] selfplay::SelfplayError),
    #[error(transparent)]
    Tune(#[from] damas::search::tuning::TuneError),
    #[error("--paths is only available for turkish")]
    PathsUnavailable,
    #[error("--level-openings is only available for the draughts games")]
    LevelOpeningsUnavailable,
    #[error(transparent)]
    Endgame(#[from] EndgameError),
    #[error("no cache directory: set --dir, XDG_DATA_HOME or HOME")]
    NoDirectory,
    #[error("no endgame table for {0} in {1}")]
    NoTables(String, String),
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
}

/// `--movetime`: milliseconds within expert's range, checked by clap before anything runs.
fn parse_movetime(text: &str) -> Result<MoveTime, String> {
    let ms: u64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of milliseconds"))?;
    MoveTime::from_millis(ms).map_err(|error| error.to_string())
}

fn endgame_dir(dir: Option<PathBuf>) -> Result<PathBuf, CliError> {
    dir.or_else(endgame::default_directory)
        .ok_or(CliError::NoDirectory)
}

fn value_text(value: Option<EndgameValue>) -> String {
    match value {
        Some(EndgameValue::Win(plies)) => format!("win in {plies} plies"),
        Some(EndgameValue::Loss(plies)) => format!("loss in {plies} plies"),
        Some(EndgameValue::Draw) => "draw".to_string(),
        None => "not in the tables".to_string(),
    }
}

fn run_endgame(action: EndgameCommand, out: &mut impl Write) -> Result<(), CliError> {
    match action {
        EndgameCommand::Build {
            game,
            pieces,
            dir,
            threads,
            verbose,
        } => {
            let kind = GameKind::parse(&game)?;
            let dir = endgame_dir(dir)?;
            let mut progress = |report: &endgame::build::SliceReport| {
                if verbose && !report.read {
                    let counts = report.counts;
                    eprintln!(
                        "  {:<12} {:>10} positions  W {:>10} D {:>10} L {:>10}  longest {:>3}  levels {:>3}  {:>8.2} s",
                        report.material.label(),
                        counts.positions,
                        counts.wins,
                        counts.draws,
                        counts.losses,
                        counts.longest,
                        report.levels,
                        report.seconds
                    );
                }
            };
            let reports = endgame::build_into(kind, pieces, &dir, threads, &mut progress)?;
            writeln!(out, "{} tables in {}", kind.as_str(), dir.display())?;
            writeln!(
                out,
                "pieces slices   positions        wins       draws      losses longest    seconds  file bytes"
            )?;
            for report in reports {
                let counts = report.counts;
                writeln!(
                    out,
                    "{:>6} {:>6} {:>11} {:>11} {:>11} {:>11} {:>7} {:>10} {:>11}",
                    report.pieces,
                    report.slices,
                    counts.positions,
                    counts.wins,
                    counts.draws,
                    counts.losses,
                    counts.longest,
                    if report.cached {
                        "cached".to_string()
                    } else {
                        format!("{:.2}", report.seconds)
                    },
                    report.file_bytes
                )?;
            }
        }
        EndgameCommand::Info { game, dir } => {
            let kind = GameKind::parse(&game)?;
            let dir = endgame_dir(dir)?;
            let loaded = endgame::load(kind, &dir)?;
            writeln!(
                out,
                "{} tables in {}: complete up to {} pieces",
                kind.as_str(),
                dir.display(),
                loaded.tables.pieces
            )?;
            let mut slices: Vec<_> = loaded.tables.slices().collect();
            slices.sort_by_key(|slice| {
                let material = slice.index.material;
                (material.pieces(), material.total_men(), material)
            });
            for slice in slices {
                let counts = slice.counts();
                writeln!(
                    out,
                    "{:<12} {:>10} positions  W {:>10} D {:>10} L {:>10}  longest {:>3}",
                    slice.index.material.label(),
                    counts.positions,
                    counts.wins,
                    counts.draws,
                    counts.losses,
                    counts.longest
                )?;
            }
            if let Some(error) = loaded.refused {
                writeln!(out, "refused: {error}")?;
            }
        }
        EndgameCommand::Probe { game, fen, dir } => {
            let kind = GameKind::parse(&game)?;
            let dir = endgame_dir(dir)?;
            let loaded = endgame::load(kind, &dir)?;
            if loaded.tables.pieces < 2 {
                return Err(CliError::NoTables(
                    kind.as_str().to_string(),
                    dir.display().to_string(),
                ));
            }
            let tables = loaded.tables;
            writeln!(out, "{}", value_text(endgame::probe_text(&tables, &fen)?))?;
            let position = catalogue::new_game(Variant::standard(kind), Some(&fen))?;
            for info in position.legal_moves() {
                let mut after = catalogue::new_game(Variant::standard(kind), Some(&fen))?;
                after.play(&info.text).map_err(|source| CliError::Move {
                    index: 1,
                    text: info.text.clone(),
                    source,
                })?;
                // From the mover's side: the reply position's value turned round.
                let value =
                    endgame::probe_text(&tables, &after.position_text())?.map(EndgameValue::parent);
                writeln!(out, "{} -> {}", info.text, value_text(value))?;
            }
        }
    }
    Ok(())
}

/// The player a level name means, expert thinking `movetime`.
fn player(text: String, movetime: MoveTime) -> Result<Player, CliError> {
    match Player::parse(&text) {
        Some(Player::Expert(_)) => Ok(Player::Expert(movetime)),
        Some(Player::ExpertSingle(_)) => Ok(Player::ExpertSingle(movetime)),
        Some(player) => Ok(player),
        None => Err(CliError::Level(text)),
    }
}

impl GameArgs {
    /// The game after `--after`'s moves; any bad part is an error and nothing is printed.
    fn build(&self) -> Result<Box<dyn Playable>, CliError> {
        let kind = GameKind::parse(&self.game)?;
        let text = self.fen.as_deref().or(self.position.as_deref());
        // A star position text names its own player count and options; flags may only agree.
        let variant = match text {
            Some(text) if !kind.is_draughts() && self.players.is_none() && !self.long_jump => {
                star_text::variant_of(text)?
            }
            _ => Variant::new(kind, self.players, self.long_jump)?,
        };
        let mut game = catalogue::new_game(variant, text)?;
        for (index, mv) in self
            .after
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .enumerate()
        {
            game.play(mv).map_err(|source| CliError::Move {
                index: index + 1,
                text: mv.to_string(),
                source,
            })?;
        }
        Ok(game)
    }
}

/// A move as the CLI contract prints it: draughts without `jumps`, star games with it.
fn move_json(kind: GameKind, info: &MoveInfo) -> Value {
    if kind.is_draughts() {
        json!({
            "move": info.text,
            "from": info.from,
            "to": info.to,
            "path": info.path,
            "captures": info.captures,
        })
    } else {
        json!({
            "move": info.text,
            "from": info.from,
            "to": info.to,
            "path": info.path,
            "jumps": info.jumps,
            "captures": info.captures,
        })
    }
}

fn status_json(game: &dyn AnyGame) -> Value {
    let kind = game.variant().kind;
    let outcome = game.outcome();
    let result = match outcome.map(|o| o.result) {
        None => "ongoing".to_string(),
        Some(GameResult::Draw) => "draw".to_string(),
        Some(GameResult::Win(seat)) => game.seat_name(seat).to_string(),
    };
    let reason = outcome.map(|o| o.reason.as_str());
    let to_move = game.seat_name(game.to_move());
    if kind.is_draughts() {
        json!({
            "to_move": to_move,
            "result": result,
            "reason": reason,
            "fen": game.position_text(),
            "ply": game.ply(),
            "draw_counters": game.draw_counters(),
        })
    } else {
        json!({
            "to_move": to_move,
            "result": result,
            "reason": reason,
            "ply": game.ply(),
            "players": game.seat_stats(),
            "position": game.position_text(),
        })
    }
}

/// Transposition table of the hashed bench perft: 2^22 entries (64 MiB).
const BENCH_TABLE_BITS: u32 = 22;

/// The result of `work` and the seconds it took.
fn time(work: impl FnOnce() -> u64) -> (u64, f64) {
    let started = Instant::now();
    let nodes = work();
    (nodes, started.elapsed().as_secs_f64())
}

fn run(command: Command, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        Command::Perft {
            game,
            depth,
            divide,
            paths,
        } => {
            let game = game.build()?;
            if paths {
                let count = game.perft_paths(depth).ok_or(CliError::PathsUnavailable)?;
                writeln!(out, "{count}")?;
            } else if divide {
                let mut total = 0;
                for (info, count) in game.perft_divide(depth) {
                    writeln!(out, "{} {count}", info.text)?;
                    total += count;
                }
                writeln!(out, "{total}")?;
            } else {
                writeln!(out, "{}", game.perft(depth))?;
            }
        }
        Command::Moves { game } => {
            let game = game.build()?;
            let kind = game.variant().kind;
            for info in game.legal_moves() {
                writeln!(out, "{}", move_json(kind, &info))?;
            }
        }
        Command::Status { game } => {
            let game = game.build()?;
            writeln!(out, "{}", status_json(game.as_ref()))?;
        }
        Command::Bestmove {
            game,
            level,
            movetime,
            seed,
        } => {
            let player = player(level, movetime)?;
            let game = game.build()?;
            let stop = std::sync::atomic::AtomicBool::new(false);
            let started = Instant::now();
            let decision = game
                .decide(player, seed, None, &stop)
                .ok_or(CliError::NoMove)?;
            eprintln!(
                "depth {} nodes {} score {} time {:.3} s",
                decision.depth,
                decision.nodes,
                decision.score,
                started.elapsed().as_secs_f64()
            );
            writeln!(out, "{}", decision.info.text)?;
        }
        Command::Selfplay {
            game,
            players,
            long_jump,
            levels,
            movetime,
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
                return Err(CliError::LevelOpeningsUnavailable);
            }
            let players_count = players.or(Some(levels.len() as u8));
            let variant = Variant::new(kind, players_count, long_jump)?;
            let players = levels
                .into_iter()
                .map(|text| player(text, movetime))
                .collect::<Result<Vec<_>, _>>()?;
            let config = selfplay::MatchConfig {
                level_openings: level_openings.then_some(selfplay::LEVEL_MARGIN),
                only_games,
                ..selfplay::MatchConfig::from_start(
                    variant,
                    players,
                    games,
                    seed,
                    jobs,
                    opening_plies,
                )
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
                move |source| CliError::Record { path, source }
            };
            let record = record
                .map(|path| {
                    std::fs::File::create(&path)
                        .map(|file| (file, path.clone()))
                        .map_err(record_error(&path))
                })
                .transpose()?;
            let report = selfplay::run(&config, &catalogue::new_game, Some(&progress_bar))?;
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
                return Err(CliError::GamesFromUnavailable);
            }
            if !games_from.is_empty() {
                let mut games = Vec::new();
                for path in games_from {
                    let text =
                        std::fs::read_to_string(&path).map_err(|source| CliError::GamesFile {
                            path: path.display().to_string(),
                            source,
                        })?;
                    games.extend(share_tuning::games_of_record(&text).map_err(|error| {
                        CliError::GamesFileContent(format!("{}: {error}", path.display()))
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
                let report = share_tuning::run(&config, &catalogue::new_game, Some(&progress_bar))?;
                write!(out, "{report}")?;
                return Ok(());
            }
            let config = damas::search::tuning::TuneConfig {
                kind,
                player: player(level, MoveTime::DEFAULT)?,
                games,
                seed,
                jobs,
                opening_plies: opening_plies.unwrap_or(8),
                max_passes: passes,
            };
            let report =
                damas::search::tuning::run(&config, &catalogue::new_game, Some(&progress_bar))?;
            write!(out, "{report}")?;
        }
        Command::Endgame { action } => run_endgame(action, out)?,
        // The protocol owns standard output; every answer is flushed as it is written.
        Command::Dxp {
            port,
            level,
            movetime,
        } => {
            let level =
                damas::search::levels::Level::parse(&level).ok_or(CliError::Level(level))?;
            let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
            writeln!(out, "listening on {}", listener.local_addr()?)?;
            out.flush()?;
            damas::protocols::dxp::serve(
                listener,
                damas::protocols::dxp::DxpOptions { level, movetime },
            )?;
        }
        Command::Hub => {
            damas::protocols::hub::serve(std::io::BufReader::new(std::io::stdin()), out)?
        }
        Command::Bench {
            english,
            international,
            turkish,
        } => {
            for (kind, depth) in [
                (GameKind::English, english),
                (GameKind::International, international),
                (GameKind::Turkish, turkish),
            ] {
                let game = catalogue::new_game(Variant::standard(kind), None)?;
                let plain = time(|| game.perft(depth));
                let hashed = time(|| game.perft_hashed(depth, BENCH_TABLE_BITS));
                for (label, (nodes, seconds)) in [("plain", plain), ("hashed", hashed)] {
                    writeln!(
                        out,
                        "{:<14} perft({depth:>2}) {label:<6} = {nodes:>12}  {seconds:>8.3} s  {:>8.1} Mnodes/s",
                        kind.as_str(),
                        nodes as f64 / seconds.max(1e-9) / 1e6
                    )?;
                }
            }
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
    let result = run(cli.command, &mut out).and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("damas: {error}");
            ExitCode::from(2)
        }
    }
}
