//! The data behind ProbCut's margin (`Params::probcut`): pairs of (shallow, deep) search values
//! of the same positions, and the linear fit `deep ≈ slope · shallow + intercept` with the
//! residuals' standard deviation.
//!
//! The engine plays itself ([`crate::selfplay`], seeded random openings); every `every`-th quiet
//! position past the opening is searched twice from the mover's side with expert's search at a
//! fixed depth (capture quiescence and late-move reductions, no noise, contempt or tables): `deep`
//! plies and `deep − reduction` plies. Decisive values are left out (ProbCut never cuts near
//! them). Rerun with `damas-lab probcut-fit <game>`; the figures are in lab/JOURNAL.md ("ProbCut
//! and countermoves").

use crate::players::Player;
use crate::replay::{quiet_positions, BadMove};
use crate::selfplay::{self, GameSummary, MatchConfig, Progress, SelfplayError};
use damas::games::english::English;
use damas::games::international::International;
use damas::games::turkish::Turkish;
use damas::search::alphabeta::{self, Params};
use damas::search::limits::Limits;
use damas::search::score;
use damas::search::searchable::Searchable;
use damas::search::{GameFactory, SearchContext};
use damas::{Describe, GameKind, MoveError, Position, Variant};
use std::fmt;
use std::sync::atomic::AtomicBool;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FitError {
    #[error(transparent)]
    Selfplay(#[from] SelfplayError),
    #[error("replaying game {game}, move '{text}': {source}")]
    Replay {
        game: usize,
        text: String,
        source: MoveError,
    },
    #[error("ProbCut is fitted for the draughts games only")]
    NotDraughts,
    #[error("the reduction must be at least 1 and below the deep depth")]
    Depths,
    #[error("too few positions with values that are not decisive to fit ({0})")]
    TooFew(usize),
}

/// What to fit on.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub kind: GameKind,
    /// Who plays the games the positions come from.
    pub player: Player,
    pub games: u32,
    pub seed: u64,
    pub jobs: usize,
    pub opening_plies: u32,
    /// Depth of the deep search, and how much shallower the other is.
    pub deep: u32,
    pub reduction: u32,
    /// Every how many quiet positions one is searched.
    pub every: usize,
}

/// The least-squares line through the pairs and its residuals' standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub pairs: usize,
    pub slope: f64,
    pub intercept: f64,
    pub sigma: f64,
    /// Pearson correlation of shallow and deep values.
    pub correlation: f64,
}

