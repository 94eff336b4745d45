//! When a search stops: a node budget (deterministic, so matches replay), a depth cap, the
//! caller's stop flag, and a wall-clock guard that only catches pathological positions.

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
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: depth,
            min_depth: depth,
            max_nodes: u64::MAX,
            max_time: Duration::from_secs(3600),
            soft_time: None,
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
        }
    }

    /// Whether time, not nodes, is this search's budget.
    pub fn is_timed(&self) -> bool {
        self.soft_time.is_some()
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
            self.timed_out = self.started.elapsed() >= self.limits.max_time;
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
        if let Some(soft) = self.limits.soft_time {
            // The first iteration always runs: a timed search answers with a searched move.
            return depth <= 1 || self.started.elapsed() < soft;
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
