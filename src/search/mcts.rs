//! Monte-Carlo tree search for three or more seats ([`MultiPlayer::MonteCarlo`]).
//!
//! UCT with max^n backups: every node sums each seat's playout rewards
//! ([`Searchable::playout_rewards`], in 0..=1), and the seat to move at a node picks the child
//! best for itself: its own mean reward plus the UCB1 exploration term. Nobody is assumed to
//! gang up on the root seat (the paranoid search's error in the capture game, docs/cpu.md), and
//! the rewards are the game's result itself (or an estimate of it), not an evaluation's margin.
//!
//! Progressive widening: a node offers its moves in the game's hint order (capture game:
//! longest chains first), one more each time `1 + WIDENING * sqrt(visits)` grows, so a few
//! thousand playouts are not spread thin over hundreds of chains. A node is expanded (its moves
//! generated) on its second visit; its first is scored: by the game's learned estimate of each
//! seat's share of the win where it has one ([`Searchable::leaf_rewards`]: the capture game with
//! three seats), else by a playout that follows the game's [`Searchable::playout_move`].
//!
//! Every ply played, in the tree and in playouts, counts as one node of the budget ([`Budget`]),
//! and a leaf estimate as [`LEAF_ESTIMATE_NODES`]: with a node budget and a seed the search
//! replays exactly; the stop flag and the time guard cut it as they cut alpha-beta, and an
//! iteration cut half-way is not counted. The move played is the root child visited most (ties:
//! the higher mean).

use super::limits::Budget;
use super::params::{Found, Params};
use super::searchable::{Rewards, Searchable};
use crate::position::Seat;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::cmp::Reverse;
use std::sync::atomic::AtomicBool;

/// UCB1's exploration constant, for rewards in 0..=1.
const EXPLORATION: f32 = 0.5;
/// Children a node offers: `1 + WIDENING * sqrt(visits)`.
const WIDENING: f32 = 1.0;
/// Moves a node keeps ready for its next children (see [`Node::pending`]).
const PENDING: usize = 8;
/// Plies a playout may last before it is scored as it stands (every real game ends sooner: the
/// capture game within 60 plies).
const MAX_PLAYOUT: usize = 1_000;
/// Nodes of the budget a leaf estimate costs ([`Searchable::leaf_rewards`]): the capture game's
/// estimate walks the leaf's chains once, about the time of four playout plies.
const LEAF_ESTIMATE_NODES: u32 = 4;

/// One position of the tree, reached by `mv` from its parent.
struct Node<M> {
    mv: Option<M>,
    /// Indices of the children made so far, in hint order.
    children: Vec<u32>,
    /// How many moves the position has, once expanded (`None` before its second visit).
    move_count: Option<usize>,
    /// The next moves to make children of, in hint order, last first: at most [`PENDING`] are
    /// kept, and regenerated when used up, so a big tree holds no full move lists.
    pending: Vec<M>,
    visits: u32,
    /// Sum of each seat's rewards over the playouts through this node.
    rewards: Rewards,
}

impl<M> Node<M> {
    fn new(mv: Option<M>) -> Node<M> {
        Node {
            mv,
            children: Vec::new(),
            move_count: None,
            pending: Vec::new(),
            visits: 0,
            rewards: Rewards::default(),
        }
    }

    fn mean(&self, seat: Seat) -> f32 {
        self.rewards[usize::from(seat)] / self.visits.max(1) as f32
    }
}

/// The tree and what a search carries between iterations.
struct Tree<'a, M> {
    nodes: Vec<Node<M>>,
    budget: Budget<'a>,
    rng: SmallRng,
    scratch: Vec<M>,
}

