//! Turkish property tests: random legal playouts keep the invariants, our moves agree with the
//! independent `kish` engine on random games and random positions, and garbage text is refused
//! without panicking.

use damas::catalogue::new_game;
use damas::games::turkish::{Turkish, TurkishMove};
use damas::perft::perft;
use damas::{Describe, EndReason, GameKind, Position, Variant};
use proptest::prelude::*;

use crate::common;
use common::DEEP_CASES;
use std::collections::{BTreeMap, BTreeSet};

fn variant() -> Variant {
    Variant::standard(GameKind::Turkish)
}

fn start() -> Turkish {
    Turkish::start(variant()).expect("start position")
}

fn kish_board(position: &Turkish) -> kish::Board {
    kish::Board {
        turn: if position.to_move() == 0 {
            kish::Team::White
        } else {
            kish::Team::Black
        },
        state: kish::State {
            pieces: [position.white(), position.black()],
            kings: position.kings(),
        },
    }
}

/// The boards our moves lead to. A board after a move determines (from, to, captured set), so
/// equal sets of boards mean equal sets of moves.
fn our_successors(position: &Turkish) -> BTreeSet<(u64, u64, u64)> {
    position
        .moves()
        .iter()
        .map(|mv| {
            let next = position.after(mv);
            (next.white(), next.black(), next.kings())
        })
        .collect()
}

fn kish_successors(board: &kish::Board) -> BTreeSet<(u64, u64, u64)> {
    board
        .actions()
        .iter()
        .map(|action| {
            let next = board.apply(action).state;
            (next.pieces[0], next.pieces[1], next.kings)
        })
        .collect()
}

fn path_count(position: &Turkish) -> usize {
    let mut paths = Vec::new();
    position.move_paths(&mut paths);
    paths.len()
}

fn assert_agrees_with_kish(position: &Turkish) {
    let board = kish_board(position);
    assert_eq!(
        our_successors(position),
        kish_successors(&board),
        "moves differ in {}",
        position.to_text()
    );
    assert_eq!(
        path_count(position),
        board.actions().len(),
        "path counts differ in {}",
        position.to_text()
    );
    // Two moves lead to the same board only when two kings each loop back to their own start
    // square taking the same pieces: distinct moves by (from, to, captured set).
    let mut by_board: BTreeMap<(u64, u64, u64), Vec<TurkishMove>> = BTreeMap::new();
    for mv in position.moves() {
        let next = position.after(&mv);
        by_board
            .entry((next.white(), next.black(), next.kings()))
            .or_default()
            .push(mv);
    }
    for same in by_board.values().filter(|moves| moves.len() > 1) {
        assert!(
            same.iter().all(|mv| mv.from() == mv.to()),
            "{}",
            position.to_text()
        );
    }
    assert_eq!(position.count_moves(), position.moves().len() as u64);
}

/// kish's moves with paths to the same board merged: an independent count of unique moves
/// (the same as ours unless two kings can each loop back home taking the same pieces, which
/// never happens within eight plies of the start).
fn kish_unique_perft(board: &kish::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut seen = BTreeSet::new();
    let mut total = 0;
    for action in board.actions() {
        // kish's `apply` leaves the side to move unchanged.
        let next = board.apply(&action).swap_turn();
        if seen.insert(next.state) {
            total += kish_unique_perft(&next, depth - 1);
        }
    }
    total
}

#[test]
fn unique_move_perft_matches_kish_with_duplicate_paths_merged_to_depth_7() {
    let position = start();
    let board = kish_board(&position);
    for depth in [5, 7] {
        assert_eq!(
            perft(&position, depth),
            kish_unique_perft(&board, depth),
            "depth {depth}"
        );
    }
}

#[test]
#[ignore = "deep: unique-move perft(8) against kish with duplicates merged, a few seconds"]
fn unique_move_perft_matches_kish_with_duplicate_paths_merged_depth_8() {
    let position = start();
    assert_eq!(
        perft(&position, 8),
        kish_unique_perft(&kish_board(&position), 8)
    );
}