/// The least-squares fit of `deep` on `shallow`; `None` with fewer than 3 pairs or no spread.
pub fn fit(pairs: &[(i32, i32)]) -> Option<Fit> {
    let n = pairs.len() as f64;
    if pairs.len() < 3 {
        return None;
    }
    let mean =
        |pick: fn(&(i32, i32)) -> i32| pairs.iter().map(|p| f64::from(pick(p))).sum::<f64>() / n;
    let (mx, my) = (mean(|p| p.0), mean(|p| p.1));
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in pairs {
        let (dx, dy) = (f64::from(x) - mx, f64::from(y) - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let residuals: f64 = pairs
        .iter()
        .map(|&(x, y)| (f64::from(y) - slope * f64::from(x) - intercept).powi(2))
        .sum();
    Some(Fit {
        pairs: pairs.len(),
        slope,
        intercept,
        sigma: (residuals / (n - 2.0)).sqrt(),
        correlation: sxy / (sxx * syy).sqrt(),
    })
}

/// A fit and the figures it came from.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub kind: GameKind,
    pub config: FitConfig,
    pub games: usize,
    pub searched: usize,
    pub fit: Fit,
}

/// The search both values come from: expert's at a fixed depth, with nothing that depends on
/// the machine or the game's history.
pub fn fixed_depth_params(depth: u32) -> Params {
    Params {
        quiescence: true,
        reductions: true,
        table_bits: 18,
        ..Params::plain(Limits::depth(depth))
    }
}

/// The value of `position` for its mover searched `depth` plies deep; `None` when decisive.
fn value<P: Searchable + Sync>(position: &P, depth: u32, context: &SearchContext) -> Option<i32> {
    let stop = AtomicBool::new(false);
    let found = alphabeta::search(position, &[], &fixed_depth_params(depth), &stop, context)?;
    // A single legal move is not searched (its value is 0 without a search).
    (found.depth > 0 && !score::is_decisive(found.score)).then_some(found.score)
}

/// The (shallow, deep) pairs of the sampled quiet positions of `games`.
pub fn pairs_of_games<P: Searchable + Describe + Clone + Sync>(
    start: &P,
    games: &[GameSummary],
    config: &FitConfig,
    context: &SearchContext,
) -> Result<(Vec<(i32, i32)>, usize), FitError> {
    let shallow = config.deep - config.reduction;
    let mut pairs = Vec::new();
    let mut searched = 0;
    for (index, game) in games.iter().enumerate() {
        let positions = quiet_positions(start, &game.moves, config.opening_plies as usize, |p| {
            p.clone()
        })
        .map_err(|BadMove { text, source }| FitError::Replay {
            game: index + 1,
            text,
            source,
        })?;
        for position in positions.iter().step_by(config.every.max(1)) {
            searched += 1;
            let low = value(position, shallow, context);
            let high = value(position, config.deep, context);
            if let (Some(low), Some(high)) = (low, high) {
                pairs.push((low, high));
            }
        }
    }
    Ok((pairs, searched))
}

/// Plays the games of `config` and fits the deep values on the shallow ones.
pub fn run(
    config: &FitConfig,
    factory: &GameFactory<'_>,
    context: &SearchContext,
    progress: Option<&Progress<'_>>,
) -> Result<FitReport, FitError> {
    if !config.kind.is_draughts() {
        return Err(FitError::NotDraughts);
    }
    if config.reduction == 0 || config.reduction >= config.deep {
        return Err(FitError::Depths);
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
    let setup = |error| FitError::Selfplay(SelfplayError::Setup(error));
    let (pairs, searched) = match config.kind {
        GameKind::English => pairs_of_games(
            &English::start(variant).map_err(setup)?,
            &report.games,
            config,
            context,
        )?,
        GameKind::International => pairs_of_games(
            &International::start(variant).map_err(setup)?,
            &report.games,
            config,
            context,
        )?,
        GameKind::Turkish => pairs_of_games(
            &Turkish::start(variant).map_err(setup)?,
            &report.games,
            config,
            context,
        )?,
        GameKind::Diamond | GameKind::Capture => return Err(FitError::NotDraughts),
    };
    let fit = fit(&pairs).ok_or(FitError::TooFew(pairs.len()))?;
    Ok(FitReport {
        kind: config.kind,
        config: config.clone(),
        games: report.games.len(),
        searched,
        fit,
    })
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Fit {
            pairs,
            slope,
            intercept,
            sigma,
            correlation,
        } = self.fit;
        writeln!(
            f,
            "{}: {} games, {} positions searched, {} pairs not decisive; depth {} against {}",
            self.kind.as_str(),
            self.games,
            self.searched,
            pairs,
            self.config.deep - self.config.reduction,
            self.config.deep
        )?;
        writeln!(
            f,
            "deep = {slope:.3} · shallow {} {:.1}, sigma {sigma:.1}, correlation {correlation:.3}",
            if intercept < 0.0 { "−" } else { "+" },
            intercept.abs()
        )?;
        for t in [1.0, 1.5, 2.0] {
            writeln!(f, "margin at {t} sigma: {:.0}", t * sigma)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_finds_a_planted_line_and_its_spread() {
        // deep = 2 · shallow + 10, the residuals ±3 alternately: sigma = 3 · sqrt(n / (n − 2)).
        let pairs: Vec<(i32, i32)> = (0..100)
            .map(|x| (x, 2 * x + 10 + if x % 2 == 0 { 3 } else { -3 }))
            .collect();
        let fit = fit(&pairs).expect("spread");
        assert!((fit.slope - 2.0).abs() < 0.01, "{fit:?}");
        assert!((fit.intercept - 10.0).abs() < 0.5, "{fit:?}");
        assert!(
            (fit.sigma - 3.0 * (100.0f64 / 98.0).sqrt()).abs() < 0.05,
            "{fit:?}"
        );
        assert!(fit.correlation > 0.99);
    }

    #[test]
    fn too_few_or_flat_pairs_give_no_fit() {
        assert_eq!(fit(&[(1, 2), (3, 4)]), None);
        assert_eq!(fit(&[(5, 1), (5, 2), (5, 3)]), None);
    }
}
