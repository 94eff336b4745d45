//! Capture Chinese checkers rules (docs/rules.md, "Capture Chinese checkers"), one test per rule
//! of the seed rules, on hand-built positions. Coordinates are axial `(q, r)` as in rules_diamond.rs.

use damas::games::capture::{Capture, CaptureMove};
use damas::geometry::holeset::{Hole, HoleSet};
use damas::geometry::star::star;
use damas::notation::star_text::write_board;
use damas::{perft::perft, Describe, EndReason, GameKind, MoveError, Outcome, Position, Variant};

fn variant(players: u8, long_jump: bool) -> Variant {
    Variant::new(GameKind::Capture, Some(players), long_jump).expect("valid variant")
}

fn at(q: i8, r: i8) -> Hole {
    star().by_axial(q, r).expect("hole on the board")
}

fn build(players: u8, long_jump: bool, pieces: &[Hole], to_move: u8, captures: &[u8]) -> Capture {
    let set: HoleSet = pieces.iter().copied().collect();
    let board = write_board(b"o", |h| u8::from(set.contains(h)));
    let long = if long_jump { ":long" } else { "" };
    let captures: Vec<String> = captures.iter().map(u8::to_string).collect();
    let text = format!(
        "capture:{players}{long} {board} {} {}",
        to_move + 1,
        captures.join(",")
    );
    Capture::from_text(variant(players, long_jump), &text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn set(holes: &[Hole]) -> HoleSet {
    holes.iter().copied().collect()
}

/// The capture opening, by hand. 60 pieces fill the hexagon but its centre; the points are empty.
/// - Into the centre: from each of the 6 holes two steps away in a straight line, over the piece
///   between: 6. Nothing follows (every other line from the centre is full).
/// - Into a point: only its first row (4 holes) can be reached, each from the two lines coming out
///   of the hexagon through it (over a border piece, from the piece behind): 8 per point, 48.
///   A piece landing there finds only empty point holes or full lines around it: no second jump.
///
/// Total 54, for any number of players. The long jump adds nothing: the only empty holes are the
/// centre and the points, and no piece has empty holes on both sides of another.
const OPENING_MOVES: u64 = 54;

#[test]
fn opening_move_counts() {
    for players in 2..=6 {
        for long_jump in [false, true] {
            let start = Capture::start(variant(players, long_jump)).expect("start");
            assert_eq!(start.count_moves(), OPENING_MOVES);
            assert!(start.moves().iter().all(|mv| mv.captured.len() == 1));
        }
    }
    // Perft 2 and 3, equal to the second implementation's (tests/perft_star.rs).
    let plain = Capture::start(variant(2, false)).expect("start");
    assert_eq!((perft(&plain, 2), perft(&plain, 3)), (3516, 265_842));
    let long = Capture::start(variant(2, true)).expect("start");
    assert_eq!((perft(&long, 2), perft(&long, 3)), (3720, 309_366));
}

#[test]
fn start_text() {
    let start = Capture::start(variant(3, false)).expect("start");
    assert_eq!(
        start.to_text(),
        "capture:3 1/2/3/4/4ooooo4/3oooooo3/2ooooooo2/1oooooooo1/oooo1oooo/1oooooooo1/2ooooooo2/3oooooo3/4ooooo4/4/3/2/1 1 0,0,0"
    );
    assert_eq!(start.board().len(), 60);
}

#[test]
fn no_simple_steps() {
    // A lone pair far apart: nothing can jump, so there is no move at all.
    let position = build(2, false, &[at(0, 0), at(2, 0)], 0, &[0, 0]);
    assert!(position.moves().is_empty());
}

#[test]
fn any_seat_may_move_any_piece() {
    let pieces = [at(0, 0), at(1, 0), at(-2, 2), at(-2, 1)];
    let moves: Vec<Vec<CaptureMove>> = (0..4)
        .map(|seat| build(4, false, &pieces, seat, &[0, 0, 0, 0]).moves())
        .collect();
    assert!(moves.iter().all(|m| *m == moves[0]));
    assert_eq!(build(4, false, &pieces, 2, &[0; 4]).to_move(), 2);
}

#[test]
fn a_jumped_piece_is_captured_at_once_for_the_mover() {
    let mut position = build(3, false, &[at(0, 0), at(1, 0), at(-3, 0)], 1, &[0, 0, 0]);
    let mv = position.parse_move(&format!(
        "{}x{}",
        star().name(at(0, 0)),
        star().name(at(2, 0))
    ));
    let mv = mv.expect("legal");
    assert_eq!(mv.captured, set(&[at(1, 0)]));
    position.play(&mv);
    assert_eq!(position.board(), set(&[at(2, 0), at(-3, 0)]));
    assert_eq!(position.captures_of(1), 1);
    assert_eq!(position.seat_stats()[1].captures, Some(1));
    assert_eq!(position.to_move(), 2);
}

#[test]
fn a_chain_may_stop_after_any_jump() {
    // (0,0) over (1,0) to (2,0), then over (2,1) to (2,2): both are moves.
    let position = build(2, false, &[at(0, 0), at(1, 0), at(2, 1)], 0, &[0, 0]);
    let moves = position.moves();
    let from_start: Vec<(Hole, u32)> = moves
        .iter()
        .filter(|mv| mv.from == at(0, 0))
        .map(|mv| (mv.to, mv.captured.len()))
        .collect();
    assert!(from_start.contains(&(at(2, 0), 1)));
    assert!(from_start.contains(&(at(2, 2), 2)));
    let info = position.move_info(
        moves
            .iter()
            .find(|mv| mv.to == at(2, 2))
            .expect("the two-jump move"),
    );
    let names = |holes: &[Hole]| holes.iter().map(|&h| star().name(h)).collect::<Vec<_>>();
    assert_eq!(info.path, names(&[at(0, 0), at(2, 0), at(2, 2)]));
    assert_eq!(info.text, info.path.join("x"));
    assert_eq!(info.captures, names(&[at(1, 0), at(2, 1)]));
    assert_eq!(info.jumps, 2);
}

#[test]
fn a_captured_piece_cannot_be_jumped_again() {
    // After (0,0) over (1,0) to (2,0), jumping back west finds (1,0) empty.
    let position = build(2, false, &[at(0, 0), at(1, 0)], 0, &[0, 0]);
    let moves = position.moves();
    // (0,0)x(2,0), and (1,0) jumping (0,0) westward.
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|mv| mv.captured.len() == 1));
}

