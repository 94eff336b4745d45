//! Diamond Game rules (docs/rules.md, "Diamond Game"), one test per seed rule, on
//! hand-built positions.
//!
//! Positions are written in axial coordinates `(q, r)` (s = -q - r): directions E (1,0),
//! NE (0,1), NW (-1,1), W (-1,0), SW (0,-1), SE (1,-1); the centre is (0,0), the hexagon is
//! max(|q|,|r|,|s|) <= 4. Red (seat 0) starts in the South point (r < -4) and goes North (r > 4);
//! Yellow starts NorthWest (q < -4) and goes SouthEast (q > 4); Green starts NorthEast (s < -4)
//! and goes SouthWest (s > 4).

use damas::games::diamond::{Diamond, DiamondMove};
use damas::geometry::holeset::Hole;
use damas::geometry::star::{star, Point, NO_HOLE};
use damas::notation::star_text::write_board;
use damas::{
    perft::perft, Describe, EndReason, GameKind, GameResult, MoveError, Outcome, Position, Variant,
};

fn variant(players: u8) -> Variant {
    Variant::new(GameKind::Diamond, Some(players), false).expect("valid variant")
}

fn at(q: i8, r: i8) -> Hole {
    star().by_axial(q, r).expect("hole on the board")
}

const START: [Point; 3] = [Point::South, Point::NorthWest, Point::NorthEast];

