//! Board shapes and the bit layouts the rules work on, independent of any one game's rules.

pub mod diagonal;
pub mod holeset;
pub mod star;