/// The best move for the seat to move by Monte-Carlo tree search, or `None` when it has none.
pub fn search<P: Searchable>(
    position: &P,
    params: &Params,
    stop: &AtomicBool,
) -> Option<Found<P::Move>> {
    let mut tree = Tree {
        nodes: vec![Node::new(None)],
        budget: Budget::new(params.limits, stop),
        rng: SmallRng::seed_from_u64(params.seed),
        scratch: Vec::new(),
    };
    // The node budget cuts only iterations past `min_depth`: every iteration counts as deep.
    tree.budget.start_iteration(u32::MAX);
    tree.expand(0, position);
    let first = tree.nodes[0].pending.last()?.clone();
    if tree.nodes[0].move_count > Some(1) {
        while !tree.budget.aborted() {
            tree.iterate(position);
        }
    }
    let root = &tree.nodes[0];
    let seat = position.to_move();
    let best = root
        .children
        .iter()
        .map(|&i| &tree.nodes[i as usize])
        .max_by(|a, b| {
            (a.visits, a.mean(seat))
                .partial_cmp(&(b.visits, b.mean(seat)))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    let share = 1.0 / position.seats() as f32;
    Some(Found {
        best: best.and_then(|node| node.mv.clone()).unwrap_or(first),
        // Thousandths of a game above an equal share, from the root seat's side.
        score: best.map_or(0, |node| {
            ((node.mean(seat) - share) * 1000.0).round() as i32
        }),
        depth: tree.principal_depth(),
        nodes: tree.budget.nodes(),
        timed_out: tree.budget.timed_out(),
    })
}

impl<M: Clone> Tree<'_, M> {
    /// Generates the moves of `node`, whose position is `position`, in hint order (stable: ties
    /// keep the game's move order, so the search replays), and keeps the [`PENDING`] that follow
    /// its children so far.
    fn expand<P: Searchable<Move = M>>(&mut self, node: usize, position: &P) {
        position.legal_moves(&mut self.scratch);
        self.scratch
            .sort_by_key(|mv| Reverse(position.order_hint(mv)));
        let node = &mut self.nodes[node];
        let made = node.children.len();
        node.move_count = Some(self.scratch.len());
        node.pending.clear();
        node.pending
            .extend(self.scratch.iter().skip(made).take(PENDING).rev().cloned());
    }

    /// One playout: down the tree to a node not yet visited (or a finished game), a playout
    /// from there, and its rewards added along the way. A budget cut drops the iteration.
    fn iterate<P: Searchable<Move = M>>(&mut self, root: &P) {
        let mut position = root.clone();
        let mut path = vec![0usize];
        let mut node = 0;
        loop {
            if self.nodes[node].move_count.is_none() {
                if self.nodes[node].visits == 0 {
                    break;
                }
                self.expand(node, &position);
            }
            let Some(next) = self.select(node, &position) else {
                break; // no moves: the game is over here
            };
            if let Some(mv) = &self.nodes[next].mv {
                position.play(mv);
            }
            path.push(next);
            node = next;
            if self.budget.tick() {
                return;
            }
        }
        let Some(rewards) = self.leaf(position) else {
            return;
        };
        for &index in &path {
            let node = &mut self.nodes[index];
            node.visits += 1;
            for (sum, reward) in node.rewards.iter_mut().zip(rewards) {
                *sum += reward;
            }
        }
    }

    /// The child of `node` (whose position is `position`) that the seat to move there tries
    /// next: a new one while widening allows, else the best by UCB1. `None` when the node has
    /// no moves.
    fn select<P: Searchable<Move = M>>(&mut self, node: usize, position: &P) -> Option<usize> {
        let seat = position.to_move();
        let parent = &self.nodes[node];
        let count = parent.move_count?;
        let offered = 1 + (WIDENING * (parent.visits as f32).sqrt()) as usize;
        let made = parent.children.len();
        if made < offered.min(count) {
            if parent.pending.is_empty() {
                self.expand(node, position);
            }
            let mv = self.nodes[node].pending.pop()?;
            let child = self.nodes.len();
            self.nodes.push(Node::new(Some(mv)));
            self.nodes[node].children.push(child as u32);
            return Some(child);
        }
        let parent = &self.nodes[node];
        let log_visits = (parent.visits.max(1) as f32).ln();
        let nodes = &self.nodes;
        parent
            .children
            .iter()
            .map(|&i| i as usize)
            .max_by(|&a, &b| {
                let ucb = |i: usize| {
                    let child = &nodes[i];
                    let visits = child.visits.max(1) as f32;
                    child.mean(seat) + EXPLORATION * (log_visits / visits).sqrt()
                };
                ucb(a)
                    .partial_cmp(&ucb(b))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    // Equal values: the earlier child (better hint) wins.
                    .then(b.cmp(&a))
            })
    }

    /// The rewards of a new leaf: the game's own estimate where it has one
    /// ([`Searchable::leaf_rewards`], charged [`LEAF_ESTIMATE_NODES`]) and the game is not over,
    /// else a playout. `None` if the budget cut it.
    fn leaf<P: Searchable<Move = M>>(&mut self, position: P) -> Option<Rewards> {
        if position.outcome().is_none() {
            if let Some(rewards) = position.leaf_rewards() {
                for _ in 0..LEAF_ESTIMATE_NODES {
                    if self.budget.tick() {
                        return None;
                    }
                }
                return Some(rewards);
            }
        }
        self.playout(position)
    }

    /// Plays the game's playout policy to the end; `None` if the budget cut it.
    fn playout<P: Searchable<Move = M>>(&mut self, mut position: P) -> Option<Rewards> {
        for _ in 0..MAX_PLAYOUT {
            let Some(mv) = position.playout_move(&mut self.rng, &mut self.scratch) else {
                break;
            };
            position.play(&mv);
            if self.budget.tick() {
                return None;
            }
        }
        Some(position.playout_rewards())
    }

    /// Length of the line of most-visited children from the root.
    fn principal_depth(&self) -> u32 {
        let mut depth = 0;
        let mut node = &self.nodes[0];
        while let Some(child) = node
            .children
            .iter()
            .map(|&i| &self.nodes[i as usize])
            .filter(|child| child.visits > 0)
            .max_by_key(|child| child.visits)
        {
            depth += 1;
            node = child;
        }
        depth
    }
}