/// A legal position: the `placed` pieces ('r','y','g' men, 'R','Y','G' kings), each colour filled
/// up to 15 with men in its own start point, then on its start punta's border holes, then in its
/// destination point (holes already used skipped), with its king on the start apex unless placed.
/// Tests keep clear of the start puntas of the colours they fill.
fn build(players: u8, to_move: char, placed: &[(char, Hole)], ply: u32, passes: u8) -> Diamond {
    const LETTERS: &[u8; 6] = b"rygRYG";
    let star = star();
    let mut cells = [0u8; 121];
    let mut counts = [0u32; 3];
    let mut has_king = [false; 3];
    for &(letter, hole) in placed {
        let index = LETTERS
            .iter()
            .position(|&l| l == letter as u8)
            .expect("letter");
        assert_eq!(cells[hole as usize], 0, "hole used twice");
        cells[hole as usize] = index as u8 + 1;
        counts[index % 3] += 1;
        has_king[index % 3] |= index >= 3;
    }
    for colour in 0..usize::from(players) {
        let apex = star.apex(START[colour]);
        let point = START[colour];
        let holes: Vec<Hole> = [
            star.point(point),
            star.base(point),
            star.point(point.opposite()),
        ]
        .iter()
        .flat_map(|set| set.iter())
        .collect();
        for hole in holes {
            if counts[colour] == 15 {
                break;
            }
            if cells[hole as usize] != 0 {
                continue;
            }
            let king = !has_king[colour] && hole == apex;
            has_king[colour] |= king;
            cells[hole as usize] = colour as u8 + 1 + if king { 3 } else { 0 };
            counts[colour] += 1;
        }
    }
    let board = write_board(LETTERS, |h| cells[h as usize]);
    let text = format!("diamond:{players} {board} {to_move} {ply} {passes}");
    Diamond::from_text(variant(players), &text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Holes the piece on `from` may move to.
fn targets(position: &Diamond, from: Hole) -> Vec<Hole> {
    let mut holes: Vec<Hole> = position
        .moves()
        .into_iter()
        .filter_map(|mv| match mv {
            DiamondMove::Go { from: f, to } if f == from => Some(to),
            _ => None,
        })
        .collect();
    holes.sort_unstable();
    holes
}

fn sorted(mut holes: Vec<Hole>) -> Vec<Hole> {
    holes.sort_unstable();
    holes
}

fn go(from: Hole, to: Hole) -> DiamondMove {
    DiamondMove::Go { from, to }
}

// ---- Start positions -------------------------------------------------------------------------

/// Red's first moves, by hand. Red fills F1–F4 (the South point) and the 5 border holes of F5.
/// - Steps: only the 5 pieces of F5 touch empty open holes, each two of F6 ahead: 10. (Sideways,
///   F5P4 and F5P10 are the Green and Yellow destination interiors: closed.)
/// - Jumps: each of the 4 pieces of F4 jumps one of the two F5 pieces ahead of it to F6: 8. From
///   F6 no further jump reaches a new hole (only back over F5 onto F4, which is full but for the
///   jumper's own start).
/// - The king on F1P1 jumps each of the two full edge lines of its point (4 men each) to F6: 2.
///
/// Total 20, with 2 or 3 players alike (Yellow and Green are far away).
const RED_FIRST_MOVES: u64 = 20;

#[test]
fn start_move_count_two_and_three_players() {
    for players in [2, 3] {
        let start = Diamond::start(variant(players)).expect("start");
        assert_eq!(start.count_moves(), RED_FIRST_MOVES);
        assert_eq!(start.moves().len() as u64, RED_FIRST_MOVES);
        // Yellow's position is Red's rotated and no first move of Red touches it: 20 × 20.
        assert_eq!(perft(&start, 2), 400);
    }
    // Three players: Green is as untouched by the first two moves: 20³.
    assert_eq!(perft(&Diamond::start(variant(3)).expect("start"), 3), 8000);
    // Two players: Red's second move meets its first (equal to the second implementation's,
    // tests/perft_star.rs).
    assert_eq!(
        perft(&Diamond::start(variant(2)).expect("start"), 3),
        12_567
    );
}

#[test]
fn start_texts() {
    let two = Diamond::start(variant(2)).expect("start");
    assert_eq!(
        two.to_text(),
        "diamond:2 R/rr/rrr/rrrr/4rrrrr4/12/11/10/y8/yy8/yyy8/yyyy8/Yyyyy8/4/3/2/1 r 0 0"
    );
    let three = Diamond::start(variant(3)).expect("start");
    assert_eq!(
        three.to_text(),
        "diamond:3 R/rr/rrr/rrrr/4rrrrr4/12/11/10/y7g/yy6gg/yyy5ggg/yyyy4gggg/Yyyyy3ggggG/4/3/2/1 r 0 0"
    );
}

#[test]
fn turn_order_is_red_yellow_green() {
    let mut position = Diamond::start(variant(3)).expect("start");
    let mut seats = Vec::new();
    for _ in 0..4 {
        seats.push(position.to_move());
        let mv = position.moves()[0];
        position.play(&mv);
    }
    assert_eq!(seats, vec![0, 1, 2, 0]);
    assert_eq!(
        (0..3).map(|s| position.seat_name(s)).collect::<Vec<_>>(),
        vec!["red", "yellow", "green"]
    );
}

// ---- Steps and jumps ---------------------------------------------------------------------------

#[test]
fn step_goes_to_any_adjacent_empty_hole() {
    let position = build(3, 'r', &[('r', at(0, 0)), ('y', at(1, 0))], 0, 0);
    let neighbours: Vec<Hole> = [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
        .iter()
        .map(|&(q, r)| at(q, r))
        .collect();
    let reached = targets(&position, at(0, 0));
    for hole in &neighbours {
        assert!(reached.contains(hole));
    }
    // Plus the jump over Yellow; nothing else.
    assert_eq!(reached, sorted([neighbours, vec![at(2, 0)]].concat()));
}

#[test]
fn steps_and_jumps_never_mix() {
    // Step then jump: (0,0) → (1,0) then over (2,0) to (3,0) is not a move.
    let position = build(3, 'r', &[('r', at(0, 0)), ('y', at(2, 0))], 0, 0);
    let reached = targets(&position, at(0, 0));
    assert!(reached.contains(&at(1, 0)));
    assert!(!reached.contains(&at(3, 0)));
    // Jump then step: over (1,0) to (2,0), then a step to (3,0) is not a move.
    let position = build(3, 'r', &[('r', at(0, 0)), ('y', at(1, 0))], 0, 0);
    let reached = targets(&position, at(0, 0));
    assert!(reached.contains(&at(2, 0)));
    assert!(!reached.contains(&at(3, 0)));
}

#[test]
fn jump_chain_changes_direction_and_stops_after_any_jump() {
    // (0,0) over (1,0) to (2,0), then SE over (3,-1) to (4,-2).
    let position = build(
        3,
        'r',
        &[('r', at(0, 0)), ('y', at(1, 0)), ('g', at(3, -1))],
        0,
        0,
    );
    let reached = targets(&position, at(0, 0));
    assert!(reached.contains(&at(2, 0)), "may stop after the first jump");
    assert!(reached.contains(&at(4, -2)), "may turn and go on");
    let info = position.move_info(&go(at(0, 0), at(4, -2)));
    assert_eq!(info.jumps, 2);
    assert_eq!(
        info.path,
        [at(0, 0), at(2, 0), at(4, -2)]
            .map(|h| star().name(h))
            .to_vec()
    );
    assert_eq!(info.text, format!("{}-{}", info.from, info.to));
}

#[test]
fn man_jumps_a_piece_of_any_colour_including_its_own() {
    for other in ['r', 'y', 'g'] {
        let position = build(3, 'r', &[('r', at(0, 0)), (other, at(0, 1))], 0, 0);
        assert!(
            targets(&position, at(0, 0)).contains(&at(0, 2)),
            "over {other}"
        );
    }
}

#[test]
fn man_never_jumps_a_king() {
    for king in ['R', 'Y', 'G'] {
        let position = build(3, 'r', &[('r', at(0, 0)), (king, at(0, 1))], 0, 0);
        assert!(
            !targets(&position, at(0, 0)).contains(&at(0, 2)),
            "over {king}"
        );
    }
}

#[test]
fn man_never_jumps_two_pieces_in_a_row() {
    let position = build(
        3,
        'r',
        &[('r', at(0, 0)), ('y', at(1, 0)), ('g', at(2, 0))],
        0,
        0,
    );
    let reached = targets(&position, at(0, 0));
    assert!(!reached.contains(&at(3, 0)));
}

#[test]
fn king_jumps_a_line_of_men_and_lands_right_after_it() {
    let placed = [('R', at(0, 0)), ('y', at(1, 0)), ('g', at(2, 0))];
    let position = build(3, 'r', &placed, 0, 0);
    let reached = targets(&position, at(0, 0));
    assert!(reached.contains(&at(3, 0)));
    assert!(!reached.contains(&at(4, 0)));
    assert_eq!(position.move_info(&go(at(0, 0), at(3, 0))).jumps, 1);
    // Three men of every colour, Red's own included.
    let placed = [
        ('R', at(0, 0)),
        ('y', at(0, 1)),
        ('g', at(0, 2)),
        ('r', at(0, 3)),
    ];
    let position = build(3, 'r', &placed, 0, 0);
    // Green's fillers leave its start corner (0,4) free: the king lands there.
    let reached = targets(&position, at(0, 0));
    assert!(reached.contains(&at(0, 4)));
    assert_eq!(position.move_info(&go(at(0, 0), at(0, 4))).jumps, 1);
}

#[test]
fn king_also_jumps_a_single_man() {
    let position = build(3, 'r', &[('R', at(0, 0)), ('y', at(0, 1))], 0, 0);
    assert!(targets(&position, at(0, 0)).contains(&at(0, 2)));
}

#[test]
fn king_cannot_jump_a_line_holding_a_king() {
    let placed = [('R', at(0, 0)), ('y', at(1, 0)), ('G', at(2, 0))];
    let position = build(3, 'r', &placed, 0, 0);
    let reached = targets(&position, at(0, 0));
    assert!(!reached.contains(&at(3, 0)));
    // A single king next to it is no line either.
    let position = build(3, 'r', &[('R', at(0, 0)), ('Y', at(1, 0))], 0, 0);
    assert!(!targets(&position, at(0, 0)).contains(&at(2, 0)));
}

#[test]
fn king_line_starts_next_to_the_king_and_needs_a_hole_after_it() {
    // A gap before the line: no jump (that would be a long jump).
    let position = build(3, 'r', &[('R', at(0, 0)), ('y', at(2, 0))], 0, 0);
    assert!(!targets(&position, at(0, 0)).contains(&at(3, 0)));
    // A line running to the edge of the board: no landing hole, no jump.
    let placed = [
        ('R', at(0, 0)),
        ('y', at(1, 0)),
        ('y', at(2, 0)),
        ('g', at(3, 0)),
        ('g', at(4, 0)),
    ];
    let position = build(3, 'r', &placed, 0, 0);
    assert!(star().by_axial(5, 0).is_none());
    let reached = targets(&position, at(0, 0));
    assert!(reached
        .iter()
        .all(|&h| star().coords(h).1 != 0 || star().coords(h).0 < 0));
}

#[test]
fn a_chain_may_not_end_where_it_started() {
    // Over (1,0) to (2,0) and back over (1,0) to (0,0): the start is never a destination.
    let position = build(3, 'r', &[('r', at(0, 0)), ('y', at(1, 0))], 0, 0);
    assert!(!targets(&position, at(0, 0)).contains(&at(0, 0)));
}

#[test]
fn a_move_is_its_start_and_end_and_shows_a_shortest_path() {
    // (2,0) is reached in one jump over (1,0), or in two: over (0,1) to (0,2), then over (1,1).
    // Both chains are the one move (0,0)-(2,0), shown with the single jump.
    let placed = [
        ('r', at(0, 0)),
        ('y', at(1, 0)),
        ('y', at(0, 1)),
        ('g', at(1, 1)),
    ];
    let position = build(3, 'r', &placed, 0, 0);
    let moves = position.moves();
    let same = moves
        .iter()
        .filter(|&&mv| mv == go(at(0, 0), at(2, 0)))
        .count();
    assert_eq!(same, 1);
    let info = position.move_info(&go(at(0, 0), at(2, 0)));
    assert_eq!(info.jumps, 1);
    assert_eq!(info.path.len(), 2);
    // Every move appears once.
    let mut unique = moves.clone();
    unique.sort_by_key(|mv| format!("{mv:?}"));
    unique.dedup();
    assert_eq!(unique.len(), moves.len());
}

// ---- Areas ------------------------------------------------------------------------------------

#[test]
fn no_stopping_in_another_colours_point() {
    // Red on the border at the base of the SouthEast point (Yellow's destination): its two
    // neighbours inside the point are closed; the border holes are open.
    let position = build(3, 'r', &[('r', at(4, -1))], 0, 0);
    let reached = targets(&position, at(4, -1));
    assert!(!reached.contains(&at(5, -1)) && !reached.contains(&at(5, -2)));
    assert!(reached.contains(&at(3, -1)) && reached.contains(&at(4, -2)));
    // Yellow may go there: it is its destination.
    let position = build(3, 'y', &[('y', at(4, -1))], 0, 0);
    let reached = targets(&position, at(4, -1));
    assert!(reached.contains(&at(5, -1)) && reached.contains(&at(5, -2)));
}

#[test]
fn no_landing_mid_chain_in_another_colours_point() {
    // Red (3,-2) over Yellow (4,-2) would land on (5,-2), inside the SouthEast point, and from
    // there over Yellow (4,-1) onto (3,0) in the hexagon. Neither is a Red move.
    let placed = [('r', at(3, -2)), ('y', at(4, -2)), ('y', at(4, -1))];
    let position = build(3, 'r', &placed, 0, 0);
    let reached = targets(&position, at(3, -2));
    assert!(!reached.contains(&at(5, -2)));
    assert!(!reached.contains(&at(3, 0)));
    // Yellow's own man, from the same hole, may do both (its destination point is open to it).
    let placed = [('y', at(3, -2)), ('r', at(4, -2)), ('r', at(4, -1))];
    let position = build(3, 'y', &placed, 0, 0);
    let reached = targets(&position, at(3, -2));
    assert!(reached.contains(&at(5, -2)) && reached.contains(&at(3, 0)));
}

#[test]
fn own_start_and_destination_points_are_open() {
    // Red on the base of the North point steps in.
    let position = build(3, 'r', &[('r', at(-2, 4))], 0, 0);
    let reached = targets(&position, at(-2, 4));
    assert!(reached.contains(&at(-2, 5)) && reached.contains(&at(-3, 5)));
}

#[test]
fn two_players_green_points_closed_but_their_border_holes_open() {
    // Red next to the NorthEast point (Green's start, unused with 2 players).
    let position = build(2, 'r', &[('r', at(2, 2))], 0, 0);
    let reached = targets(&position, at(2, 2));
    assert!(!reached.contains(&at(2, 3)) && !reached.contains(&at(3, 2)));
    assert!(reached.contains(&at(1, 3)) && reached.contains(&at(3, 1)));
    // Yellow next to the SouthWest point (Green's destination).
    let position = build(2, 'y', &[('y', at(-2, -2))], 0, 0);
    let reached = targets(&position, at(-2, -2));
    assert!(!reached.contains(&at(-3, -2)) && !reached.contains(&at(-2, -3)));
    assert!(reached.contains(&at(-1, -3)) && reached.contains(&at(-3, -1)));
}

#[test]
fn pieces_may_leave_the_destination() {
    let position = build(3, 'r', &[('r', at(-1, 5)), ('r', at(-2, 4))], 0, 0);
    let reached = targets(&position, at(-1, 5));
    assert!(reached.contains(&at(-1, 4)) && reached.contains(&at(-2, 5)));
    assert!(targets(&position, at(-2, 4)).contains(&at(-2, 3)));
}

// ---- Winning ----------------------------------------------------------------------------------

/// Red's destination (North punta) but the listed holes, king on the apex.
fn red_home_except(missing: &[Hole]) -> Vec<(char, Hole)> {
    let apex = star().apex(Point::North);
    star()
        .punta(Point::North)
        .iter()
        .filter(|h| !missing.contains(h))
        .map(|h| (if h == apex { 'R' } else { 'r' }, h))
        .collect()
}

#[test]
fn win_when_destination_full_and_king_on_apex() {
    let mut placed = red_home_except(&[at(-2, 4)]);
    placed.push(('r', at(-2, 3)));
    let mut position = build(3, 'r', &placed, 0, 0);
    assert_eq!(position.outcome(), None);
    assert!(!position.seat_stats()[0].king_must_go_home, "not full yet");
    position.play(&go(at(-2, 3), at(-2, 4)));
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(0, EndReason::DestinationReached))
    );
    assert_eq!(position.seat_stats()[0].home, Some(15));
    assert!(
        !position.seat_stats()[0].king_must_go_home,
        "full, king on the apex"
    );
}

#[test]
fn win_counts_other_colours_on_the_destination_border() {
    // Yellow and Green hold the two corners of Red's destination (their own start holes).
    let mut placed = red_home_except(&[at(-4, 4), at(0, 4), at(-2, 4)]);
    placed.extend([('y', at(-4, 4)), ('g', at(0, 4)), ('r', at(-2, 3))]);
    let mut position = build(3, 'r', &placed, 0, 0);
    position.play(&go(at(-2, 3), at(-2, 4)));
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(0, EndReason::DestinationReached))
    );
    assert_eq!(position.seat_stats()[0].home, Some(13));
}

