//! Board drawing data: dark squares only, seen by seat 0 with its men at the bottom, and each
//! player's bottom-left corner dark (rules.md E1, I1).

use damas::catalogue::new_game;
use damas::{BoardShape, GameKind, Variant};

fn cell_at(kind: GameKind, name: &str) -> (f32, f32) {
    let game = new_game(Variant::standard(kind), None).unwrap();
    let layout = game.layout();
    let cell = layout.cells.iter().find(|c| c.name == name).unwrap();
    (cell.x, cell.y)
}

#[test]
fn english_board_is_drawn_from_blacks_side() {
    let game = new_game(Variant::standard(GameKind::English), None).unwrap();
    let layout = game.layout();
    assert_eq!(
        layout.shape,
        BoardShape::Grid {
            files: 8,
            ranks: 8,
            dark_only: true
        }
    );
    assert_eq!(layout.cells.len(), 32);
    // Black's bottom-left corner is square 4, White's (top right from Black's side) is 29.
    assert_eq!(cell_at(GameKind::English, "4"), (0.0, 0.0));
    assert_eq!(cell_at(GameKind::English, "1"), (6.0, 0.0));
    assert_eq!(cell_at(GameKind::English, "29"), (7.0, 7.0));
    // Every cell is a dark square: file + rank even.
    assert!(layout
        .cells
        .iter()
        .all(|c| ((c.x + c.y) as u32).is_multiple_of(2)));
    // Black's men fill the bottom three rows.
    for piece in game.pieces() {
        let (_, y) = cell_at(GameKind::English, &piece.cell);
        assert_eq!(piece.seat == Some(0), y < 3.0, "{}", piece.cell);
    }
}

#[test]
fn international_board_is_drawn_from_whites_side() {
    let game = new_game(Variant::standard(GameKind::International), None).unwrap();
    let layout = game.layout();
    assert_eq!(layout.cells.len(), 50);
    assert_eq!(cell_at(GameKind::International, "46"), (0.0, 0.0));
    assert_eq!(cell_at(GameKind::International, "5"), (9.0, 9.0));
    assert_eq!(cell_at(GameKind::International, "1"), (1.0, 9.0));
    assert!(layout
        .cells
        .iter()
        .all(|c| ((c.x + c.y) as u32).is_multiple_of(2)));
    for piece in game.pieces() {
        let (_, y) = cell_at(GameKind::International, &piece.cell);
        assert_eq!(piece.seat == Some(0), y < 4.0, "{}", piece.cell);
    }
}
