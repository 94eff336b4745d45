//! DamExchange (DXP): the engine-against-engine protocol of International draughts over TCP.
//! Damas is the *follower*: it listens (on loopback only), the *initiator* connects and asks for a
//! game (`GAMEREQ`), and the two exchange moves until one ends the game (`GAMEEND`).
//!
//! Messages are ASCII with fixed-width fields, each ended by a NUL byte, at most 127 characters:
//!
//! | message | layout |
//! | --- | --- |
//! | `GAMEREQ` | `R` version(2) initiator name(32) follower colour(`W`/`Z`) minutes(3) moves(3) `A` (start) or `B` colour to move(`W`/`Z`) board(50: `e` `w` `z` `W` `Z`) |
//! | `GAMEACC` | `A` follower name(32) code(`0` accepted, `1` colour refused, `2` time refused, `3` position refused, `9` other) |
//! | `MOVE` | `M` seconds(4) from(2) to(2) captured count(2) captured squares(2 each) |
//! | `GAMEEND` | `E` reason(`0` unknown, `1` sender loses, `2` draw, `3` sender wins) stop(`0` another game wanted, `1` no more) |
//! | `CHAT` | `C` text |
//! | `BACKREQ` / `BACKACC` | `B` move number(3) colour; `K` code(`0` yes, `1` no, `2` play on) |

mod message;

pub use message::{
    game_accept, game_end, move_message, parse_message, Colour, Message, MessageError, MAX_MESSAGE,
};

use super::hub::notation as hub_notation;
use crate::catalogue;
use crate::position::{GameKind, Variant};
use crate::search::endgame;
use crate::search::levels::{Level, MoveTime};
use crate::search::{Playable, Player, SearchContext};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A connection silent this long is closed (an initiator thinks for minutes at most).
const IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Moves assumed in a game request that gives a time but no move count.
const DEFAULT_MOVES: u32 = 50;

/// The Hub position text of a DXP board (same squares, Hub's letters), for Hub's reader.
fn hub_position(to_move: Colour, board: &str) -> String {
    let side = match to_move {
        Colour::White => 'W',
        Colour::Black => 'B',
    };
    std::iter::once(side)
        .chain(board.chars().map(|c| match c {
            'z' => 'b',
            'Z' => 'B',
            other => other,
        }))
        .collect()
}

/// Who plays for Damas: a level, expert with the time the game request allows (or `movetime`
/// when it gives none).
#[derive(Clone, Copy, Debug)]
pub struct DxpOptions {
    pub level: Level,
    pub movetime: MoveTime,
}

/// Expert's time per move for a game of `minutes` over `moves`, within expert's range.
pub fn expert_time(minutes: u32, moves: u32, default: MoveTime) -> MoveTime {
    if minutes == 0 {
        return default;
    }
    let moves = if moves == 0 { DEFAULT_MOVES } else { moves };
    let ms = u64::from(minutes) * 60_000 / u64::from(moves);
    let ms = ms.clamp(u64::from(MoveTime::MIN_MS), u64::from(MoveTime::MAX_MS));
    MoveTime::from_millis(ms).unwrap_or(default)
}

struct Game {
    record: Box<dyn Playable>,
    colour: Colour,
    player: Player,
    searches: u64,
    /// The game's searches: expert keeps its tables from one move to the next, and reads the
    /// endgame databases of the default directory, as `damas bestmove` does.
    search: SearchContext,
}

impl Game {
    fn to_move(&self) -> Colour {
        // Seat 0 is White in Damas's draughts games.
        if self.record.to_move() == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }
}

/// Reads one NUL-ended message; `None` at the end of the stream. A message over the limit is an
/// error (the connection is then closed: its framing can no longer be trusted).
fn read_message(input: &mut impl BufRead) -> std::io::Result<Option<Result<String, MessageError>>> {
    let mut buffer = Vec::new();
    let read = Read::take(&mut *input, MAX_MESSAGE as u64 + 1).read_until(0, &mut buffer)?;
    if read == 0 {
        return Ok(None);
    }
    if buffer.last() == Some(&0) {
        buffer.pop();
    } else if buffer.len() > MAX_MESSAGE {
        return Ok(Some(Err(MessageError::TooLong)));
    }
    // Some initiators end messages with a line break as well.
    let text = String::from_utf8(buffer).map_err(|_| MessageError::NotAscii);
    Ok(Some(text.map(|text| text.trim().to_string())))
}

fn send(output: &mut impl Write, message: &str) -> std::io::Result<()> {
    output.write_all(message.as_bytes())?;
    output.write_all(&[0])?;
    output.flush()
}

