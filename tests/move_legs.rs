//! `MoveInfo.legs`: the move leg by leg in the order it is played, each landing with the piece that
//! leg takes. `captures` is sorted, so only the legs tell which piece goes first; the UI fades the
//! pieces taken so far along a stopped capture from them. Multi-captures here are checked by hand
//! against the seed rules (docs/rules.md), then every legal move of a few hundred positions of
//! each game is checked to agree with its own path and captures.

use crate::common;

use common::{english, international};
use damas::games::capture::Capture;
use damas::games::diamond::Diamond;
use damas::games::turkish::Turkish;
use damas::geometry::holeset::{Hole, HoleSet};
use damas::geometry::star::star;
use damas::notation::star_text::write_board;
use damas::{Describe, GameKind, MoveInfo, Position, Variant};

/// The legs as (landing, captured) pairs.
fn legs(info: &MoveInfo) -> Vec<(&str, Option<&str>)> {
    info.legs
        .iter()
        .map(|leg| (leg.to.as_str(), leg.captured.as_deref()))
        .collect()
}

fn info_of<P: Describe>(position: &P, text: &str) -> MoveInfo {
    let mv = position
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    position.move_info(&mv)
}

#[test]
fn turkish_king_takes_in_path_order_and_crosses_a_square_emptied_earlier() {
    // rules.md §T6: d2 north over d4 to d6, east over f6 to h6, south over h5 to h4, then west
    // along row 4 through d4's square (emptied by the first jump) over c4 to b4.
    let position = Turkish::from_text(Variant::standard(GameKind::Turkish), "W:WKd2:Bd4,f6,h5,c4")
        .expect("valid FEN");
    let info = info_of(&position, "d2xd6xh6xh4xb4");
    assert_eq!(
        legs(&info),
        [
            ("d6", Some("d4")),
            ("h6", Some("f6")),
            ("h4", Some("h5")),
            ("b4", Some("c4"))
        ]
    );
    // `captures` stays sorted by square index, a different order.
    assert_eq!(info.captures, ["c4", "d4", "h5", "f6"]);
}

#[test]
fn turkish_man_capture_and_step() {
    // rules.md §T8: c6 north over c7 to c8 (not crowned mid-capture), east over the king on d8
    // to e8.
    let position = Turkish::from_text(Variant::standard(GameKind::Turkish), "W:Wc6:Bc7,Kd8,e5")
        .expect("valid FEN");
    let info = info_of(&position, "c6xc8xe8");
    assert_eq!(legs(&info), [("c8", Some("c7")), ("e8", Some("d8"))]);
    let start = Turkish::start(Variant::standard(GameKind::Turkish)).expect("start");
    assert_eq!(legs(&info_of(&start, "a3-a4")), [("a4", None)]);
}

#[test]
fn international_majority_capture_takes_the_far_pieces_last() {
    // rules.md I4: 32 over 27 to 21, over 17 to 12, over 8 to 3; captures sort as 8, 17, 27.
    let position = international("W:W32,34:B8,17,27,K20,K30");
    let info = info_of(&position, "32x21x12x3");
    assert_eq!(
        legs(&info),
        [("21", Some("27")), ("12", Some("17")), ("3", Some("8"))]
    );
    assert_eq!(info.captures, ["8", "17", "27"]);
}

#[test]
fn international_flying_king_takes_one_piece_per_long_leg() {
    // rules.md I5: the king on 37 takes 28 (landing on 19), 13 (on 8) and 12 (on 17).
    let position = international("W:WK37:B12,13,28,33");
    let info = info_of(&position, "37x19x8x17");
    assert_eq!(
        legs(&info),
        [("19", Some("28")), ("8", Some("13")), ("17", Some("12"))]
    );
}

#[test]
fn english_double_jump_in_order() {
    // 23 over 18 to 14, then over 9 to 5.
    let info = info_of(&english("W:W23:B9,18"), "23x14x5");
    assert_eq!(legs(&info), [("14", Some("18")), ("5", Some("9"))]);
    assert_eq!(info.captures, ["9", "18"]);
}

fn at(q: i8, r: i8) -> Hole {
    star().by_axial(q, r).expect("hole on the board")
}

fn name(hole: Hole) -> String {
    star().name(hole)
}

