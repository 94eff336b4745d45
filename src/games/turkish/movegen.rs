//! Turkish move generation on bitboards.
//!
//! Rules enforced here (docs/rules.md, "Turkish draughts"):
//! - men step one square forward or sideways to an empty square, and capture the same way by
//!   jumping an adjacent enemy piece to the empty square right behind it (§T2, §T3);
//! - kings slide like rooks and capture from distance: the first piece on a line, with only empty
//!   squares before it, must be an enemy with at least one empty square beyond; the king lands on
//!   any of the empty squares beyond it (§T4);
//! - capturing is mandatory and only the longest captures are legal, a king counting as one
//!   piece (§T5);
//! - a jumped piece leaves the board at once, so its square is free (and may open a new line)
//!   for the rest of the move; the capturing piece's own start square is free as well (§T6);
//! - the capturing piece never reverses 180° between two jumps; 90° turns are fine (§T7);
//! - a man stays a man for the whole capture even when it passes the last row; crowning is
//!   decided by where the move ends, in [`super::Turkish::play`] (§T8).
//!
//! Strategy: a bitwise test says whether any capture exists; if none, quiet moves come straight
//! from shifted bitboards. Otherwise a depth-first walk from every piece collects the longest
//! sequences, dropping shorter ones as soon as a longer one appears. A move is identified by
//! (from, to, captured set); different paths to the same triple are one move, and the first path
//! found is kept for display. [`generate_paths`] keeps every path (kish's perft counts them).

use super::squares::{
    bit, nearest, rook_reach, squares, Bitboard, Dir, FILE_A, FILE_H, NEIGHBOUR, NONE, RAY,
};

/// At most 16 jumps: a side has at most 16 pieces (checked when a position is read).
pub const MAX_JUMPS: usize = 16;

/// A legal move: start, end, the set of captured squares and one representative landing path.
///
/// Equality is the move's identity, (from, to, captured set); the path is not compared.
#[derive(Clone, Copy, Debug)]
pub struct TurkishMove {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) jumps: u8,
    pub(crate) captured: Bitboard,
    /// Landing squares of the jumps, `landings[..jumps]`; the last one is `to`.
    pub(crate) landings: [u8; MAX_JUMPS],
}

impl PartialEq for TurkishMove {
    fn eq(&self, other: &Self) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl Eq for TurkishMove {}

impl TurkishMove {
    fn step(from: u8, to: u8) -> TurkishMove {
        TurkishMove {
            from,
            to,
            jumps: 0,
            captured: 0,
            landings: [0; MAX_JUMPS],
        }
    }

    pub fn from(&self) -> u8 {
        self.from
    }

    pub fn to(&self) -> u8 {
        self.to
    }

    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The landing squares after `from`, in order (empty for a step).
    pub fn landings(&self) -> &[u8] {
        &self.landings[..usize::from(self.jumps)]
    }
}

/// The pieces as the side to move sees them.
#[derive(Clone, Copy, Debug)]
pub struct Sides {
    pub own: Bitboard,
    pub opp: Bitboard,
    pub kings: Bitboard,
    /// White moves north, Black south.
    pub white: bool,
}

impl Sides {
    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.own | self.opp
    }

    #[inline(always)]
    fn forward(&self) -> Dir {
        if self.white {
            Dir::North
        } else {
            Dir::South
        }
    }

    /// The set shifted one row forward for the side to move (squares leaving the board drop).
    #[inline(always)]
    fn forward_shift(&self, set: Bitboard) -> Bitboard {
        if self.white {
            set << 8
        } else {
            set >> 8
        }
    }
}

/// Whether the side to move has any capture.
#[inline]
pub fn has_capture(s: &Sides) -> bool {
    let empty = !s.occupied();
    let men = s.own & !s.kings;
    // Men: an adjacent enemy with an empty square behind it; the file masks keep both the victim
    // and the landing on the board.
    let forward = s.forward_shift(s.forward_shift(men) & s.opp) & empty;
    let east = ((((men & !FILE_H) << 1) & s.opp & !FILE_H) << 1) & empty;
    let west = ((((men & !FILE_A) >> 1) & s.opp & !FILE_A) >> 1) & empty;
    if forward | east | west != 0 {
        return true;
    }
    let occupied = s.occupied();
    squares(s.own & s.kings).any(|king| {
        Dir::ALL.into_iter().any(|dir| {
            let blockers = RAY[dir as usize][king as usize] & occupied;
            if blockers == 0 {
                return false;
            }
            let first = nearest(dir, blockers);
            let behind = NEIGHBOUR[dir as usize][first as usize];
            s.opp & bit(first) != 0 && behind != NONE && occupied & bit(behind) == 0
        })
    })
}

/// Number of quiet moves (valid only when there is no capture).
#[inline]
pub fn count_quiet(s: &Sides) -> u64 {
    let occupied = s.occupied();
    let empty = !occupied;
    let men = s.own & !s.kings;
    let mut count = (s.forward_shift(men) & empty).count_ones()
        + (((men & !FILE_H) << 1) & empty).count_ones()
        + (((men & !FILE_A) >> 1) & empty).count_ones();
    for king in squares(s.own & s.kings) {
        count += rook_reach(king, occupied).count_ones();
    }
    u64::from(count)
}

