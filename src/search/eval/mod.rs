//! One evaluation per game, each implementing [`super::searchable::Searchable`].

pub mod capture;
pub mod capture_shares;
pub mod diagonal;
pub mod diamond;
pub mod draughts;
pub mod patterns;
pub mod turkish;
