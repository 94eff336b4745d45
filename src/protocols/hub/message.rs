//! The Hub protocol's lines, both ways: `<command> <arg>=<val> <flag> ...`, values optionally in
//! double quotes (required when they hold a space or `=`, or are empty). Reading gives typed
//! commands or a typed error; writing quotes what needs it.

pub use super::reply::{score_text, ParamType, Reply};
use thiserror::Error;

/// A line that is not `<command> <arg>=<val> ...`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("empty line")]
    Empty,
    #[error("unterminated quote in argument '{0}'")]
    UnterminatedQuote(String),
    #[error("argument '{0}' has '=' but no value (an empty value must be quoted)")]
    MissingValue(String),
    #[error("argument '{0}' has no name")]
    MissingName(String),
    #[error("a quoted value must be followed by a space, found '{0}'")]
    TextAfterQuote(String),
}

/// One line split into its command and arguments, in order; a flag has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// The value of the first argument called `name` (a flag's value is the empty string).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(arg, _)| arg == name)
            .map(|(_, value)| value.as_deref().unwrap_or(""))
    }

    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(arg, _)| arg == name)
    }

    /// The first argument, which names the mode of `go` (`go think`).
    pub fn first_arg(&self) -> Option<&str> {
        self.args.first().map(|(arg, _)| arg.as_str())
    }
}

/// Splits a line into its command and arguments.
pub fn split_line(text: &str) -> Result<Line, SyntaxError> {
    let mut chars = text.trim().chars().peekable();
    let mut command = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            break;
        }
        command.push(c);
        chars.next();
    }
    if command.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let mut args = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            name.push(c);
            chars.next();
        }
        if chars.peek() != Some(&'=') {
            args.push((name, None));
            continue;
        }
        chars.next();
        if name.is_empty() {
            return Err(SyntaxError::MissingName(text.trim().to_string()));
        }
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            let mut closed = false;
            for c in chars.by_ref() {
                if c == '"' {
                    closed = true;
                    break;
                }
                value.push(c);
            }
            if !closed {
                return Err(SyntaxError::UnterminatedQuote(name));
            }
            if let Some(&c) = chars.peek() {
                if !c.is_whitespace() {
                    return Err(SyntaxError::TextAfterQuote(name));
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                value.push(c);
                chars.next();
            }
            if value.is_empty() {
                return Err(SyntaxError::MissingValue(name));
            }
        }
        args.push((name, Some(value)));
    }
    Ok(Line { command, args })
}

/// How long a search may take, as the GUI's `level` sets it. Times are in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// `level depth=N`.
    Depth(u32),
    /// `level nodes=N` (not in the protocol's text, but sent by some clients).
    Nodes(u64),
    /// `level move-time=S`.
    MoveTime(f64),
    /// `level [moves=M] time=T [inc=I]`: the engine's clock.
    Clock {
        moves: Option<u32>,
        time: f64,
        inc: f64,
    },
    /// `level infinite`: analysis, until `stop`.
    Infinite,
}

/// The argument of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    Ponder,
    Analyze,
}

/// A line from the GUI, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hub,
    SetParam {
        name: String,
        value: String,
    },
    Init,
    NewGame,
    /// `pos pos=<position> [moves="..."]`; `position` is `None` for `pos start` (or no `pos=`).
    Pos {
        position: Option<String>,
        moves: Vec<String>,
    },
    Level(Limit),
    Go(GoMode),
    PonderHit,
    Stop,
    Ping,
    Quit,
    /// A command this engine does not know: ignored, as the protocol asks.
    Unknown(String),
}

/// A line that could not be read as a command.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CommandError {
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    #[error("'{command}' needs the argument '{arg}'")]
    MissingArgument {
        command: &'static str,
        arg: &'static str,
    },
    #[error("'{arg}={value}' is not a valid number")]
    BadNumber { arg: &'static str, value: String },
    #[error("'level' needs depth, nodes, move-time, time or infinite")]
    EmptyLevel,
    #[error("'go' needs think, ponder or analyze, found '{0}'")]
    GoMode(String),
}

fn seconds(line: &Line, arg: &'static str) -> Result<Option<f64>, CommandError> {
    line.get(arg)
        .map(|text| {
            text.parse::<f64>()
                .ok()
                .filter(|value| value.is_finite() && *value >= 0.0)
                .ok_or_else(|| CommandError::BadNumber {
                    arg,
                    value: text.to_string(),
                })
        })
        .transpose()
}

fn count<T: std::str::FromStr>(line: &Line, arg: &'static str) -> Result<Option<T>, CommandError> {
    line.get(arg)
        .map(|text| {
            text.parse::<T>().map_err(|_| CommandError::BadNumber {
                arg,
                value: text.to_string(),
            })
        })
        .transpose()
}

