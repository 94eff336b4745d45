//! When a search stops: a node budget (deterministic, so matches replay), a depth cap, the
//! caller's stop flag, a time guard on the thinking thread's CPU clock that only catches
//! pathological positions, and for the levels a player waits on, a cap on the wall clock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often (in nodes) the stop flag and the clock are read.
const CHECK_EVERY: u64 = 512;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Iterations up to this depth complete whatever the node budget (the stop flag still ends
    /// them): the Turkish reference CPU always sees 3 plies for each side.
    pub min_depth: u32,
    /// Nodes (positions visited, quiescence included) after which the search stops; a new
    /// iteration is not started once half of it is spent.
    pub max_nodes: u64,
    /// Safety net above the node budget's usual time, on the thinking thread's CPU clock (so a
    /// busy machine does not trip it); results stay deterministic as long as it is not reached.
    /// For a time-managed search (expert) it is the hard limit: the iteration under way is
    /// abandoned when it is reached.
    pub max_time: Duration,
    /// Time-managed search (expert): no new iteration starts once this much thinking time is
    /// spent. Expert sets it to `max_time` (a cut iteration's proven move is kept, so a late
    /// iteration is not wasted; docs/cpu.md, "Levels"). `None`: the search is node-budgeted
    /// (every other level), and an iteration cut by the budget still offers its best root move
    /// so far.
    pub soft_time: Option<Duration>,
    /// A cap on the wall clock: the search stops there even when the CPU clock has time left, so
    /// a player on a loaded machine never waits far longer than the level's time (expert's
    /// setting, hard's guard; see [`wall_cap`]). `None`: the CPU clock alone decides.
    pub wall_cap: Option<Duration>,
}

/// How much longer than its CPU-time budget a level may keep a player waiting, as a fraction.
const WALL_CAP_NUMERATOR: u32 = 3;
const WALL_CAP_DENOMINATOR: u32 = 2;

/// The wall-clock cap for a CPU-time budget: one and a half times it.
pub fn wall_cap(cpu_budget: Duration) -> Duration {
    cpu_budget * WALL_CAP_NUMERATOR / WALL_CAP_DENOMINATOR
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: depth,
            min_depth: depth,
            max_nodes: u64::MAX,
            max_time: Duration::from_secs(3600),
            soft_time: None,
            wall_cap: None,
        }
    }

    /// A time-managed search: iterations deepen until `soft` is spent, and the one under way
    /// is abandoned at `hard`.
    pub fn timed(soft: Duration, hard: Duration, max_depth: u32) -> Limits {
        Limits {
            max_depth,
            min_depth: 1,
            max_nodes: u64::MAX,
            max_time: hard,
            soft_time: Some(soft),
            wall_cap: None,
        }
    }

    /// The same limits with the wall clock capped at `cap`.
    pub fn with_wall_cap(self, cap: Duration) -> Limits {
        Limits {
            wall_cap: Some(cap),
            ..self
        }
    }

    /// Whether time, not nodes, is this search's budget.
    pub fn is_timed(&self) -> bool {
        self.soft_time.is_some()
    }

    /// Whether a search that has spent `cpu` thinking time over `wall` real time must stop: its
    /// CPU-time guard is reached, or the wall-clock cap is.
    pub fn out_of_time(&self, cpu: Duration, wall: Duration) -> bool {
        cpu >= self.max_time || self.wall_cap.is_some_and(|cap| wall >= cap)
    }

    /// Whether a time-managed search may start another iteration after `cpu` thinking time over
    /// `wall` real time (node-budgeted searches: always, as far as time goes).
    pub fn time_for_iteration(&self, cpu: Duration, wall: Duration) -> bool {
        let within_soft = self.soft_time.is_none_or(|soft| cpu < soft);
        within_soft && !self.out_of_time(cpu, wall)
    }
}

/// Counts nodes and decides when to abort.
pub struct Budget<'a> {
    limits: Limits,
    stop: &'a AtomicBool,
    started: ThinkClock,
    nodes: u64,
    /// The iteration being searched (the node budget does not cut iterations up to `min_depth`).
    depth: u32,
    aborted: bool,
    /// The abort came from `max_time`: the answer then depends on the machine's speed.
    timed_out: bool,
}

