//! PDN games: whatever is read must write a PDN that reads back as the same game (variant, start,
//! moves, position); nothing may panic.
#![no_main]

use damas::notation::pdn;
use damas::GameKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for default in [None, Some(GameKind::International), Some(GameKind::Turkish)] {
        let Ok(read) = pdn::read(text, default, damas::catalogue::new_game) else {
            continue;
        };
        let written = pdn::write(&*read.game, &[]);
        let again =
            pdn::read(&written, default, damas::catalogue::new_game).unwrap_or_else(|e| panic!("{e}: written PDN\n{written}"));
        assert_eq!(again.game.variant(), read.game.variant());
        assert_eq!(again.game.start_text(), read.game.start_text());
        assert_eq!(again.game.history(), read.game.history());
        assert_eq!(again.game.position_text(), read.game.position_text());
    }
});