/// `Diamond::wins_with` (what the search asks without playing a move) says of every legal move
/// what `outcome` says after playing it; returns how many moves win.
fn winning_moves_agree_with_the_outcome(position: &Diamond) -> usize {
    let mover = position.to_move();
    let mut winning = 0;
    for mv in position.moves() {
        let wins = position.after(&mv).outcome()
            == Some(Outcome::win(mover, EndReason::DestinationReached));
        assert_eq!(
            position.wins_with(&mv),
            wins,
            "{mv:?} in {}",
            position.to_text()
        );
        winning += usize::from(wins);
    }
    winning
}

#[test]
fn a_win_is_known_before_the_move_is_played() {
    // A man steps into the last hole, with or without other colours on the border.
    let mut placed = red_home_except(&[at(-2, 4)]);
    placed.push(('r', at(-2, 3)));
    assert_eq!(
        winning_moves_agree_with_the_outcome(&build(3, 'r', &placed, 0, 0)),
        1
    );
    let mut placed = red_home_except(&[at(-4, 4), at(0, 4), at(-2, 4)]);
    placed.extend([('y', at(-4, 4)), ('g', at(0, 4)), ('r', at(-2, 3))]);
    assert_eq!(
        winning_moves_agree_with_the_outcome(&build(3, 'r', &placed, 0, 0)),
        1
    );
    // The king jumps the line of men along the destination's edge onto the empty apex: a king
    // move wins too, but not while another hole of the destination is empty, nor for the
    // colour not to move.
    let apex = star().apex(Point::North);
    let destination = star().punta(Point::North);
    let edge = (0..6)
        .find(|&d| {
            let next = star().neighbour(apex, d);
            next != NO_HOLE && destination.contains(next)
        })
        .expect("an edge from the apex");
    let king = (0..5).fold(apex, |hole, _| star().neighbour(hole, edge));
    assert!(!destination.contains(king) && king != NO_HOLE);
    let mut placed = red_home_except(&[apex]);
    placed.push(('R', king));
    assert_eq!(
        winning_moves_agree_with_the_outcome(&build(3, 'r', &placed, 0, 0)),
        1
    );
    assert_eq!(
        winning_moves_agree_with_the_outcome(&build(3, 'y', &placed, 0, 0)),
        0
    );
    let line: Vec<Hole> = (1..5)
        .scan(apex, |hole, _| {
            *hole = star().neighbour(*hole, edge);
            Some(*hole)
        })
        .collect();
    let inner = destination
        .iter()
        .find(|&h| h != apex && !line.contains(&h) && !star().border().contains(h))
        .expect("an inner hole off the king's line");
    let mut placed = red_home_except(&[apex, inner]);
    placed.extend([('R', king), ('r', at(-2, 3))]);
    assert_eq!(
        winning_moves_agree_with_the_outcome(&build(3, 'r', &placed, 0, 0)),
        0
    );
}

