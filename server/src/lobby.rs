//! Lobby: opening a room, seats, leaving and rematches — the room rules of the seeds:
//! - "Quien crea la sala juega con Rojo": the creator takes the first seat; English checkers
//!   draws the colours at random ("los colores se sortean y se intercambian en cada revancha").
//! - A friend who opens the link and presses "Unirse" takes a free seat; the game starts when
//!   every seat is taken (Turkish: "la partida empieza cuando se sienta"), or at once with
//!   "Empezar con la CPU en los puestos libres" (the CPU, medium, takes the free seats).
//! - 3 players: "Salir (la CPU juega en tu lugar)"; 2 players: leaving a game in play resigns it.
//! - "Otra partida con los mismos jugadores": everyone moves one seat on (2 players swap sides),
//!   the first seat starts.
//! - Codes carry 100 bits of OS randomness (Crockford's base32); a seat's token 256 bits, stored only as a SHA-256.

use crate::clocks;
use crate::error::RoomError;
use crate::play::{self, Game};
use crate::store::{
    ClockSettings, GameChoice, RoomCode, RoomRecord, SeatKind, SeatRecord, CODE_ALPHABET,
    RECORD_FORMAT,
};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::rngs::OsRng;
use rand::{Rng, RngCore};
use sha2::{Digest, Sha256};

/// Longest nickname, in characters (after cleaning).
pub const MAX_NICKNAME: usize = 24;

/// A fresh room code: 100 random bits from the OS in Crockford's base32 (20 characters).
pub fn new_code() -> RoomCode {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    let mut bits = u128::from_le_bytes(bytes);
    let mut text = String::with_capacity(RoomCode::LEN);
    for _ in 0..RoomCode::LEN {
        text.push(char::from(CODE_ALPHABET[(bits & 31) as usize]));
        bits >>= 5;
    }
    RoomCode::from_canonical(text).expect("20 characters of the code alphabet")
}

/// A fresh seat token (32 random bytes, base64url) and the hash the room keeps of it.
pub fn new_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let hash = hash_token(&token);
    (token, hash)
}

/// Hex SHA-256 of a token.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A nickname as shown to others: control and format characters dropped, runs of white space
/// made one space, trimmed; 1 to 24 characters.
pub fn clean_nickname(raw: &str) -> Result<String, RoomError> {
    let mut cleaned = String::new();
    let mut space = false;
    for c in raw.chars() {
        if c.is_whitespace() {
            space = !cleaned.is_empty();
            continue;
        }
        if c.is_control() || is_invisible(c) {
            continue;
        }
        if space {
            cleaned.push(' ');
            space = false;
        }
        cleaned.push(c);
    }
    match cleaned.chars().count() {
        0 => Err(RoomError::BadNickname("the nickname is empty".into())),
        n if n > MAX_NICKNAME => Err(RoomError::BadNickname(format!(
            "the nickname has {n} characters (at most {MAX_NICKNAME})"
        ))),
        _ => Ok(cleaned),
    }
}

/// Zero-width and direction-changing characters, which could disguise a name.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A new room for `game`, its creator seated.
pub fn new_room(
    code: RoomCode,
    game: GameChoice,
    clock: Option<ClockSettings>,
    nickname: String,
    token_hash: String,
    now: u64,
) -> Result<(RoomRecord, u8), RoomError> {
    play::check_game(&game)?;
    let seats = usize::from(game.players);
    let creator = if game.kind == "english" {
        rand::thread_rng().gen_range(0..2u8)
    } else {
        0
    };
    let mut record = RoomRecord {
        format: RECORD_FORMAT,
        code,
        clocks: clocks::fresh(clock, seats),
        clock,
        seats: vec![SeatRecord::empty(); seats],
        game,
        started: false,
        moves: Vec::new(),
        turn_started_at: None,
        resigned: None,
        result: None,
        rematch: 0,
        seed: rand::thread_rng().gen(),
        created_at: now,
        emptied_at: None,
    };
    record.seats[usize::from(creator)] = human(nickname, token_hash);
    Ok((record, creator))
}

fn human(nickname: String, token_hash: String) -> SeatRecord {
    SeatRecord {
        kind: SeatKind::Human,
        nickname: Some(nickname),
        token_hash: Some(token_hash),
        left: false,
        away_since: None,
    }
}

/// The seat whose token hashes to `token_hash` (a player who left has no token any more).
pub fn seat_of(record: &RoomRecord, token_hash: &str) -> Option<u8> {
    record
        .seats
        .iter()
        .position(|s| s.token_hash.as_deref() == Some(token_hash))
        .map(|i| i as u8)
}

/// Seats a friend in the first free seat; starts the game when that filled the room.
pub fn join(
    record: &mut RoomRecord,
    nickname: String,
    token_hash: String,
    now: u64,
) -> Result<u8, RoomError> {
    let free = record
        .seats
        .iter()
        .position(|s| s.kind == SeatKind::Empty)
        .ok_or(RoomError::RoomFull)?;
    record.seats[free] = human(nickname, token_hash);
    if record.seats.iter().all(|s| s.kind != SeatKind::Empty) {
        start(record, now);
    }
    Ok(free as u8)
}

