//! `damas dxp` through the real binary on a loopback port: a raw DamExchange conversation
//! (hand-checked fixed-width messages) and whole games with pydraughts' DXP client.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Bounds a hang of any one answer; measures nothing.
const ANSWER_WAIT: Duration = Duration::from_secs(120);

struct Follower(Child);

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_follower() -> (Follower, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["dxp", "--port", "0", "--level", "hard"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("damas dxp starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("damas dxp says where it listens");
    let port = line
        .trim()
        .strip_prefix("listening on 127.0.0.1:")
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    (Follower(child), port)
}

fn send(stream: &mut TcpStream, message: &str) {
    stream.write_all(message.as_bytes()).expect("send");
    stream.write_all(&[0]).expect("send");
}

fn receive(stream: &mut TcpStream) -> String {
    let mut message = Vec::new();
    let mut byte = [0u8];
    loop {
        stream.read_exact(&mut byte).expect("an answer");
        if byte[0] == 0 {
            return String::from_utf8(message).expect("ASCII");
        }
        message.push(byte[0]);
    }
}

#[test]
fn a_dxp_conversation_over_loopback() {
    let (_follower, port) = start_follower();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.set_read_timeout(Some(ANSWER_WAIT)).unwrap();
    // A request the follower cannot read: refused with code 9, and the connection goes on.
    send(&mut stream, "R01short");
    assert_eq!(receive(&mut stream), format!("A{:<32}9", "Damas"));
    // Damas plays white from the start: it accepts, then moves at once.
    send(&mut stream, &format!("R01{:<32}W000000A", "test initiator"));
    assert_eq!(receive(&mut stream), format!("A{:<32}0", "Damas"));
    let first = receive(&mut stream);
    assert_eq!(first.len(), 11, "{first}");
    let (from, to) = (&first[5..7], &first[7..9]);
    let opening = [
        "3126", "3127", "3227", "3228", "3328", "3329", "3429", "3430", "3530",
    ];
    assert!(opening.contains(&format!("{from}{to}").as_str()), "{first}");
    assert_eq!(&first[9..11], "00", "{first}");
    // An illegal answer (a man cannot go from 1 to 50) ends the game.
    send(&mut stream, "M0000015000");
    assert_eq!(receive(&mut stream), "E00");
    // A set-up position: Damas black, to move, with a forced capture 23x32 taking 28.
    let mut board = vec!['e'; 50];
    board[22] = 'z';
    board[27] = 'w';
    board[44] = 'w';
    board[4] = 'z';
    let board: String = board.into_iter().collect();
    send(
        &mut stream,
        &format!("R01{:<32}Z000000BZ{board}", "test initiator"),
    );
    assert_eq!(receive(&mut stream), format!("A{:<32}0", "Damas"));
    assert_eq!(receive(&mut stream), "M000023320128");
    // The initiator ends the game; the follower confirms.
    send(&mut stream, "E01");
    assert_eq!(receive(&mut stream), "E00");
}

#[test]
fn pydraughts_plays_whole_games_over_dxp() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dxp/play_games.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_damas"))
        .args(["--games", "2"])
        .output()
        .unwrap_or_else(|error| {
            panic!("python3 is needed for the pydraughts DXP games (run scripts/setup): {error}")
        });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "pydraughts' games against damas dxp failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("2 games,"), "{stdout}");
}