#[test]
fn no_win_without_the_king_on_the_apex() {
    // Destination full, but a man on the apex and the king beside it.
    let apex = star().apex(Point::North);
    let placed: Vec<(char, Hole)> = red_home_except(&[])
        .into_iter()
        .map(|(_, h)| {
            (
                if h == apex {
                    'r'
                } else if h == at(-4, 7) {
                    'R'
                } else {
                    'r'
                },
                h,
            )
        })
        .collect();
    let position = build(3, 'r', &placed, 0, 0);
    assert!(!position.has_won(0));
    assert_eq!(position.outcome(), None);
    // The status line tells Red to bring the king home; the others' destinations are not full.
    let stats = position.seat_stats();
    assert!(stats[0].king_must_go_home);
    assert!(!stats[1].king_must_go_home && !stats[2].king_must_go_home);
    // The man on the apex can leave once a hole opens: here it cannot yet (all full).
    assert!(targets(&position, apex).is_empty());
}

#[test]
fn a_move_completing_another_players_destination_is_illegal() {
    // Yellow's destination (SouthEast punta) full but for the border hole (4,-2), Yellow's king on
    // its apex. Red (3,-2) may not step in; Red (4,-1), already inside, may (it leaves a hole).
    let apex = star().apex(Point::SouthEast);
    let mut placed: Vec<(char, Hole)> = star()
        .punta(Point::SouthEast)
        .iter()
        .filter(|&h| h != at(4, -2) && h != at(4, -1))
        .map(|h| (if h == apex { 'Y' } else { 'y' }, h))
        .collect();
    placed.extend([('r', at(4, -1)), ('r', at(3, -2))]);
    let position = build(3, 'r', &placed, 0, 0);
    assert!(!position.moves().contains(&go(at(3, -2), at(4, -2))));
    assert!(matches!(
        position.parse_move(&format!(
            "{}-{}",
            star().name(at(3, -2)),
            star().name(at(4, -2))
        )),
        Err(MoveError::Illegal(_))
    ));
    // The step from inside the destination stays legal.
    assert!(position.moves().contains(&go(at(4, -1), at(4, -2))));
    // Without Yellow's king on the apex it is no gift.
    let mut placed = placed.clone();
    for piece in placed.iter_mut() {
        if piece.1 == apex {
            piece.0 = 'y';
        } else if piece.1 == at(7, -3) {
            piece.0 = 'Y';
        }
    }
    let position = build(3, 'r', &placed, 0, 0);
    assert!(position.moves().contains(&go(at(3, -2), at(4, -2))));
}

