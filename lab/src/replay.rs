//! Replaying a game of a match to learn from it: the quiet positions it went through and its
//! result, shared by the classic tuner and the pattern trainer.

use damas::search::searchable::Searchable;
use damas::{Describe, GameResult, MoveError, Record};

/// A move of a recorded game that does not replay.
#[derive(Debug)]
pub struct BadMove {
    pub text: String,
    pub source: MoveError,
}

/// A game's result for seat 0: 1 a win, ½ a draw, 0 a loss.
pub fn result_for_seat0(result: GameResult) -> f64 {
    match result {
        GameResult::Win(0) => 1.0,
        GameResult::Win(_) => 0.0,
        GameResult::Draw => 0.5,
    }
}

/// `sample` of each quiet position (the side to move has no capture) that replaying `moves`
/// from `start` meets before each move from ply `skip` on (the random opening teaches nothing).
pub fn quiet_positions<P: Searchable + Describe + Clone, S>(
    start: &P,
    moves: &[String],
    skip: usize,
    mut sample: impl FnMut(&P) -> S,
) -> Result<Vec<S>, BadMove> {
    let mut record = Record::new(start.clone());
    let mut samples = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let position = record.position();
        if ply >= skip && !position.may_capture() {
            samples.push(sample(position));
        }
        record.play_text(text).map_err(|source| BadMove {
            text: text.clone(),
            source,
        })?;
    }
    Ok(samples)
}
