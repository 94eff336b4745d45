//! What a match leaves: each game's summary, each participant's figures and the report printed
//! at the end.

use crate::players::Player;
use damas::{EndReason, GameResult, Variant};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The game's number in the match (from 0).
    pub number: u32,
    /// `seating[seat]` is the participant at that seat.
    pub seating: Vec<usize>,
    pub result: GameResult,
    /// The rule that ended the game; `None` only for a game stopped at [`MAX_PLIES`](crate::selfplay::MAX_PLIES).
    pub reason: Option<EndReason>,
    pub plies: usize,
    /// The moves in notation, for replaying a game.
    pub moves: Vec<String>,
    /// Openings drawn and turned down before this game's (see [`MatchConfig::level_openings`](crate::selfplay::MatchConfig::level_openings)).
    pub opening_redraws: u32,
    /// Each move's thinking time, by participant.
    pub move_times: Vec<Vec<Duration>>,
    /// Each move's deepest completed iteration, by participant (0: a forced move, not searched).
    pub move_depths: Vec<Vec<u32>>,
}

impl GameSummary {
    /// The name of the rule that ended the game (`EndReason::as_str`), or "move_cap" for a game
    /// stopped at [`MAX_PLIES`](crate::selfplay::MAX_PLIES).
    pub fn ending(&self) -> &'static str {
        self.reason.map_or("move_cap", EndReason::as_str)
    }
}

/// Figures for one participant.
#[derive(Clone, Debug, Default)]
pub struct ParticipantStats {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub move_times: Vec<Duration>,
    pub move_depths: Vec<u32>,
}

impl ParticipantStats {
    /// Wins plus half the draws, as a share of the games.
    pub fn score(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        if games == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games)
    }

    pub fn mean_time(&self) -> Duration {
        let total: Duration = self.move_times.iter().sum();
        total / (self.move_times.len().max(1) as u32)
    }

    pub fn median_time(&self) -> Duration {
        let mut times = self.move_times.clone();
        times.sort();
        times.get(times.len() / 2).copied().unwrap_or_default()
    }

    pub fn max_time(&self) -> Duration {
        self.move_times.iter().max().copied().unwrap_or_default()
    }

    /// Mean deepest completed iteration over the searched moves (forced ones left out).
    pub fn mean_depth(&self) -> f64 {
        let (total, searched) = self
            .move_depths
            .iter()
            .filter(|&&depth| depth > 0)
            .fold((0u64, 0u64), |(total, searched), &depth| {
                (total + u64::from(depth), searched + 1)
            });
        total as f64 / searched.max(1) as f64
    }
}

#[derive(Clone, Debug)]
pub struct MatchReport {
    pub variant: Variant,
    pub players: Vec<Player>,
    pub seat_names: Vec<String>,
    pub games: Vec<GameSummary>,
    pub participants: Vec<ParticipantStats>,
    pub seat_wins: Vec<u32>,
    pub draws: u32,
}

impl MatchReport {
    pub(crate) fn new(
        variant: Variant,
        players: Vec<Player>,
        seat_names: Vec<String>,
        games: Vec<GameSummary>,
    ) -> Self {
        let mut participants = vec![ParticipantStats::default(); players.len()];
        let mut seat_wins = vec![0; seat_names.len()];
        let mut draws = 0;
        for game in &games {
            for (participant, times) in game.move_times.iter().enumerate() {
                participants[participant].move_times.extend(times);
            }
            for (participant, depths) in game.move_depths.iter().enumerate() {
                participants[participant].move_depths.extend(depths);
            }
            match game.result {
                GameResult::Draw => {
                    draws += 1;
                    for &participant in &game.seating {
                        participants[participant].draws += 1;
                    }
                }
                GameResult::Win(seat) => {
                    seat_wins[usize::from(seat)] += 1;
                    for (at, &participant) in game.seating.iter().enumerate() {
                        if at == usize::from(seat) {
                            participants[participant].wins += 1;
                        } else {
                            participants[participant].losses += 1;
                        }
                    }
                }
            }
        }
        MatchReport {
            variant,
            players,
            seat_names,
            games,
            participants,
            seat_wins,
            draws,
        }
    }

    /// Of the match's openings (one per `seats` games), how many were drawn again, and how many
    /// draws were turned down in all ([`MatchConfig::level_openings`](crate::selfplay::MatchConfig::level_openings)).
    pub fn opening_redraws(&self) -> (usize, u32) {
        let pairs = self.pairs();
        pairs
            .iter()
            .fold((0, 0), |(openings, draws), &(_, redraws)| {
                (openings + usize::from(redraws > 0), draws + redraws)
            })
    }

    /// The pairs played (games that share an opening), each with its opening's redraws.
    fn pairs(&self) -> Vec<(u32, u32)> {
        let seats = self.players.len().max(1) as u32;
        let mut pairs: Vec<(u32, u32)> = self
            .games
            .iter()
            .map(|game| (game.number / seats, game.opening_redraws))
            .collect();
        pairs.sort_unstable();
        pairs.dedup_by_key(|&mut (pair, _)| pair);
        pairs
    }

