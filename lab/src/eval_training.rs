//! The trainer of English checkers' learned pattern evaluation (`src/search/eval/patterns.rs`):
//! logistic regression of recorded games' results on the pattern weights, on top of the tuned
//! hand-written evaluation.
//!
//! The games come from files of `damas-lab selfplay --record`; every quiet position (the side
//! to move has no capture) past the random opening is a sample labelled with its game's result
//! for seat 0 (1, ½ or 0). The model is `sigmoid(scale · (tuned + patterns))`, `tuned` being the
//! evaluation hard and expert play today (material, advancement, back rank, ...) for seat 0, held
//! fixed, and `patterns` seat 0's view's weights minus seat 1's ([`PatternWeights::value`]). The
//! scale is fitted first to the tuned evaluation alone (golden-section search on the log loss),
//! then the pattern weights, from 0, by full-batch Adam on the mean log loss plus a ridge, for a
//! set number of epochs, and rounded to whole hundredths of a man. Every tenth game is held
//! out and its loss reported, so an over-fitted set of weights shows. The seed picks which
//! training positions are used when there are more than asked for; the same files, options and
//! seed give the same bytes.

use crate::replay::{quiet_positions, result_for_seat0, BadMove};
use crate::report::{read_record, BadRecordLine};
use damas::games::english::English;
use damas::search::eval::diagonal::{english_features, english_pattern_layout};
use damas::search::eval::draughts::combine;
use damas::search::eval::patterns::{PatternWeights, GAME_ENGLISH, PATTERNS, WEIGHT_COUNT};
use damas::search::searchable::EvalStyle;
use damas::{GameResult, MoveError, Position};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum TrainError {
    #[error(transparent)]
    RecordLine(#[from] BadRecordLine),
    #[error("line {line} of the games file is a game of {seats} seats, not two")]
    RecordSeats { line: usize, seats: usize },
    #[error("replaying game {game}, move '{text}': {source}")]
    Replay {
        game: usize,
        text: String,
        source: MoveError,
    },
    #[error("the games gave no quiet position to learn from")]
    NoSamples,
    #[error("the learned evaluation is trained for english only so far")]
    Game,
}

/// One recorded game: how it ended and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    pub result: GameResult,
    pub moves: Vec<String>,
}

/// The games of a file written by `damas-lab selfplay --record` (one a line: number, players,
/// result, ending, plies, moves), each of two seats.
pub fn games_of_record(text: &str) -> Result<Vec<RecordedGame>, TrainError> {
    read_record(text)?
        .into_iter()
        .map(|game| match game.seats {
            2 => Ok(RecordedGame {
                result: game.result,
                moves: game.moves,
            }),
            seats => Err(TrainError::RecordSeats {
                line: game.line,
                seats,
            }),
        })
        .collect()
}

/// One quiet position: the tuned evaluation for seat 0, the windows as each seat sees them, and
/// its game's result for seat 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub tuned: f32,
    pub views: [[u16; PATTERNS]; 2],
    pub result: f32,
}

impl Sample {
    pub fn of(position: &English, result: f32) -> Sample {
        let layout = english_pattern_layout();
        let pieces = position.board().pieces;
        let tuned = combine(
            &english_features(position),
            0,
            EvalStyle::Full,
            damas::search::eval::diagonal::weights(false, EvalStyle::Full),
        );
        Sample {
            tuned: tuned as f32,
            views: [
                layout.indices(0, pieces[0], pieces[1]),
                layout.indices(1, pieces[1], pieces[0]),
            ],
            result,
        }
    }

    fn value(&self, weights: &[f64]) -> f64 {
        let sum = |view: &[u16; PATTERNS]| -> f64 {
            view.iter().map(|&index| weights[usize::from(index)]).sum()
        };
        f64::from(self.tuned) + sum(&self.views[0]) - sum(&self.views[1])
    }
}