// ---- Passing and draws ------------------------------------------------------------------------

/// Red still in its start punta, boxed in: F6 and F7 full of Yellow and Green pieces, with the
/// two kings ending the lines Red's king could jump.
fn red_boxed_in(passes: u8) -> Diamond {
    let mut placed = vec![('G', at(-1, -3)), ('Y', at(4, -3))];
    for q in 0..=3 {
        placed.push((if q % 2 == 0 { 'y' } else { 'g' }, at(q, -3)));
    }
    for q in -2..=4 {
        placed.push((if q % 2 == 0 { 'g' } else { 'y' }, at(q, -2)));
    }
    build(3, 'r', &placed, 30, passes)
}

#[test]
fn pass_only_when_no_legal_move() {
    let position = red_boxed_in(0);
    assert_eq!(position.moves(), vec![DiamondMove::Pass]);
    assert_eq!(position.count_moves(), 1);
    let info = position.move_info(&DiamondMove::Pass);
    assert!(info.pass);
    assert_eq!(info.text, "pass");
    assert_eq!(position.parse_move("pass"), Ok(DiamondMove::Pass));
    // With a move available, passing is illegal.
    let start = Diamond::start(variant(3)).expect("start");
    assert!(matches!(
        start.parse_move("pass"),
        Err(MoveError::Illegal(_))
    ));
}