    /// How many games each rule ended ([`GameSummary::ending`]), in order of first appearance.
    pub fn endings(&self) -> Vec<(&'static str, u32)> {
        let mut counts: Vec<(&'static str, u32)> = Vec::new();
        for game in &self.games {
            let name = game.ending();
            match counts.iter_mut().find(|(seen, _)| *seen == name) {
                Some((_, count)) => *count += 1,
                None => counts.push((name, 1)),
            }
        }
        counts
    }

    /// One line per game, for replaying it (`damas status <game> --after "<moves>"`): its
    /// number, the player at each seat, the result, the rule that ended it, its plies and its
    /// moves (the seeded opening's included).
    pub fn game_lines(&self) -> String {
        let mut text = String::new();
        for game in &self.games {
            let index = game.number;
            let seats: Vec<String> = game
                .seating
                .iter()
                .map(|&participant| self.players[participant].label())
                .collect();
            let result = match game.result {
                GameResult::Draw => "draw".to_string(),
                GameResult::Win(seat) => format!("seat{seat}"),
            };
            text.push_str(&format!(
                "{index}\t{}\t{result}\t{}\t{}\t{}\n",
                seats.join(","),
                game.ending(),
                game.plies,
                game.moves.join(" ")
            ));
        }
        text
    }

    pub fn mean_plies(&self) -> f64 {
        let total: usize = self.games.iter().map(|game| game.plies).sum();
        total as f64 / self.games.len().max(1) as f64
    }

    /// Figures merged over the participants playing as `player`.
    pub fn by_player(&self, player: Player) -> ParticipantStats {
        let mut merged = ParticipantStats::default();
        for (stats, _) in self
            .participants
            .iter()
            .zip(&self.players)
            .filter(|(_, &p)| p == player)
        {
            merged.wins += stats.wins;
            merged.draws += stats.draws;
            merged.losses += stats.losses;
            merged.move_times.extend(&stats.move_times);
            merged.move_depths.extend(&stats.move_depths);
        }
        merged
    }

    /// The distinct players, in order of first appearance.
    pub fn distinct_players(&self) -> Vec<Player> {
        let mut distinct: Vec<Player> = Vec::new();
        for &player in &self.players {
            if !distinct.contains(&player) {
                distinct.push(player);
            }
        }
        distinct
    }
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let players: Vec<String> = self.players.iter().map(|p| p.label()).collect();
        writeln!(
            f,
            "{} ({} players): {} games, {}, seats rotated every game",
            self.variant.kind.as_str(),
            self.variant.players,
            self.games.len(),
            players.join(" vs ")
        )?;
        writeln!(
            f,
            "{:<12} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>10} {:>10} {:>10} {:>6}",
            "player",
            "seats",
            "wins",
            "draws",
            "losses",
            "score",
            "moves",
            "mean ms",
            "median ms",
            "max ms",
            "depth"
        )?;
        for player in self.distinct_players() {
            let stats = self.by_player(player);
            let seats = self.players.iter().filter(|&&p| p == player).count();
            writeln!(
                f,
                "{:<12} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>8} {:>10.1} {:>10.1} {:>10.1} {:>6.1}",
                player.label(),
                seats,
                stats.wins,
                stats.draws,
                stats.losses,
                stats.score() * 100.0,
                stats.move_times.len(),
                millis(stats.mean_time()),
                millis(stats.median_time()),
                millis(stats.max_time()),
                stats.mean_depth(),
            )?;
        }
        let games = self.games.len().max(1) as f64;
        for (seat, name) in self.seat_names.iter().enumerate() {
            writeln!(
                f,
                "seat {seat} ({name}): {} wins ({:.1}%)",
                self.seat_wins[seat],
                f64::from(self.seat_wins[seat]) * 100.0 / games
            )?;
        }
        writeln!(
            f,
            "draws: {} ({:.1}%)   mean plies: {:.1}",
            self.draws,
            f64::from(self.draws) * 100.0 / games,
            self.mean_plies()
        )?;
        let (redrawn, turned_down) = self.opening_redraws();
        if redrawn > 0 {
            let openings = self.pairs().len();
            writeln!(
                f,
                "level openings: {redrawn} of {openings} openings drawn again ({turned_down} turned down)"
            )?;
        }
        let endings: Vec<String> = self
            .endings()
            .iter()
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        writeln!(f, "endings: {}", endings.join(", "))
    }
}

/// One line of a match record (`damas-lab selfplay --record`, [`MatchReport::game_lines`]) read
/// back: where it stands (from 1), its seat count, result and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordLine {
    pub line: usize,
    pub seats: usize,
    pub result: GameResult,
    pub moves: Vec<String>,
}

/// A line (from 1) of a match record that is not one [`MatchReport::game_lines`] writes.
#[derive(Debug, PartialEq, Eq, Error)]
#[error("line {0} of the games file is not a line of `damas-lab selfplay --record`")]
pub struct BadRecordLine(pub usize);

/// The games of a match record, blank lines skipped.
pub fn read_record(text: &str) -> Result<Vec<RecordLine>, BadRecordLine> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let bad = BadRecordLine(index + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.len() != 6 {
                return Err(bad);
            }
            let seats = fields[1].split(',').count();
            let result = match fields[2] {
                "draw" => GameResult::Draw,
                won => match won
                    .strip_prefix("seat")
                    .and_then(|seat| seat.parse::<u8>().ok())
                {
                    Some(seat) if usize::from(seat) < seats => GameResult::Win(seat),
                    _ => return Err(bad),
                },
            };
            let moves: Vec<String> = fields[5].split_whitespace().map(str::to_string).collect();
            if fields[4].parse::<usize>().ok() != Some(moves.len()) {
                return Err(bad);
            }
            Ok(RecordLine {
                line: index + 1,
                seats,
                result,
                moves,
            })
        })
        .collect()
}