/// A player back with their token: the seat is theirs again at once.
pub fn resume(record: &mut RoomRecord, token_hash: &str) -> Result<u8, RoomError> {
    let seat = seat_of(record, token_hash).ok_or(RoomError::BadToken)?;
    record.seats[usize::from(seat)].away_since = None;
    Ok(seat)
}

fn start(record: &mut RoomRecord, now: u64) {
    record.started = true;
    record.clocks = clocks::fresh(record.clock, record.seats.len());
    record.turn_started_at = record.clock.map(|_| now);
}

/// "Start with the CPU in the free seats".
pub fn start_with_cpu(record: &mut RoomRecord, now: u64) -> Result<(), RoomError> {
    if record.started {
        return Err(RoomError::AlreadyStarted);
    }
    for seat in &mut record.seats {
        if seat.kind == SeatKind::Empty {
            seat.kind = SeatKind::Cpu;
        }
    }
    start(record, now);
    Ok(())
}

/// `seat` leaves: before the start the seat is freed; in a 2-player game in play the player
/// resigns; otherwise the CPU plays the seat from now on. The token stops working.
pub fn leave(record: &mut RoomRecord, game: &mut Option<Game>, seat: u8) -> Result<(), RoomError> {
    let index = usize::from(seat);
    if !record.started {
        record.seats[index] = SeatRecord::empty();
        return Ok(());
    }
    let in_play = record.result.is_none() && !game.as_ref().is_some_and(Game::is_over);
    if in_play && record.seats.len() == 2 {
        play::resign(record, game, seat)?;
    }
    let left = &mut record.seats[index];
    left.left = true;
    left.token_hash = None;
    left.away_since = None;
    Ok(())
}

/// The next game with the same people, each one seat on; seat 0 starts.
pub fn rematch(record: &mut RoomRecord, game: &Option<Game>, now: u64) -> Result<(), RoomError> {
    let over = record.result.is_some() || game.as_ref().is_some_and(Game::is_over);
    if !record.started || !over {
        return Err(RoomError::GameNotOver);
    }
    record.seats.rotate_right(1);
    record.moves.clear();
    record.resigned = None;
    record.result = None;
    record.rematch += 1;
    record.seed = rand::thread_rng().gen();
    start(record, now);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nicknames_are_cleaned_and_bounded() {
        assert_eq!(clean_nickname("  Ana \t María\n").unwrap(), "Ana María");
        assert_eq!(clean_nickname("Bo\u{200B}b\u{7}").unwrap(), "Bob");
        assert_eq!(clean_nickname(&"ñ".repeat(24)).unwrap().chars().count(), 24);
        assert_eq!(
            clean_nickname(&"ñ".repeat(25)).unwrap_err().code(),
            "bad_nickname"
        );
        assert_eq!(
            clean_nickname(" \u{202E} ").unwrap_err().code(),
            "bad_nickname"
        );
    }

    #[test]
    fn codes_and_tokens() {
        let a = new_code();
        let b = new_code();
        assert_eq!(a.as_str().len(), 20);
        assert!(a.as_str().bytes().all(|c| CODE_ALPHABET.contains(&c)));
        assert_ne!(a, b);
        assert_eq!(RoomCode::parse(a.as_str()), Some(a.clone()));
        // As shown, and as typed back from it in lower case.
        assert_eq!(a.grouped().len(), 23);
        assert_eq!(RoomCode::parse(&a.grouped().to_lowercase()), Some(a));
        let (token, hash) = new_token();
        assert_eq!(token.len(), 43);
        assert_eq!(hash, hash_token(&token));
        assert_eq!(hash.len(), 64);
        assert!(!hash.contains(&token));
    }

    #[test]
    fn typed_codes_are_normalised() {
        let code = RoomCode::parse("K7Q2M9XRTDABCDEFGH1J").expect("a code");
        assert_eq!(code.grouped(), "K7Q2M-9XRTD-ABCDE-FGH1J");
        for typed in [
            "k7q2m-9xrtd-abcde-fgh1j",
            " K7Q2M 9XRTD ABCDE FGH1J ",
            "k7q2m9xrtdabcdefghij",
            "K7Q2M–9XRTD–ABCDE–FGHlJ",
        ] {
            assert_eq!(RoomCode::parse(typed), Some(code.clone()), "{typed}");
        }
        assert_eq!(
            RoomCode::parse("K0Q2M9XRTDABCDEFGH1J"),
            RoomCode::parse("KoQ2M9XRTDABCDEFGH1J")
        );
        for bad in [
            "",
            "K7Q2M9XRTDABCDEFGH1",
            "K7Q2M9XRTDABCDEFGH1JK",
            "K7Q2M9XRTDABCDEFGH1U",
            "K7Q2M9XRTDABCDEFGH1_",
            "K7Q2M9XRTDABCDEFGH1Ñ",
        ] {
            assert_eq!(RoomCode::parse(bad), None, "{bad}");
        }
        // A code of the former format is kept as it is (case and all).
        let legacy = RoomCode::parse("x8Jd0-qL2mZ_a9Qe").expect("a former code");
        assert_eq!(legacy.as_str(), "x8Jd0-qL2mZ_a9Qe");
        assert_eq!(legacy.grouped(), "x8Jd0-qL2mZ_a9Qe");
    }
}
