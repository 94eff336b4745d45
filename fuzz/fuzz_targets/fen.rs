//! Draughts FEN: the syntax reader and each draughts game's position reader. Whatever is
//! accepted must write a text that reads back as the same position; nothing may panic.
#![no_main]

use damas::catalogue::new_game;
use damas::notation::fen::{self, FenColor};
use damas::{GameKind, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(fields) = fen::parse(text) {
        // `write` puts White's list first: compare each colour's pieces in order.
        let written = fen::write(fields.to_move, &fields.pieces);
        let again = fen::parse(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(again.to_move, fields.to_move);
        for colour in [FenColor::White, FenColor::Black] {
            let of = |f: &fen::FenFields| -> Vec<fen::FenPiece> {
                f.pieces
                    .iter()
                    .filter(|p| p.color == colour)
                    .cloned()
                    .collect()
            };
            assert_eq!(of(&again), of(&fields), "{written}");
        }
    }
    for kind in [
        GameKind::English,
        GameKind::International,
        GameKind::Turkish,
    ] {
        let variant = Variant::standard(kind);
        if let Ok(game) = new_game(variant, Some(text)) {
            let written = game.position_text();
            let again = new_game(variant, Some(&written))
                .unwrap_or_else(|e| panic!("{kind:?}: {written} does not read back: {e}"));
            assert_eq!(again.position_text(), written, "{kind:?}");
            assert_eq!(again.legal_moves(), game.legal_moves(), "{kind:?}");
        }
    }
});