/// Plays a random game from `position`, choosing moves by `choices`; checks every invariant at
/// every ply and returns the last position and each move text with the position it led to.
fn playout(mut position: Turkish, choices: &[u16]) -> (Turkish, Vec<(String, Turkish)>) {
    let mut played = Vec::new();
    for &choice in choices {
        if position.outcome().is_some() {
            break;
        }
        let moves = position.moves();
        assert!(!moves.is_empty(), "no moves but no outcome");
        let longest = moves.iter().map(|mv| position.move_info(mv).jumps).max();
        let mv: TurkishMove = moves[usize::from(choice) % moves.len()];
        let info = position.move_info(&mv);
        // Longest capture: every legal move takes as many pieces.
        assert_eq!(Some(info.jumps), longest);
        assert_eq!(info.captures.len(), info.jumps as usize);
        assert_eq!(position.parse_move(&info.text), Ok(mv));

        let (own, opp) = if position.to_move() == 0 {
            (position.white(), position.black())
        } else {
            (position.black(), position.white())
        };
        let next = position.after(&mv);
        let (own_after, opp_after) = if position.to_move() == 0 {
            (next.white(), next.black())
        } else {
            (next.black(), next.white())
        };
        let taken = opp & !opp_after;
        // Only opponent pieces are captured, and exactly the ones the move names.
        assert_eq!(own_after.count_ones(), own.count_ones());
        assert_eq!(taken.count_ones() as usize, info.captures.len());
        assert_eq!(opp_after & !opp, 0, "no piece appears");
        assert_eq!(own_after & opp_after, 0);
        // Kings never turn back into men.
        assert_eq!(
            (position.kings() & own & !(1u64 << mv.from())) & !next.kings(),
            0
        );
        // FEN round trip (the counter is not in FEN).
        let reread = Turkish::from_text(variant(), &next.to_text()).expect("own FEN");
        assert_eq!(reread.with_quiet_plies(next.quiet_plies()), next);
        assert_eq!(reread.zobrist(), next.zobrist());
        played.push((info.text, next));
        position = next;
    }
    (position, played)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_keep_invariants_and_replay(choices in prop::collection::vec(any::<u16>(), 1..160)) {
        let (_, played) = playout(start(), &choices);
        let mut game = new_game(variant(), None).unwrap();
        for (text, after) in &played {
            // The record also ends the game on a third repetition, which a lone position
            // cannot see; the replay stops there.
            if let Some(outcome) = game.outcome() {
                prop_assert_eq!(outcome.reason, EndReason::Repetition);
                break;
            }
            game.play(text).unwrap();
            prop_assert_eq!(game.position_text(), after.to_text());
            prop_assert_eq!(game.draw_counters()[0].plies_left, 50 - after.quiet_plies());
        }
    }

    #[test]
    fn moves_agree_with_kish_along_random_games(choices in prop::collection::vec(any::<u16>(), 1..160)) {
        agree_with_kish_along_game(&choices);
    }

    #[test]
    fn moves_agree_with_kish_on_random_positions(
        cells in prop::collection::vec(0u8..24, 64),
        black_to_move in any::<bool>(),
    ) {
        agree_with_kish_from(&cells, black_to_move);
    }

    #[test]
    fn garbage_fen_is_an_error_or_reads_back(text in "[WBKwbk:,a-j0-9 .-]{0,40}|\\PC{0,60}") {
        if let Ok(position) = Turkish::from_text(variant(), &text) {
            let again = Turkish::from_text(variant(), &position.to_text()).unwrap();
            prop_assert_eq!(again, position);
        }
    }

    #[test]
    fn garbage_moves_are_errors_and_leave_the_game_unchanged(text in "[a-j0-9x -]{0,24}|\\PC{0,30}") {
        let mut game = new_game(variant(), Some("W:WKd2,a3:Bd4,f6,h5,c4")).unwrap();
        let before = game.position_text();
        let legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.text).collect();
        match game.play(&text) {
            Ok(info) => prop_assert!(legal.contains(&info.text)),
            Err(_) => prop_assert_eq!(game.position_text(), before),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(DEEP_CASES))]

    #[test]
    #[ignore = "deep: 1000 random games against kish (release)"]
    fn deep_moves_agree_with_kish_along_random_games(choices in prop::collection::vec(any::<u16>(), 1..160)) {
        agree_with_kish_along_game(&choices);
    }

    #[test]
    #[ignore = "deep: 1000 random positions against kish (release)"]
    fn deep_moves_agree_with_kish_on_random_positions(
        cells in prop::collection::vec(0u8..24, 64),
        black_to_move in any::<bool>(),
    ) {
        agree_with_kish_from(&cells, black_to_move);
    }
}

/// Plays a game by `choices` (each picks a move modulo the count), comparing with kish at each ply.
fn agree_with_kish_along_game(choices: &[u16]) {
    let mut position = start();
    for &choice in choices {
        assert_agrees_with_kish(&position);
        let moves = position.moves();
        if moves.is_empty() {
            break;
        }
        position = position.after(&moves[usize::from(choice) % moves.len()]);
    }
}

/// Compares with kish on a random position and after a short playout from it.
fn agree_with_kish_from(cells: &[u8], black_to_move: bool) {
    let position = random_position(cells, black_to_move);
    assert_agrees_with_kish(&position);
    let (end, _) = playout(position, &[0, 7, 3, 11, 5, 2, 9, 1]);
    assert_agrees_with_kish(&end);
}

/// A position from 64 cell codes: 0–2 white man, 3 white king, 4–6 black man, 7 black king,
/// the rest empty; at most 16 pieces a side, and men on their own last row become kings.
fn random_position(cells: &[u8], black_to_move: bool) -> Turkish {
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (sq, &code) in cells.iter().enumerate() {
        let name = format!("{}{}", char::from(b'a' + (sq % 8) as u8), sq / 8 + 1);
        let (list, last_rank) = match code {
            0..=3 => (&mut white, 7),
            4..=7 => (&mut black, 0),
            _ => continue,
        };
        if list.len() == 16 {
            continue;
        }
        let king = code % 4 == 3 || sq / 8 == last_rank;
        list.push(format!("{}{name}", if king { "K" } else { "" }));
    }
    let fen = format!(
        "{}:W{}:B{}",
        if black_to_move { "B" } else { "W" },
        white.join(","),
        black.join(",")
    );
    Turkish::from_text(variant(), &fen).expect("generated FEN is valid")
}
