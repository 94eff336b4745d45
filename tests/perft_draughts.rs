//! Perft of English checkers and International draughts against published figures (dctl test
//! tables, OEIS A133046 for English). Fast depths run here; the deepest are `#[ignore]`d and run by
//! CI's deep-test section (each engine test binary with `--ignored`).

use damas::catalogue::{for_game, GameTask};
use damas::games::english::English;
use damas::games::international::International;
use damas::perft::{divide, perft};
use damas::search::searchable::Searchable;
use damas::{Describe, GameKind, Position, Variant};

fn english(fen: Option<&str>) -> English {
    let variant = Variant::standard(GameKind::English);
    match fen {
        Some(fen) => English::from_text(variant, fen).unwrap(),
        None => English::start(variant).unwrap(),
    }
}

fn international(fen: Option<&str>) -> International {
    let variant = Variant::standard(GameKind::International);
    match fen {
        Some(fen) => International::from_text(variant, fen).unwrap(),
        None => International::start(variant).unwrap(),
    }
}

/// Checks depths 1..=`upto` of `expected`.
fn check<P: Position>(position: &P, expected: &[u64], upto: usize) {
    for (i, &want) in expected.iter().enumerate().take(upto) {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(position, depth),
            want,
            "depth {depth} of {}",
            position.to_text()
        );
    }
}

const ENGLISH_START: [u64; 11] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
];
const INTERNATIONAL_START: [u64; 9] = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423];
const INTERNATIONAL_MIDDLE: (&str, [u64; 10]) = (
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050],
);
const INTERNATIONAL_KINGS: (&str, [u64; 6]) = (
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    [14, 55, 1168, 5432, 87195, 629010],
);
const INTERNATIONAL_PROMOTION: (&str, [u64; 6]) = (
    "W:W6,7,8,9,10:B41,42,43,44,45",
    [9, 81, 795, 7578, 86351, 936311],
);
const INTERNATIONAL_ALL_KINGS: (&str, [u64; 5]) = ("W:WK31-50:BK1-20", [17, 79, 352, 1399, 7062]);

#[test]
fn english_start_to_depth_10() {
    check(&english(None), &ENGLISH_START, 10);
}

#[test]
#[ignore = "deep: English perft 11 (85 M nodes), run in release"]
fn english_start_depth_11() {
    assert_eq!(perft(&english(None), 11), ENGLISH_START[10]);
}

#[test]
fn international_start_to_depth_8() {
    check(&international(None), &INTERNATIONAL_START, 8);
}

#[test]
#[ignore = "deep: International perft 9 (41 M nodes), run in release"]
fn international_start_depth_9() {
    assert_eq!(perft(&international(None), 9), INTERNATIONAL_START[8]);
}

#[test]
fn international_middle_game_to_depth_10() {
    let (fen, counts) = INTERNATIONAL_MIDDLE;
    check(&international(Some(fen)), &counts, 10);
}

#[test]
fn international_kings_and_men_to_depth_6() {
    let (fen, counts) = INTERNATIONAL_KINGS;
    check(&international(Some(fen)), &counts, 6);
}

#[test]
fn international_promotion_race_to_depth_6() {
    let (fen, counts) = INTERNATIONAL_PROMOTION;
    check(&international(Some(fen)), &counts, 6);
}

#[test]
fn international_all_kings_to_depth_5() {
    let (fen, counts) = INTERNATIONAL_ALL_KINGS;
    check(&international(Some(fen)), &counts, 5);
}

/// The same figures through the registry the CLI uses (`catalogue::for_game`, the generic perft
/// on the game's own type): perft and the sum of perft divided.
#[test]
fn registry_games_count_the_same() {
    struct Counts<'a> {
        variant: Variant,
        fen: Option<&'a str>,
        depth: u32,
    }
    impl GameTask for Counts<'_> {
        type Output = (u64, u64);
        fn run<P: Searchable + Describe>(self) -> Self::Output {
            let position = match self.fen {
                Some(fen) => P::from_text(self.variant, fen),
                None => P::start(self.variant),
            }
            .expect("position");
            let divided = divide(&position, self.depth).iter().map(|(_, n)| n).sum();
            (perft(&position, self.depth), divided)
        }
    }
    let english = Variant::standard(GameKind::English);
    let (plain, divided) = for_game(
        english.kind,
        Counts {
            variant: english,
            fen: None,
            depth: 6,
        },
    );
    assert_eq!((plain, divided), (ENGLISH_START[5], ENGLISH_START[5]));
    let (fen, counts) = INTERNATIONAL_KINGS;
    let international = Variant::standard(GameKind::International);
    let task = Counts {
        variant: international,
        fen: Some(fen),
        depth: 4,
    };
    let (plain, divided) = for_game(international.kind, task);
    assert_eq!((plain, divided), (counts[3], counts[3]));
}
