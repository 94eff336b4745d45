//! PDN games: whatever is read must write a PDN that reads back as the same game (variant, start,
//! moves, position); nothing may panic. The app's import (`Session::import`, PDN and the star
//! games' record text) likewise: an imported game exports to a text that imports to the same one.
#![no_main]

use damas::notation::pdn;
use damas::session::{Mode, Session};
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
    if let Ok(imported) = Session::import("fuzz".into(), text, Mode::Local) {
        let exported = imported.export_text();
        let again = Session::import("fuzz".into(), &exported, Mode::Local)
            .unwrap_or_else(|e| panic!("{e}: exported text\n{exported}"));
        let (first, second) = (imported.to_save(), again.to_save());
        assert_eq!(second.variant, first.variant);
        assert_eq!(second.start, first.start);
        assert_eq!(second.moves, first.moves);
        assert_eq!(second.resigned, first.resigned);
        assert_eq!(again.export_text(), exported);
    }
});
