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
        level_openings: None,
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

/// The harness's level openings (`damas selfplay --level-openings`) in International. Seed 3's
/// first opening is 34-29 16-21 29-23 19x28: White's man on 23 is taken, White takes back once
/// (32x23 or 33x22) and Black again (18x29; 17x28 or 18x27), and White has no capture left:
/// Black is a man up by force, which the reference search sees (about -100 for White, to move).
/// That opening is drawn again, and the one played instead is one the reference search scores
/// within half a man (checked by asking the reference player on the replayed opening). The
/// second opening (34-30 19-24 30x19 14x23, one man each) is kept as the plain harness plays it.
#[test]
fn level_openings_replace_an_international_opening_that_loses_a_man() {
    let config = |level_openings| MatchConfig {
        variant: Variant::standard(GameKind::International),
        start: None,
        players: vec![Player::Cpu(Level::Easy), Player::Cpu(Level::Easy)],
        games: 4,
        seed: 3,
        jobs: 2,
        opening_plies: 4,
        level_openings,
    };
    let plain = selfplay::run(&config(None), &catalogue::new_game, None).expect("match");
    let level = selfplay::run(
        &config(Some(selfplay::LEVEL_MARGIN)),
        &catalogue::new_game,
        None,
    )
    .expect("match");
    let opening = |report: &MatchReport, game: usize| report.games[game].moves[..4].to_vec();
    assert_eq!(opening(&plain, 0), ["34-29", "16-21", "29-23", "19x28"]);
    assert_eq!(opening(&plain, 2), ["34-30", "19-24", "30x19", "14x23"]);
    assert_eq!(opening(&level, 2), opening(&plain, 2));
    assert_eq!(level.games[2].opening_redraws, 0);
    assert!(level.games[0].opening_redraws > 0, "{level}");
    assert_ne!(opening(&level, 0), opening(&plain, 0));
    assert_eq!(
        opening(&level, 1),
        opening(&level, 0),
        "one opening per pair"
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    let judge = |moves: Vec<String>| {
        let mut replay =
            catalogue::new_game(Variant::standard(GameKind::International), None).expect("game");
        for text in moves {
            replay.play(&text).expect("legal");
        }
        let judged = replay.decide(Player::Reference, 0, None, &stop);
        judged.expect("a move").score
    };
    assert!(judge(opening(&plain, 0)) <= -selfplay::LEVEL_MARGIN);
    for game in [0, 2] {
        let score = judge(opening(&level, game));
        assert!(score.abs() < selfplay::LEVEL_MARGIN, "game {game}: {score}");
    }
    assert_adds_up(&level, 4);
    assert!(
        level
            .to_string()
            .contains("level openings: 1 of 2 openings drawn again"),
        "{level}"
    );
}

/// Matches with different seeds draw different openings: seeds 1 and 2 share none of their
/// 4-ply International openings (until 2026-12-05 seed 2's openings were seed 1's shifted by one
/// pair, so that three of its four were seed 1's).
#[test]
fn seeds_draw_their_own_openings() {
    let openings = |seed| {
        let config = MatchConfig {
            variant: Variant::standard(GameKind::International),
            start: None,
            players: vec![Player::Cpu(Level::Easy), Player::Cpu(Level::Easy)],
            games: 8,
            seed,
            jobs: 2,
            opening_plies: 4,
            level_openings: None,
        };
        let report = selfplay::run(&config, &catalogue::new_game, None).expect("match");
        report
            .games
            .iter()
            .map(|game| game.moves[..4].to_vec())
            .collect::<Vec<_>>()
    };
    let one = openings(1);
    let two = openings(2);
    assert!(
        one.iter().all(|opening| !two.contains(opening)),
        "{one:?}\n{two:?}"
    );
}
