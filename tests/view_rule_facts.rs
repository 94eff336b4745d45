//! Rule facts the UI shows come in the `GameView` (docs/commands.md), not re-derived in
//! JavaScript: the pieces that must capture in the draughts games. (The Diamond Game's "the king
//! must go home" is `SeatStats::king_must_go_home`, checked in tests/rules_diamond.rs.)

use damas::session::{GameSetup, Session};
use serde_json::json;

fn view_of(kind: &str, players: Option<u8>, position: Option<&str>) -> damas::session::GameView {
    let setup: GameSetup = serde_json::from_value(json!({
        "variant": {"kind": kind, "players": players},
        "mode": "local",
        "position": position,
    }))
    .expect("setup");
    Session::new("t".into(), &setup).expect("new game").view()
}

#[test]
fn english_forced_capture_names_only_the_capturing_piece() {
    // Black's 14 must take 18 (14x23); the man on 1 has steps but may not move.
    let view = view_of("english", None, Some("B:W18,32:B1,14"));
    assert_eq!(view.must_capture, ["14"]);
    let texts: Vec<&str> = view.legal_moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["14x23"]);
}

#[test]
fn turkish_and_international_list_every_piece_with_a_capture() {
    // rules.md §T5: b2 and g2 each take one piece, a free choice.
    assert_eq!(
        view_of("turkish", None, Some("W:Wb2,g2:Bb3,g3")).must_capture,
        ["b2", "g2"]
    );
    // rules.md I4: 32 and 34 each take two.
    let mut pieces = view_of("international", None, Some("W:W32,34:B17,27,K20,K30")).must_capture;
    pieces.sort();
    assert_eq!(pieces, ["32", "34"]);
}

#[test]
fn no_piece_must_capture_without_a_capture_or_outside_draughts() {
    assert!(view_of("english", None, None).must_capture.is_empty());
    assert!(view_of("turkish", None, None).must_capture.is_empty());
    // Every move of the capture game captures: nothing to single out.
    let capture = view_of("capture", Some(2), None);
    assert!(!capture.legal_moves.is_empty());
    assert!(capture.must_capture.is_empty());
    assert!(view_of("diamond", Some(3), None).must_capture.is_empty());
}
