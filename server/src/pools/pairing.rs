//! One wave's pairing, a pure function of the waiting players: who plays whom, who gets the CPU.

use super::choice::PoolChoice;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The rating gap accepted in a player's first wave …
pub const BASE_GAP: u32 = 100;
/// … widened by this much for every wave they missed …
pub const GAP_PER_WAVE: u32 = 50;
/// … up to this.
pub const MAX_GAP: u32 = 1000;
/// Previous opponents remembered (one entry per player; the oldest are forgotten beyond this).
const REMEMBERED_OPPONENTS: usize = 100_000;

/// The rating gap a player accepts after missing `waves_missed` waves.
pub fn rating_limit(waves_missed: u32) -> u32 {
    BASE_GAP
        .saturating_add(GAP_PER_WAVE.saturating_mul(waves_missed))
        .min(MAX_GAP)
}

/// The CPU's level when it stands in for a player of `rating`.
pub fn cpu_level_for(rating: u32) -> &'static str {
    match rating {
        0..=999 => "easy",
        1000..=1399 => "medium",
        1400..=1799 => "hard",
        _ => "expert",
    }
}

/// One player waiting in a pool, as a wave sees them.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub player: String,
    pub rating: u32,
    pub waves_missed: u32,
    /// The opponent of this player's previous pairing, if remembered.
    pub previous_opponent: Option<String>,
}

fn compatible(a: &Candidate, b: &Candidate, others_wait: bool) -> bool {
    if a.player == b.player {
        return false;
    }
    if others_wait
        && (a.previous_opponent.as_deref() == Some(b.player.as_str())
            || b.previous_opponent.as_deref() == Some(a.player.as_str()))
    {
        return false;
    }
    let gap = a.rating.abs_diff(b.rating);
    gap <= rating_limit(a.waves_missed).min(rating_limit(b.waves_missed))
}

/// One wave: the pairs (indices into `waiting`) to make. Sorted by rating, a player is paired
/// with a neighbour: the matching pairs as many players as it can, then with the smallest sum of
/// gaps (dynamic programming over the sorted list).
pub fn pair_wave(waiting: &[Candidate]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&i| {
        (
            waiting[i].rating,
            std::cmp::Reverse(waiting[i].waves_missed),
        )
    });
    let others_wait = waiting.len() > 2;
    let n = order.len();
    // best[i]: (pairs, -gaps) over the first i players of `order`, and whether player i-1 is
    // paired with i-2.
    let mut best: Vec<(usize, i64, bool)> = vec![(0, 0, false); n + 1];
    for i in 1..=n {
        best[i] = (best[i - 1].0, best[i - 1].1, false);
        if i >= 2 {
            let (a, b) = (&waiting[order[i - 2]], &waiting[order[i - 1]]);
            if compatible(a, b, others_wait) {
                let gap = i64::from(a.rating.abs_diff(b.rating));
                let candidate = (best[i - 2].0 + 1, best[i - 2].1 - gap);
                if (candidate.0, candidate.1) > (best[i].0, best[i].1) {
                    best[i] = (candidate.0, candidate.1, true);
                }
            }
        }
    }
    let mut pairs = Vec::new();
    let mut i = n;
    while i >= 2 {
        if best[i].2 {
            pairs.push((order[i - 2], order[i - 1]));
            i -= 2;
        } else {
            i -= 1;
        }
    }
    pairs.reverse();
    pairs
}

/// with the player's connection: only its hash is here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingEntry {
    /// Random, unique across instances.
    pub id: String,
    /// The instance holding the player's connection (where the pairing is told).
    pub instance: String,
    pub choice: PoolChoice,
    pub player: String,
    pub account: Option<String>,
    pub rating: u32,
    pub nickname: String,
    pub token_hash: String,
    pub joined_at: u64,
    pub waves_missed: u32,
}

/// What a wave decided for one pool.
pub enum Decision {
    Pair(WaitingEntry, WaitingEntry),
    Cpu(WaitingEntry),
}

/// One wave over one pool's players at `now`: the pairs, the CPU for those who waited
/// `cpu_after_ms`, and the rest (one more wave missed each).
pub fn decide_pool(
    entries: Vec<WaitingEntry>,
    previous_opponent: impl Fn(&str) -> Option<String>,
    now: u64,
    cpu_after_ms: u64,
) -> (Vec<Decision>, Vec<WaitingEntry>) {
    let candidates: Vec<Candidate> = entries
        .iter()
        .map(|e| Candidate {
            player: e.player.clone(),
            rating: e.rating,
            waves_missed: e.waves_missed,
            previous_opponent: previous_opponent(&e.player),
        })
        .collect();
    let pairs = pair_wave(&candidates);
    let mut taken: Vec<Option<WaitingEntry>> = entries.into_iter().map(Some).collect();
    let mut decisions = Vec::new();
    for (a, b) in pairs {
        if let (Some(a), Some(b)) = (taken[a].take(), taken[b].take()) {
            decisions.push(Decision::Pair(a, b));
        }
    }
    let mut rest = Vec::new();
    for mut entry in taken.into_iter().flatten() {
        if now.saturating_sub(entry.joined_at) >= cpu_after_ms {
            decisions.push(Decision::Cpu(entry));
        } else {
            entry.waves_missed += 1;
            rest.push(entry);
        }
    }
    (decisions, rest)
}

