//! Move ordering: the table's move, then captures, then killer moves (quiet moves that caused a
//! cut-off at the same ply), then, when asked for, the countermove (the quiet move that last
//! refuted the previous move), then quiet moves by the game's hint and history score.

/// Size of the history table; games map moves into it with `Searchable::history_key`.
pub const HISTORY_SIZE: usize = 1 << 16;
const MAX_PLY: usize = 128;

/// What the game says about a move, for ordering.
#[derive(Clone, Copy, Debug)]
pub struct MoveHints {
    pub is_tt: bool,
    pub is_capture: bool,
    pub hint: i32,
    pub history_key: usize,
    /// The countermove of the move that led to this position.
    pub is_counter: bool,
}

pub struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<u32>,
    /// Per history key of a move, the quiet reply that last cut off after it; empty when
    /// countermoves are off.
    counters: Vec<Option<M>>,
}

impl<M: Clone + PartialEq> Ordering<M> {
    pub fn new() -> Ordering<M> {
        Ordering::with_countermoves(false)
    }

    /// The ordering, with countermoves when `countermoves` (`Params::countermoves`).
    pub fn with_countermoves(countermoves: bool) -> Ordering<M> {
        Ordering {
            killers: (0..MAX_PLY).map(|_| [None, None]).collect(),
            history: vec![0; HISTORY_SIZE],
            counters: if countermoves {
                (0..HISTORY_SIZE).map(|_| None).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The countermove recorded against the move with `previous_key`, if any.
    pub fn countermove(&self, previous_key: usize) -> Option<&M> {
        self.counters.get(previous_key % HISTORY_SIZE)?.as_ref()
    }

    /// Sort key for a move (larger first): the table's move, captures (by hint), killers, then
    /// quiet moves by the game's hint and, among equal hints, by history.
    pub fn rank(&self, mv: &M, ply: usize, hints: MoveHints) -> u32 {
        const TIER: u32 = 1 << 30;
        if hints.is_tt {
            return u32::MAX;
        }
        let hint = (hints.hint + 512).clamp(0, 1023) as u32;
        if hints.is_capture {
            return 3 * TIER + hint;
        }
        if let Some(killers) = self.killers.get(ply) {
            if killers[0].as_ref() == Some(mv) {
                return 2 * TIER + 1;
            }
            if killers[1].as_ref() == Some(mv) {
                return 2 * TIER;
            }
        }
        if hints.is_counter {
            return 2 * TIER - 1;
        }
        (hint << 20) + self.history[hints.history_key % HISTORY_SIZE].min((1 << 20) - 1)
    }

    /// A quiet move refuted the position above, reached by the move with `previous_key` (`None`
    /// at the root): remember it.
    pub fn cutoff(
        &mut self,
        mv: &M,
        ply: usize,
        depth: i32,
        history_key: usize,
        previous_key: Option<usize>,
    ) {
        if let (Some(previous), false) = (previous_key, self.counters.is_empty()) {
            self.counters[previous % HISTORY_SIZE] = Some(mv.clone());
        }
        if let Some(killers) = self.killers.get_mut(ply) {
            if killers[0].as_ref() != Some(mv) {
                killers[1] = killers[0].take();
                killers[0] = Some(mv.clone());
            }
        }
        let bonus = (depth.max(1) * depth.max(1)) as u32;
        let slot = &mut self.history[history_key % HISTORY_SIZE];
        *slot = slot.saturating_add(bonus);
    }
}

impl<M: Clone + PartialEq> Default for Ordering<M> {
    fn default() -> Self {
        Ordering::new()
    }
}