/// The quiet positions of `game` (number `index`, from 1) from ply `skip` on.
pub fn samples_of_game(
    start: &English,
    game: &RecordedGame,
    index: usize,
    skip: usize,
) -> Result<Vec<Sample>, TrainError> {
    let result = result_for_seat0(game.result) as f32;
    quiet_positions(start, &game.moves, skip, |position| {
        Sample::of(position, result)
    })
    .map_err(|BadMove { text, source }| TrainError::Replay {
        game: index,
        text,
        source,
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log loss of `weights` (pattern weights; `None`: all 0) at `scale`.
pub fn log_loss(samples: &[Sample], weights: Option<&[f64]>, scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let zero = vec![0.0; WEIGHT_COUNT];
    let weights = weights.unwrap_or(&zero);
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let p = sigmoid(scale * sample.value(weights)).clamp(1e-12, 1.0 - 1e-12);
            let y = f64::from(sample.result);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// The scale that fits the tuned evaluation alone best.
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let (mut low, mut high) = (1e-5_f64, 0.1_f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if log_loss(samples, None, a) < log_loss(samples, None, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    pub epochs: u32,
    /// Adam's step, in hundredths of a man.
    pub rate: f64,
    /// Ridge on each weight (added to the mean log loss as `ridge · w² / 2`).
    pub ridge: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 300,
            rate: 1.0,
            ridge: 1e-6,
        }
    }
}

/// Full-batch Adam from 0 at a fixed `scale`; the weights in hundredths of a man.
pub fn fit(samples: &[Sample], scale: f64, options: FitOptions) -> Vec<f64> {
    let mut weights = vec![0.0; WEIGHT_COUNT];
    let mut first = vec![0.0; WEIGHT_COUNT];
    let mut second = vec![0.0; WEIGHT_COUNT];
    let (beta1, beta2, epsilon) = (0.9_f64, 0.999_f64, 1e-12_f64);
    let count = samples.len().max(1) as f64;
    for epoch in 1..=options.epochs {
        let mut gradient = vec![0.0; WEIGHT_COUNT];
        for sample in samples {
            let p = sigmoid(scale * sample.value(&weights));
            let g = scale * (p - f64::from(sample.result)) / count;
            for &index in &sample.views[0] {
                gradient[usize::from(index)] += g;
            }
            for &index in &sample.views[1] {
                gradient[usize::from(index)] -= g;
            }
        }
        let correction1 = 1.0 - beta1.powi(epoch as i32);
        let correction2 = 1.0 - beta2.powi(epoch as i32);
        for index in 0..WEIGHT_COUNT {
            let g = gradient[index] + options.ridge * weights[index];
            first[index] = beta1 * first[index] + (1.0 - beta1) * g;
            second[index] = beta2 * second[index] + (1.0 - beta2) * g * g;
            let step =
                first[index] / correction1 / ((second[index] / correction2).sqrt() + epsilon);
            weights[index] -= options.rate * step;
        }
    }
    weights
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub games: usize,
    pub available: usize,
    pub training: usize,
    pub validation: usize,
    pub scale: f64,
    /// (training, held-out) log loss of the tuned evaluation alone and with the patterns.
    pub loss_tuned: (f64, f64),
    pub loss_fitted: (f64, f64),
    pub weights: PatternWeights,
}

/// What to train on and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Training positions used at most (drawn with the seed when there are more).
    pub positions: usize,
    pub seed: u64,
    /// Plies of each game's random opening, not sampled.
    pub skip: usize,
    pub fit: FitOptions,
}

/// Fits the pattern weights of English checkers on `games` (every tenth held out).
pub fn train(games: &[RecordedGame], config: &TrainConfig) -> Result<TrainReport, TrainError> {
    let variant = damas::Variant::standard(damas::GameKind::English);
    let start = English::start(variant).map_err(|_| TrainError::Game)?;
    let mut training = Vec::new();
    let mut validation = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let samples = samples_of_game(&start, game, index + 1, config.skip)?;
        if index % 10 == 9 {
            validation.extend(samples);
        } else {
            training.extend(samples);
        }
    }
    let available = training.len();
    if training.is_empty() {
        return Err(TrainError::NoSamples);
    }
    if training.len() > config.positions {
        let mut rng = SmallRng::seed_from_u64(config.seed);
        training.shuffle(&mut rng);
        training.truncate(config.positions.max(1));
    }
    let scale = fit_scale(&training);
    let fitted = fit(&training, scale, config.fit);
    let rounded: Vec<i16> = fitted
        .iter()
        .map(|&w| w.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16)
        .collect();
    let used: Vec<f64> = rounded.iter().map(|&w| f64::from(w)).collect();
    Ok(TrainReport {
        games: games.len(),
        available,
        training: training.len(),
        validation: validation.len(),
        scale,
        loss_tuned: (
            log_loss(&training, None, scale),
            log_loss(&validation, None, scale),
        ),
        loss_fitted: (
            log_loss(&training, Some(&used), scale),
            log_loss(&validation, Some(&used), scale),
        ),
        weights: PatternWeights {
            game: GAME_ENGLISH,
            weights: rounded,
        },
    })
}

impl fmt::Display for TrainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nonzero = self.weights.weights.iter().filter(|&&w| w != 0).count();
        let largest = self
            .weights
            .weights
            .iter()
            .map(|w| w.unsigned_abs())
            .max()
            .unwrap_or(0);
        writeln!(
            f,
            "english: {} games, {} training positions (of {}), {} held out, scale {:.6}",
            self.games, self.training, self.available, self.validation, self.scale
        )?;
        writeln!(
            f,
            "log loss (training / held out): tuned {:.6} / {:.6}, with patterns {:.6} / {:.6}",
            self.loss_tuned.0, self.loss_tuned.1, self.loss_fitted.0, self.loss_fitted.1
        )?;
        write!(
            f,
            "{} weights, {} not zero, largest {} hundredths of a man",
            self.weights.weights.len(),
            nonzero,
            largest
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two short real games: the first won by seat 0, the second a draw.
    fn tiny_games() -> Vec<RecordedGame> {
        let text = "0\tmedium,medium\tseat0\tno moves\t6\t11-15 22-18 15x22 25x18 8-11 29-25\n\
                    1\tmedium,medium\tdraw\tagreed\t4\t11-16 22-18 16-20 24-19\n";
        games_of_record(text).expect("two games")
    }

    #[test]
    fn a_record_files_lines_give_results_and_moves_and_a_bad_line_is_named() {
        let games = tiny_games();
        assert_eq!(games[0].result, GameResult::Win(0));
        assert_eq!(games[1].result, GameResult::Draw);
        assert_eq!(games[1].moves, ["11-16", "22-18", "16-20", "24-19"]);
        for bad in [
            "0\tmedium,medium\tseat0\tno moves\t3\t11-15 23-19\n",
            "0\tmedium,medium\tseat7\tno moves\t1\t11-15\n",
            "junk",
        ] {
            assert!(
                matches!(
                    games_of_record(bad),
                    Err(TrainError::RecordLine(BadRecordLine(1)))
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            games_of_record("0\tmedium\tseat0\tno moves\t1\t11-15\n"),
            Err(TrainError::RecordSeats { line: 1, seats: 1 })
        ));
    }

    #[test]
    fn quiet_positions_are_sampled_and_an_illegal_move_is_named() {
        let start =
            English::start(damas::Variant::standard(damas::GameKind::English)).expect("english");
        let games = tiny_games();
        let samples = samples_of_game(&start, &games[0], 1, 0).expect("replays");
        // Six positions before a move; before 15x22 and 25x18 a capture must be made.
        assert_eq!(samples.len(), 4);
        assert!(samples.iter().all(|sample| sample.result == 1.0));
        // The start is symmetric: the tuned value is 0 and each side sees the same windows.
        assert_eq!(samples[0].tuned, 0.0);
        assert_eq!(samples[0].views[0], samples[0].views[1]);
        let broken = RecordedGame {
            result: GameResult::Draw,
            moves: vec!["11-15".into(), "11-15".into()],
        };
        assert!(matches!(
            samples_of_game(&start, &broken, 4, 0),
            Err(TrainError::Replay { game: 4, .. })
        ));
    }

    /// Positions of random games labelled by a planted pattern model: the fit must come close
    /// to it, far below the loss of the tuned evaluation alone.
    #[test]
    fn the_fit_learns_planted_pattern_weights() {
        use rand::Rng;
        let start =
            English::start(damas::Variant::standard(damas::GameKind::English)).expect("english");
        let mut rng = SmallRng::seed_from_u64(11);
        let planted: Vec<f64> = (0..WEIGHT_COUNT)
            .map(|index| f64::from(((index * 7919) % 61) as i32 - 30))
            .collect();
        let scale = 0.01;
        let mut samples = Vec::new();
        for _ in 0..60 {
            let mut position = start;
            for _ in 0..40 {
                let legal = position.moves();
                if legal.is_empty() || position.outcome().is_some() {
                    break;
                }
                position.play(&legal[rng.gen_range(0..legal.len())]);
                let mut sample = Sample::of(&position, 0.0);
                sample.result = sigmoid(scale * sample.value(&planted)) as f32;
                samples.push(sample);
            }
        }
        let fitted = fit(
            &samples,
            scale,
            FitOptions {
                epochs: 200,
                rate: 1.0,
                ridge: 0.0,
            },
        );
        let floor = log_loss(&samples, Some(&planted), scale);
        let tuned = log_loss(&samples, None, scale);
        let learned = log_loss(&samples, Some(&fitted), scale);
        assert!(
            learned - floor < (tuned - floor) / 4.0,
            "planted {floor}, tuned alone {tuned}, fitted {learned}"
        );
    }

    #[test]
    fn training_is_reproducible_from_its_seed() {
        let mut games = tiny_games();
        games.extend(tiny_games());
        let config = TrainConfig {
            positions: 5,
            seed: 3,
            skip: 0,
            fit: FitOptions {
                epochs: 20,
                rate: 1.0,
                ridge: 1e-6,
            },
        };
        let first = train(&games, &config).expect("trains");
        let again = train(&games, &config).expect("trains");
        assert_eq!(first.training, 5);
        assert!(first.available > 5, "{} positions", first.available);
        assert_eq!(first.weights.to_bytes(), again.weights.to_bytes());
        assert!(first.weights.weights.iter().any(|&w| w != 0));
        let draws: Vec<Vec<u8>> = (0..8)
            .map(|seed| {
                let report = train(&games, &TrainConfig { seed, ..config }).expect("trains");
                report.weights.to_bytes()
            })
            .collect();
        assert!(
            draws.iter().any(|bytes| *bytes != draws[0]),
            "the seed draws the positions"
        );
    }
}