#[test]
fn capture_game_loop_takes_the_pieces_in_the_order_of_its_route() {
    // rules.md, capture game: around a triangle from (0,0) back to (0,0), one way or the other.
    let variant = Variant::new(GameKind::Capture, Some(2), false).expect("variant");
    let pieces: HoleSet = [at(0, 0), at(1, 0), at(1, 1), at(0, 1)]
        .into_iter()
        .collect();
    let board = write_board(b"o", |h| u8::from(pieces.contains(h)));
    let position =
        Capture::from_text(variant, &format!("capture:2 {board} 1 0,0")).expect("position");
    let mv = position
        .moves()
        .into_iter()
        .find(|mv| mv.from == at(0, 0) && mv.to == at(0, 0))
        .expect("the loop");
    let info = position.move_info(&mv);
    let got = legs(&info);
    let clockwise = [
        (name(at(2, 0)), name(at(1, 0))),
        (name(at(0, 2)), name(at(1, 1))),
        (name(at(0, 0)), name(at(0, 1))),
    ];
    let counter = [
        (name(at(0, 2)), name(at(0, 1))),
        (name(at(2, 0)), name(at(1, 1))),
        (name(at(0, 0)), name(at(1, 0))),
    ];
    let expected = if info.path[1] == name(at(2, 0)) {
        clockwise
    } else {
        counter
    };
    let expected: Vec<(&str, Option<&str>)> = expected
        .iter()
        .map(|(to, taken)| (to.as_str(), Some(taken.as_str())))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn diamond_legs_take_nothing_and_follow_the_path() {
    let start = Diamond::start(Variant::new(GameKind::Diamond, Some(3), false).expect("variant"))
        .expect("start");
    let jump = start
        .moves()
        .iter()
        .map(|mv| start.move_info(mv))
        .find(|info| info.jumps >= 1)
        .expect("a jump at the start");
    assert_eq!(jump.legs.len(), jump.path.len() - 1);
    assert!(jump.legs.iter().all(|leg| leg.captured.is_none()));
}

/// Every legal move's legs follow its path and take exactly its captures.
fn check_all<P: Describe>(position: &P) {
    for mv in position.moves() {
        let info = position.move_info(&mv);
        if info.pass {
            assert!(info.legs.is_empty());
            continue;
        }
        let landings: Vec<&str> = info.legs.iter().map(|leg| leg.to.as_str()).collect();
        assert_eq!(landings, info.path[1..], "{}", info.text);
        let mut taken: Vec<&str> = info
            .legs
            .iter()
            .filter_map(|leg| leg.captured.as_deref())
            .collect();
        let mut captures: Vec<&str> = info.captures.iter().map(String::as_str).collect();
        taken.sort_unstable();
        captures.sort_unstable();
        assert_eq!(taken, captures, "{} in {}", info.text, position.to_text());
        if !info.captures.is_empty() {
            assert!(
                info.legs.iter().all(|leg| leg.captured.is_some()),
                "every leg of a capture takes a piece: {}",
                info.text
            );
        }
    }
}

/// Walks a game from its start, checking every position's moves; the move played is picked by a
/// fixed stride through the legal moves, so the walk reaches captures without randomness.
fn walk<P: Describe>(mut position: P, plies: usize) {
    for ply in 0..plies {
        check_all(&position);
        let moves = position.moves();
        if moves.is_empty() || position.outcome().is_some() {
            break;
        }
        // Prefer captures, so that multi-captures come up.
        let capturing: Vec<_> = moves
            .iter()
            .filter(|mv| !position.move_info(mv).captures.is_empty())
            .collect();
        let pick = if capturing.is_empty() {
            &moves[(ply * 7) % moves.len()]
        } else {
            capturing[(ply * 3) % capturing.len()]
        };
        position.play(pick);
    }
}

#[test]
fn legs_agree_with_path_and_captures_along_games_of_all_five_kinds() {
    for kind in GameKind::ALL {
        let players = match kind {
            GameKind::Diamond => Some(3),
            GameKind::Capture => Some(3),
            _ => None,
        };
        for long_jump in [false, true] {
            if long_jump && kind != GameKind::Capture {
                continue;
            }
            let variant = Variant::new(kind, players, long_jump).expect("variant");
            match kind {
                GameKind::English => walk(english_start(variant), 150),
                GameKind::International => walk(international_start(variant), 150),
                GameKind::Turkish => walk(Turkish::start(variant).expect("start"), 150),
                GameKind::Diamond => walk(Diamond::start(variant).expect("start"), 150),
                GameKind::Capture => walk(Capture::start(variant).expect("start"), 60),
            }
        }
    }
}

fn english_start(variant: Variant) -> damas::games::english::English {
    damas::games::english::English::start(variant).expect("start")
}

fn international_start(variant: Variant) -> damas::games::international::International {
    damas::games::international::International::start(variant).expect("start")
}
