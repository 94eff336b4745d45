//! The match harness on Nim, whose answers are known: counts add up, seats rotate, openings are
//! drawn once per seating, level openings are judged, and a match replays game for game.

use damas::search::alphabeta::Params;
use damas::search::limits::Limits;
use damas::search::mistakes::Mistakes;
use damas::search::nim::Nim;
use damas::search::player::{self, PlayerConfig};
use damas::search::{Level, SearchContext};
use damas::{Describe, GameKind, Position, Record, SetupError, Variant};
use damas_lab::selfplay::{self, MatchConfig};
use damas_lab::Player;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The Nim players: the search with budgets of their own, easy with mistakes.
fn nim_config(level: Level) -> PlayerConfig {
    let nodes = match level {
        Level::Easy => 200,
        Level::Medium => 2_000,
        Level::Hard | Level::Expert => 50_000,
    };
    PlayerConfig {
        params: Params {
            noise: 3,
            ..Params::plain(Limits {
                max_depth: 30,
                min_depth: 1,
                max_nodes: nodes,
                max_time: Duration::from_secs(10),
                soft_time: None,
                wall_cap: None,
            })
        },
        mistakes: (level == Level::Easy).then_some(Mistakes {
            depth: 2,
            chance: 30,
            margin: 10,
            beginner_games: 0,
            beginner_chance: 0,
            beginner_margin: 0,
            plausible_first: false,
        }),
    }
}

fn nim_match(players: Vec<Player>, games: u32, jobs: usize) -> selfplay::MatchReport {
    nim_match_from_openings(players, games, jobs, 0)
}

fn nim_match_from_openings(
    players: Vec<Player>,
    games: u32,
    jobs: usize,
    opening_plies: u32,
) -> selfplay::MatchReport {
    nim_match_with(players, games, jobs, opening_plies, None, &|_| 0).expect("match")
}

/// A Nim match whose reference player answers hard's move with the score `reference` gives
/// the position (the harness's judge of level openings).
fn nim_match_with(
    players: Vec<Player>,
    games: u32,
    jobs: usize,
    opening_plies: u32,
    level_openings: Option<i32>,
    reference: &(dyn Fn(&Nim) -> i32 + Sync),
) -> Result<selfplay::MatchReport, selfplay::SelfplayError> {
    nim_games(
        players,
        games,
        jobs,
        opening_plies,
        level_openings,
        None,
        reference,
    )
}

/// [`nim_match_with`] playing only `only_games` of the match.
fn nim_games(
    players: Vec<Player>,
    games: u32,
    jobs: usize,
    opening_plies: u32,
    level_openings: Option<i32>,
    only_games: Option<Vec<u32>>,
    reference: &(dyn Fn(&Nim) -> i32 + Sync),
) -> Result<selfplay::MatchReport, selfplay::SelfplayError> {
    let seats = players.len() as u8;
    let config = MatchConfig {
        variant: Variant {
            kind: GameKind::Capture,
            players: seats,
            long_jump: false,
        },
        start: None,
        players,
        games,
        seed: 11,
        jobs,
        opening_plies,
        level_openings,
        only_games,
    };
    let factory = |_: Variant, _: Option<&str>| -> Result<Box<Record<Nim>>, SetupError> {
        Ok(Box::new(Record::new(Nim::new([9, 10, 11, 12], seats))))
    };
    let mover = |record: &Record<Nim>, player: Player, seed: u64, stop: &AtomicBool| {
        let (level, score) = match player {
            Player::Cpu(level) => (level, None),
            Player::Reference => (Level::Hard, Some(reference(record.position()))),
            _ => return None,
        };
        let choice = player::choose(
            record,
            &nim_config(level),
            seed,
            None,
            stop,
            &SearchContext::new(),
        )?;
        Some(selfplay::Answer {
            info: record.position().move_info(&choice.mv),
            score: score.unwrap_or(choice.score),
            depth: choice.depth,
        })
    };
    selfplay::run_with(&config, &factory, &mover, None)
}

