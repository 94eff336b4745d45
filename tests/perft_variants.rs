//! The faster perft flavours (hashed, parallel) agree with plain perft.

use damas::games::english::English;
use damas::games::international::International;
use damas::perft::{perft, perft_hashed, perft_parallel};
use damas::{GameKind, Position, Variant};

fn agree<P: Position>(position: &P, depth: u32) {
    let plain = perft(position, depth);
    // A tiny table forces constant replacement, a large one many hits.
    assert_eq!(perft_hashed(position, depth, 4), plain);
    assert_eq!(perft_hashed(position, depth, 20), plain);
    assert_eq!(perft_parallel(position, depth, 2, 0), plain);
    assert_eq!(perft_parallel(position, depth, 3, 16), plain);
}

#[test]
fn english_flavours_agree() {
    let start = English::start(Variant::standard(GameKind::English)).unwrap();
    agree(&start, 8);
    let kings = English::from_text(
        Variant::standard(GameKind::English),
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    )
    .unwrap();
    agree(&kings, 6);
}

#[test]
fn international_flavours_agree() {
    let variant = Variant::standard(GameKind::International);
    agree(&International::start(variant).unwrap(), 6);
    let kings = International::from_text(
        variant,
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    )
    .unwrap();
    agree(&kings, 4);
}
