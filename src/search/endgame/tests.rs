//! Tests of the endgame databases.