/// The piles' XOR after replaying a game's first `plies` moves from the test match's start.
fn nim_sum_after(moves: &[String], plies: usize, seats: u8) -> u8 {
    let mut nim = Nim::new([9, 10, 11, 12], seats);
    for text in &moves[..plies] {
        let mv = nim.parse_move(text).expect("a Nim move");
        nim.play(&mv);
    }
    nim.piles.iter().fold(0, |x, &pile| x ^ pile)
}

#[test]
fn level_openings_keep_only_openings_the_reference_calls_level() {
    // The judge calls a Nim position level when its piles' XOR is 0 (the side to move
    // loses against perfect play) and a man up otherwise.
    let judge = |nim: &Nim| {
        if nim.piles.iter().fold(0, |x, &p| x ^ p) == 0 {
            0
        } else {
            100
        }
    };
    let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
    let plain = nim_match_with(players.clone(), 16, 2, 3, None, &judge).expect("match");
    let level = nim_match_with(players, 16, 2, 3, Some(50), &judge).expect("match");
    let unbalanced = |report: &selfplay::MatchReport| {
        report
            .games
            .iter()
            .filter(|g| nim_sum_after(&g.moves, 3, 2) != 0)
            .count()
    };
    assert!(
        unbalanced(&plain) > 0,
        "the plain openings include unbalanced ones"
    );
    assert_eq!(unbalanced(&level), 0, "{level}");
    let (redrawn, turned_down) = level.opening_redraws();
    assert!(redrawn > 0 && turned_down as usize >= redrawn, "{level}");
    assert_eq!(plain.opening_redraws(), (0, 0));
    for (plain, level) in plain.games.iter().zip(&level.games) {
        // Both games of a pair share the opening, and an opening level at its first draw
        // is the plain harness's own.
        if level.opening_redraws == 0 {
            assert_eq!(plain.moves[..3], level.moves[..3]);
        } else {
            assert_ne!(plain.moves[..3], level.moves[..3]);
        }
    }
    for pair in level.games.chunks(2) {
        assert_eq!(pair[0].moves[..3], pair[1].moves[..3]);
        assert_eq!(pair[0].opening_redraws, pair[1].opening_redraws);
    }
    assert!(
        level.to_string().contains("openings drawn again"),
        "{level}"
    );
}

#[test]
fn a_match_without_any_level_opening_stops_with_an_error() {
    let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
    let result = nim_match_with(players, 2, 1, 3, Some(50), &|_| 500);
    assert!(
        matches!(
            result,
            Err(selfplay::SelfplayError::NoLevelOpening {
                draws: selfplay::OPENING_DRAWS,
                ..
            })
        ),
        "{result:?}"
    );
}

#[test]
fn a_match_plays_only_the_games_asked_for_as_the_whole_match_plays_them() {
    let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
    let whole = nim_match_with(players.clone(), 10, 2, 3, None, &|_| 0).expect("match");
    let some = nim_games(
        players.clone(),
        10,
        2,
        3,
        None,
        Some(vec![7, 2, 7, 3]),
        &|_| 0,
    )
    .expect("match");
    let numbers: Vec<u32> = some.games.iter().map(|game| game.number).collect();
    assert_eq!(numbers, [2, 3, 7]);
    for game in &some.games {
        let same = &whole.games[game.number as usize];
        assert_eq!((&game.moves, game.result), (&same.moves, same.result));
        assert_eq!(game.seating, same.seating);
    }
    let text = some.game_lines();
    let lines: Vec<&str> = text
        .lines()
        .map(|line| line.split('\t').next().unwrap_or(""))
        .collect();
    assert_eq!(lines, ["2", "3", "7"]);
    let firsts = |report: &selfplay::MatchReport| -> Vec<Vec<String>> {
        report
            .games
            .iter()
            .map(|game| game.moves[..3].to_vec())
            .collect()
    };
    let config = |only_games| MatchConfig {
        variant: Variant {
            kind: GameKind::Capture,
            players: 2,
            long_jump: false,
        },
        start: None,
        players: players.clone(),
        games: 10,
        seed: 11,
        jobs: 1,
        opening_plies: 3,
        level_openings: None,
        only_games,
    };
    let factory = |_: Variant, _: Option<&str>| -> Result<Box<Record<Nim>>, SetupError> {
        Ok(Box::new(Record::new(Nim::new([9, 10, 11, 12], 2))))
    };
    let never = |_: &Record<Nim>, _: Player, _: u64, _: &AtomicBool| None;
    let listed =
        selfplay::openings_with(&config(Some(vec![3, 7])), &factory, &never).expect("openings");
    let pairs: Vec<u32> = listed.iter().map(|draw| draw.pair).collect();
    assert_eq!(pairs, [1, 3]);
    assert_eq!(listed[0].moves, firsts(&some)[1]);
    assert_eq!(listed[1].moves, firsts(&some)[2]);
    let all = selfplay::openings_with(&config(None), &factory, &never).expect("openings");
    assert_eq!(all.len(), 5);
    let beyond = nim_games(players, 10, 1, 3, None, Some(vec![3, 10]), &|_| 0);
    assert!(
        matches!(
            beyond,
            Err(selfplay::SelfplayError::NoSuchGame {
                game: 10,
                games: 10
            })
        ),
        "{beyond:?}"
    );
}

