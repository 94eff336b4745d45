//! A player on a record, and the object-safe face, on Nim.

use super::*;

fn nim_config(level: Level) -> PlayerConfig {
    let nodes = match level {
        Level::Easy => 200,
        Level::Medium => 2_000,
        Level::Hard | Level::Expert => 50_000,
    };
    PlayerConfig {
        params: Params {
            noise: 3,
            ..params(Limits {
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

#[test]
fn every_level_answers_a_legal_move_even_when_stopped_at_once() {
    let record = Record::new(Nim::new([30, 31, 32, 33], 2));
    let stop = AtomicBool::new(true);
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        let choice = player::choose(
            &record,
            &nim_config(level),
            3,
            None,
            &stop,
            &SearchContext::new(),
        )
        .expect("a move");
        assert!(record.position().moves().contains(&choice.mv), "{level:?}");
    }
}

#[test]
fn a_test_game_plays_through_the_object_safe_face_like_a_real_one() {
    // Piles 3, 4, 5: the XOR of 3, 0, 1 is not zero, so the side to move wins.
    let game: Box<dyn Playable> = Box::new(Record::new(Nim::new([3, 4, 5, 0], 2)));
    let stop = AtomicBool::new(false);
    let hard = Player::Cpu(Level::Hard);
    let first = game
        .decide(hard, 9, None, &stop, &SearchContext::new())
        .expect("a move");
    assert!(game.legal_moves().contains(&first.info));
    assert!(first.score >= WIN_MIN, "{first:?}");
    assert_eq!(
        game.decide(hard, 9, None, &stop, &SearchContext::new()),
        Some(first.clone())
    );
    let mut next = game.clone_box();
    next.play(&first.info.text).expect("legal");
    assert_eq!(next.ply(), 1);
    assert_eq!(game.ply(), 0, "the clone is a copy");
}
