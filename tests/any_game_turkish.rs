//! Turkish draughts through the registry and the object-safe `AnyGame` face the CLI and the app
//! use: move JSON, FEN in and out, status figures, board layout.

use damas::catalogue::new_game;
use damas::{BoardShape, EndReason, GameKind, GameResult, MoveError, Outcome, SetupError, Variant};

fn variant() -> Variant {
    Variant::standard(GameKind::Turkish)
}

#[test]
fn capture_move_info_serialises_as_the_cli_contract() {
    // d4 north over d5 to d6, east over e6 to f6.
    let game = new_game(variant(), Some("W:Wd4:Bd5,e6,Kh8")).unwrap();
    let moves = game.legal_moves();
    assert_eq!(moves.len(), 1);
    let json = serde_json::to_value(&moves[0]).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "move": "d4xd6xf6",
            "from": "d4",
            "to": "f6",
            "path": ["d4", "d6", "f6"],
            "jumps": 2,
            "captures": ["d5", "e6"],
            "legs": [{"to": "d6", "captured": "d5"}, {"to": "f6", "captured": "e6"}],
        })
    );
}

#[test]
fn step_move_info_and_play_by_text() {
    let mut game = new_game(variant(), None).unwrap();
    let first = &game.legal_moves()[0];
    assert_eq!(
        (
            first.text.as_str(),
            first.path.clone(),
            first.captures.len()
        ),
        ("a3-a4", vec!["a3".to_string(), "a4".to_string()], 0)
    );
    let played = game.play("d3-d4").unwrap();
    assert_eq!(played.to, "d4");
    assert_eq!(game.to_move(), 1);
    assert_eq!(game.seat_name(game.to_move()), "black");
    assert_eq!(
        game.position_text(),
        "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4\
         :Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
    assert_eq!(game.history()[0].text, "d3-d4");
    assert!(game.undo());
    assert_eq!(game.position_text(), game.start_text());
}

#[test]
fn illegal_or_malformed_moves_leave_the_game_unchanged() {
    let mut game = new_game(variant(), None).unwrap();
    let before = game.position_text();
    assert!(matches!(game.play("d3-d5"), Err(MoveError::Illegal(_))));
    assert!(matches!(game.play("hello"), Err(MoveError::Syntax(_))));
    assert!(matches!(game.play(""), Err(MoveError::Syntax(_))));
    assert_eq!(game.position_text(), before);
    assert_eq!(game.ply(), 0);
}

#[test]
fn malformed_fen_is_a_setup_error() {
    for bad in ["", "W:Wz9", "Q:Wa2:Ba7", "W:Wa2:Ba2"] {
        assert!(
            matches!(new_game(variant(), Some(bad)), Err(SetupError::Position(_))),
            "{bad}"
        );
    }
}

#[test]
fn status_figures_layout_and_pieces() {
    let game = new_game(variant(), Some("B:WKa1,c3:BKh8,b6,e7")).unwrap();
    let stats = game.seat_stats();
    assert_eq!((stats[0].pieces, stats[0].kings), (2, 1));
    assert_eq!((stats[1].pieces, stats[1].kings), (3, 1));
    assert_eq!(stats[1].name, "black");
    let layout = game.layout();
    assert_eq!(
        layout.shape,
        BoardShape::Grid {
            files: 8,
            ranks: 8,
            dark_only: false
        }
    );
    assert_eq!(layout.cells.len(), 64);
    let c3 = layout.cells.iter().find(|c| c.name == "c3").unwrap();
    assert_eq!((c3.x, c3.y), (2.0, 2.0));
    let pieces = game.pieces();
    assert_eq!(pieces.len(), 5);
    let h8 = pieces.iter().find(|p| p.cell == "h8").unwrap();
    assert_eq!((h8.seat, h8.king), (Some(1), true));
    let counters = game.draw_counters();
    assert_eq!(counters[0].reason, EndReason::NoProgress);
    assert_eq!(counters[0].plies_left, 50);
}

#[test]
fn finished_game_lists_no_moves_and_reports_the_winner() {
    let mut game = new_game(variant(), Some("W:WKa1:Ba5")).unwrap();
    game.play("a1xa7").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(0, EndReason::NoLegalMoves))
    );
    assert!(matches!(
        game.outcome().map(|o| o.result),
        Some(GameResult::Win(0))
    ));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play("a7-a8"), Err(MoveError::GameOver));
}

#[test]
fn other_variant_options_are_refused() {
    let three = Variant {
        kind: GameKind::Turkish,
        players: 3,
        long_jump: false,
    };
    assert!(new_game(three, None).is_err());
    assert!(Variant::new(GameKind::Turkish, Some(3), false).is_err());
}
