//! The book's file format (round trip, every refusal), its use by expert alone, and the
//! committed books: each one valid, small, and every stored move legal in its position.

use super::*;
use crate::games::english::English;
use crate::games::international::International;
use crate::games::turkish::Turkish;
use crate::position::{Seat, Variant};
use crate::record::Record;
use crate::search::levels::{self, Level, MoveTime, Player};
use crate::search::limits::Limits;
use crate::search::searchable::Searchable;
use crate::search::{Params, Playable, PlayerConfig, SearchContext};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

fn entry(key: u64, text: &str, score: i32) -> BookEntry {
    BookEntry {
        key,
        text: text.to_string(),
        score,
    }
}

fn sample() -> Vec<BookEntry> {
    vec![
        entry(900, "22-18", -4),
        entry(5, "11-15", 12),
        entry(u64::MAX, "9x18x27", 70_000),
        entry(300, "c3-c4", -70_000),
    ]
}

/// The file's checksum over everything before it, recomputed after a test edits the bytes, so
/// that the check under test is the one that refuses them.
fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 8;
    let checksum = format_checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&checksum.to_le_bytes());
}

fn format_checksum(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[test]
fn a_book_reads_back_what_was_written_in_key_order() {
    let bytes = encode(GameKind::English, 6, 17, &sample()).expect("encodes");
    let book = Book::decode(bytes, GameKind::English).expect("decodes");
    assert_eq!(
        (book.kind(), book.plies(), book.depth()),
        (GameKind::English, 6, 17)
    );
    assert_eq!(book.len(), 4);
    let mut expected = sample();
    expected.sort_by_key(|entry| entry.key);
    // Scores are stored as i16: the extremes are clamped.
    expected[1].score = i32::from(i16::MIN);
    expected[3].score = i32::from(i16::MAX);
    assert_eq!(book.entries().collect::<Vec<_>>(), expected);
    for entry in sample() {
        assert_eq!(book.lookup(entry.key), Some(entry.text.as_str()));
    }
    for absent in [0, 4, 6, 301, 901, u64::MAX - 1] {
        assert_eq!(book.lookup(absent), None, "{absent}");
    }
    let empty = encode(GameKind::Turkish, 4, 0, &[]).expect("encodes");
    let empty = Book::decode(empty, GameKind::Turkish).expect("an empty book is valid");
    assert!(empty.is_empty());
    assert_eq!(empty.lookup(0), None);
}

#[test]
fn a_book_that_cannot_be_written_is_an_error() {
    let twice = [entry(7, "11-15", 0), entry(7, "9-13", 0)];
    assert_eq!(
        encode(GameKind::English, 2, 4, &twice),
        Err(BookError::Unsorted(1))
    );
    assert!(matches!(
        encode(GameKind::Diamond, 2, 4, &[]),
        Err(BookError::Game { .. })
    ));
    assert_eq!(
        encode(GameKind::English, 2, 4, &[entry(1, "", 0)]),
        Err(BookError::MoveText(0))
    );
    assert_eq!(
        encode(GameKind::English, 2, 4, &[entry(1, "11–15", 0)]),
        Err(BookError::MoveText(0)),
        "not ASCII"
    );
}

#[test]
fn damaged_books_are_refused_with_their_reason() {
    let good = encode(GameKind::English, 6, 17, &sample()).expect("encodes");
    let decode = |bytes: Vec<u8>| Book::decode(bytes, GameKind::English).map(|_| ());
    assert_eq!(decode(Vec::new()), Err(BookError::TooShort));
    for cut in [1, 23, 31, good.len() - 1] {
        let error = decode(good[..cut].to_vec()).expect_err("truncated");
        assert!(
            matches!(error, BookError::TooShort | BookError::Length),
            "{cut}: {error:?}"
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(decode(longer), Err(BookError::Length));

    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(decode(magic), Err(BookError::Magic));
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(decode(version), Err(BookError::Version(9)));
    let mut game = good.clone();
    game[10] = 7;
    assert_eq!(decode(game), Err(BookError::UnknownGame(7)));
    assert_eq!(
        Book::decode(good.clone(), GameKind::Turkish).map(|_| ()),
        Err(BookError::Game {
            found: "english",
            expected: "turkish"
        })
    );

    // A flipped bit anywhere before the checksum, or in it.
    for at in [12, 30, good.len() - 12, good.len() - 1] {
        let mut flipped = good.clone();
        flipped[at] ^= 0x10;
        assert_eq!(decode(flipped), Err(BookError::Checksum), "byte {at}");
    }

    // Sealed again after the edit: the structural checks refuse it.
    let mut unsorted = good.clone();
    let (first, second) = (24..32, 40..48);
    let key = unsorted[first.clone()].to_vec();
    unsorted.copy_within(second.clone(), first.start);
    unsorted[second].copy_from_slice(&key);
    reseal(&mut unsorted);
    assert_eq!(decode(unsorted), Err(BookError::Unsorted(1)));

    let mut outside = good.clone();
    outside[24 + 8..24 + 12].copy_from_slice(&10_000u32.to_le_bytes());
    reseal(&mut outside);
    assert_eq!(decode(outside), Err(BookError::MoveText(0)));

    let mut not_ascii = good.clone();
    let texts = 24 + 16 * 4;
    not_ascii[texts] = 0xC3;
    reseal(&mut not_ascii);
    assert_eq!(decode(not_ascii), Err(BookError::MoveText(0)));
}

#[test]
fn a_refused_file_leaves_its_game_without_a_book() {
    let good = encode(GameKind::English, 6, 17, &sample()).expect("encodes");
    let mut bad = good.clone();
    bad[0] = b'X';
    let books = OpeningBooks::none()
        .with_file(GameKind::English, bad)
        .with_file(GameKind::Turkish, good.clone());
    assert!(books.get(GameKind::English).is_none());
    assert_eq!(books.error(GameKind::English), Some(&BookError::Magic));
    assert!(
        books.get(GameKind::Turkish).is_none(),
        "an English file is no Turkish book"
    );
    assert!(books.get(GameKind::International).is_none());
    assert_eq!(
        books.error(GameKind::International),
        Some(&BookError::Absent)
    );
    assert!(books.get(GameKind::Diamond).is_none());
    let books = books.with_file(GameKind::English, good);
    assert_eq!(books.get(GameKind::English).map(Book::len), Some(4));
}

/// A context whose English book answers `text` at the start (scored 37).
fn context_with_start_move(text: &str) -> SearchContext {
    let start = English::start(Variant::standard(GameKind::English)).expect("a start");
    let file =
        encode(GameKind::English, 1, 1, &[entry(start.zobrist(), text, 37)]).expect("encodes");
    SearchContext::new().with_books(OpeningBooks::none().with_file(GameKind::English, file))
}

/// Hard's configuration searching 3 plies (quick in a debug build), with or without the book.
fn shallow(level: Level, book: bool) -> PlayerConfig {
    let config = levels::config(Variant::standard(GameKind::English), Player::Cpu(level));
    PlayerConfig {
        params: Params {
            limits: Limits::depth(3),
            book,
            ..config.params
        },
        ..config
    }
}

fn english_start() -> Record<English> {
    Record::new(English::start(Variant::standard(GameKind::English)).expect("a start"))
}

#[test]
fn a_player_with_the_book_plays_its_move_at_once_and_one_without_searches() {
    let stop = AtomicBool::new(false);
    let game = english_start();
    // 12-16 is legal but not what a search of the start prefers (11-15 or 9-14).
    let context = context_with_start_move("12-16");
    let booked = game
        .decide_as(&shallow(Level::Hard, true), 1, None, &stop, &context)
        .expect("a move");
    assert!(booked.book);
    assert_eq!(
        (
            booked.info.text.as_str(),
            booked.depth,
            booked.nodes,
            booked.score
        ),
        ("12-16", 0, 0, 37)
    );
    let searched = game
        .decide_as(&shallow(Level::Hard, false), 1, None, &stop, &context)
        .expect("a move");
    assert!(!searched.book);
    assert!(searched.nodes > 0 && searched.depth == 3, "{searched:?}");
    // Out of the book (after one move), the player searches.
    let mut later = english_start();
    later.play_text("12-16").expect("legal");
    let out_of_book = later
        .decide_as(&shallow(Level::Hard, true), 1, None, &stop, &context)
        .expect("a move");
    assert!(!out_of_book.book && out_of_book.nodes > 0);
}

#[test]
fn a_stored_move_that_is_not_legal_is_ignored() {
    let stop = AtomicBool::new(false);
    let game = english_start();
    // White's move with Black to move; a square off the board; a man moving backwards; no move.
    for text in ["22-18", "1-40", "15-11", "x"] {
        let context = context_with_start_move(text);
        assert_eq!(book_move(game.position(), context.books()), None, "{text}");
        let decision = game
            .decide_as(&shallow(Level::Hard, true), 1, None, &stop, &context)
            .expect("a move");
        assert!(!decision.book && decision.nodes > 0, "{text}: {decision:?}");
    }
}

#[test]
fn expert_alone_plays_the_book() {
    for kind in GameKind::ALL {
        let variant = Variant::standard(kind);
        let expert = levels::config(variant, Player::Expert(MoveTime::DEFAULT));
        assert_eq!(expert.params.book, kind.is_draughts(), "{kind:?}");
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            let params = levels::config(variant, Player::Cpu(level)).params;
            assert!(!params.book, "{kind:?} {level:?}");
        }
    }
}

#[test]
fn hard_searches_the_start_even_where_the_book_has_a_move() {
    let stop = AtomicBool::new(false);
    let game = english_start();
    let context = context_with_start_move("12-16");
    let hard = levels::config(
        Variant::standard(GameKind::English),
        Player::Cpu(Level::Hard),
    );
    let decision = game
        .decide_as(
            &PlayerConfig {
                params: Params {
                    limits: Limits {
                        max_nodes: 20_000,
                        ..hard.params.limits
                    },
                    ..hard.params
                },
                ..hard
            },
            1,
            None,
            &stop,
            &context,
        )
        .expect("a move");
    assert!(!decision.book && decision.nodes > 0, "{decision:?}");
}

/// Walks a committed book the way the lab made it: for each seat the book plays, its move where
/// that seat is to move with a choice (which must be in the book and legal), every move of the
/// other seat. Returns the keys met where the book answered.
fn walk_book<P: Searchable + Describe>(kind: GameKind, book: &Book) -> HashSet<u64> {
    let mut found = HashSet::new();
    let mut expanded = HashSet::new();
    let mut record = Record::new(P::start(Variant::standard(kind)).expect("a start"));
    for seat in 0..2 {
        walk(
            &mut record,
            book,
            seat,
            book.plies(),
            &mut found,
            &mut expanded,
        );
    }
    found
}

fn walk<P: Searchable + Describe>(
    record: &mut Record<P>,
    book: &Book,
    book_seat: Seat,
    plies_left: u32,
    found: &mut HashSet<u64>,
    expanded: &mut HashSet<(u64, Seat, u32)>,
) {
    if plies_left == 0 || record.outcome().is_some() {
        return;
    }
    let position = record.position().clone();
    let key = position.zobrist();
    if !expanded.insert((key, book_seat, plies_left)) {
        return;
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if position.to_move() == book_seat && moves.len() > 1 {
        let text = book
            .lookup(key)
            .unwrap_or_else(|| panic!("{}: not in the book", position.to_text()));
        let mv = position
            .parse_move(text)
            .unwrap_or_else(|error| panic!("{}: {text}: {error}", position.to_text()));
        assert!(
            moves.contains(&mv),
            "{}: {text} is not legal",
            position.to_text()
        );
        found.insert(key);
        moves = vec![mv];
    }
    for mv in moves {
        record.play(mv).expect("a legal move");
        walk(record, book, book_seat, plies_left - 1, found, expanded);
        record.undo();
    }
}

fn check_committed<P: Searchable + Describe>(kind: GameKind) {
    let books = OpeningBooks::embedded();
    let book = books
        .get(kind)
        .unwrap_or_else(|| panic!("{kind:?}: {:?}", books.error(kind)));
    let bytes = match kind {
        GameKind::English => ENGLISH.len(),
        GameKind::International => INTERNATIONAL.len(),
        _ => TURKISH.len(),
    };
    assert!(bytes <= 1 << 20, "{kind:?}: {bytes} bytes");
    assert!(book.len() > 1 && book.plies() >= 2, "{kind:?}");
    assert!(book.depth() > 0, "{kind:?}: made by depth-limited searches");
    let start = P::start(Variant::standard(kind)).expect("a start");
    assert!(
        book.lookup(start.zobrist()).is_some(),
        "{kind:?}: the start"
    );
    let found = walk_book::<P>(kind, book);
    let stored: HashSet<u64> = book.entries().map(|entry| entry.key).collect();
    assert_eq!(
        found, stored,
        "{kind:?}: every entry met on the book's lines"
    );
}

#[test]
fn the_committed_english_book_holds_legal_moves_on_its_lines() {
    check_committed::<English>(GameKind::English);
}

#[test]
fn the_committed_international_book_holds_legal_moves_on_its_lines() {
    check_committed::<International>(GameKind::International);
}

#[test]
fn the_committed_turkish_book_holds_legal_moves_on_its_lines() {
    check_committed::<Turkish>(GameKind::Turkish);
}

#[test]
fn expert_plays_the_committed_book_at_the_start_and_searches_without_it() {
    let stop = AtomicBool::new(false);
    let game = english_start();
    let expert = levels::config(
        Variant::standard(GameKind::English),
        Player::Expert(MoveTime::DEFAULT),
    );
    let context = SearchContext::new();
    let booked = game
        .decide_as(&expert, 1, None, &stop, &context)
        .expect("a move");
    let stored = context
        .books()
        .get(GameKind::English)
        .and_then(|book| book.lookup(game.position().zobrist()))
        .expect("the start is in the book");
    assert!(booked.book);
    assert_eq!((booked.info.text.as_str(), booked.nodes), (stored, 0));
    let quick = PlayerConfig {
        params: Params {
            limits: Limits::depth(3),
            ..expert.params
        },
        ..expert
    };
    let without = SearchContext::new().with_books(OpeningBooks::none());
    let searched = game
        .decide_as(&quick, 1, None, &stop, &without)
        .expect("a move");
    assert!(!searched.book && searched.nodes > 0, "{searched:?}");
}