#[test]
fn a_chain_may_end_on_its_start_and_equal_chains_are_one_move() {
    // Around a triangle: (0,0) over (1,0) to (2,0), over (1,1) to (0,2), over (0,1) back to (0,0);
    // or the other way round. One move: from (0,0) to (0,0) taking all three.
    let pieces = [at(0, 0), at(1, 0), at(1, 1), at(0, 1)];
    let position = build(2, false, &pieces, 0, &[0, 0]);
    let home: Vec<CaptureMove> = position
        .moves()
        .into_iter()
        .filter(|mv| mv.from == at(0, 0) && mv.to == at(0, 0))
        .collect();
    assert_eq!(home.len(), 1);
    assert_eq!(home[0].captured, set(&[at(1, 0), at(1, 1), at(0, 1)]));
    // Both routes parse to that move.
    let route = |holes: [Hole; 4]| {
        holes
            .iter()
            .map(|&h| star().name(h))
            .collect::<Vec<_>>()
            .join("x")
    };
    let one = position.parse_move(&route([at(0, 0), at(2, 0), at(0, 2), at(0, 0)]));
    let other = position.parse_move(&route([at(0, 0), at(0, 2), at(2, 0), at(0, 0)]));
    assert_eq!(one, Ok(home[0]));
    assert_eq!(other, Ok(home[0]));
    // No move is listed twice.
    let mut moves = position.moves();
    let count = moves.len();
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), count);
}

#[test]
fn jumps_may_land_in_the_points() {
    // From the border, over the border piece next to it, into the NorthEast point.
    let position = build(2, false, &[at(2, 2), at(1, 2)], 0, &[0, 0]);
    let moves = position.moves();
    assert!(moves
        .iter()
        .any(|mv| mv.from == at(1, 2) && mv.to == at(3, 2)));
}

#[test]
fn long_jump_is_symmetric_over_a_single_piece() {
    // (0,0), two empty holes, a piece at (3,0), two empty holes, landing (6,0)? off the board: use
    // the other axis. (-3,0) … (0,0) piece … (3,0): gaps of 2 on both sides.
    let pieces = [at(-3, 0), at(0, 0)];
    let long = build(2, true, &pieces, 0, &[0, 0]);
    let plain = build(2, false, &pieces, 0, &[0, 0]);
    assert!(plain.moves().is_empty());
    let moves = long.moves();
    assert!(moves
        .iter()
        .any(|mv| mv.from == at(-3, 0) && mv.to == at(3, 0) && mv.captured == set(&[at(0, 0)])));
    let mv = long.parse_move(&format!(
        "{}x{}",
        star().name(at(-3, 0)),
        star().name(at(3, 0))
    ));
    assert!(mv.is_ok());
    // The piece at (0,0) jumps (-3,0) too, landing symmetrically at (-6,0)? (-6,0) is off the
    // board (q = -6 needs r >= 2), so it cannot.
    assert!(star().by_axial(-6, 0).is_none());
    assert_eq!(moves.len(), 1);
    // Not symmetric: a piece in the gap after the jumped one blocks it.
    let blocked = build(2, true, &[at(-3, 0), at(0, 0), at(2, 0)], 0, &[0, 0]);
    assert!(!blocked.moves().iter().any(|mv| mv.from == at(-3, 0)));
    // Not a single piece: two in a row cannot be jumped.
    let two = build(2, true, &[at(-3, 0), at(0, 0), at(1, 0)], 0, &[0, 0]);
    assert!(!two.moves().iter().any(|mv| mv.from == at(-3, 0)));
}

