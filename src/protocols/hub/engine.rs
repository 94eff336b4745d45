//! The engine's side of a Hub conversation: what each command does to its state, and the loop
//! that reads the GUI's lines, runs searches on their own thread (so that `ping` and `stop` are
//! answered while thinking) and writes the answers.

use super::message::{parse_command, Command, GoMode, Limit, ParamType, Reply};
use super::notation::{self, MoveTextError, PositionError};
use crate::catalogue;
use crate::position::{GameKind, SetupError, Variant};
use crate::search::endgame;
use crate::search::levels::{self, Level, MoveTime};
use crate::search::playable::Decision;
use crate::search::{Params, Playable, Player, PlayerConfig, SearchContext};
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;
use thiserror::Error;

/// The longest line read from the GUI; a game's `moves` fit many times over.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// Moves left assumed when the GUI's clock gives none (`level time=T`, sudden death).
const DEFAULT_MOVES_LEFT: f64 = 30.0;

/// The one variant Damas plays through Hub: International draughts, Hub's `normal`.
const VARIANT: &str = "normal";

/// What a command could not do; sent to the GUI as `error message="..."`.
#[derive(Debug, Error)]
pub enum HubError {
    #[error("unknown parameter '{0}' (expected variant, level or think-time)")]
    UnknownParam(String),
    #[error("variant '{0}' is not supported (Damas plays International draughts: normal)")]
    Variant(String),
    #[error("level '{0}' is unknown (expected easy, medium, hard or expert)")]
    Level(String),
    #[error("think-time '{0}': expected whole milliseconds from 500 to 5000")]
    ThinkTime(String),
    #[error("position: {0}")]
    Position(#[from] PositionError),
    #[error("position: {0}")]
    Setup(#[from] SetupError),
    #[error("move {index} ('{text}'): {source}")]
    Move {
        index: usize,
        text: String,
        source: MoveTextError,
    },
    #[error("move {index} ('{text}'): {source}")]
    Rules {
        index: usize,
        text: String,
        source: crate::position::MoveError,
    },
    #[error("no position: send 'pos' before 'go'")]
    NoPosition,
    #[error("the position has no legal move")]
    NoMove,
    #[error("only ping, ponder-hit, stop and quit are read during a search")]
    Busy,
    #[error("line longer than {MAX_LINE_BYTES} bytes")]
    LineTooLong,
    #[error("line is not UTF-8")]
    NotUtf8,
}

/// A search to run: the game at the position to move from and who plays it.
pub struct SearchJob {
    pub game: Box<dyn Playable>,
    pub player: Player,
    pub seed: u64,
    /// Expert may answer from its opening book (`go think` and `go ponder`); `go analyze`
    /// asks for the engine's own search.
    pub book: bool,
}

impl SearchJob {
    /// The job's move, searched on this thread.
    pub fn decide(&self, stop: &AtomicBool, context: &SearchContext) -> Option<Decision> {
        let config = levels::config(self.game.variant(), self.player);
        let config = PlayerConfig {
            params: Params {
                book: config.params.book && self.book,
                ..config.params
            },
            ..config
        };
        self.game.decide_as(&config, self.seed, None, stop, context)
    }
}

/// What one command asks of the loop.
#[derive(Default)]
pub struct Step {
    pub replies: Vec<Reply>,
    pub search: Option<SearchJob>,
    pub quit: bool,
}

impl Step {
    fn reply(reply: Reply) -> Step {
        Step {
            replies: vec![reply],
            ..Step::default()
        }
    }

    fn error(error: HubError) -> Step {
        Step::reply(Reply::Error(error.to_string()))
    }
}

/// The engine's state between commands: its parameters, the GUI's time limit and position.
pub struct HubEngine {
    level: Level,
    think_time: MoveTime,
    limit: Option<Limit>,
    game: Option<Box<dyn Playable>>,
    searches: u64,
}

impl Default for HubEngine {
    fn default() -> Self {
        HubEngine {
            level: Level::Expert,
            think_time: MoveTime::DEFAULT,
            limit: None,
            game: None,
            searches: 0,
        }
    }
}

/// The time a search may take, in milliseconds, from the GUI's `level` (`None`: the engine's
/// `think-time`). The clock's share is its time over the moves left, plus the increment, never
/// more than half of what is left.
pub fn budget_millis(limit: Option<Limit>) -> Option<f64> {
    match limit? {
        Limit::MoveTime(seconds) => Some(seconds * 1000.0),
        Limit::Clock { moves, time, inc } => {
            let moves = moves
                .filter(|&m| m > 0)
                .map_or(DEFAULT_MOVES_LEFT, f64::from);
            let share = time / moves + inc;
            Some(share.min((time + inc) / 2.0) * 1000.0)
        }
        Limit::Depth(_) | Limit::Nodes(_) | Limit::Infinite => None,
    }
}

/// Expert's thinking time for a budget, within what expert accepts (0.5–5 s).
fn expert_time(budget_ms: Option<f64>, default: MoveTime) -> MoveTime {
    match budget_ms {
        None => default,
        Some(ms) => {
            let ms = ms.clamp(f64::from(MoveTime::MIN_MS), f64::from(MoveTime::MAX_MS)) as u64;
            MoveTime::from_millis(ms).unwrap_or(default)
        }
    }
}

impl HubEngine {
    /// The answers to `hub`: who the engine is and its parameters, then `wait`.
    fn identify(&self) -> Vec<Reply> {
        vec![
            Reply::Id {
                name: "Damas".to_string(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                author: "Damas authors".to_string(),
                country: "ES".to_string(),
            },
            Reply::Param {
                name: "variant",
                value: VARIANT.to_string(),
                kind: ParamType::Enum(vec![VARIANT]),
            },
            Reply::Param {
                name: "level",
                value: self.level.as_str().to_string(),
                kind: ParamType::Enum(Level::ALL.iter().map(|level| level.as_str()).collect()),
            },
            Reply::Param {
                name: "think-time",
                value: self.think_time.millis().to_string(),
                kind: ParamType::Int {
                    min: i64::from(MoveTime::MIN_MS),
                    max: i64::from(MoveTime::MAX_MS),
                },
            },
            Reply::Wait,
        ]
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), HubError> {
        match name {
            "variant" if value == VARIANT => Ok(()),
            "variant" => Err(HubError::Variant(value.to_string())),
            "level" => {
                self.level = Level::parse(value).ok_or_else(|| HubError::Level(value.into()))?;
                Ok(())
            }
            "think-time" => {
                self.think_time = value
                    .parse::<u64>()
                    .ok()
                    .and_then(|ms| MoveTime::from_millis(ms).ok())
                    .ok_or_else(|| HubError::ThinkTime(value.to_string()))?;
                Ok(())
            }
            other => Err(HubError::UnknownParam(other.to_string())),
        }
    }

    /// The game at a Hub position (the start when `None`) after `moves`, each checked against
    /// the legal moves.
    pub fn game_at(
        position: Option<&str>,
        moves: &[String],
    ) -> Result<Box<dyn Playable>, HubError> {
        let fen = position.map(notation::fen_of_position).transpose()?;
        let variant = Variant::standard(GameKind::International);
        let mut game = catalogue::new_game(variant, fen.as_deref())?;
        for (index, text) in moves.iter().enumerate() {
            let legal = game.legal_moves();
            let info = notation::find_move(&legal, text).map_err(|source| HubError::Move {
                index: index + 1,
                text: text.clone(),
                source,
            })?;
            let damas_text = info.text.clone();
            game.play(&damas_text).map_err(|source| HubError::Rules {
                index: index + 1,
                text: text.clone(),
                source,
            })?;
        }
        Ok(game)
    }

    fn search_job(&mut self, book: bool) -> Result<SearchJob, HubError> {
        let game = self.game.as_ref().ok_or(HubError::NoPosition)?;
        if game.legal_moves().is_empty() {
            return Err(HubError::NoMove);
        }
        // The GUI decides when a game ends: a position that Damas's own draw rules have ended
        // but that has moves is searched without its history.
        let game = if game.outcome().is_some() {
            catalogue::new_game(game.variant(), Some(&game.position_text()))?
        } else {
            game.clone()
        };
        let player = match self.level {
            Level::Expert => {
                Player::Expert(expert_time(budget_millis(self.limit), self.think_time))
            }
            level => Player::Cpu(level),
        };
        self.searches += 1;
        Ok(SearchJob {
            game,
            player,
            seed: self.searches,
            book,
        })
    }

    /// What a command (outside a search) does.
    pub fn handle(&mut self, command: Command) -> Step {
        match command {
            Command::Hub => Step {
                replies: self.identify(),
                ..Step::default()
            },
            Command::SetParam { name, value } => match self.set_param(&name, &value) {
                Ok(()) => Step::default(),
                Err(error) => Step::error(error),
            },
            Command::Init => Step::reply(Reply::Ready),
            Command::NewGame => {
                self.game = None;
                Step::default()
            }
            Command::Pos { position, moves } => {
                match HubEngine::game_at(position.as_deref(), &moves) {
                    Ok(game) => {
                        self.game = Some(game);
                        Step::default()
                    }
                    Err(error) => {
                        self.game = None;
                        Step::error(error)
                    }
                }
            }
            Command::Level(limit) => {
                self.limit = Some(limit);
                Step::default()
            }
            // Damas does not ponder: every mode searches for the move's budget and answers;
            // the protocol lets an engine end any search when it likes. Analysis searches even
            // where expert has a book move.
            Command::Go(mode) => match self.search_job(mode != GoMode::Analyze) {
                Ok(job) => Step {
                    search: Some(job),
                    ..Step::default()
                },
                Err(error) => Step::error(error),
            },
            Command::Ping => Step::reply(Reply::Pong),
            Command::PonderHit | Command::Stop | Command::Unknown(_) => Step::default(),
            Command::Quit => Step {
                quit: true,
                ..Step::default()
            },
        }
    }
}

/// The answers to a finished search: its figures, then its move.
pub fn search_replies(game: &dyn Playable, decision: Option<Decision>, seconds: f64) -> Vec<Reply> {
    match decision {
        Some(decision) => vec![
            Reply::Info {
                depth: decision.depth,
                score: decision.score,
                nodes: decision.nodes,
                seconds,
            },
            Reply::Done {
                mv: notation::move_text(&decision.info),
            },
        ],
        // Stopped before any move was found: any legal move answers.
        None => match game.legal_moves().first() {
            Some(info) => vec![Reply::Done {
                mv: notation::move_text(info),
            }],
            None => vec![Reply::Error(HubError::NoMove.to_string())],
        },
    }
}

enum Event {
    Line(Result<String, HubError>),
    Closed,
    Searched {
        game: Box<dyn Playable>,
        decision: Option<Decision>,
        seconds: f64,
    },
}

/// Reads one line of at most [`MAX_LINE_BYTES`]; a longer one is read to its end and refused.
fn read_line<R: BufRead>(input: &mut R) -> std::io::Result<Option<Result<String, HubError>>> {
    let mut buffer = Vec::new();
    let read = Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buffer)?;
    if read == 0 {
        return Ok(None);
    }
    if buffer.last() != Some(&b'\n') && buffer.len() > MAX_LINE_BYTES {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let read =
                Read::take(&mut *input, MAX_LINE_BYTES as u64).read_until(b'\n', &mut rest)?;
            if read == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Err(HubError::LineTooLong)));
    }
    Ok(Some(
        String::from_utf8(buffer).map_err(|_| HubError::NotUtf8),
    ))
}

