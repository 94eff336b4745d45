//! The engine's integration tests in one test binary: each file stays a module of its own
//! (rules per game, perft tables, notation, sessions, properties). One binary links and
//! instantiates the engine's generic code once instead of once per file. The CPU tests that
//! measure time (search_*) and the protocol tests that drive child processes (dxp, hub) stay
//! binaries of their own.

mod common;

#[path = "any_game_turkish.rs"]
mod any_game_turkish;
#[path = "cli.rs"]
mod cli;
#[path = "draughts_properties.rs"]
mod draughts_properties;
#[path = "layout_draughts.rs"]
mod layout_draughts;
#[path = "move_info_draughts.rs"]
mod move_info_draughts;
#[path = "move_legs.rs"]
mod move_legs;
#[path = "pdn_draughts.rs"]
mod pdn_draughts;
#[path = "perft_draughts.rs"]
mod perft_draughts;
#[path = "perft_star.rs"]
mod perft_star;
#[path = "perft_turkish.rs"]
mod perft_turkish;
#[path = "perft_variants.rs"]
mod perft_variants;
#[path = "props_turkish.rs"]
mod props_turkish;
#[path = "reference_movegen.rs"]
mod reference_movegen;
#[path = "rules_capture.rs"]
mod rules_capture;
#[path = "rules_diamond.rs"]
mod rules_diamond;
#[path = "rules_english.rs"]
mod rules_english;
#[path = "rules_international.rs"]
mod rules_international;
#[path = "rules_turkish.rs"]
mod rules_turkish;
#[path = "search_selective.rs"]
mod search_selective;
#[path = "session_games.rs"]
mod session_games;
#[path = "session_share.rs"]
mod session_share;
#[path = "star_properties.rs"]
mod star_properties;
#[path = "ui_fixtures.rs"]
mod ui_fixtures;
#[path = "view_rule_facts.rs"]
mod view_rule_facts;
