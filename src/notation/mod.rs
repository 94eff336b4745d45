//! Text formats shared by several games. Game-specific square names live with each game.

pub mod fen;
pub mod pdn;
pub mod star_text;
