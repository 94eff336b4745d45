//! The plain search agreeing with the tables on short wins, and expert playing table moves.

use super::three_pieces;
use crate::games::english::English;
use crate::games::international::International;
use crate::games::turkish::Turkish;
use crate::position::{Position, Variant};
use crate::record::Record;
use crate::search::alphabeta::{self, Params};
use crate::search::endgame::index::{Material, SliceIndex};
use crate::search::endgame::value::Value;
use crate::search::endgame::*;
use crate::search::levels::{self, MoveTime};
use crate::search::limits::Limits;
use crate::search::player;
use crate::search::score::WIN;
use crate::search::searchable::Searchable;
use crate::search::{Player, SearchContext};
use std::sync::atomic::AtomicBool;

/// For every `stride`-th position of the slice whose value is a win or loss within `within`
/// plies, the plain search without tables (full width, no reductions) finds the same result at
/// the same distance.
fn search_agrees<G: EndgameGame + Searchable>(
    tables: &GameTables,
    material: Material,
    within: u32,
    stride: u64,
) -> u32 {
    let slice = SliceIndex::new(material, G::squares());
    let stop = AtomicBool::new(false);
    let mut compared = 0;
    for index in (0..slice.len()).step_by(stride as usize) {
        let Some(placement) = slice.placement(G::squares(), index) else {
            continue;
        };
        let position = G::from_placement(&placement);
        if position.outcome().is_some() {
            continue;
        }
        let expected = match tables.probe(&position) {
            Some(Value::Win(n)) if n <= within => WIN - n as i32,
            Some(Value::Loss(n)) if n <= within && n > 0 => -(WIN - n as i32),
            _ => continue,
        };
        let params = Params {
            quiescence: true,
            ..Params::plain(Limits::depth(within + 1))
        };
        let found = alphabeta::search(&position, &[], &params, &stop, &SearchContext::new())
            .expect("has a move");
        // A single legal move is played without searching: compare its successor instead.
        if position.moves().len() == 1 {
            continue;
        }
        assert_eq!(found.score, expected, "{}", position.to_text());
        compared += 1;
    }
    compared
}

#[test]
fn plain_search_finds_the_short_wins_and_losses_of_the_tables() {
    let english = three_pieces::<English>();
    let kings21 = Material {
        men: [0, 0],
        kings: [2, 1],
    };
    let compared = search_agrees::<English>(english, kings21, 7, 97);
    assert!(compared > 20, "{compared}");
    let man = Material {
        men: [1, 0],
        kings: [0, 1],
    };
    let compared = search_agrees::<English>(english, man, 7, 1);
    assert!(compared > 20, "{compared}");
    let turkish = three_pieces::<Turkish>();
    let compared = search_agrees::<Turkish>(turkish, kings21, 5, 211);
    assert!(compared > 20, "{compared}");
    let international = three_pieces::<International>();
    let man_king = Material {
        men: [1, 0],
        kings: [1, 1],
    };
    let compared = search_agrees::<International>(international, man_king, 5, 307);
    assert!(compared > 20, "{compared}");
}

#[test]
fn expert_with_the_tables_plays_a_table_best_move_and_the_other_levels_ignore_them() {
    let dir = std::env::temp_dir().join(format!("damas-egtb-expert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build_into(GameKind::English, 3, &dir, 1, &mut |_| {}).expect("builds");
    let context = SearchContext::with_endgame(Some(dir.clone()));
    let tables = context
        .endgame()
        .tables(GameKind::English)
        .expect("loaded from the context's directory");
    let variant = Variant::standard(GameKind::English);
    let stop = AtomicBool::new(false);
    let expert = levels::config(variant, Player::Expert(MoveTime::DEFAULT));
    assert!(expert.params.endgame);
    for player in [
        Player::Cpu(crate::search::Level::Hard),
        Player::Cpu(crate::search::Level::Medium),
        Player::Cpu(crate::search::Level::Easy),
    ] {
        assert!(
            !levels::config(variant, player).params.endgame,
            "{player:?}"
        );
    }
    for fen in ["B:WK1:BK29,K30", "W:WK30,K31:BK4", "B:WK5:BK27,K32"] {
        let position = English::from_text(variant, fen).expect("valid FEN");
        let Some(Value::Win(n)) = tables.probe(&position) else {
            panic!("{fen} should be won");
        };
        let record = Record::new(position);
        let choice =
            player::choose(&record, &expert, 1, None, &stop, &context).expect("expert has a move");
        let after = position.after(&choice.mv);
        assert_eq!(
            tables.probe(&after).map(Value::parent),
            Some(Value::Win(n)),
            "{fen}: expert's move keeps the fastest win"
        );
        assert_eq!(choice.score, WIN - n as i32, "{fen}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
