//! The five games, one module each, all behind [`crate::position::Position`]. The one place that
//! picks a game by its kind is the catalogue, a layer above the search.

pub mod capture;
pub mod diagonal;
pub mod diamond;
pub mod english;
pub mod international;
mod star_zobrist;
pub mod turkish;
