//! Fits the capture game's learned win shares ([`damas::search::eval::capture_shares`]) to the ends of
//! the engine's own games: `damas-lab tune capture`.
//!
//! The games are a match of three seats the tuner plays ([`crate::selfplay`]) or the games
//! `damas-lab selfplay --record` wrote (the committed weights were fitted on the playout search's
//! games, before the search used them). Every position of those games becomes a sample: each
//! seat's features and each seat's share of the game's end (1 to a sole leader, 1/k to each of k
//! sharing the top, 0 to the others, as a playout scores it). The model is a conditional logit
//! (each seat's share is the softmax of the seats' scores), fitted by Newton's method on the
//! summed cross-entropy plus a small ridge. Every tenth game is held out; the report compares, on
//! those games, the fitted shares, equal shares, and the mean of [`HELD_OUT_PLAYOUTS`] random
//! playouts from each position (what the search used before), so that the weights are kept only
//! if they predict better. The figures of the committed weights are in docs/cpu.md ("A learned
//! estimate at the leaves").

use crate::players::Player;
use crate::report::{read_record, BadRecordLine};
use crate::selfplay::{self, MatchConfig, Progress};
use crate::tuning::TuneError;
use damas::games::capture::Capture;
use damas::search::eval::capture_shares::{self, Outlook, FEATURES, FEATURE_NAMES, SEATS};
use damas::search::searchable::{Rewards, Searchable};
use damas::search::{GameFactory, SearchContext};
use damas::{GameKind, Position, Record, Seat, SetupError, Variant};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::fmt;

/// Random playouts per held-out position for the report's comparison.
pub const HELD_OUT_PLAYOUTS: usize = 128;
/// The ridge: `RIDGE / 2 · |w|²` added to the summed cross-entropy (a few thousand positions).
const RIDGE: f64 = 1.0;
/// Newton steps at most (the loss is convex: a handful reach the optimum).
const MAX_STEPS: usize = 30;

/// One position of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub position: Capture,
    /// Each seat's features.
    pub features: [[f32; FEATURES]; SEATS],
    /// Each seat's share of the game's end.
    pub shares: [f32; SEATS],
}

/// The games of a file written by `damas-lab selfplay --record` (one a line: number, players,
/// result, ending, plies, moves), as their moves; each must be a game of three seats (a
/// capture game of other seats replays on the same board, with the wrong seats' shares).
pub fn games_of_record(text: &str) -> Result<Vec<Vec<String>>, TuneError> {
    read_record(text)
        .map_err(|BadRecordLine(line)| TuneError::RecordLine(line))?
        .into_iter()
        .map(|game| match game.seats {
            SEATS => Ok(game.moves),
            seats => Err(TuneError::RecordSeats {
                line: game.line,
                seats,
            }),
        })
        .collect()
}

/// Every position of a game (number `index`, from 1) of `moves`, replayed from `start`.
pub fn samples_of_game(
    start: &Capture,
    moves: &[String],
    index: usize,
) -> Result<Vec<Sample>, TuneError> {
    let mut record = Record::new(start.clone());
    let mut positions = Vec::new();
    for text in moves {
        positions.push(record.position().clone());
        record.play_text(text).map_err(|source| TuneError::Replay {
            game: index,
            text: text.clone(),
            source,
        })?;
    }
    let end = record.position().playout_rewards();
    let mut shares = [0.0; SEATS];
    shares.copy_from_slice(&end[..SEATS]);
    Ok(positions
        .into_iter()
        .map(|position| {
            let outlook = Outlook::of(&position);
            let features = std::array::from_fn(|seat| {
                capture_shares::features(&position, seat as Seat, outlook)
            });
            Sample {
                position,
                features,
                shares,
            }
        })
        .collect())
}

fn scores(weights: &[f64; FEATURES], features: &[[f32; FEATURES]; SEATS]) -> [f64; SEATS] {
    features.map(|x| x.iter().zip(weights).map(|(x, w)| f64::from(*x) * w).sum())
}

fn softmax(scores: [f64; SEATS]) -> [f64; SEATS] {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp = scores.map(|score| (score - top).exp());
    let total: f64 = exp.iter().sum();
    exp.map(|e| e / total)
}