fn write_replies(output: &mut impl Write, replies: &[Reply]) -> std::io::Result<()> {
    for reply in replies {
        writeln!(output, "{reply}")?;
    }
    output.flush()
}

/// Speaks Hub on `input` and `output` until `quit` or the end of the input.
pub fn serve<R, W>(mut input: R, mut output: W) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (events, inbox) = mpsc::channel::<Event>();
    let reader_events = events.clone();
    // The session's searches: expert keeps its tables between moves and reads the endgame
    // databases of the default directory, as `damas bestmove` does.
    let search = Arc::new(SearchContext::with_endgame(endgame::default_directory()));
    std::thread::spawn(move || loop {
        let event = match read_line(&mut input) {
            Ok(Some(line)) => Event::Line(line),
            Ok(None) | Err(_) => Event::Closed,
        };
        let closed = matches!(event, Event::Closed);
        if reader_events.send(event).is_err() || closed {
            break;
        }
    });
    let mut engine = HubEngine::default();
    let mut searching: Option<Arc<AtomicBool>> = None;
    let stop_search = |searching: &Option<Arc<AtomicBool>>| {
        if let Some(stop) = searching {
            stop.store(true, Ordering::Relaxed);
        }
    };
    while let Ok(event) = inbox.recv() {
        match event {
            Event::Closed => {
                stop_search(&searching);
                return Ok(());
            }
            Event::Searched {
                game,
                decision,
                seconds,
            } => {
                searching = None;
                write_replies(
                    &mut output,
                    &search_replies(game.as_ref(), decision, seconds),
                )?;
            }
            Event::Line(Err(error)) => {
                write_replies(&mut output, &[Reply::Error(error.to_string())])?;
            }
            Event::Line(Ok(text)) => {
                if text.trim().is_empty() {
                    continue;
                }
                let command = match parse_command(&text) {
                    Ok(command) => command,
                    Err(error) => {
                        write_replies(&mut output, &[Reply::Error(error.to_string())])?;
                        continue;
                    }
                };
                if searching.is_some() {
                    match command {
                        Command::Ping => write_replies(&mut output, &[Reply::Pong])?,
                        Command::Stop => stop_search(&searching),
                        Command::Quit => {
                            stop_search(&searching);
                            return Ok(());
                        }
                        Command::PonderHit | Command::Unknown(_) => {}
                        _ => {
                            write_replies(&mut output, &[Reply::Error(HubError::Busy.to_string())])?
                        }
                    }
                    continue;
                }
                let step = engine.handle(command);
                write_replies(&mut output, &step.replies)?;
                if step.quit {
                    return Ok(());
                }
                if let Some(job) = step.search {
                    let stop = Arc::new(AtomicBool::new(false));
                    searching = Some(Arc::clone(&stop));
                    let events = events.clone();
                    let search = Arc::clone(&search);
                    std::thread::spawn(move || {
                        let started = Instant::now();
                        let decision = job.decide(&stop, &search);
                        let _ = events.send(Event::Searched {
                            game: job.game,
                            decision,
                            seconds: started.elapsed().as_secs_f64(),
                        });
                    });
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(moves: Option<u32>, time: f64, inc: f64) -> Option<Limit> {
        Some(Limit::Clock { moves, time, inc })
    }

    #[test]
    fn budgets_follow_the_guis_clock() {
        assert_eq!(budget_millis(Some(Limit::MoveTime(1.5))), Some(1500.0));
        // Sudden death: a thirtieth of what is left.
        assert_eq!(budget_millis(clock(None, 60.0, 0.0)), Some(2000.0));
        // x/y: what is left over the moves to the control.
        assert_eq!(budget_millis(clock(Some(10), 15.0, 0.0)), Some(1500.0));
        // Fischer: the share plus the increment, but never more than half of what is left.
        assert_eq!(budget_millis(clock(None, 30.0, 1.0)), Some(2000.0));
        assert_eq!(budget_millis(clock(None, 0.6, 1.0)), Some(800.0));
        for limit in [Limit::Depth(8), Limit::Nodes(1000), Limit::Infinite] {
            assert_eq!(budget_millis(Some(limit)), None);
        }
        assert_eq!(budget_millis(None), None);
    }

    #[test]
    fn expert_thinks_within_its_range() {
        let default = MoveTime::DEFAULT;
        assert_eq!(expert_time(None, default), default);
        assert_eq!(expert_time(Some(33.0), default).millis(), MoveTime::MIN_MS);
        assert_eq!(
            expert_time(Some(32_400.0), default).millis(),
            MoveTime::MAX_MS
        );
        assert_eq!(expert_time(Some(1234.9), default).millis(), 1234);
    }

    #[test]
    fn parameters_are_checked() {
        let mut engine = HubEngine::default();
        assert!(engine.set_param("variant", "normal").is_ok());
        assert!(matches!(
            engine.set_param("variant", "frisian"),
            Err(HubError::Variant(_))
        ));
        assert!(matches!(
            engine.set_param("level", "grandmaster"),
            Err(HubError::Level(_))
        ));
        assert!(matches!(
            engine.set_param("think-time", "100"),
            Err(HubError::ThinkTime(_))
        ));
        assert!(matches!(
            engine.set_param("book", "true"),
            Err(HubError::UnknownParam(_))
        ));
        engine.set_param("level", "medium").unwrap();
        engine.set_param("think-time", "2500").unwrap();
        assert_eq!(
            (engine.level, engine.think_time.millis()),
            (Level::Medium, 2500)
        );
    }

    #[test]
    fn positions_replay_their_moves() {
        let game =
            HubEngine::game_at(None, &["32-28".into(), "19-23".into(), "28x19x23".into()]).unwrap();
        assert_eq!(game.ply(), 3);
        assert!(matches!(
            HubEngine::game_at(None, &["32-28".into(), "19-25".into()]),
            Err(HubError::Move { index: 2, .. })
        ));
        assert!(matches!(
            HubEngine::game_at(Some("Wbb"), &[]),
            Err(HubError::Position(PositionError::Length(3)))
        ));
        // A board Damas refuses (a man on its own promotion row) is an error, not a panic.
        let mut text = "W".to_string() + &"e".repeat(50);
        text.replace_range(1..2, "w");
        assert!(HubEngine::game_at(Some(&text), &[]).is_err());
    }
}