#[test]
fn a_match_counts_every_game_once_and_rotates_seats() {
    let report = nim_match(
        vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Easy)],
        8,
        2,
    );
    assert_eq!(report.games.len(), 8);
    let hard = report.by_player(Player::Cpu(Level::Hard));
    let easy = report.by_player(Player::Cpu(Level::Easy));
    assert_eq!(hard.wins + hard.draws + hard.losses, 8);
    assert_eq!(hard.wins, easy.losses);
    assert_eq!(report.seat_wins.iter().sum::<u32>() + report.draws, 8);
    for (index, game) in report.games.iter().enumerate() {
        assert_eq!(game.seating[0], index % 2, "participant 0 alternates seats");
        assert_eq!(game.plies, game.moves.len());
        let depths: usize = game.move_depths.iter().map(Vec::len).sum();
        assert_eq!(depths, game.plies, "one depth per move");
    }
    // Easy scores its moves 2 plies deep; hard deepens on 50 000 nodes.
    assert_eq!(easy.mean_depth(), 2.0);
    assert!(hard.mean_depth() > 4.0, "{report}");
    // In Nim [9,10,11,12] the XOR of 1, 2, 3, 0 is 0: the first player loses against perfect
    // play, so the hard player wins at least the games where it moves second.
    assert!(hard.wins >= 4, "{report}");
    assert!(report.to_string().contains("hard"));
}

#[test]
fn seeded_openings_are_played_once_with_each_seating() {
    let players = vec![Player::Cpu(Level::Hard), Player::Cpu(Level::Medium)];
    let report = nim_match_from_openings(players.clone(), 12, 2, 3);
    let openings: Vec<&[String]> = report.games.iter().map(|g| &g.moves[..3]).collect();
    for pair in openings.chunks(2) {
        assert_eq!(pair[0], pair[1], "both seatings play the same opening");
    }
    let distinct: std::collections::HashSet<_> = openings.iter().collect();
    assert!(
        distinct.len() > 1,
        "openings vary with the game: {openings:?}"
    );
    // The players' moves come after the opening: the same match without one differs.
    let plain = nim_match(players, 12, 2);
    assert_ne!(
        plain.games.iter().map(|g| &g.moves).collect::<Vec<_>>(),
        report.games.iter().map(|g| &g.moves).collect::<Vec<_>>()
    );
    assert_eq!(report.games.len(), 12);
}

#[test]
fn a_three_seat_match_adds_up_and_replays() {
    let players = vec![
        Player::Cpu(Level::Hard),
        Player::Cpu(Level::Medium),
        Player::Cpu(Level::Medium),
    ];
    let one = nim_match(players.clone(), 6, 1);
    let two = nim_match(players, 6, 2);
    let wins: u32 = one.participants.iter().map(|p| p.wins).sum();
    assert_eq!(wins + one.draws, 6);
    for (a, b) in one.games.iter().zip(&two.games) {
        assert_eq!(
            a.moves, b.moves,
            "same seed, same moves, whatever the threads"
        );
    }
}