/// Plays Damas's move if it is its turn; a position without a move is a loss, said so.
fn play_if_my_turn(game: &mut Game, output: &mut impl Write) -> std::io::Result<bool> {
    if game.to_move() != game.colour {
        return Ok(true);
    }
    if game.record.legal_moves().is_empty() {
        send(output, &game_end(b'1', b'0'))?;
        return Ok(false);
    }
    // The initiator ends the game: a position Damas's draw rules have ended is still played.
    if game.record.outcome().is_some() {
        let fen = game.record.position_text();
        if let Ok(fresh) = catalogue::new_game(game.record.variant(), Some(&fen)) {
            game.record = fresh;
        }
    }
    game.searches += 1;
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let info = match game
        .record
        .decide(game.player, game.searches, None, &stop, &game.search)
    {
        Some(decision) => decision.info,
        None => match game.record.legal_moves().into_iter().next() {
            Some(info) => info,
            None => return Ok(false),
        },
    };
    if game.record.play(&info.text).is_err() {
        send(output, &game_end(b'0', b'0'))?;
        return Ok(false);
    }
    send(
        output,
        &move_message(&info, started.elapsed().as_secs().min(9_999) as u32),
    )?;
    Ok(true)
}

/// One initiator's connection: games one after another until it closes.
pub fn serve_connection(stream: TcpStream, options: DxpOptions) -> std::io::Result<()> {
    stream.set_read_timeout(Some(IDLE_TIMEOUT))?;
    stream.set_nodelay(true)?;
    let mut output = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    let mut game: Option<Game> = None;
    while let Some(message) = read_message(&mut input)? {
        let message = match message {
            Ok(text) if text.is_empty() => continue,
            Ok(text) => parse_message(&text),
            Err(error) => {
                eprintln!("damas dxp: {error}; closing the connection");
                return Ok(());
            }
        };
        let message = match message {
            Ok(message) => message,
            Err(MessageError::UnknownType(_)) => continue,
            Err(error) => {
                eprintln!("damas dxp: {error}");
                if game.take().is_some() {
                    send(&mut output, &game_end(b'0', b'0'))?;
                } else {
                    send(&mut output, &game_accept('9'))?;
                }
                continue;
            }
        };
        match message {
            Message::GameRequest {
                follower,
                minutes,
                moves,
                position,
                ..
            } => {
                let fen = position
                    .map(|(to_move, board)| {
                        hub_notation::fen_of_position(&hub_position(to_move, &board))
                    })
                    .transpose();
                let variant = Variant::standard(GameKind::International);
                let record = fen
                    .ok()
                    .and_then(|fen| catalogue::new_game(variant, fen.as_deref()).ok());
                let Some(record) = record else {
                    send(&mut output, &game_accept('3'))?;
                    continue;
                };
                let player = match options.level {
                    Level::Expert => Player::Expert(expert_time(minutes, moves, options.movetime)),
                    level => Player::Cpu(level),
                };
                send(&mut output, &game_accept('0'))?;
                let mut new_game = Game {
                    record,
                    colour: follower,
                    player,
                    searches: 0,
                    search: SearchContext::with_endgame(endgame::default_directory()),
                };
                let going = play_if_my_turn(&mut new_game, &mut output)?;
                game = going.then_some(new_game);
            }
            Message::Move {
                from, to, captures, ..
            } => {
                let Some(current) = game.as_mut() else {
                    continue;
                };
                let text = if captures.is_empty() {
                    format!("{from}-{to}")
                } else {
                    std::iter::once(from)
                        .chain(std::iter::once(to))
                        .chain(captures)
                        .map(|square| square.to_string())
                        .collect::<Vec<_>>()
                        .join("x")
                };
                let legal = current.record.legal_moves();
                let played = (current.to_move() != current.colour)
                    .then(|| hub_notation::find_move(&legal, &text).ok())
                    .flatten()
                    .map(|info| info.text.clone())
                    .is_some_and(|damas| current.record.play(&damas).is_ok());
                if !played {
                    eprintln!("damas dxp: illegal move {text}; the game is ended");
                    send(&mut output, &game_end(b'0', b'0'))?;
                    game = None;
                    continue;
                }
                if !play_if_my_turn(current, &mut output)? {
                    game = None;
                }
            }
            Message::GameEnd { reason, .. } => {
                // Confirmed with the same reason, as the initiator expects.
                if game.take().is_some() {
                    let reason = match reason {
                        b'1' => b'3',
                        b'3' => b'1',
                        other => other,
                    };
                    send(&mut output, &game_end(reason, b'0'))?;
                }
            }
            Message::BackRequest => send(&mut output, "K1")?,
            Message::Chat(_) | Message::BackAnswer => {}
        }
    }
    Ok(())
}