/// Quiet moves, appended to `out` (valid only when there is no capture).
pub fn quiet_moves(s: &Sides, out: &mut Vec<TurkishMove>) {
    // One allocation instead of several doublings: the count is a few popcounts.
    out.reserve(count_quiet(s) as usize);
    let occupied = s.occupied();
    let empty = !occupied;
    let men = s.own & !s.kings;
    let forward = s.forward();
    for to in squares(s.forward_shift(men) & empty) {
        out.push(TurkishMove::step(
            NEIGHBOUR[forward.reverse() as usize][to as usize],
            to,
        ));
    }
    for to in squares(((men & !FILE_H) << 1) & empty) {
        out.push(TurkishMove::step(to - 1, to));
    }
    for to in squares(((men & !FILE_A) >> 1) & empty) {
        out.push(TurkishMove::step(to + 1, to));
    }
    for king in squares(s.own & s.kings) {
        for to in squares(rook_reach(king, occupied)) {
            out.push(TurkishMove::step(king, to));
        }
    }
}

/// Legal moves, appended to `out`: the longest captures (one per (from, to, captured set)) if
/// any capture exists, else every quiet move.
pub fn legal_moves(s: &Sides, out: &mut Vec<TurkishMove>) {
    let base = out.len();
    if has_capture(s) {
        captures(s, out);
        dedupe(out, base);
    } else {
        quiet_moves(s, out);
    }
}

/// Like [`legal_moves`] but every capture path is kept, even when several give the same move.
pub fn generate_paths(s: &Sides, out: &mut Vec<TurkishMove>) {
    if has_capture(s) {
        captures(s, out);
    } else {
        quiet_moves(s, out);
    }
}

/// Number of legal moves (unique (from, to, captured set)).
pub fn count_moves(s: &Sides) -> u64 {
    if has_capture(s) {
        let mut out = Vec::with_capacity(32);
        legal_moves(s, &mut out);
        out.len() as u64
    } else {
        count_quiet(s)
    }
}

/// Drops repeated moves after `base`, keeping the first path of each.
fn dedupe(out: &mut Vec<TurkishMove>, base: usize) {
    let mut kept = base;
    for i in base..out.len() {
        let mv = out[i];
        if !out[base..kept].contains(&mv) {
            out[kept] = mv;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Appends every longest capture path of the side to move (there must be at least one capture).
fn captures(s: &Sides, out: &mut Vec<TurkishMove>) {
    let mut walk = CaptureWalk {
        base: out.len(),
        out,
        best: 0,
        from: 0,
        landings: [0; MAX_JUMPS],
        forward: s.forward(),
    };
    let occupied = s.occupied();
    for from in squares(s.own) {
        walk.from = from;
        // The mover's start square is free while it captures.
        let occupied = occupied & !bit(from);
        if s.kings & bit(from) != 0 {
            walk.king(from, occupied, s.opp, 0, 0, None);
        } else {
            walk.man(from, occupied, s.opp, 0, 0, None);
        }
    }
}

/// Depth-first search of capture sequences from one piece.
struct CaptureWalk<'a> {
    out: &'a mut Vec<TurkishMove>,
    /// Where this search's captures start in `out`.
    base: usize,
    /// Longest sequence found so far (jumps).
    best: u8,
    from: u8,
    landings: [u8; MAX_JUMPS],
    forward: Dir,
}

impl CaptureWalk<'_> {
    /// A sequence that cannot continue ends at `sq` after `depth` jumps.
    #[inline]
    fn finish(&mut self, sq: u8, captured: Bitboard, depth: u8) {
        if depth < self.best || depth == 0 {
            return;
        }
        if depth > self.best {
            self.out.truncate(self.base);
            self.best = depth;
        }
        self.out.push(TurkishMove {
            from: self.from,
            to: sq,
            jumps: depth,
            captured,
            landings: self.landings,
        });
    }

    fn man(
        &mut self,
        sq: u8,
        occupied: Bitboard,
        opp: Bitboard,
        captured: Bitboard,
        depth: u8,
        last: Option<Dir>,
    ) {
        let mut continued = false;
        for dir in [self.forward, Dir::East, Dir::West] {
            // A man can never reverse anyway (the square it would jump was just emptied), but
            // the rule is stated once for both kinds of piece.
            if last == Some(dir.reverse()) {
                continue;
            }
            let victim = NEIGHBOUR[dir as usize][sq as usize];
            if victim == NONE || opp & bit(victim) == 0 {
                continue;
            }
            let landing = NEIGHBOUR[dir as usize][victim as usize];
            if landing == NONE || occupied & bit(landing) != 0 {
                continue;
            }
            continued = true;
            self.landings[usize::from(depth)] = landing;
            self.man(
                landing,
                occupied & !bit(victim),
                opp & !bit(victim),
                captured | bit(victim),
                depth + 1,
                Some(dir),
            );
        }
        if !continued {
            self.finish(sq, captured, depth);
        }
    }

    fn king(
        &mut self,
        sq: u8,
        occupied: Bitboard,
        opp: Bitboard,
        captured: Bitboard,
        depth: u8,
        last: Option<Dir>,
    ) {
        let mut continued = false;
        for dir in Dir::ALL {
            if last == Some(dir.reverse()) {
                continue;
            }
            let blockers = RAY[dir as usize][sq as usize] & occupied;
            if blockers == 0 {
                continue;
            }
            let victim = nearest(dir, blockers);
            if opp & bit(victim) == 0 {
                continue;
            }
            let beyond = RAY[dir as usize][victim as usize];
            let stop = beyond & occupied;
            let landings = if stop == 0 {
                beyond
            } else {
                let wall = nearest(dir, stop);
                beyond & !RAY[dir as usize][wall as usize] & !bit(wall)
            };
            for landing in squares(landings) {
                continued = true;
                self.landings[usize::from(depth)] = landing;
                self.king(
                    landing,
                    occupied & !bit(victim),
                    opp & !bit(victim),
                    captured | bit(victim),
                    depth + 1,
                    Some(dir),
                );
            }
        }
        if !continued {
            self.finish(sq, captured, depth);
        }
    }
}