pub fn remember_opponents(previous: &mut HashMap<String, String>, decisions: &[Decision]) {
    for decision in decisions {
        if let Decision::Pair(a, b) = decision {
            if previous.len() >= REMEMBERED_OPPONENTS {
                previous.clear();
            }
            previous.insert(a.player.clone(), b.player.clone());
            previous.insert(b.player.clone(), a.player.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clocks::ENGLISH_DEFAULT;
    use crate::pools::choice::{pool_clock, DEFAULT_RATING, LONG_DRAUGHTS_CLOCK};

    fn candidate(player: &str, rating: u32, waves_missed: u32) -> Candidate {
        Candidate {
            player: player.into(),
            rating,
            waves_missed,
            previous_opponent: None,
        }
    }

    fn players(pairs: &[(usize, usize)], waiting: &[Candidate]) -> Vec<(String, String)> {
        let mut named: Vec<(String, String)> = pairs
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (waiting[a].player.clone(), waiting[b].player.clone());
                if a < b {
                    (a, b)
                } else {
                    (b, a)
                }
            })
            .collect();
        named.sort();
        named
    }

    #[test]
    fn nearest_ratings_are_paired_within_limits_that_widen() {
        // Sorted: a 1200, b 1210, c 1290, d 1300: a-b and c-d (gaps 10 + 10), not b-c.
        let waiting = vec![
            candidate("c", 1290, 0),
            candidate("a", 1200, 0),
            candidate("d", 1300, 0),
            candidate("b", 1210, 0),
        ];
        assert_eq!(
            players(&pair_wave(&waiting), &waiting),
            vec![("a".into(), "b".into()), ("c".into(), "d".into())]
        );
        // 300 apart: not in the first wave; after 4 missed waves both accept 300.
        let far = vec![candidate("a", 1200, 0), candidate("b", 1500, 0)];
        assert!(pair_wave(&far).is_empty());
        let far = vec![candidate("a", 1200, 4), candidate("b", 1500, 3)];
        assert!(pair_wave(&far).is_empty(), "the stricter limit holds");
        let far = vec![candidate("a", 1200, 4), candidate("b", 1500, 4)];
        assert_eq!(pair_wave(&far).len(), 1);
        assert_eq!(rating_limit(0), 100);
        assert_eq!(rating_limit(4), 300);
        assert_eq!(rating_limit(1000), MAX_GAP);
    }

    #[test]
    fn never_oneself_and_not_the_previous_opponent_when_others_wait() {
        let same = vec![candidate("x", 1200, 0), candidate("x", 1200, 0)];
        assert!(pair_wave(&same).is_empty());
        let mut a = candidate("a", 1200, 0);
        a.previous_opponent = Some("b".into());
        let b = candidate("b", 1201, 0);
        let c = candidate("c", 1250, 0);
        // Alone together they may meet again …
        assert_eq!(pair_wave(&[a.clone(), b.clone()]).len(), 1);
        // … but with someone else waiting, not: b meets c (gap 49), a waits.
        let waiting = vec![a.clone(), b, c];
        assert_eq!(
            players(&pair_wave(&waiting), &waiting),
            vec![("b".into(), "c".into())]
        );
        // The one still waiting with a newcomer of their own level is paired next wave.
        a.waves_missed = 1;
        let waiting = vec![a, candidate("d", 1190, 0)];
        assert_eq!(pair_wave(&waiting), vec![(1, 0)]);
    }

    #[test]
    fn as_many_pairs_as_possible_then_smallest_gaps() {
        // 1200, 1250, 1290, 1340: a-b + c-d (50 + 50) pairs all four; b-c (40) would leave two.
        let waiting = vec![
            candidate("a", 1200, 0),
            candidate("b", 1250, 0),
            candidate("c", 1290, 0),
            candidate("d", 1340, 0),
        ];
        assert_eq!(pair_wave(&waiting).len(), 2);
    }

    #[test]
    fn cpu_levels_and_clocks() {
        assert_eq!(cpu_level_for(DEFAULT_RATING), "medium");
        assert_eq!(cpu_level_for(900), "easy");
        assert_eq!(cpu_level_for(1500), "hard");
        assert_eq!(cpu_level_for(2000), "expert");
        assert_eq!(pool_clock("english"), Some(ENGLISH_DEFAULT));
        assert_eq!(pool_clock("international"), Some(LONG_DRAUGHTS_CLOCK));
        assert_eq!(pool_clock("chess"), None);
        let bad = PoolChoice {
            kind: "chess".into(),
            rated: false,
        };
        assert_eq!(bad.check().unwrap_err().code(), "bad_pool");
    }
}
