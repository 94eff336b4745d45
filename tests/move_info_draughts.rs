//! The move description the CLI and the app rely on: PDN text, numeric squares as strings, full
//! landing path, captures sorted ascending numerically.

use damas::catalogue::new_game;
use damas::{GameKind, Variant};

#[test]
fn international_capture_matches_the_cli_contract() {
    let game = new_game(
        Variant::standard(GameKind::International),
        Some("W:W32:B19,28"),
    )
    .unwrap();
    let moves = game.legal_moves();
    assert_eq!(moves.len(), 1);
    let json = serde_json::to_value(&moves[0]).unwrap();
    assert_eq!(json["move"], "32x23x14");
    assert_eq!(json["from"], "32");
    assert_eq!(json["to"], "14");
    assert_eq!(json["path"], serde_json::json!(["32", "23", "14"]));
    assert_eq!(json["captures"], serde_json::json!(["19", "28"]));
}

#[test]
fn captures_sort_numerically_not_as_text() {
    // The white man on 23 takes 18 and then 9: listed as 9 before 18.
    let game = new_game(Variant::standard(GameKind::English), Some("W:W23:B9,18")).unwrap();
    let moves = game.legal_moves();
    assert!(!moves.is_empty());
    for info in &moves {
        let numbers: Vec<u32> = info.captures.iter().map(|c| c.parse().unwrap()).collect();
        let mut sorted = numbers.clone();
        sorted.sort_unstable();
        assert_eq!(numbers, sorted);
    }
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].text, "23x14x5");
    assert_eq!(moves[0].captures, ["9", "18"]);
}

#[test]
fn quiet_move_and_text_round_trip_through_play() {
    let mut game = new_game(Variant::standard(GameKind::English), None).unwrap();
    let info = game.play("11-15").unwrap();
    assert_eq!(
        (info.from.as_str(), info.to.as_str(), info.jumps),
        ("11", "15", 0)
    );
    assert_eq!(info.path, ["11", "15"]);
    assert!(game.play("11-15").is_err(), "no piece left on 11");
    assert_eq!(game.ply(), 1);
    assert!(game.undo());
    assert_eq!(
        game.position_text(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
}
