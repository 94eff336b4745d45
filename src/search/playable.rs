//! A game the CPU can play, behind one object-safe trait: [`Playable`] is the rules face
//! ([`AnyGame`]) plus the CPU's decision. Every `Record<P>` of a [`Searchable`] game is one, so
//! the session layer, the CLI and the match harness hold any game as `Box<dyn Playable>` and
//! never need to know which game it is.

use super::book;
use super::context::SearchContext;
use super::levels::{self, Player};
use super::player::{self, PlayerConfig};
use super::searchable::Searchable;
use crate::describe::{Describe, MoveInfo};
use crate::position::{SetupError, Variant};
use crate::record::{AnyGame, Record};
use std::sync::atomic::AtomicBool;

/// The CPU's answer in notation, with how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub info: MoveInfo,
    /// From the mover's side, in the game's evaluation units (decisive near ±1 000 000).
    pub score: i32,
    /// Deepest completed iteration (the easy level: its scoring depth).
    pub depth: u32,
    pub nodes: u64,
    /// The level's time guard ([`super::levels::time_guard`]) stopped the search: the move then
    /// depends on the machine's speed. Node budgets are sized so that this never happens on one
    /// core.
    pub timed_out: bool,
    /// The move came from the opening book (`search::book`): no search, depth and nodes 0, the
    /// score the book's search gave.
    pub book: bool,
}

/// A game of any kind that the CPU can play. Implemented by every `Record<P: Searchable + Describe>`.
pub trait Playable: AnyGame {
    /// The move `player` plays for the seat to move, or `None` when the game is over.
    /// `games_played` is the human's count of finished games (the easy level is gentler in the
    /// first ones). Deterministic for a given game, player and seed (expert, timed, excepted);
    /// returns early when `stop` is set. Expert keeps its tables in `context` from one move to
    /// the next and reads the endgame databases and the opening books from it.
    fn decide(
        &self,
        player: Player,
        seed: u64,
        games_played: Option<u32>,
        stop: &AtomicBool,
        context: &SearchContext,
    ) -> Option<Decision> {
        let config = levels::config(self.variant(), player);
        self.decide_as(&config, seed, games_played, stop, context)
    }

    /// The move a player configured by `config` plays: [`Playable::decide`] for a configuration
    /// that is not one of the levels (the lab's yardstick players).
    fn decide_as(
        &self,
        config: &PlayerConfig,
        seed: u64,
        games_played: Option<u32>,
        stop: &AtomicBool,
        context: &SearchContext,
    ) -> Option<Decision>;

    fn clone_box(&self) -> Box<dyn Playable>;
}

/// Builds a game of a variant, from its start or from a position text: the catalogue's
/// `new_game` for the real games; tests pass their own (the match harness also takes concrete
/// games, `G`).
pub type GameFactory<'a, G = dyn Playable> =
    dyn Fn(Variant, Option<&str>) -> Result<Box<G>, SetupError> + Sync + 'a;

impl<P: Searchable + Describe> Playable for Record<P> {
    fn decide_as(
        &self,
        config: &PlayerConfig,
        seed: u64,
        games_played: Option<u32>,
        stop: &AtomicBool,
        context: &SearchContext,
    ) -> Option<Decision> {
        if config.params.book && self.outcome().is_none() {
            if let Some((mv, score)) = book::book_move(self.position(), context.books()) {
                return Some(Decision {
                    info: self.position().move_info(&mv),
                    score,
                    depth: 0,
                    nodes: 0,
                    timed_out: false,
                    book: true,
                });
            }
        }
        let choice = player::choose(self, config, seed, games_played, stop, context)?;
        Some(Decision {
            info: self.position().move_info(&choice.mv),
            score: choice.score,
            depth: choice.depth,
            nodes: choice.nodes,
            timed_out: choice.timed_out,
            book: false,
        })
    }

    fn clone_box(&self) -> Box<dyn Playable> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Playable> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
