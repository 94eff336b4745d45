//! `damas endgame`: build, list and probe the endgame tables of the draughts games.

use crate::error::CliError;
use clap::Subcommand;
use damas::catalogue;
use damas::search::endgame::{self, Value as EndgameValue};
use damas::{GameKind, Variant};
use std::io::Write;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum EndgameCommand {
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

pub(crate) fn run_endgame(action: EndgameCommand, out: &mut impl Write) -> Result<(), CliError> {
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
            let mut slices: Vec<_> = loaded.tables.slice_counts().collect();
            slices
                .sort_by_key(|(material, _)| (material.pieces(), material.total_men(), *material));
            for (material, counts) in slices {
                writeln!(
                    out,
                    "{:<12} {:>10} positions  W {:>10} D {:>10} L {:>10}  longest {:>3}",
                    material.label(),
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