#[test]
fn everyone_passing_in_a_row_is_a_draw() {
    let mut position = red_boxed_in(2);
    assert_eq!(position.outcome(), None);
    position.play(&DiamondMove::Pass);
    assert_eq!(
        position.outcome(),
        Some(Outcome::draw(EndReason::AllPassed))
    );
    // A real move resets the count.
    let mut position = red_boxed_in(1);
    position.play(&DiamondMove::Pass);
    let mv = position.moves()[0];
    assert_ne!(mv, DiamondMove::Pass);
    position.play(&mv);
    assert!(position.to_text().ends_with(" 0"));
}

#[test]
fn move_limit_draws_at_800_and_1200_plies() {
    for (players, limit) in [(2u8, 800u32), (3, 1200)] {
        let mut position = build(players, 'r', &[('r', at(0, 0))], limit - 1, 0);
        assert_eq!(position.outcome(), None);
        assert_eq!(position.draw_counters()[0].plies_left, 1);
        let mv = position.moves()[0];
        position.play(&mv);
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::MoveLimit))
        );
    }
}

// ---- Resigning --------------------------------------------------------------------------------

#[test]
fn resignation_two_players_the_other_wins() {
    let position = Diamond::start(variant(2)).expect("start");
    assert_eq!(position.resignation_outcome(0).result, GameResult::Win(1));
    assert_eq!(position.resignation_outcome(1).result, GameResult::Win(0));
}

