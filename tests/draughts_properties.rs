//! Property tests for English and International draughts: random legal playouts keep the rules'
//! invariants, positions and games round-trip through FEN and PDN, and garbage fed to the parsers
//! gives errors, never panics.

use damas::games::english::English;
use damas::games::international::International;
use damas::notation::pdn;
use damas::{AnyGame, Describe, GameKind, Position, Record, Variant};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Pieces of each seat, from the public piece list.
fn counts<P: Describe>(position: &P) -> [(u32, u32); 2] {
    let mut out = [(0, 0); 2];
    for piece in position.pieces() {
        let seat = usize::from(piece.seat.unwrap_or(0));
        out[seat].0 += 1;
        out[seat].1 += u32::from(piece.king);
    }
    out
}

/// Plays up to `plies` random legal moves, checking every invariant on the way; returns the record.
fn playout<P: Describe>(start: P, seed: u64, plies: usize) -> Record<P> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut record = Record::new(start);
    for _ in 0..plies {
        if record.outcome().is_some() {
            break;
        }
        let position = record.position().clone();
        let moves = position.moves();
        assert_eq!(position.count_moves(), moves.len() as u64);
        // FEN round trip: same text, same hash, same moves.
        let reread = P::from_text(position.variant(), &position.to_text()).unwrap();
        assert_eq!(reread.to_text(), position.to_text());
        assert_eq!(
            reread.zobrist(),
            position.zobrist(),
            "incremental hash drifted"
        );
        assert_eq!(reread.moves(), moves);
        // Every move's text reads back as that move; moves are distinct.
        for (i, mv) in moves.iter().enumerate() {
            let info = position.move_info(mv);
            assert_eq!(
                position.parse_move(&info.text).as_ref(),
                Ok(mv),
                "{}",
                info.text
            );
            assert!(!moves[..i].contains(mv));
            assert_eq!(info.captures.len() as u32, info.jumps);
            let sorted = {
                let mut numbers: Vec<u32> =
                    info.captures.iter().map(|c| c.parse().unwrap()).collect();
                numbers.sort_unstable();
                numbers
            };
            let listed: Vec<u32> = info.captures.iter().map(|c| c.parse().unwrap()).collect();
            assert_eq!(listed, sorted, "captures sorted ascending");
        }
        let captures: Vec<u32> = moves
            .iter()
            .map(|mv| position.move_info(mv).jumps)
            .collect();
        if position.variant().kind == GameKind::International {
            assert!(captures.windows(2).all(|w| w[0] == w[1]), "majority rule");
        }
        let mv = moves[rng.gen_range(0..moves.len())].clone();
        let info = position.move_info(&mv);
        let me = usize::from(position.to_move());
        let before = counts(&position);
        // Only opponent pieces are captured.
        for square in &info.captures {
            let piece = position
                .pieces()
                .into_iter()
                .find(|p| &p.cell == square)
                .unwrap();
            assert_eq!(piece.seat, Some(1 - me as u8));
        }
        record.play(mv).unwrap();
        let after = counts(record.position());
        assert_eq!(after[me].0, before[me].0, "the mover keeps its pieces");
        assert!(after[me].1 >= before[me].1, "the mover's kings never fall");
        assert_eq!(after[1 - me].0 + info.jumps, before[1 - me].0);
    }
    record
}

/// The PDN of a record reads back to the same game, and replaying its moves rebuilds the position.
fn round_trip<P: Describe>(record: &Record<P>) {
    let text = pdn::write(record, &[]);
    let read = pdn::read(&text, None, damas::catalogue::new_game)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.game.position_text(), record.position().to_text());
    assert_eq!(read.game.history(), AnyGame::history(record));
    let (_, typed) = pdn::read_record::<P>(record.position().variant(), &text).unwrap();
    assert_eq!(typed.position().to_text(), record.position().to_text());
    assert_eq!(typed.position().zobrist(), record.position().zobrist());
    let mut replay = Record::new(record.start().clone());
    for info in AnyGame::history(record) {
        replay.play_text(&info.text).unwrap();
    }
    assert_eq!(replay.position().to_text(), record.position().to_text());
    assert_eq!(
        replay.position().draw_counters(),
        record.position().draw_counters()
    );
}