/// Serves initiators one at a time on `listener` until the process ends.
pub fn serve(listener: TcpListener, options: DxpOptions) -> std::io::Result<()> {
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                eprintln!("damas dxp: {error}");
                continue;
            }
        };
        match serve_connection(stream, options) {
            // An initiator that closes without waiting for the last answer.
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
                ) => {}
            Err(error) => eprintln!("damas dxp: connection ended: {error}"),
            Ok(()) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_initiators_messages() {
        // A request from the start: follower (Damas) white, 10 minutes for 50 moves.
        let request = format!("R01{:<32}W010050A", "Tornado voor Windows 4.0");
        assert_eq!(
            parse_message(&request),
            Ok(Message::GameRequest {
                initiator: "Tornado voor Windows 4.0".into(),
                follower: Colour::White,
                minutes: 10,
                moves: 50,
                position: None,
            })
        );
        let board = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let request = format!("R01{:<32}Z000000BW{board}", "DXP Client");
        assert_eq!(
            parse_message(&request),
            Ok(Message::GameRequest {
                initiator: "DXP Client".into(),
                follower: Colour::Black,
                minutes: 0,
                moves: 0,
                position: Some((Colour::White, board.clone())),
            })
        );
        // 12 seconds, from 12 to 21 taking one piece, on 17.
        assert_eq!(
            parse_message("M001212210117"),
            Ok(Message::Move {
                seconds: 12,
                from: 12,
                to: 21,
                captures: vec![17]
            })
        );
        assert_eq!(
            parse_message("M0000322800"),
            Ok(Message::Move {
                seconds: 0,
                from: 32,
                to: 28,
                captures: vec![]
            })
        );
        assert_eq!(
            parse_message("E01"),
            Ok(Message::GameEnd {
                reason: b'0',
                stop: b'1'
            })
        );
        assert_eq!(parse_message("Chello"), Ok(Message::Chat("hello".into())));
    }

    #[test]
    fn refuses_malformed_messages() {
        assert_eq!(parse_message(""), Err(MessageError::Empty));
        assert_eq!(parse_message("Q"), Err(MessageError::UnknownType('Q')));
        assert_eq!(
            parse_message("M00003228"),
            Err(MessageError::TooShort {
                kind: "MOVE",
                length: 9
            })
        );
        assert_eq!(
            parse_message("M0000322802"),
            Err(MessageError::TooShort {
                kind: "MOVE",
                length: 11
            })
        );
        assert!(matches!(
            parse_message("M00a0322800"),
            Err(MessageError::Number { field: "time", .. })
        ));
        let request = format!("R01{:<32}X010050A", "x");
        assert_eq!(parse_message(&request), Err(MessageError::Colour('X')));
        let request = format!("R01{:<32}W010050C", "x");
        assert_eq!(
            parse_message(&request),
            Err(MessageError::PositionKind('C'))
        );
        let request = format!("R01{:<32}W010050BWq{}", "x", "e".repeat(49));
        assert_eq!(
            parse_message(&request),
            Err(MessageError::Square {
                square: 1,
                found: 'q'
            })
        );
        assert_eq!(parse_message(&"C".repeat(128)), Err(MessageError::TooLong));
        assert_eq!(parse_message("Cé"), Err(MessageError::NotAscii));
    }

    #[test]
    fn writes_its_messages_in_fixed_fields() {
        assert_eq!(game_accept('0'), format!("A{:<32}0", "Damas"));
        assert_eq!(game_accept('0').len(), 34);
        let game = catalogue::new_game(
            Variant::standard(GameKind::International),
            Some("W:W37:B32,22,31,21,3"),
        )
        .unwrap();
        let circle = game.legal_moves().remove(0);
        assert_eq!(move_message(&circle, 3), "M000337370421223132");
        let start = catalogue::new_game(Variant::standard(GameKind::International), None)
            .unwrap()
            .legal_moves();
        let step = start.iter().find(|info| info.text == "32-28").unwrap();
        assert_eq!(move_message(step, 12_345), "M9999322800");
        assert_eq!(game_end(b'2', b'1'), "E21");
    }

    #[test]
    fn a_dxp_board_is_a_hub_position() {
        let board = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        assert_eq!(
            hub_position(Colour::White, &board),
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
        );
        assert_eq!(&hub_position(Colour::Black, "ZW")[..3], "BBW");
    }

    #[test]
    fn game_time_becomes_expert_time() {
        let default = MoveTime::DEFAULT;
        assert_eq!(expert_time(0, 0, default), default);
        // 2 minutes for 50 moves: 2.4 s a move.
        assert_eq!(expert_time(2, 50, default).millis(), 2400);
        assert_eq!(expert_time(1, 0, default).millis(), 1200);
        assert_eq!(expert_time(90, 50, default).millis(), MoveTime::MAX_MS);
        assert_eq!(expert_time(1, 999, default).millis(), MoveTime::MIN_MS);
    }

    proptest::proptest! {
        /// Any message at all is read or refused with a typed error, never a panic.
        #[test]
        fn any_message_is_read_without_panicking(text in "[RMEBKC][ -~]{0,130}|\\PC{0,40}") {
            let _ = parse_message(&text);
        }
    }
}