/// Mean over positions of the cross-entropy of `predict`'s shares against the games' ends
/// (ln 3 ≈ 1.0986 for equal shares); predictions are held to at least 0.001.
pub fn log_loss(samples: &[Sample], mut predict: impl FnMut(&Sample) -> [f64; SEATS]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let predicted = predict(sample);
            sample
                .shares
                .iter()
                .zip(predicted)
                .map(|(&share, p)| -f64::from(share) * p.max(1e-3).ln())
                .sum::<f64>()
        })
        .sum();
    total / samples.len() as f64
}

/// The shares `weights` predict for a sample.
pub fn predict(weights: &[f64; FEATURES], sample: &Sample) -> [f64; SEATS] {
    softmax(scores(weights, &sample.features))
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; `None` if `a` is singular.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> Option<[f64; FEATURES]> {
    for column in 0..FEATURES {
        let pivot = (column..FEATURES)
            .max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs()))?;
        if a[pivot][column].abs() < 1e-12 {
            return None;
        }
        a.swap(column, pivot);
        b.swap(column, pivot);
        for row in column + 1..FEATURES {
            let factor = a[row][column] / a[column][column];
            let pivot_row = a[column];
            for (value, pivot) in a[row].iter_mut().zip(pivot_row).skip(column) {
                *value -= factor * pivot;
            }
            b[row] -= factor * b[column];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The weights that minimise the summed cross-entropy plus the ridge, by Newton's method from 0.
pub fn fit(samples: &[Sample]) -> [f64; FEATURES] {
    let mut weights = [0.0; FEATURES];
    for _ in 0..MAX_STEPS {
        let mut gradient = weights.map(|w| -RIDGE * w);
        let mut hessian = [[0.0; FEATURES]; FEATURES];
        for (i, row) in hessian.iter_mut().enumerate() {
            row[i] = RIDGE;
        }
        for sample in samples {
            let p = predict(&weights, sample);
            let x = sample.features.map(|f| f.map(f64::from));
            let mean: [f64; FEATURES] =
                std::array::from_fn(|i| (0..SEATS).map(|s| p[s] * x[s][i]).sum());
            for s in 0..SEATS {
                let error = f64::from(sample.shares[s]) - p[s];
                for i in 0..FEATURES {
                    gradient[i] += error * x[s][i];
                    for j in 0..FEATURES {
                        hessian[i][j] += p[s] * x[s][i] * x[s][j];
                    }
                }
            }
            for i in 0..FEATURES {
                for j in 0..FEATURES {
                    hessian[i][j] -= mean[i] * mean[j];
                }
            }
        }
        let Some(step) = solve(hessian, gradient) else {
            break;
        };
        weights = std::array::from_fn(|i| weights[i] + step[i]);
        if step.iter().all(|s| s.abs() < 1e-7) {
            break;
        }
    }
    weights
}

/// The mean of `playouts` random playouts' rewards from the sample's position (the search's
/// playout policy), each seat's held to at least 0.001 and the three scaled to add up to one.
fn playout_shares(sample: &Sample, playouts: usize, rng: &mut SmallRng) -> [f64; SEATS] {
    let mut scratch = Vec::new();
    let mut sum = [0.0f64; SEATS];
    for _ in 0..playouts {
        let mut position = sample.position.clone();
        while let Some(mv) = position.playout_move(rng, &mut scratch) {
            position.play(&mv);
        }
        let rewards: Rewards = position.playout_rewards();
        for (total, reward) in sum.iter_mut().zip(rewards) {
            *total += f64::from(reward);
        }
    }
    let held = sum.map(|s| (s / playouts as f64).max(1e-3));
    let total: f64 = held.iter().sum();
    held.map(|s| s / total)
}

#[derive(Clone, Debug)]
pub struct ShareReport {
    pub games: usize,
    pub training: usize,
    pub held_out: usize,
    pub weights: [f64; FEATURES],
    /// Cross-entropy on the training positions, fitted.
    pub training_loss: f64,
    /// Cross-entropy on the held-out positions: equal shares, random playouts, fitted.
    pub held_out_loss: (f64, f64, f64),
}

/// Fits the weights on the games (every tenth held out) and measures them.
pub fn fit_games(games: &[Vec<String>]) -> Result<ShareReport, TuneError> {
    let start = Capture::start(variant()?).map_err(setup_error)?;
    let mut training = Vec::new();
    let mut held_out = Vec::new();
    for (index, moves) in games.iter().enumerate() {
        let samples = samples_of_game(&start, moves, index + 1)?;
        if index % 10 == 9 {
            held_out.extend(samples);
        } else {
            training.extend(samples);
        }
    }
    if training.is_empty() {
        return Err(TuneError::NoSamples);
    }
    let weights = fit(&training);
    let mut rng = SmallRng::seed_from_u64(1);
    Ok(ShareReport {
        games: games.len(),
        training: training.len(),
        held_out: held_out.len(),
        weights,
        training_loss: log_loss(&training, |sample| predict(&weights, sample)),
        held_out_loss: (
            log_loss(&held_out, |_| [1.0 / SEATS as f64; SEATS]),
            log_loss(&held_out, |sample| {
                playout_shares(sample, HELD_OUT_PLAYOUTS, &mut rng)
            }),
            log_loss(&held_out, |sample| predict(&weights, sample)),
        ),
    })
}

#[derive(Clone, Debug)]
pub struct ShareTuneConfig {
    /// One player per seat (three).
    pub players: Vec<Player>,
    pub games: u32,
    pub seed: u64,
    pub jobs: usize,
    pub opening_plies: u32,
}

/// Plays the match and fits the weights to its games.
pub fn run(
    config: &ShareTuneConfig,
    factory: &GameFactory<'_>,
    context: &SearchContext,
    progress: Option<&Progress<'_>>,
) -> Result<ShareReport, TuneError> {
    if config.players.len() != SEATS {
        return Err(TuneError::Seats(config.players.len()));
    }
    let matches = MatchConfig::from_start(
        variant()?,
        config.players.clone(),
        config.games,
        config.seed,
        config.jobs,
        config.opening_plies,
    );
    let report = selfplay::run(&matches, factory, context, progress)?;
    let games: Vec<Vec<String>> = report.games.into_iter().map(|game| game.moves).collect();
    fit_games(&games)
}

/// The game the shares are fitted for: three seats, no long jump.
fn variant() -> Result<Variant, TuneError> {
    Variant::new(GameKind::Capture, Some(SEATS as u8), false).map_err(setup_error)
}

fn setup_error(error: SetupError) -> TuneError {
    TuneError::Selfplay(selfplay::SelfplayError::Setup(error))
}

impl fmt::Display for ShareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "capture, 3 seats: {} games, {} training and {} held-out positions",
            self.games, self.training, self.held_out
        )?;
        let (equal, playouts, fitted) = self.held_out_loss;
        writeln!(
            f,
            "cross-entropy: training {:.4}; held out: equal shares {equal:.4}, \
             {HELD_OUT_PLAYOUTS} random playouts {playouts:.4}, fitted {fitted:.4}",
            self.training_loss
        )?;
        writeln!(f, "pub const WEIGHTS: [f32; FEATURES] = [")?;
        for (weight, name) in self.weights.iter().zip(FEATURE_NAMES) {
            writeln!(f, "    {weight:.4}, // {name}")?;
        }
        writeln!(f, "];")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::search::eval::capture_shares::softmax as shares_of_scores;
    use damas::Describe;
    use rand::Rng;

    fn start() -> Capture {
        Capture::start(Variant::new(GameKind::Capture, Some(3), false).expect("variant"))
            .expect("start")
    }

    /// Samples whose shares are exactly what `truth` predicts from random features.
    fn synthetic(truth: &[f64; FEATURES], count: usize, seed: u64) -> Vec<Sample> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let position = start();
        (0..count)
            .map(|_| {
                let features: [[f32; FEATURES]; SEATS] =
                    std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(-3.0..3.0)));
                let scores = features.map(|x| {
                    x.iter()
                        .zip(truth)
                        .map(|(x, w)| f64::from(*x) * w)
                        .sum::<f64>() as f32
                });
                let rewards = shares_of_scores(&scores);
                Sample {
                    position: position.clone(),
                    features,
                    shares: std::array::from_fn(|seat| rewards[seat]),
                }
            })
            .collect()
    }

    #[test]
    fn newton_recovers_the_weights_that_made_the_shares() {
        let truth: [f64; FEATURES] = std::array::from_fn(|i| (i as f64 - 6.0) / 8.0);
        let samples = synthetic(&truth, 4_000, 5);
        let fitted = fit(&samples);
        for (index, name) in FEATURE_NAMES.iter().enumerate() {
            assert!(
                (fitted[index] - truth[index]).abs() < 0.02,
                "{name}: fitted {} for {}",
                fitted[index],
                truth[index]
            );
        }
        let zero = [0.0; FEATURES];
        assert!(
            log_loss(&samples, |s| predict(&fitted, s)) < log_loss(&samples, |s| predict(&zero, s))
        );
    }

    #[test]
    fn equal_shares_cost_ln_3_whatever_the_games_ends() {
        let samples = synthetic(&[0.5; FEATURES], 50, 2);
        let equal = log_loss(&samples, |_| [1.0 / 3.0; SEATS]);
        assert!((equal - 3f64.ln()).abs() < 1e-6, "{equal}");
    }

    #[test]
    fn a_games_positions_are_replayed_with_the_end_they_came_to() {
        let mut position = start();
        let mut rng = SmallRng::seed_from_u64(9);
        let mut scratch = Vec::new();
        let mut moves = Vec::new();
        let mut seen = vec![position.clone()];
        while let Some(mv) = position.playout_move(&mut rng, &mut scratch) {
            moves.push(position.move_info(&mv).text);
            position.play(&mv);
            seen.push(position.clone());
        }
        let end = position.playout_rewards();
        let samples = samples_of_game(&start(), &moves, 1).expect("a legal game");
        assert_eq!(samples.len(), moves.len());
        for (sample, position) in samples.iter().zip(&seen) {
            assert_eq!(&sample.position, position);
            assert_eq!(sample.shares[..], end[..SEATS]);
            let outlook = Outlook::of(position);
            assert_eq!(
                sample.features[2],
                capture_shares::features(position, 2, outlook)
            );
        }
        let mut broken = moves.clone();
        broken[1] = "F1P1xF1P3".to_string();
        assert!(matches!(
            samples_of_game(&start(), &broken, 4),
            Err(TuneError::Replay { game: 4, .. })
        ));
    }

    #[test]
    fn a_record_files_lines_give_their_moves_and_a_bad_line_is_named() {
        let text = "0\thard,medium,medium\tseat0\tno_jumps_left\t2\tF8P2xF10P1 F11P3xF9P1\n\n\
                    1\tmedium,hard,medium\tdraw\tno_jumps_left\t1\tF12P9xF14P4\n";
        let games = games_of_record(text).expect("two games");
        assert_eq!(
            games,
            vec![
                vec!["F8P2xF10P1".to_string(), "F11P3xF9P1".to_string()],
                vec!["F12P9xF14P4".to_string()]
            ]
        );
        let two_seats = "0\thard,medium\tseat0\tno_jumps_left\t1\tF8P2xF10P1\n";
        assert!(matches!(
            games_of_record(two_seats),
            Err(TuneError::RecordSeats { line: 1, seats: 2 })
        ));
        for bad in [
            "0\thard\tseat0\tno_jumps_left\t2\n",
            "0\thard,medium,medium\tseat0\tno_jumps_left\t3\tF8P2xF10P1 F11P3xF9P1\n",
            "0\thard,medium,medium\tseat0\tno_jumps_left\ttwo\tF8P2xF10P1 F11P3xF9P1\n",
        ] {
            let text = format!("0\th,m,m\tdraw\tno_jumps_left\t0\t\n{bad}");
            assert!(
                matches!(games_of_record(&text), Err(TuneError::RecordLine(2))),
                "{bad:?}"
            );
        }
    }
}