#[test]
fn resignation_three_players_closest_to_home_wins_tie_to_next() {
    let mut position = Diamond::start(variant(3)).expect("start");
    // All equally far: the player right after the resigner.
    for (resigning, winner) in [(0, 1), (1, 2), (2, 0)] {
        assert_eq!(
            position.resignation_outcome(resigning),
            Outcome::win(winner, EndReason::Resignation)
        );
    }
    // Red advances one piece: when Yellow resigns, Red (closer) beats Green (next after Yellow).
    let mv = position.parse_move("F4P1-F6P4").expect("legal");
    position.play(&mv);
    assert!(position.distance_to_goal(0) < position.distance_to_goal(2));
    assert_eq!(
        position.resignation_outcome(1),
        Outcome::win(0, EndReason::Resignation)
    );
    assert_eq!(
        position.resignation_outcome(2),
        Outcome::win(0, EndReason::Resignation)
    );
}

// ---- Notation and text ------------------------------------------------------------------------

#[test]
fn move_text_is_from_dash_to_and_parses_back() {
    let position = Diamond::start(variant(3)).expect("start");
    for mv in position.moves() {
        let info = position.move_info(&mv);
        assert_eq!(info.text, format!("{}-{}", info.from, info.to));
        assert_eq!(position.parse_move(&info.text), Ok(mv));
        assert_eq!(info.path.first(), Some(&info.from));
        assert_eq!(info.path.last(), Some(&info.to));
    }
    // The king's jump over its edge line: one jump of five holes.
    let info = position.move_info(&position.parse_move("F1P1-F6P9").expect("legal"));
    assert_eq!((info.jumps, info.path.len()), (1, 2));
    assert!(matches!(
        position.parse_move("F1P1-F9P9"),
        Err(MoveError::Syntax(_) | MoveError::Illegal(_))
    ));
    assert!(matches!(
        position.parse_move("F1P1"),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        position.parse_move("nonsense"),
        Err(MoveError::Syntax(_))
    ));
}

