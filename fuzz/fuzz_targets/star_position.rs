//! Star position texts (Diamond Game, Capture): the header names the variant; a text accepted for
//! it must write a text that reads back as the same position; nothing may panic.
#![no_main]

use damas::catalogue::new_game;
use damas::notation::star_text;
use damas::{GameKind, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut variants: Vec<Variant> = star_text::variant_of(text).into_iter().collect();
    // Also the readers asked for a variant the header may not match.
    variants.extend(Variant::new(GameKind::Diamond, Some(3), false).ok());
    variants.extend(Variant::new(GameKind::Capture, Some(2), true).ok());
    for variant in variants {
        if let Ok(game) = new_game(variant, Some(text)) {
            let written = game.position_text();
            assert_eq!(
                star_text::variant_of(&written).ok(),
                Some(variant),
                "{written}"
            );
            let again = new_game(variant, Some(&written))
                .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
            assert_eq!(again.position_text(), written);
            assert_eq!(again.legal_moves(), game.legal_moves());
            assert_eq!(again.outcome(), game.outcome());
        }
    }
});