/// A FEN from one code per square: 0–5 empty, 6 white man, 7 white king, 8 black man, 9 black
/// king. Men on the row where they would be crowned become kings.
fn random_fen(codes: &[u8], squares: u32, white_to_move: bool, white_crowns_low: bool) -> String {
    let row = |square: u32| (square - 1) / (squares / if squares == 32 { 8 } else { 10 });
    let last_row = if squares == 32 { 7 } else { 9 };
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (index, &code) in codes.iter().enumerate().take(squares as usize) {
        let square = index as u32 + 1;
        let white_crown = if white_crowns_low { 0 } else { last_row };
        let black_crown = last_row - white_crown;
        match code {
            6 | 7 => white.push(format!(
                "{}{square}",
                if code == 7 || row(square) == white_crown {
                    "K"
                } else {
                    ""
                }
            )),
            8 | 9 => black.push(format!(
                "{}{square}",
                if code == 9 || row(square) == black_crown {
                    "K"
                } else {
                    ""
                }
            )),
            _ => {}
        }
    }
    format!(
        "{}:W{}:B{}",
        if white_to_move { "W" } else { "B" },
        white.join(","),
        black.join(",")
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn english_playouts_keep_invariants(seed in any::<u64>()) {
        let start = English::start(Variant::standard(GameKind::English)).unwrap();
        round_trip(&playout(start, seed, 160));
    }

    #[test]
    fn international_playouts_keep_invariants(seed in any::<u64>()) {
        let start = International::start(Variant::standard(GameKind::International)).unwrap();
        round_trip(&playout(start, seed, 160));
    }

    #[test]
    fn playouts_from_king_positions_keep_invariants(seed in any::<u64>()) {
        let english = English::from_text(
            Variant::standard(GameKind::English),
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        ).unwrap();
        round_trip(&playout(english, seed, 80));
        let international = International::from_text(
            Variant::standard(GameKind::International),
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        ).unwrap();
        round_trip(&playout(international, seed, 80));
    }

    #[test]
    fn random_positions_keep_invariants(
        codes in proptest::collection::vec(0u8..10, 50),
        white in any::<bool>(),
        seed in any::<u64>(),
    ) {
        // English: White crowns on the low row (1–4); International: White crowns on 1–5 too.
        let english = English::from_text(
            Variant::standard(GameKind::English),
            &random_fen(&codes, 32, white, true),
        ).unwrap();
        round_trip(&playout(english, seed, 40));
        let international = International::from_text(
            Variant::standard(GameKind::International),
            &random_fen(&codes, 50, white, true),
        ).unwrap();
        round_trip(&playout(international, seed, 40));
    }

    #[test]
    fn garbage_fen_is_an_error_or_reads_back(text in "[WBKwbk0-9:,.\\- x\"\\[\\]]{0,40}|\\PC{0,40}") {
        for kind in [GameKind::English, GameKind::International] {
            if let Ok(game) = damas::catalogue::new_game(Variant::standard(kind), Some(&text)) {
                // Whatever was accepted must write a FEN that reads back the same.
                let again = damas::catalogue::new_game(Variant::standard(kind), Some(&game.position_text()));
                prop_assert_eq!(again.map(|g| g.position_text()).ok(), Some(game.position_text()));
            }
        }
    }

    #[test]
    fn garbage_moves_are_errors_or_legal(text in "[0-9x\\-X ]{0,16}|\\PC{0,16}") {
        let english = English::start(Variant::standard(GameKind::English)).unwrap();
        let international = International::start(Variant::standard(GameKind::International)).unwrap();
        if let Ok(mv) = english.parse_move(&text) {
            prop_assert!(english.moves().contains(&mv));
        }
        if let Ok(mv) = international.parse_move(&text) {
            prop_assert!(international.moves().contains(&mv));
        }
    }

    #[test]
    fn garbage_pdn_is_an_error_or_reads_back(
        text in "[\\[\\]\"a-zA-Z0-9 .\\-x*/{}();$!?\n]{0,80}|\\PC{0,80}"
    ) {
        for default in [None, Some(GameKind::International)] {
            if let Ok(read) = pdn::read(&text, default, damas::catalogue::new_game) {
                // Whatever was accepted writes a PDN that reads back as the same game.
                let written = pdn::write(&*read.game, &[]);
                let again = pdn::read(&written, default, damas::catalogue::new_game).unwrap_or_else(|e| panic!("{e}\n{written}"));
                prop_assert_eq!(again.game.variant(), read.game.variant());
                prop_assert_eq!(again.game.start_text(), read.game.start_text());
                prop_assert_eq!(again.game.position_text(), read.game.position_text());
                prop_assert_eq!(again.game.history(), read.game.history());
            }
        }
    }
}