#[test]
fn position_text_rejects_bad_positions() {
    let start = Diamond::start(variant(3)).expect("start").to_text();
    let fields: Vec<&str> = start.split(' ').collect();
    let with = |index: usize, value: &str| {
        let mut f = fields.clone();
        f[index] = value;
        f.join(" ")
    };
    let bad = [
        with(0, "diamond:2"), // variant mismatch
        with(0, "capture:3"), // wrong game
        with(
            1,
            "R/rr/rrr/rrrr/4rrrrr4/12/11/10/y7g/yy6gg/yyy5ggg/yyyy4gggg/Yyyyy3ggggg/4/3/2/1",
        ), // no green king
        with(
            1,
            "R/rr/rrr/rrrr/4rrrrr4/12/11/10/y7g/yy6gg/yyy5ggg/yyyy4gggg/Yyyyy3gggG1/4/3/2/1",
        ), // 14 green
        with(
            1,
            "R/rr/rrr/rrr1/4rrrrr3r/12/11/10/y7g/yy6gg/yyy5ggg/yyyy4gggg/Yyyyy3ggggG/4/3/2/1",
        ), // red in SE point
        with(
            1,
            "R/rr/rrr/rrrr/4rrrrr4/12/11/10/y7g/yy6gg/yyy5ggg/yyyy4gggg/Yyyyy3ggggG/4/3/2",
        ), // 16 rows
        with(2, "b"),
        with(3, "-1"),
        with(3, "1201"),
        with(4, "4"),
        format!("{start} 7"),
        fields[..4].join(" "),
        String::new(),
    ];
    for text in bad {
        assert!(Diamond::from_text(variant(3), &text).is_err(), "{text}");
    }
    // A Green piece in a two-player game.
    let two = "diamond:2 R/rr/rrr/rrrr/4rrrrr4/12/11/10/y7g/yy8/yyy8/yyyy8/Yyyyy8/4/3/2/1 r 0 0";
    assert!(Diamond::from_text(variant(2), two).is_err());
}

#[test]
#[ignore = "deep: perft 4, equal to the reference's in perft_star.rs (release)"]
fn deep_perft_4() {
    assert_eq!(
        perft(&Diamond::start(variant(2)).expect("start"), 4),
        395_128
    );
    assert_eq!(
        perft(&Diamond::start(variant(3)).expect("start"), 4),
        251_480
    );
}

/// "Jumping over a piece that stands in a closed area is fine" never produces a move on this board:
/// seen from outside a point, the hole beyond any point hole (one jump, or a king's line) lies in
/// the same point or off the board. Checked for every hole, direction and line length.
#[test]
fn jumping_over_a_piece_in_a_point_lands_in_that_point() {
    let star = star();
    for from in 0..121u8 {
        for d in 0..6 {
            let mut hole = star.neighbour(from, d);
            let mut entered = None;
            while hole != damas::geometry::star::NO_HOLE {
                let next = star.neighbour(hole, d);
                if let Some(point) = star.point_of(hole) {
                    if star.point_of(from) != Some(point) {
                        entered.get_or_insert(point);
                    }
                }
                if let Some(point) = entered {
                    // Any landing after a jumped point hole is in that point or off the board.
                    assert!(
                        next == damas::geometry::star::NO_HOLE
                            || star.point_of(next) == Some(point)
                    );
                }
                hole = next;
            }
        }
    }
}

#[test]
fn layout_names_views_and_zones() {
    for players in [2u8, 3] {
        let position = Diamond::start(variant(players)).expect("start");
        let layout = position.layout();
        assert_eq!(layout.cells.len(), 121);
        let mut names: Vec<&str> = layout.cells.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 121);
        for cell in &layout.cells {
            assert_eq!(cell.view_names.len(), usize::from(players));
            assert_eq!(cell.view_names[0], cell.name);
        }
        for colour in 0..3u8 {
            let zone = layout
                .cells
                .iter()
                .filter(|c| c.zone == Some(colour))
                .count();
            assert_eq!(zone, 20, "two points of 10 holes");
        }
        // Each seat sees its own start apex as F1P1 and its king there.
        for seat in 0..players {
            let king = position.king_of(seat).expect("king");
            let cell = &layout.cells[usize::from(king)];
            assert_eq!(cell.view_names[usize::from(seat)], "F1P1");
        }
        assert_eq!(position.pieces().len(), 15 * usize::from(players));
        assert_eq!(
            position.pieces().iter().filter(|p| p.king).count(),
            usize::from(players)
        );
    }
}
