//! Texel tuning of the draughts evaluation: the weights that make the evaluation
//! best predict the results of the engine's own games.
//!
//! The engine plays itself ([`crate::selfplay`], seeded random openings so the games differ);
//! every quiet position of those games (the side to move has no capture: draughts captures are
//! compulsory, so the static value of a capture position means little) becomes a sample labelled
//! with its game's result for seat 0 (1, ½ or 0). The loss is the mean squared error between the
//! labels and `sigmoid(scale · eval)`, `eval` being the evaluation for seat 0
//! ([`combine`]); `scale` is fitted first for the starting weights and then held, and the
//! weights move by coordinate descent (each weight ±step while the loss falls, steps halving from
//! 16 to 1). The man stays worth 100, which fixes the units. Every tenth game is held out and its
//! loss reported, so an over-fitted set of weights shows. Rerun with `damas-lab tune <game>`; the
//! figures of the committed weights are in docs/cpu.md ("Tuned evaluation").

use crate::players::Player;
use crate::replay::{quiet_positions, result_for_seat0, BadMove};
use crate::selfplay::{self, GameSummary, MatchConfig, Progress, SelfplayError};
use damas::games::english::English;
use damas::games::international::International;
use damas::games::turkish::Turkish;
use damas::search::eval::draughts::{combine, SideFeatures, Weights};
use damas::search::eval::{diagonal, turkish};
use damas::search::searchable::{EvalStyle, Searchable};
use damas::search::{GameFactory, SearchContext};
use damas::{Describe, GameKind, MoveError, Position, Variant};
use std::fmt;
use thiserror::Error;

/// A draughts game whose evaluation the tuner can fit.
pub trait Tunable: Searchable + Describe + Clone {
    /// Both sides' raw feature counts, seat 0's first.
    fn side_features(&self) -> [SideFeatures; 2];
    /// The weights `style` evaluates with.
    fn weights(style: EvalStyle) -> Weights;
}

impl Tunable for English {
    fn side_features(&self) -> [SideFeatures; 2] {
        diagonal::english_features(self)
    }

    fn weights(style: EvalStyle) -> Weights {
        *diagonal::weights(false, style)
    }
}

impl Tunable for International {
    fn side_features(&self) -> [SideFeatures; 2] {
        diagonal::international_features(self)
    }

    fn weights(style: EvalStyle) -> Weights {
        *diagonal::weights(true, style)
    }
}

impl Tunable for Turkish {
    fn side_features(&self) -> [SideFeatures; 2] {
        turkish::features(self)
    }

    fn weights(style: EvalStyle) -> Weights {
        *turkish::weights(style)
    }
}

#[derive(Debug, Error)]
pub enum TuneError {
    #[error("the tuner fits the draughts evaluations and the capture game's win shares (english, international, turkish, capture)")]
    NotTunable,
    #[error("the capture game's win shares are fitted on games of 3 seats, not {0}")]
    Seats(usize),
    #[error("line {0} of the games file is not a game of `damas-lab selfplay --record`")]
    RecordLine(usize),
    #[error("line {line} of the games file is a game of {seats} seats, not 3")]
    RecordSeats { line: usize, seats: usize },
    #[error(transparent)]
    Selfplay(#[from] SelfplayError),
    #[error("replaying game {game}, move '{text}': {source}")]
    Replay {
        game: usize,
        text: String,
        source: MoveError,
    },
    #[error("the games gave no quiet position to learn from")]
    NoSamples,
}

/// One position: both sides' features and its game's result for seat 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub sides: [SideFeatures; 2],
    pub result: f64,
}

/// The quiet positions of `game` (number `index`, from 1) from ply `skip` on (the random
/// opening teaches nothing).
pub fn samples_of_game<P: Tunable>(
    start: &P,
    game: &GameSummary,
    index: usize,
    skip: usize,
) -> Result<Vec<Sample>, TuneError> {
    let result = result_for_seat0(game.result);
    quiet_positions(start, &game.moves, skip, |position| Sample {
        sides: position.side_features(),
        result,
    })
    .map_err(|BadMove { text, source }| TuneError::Replay {
        game: index,
        text,
        source,
    })
}

/// `1 / (1 + e^(-scale · value))`.
fn sigmoid(scale: f64, value: i32) -> f64 {
    1.0 / (1.0 + (-scale * f64::from(value)).exp())
}

/// Mean squared error of the predictions of `weights` at `scale`.
pub fn loss(samples: &[Sample], weights: &Weights, scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let value = combine(&sample.sides, 0, EvalStyle::Full, weights);
            let error = sample.result - sigmoid(scale, value);
            error * error
        })
        .sum();
    total / samples.len() as f64
}

