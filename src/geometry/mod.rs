//! Board geometry: hole and square numbering, neighbour and ray tables built once.

pub mod holeset;
pub mod star;
