//! The `damas` command line: a stable contract other tools call (see README.md, "The CLI").
//! Every failure — bad arguments, a malformed position, an illegal move — is a message on stderr
//! and exit code 2.

mod endgame;
mod error;

use clap::{Args, Parser, Subcommand};
use damas::catalogue::{self, GameTask};
use damas::notation::star_text;
use damas::search::book::OpeningBooks;
use damas::search::levels::MoveTime;
use damas::search::searchable::Searchable;
use damas::search::{Player, SearchContext};
use damas::{perft, AnyGame, Describe, GameKind, GameResult, MoveInfo, Playable, Record, Variant};
use endgame::{run_endgame, EndgameCommand};
use error::CliError;
use serde_json::{json, Value};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "damas",
    version,
    about = "Five jumping games: rules, perft and CPU players (matches and tuning: damas-lab)"
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
        /// easy, medium, hard or expert (thinks --movetime). The lab's yardstick players play
        /// in `damas-lab selfplay`.
        #[arg(long, default_value = "hard")]
        level: String,
        /// Expert's thinking time per move in milliseconds (500–5000).
        #[arg(long, value_parser = parse_movetime, default_value = "1000", allow_hyphen_values = true)]
        movetime: MoveTime,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Expert searches from the first move instead of playing its opening book.
        #[arg(long)]
        no_book: bool,
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

/// `--movetime`: milliseconds within expert's range, checked by clap before anything runs.
fn parse_movetime(text: &str) -> Result<MoveTime, String> {
    let ms: u64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of milliseconds"))?;
    MoveTime::from_millis(ms).map_err(|error| error.to_string())
}

/// The player a level name means, expert thinking `movetime`.
fn player(text: String, movetime: MoveTime) -> Result<Player, CliError> {
    match Player::parse(&text) {
        Some(Player::Expert(_)) => Ok(Player::Expert(movetime)),
        Some(player) => Ok(player),
        None => Err(CliError::Level(text)),
    }
}

impl GameArgs {
    /// The variant the arguments name: a star position text names its own player count and
    /// options; flags may only agree.
    fn variant(&self) -> Result<Variant, CliError> {
        let kind = GameKind::parse(&self.game)?;
        Ok(match self.text() {
            Some(text) if !kind.is_draughts() && self.players.is_none() && !self.long_jump => {
                star_text::variant_of(text)?
            }
            _ => Variant::new(kind, self.players, self.long_jump)?,
        })
    }

    fn text(&self) -> Option<&str> {
        self.fen.as_deref().or(self.position.as_deref())
    }

    /// The game after `--after`'s moves; any bad part is an error and nothing is printed.
    fn build(&self) -> Result<Box<dyn Playable>, CliError> {
        let variant = self.variant()?;
        let mut game = catalogue::new_game(variant, self.text())?;
        self.play_after(|mv| game.play(mv).map(drop))?;
        Ok(game)
    }

    /// The game after `--after`'s moves as its own type, for generic work on the rules.
    fn record<P: Describe>(&self, variant: Variant) -> Result<Record<P>, CliError> {
        let start = match self.text() {
            Some(text) => P::from_text(variant, text)?,
            None => P::start(variant)?,
        };
        let mut record = Record::new(start);
        self.play_after(|mv| record.play_text(mv).map(drop))?;
        Ok(record)
    }

    /// Plays `--after`'s moves in turn with `play`, stopping at the first refused.
    fn play_after(
        &self,
        mut play: impl FnMut(&str) -> Result<(), damas::MoveError>,
    ) -> Result<(), CliError> {
        for (index, mv) in self
            .after
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .enumerate()
        {
            play(mv).map_err(|source| CliError::Move {
                index: index + 1,
                text: mv.to_string(),
                source,
            })?;
        }
        Ok(())
    }
}

/// `damas perft` on the position the arguments give, through the game's own type.
struct PerftTask<'a> {
    args: &'a GameArgs,
    variant: Variant,
    depth: u32,
    divide: bool,
    paths: bool,
}

impl GameTask for PerftTask<'_> {
    /// The lines to print.
    type Output = Result<Vec<String>, CliError>;

    fn run<P: Searchable + Describe>(self) -> Self::Output {
        let record = self.args.record::<P>(self.variant)?;
        let position = record.position();
        if self.paths {
            let count = position
                .perft_paths(self.depth)
                .ok_or(CliError::PathsUnavailable)?;
            Ok(vec![count.to_string()])
        } else if self.divide {
            let divided = perft::divide(position, self.depth);
            let total: u64 = divided.iter().map(|(_, count)| count).sum();
            let mut lines: Vec<String> = divided
                .into_iter()
                .map(|(mv, count)| format!("{} {count}", position.move_info(&mv).text))
                .collect();
            lines.push(total.to_string());
            Ok(lines)
        } else {
            Ok(vec![perft::perft(position, self.depth).to_string()])
        }
    }
}

/// `damas bench` on one game's start: plain and hashed perft, each timed.
struct BenchTask {
    kind: GameKind,
    depth: u32,
}

impl GameTask for BenchTask {
    type Output = Result<[(u64, f64); 2], CliError>;

    fn run<P: Searchable + Describe>(self) -> Self::Output {
        let start = P::start(Variant::standard(self.kind))?;
        Ok([
            time(|| perft::perft(&start, self.depth)),
            time(|| perft::perft_hashed(&start, self.depth, BENCH_TABLE_BITS)),
        ])
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
            let variant = game.variant()?;
            let task = PerftTask {
                args: &game,
                variant,
                depth,
                divide,
                paths,
            };
            for line in catalogue::for_game(variant.kind, task)? {
                writeln!(out, "{line}")?;
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
            no_book,
        } => {
            let player = player(level, movetime)?;
            let game = game.build()?;
            let stop = std::sync::atomic::AtomicBool::new(false);
            let started = Instant::now();
            // Expert reads the endgame databases of the default directory when built there.
            let context = SearchContext::with_endgame(damas::search::endgame::default_directory());
            let context = if no_book {
                context.with_books(OpeningBooks::none())
            } else {
                context
            };
            let decision = game
                .decide(player, seed, None, &stop, &context)
                .ok_or(CliError::NoMove)?;
            eprintln!(
                "{}depth {} nodes {} score {} time {:.3} s",
                if decision.book { "book " } else { "" },
                decision.depth,
                decision.nodes,
                decision.score,
                started.elapsed().as_secs_f64()
            );
            writeln!(out, "{}", decision.info.text)?;
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
                let [plain, hashed] = catalogue::for_game(kind, BenchTask { kind, depth })?;
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
