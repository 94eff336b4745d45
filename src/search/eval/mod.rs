//! One evaluation per game, each implementing [`super::searchable::Searchable`].

pub mod diagonal;
pub mod draughts;
pub mod turkish;