impl<'a> Budget<'a> {
    pub fn new(limits: Limits, stop: &'a AtomicBool) -> Budget<'a> {
        Budget {
            limits,
            stop,
            started: ThinkClock::start(),
            nodes: 0,
            depth: 0,
            aborted: false,
            timed_out: false,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Whether the time guard (`max_time`) has stopped the search.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    pub fn start_iteration(&mut self, depth: u32) {
        self.depth = depth;
    }

    /// Counts a node; true when the search must unwind now.
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.aborted && self.nodes.is_multiple_of(CHECK_EVERY) {
            self.timed_out = self
                .limits
                .out_of_time(self.started.elapsed(), self.started.wall_elapsed());
            self.aborted = self.stop.load(Ordering::Relaxed)
                || (self.depth > self.limits.min_depth && self.nodes >= self.limits.max_nodes)
                || self.timed_out;
        }
        self.aborted
    }

    /// Whether another iteration at `depth` may begin.
    pub fn may_start(&self, depth: u32) -> bool {
        if self.aborted || depth > self.limits.max_depth || self.stop.load(Ordering::Relaxed) {
            return false;
        }
        if self.limits.is_timed() {
            // The first iteration always runs: a timed search answers with a searched move.
            return depth <= 1
                || self
                    .limits
                    .time_for_iteration(self.started.elapsed(), self.started.wall_elapsed());
        }
        depth <= self.limits.min_depth || self.nodes < self.limits.max_nodes / 2
    }

    /// Thinking time spent so far (the thread's CPU time where the platform gives it).
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// A clock for one thread's thinking: its CPU time where the platform gives it (so a machine
/// shared with other work still measures what one free core would take), else wall time.
pub struct ThinkClock {
    wall: Instant,
    cpu: Option<Duration>,
}

impl ThinkClock {
    pub fn start() -> ThinkClock {
        ThinkClock {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    pub fn elapsed(&self) -> Duration {
        match (self.cpu, thread_cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => self.wall.elapsed(),
        }
    }

    /// Real time since the start, whatever the machine's load.
    pub fn wall_elapsed(&self) -> Duration {
        self.wall.elapsed()
    }
}

#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable timespec; the call only writes into it.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    (status == 0).then(|| Duration::new(time.tv_sec as u64, time.tv_nsec as u32))
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn the_wall_cap_is_one_and_a_half_times_the_cpu_budget() {
        assert_eq!(wall_cap(MS(2_000)), MS(3_000));
        assert_eq!(wall_cap(MS(1_000)), MS(1_500));
    }

    /// A loaded machine: little CPU time, much wall time. The cap stops the search (and no new
    /// iteration starts) once the wall clock reaches it, whatever CPU time is left.
    #[test]
    fn a_timed_search_stops_at_the_wall_cap_with_cpu_time_left() {
        let limits = Limits::timed(MS(2_000), MS(2_000), 64).with_wall_cap(wall_cap(MS(2_000)));
        assert!(!limits.out_of_time(MS(900), MS(2_999)));
        assert!(limits.time_for_iteration(MS(900), MS(2_999)));
        assert!(limits.out_of_time(MS(900), MS(3_000)));
        assert!(!limits.time_for_iteration(MS(900), MS(3_000)));
        // A free core: the CPU budget ends it first, as before.
        assert!(limits.out_of_time(MS(2_000), MS(2_010)));
        assert!(!limits.time_for_iteration(MS(2_000), MS(2_010)));
        // Without a cap only the CPU clock counts.
        let uncapped = Limits::timed(MS(2_000), MS(2_000), 64);
        assert!(!uncapped.out_of_time(MS(900), MS(60_000)));
        assert!(uncapped.time_for_iteration(MS(900), MS(60_000)));
    }

    #[test]
    fn the_budget_reads_the_wall_clock_against_the_cap() {
        let stop = AtomicBool::new(false);
        // No CPU limit in reach, a cap already passed: the first clock reading stops the search.
        let limits = Limits::depth(10).with_wall_cap(Duration::ZERO);
        let mut budget = Budget::new(limits, &stop);
        budget.start_iteration(1);
        let mut nodes = 0;
        while !budget.tick() {
            nodes += 1;
        }
        assert_eq!(nodes + 1, CHECK_EVERY);
        assert!(budget.timed_out());
        assert!(!budget.may_start(2));
    }
}
