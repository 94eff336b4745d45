//! The pool of expert's transposition tables kept between moves (search/table_pool.rs).

use crate::games::international::International;
use crate::position::{GameKind, Position};
use crate::position::{Seat, Variant};
use crate::search::alphabeta;
use crate::search::levels::{self, MoveTime};
use crate::search::limits::Limits;
use crate::search::table::Bound;
use crate::search::table::Table;
use crate::search::table_pool::{Owner, TablePool};
use crate::search::{Player, SearchContext};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Expert's parameters on one search thread.
fn expert_single(variant: Variant) -> alphabeta::Params {
    alphabeta::Params {
        threads: 1,
        ..levels::config(variant, Player::Expert(MoveTime::DEFAULT)).params
    }
}

fn owner(kind: GameKind, seat: Seat) -> Owner {
    let variant = Variant::standard(kind);
    Owner {
        variant,
        seat,
        params: expert_single(variant),
    }
}

#[test]
fn a_table_goes_back_to_its_owner_and_to_no_one_else() {
    let pool = TablePool::new(2);
    let white = owner(GameKind::English, 0);
    let table = pool.take(white, 6, 11);
    assert!(table.probe(11, 0).is_none(), "a new table is empty");
    table.store(11, 0, 5, 42, Bound::Exact, 0);
    pool.give_back(white, table);
    let slower = Owner {
        params: alphabeta::Params {
            reductions: false,
            ..white.params
        },
        ..white
    };
    for other in [
        owner(GameKind::English, 1),
        owner(GameKind::International, 0),
        slower,
    ] {
        assert!(pool.take(other, 6, 11).probe(11, 0).is_none(), "{other:?}");
    }
    assert!(
        pool.take(white, 7, 11).probe(11, 0).is_none(),
        "a table of another size is not handed out"
    );
    let again = pool.take(white, 6, 11);
    assert_eq!(again.probe(11, 0).map(|entry| entry.score), Some(42));
    assert!(
        pool.take(white, 6, 11).probe(11, 0).is_none(),
        "a table is handed to one search at a time"
    );
}

#[test]
fn the_table_holding_the_root_is_preferred_and_the_oldest_dropped() {
    let pool = TablePool::new(2);
    let white = owner(GameKind::International, 0);
    let with_key = |key: u64| {
        let table = Table::new(6);
        table.store(key, 0, 3, key as i32, Bound::Exact, 0);
        table
    };
    pool.give_back(white, with_key(1));
    pool.give_back(white, with_key(2));
    assert_eq!(pool.take(white, 6, 1).probe(1, 0).map(|e| e.score), Some(1));
    pool.give_back(white, with_key(1));
    pool.give_back(white, with_key(3));
    // Capacity 2: the table holding 2 was the least recently given back, and is gone. With
    // no table holding the root, the most recent one comes first.
    let holds = |table: &Table| [1, 2, 3].map(|key| table.probe(key, 0).is_some());
    assert_eq!(holds(&pool.take(white, 6, 2)), [false, false, true]);
    assert_eq!(holds(&pool.take(white, 6, 2)), [true, false, false]);
    assert_eq!(holds(&pool.take(white, 6, 2)), [false, false, false]);
}

/// Expert's searches two plies after its last one, to the same depth: with the table kept
/// from that search they visit fewer positions than from an empty table. Both seats play
/// the searches' best moves from the International start, each on its own kept table; at
/// each of white's moves after its first, the same search runs again on an empty table.
/// `--nocapture` prints the totals (docs/cpu.md, "Tables kept between moves").
#[test]
#[ignore = "deep: 55 searches 12 plies deep (about 20 s)"]
fn a_kept_table_lets_the_seats_next_search_reach_its_depth_on_fewer_nodes() {
    const DEPTH: u32 = 12;
    const PLIES: usize = 40;
    let variant = Variant::standard(GameKind::International);
    let expert = expert_single(variant);
    let hour = Duration::from_secs(3600);
    let params = alphabeta::Params {
        limits: Limits::timed(hour, hour, DEPTH),
        ..expert
    };
    let stop = AtomicBool::new(false);
    let kept = SearchContext::new();
    let search = |position: &International, context: &SearchContext| {
        alphabeta::search(position, &[], &params, &stop, context).expect("a move")
    };
    let mut position = International::start(variant).expect("the start");
    let (mut kept_nodes, mut fresh_nodes, mut compared) = (0, 0, 0);
    for ply in 0..PLIES {
        let found = search(&position, &kept);
        if ply >= 2 && ply % 2 == 0 && found.depth > 0 {
            let fresh = search(&position, &SearchContext::new());
            assert_eq!((found.depth, fresh.depth), (DEPTH, DEPTH), "ply {ply}");
            kept_nodes += found.nodes;
            fresh_nodes += fresh.nodes;
            compared += 1;
        }
        position = position.after(&found.best);
    }
    eprintln!(
        "{compared} searches {DEPTH} plies deep: {kept_nodes} nodes with kept tables, \
         {fresh_nodes} from empty ones"
    );
    assert!(compared >= 10, "only {compared} searched positions");
    assert!(
        kept_nodes * 100 < fresh_nodes * 95,
        "{kept_nodes} nodes with kept tables, {fresh_nodes} from empty ones"
    );
}
