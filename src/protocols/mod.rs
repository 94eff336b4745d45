//! The draughts engines' protocols, so that GUIs and match tools can drive the CPU from outside:
//! [`hub`], the Hub protocol (version 2) over standard input and output; [`dxp`], DamExchange
//! over TCP for engine-against-engine games.

pub mod dxp;
pub mod hub;
