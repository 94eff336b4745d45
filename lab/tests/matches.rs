//! Short matches in every game through the real harness: the counts add up, every game ends by
//! the game's own rules, and the same seed replays the same moves whatever the thread count.

use damas::catalogue;
use damas::search::{Level, SearchContext};
use damas::{GameKind, GameResult, Variant};
use damas_lab::selfplay::{self, MatchConfig, MatchReport, MAX_PLIES};
use damas_lab::Player;

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
        only_games: None,
    };
    selfplay::run(&config, &catalogue::new_game, &SearchContext::new(), None).expect("match")
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

/// The harness's level openings (`damas-lab selfplay --level-openings`) in International. Seed 3's
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
        only_games: None,
    };
    let plain = selfplay::run(
        &config(None),
        &catalogue::new_game,
        &SearchContext::new(),
        None,
    )
    .expect("match");
    let level = selfplay::run(
        &config(Some(selfplay::LEVEL_MARGIN)),
        &catalogue::new_game,
        &SearchContext::new(),
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
        let reference = Player::Reference.config(replay.variant());
        let judged = replay.decide_as(&reference, 0, None, &stop, &SearchContext::new());
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
            only_games: None,
        };
        let report = selfplay::run(&config, &catalogue::new_game, &SearchContext::new(), None)
            .expect("match");
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

/// Plays `moves` from the start of `kind`.
fn replay(kind: GameKind, moves: &[&str]) -> Box<dyn damas::search::Playable> {
    let mut game = catalogue::new_game(Variant::standard(kind), None).expect("game");
    for text in moves {
        game.play(text).expect("legal");
    }
    game
}

/// The level check plays forced moves before it judges. In Turkish, f3-f4 c6-c5 g3-g4 f6-f5
/// leaves White one move, f4xf6xf8: it takes f5 and f7 and crowns on f8 (two men and a king
/// up). The reference search answers a single legal move without searching, with a score of 0,
/// which the check alone took for level until 2026-12-06. In English, 10-15 22-17 9-14 17x10
/// leaves Black only 7x14, which takes White's man back: one man each, level. The game is left
/// as it was.
#[test]
fn the_level_check_plays_forced_moves_before_it_judges() {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut turkish = replay(GameKind::Turkish, &["f3-f4", "c6-c5", "g3-g4", "f6-f5"]);
    let texts = |game: &dyn damas::search::Playable| {
        game.legal_moves()
            .into_iter()
            .map(|mv| mv.text)
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(turkish.as_ref()), ["f4xf6xf8"]);
    let reference = Player::Reference.config(turkish.variant());
    let answer = turkish
        .decide_as(&reference, 0, None, &stop, &SearchContext::new())
        .expect("a move");
    assert_eq!((answer.score, answer.depth), (0, 0), "not searched");
    let before = (turkish.position_text(), turkish.ply());
    assert!(!selfplay::is_level_opening(
        turkish.as_mut(),
        selfplay::LEVEL_MARGIN
    ));
    assert_eq!((turkish.position_text(), turkish.ply()), before);

    let mut english = replay(GameKind::English, &["10-15", "22-17", "9-14", "17x10"]);
    assert_eq!(texts(english.as_ref()), ["7x14"]);
    let before = (english.position_text(), english.ply());
    assert!(selfplay::is_level_opening(
        english.as_mut(),
        selfplay::LEVEL_MARGIN
    ));
    assert_eq!((english.position_text(), english.ply()), before);
}

/// Turkish seed 10's 4-ply openings, as `damas-lab selfplay turkish --level-openings --seed 10`
/// draws them: four of the plain harness's ten (pairs 2, 3, 5 and 7) lose material by force and
/// are drawn again, the other six are the plain harness's own, and every opening played passes
/// the level check. Until 2026-12-06 the check played, for pairs 2, 5 and 7, three openings that
/// leave a single move (the first is the one above; the 2026-12-05 expert matches recorded
/// them): no longer. Playing only some games of a match plays them with the whole match's
/// openings.
#[test]
fn turkish_level_openings_turn_down_openings_lost_by_a_forced_capture() {
    let config = |level_openings, only_games| MatchConfig {
        variant: Variant::standard(GameKind::Turkish),
        start: None,
        players: vec![Player::Cpu(Level::Easy), Player::Cpu(Level::Easy)],
        games: 20,
        seed: 10,
        jobs: 2,
        opening_plies: 4,
        level_openings,
        only_games,
    };
    let plain = selfplay::openings(&config(None, None), &catalogue::new_game).expect("openings");
    let level = selfplay::openings(
        &config(Some(selfplay::LEVEL_MARGIN), None),
        &catalogue::new_game,
    )
    .expect("openings");
    assert_eq!((plain.len(), level.len()), (10, 10));
    let played_before = [
        (2, ["f3-f4", "c6-c5", "g3-g4", "f6-f5"]),
        (5, ["h3-h4", "b6-b5", "f3-f4", "f6-f5"]),
        (7, ["h3-h4", "a6-a5", "g3-h3", "a5-a4"]),
    ];
    for (pair, moves) in played_before {
        let mut game = replay(GameKind::Turkish, &moves);
        assert_eq!(game.legal_moves().len(), 1, "{moves:?}");
        assert!(!selfplay::is_level_opening(
            game.as_mut(),
            selfplay::LEVEL_MARGIN
        ));
        assert_ne!(level[pair].moves, moves);
    }
    for (pair, (plain, level)) in plain.iter().zip(&level).enumerate() {
        assert_eq!(plain.redraws, 0);
        if [2, 3, 5, 7].contains(&pair) {
            assert!(level.redraws > 0, "pair {pair}");
            assert_ne!(level.moves, plain.moves, "pair {pair}");
        } else {
            assert_eq!(level.redraws, 0, "pair {pair}");
            assert_eq!(level.moves, plain.moves, "pair {pair}");
        }
        let moves: Vec<&str> = level.moves.iter().map(String::as_str).collect();
        let mut game = replay(GameKind::Turkish, &moves);
        assert!(
            selfplay::is_level_opening(game.as_mut(), selfplay::LEVEL_MARGIN),
            "pair {pair}: {moves:?}"
        );
    }
    let some = selfplay::run(
        &config(Some(selfplay::LEVEL_MARGIN), Some(vec![5, 4, 12])),
        &catalogue::new_game,
        &SearchContext::new(),
        None,
    )
    .expect("match");
    let numbers: Vec<u32> = some.games.iter().map(|game| game.number).collect();
    assert_eq!(numbers, [4, 5, 12]);
    for game in &some.games {
        assert_eq!(game.moves[..4], level[game.number as usize / 2].moves[..]);
    }
    assert!(
        some.game_lines().starts_with("4\t"),
        "{}",
        some.game_lines()
    );
    assert!(
        some.to_string()
            .contains("level openings: 1 of 2 openings drawn again"),
        "{some}"
    );
}
