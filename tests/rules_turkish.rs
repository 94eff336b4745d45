//! Turkish draughts, one test per rule sentence of the seed, on hand-built positions.
//! Section numbers (§T…) refer to docs/rules.md, "Turkish draughts".

use crate::common;

use damas::catalogue::new_game;
use damas::games::turkish::Turkish;
use damas::perft::perft;
use damas::{Describe, EndReason, GameKind, MoveError, Outcome, Position, SetupError, Variant};

fn variant() -> Variant {
    Variant::standard(GameKind::Turkish)
}

fn pos(fen: &str) -> Turkish {
    Turkish::from_text(variant(), fen).expect("valid FEN")
}

/// The legal moves' texts, sorted.
fn moves(position: &Turkish) -> Vec<String> {
    common::move_texts(position)
}

fn play(position: &Turkish, text: &str) -> Turkish {
    let mv = position.parse_move(text).expect("legal move");
    position.after(&mv)
}

// §T1
#[test]
fn t1_start_has_sixteen_men_each_on_rows_2_3_and_6_7_white_first() {
    let start = Turkish::start(variant()).unwrap();
    assert_eq!(
        start.to_text(),
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3\
         :Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
    assert_eq!(start.to_move(), 0);
    // Only the eight row-3 men can move, each one square forward.
    assert_eq!(
        moves(&start),
        ["a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"]
    );
}

// §T2
#[test]
fn t2_men_step_forward_or_sideways_never_back_or_diagonal() {
    assert_eq!(moves(&pos("W:Wd4:Ba8")), ["d4-c4", "d4-d5", "d4-e4"]);
    // Black moves down the board.
    assert_eq!(moves(&pos("B:Wa1:Bd5")), ["d5-c5", "d5-d4", "d5-e5"]);
    // On the edge only the steps that stay on the board.
    assert_eq!(moves(&pos("W:Wa4:Bh8")), ["a4-a5", "a4-b4"]);
}

// §T3
#[test]
fn t3_men_capture_forward_and_sideways_not_backward_or_diagonally() {
    // Enemies in front, beside, behind (d3) and diagonal (e5): only the first three are taken.
    let position = pos("W:Wd4:Bc4,d3,d5,e4,e5");
    assert_eq!(moves(&position), ["d4xb4", "d4xd6", "d4xf4"]);
    // No empty square right behind: no capture.
    let covered = pos("W:Wd4:Bd5,d6");
    assert!(!covered.must_capture());
    assert_eq!(moves(&covered), ["d4-c4", "d4-e4"]);
}

// §T4
#[test]
fn t4_kings_slide_like_rooks_until_blocked() {
    assert_eq!(pos("W:WKd4:Ba8").moves().len(), 14);
    // An own man on d6 stops the king on d5.
    let blocked = moves(&pos("W:WKd4,d6:Bh8"));
    assert!(blocked.contains(&"d4-d5".to_string()));
    assert!(!blocked.iter().any(|m| m == "d4-d7" || m == "d4-d8"));
}

// §T4
#[test]
fn t4_king_captures_from_distance_landing_on_any_empty_square_beyond() {
    let position = pos("W:WKa1:Ba5");
    assert_eq!(moves(&position), ["a1xa6", "a1xa7", "a1xa8"]);
    let info = position.move_info(&position.parse_move("a1xa7").unwrap());
    assert_eq!(info.captures, ["a5"]);
    // Landing stops at the next piece.
    assert_eq!(moves(&pos("W:WKa1:Ba5,Ka8")), ["a1xa6", "a1xa7"]);
}

// §T4
#[test]
fn t4_king_cannot_jump_two_pieces_in_a_row_or_over_its_own() {
    assert!(!pos("W:WKa1:Ba5,a6").must_capture());
    assert!(!pos("W:WKa1,a3:Ba5").must_capture());
}

// §T5
#[test]
fn t5_longest_capture_is_mandatory_and_a_king_counts_as_one() {
    // a2 could take the black king on a3 (one piece); h2 takes two men: only h2 may capture.
    let position = pos("W:Wa2,h2:BKa3,h3,h5");
    assert_eq!(moves(&position), ["h2xh4xh6"]);
}

// §T5
#[test]
fn t5_equal_longest_captures_are_a_free_choice() {
    // Two single captures by two different men, and no longer one.
    let position = pos("W:Wb2,g2:Bb3,g3");
    assert_eq!(moves(&position), ["b2xb4", "g2xg4"]);
}

// §T5
#[test]
fn t5_capture_is_mandatory_over_quiet_moves() {
    let position = pos("W:Wd4,a2:Bd5");
    assert_eq!(moves(&position), ["d4xd6"]);
}

// §T6
#[test]
fn t6_jumped_piece_leaves_at_once_and_opens_a_new_line() {
    // d4 is jumped first; the last jump travels west along row 4 through d4's square to take c4.
    let position = pos("W:WKd2:Bd4,f6,h5,c4");
    assert_eq!(moves(&position), ["d2xd6xh6xh4xa4", "d2xd6xh6xh4xb4"]);
    let info = position.move_info(&position.parse_move("d2xd6xh6xh4xb4").unwrap());
    // Sorted by square index: c4 = 26, d4 = 27, h5 = 39, f6 = 45.
    assert_eq!(info.captures, ["c4", "d4", "h5", "f6"]);
    let after = play(&position, "d2xd6xh6xh4xb4");
    assert_eq!(after.to_text(), "B:WKb4:B");
}

// §T6
#[test]
fn t6_capturing_piece_may_cross_its_own_start_square() {
    // c2 north over c4 to c5, east over e5 to f5, south over f3 to f2, then west along row 2
    // through c2 — the king's own start square, empty while it captures — over b2 to a2.
    let position = pos("W:WKc2:Bc4,e5,f3,b2");
    assert!(moves(&position).contains(&"c2xc5xf5xf2xa2".to_string()));
    assert!(position
        .moves()
        .iter()
        .all(|mv| position.move_info(mv).jumps == 4));
}

// §T7
#[test]
fn t7_capturing_piece_never_reverses_180_degrees() {
    // After taking d6 northwards, taking d2 would need a half turn (and vice versa).
    let position = pos("W:WKd4:Bd6,d2");
    assert_eq!(moves(&position), ["d4xd1", "d4xd7", "d4xd8"]);
}

// §T7
#[test]
fn t7_capturing_piece_may_turn_90_degrees_or_go_straight_on() {
    // Straight on: a1 over a3 to a4, over a5 to a6.
    assert_eq!(
        moves(&pos("W:WKa1:Ba3,a5")),
        ["a1xa4xa6", "a1xa4xa7", "a1xa4xa8"]
    );
    // 90°: a man takes forward then sideways.
    assert_eq!(moves(&pos("W:Wc2:Bc3,d4")), ["c2xc4xe4"]);
}

// §T8
#[test]
fn t8_man_reaching_last_row_mid_capture_goes_on_as_a_man() {
    // c6 takes c7 to c8, then (as a man, sideways) the king on d8 to e8. A king on e8 could
    // go on and take e5; a man cannot, so the move ends on e8 with two pieces taken.
    let position = pos("W:Wc6:Bc7,Kd8,e5");
    assert_eq!(moves(&position), ["c6xc8xe8"]);
    let after = play(&position, "c6xc8xe8");
    // Crowned because the move ends on the last row.
    assert_eq!(after.to_text(), "B:WKe8:Be5");
}

// §T8
#[test]
fn t8_black_man_reaching_row_1_mid_capture_goes_on_as_a_man() {
    // The mirror image: c3 takes c2 down to c1, then the king on d1 to e1; as a king it could
    // go on up the e-file over e4, as a man it stops.
    let position = pos("B:Wc2,Kd1,e4:Bc3");
    assert_eq!(moves(&position), ["c3xc1xe1"]);
    assert_eq!(play(&position, "c3xc1xe1").to_text(), "W:We4:BKe1");
}

// §T8
#[test]
fn t8_man_ending_its_move_on_the_last_row_is_crowned() {
    let after = play(&pos("W:Wd7:Ba2"), "d7-d8");
    assert_eq!(after.to_text(), "B:WKd8:Ba2");
    let after = play(&pos("B:Wh7:Bd2"), "d2-d1");
    assert_eq!(after.to_text(), "W:Wh7:BKd1");
    // A man stepping sideways on a row other than the last stays a man.
    assert_eq!(play(&pos("W:Wd7:Ba2"), "d7-e7").to_text(), "B:We7:Ba2");
}

// §T9
#[test]
fn t9_player_without_pieces_loses() {
    assert_eq!(
        pos("B:Wd4:B").outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
}

// §T9
#[test]
fn t9_player_with_every_piece_blocked_loses() {
    // Black man a2: a1 and b2 occupied, and c2 behind b2 as well, so no step and no jump
    // (a3 keeps White's a1 from taking a2 in the position before).
    let blocked = pos("B:Wa1,b2,c2,a3:Ba2");
    assert!(blocked.moves().is_empty());
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
    // One ply before: White steps d2-c2 into that position.
    let before = pos("W:Wa1,b2,d2,a3:Ba2");
    assert_eq!(before.outcome(), None);
    assert_eq!(play(&before, "d2-c2").outcome(), blocked.outcome());
}

// §T10
#[test]
fn t10_fifty_plies_without_capture_or_man_move_draw_not_forty_nine() {
    let position = pos("W:WKa1,g3:BKh8,b6").with_quiet_plies(48);
    let ply_49 = play(&position, "a1-a2");
    assert_eq!(ply_49.quiet_plies(), 49);
    assert_eq!(ply_49.outcome(), None);
    assert_eq!(ply_49.draw_counters()[0].plies_left, 1);
    let ply_50 = play(&ply_49, "h8-h7");
    assert_eq!(ply_50.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    assert_eq!(ply_50.draw_counters()[0].plies_left, 0);
}

// §T10
#[test]
fn t10_counter_counts_king_moves_and_is_reset_by_any_man_step_or_capture() {
    let position = pos("W:WKa1,g3:BKh8,b6");
    let after = play(&play(&play(&position, "a1-a2"), "h8-h7"), "a2-a1");
    assert_eq!(after.quiet_plies(), 3);
    let position = position.with_quiet_plies(49);
    // A sideways man step is "advancing" (decision in §T10).
    assert_eq!(play(&position, "g3-f3").quiet_plies(), 0);
    assert_eq!(play(&position, "g3-g4").quiet_plies(), 0);
    // A king capture resets it too.
    let capture = pos("W:WKa1,g3:BKh8,a5,h6").with_quiet_plies(49);
    assert_eq!(play(&capture, "a1xa6").quiet_plies(), 0);
}

// §T11
#[test]
fn t11_one_king_against_one_king_is_a_draw() {
    assert_eq!(
        pos("W:WKa1:BKh8").outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    // King and man against king plays on.
    assert_eq!(pos("W:WKa1,c3:BKh8").outcome(), None);
}

// §T11
#[test]
fn t11_king_against_king_plays_on_when_the_side_to_move_can_take_the_other_king() {
    // One ply before: king against king and man; White must take d5.
    let before = pos("W:WKd1:BKh8,d5");
    assert_eq!(before.outcome(), None);
    // Landing on d6, Black cannot take: draw.
    assert_eq!(
        play(&before, "d1xd6").outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    // Landing on d8, the black king can take it along row 8: play goes on, and Black wins.
    let exposed = play(&before, "d1xd8");
    assert_eq!(exposed.outcome(), None);
    assert_eq!(moves(&exposed), ["h8xa8", "h8xb8", "h8xc8"]);
    let taken = play(&exposed, "h8xc8");
    assert_eq!(
        taken.outcome(),
        Some(Outcome::win(1, EndReason::NoLegalMoves))
    );
}

// §T12
#[test]
fn t12_third_repetition_is_a_draw_not_the_second() {
    let mut game = new_game(variant(), Some("W:WKa1,g3:BKh8,b6")).unwrap();
    let cycle = ["a1-a2", "h8-h7", "a2-a1", "h7-h8"];
    for text in cycle.iter().chain(&cycle[..3]) {
        game.play(text).unwrap();
        assert_eq!(game.outcome(), None, "after {text}");
    }
    game.play(cycle[3]).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play("a1-a2"), Err(MoveError::GameOver));
}

// §T12
#[test]
fn t12_forward_steps_and_captures_are_irreversible_sideways_steps_are_not() {
    let position = pos("W:WKa1,g3:BKh8,a5,h6");
    let irreversible = |text: &str| position.is_irreversible(&position.parse_move(text).unwrap());
    assert!(irreversible("a1xa6"));
    // Steps, where no capture is due.
    let quiet = pos("W:WKa1,g3:BKh8,b6");
    let irreversible = |text: &str| quiet.is_irreversible(&quiet.parse_move(text).unwrap());
    assert!(irreversible("g3-g4"));
    assert!(!irreversible("g3-f3"));
    assert!(!irreversible("a1-a2"));
}

// §T12
#[test]
fn t12_positions_repeated_by_sideways_man_steps_count() {
    // The white man steps g3-f3 and back: the start position recurs, a third time after 8 plies.
    let mut game = new_game(variant(), Some("W:WKa1,g3:BKh8,b6")).unwrap();
    let cycle = ["g3-f3", "h8-h7", "f3-g3", "h7-h8"];
    for text in cycle.iter().chain(&cycle[..3]) {
        game.play(text).unwrap();
        assert_eq!(game.outcome(), None, "after {text}");
    }
    game.play(cycle[3]).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

// §T13
#[test]
fn t13_no_legal_move_loses_even_at_the_no_progress_threshold() {
    // Black's only man is blocked; the counter is also at its limit.
    let blocked = pos("B:WKa1,b2,c2:Ba2").with_quiet_plies(50);
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
}

// §T14
#[test]
fn t14_paths_with_the_same_pieces_and_end_are_one_move() {
    // a1 over a3, landing a4 or a5, then over a6: both landings give the same move.
    let position = pos("W:WKa1:Ba3,a6");
    // Paths: a1xa4xa7, a1xa5xa7, a1xa4xa8, a1xa5xa8 — two moves.
    assert_eq!(moves(&position), ["a1xa4xa7", "a1xa4xa8"]);
    let mut paths = Vec::new();
    position.move_paths(&mut paths);
    assert_eq!(paths.len(), 4);
    // Any path of a move is accepted and gives the same move.
    assert_eq!(
        position.parse_move("a1xa5xa8").unwrap(),
        position.parse_move("a1xa4xa8").unwrap()
    );
    assert_eq!(perft(&position, 1), 2);
    assert_eq!(position.perft_paths(1), Some(4));
}

// §T14
#[test]
fn t14_a_loop_back_to_the_start_both_ways_round_is_one_move() {
    // a1 → a3 → c3 → c1 → a1 or the other way round: same start, end and pieces.
    let position = pos("W:WKa1:Ba2,b3,Kb1,c2");
    let mut paths = Vec::new();
    position.move_paths(&mut paths);
    assert_eq!(paths.len(), 2);
    assert_eq!(position.moves().len(), 1);
    let info = position.move_info(&position.moves()[0]);
    assert_eq!((info.from.as_str(), info.to.as_str()), ("a1", "a1"));
    assert_eq!(info.captures, ["b1", "a2", "c2", "b3"]);
}

// §T14
#[test]
fn t14_same_start_and_end_with_different_captured_sets_are_two_moves() {
    // g7 over g5, then west over e4 (from g4) or over d2 (from g2), then north over b5 to b6.
    let position = pos("W:WKg7:BKd2,Kb5,Ke4,Kg5");
    let to_b6: Vec<Vec<String>> = position
        .moves()
        .iter()
        .map(|mv| position.move_info(mv))
        .filter(|info| info.to == "b6")
        .map(|info| info.captures)
        .collect();
    assert_eq!(to_b6.len(), 2);
    assert!(to_b6.contains(&vec!["e4".into(), "b5".into(), "g5".into()]));
    assert!(to_b6.contains(&vec!["d2".into(), "b5".into(), "g5".into()]));
}

// §T14
#[test]
fn t14_fen_rejects_bad_squares_duplicates_crowned_men_and_too_many_pieces() {
    for bad in [
        "W:Wa9:Bh8",
        "W:Wi1:Bh8",
        "W:Wa2,a2:Bh8",
        "W:Wa2:Ba2",
        "W:Wa8:Bh7",
        "B:Wa2:Bh1",
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3,a4:Bh8",
        "W:W1,2:B3",
        "",
        "X:Wa2:Bh8",
    ] {
        assert!(
            matches!(
                Turkish::from_text(variant(), bad),
                Err(SetupError::Position(_))
            ),
            "{bad}"
        );
    }
}

// §T14
#[test]
fn t14_move_text_syntax_errors_and_illegal_moves_are_told_apart() {
    let start = Turkish::start(variant()).unwrap();
    assert!(matches!(
        start.parse_move("a3a4"),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        start.parse_move("a3-a4-a5"),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        start.parse_move("z3-a4"),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        start.parse_move("a3-a5"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(
        start.parse_move("a3xa5"),
        Err(MoveError::Illegal(_))
    ));
    assert!(start.parse_move(" a3-a4 ").is_ok());
}