#[test]
fn game_ends_when_no_jump_is_left_most_captures_wins() {
    let position = build(3, false, &[at(0, 0), at(2, 0)], 0, &[5, 9, 2]);
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(1, EndReason::NoJumpsLeft))
    );
    let tie = build(3, false, &[at(0, 0), at(2, 0)], 0, &[9, 9, 2]);
    assert_eq!(tie.outcome(), Some(Outcome::draw(EndReason::NoJumpsLeft)));
    let ongoing = build(3, false, &[at(0, 0), at(1, 0)], 0, &[9, 9, 2]);
    assert_eq!(ongoing.outcome(), None);
}

#[test]
fn resignation() {
    let two = build(2, false, &[at(0, 0), at(1, 0)], 0, &[5, 1]);
    assert_eq!(
        two.resignation_outcome(0),
        Outcome::win(1, EndReason::Resignation)
    );
    // More players: of the others, most captures; a tie goes to the first to play after.
    let four = build(4, false, &[at(0, 0), at(1, 0)], 0, &[1, 3, 7, 7]);
    assert_eq!(
        four.resignation_outcome(0),
        Outcome::win(2, EndReason::Resignation)
    );
    assert_eq!(
        four.resignation_outcome(2),
        Outcome::win(3, EndReason::Resignation)
    );
    assert_eq!(
        four.resignation_outcome(3),
        Outcome::win(2, EndReason::Resignation)
    );
}

#[test]
fn move_text_lists_every_landing_and_parses_back() {
    let start = Capture::start(variant(2, false)).expect("start");
    for mv in start.moves() {
        let info = start.move_info(&mv);
        assert_eq!(info.text, info.path.join("x"));
        assert_eq!(start.parse_move(&info.text), Ok(mv));
    }
    assert!(matches!(
        start.parse_move("F9P5"),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        start.parse_move("F9P5xF9P6"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(
        start.parse_move("F9P1xZ"),
        Err(MoveError::Syntax(_))
    ));
}

#[test]
fn position_text_rejects_bad_positions() {
    let start = Capture::start(variant(2, false)).expect("start").to_text();
    let fields: Vec<&str> = start.split(' ').collect();
    let with = |index: usize, value: &str| {
        let mut f = fields.clone();
        f[index] = value;
        f.join(" ")
    };
    for text in [
        with(0, "capture:3"),
        with(0, "capture:2:long"),
        with(0, "diamond:2"),
        with(2, "3"),
        with(2, "0"),
        with(3, "0"),
        with(3, "0,0,0"),
        with(3, "1,0"), // 61 pieces in all
        with(3, "0,x"),
        with(1, "o/2/3/4/4ooooo4/3oooooo3/2ooooooo2/1oooooooo1/oooo1oooo/1oooooooo1/2ooooooo2/3oooooo3/4ooooo4/4/3/2/1"),
        format!("{start} extra"),
        String::new(),
    ] {
        assert!(Capture::from_text(variant(2, false), &text).is_err(), "{text}");
    }
}

#[test]
#[ignore = "deep: perft 4, equal to the reference's in perft_star.rs (release)"]
fn deep_perft_4() {
    let plain = Capture::start(variant(2, false)).expect("start");
    assert_eq!(perft(&plain, 4), 22_840_608);
    let long = Capture::start(variant(2, true)).expect("start");
    assert_eq!(perft(&long, 4), 30_335_892);
}

/// `longest_chain` (the CPU's count, without listing the chains) is the most pieces any legal
/// move takes, in every position of seeded random games of every seat count, with and without
/// the long jump; 0 once the game is over.
#[test]
fn the_longest_chain_is_the_longest_legal_move() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(21);
    let mut checked = 0;
    for players in [2, 3, 6] {
        for long_jump in [false, true] {
            for _ in 0..4 {
                let mut position = Capture::start(variant(players, long_jump)).expect("start");
                loop {
                    let moves = position.moves();
                    let longest = moves.iter().map(|mv| mv.captured.len()).max();
                    assert_eq!(
                        position.longest_chain(),
                        longest.unwrap_or(0),
                        "{}",
                        position.to_text()
                    );
                    checked += 1;
                    if moves.is_empty() {
                        break;
                    }
                    position.play(&moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
    }
    assert!(checked > 300, "{checked} positions");
}