fn parse_level(line: &Line) -> Result<Limit, CommandError> {
    if line.has("infinite") {
        return Ok(Limit::Infinite);
    }
    if let Some(time) = seconds(line, "time")? {
        return Ok(Limit::Clock {
            moves: count(line, "moves")?,
            time,
            inc: seconds(line, "inc")?.unwrap_or(0.0),
        });
    }
    if let Some(time) = seconds(line, "move-time")? {
        return Ok(Limit::MoveTime(time));
    }
    if let Some(depth) = count(line, "depth")? {
        return Ok(Limit::Depth(depth));
    }
    if let Some(nodes) = count(line, "nodes")? {
        return Ok(Limit::Nodes(nodes));
    }
    Err(CommandError::EmptyLevel)
}

/// Reads one line from the GUI.
pub fn parse_command(text: &str) -> Result<Command, CommandError> {
    let line = split_line(text)?;
    Ok(match line.command.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "ping" => Command::Ping,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "set-param" => Command::SetParam {
            name: line
                .get("name")
                .ok_or(CommandError::MissingArgument {
                    command: "set-param",
                    arg: "name",
                })?
                .to_string(),
            value: line
                .get("value")
                .ok_or(CommandError::MissingArgument {
                    command: "set-param",
                    arg: "value",
                })?
                .to_string(),
        },
        "pos" => Command::Pos {
            position: line.get("pos").map(str::to_string),
            moves: line
                .get("moves")
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        },
        "level" => Command::Level(parse_level(&line)?),
        "go" => match line.first_arg() {
            Some("think") => Command::Go(GoMode::Think),
            Some("ponder") => Command::Go(GoMode::Ponder),
            Some("analyze") | Some("analyse") => Command::Go(GoMode::Analyze),
            other => return Err(CommandError::GoMode(other.unwrap_or("").to_string())),
        },
        other => Command::Unknown(other.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::hub::reply::quoted;
    use crate::search::score::WIN;

    #[test]
    fn splits_quoted_values_and_flags() {
        let line = split_line("id name=Scan version=3.0 author=\"Fabien Letouzey\" country=France")
            .unwrap();
        assert_eq!(line.command, "id");
        assert_eq!(line.get("author"), Some("Fabien Letouzey"));
        assert_eq!(line.get("country"), Some("France"));
        let line = split_line("  go   think  ").unwrap();
        assert_eq!(
            (line.command.as_str(), line.first_arg()),
            ("go", Some("think"))
        );
        assert_eq!(line.get("think"), Some(""));
        assert_eq!(split_line("x a=\"\"").unwrap().get("a"), Some(""));
    }

    #[test]
    fn reads_the_protocols_examples() {
        assert_eq!(
            parse_command(
                "pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee moves=\"38-15 5-41 48-26\""
            ),
            Ok(Command::Pos {
                position: Some("BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee".into()),
                moves: vec!["38-15".into(), "5-41".into(), "48-26".into()],
            })
        );
        assert_eq!(
            parse_command("level moves=9 time=291.587"),
            Ok(Command::Level(Limit::Clock {
                moves: Some(9),
                time: 291.587,
                inc: 0.0
            }))
        );
        assert_eq!(
            parse_command("level time=60 inc=0.5"),
            Ok(Command::Level(Limit::Clock {
                moves: None,
                time: 60.0,
                inc: 0.5
            }))
        );
        assert_eq!(
            parse_command("level move-time=1"),
            Ok(Command::Level(Limit::MoveTime(1.0)))
        );
        assert_eq!(
            parse_command("level depth=12"),
            Ok(Command::Level(Limit::Depth(12)))
        );
        assert_eq!(
            parse_command("level infinite"),
            Ok(Command::Level(Limit::Infinite))
        );
        assert_eq!(parse_command("go ponder"), Ok(Command::Go(GoMode::Ponder)));
        assert_eq!(
            parse_command("go analyze"),
            Ok(Command::Go(GoMode::Analyze))
        );
        assert_eq!(
            parse_command("set-param name=variant value=normal"),
            Ok(Command::SetParam {
                name: "variant".into(),
                value: "normal".into()
            })
        );
        assert_eq!(parse_command("new-game"), Ok(Command::NewGame));
        assert_eq!(parse_command("ponder-hit"), Ok(Command::PonderHit));
        // Unknown commands and arguments are ignored, as the protocol asks.
        assert_eq!(
            parse_command("hello there"),
            Ok(Command::Unknown("hello".into()))
        );
        assert_eq!(parse_command("ping extra=1"), Ok(Command::Ping));
        assert_eq!(
            parse_command("pos"),
            Ok(Command::Pos {
                position: None,
                moves: vec![]
            })
        );
    }

    #[test]
    fn refuses_malformed_lines_with_typed_errors() {
        assert_eq!(
            parse_command("   "),
            Err(CommandError::Syntax(SyntaxError::Empty))
        );
        assert_eq!(
            parse_command("pos pos=\"Wbb"),
            Err(CommandError::Syntax(SyntaxError::UnterminatedQuote(
                "pos".into()
            )))
        );
        assert_eq!(
            parse_command("pos pos= moves=\"\""),
            Err(CommandError::Syntax(SyntaxError::MissingValue(
                "pos".into()
            )))
        );
        assert_eq!(
            parse_command("pos =x"),
            Err(CommandError::Syntax(SyntaxError::MissingName(
                "pos =x".into()
            )))
        );
        assert_eq!(
            parse_command("pos moves=\"32-28\"x"),
            Err(CommandError::Syntax(SyntaxError::TextAfterQuote(
                "moves".into()
            )))
        );
        assert_eq!(
            parse_command("level time=abc"),
            Err(CommandError::BadNumber {
                arg: "time",
                value: "abc".into()
            })
        );
        assert_eq!(
            parse_command("level move-time=-1"),
            Err(CommandError::BadNumber {
                arg: "move-time",
                value: "-1".into()
            })
        );
        assert_eq!(
            parse_command("level move-time=inf"),
            Err(CommandError::BadNumber {
                arg: "move-time",
                value: "inf".into()
            })
        );
        assert_eq!(parse_command("level"), Err(CommandError::EmptyLevel));
        assert_eq!(
            parse_command("go"),
            Err(CommandError::GoMode(String::new()))
        );
        assert_eq!(
            parse_command("go fast"),
            Err(CommandError::GoMode("fast".into()))
        );
        assert_eq!(
            parse_command("set-param name=level"),
            Err(CommandError::MissingArgument {
                command: "set-param",
                arg: "value"
            })
        );
    }

    #[test]
    fn writes_replies_as_the_protocol_shows_them() {
        assert_eq!(
            Reply::Done { mv: "32-28".into() }.to_string(),
            "done move=32-28"
        );
        assert_eq!(
            Reply::Param {
                name: "variant",
                value: "normal".into(),
                kind: ParamType::Enum(vec!["normal", "killer"]),
            }
            .to_string(),
            "param name=variant value=normal type=enum values=\"normal killer\""
        );
        assert_eq!(
            Reply::Param {
                name: "think-time",
                value: "1000".into(),
                kind: ParamType::Int {
                    min: 500,
                    max: 5000
                },
            }
            .to_string(),
            "param name=think-time value=1000 type=int min=500 max=5000"
        );
        assert_eq!(
            Reply::Info {
                depth: 21,
                score: -1,
                nodes: 31_261_613,
                seconds: 3.906,
            }
            .to_string(),
            "info depth=21 score=-0.01 nodes=31261613 time=3.906 nps=8.0"
        );
        assert_eq!(
            Reply::Error("bad move: 32-29".into()).to_string(),
            "error message=\"bad move: 32-29\""
        );
        assert_eq!(Reply::Pong.to_string(), "pong");
        assert_eq!(Reply::Wait.to_string(), "wait");
        assert_eq!(Reply::Ready.to_string(), "ready");
    }

    #[test]
    fn scores_are_written_in_men_and_wins_by_distance() {
        assert_eq!(score_text(0), "0.00");
        assert_eq!(score_text(35), "0.35");
        assert_eq!(score_text(-250), "-2.50");
        // A win in 5 plies: 100 men less 5 hundredths, as Hub clients read it back.
        assert_eq!(score_text(WIN - 5), "99.95");
        assert_eq!(score_text(-(WIN - 12)), "-99.88");
    }

    #[test]
    fn written_lines_read_back() {
        let reply = Reply::Id {
            name: "Damas".into(),
            version: "0.1.0".into(),
            author: "Damas authors".into(),
            country: "ES".into(),
        };
        let line = split_line(&reply.to_string()).unwrap();
        assert_eq!(line.command, "id");
        assert_eq!(line.get("author"), Some("Damas authors"));
        assert_eq!(line.get("version"), Some("0.1.0"));
        let error = Reply::Error("a=b \"quoted\"".into()).to_string();
        assert_eq!(
            split_line(&error).unwrap().get("message"),
            Some("a=b 'quoted'")
        );
    }

    proptest::proptest! {
        /// Any line at all is a command or a typed error, and a readable one's arguments keep
        /// their text.
        #[test]
        fn any_line_is_read_without_panicking(line in "\\PC{0,80}") {
            let _ = parse_command(&line);
        }

        #[test]
        fn quoted_values_read_back(value in "[^\"\\n\\r]{0,40}") {
            let line = format!("x v={}", quoted(&value));
            let read = split_line(&line).unwrap();
            proptest::prop_assert_eq!(read.get("v"), Some(value.as_str()));
        }
    }
}
