//! The easy level's mistakes ([`crate::search::mistakes`]) on Nim.

use super::*;

#[test]
fn mistakes_stay_within_the_margin_and_are_rarer_for_regulars() {
    let mistakes = Mistakes {
        depth: 1,
        chance: 20,
        margin: 50,
        beginner_games: 3,
        beginner_chance: 60,
        beginner_margin: 100,
        plausible_first: false,
    };
    let scored = vec![
        ("best", 300),
        ("near", 280),
        ("fair", 220),
        ("poor", 100),
        ("lost", -WIN_MIN),
    ];
    let mut picks = [[0u32; 5]; 2];
    for seed in 0..2000 {
        picks[0][mistakes.pick(&scored, None, seed)] += 1;
        picks[1][mistakes.pick(&scored, Some(0), seed)] += 1;
    }
    // Regulars: only "near" is within 50; beginners also get "fair".
    assert_eq!(picks[0][2..], [0, 0, 0]);
    assert_eq!(picks[1][3..], [0, 0]);
    assert!(picks[1][2] > 0);
    let regular_rate = f64::from(picks[0][1]) / 2000.0;
    let beginner_rate = f64::from(picks[1][1] + picks[1][2]) / 2000.0;
    assert!((0.15..0.25).contains(&regular_rate), "{regular_rate}");
    assert!((0.5..0.7).contains(&beginner_rate), "{beginner_rate}");
    assert_eq!(mistakes.pick(&[("only", -WIN_MIN)], None, 1), 0);
}
