//! `damas hub` through the real binary: a GUI's conversation over pipes (hand-checked answers),
//! bad input answered without a crash, and whole games driven by a third-party Hub client
//! (pydraughts, installed by scripts/setup).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// How long any one answer may take before the test gives up (a loaded machine is slow; this
/// bounds a hang, it measures nothing).
const ANSWER_WAIT: Duration = Duration::from_secs(120);

const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("damas hub starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads");
        self.stdin.flush().expect("engine reads");
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("engine reads");
        self.stdin.flush().expect("engine reads");
    }

    fn answer(&self) -> String {
        self.lines
            .recv_timeout(ANSWER_WAIT)
            .expect("the engine answers")
    }

    /// Answers up to and including the first that starts with `command`.
    fn answers_until(&self, command: &str) -> Vec<String> {
        let mut answers = Vec::new();
        loop {
            let line = self.answer();
            let last = line.split_whitespace().next() == Some(command);
            answers.push(line);
            if last {
                return answers;
            }
        }
    }

    /// Sends `ping` and returns what came before its `pong`.
    fn flush_answers(&mut self) -> Vec<String> {
        self.send("ping");
        let mut answers = self.answers_until("pong");
        answers.pop();
        answers
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("engine exits");
        assert!(status.success(), "damas hub exited with {status}");
    }
}

#[test]
fn the_initialisation_declares_the_engine_and_its_parameters() {
    let mut engine = Engine::start();
    engine.send("hub");
    let answers = engine.answers_until("wait");
    assert!(answers[0].starts_with("id name=Damas "), "{answers:?}");
    assert!(answers.contains(&"param name=variant value=normal type=enum values=normal".into()));
    assert!(answers.contains(
        &"param name=level value=expert type=enum values=\"easy medium hard expert\"".into()
    ));
    assert!(answers.contains(&"param name=think-time value=1000 type=int min=500 max=5000".into()));
    engine.send("set-param name=variant value=normal");
    engine.send("set-param name=level value=hard");
    engine.send("init");
    assert_eq!(engine.answer(), "ready");
    engine.quit();
}

#[test]
fn a_search_answers_the_forced_capture() {
    let mut engine = Engine::start();
    engine.send("set-param name=level value=hard");
    // After 32-28 19-23 White's only legal move is 28x19, taking 23.
    engine.send(&format!("pos pos={START} moves=\"32-28 19-23\""));
    engine.send("level move-time=1");
    engine.send("go think");
    let answers = engine.answers_until("done");
    assert_eq!(
        answers.last().map(String::as_str),
        Some("done move=28x19x23")
    );
    assert!(
        answers[..answers.len() - 1]
            .iter()
            .all(|line| line.starts_with("info depth=")),
        "{answers:?}"
    );
    // Black to move after the capture: the answer is one of Black's legal moves, taking back.
    engine.send(&format!("pos pos={START} moves=\"32-28 19-23 28x19x23\""));
    engine.send("go think");
    let done = engine.answers_until("done").pop().unwrap_or_default();
    assert!(
        ["done move=14x23x19", "done move=13x24x19"].contains(&done.as_str()),
        "{done}"
    );
    engine.quit();
}

#[test]
fn expert_answers_ping_while_thinking_and_moves_when_stopped() {
    let mut engine = Engine::start();
    engine.send("pos");
    engine.send("level infinite");
    engine.send("set-param name=think-time value=5000");
    engine.send("go analyze");
    engine.send("ping");
    assert_eq!(engine.answer(), "pong");
    engine.send("pos");
    assert!(engine.answer().starts_with("error message=\"only ping"));
    engine.send("stop");
    let done = engine.answers_until("done").pop().unwrap_or_default();
    let mv = done.strip_prefix("done move=").expect("a move");
    let opening = [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ];
    assert!(opening.contains(&mv), "{done}");
    engine.quit();
}

#[test]
fn bad_input_is_answered_and_the_engine_goes_on() {
    let mut engine = Engine::start();
    let cases: [(&str, &str); 9] = [
        (
            "pos pos=Wbbb",
            "error message=\"position: a position is 51 characters",
        ),
        (
            "go think",
            "error message=\"no position: send 'pos' before 'go'\"",
        ),
        (
            "pos moves=\"32-29\"",
            "error message=\"move 1 ('32-29'): '32-29' is not a legal move here\"",
        ),
        (
            "pos moves=\"32-28 19x28\"",
            "error message=\"move 2 ('19x28'): '19x28' is not a legal move here\"",
        ),
        (
            "pos moves=\"51-46\"",
            "error message=\"move 1 ('51-46'): '51-46': squares are numbered 1 to 50\"",
        ),
        (
            "level time=soon",
            "error message=\"'time=soon' is not a valid number\"",
        ),
        (
            "set-param name=variant value=english",
            "error message=\"variant 'english' is not supported",
        ),
        (
            "go sideways",
            "error message=\"'go' needs think, ponder or analyze, found 'sideways'\"",
        ),
        (
            "pos pos=\"W",
            "error message=\"unterminated quote in argument 'pos'\"",
        ),
    ];
    for (line, expected) in cases {
        engine.send(line);
        let answers = engine.flush_answers();
        assert_eq!(answers.len(), 1, "{line}: {answers:?}");
        assert!(answers[0].starts_with(expected), "{line}: {answers:?}");
    }
    // Unknown commands are ignored, as the protocol asks.
    engine.send("bonjour name=x");
    assert_eq!(engine.flush_answers(), Vec::<String>::new());
    // A line too long, then bytes that are not UTF-8: refused, and the engine reads on.
    let long = format!("pos moves=\"{}\"\n", "32-28 ".repeat(50_000));
    engine.send_bytes(long.as_bytes());
    engine.send_bytes(b"pos pos=\xff\xfe\n");
    let answers = engine.flush_answers();
    assert_eq!(
        answers,
        [
            "error message=\"line longer than 262144 bytes\"",
            "error message=\"line is not UTF-8\""
        ]
    );
    engine.send("pos");
    engine.send("set-param name=level value=easy");
    engine.send("go think");
    assert!(engine
        .answers_until("done")
        .pop()
        .unwrap_or_default()
        .starts_with("done move=3"));
    engine.quit();
}

#[test]
fn the_engine_quits_when_its_input_closes() {
    let Engine {
        mut child, stdin, ..
    } = Engine::start();
    drop(stdin);
    let status = child.wait().expect("engine exits");
    assert!(status.success(), "{status}");
}

/// Whole games driven by pydraughts' Hub client (tests/hub/play_games.py).
#[test]
fn pydraughts_plays_whole_games_against_damas() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hub/play_games.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_damas"))
        .args(["--games", "4"])
        .output()
        .unwrap_or_else(|error| {
            panic!("python3 is needed for the pydraughts Hub games (run scripts/setup): {error}")
        });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "pydraughts' games against damas hub failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("4 games,") && stdout.contains("every move legal"),
        "{stdout}"
    );
}
