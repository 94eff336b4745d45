//! Short matches in every game through the real harness: the counts add up, every game ends by
//! the game's own rules, and the same seed replays the same moves whatever the thread count.

use damas::catalogue;
use damas::search::selfplay::{self, MatchConfig, MatchReport, MAX_PLIES};
use damas::search::{Level, Player};
use damas::{GameKind, GameResult, Variant};

fn play(kind: GameKind, players: u8, levels: &[Level], games: u32, jobs: usize) -> MatchReport {
    let config = MatchConfig {
        variant: Variant::new(kind, Some(players), false).expect("variant"),
        start: None,
        players: levels.iter().map(|&level| Player::Cpu(level)).collect(),
        games,
        seed: 5,
        jobs,
        opening_plies: 0,
    };
    selfplay::run(&config, &catalogue::new_game, None).expect("match")
}

fn assert_adds_up(report: &MatchReport, games: u32) {
    assert_eq!(report.games.len(), games as usize);
    let wins: u32 = report.participants.iter().map(|p| p.wins).sum();
    assert_eq!(wins + report.draws, games, "{report}");
    assert_eq!(report.seat_wins.iter().sum::<u32>() + report.draws, games);
    for stats in &report.participants {
        assert_eq!(stats.wins + stats.draws + stats.losses, games, "{report}");
    }
    for (index, game) in report.games.iter().enumerate() {
        assert_eq!(game.plies, game.moves.len());
        let seats = game.seating.len();
        for participant in 0..seats {
            assert_eq!(
                game.seating[(participant + index) % seats],
                participant,
                "seats rotate every game"
            );
        }
        if let GameResult::Win(seat) = game.result {
            assert!(usize::from(seat) < game.seating.len());
        }
        // Every game ends by a rule of its game, never by the harness's ply cap.
        assert!(
            game.reason.is_some() && game.plies < MAX_PLIES,
            "game {index} stopped by the harness at {} plies",
            game.plies
        );
    }
    let text = report.to_string();
    for name in ["player", "seat 0", "draws", "mean plies", "endings: "] {
        assert!(text.contains(name), "{text}");
    }
    let endings = report.endings();
    assert_eq!(endings.iter().map(|(_, count)| count).sum::<u32>(), games);
    for (name, count) in endings {
        let ended = report
            .games
            .iter()
            .filter(|game| game.reason.map(|reason| reason.as_str()) == Some(name))
            .count();
        assert_eq!(ended, count as usize, "{name}: {text}");
    }
}

/// Each line of [`MatchReport::game_lines`] replays, move by move on a fresh game, to the end
/// it reports.
fn assert_lines_replay(report: &MatchReport) {
    let lines = report.game_lines();
    assert_eq!(lines.lines().count(), report.games.len(), "{lines}");
    for (line, game) in lines.lines().zip(&report.games) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "{line}");
        let labels: Vec<String> = game
            .seating
            .iter()
            .map(|&participant| report.players[participant].label())
            .collect();
        assert_eq!(fields[1], labels.join(","));
        let mut replay = catalogue::new_game(report.variant, None).expect("start");
        for text in fields[5].split(' ') {
            replay.play(text).expect("a recorded move replays");
        }
        let outcome = replay.outcome().expect("the replayed game is over");
        let result = match outcome.result {
            GameResult::Draw => "draw".to_string(),
            GameResult::Win(seat) => format!("seat{seat}"),
        };
        assert_eq!(outcome.result, game.result);
        assert_eq!(fields[2], result, "{line}");
        assert_eq!(fields[3], outcome.reason.as_str(), "{line}");
        assert_eq!(fields[4], game.plies.to_string(), "{line}");
    }
}

fn smoke(kind: GameKind, players: u8, levels: &[Level], games: u32) {
    let one = play(kind, players, levels, games, 1);
    assert_adds_up(&one, games);
    assert_lines_replay(&one);
    let two = play(kind, players, levels, games, 2);
    for (a, b) in one.games.iter().zip(&two.games) {
        assert_eq!(a.moves, b.moves, "{kind:?}: same seed, same moves");
        assert_eq!((a.result, a.reason), (b.result, b.reason));
    }
}

#[test]
fn english_smoke_match() {
    smoke(GameKind::English, 2, &[Level::Medium, Level::Easy], 2);
}

#[test]
fn international_smoke_match() {
    smoke(GameKind::International, 2, &[Level::Medium, Level::Easy], 2);
}

#[test]
fn turkish_smoke_match() {
    smoke(GameKind::Turkish, 2, &[Level::Medium, Level::Easy], 2);
}

#[test]
fn diamond_two_player_smoke_match() {
    smoke(GameKind::Diamond, 2, &[Level::Medium, Level::Easy], 2);
}

#[test]
fn diamond_three_player_smoke_match() {
    smoke(
        GameKind::Diamond,
        3,
        &[Level::Medium, Level::Easy, Level::Easy],
        3,
    );
}

#[test]
fn capture_smoke_matches() {
    smoke(GameKind::Capture, 2, &[Level::Medium, Level::Easy], 2);
    smoke(
        GameKind::Capture,
        4,
        &[Level::Medium, Level::Easy, Level::Easy, Level::Easy],
        4,
    );
    // Hard with three seats searches by Monte-Carlo tree search: seeded, so it replays too.
    smoke(
        GameKind::Capture,
        3,
        &[Level::Hard, Level::Medium, Level::Medium],
        3,
    );
}