/// The scale that fits `weights` best (golden-section search: the loss is unimodal in it).
pub fn fit_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let (mut low, mut high) = (1e-5_f64, 0.1_f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(samples, weights, a) < loss(samples, weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Coordinate descent from `start` at a fixed `scale`: each tunable weight is moved by ±step
/// while that lowers the loss, over every weight, until a whole pass gains nothing, for steps
/// 16, 8, 4, 2 and 1. At most `max_passes` passes in all.
pub fn descend(samples: &[Sample], start: Weights, scale: f64, max_passes: u32) -> (Weights, u32) {
    let mut weights = start;
    let mut best = loss(samples, &weights, scale);
    let mut passes = 0;
    for step in [16, 8, 4, 2, 1] {
        loop {
            if passes >= max_passes {
                return (weights, passes);
            }
            passes += 1;
            let mut improved = false;
            for index in 0..Weights::TUNABLE.len() {
                for delta in [step, -step] {
                    let mut trial = weights;
                    trial.set(index, weights.get(index) + delta);
                    let value = loss(samples, &trial, scale);
                    if value < best {
                        best = value;
                        weights = trial;
                        improved = true;
                        break;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }
    (weights, passes)
}

/// What one tuning run did.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub kind: GameKind,
    pub games: usize,
    pub training: usize,
    pub validation: usize,
    pub scale: f64,
    pub start: Weights,
    pub fitted: Weights,
    pub passes: u32,
    /// (training, validation) loss of the starting weights and of the fitted ones.
    pub loss_start: (f64, f64),
    pub loss_fitted: (f64, f64),
}

/// Fits the weights of `P` on `games` (every tenth held out), from its classic weights.
pub fn fit_games<P: Tunable>(
    start: &P,
    games: &[GameSummary],
    skip: usize,
    max_passes: u32,
) -> Result<TuneReport, TuneError> {
    let mut training = Vec::new();
    let mut validation = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let samples = samples_of_game(start, game, index + 1, skip)?;
        if index % 10 == 9 {
            validation.extend(samples);
        } else {
            training.extend(samples);
        }
    }
    if training.is_empty() {
        return Err(TuneError::NoSamples);
    }
    let initial = P::weights(EvalStyle::Classic);
    let scale = fit_scale(&training, &initial);
    let (fitted, passes) = descend(&training, initial, scale, max_passes);
    Ok(TuneReport {
        kind: start.variant().kind,
        games: games.len(),
        training: training.len(),
        validation: validation.len(),
        scale,
        start: initial,
        fitted,
        passes,
        loss_start: (
            loss(&training, &initial, scale),
            loss(&validation, &initial, scale),
        ),
        loss_fitted: (
            loss(&training, &fitted, scale),
            loss(&validation, &fitted, scale),
        ),
    })
}

/// How to make the games to learn from.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub kind: GameKind,
    /// Who plays both sides.
    pub player: Player,
    pub games: u32,
    pub seed: u64,
    pub jobs: usize,
    /// Random plies opening each game (also skipped as samples).
    pub opening_plies: u32,
    pub max_passes: u32,
}

/// Plays the games of `config` and fits the weights of its game on them.
pub fn run(
    config: &TuneConfig,
    factory: &GameFactory<'_>,
    context: &SearchContext,
    progress: Option<&Progress<'_>>,
) -> Result<TuneReport, TuneError> {
    if !config.kind.is_draughts() {
        return Err(TuneError::NotTunable);
    }
    let variant = Variant::standard(config.kind);
    let matches = MatchConfig::from_start(
        variant,
        vec![config.player, config.player],
        config.games,
        config.seed,
        config.jobs,
        config.opening_plies,
    );
    let report = selfplay::run(&matches, factory, context, progress)?;
    let skip = config.opening_plies as usize;
    let setup = |error| TuneError::Selfplay(SelfplayError::Setup(error));
    match config.kind {
        GameKind::English => fit_games(
            &English::start(variant).map_err(setup)?,
            &report.games,
            skip,
            config.max_passes,
        ),
        GameKind::International => fit_games(
            &International::start(variant).map_err(setup)?,
            &report.games,
            skip,
            config.max_passes,
        ),
        GameKind::Turkish => fit_games(
            &Turkish::start(variant).map_err(setup)?,
            &report.games,
            skip,
            config.max_passes,
        ),
        GameKind::Diamond | GameKind::Capture => Err(TuneError::NotTunable),
    }
}

impl fmt::Display for TuneReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} games, {} training and {} held-out quiet positions, scale {:.6}, {} passes",
            self.kind.as_str(),
            self.games,
            self.training,
            self.validation,
            self.scale,
            self.passes
        )?;
        writeln!(
            f,
            "loss (training / held out): classic {:.6} / {:.6}, fitted {:.6} / {:.6}",
            self.loss_start.0, self.loss_start.1, self.loss_fitted.0, self.loss_fitted.1
        )?;
        writeln!(f, "Weights {{")?;
        writeln!(f, "    man: {},", self.fitted.man)?;
        for (index, name) in Weights::TUNABLE.iter().enumerate() {
            writeln!(
                f,
                "    {name}: {}, // classic {}",
                self.fitted.get(index),
                self.start.get(index)
            )?;
        }
        writeln!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn random_side(rng: &mut SmallRng) -> SideFeatures {
        SideFeatures {
            men: rng.gen_range(0..12),
            kings: rng.gen_range(0..3),
            advancement: rng.gen_range(0..40),
            back_guard: rng.gen_range(0..4),
            centre: rng.gen_range(0..6),
            runaways: rng.gen_range(0..8),
            king_mobility: rng.gen_range(0..10),
            mobility: rng.gen_range(0..12),
            balance: rng.gen_range(0..6),
            edge: rng.gen_range(0..5),
        }
    }

    /// Random positions labelled with the expected result under the logistic model of `truth`
    /// (soft labels: the loss is 0 at `truth` and nowhere else, so a fit must find it).
    fn synthetic(truth: &Weights, scale: f64, count: usize, seed: u64) -> Vec<Sample> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let sides = [random_side(&mut rng), random_side(&mut rng)];
                let result = sigmoid(scale, combine(&sides, 0, EvalStyle::Full, truth));
                Sample { sides, result }
            })
            .collect()
    }

    #[test]
    fn descent_recovers_the_weights_that_made_the_results() {
        let truth = Weights {
            man: 100,
            king: 160,
            advancement: 3,
            back_guard: 10,
            centre: 8,
            runaway: 6,
            king_mobility: 4,
            trade: 40,
            mobility: 5,
            balance: -6,
            edge: -4,
        };
        let scale = 0.01;
        let samples = synthetic(&truth, scale, 5_000, 7);
        let start = Weights {
            man: 100,
            ..Weights::default()
        };
        let (fitted, _) = descend(&samples, start, scale, 400);
        assert!(loss(&samples, &fitted, scale) < loss(&samples, &start, scale));
        for (index, name) in Weights::TUNABLE.iter().enumerate() {
            let (got, want) = (fitted.get(index), truth.get(index));
            // The trade term is a fraction of the material difference: a step of its weight
            // moves the value by less than one unit, so it is found to within a few.
            let tolerance = if *name == "trade" { 5 } else { 0 };
            assert!(
                (got - want).abs() <= tolerance,
                "{name}: {got} (truth {want})"
            );
        }
        assert_eq!(fitted.man, 100);
    }

    #[test]
    fn the_scale_fit_finds_the_scale_of_the_model() {
        let truth = Weights {
            man: 100,
            king: 150,
            ..Weights::default()
        };
        let samples = synthetic(&truth, 0.02, 5_000, 3);
        let scale = fit_scale(&samples, &truth);
        assert!((scale - 0.02).abs() < 0.003, "scale {scale}");
    }

    #[test]
    fn weights_get_and_set_name_the_same_fields() {
        let mut weights = Weights::default();
        for index in 0..Weights::TUNABLE.len() {
            weights.set(index, index as i32 + 1);
        }
        assert_eq!(weights.king, 1);
        assert_eq!(weights.trade, 7);
        assert_eq!(weights.edge, 10);
        assert_eq!(weights.man, 0);
        for index in 0..Weights::TUNABLE.len() {
            assert_eq!(weights.get(index), index as i32 + 1);
        }
    }

    #[test]
    fn a_short_tuning_run_lowers_the_training_loss_on_real_games() {
        let config = TuneConfig {
            kind: GameKind::English,
            player: Player::Cpu(damas::search::Level::Easy),
            games: 20,
            seed: 5,
            jobs: 1,
            opening_plies: 4,
            max_passes: 30,
        };
        let report = run(
            &config,
            &damas::catalogue::new_game,
            &SearchContext::new(),
            None,
        )
        .expect("tuning runs");
        assert_eq!(report.games, 20);
        assert!(report.training > 100, "{} samples", report.training);
        assert!(report.loss_fitted.0 <= report.loss_start.0);
        let text = report.to_string();
        assert!(text.contains("king: "), "{text}");
    }
}
