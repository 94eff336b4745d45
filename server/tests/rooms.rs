//! Rooms end to end: a real server on a loopback port, real WebSocket clients. Every rule of
//! the seeds' "play with friends" sections: create, join, full games of the five
//! games judged by the server, rematch rotations, the CPU in free seats, leaving, dropped
//! connections (45 s takeover on the server's test-moved time), clocks with byo-yomi, expiry,
//! spectators.

use crate::common;

use common::{is_over, pick_move, ply, to_move, wait_until, Client, TestServer, PATIENCE};
use damas_server::store::{RoomCode, RoomStore};
use serde_json::{json, Value};
use std::time::Duration;

/// Plays until the game is over, each seat's client picking from the server's legal moves.
/// Returns the moves sent (all acknowledged) and the final room.
async fn play_to_end(
    clients: &mut [Client],
    seed: &mut u64,
    max_plies: u64,
) -> (Vec<String>, Value) {
    let mut sent = Vec::new();
    loop {
        let mut room = Value::Null;
        let mut expected = None;
        for client in clients.iter_mut() {
            let seen = client
                .state_where(|s| {
                    let r = &s["room"];
                    r["started"] == true && (is_over(r) || expected.is_none_or(|p| ply(r) >= p))
                })
                .await;
            expected = Some(ply(&seen));
            room = seen;
        }
        // Every client must agree on the position before the next move.
        let target = ply(&room);
        for client in clients.iter_mut() {
            room = client
                .state_where(|s| ply(&s["room"]) == target || is_over(&s["room"]))
                .await;
        }
        if is_over(&room) {
            return (sent, room);
        }
        assert!(target < max_plies, "game not over after {max_plies} plies");
        let seat = to_move(&room);
        let mover = clients
            .iter_mut()
            .find(|c| c.you() == Some(seat))
            .expect("a client sits at the seat to move");
        let text = pick_move(mover.room(), seed);
        mover.play(&text, target).await;
        sent.push(text);
        for client in clients.iter_mut() {
            client
                .state_where(|s| ply(&s["room"]) > target || is_over(&s["room"]))
                .await;
        }
    }
}

fn history(room: &Value) -> Vec<String> {
    room["view"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["move"]["move"].as_str().unwrap().to_string())
        .collect()
}

async fn full_game_and_rematch(kind: &str, seed: u64, max_plies: u64) {
    let server = TestServer::start_unthrottled().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create(kind, 2, Value::Null).await;
    if kind != "english" {
        assert_eq!(ana_seat, 0, "the creator takes the first seat");
    }
    let code = ana.code.clone().unwrap();
    let waiting = ana.state_where(|_| true).await;
    assert_eq!(waiting["started"], false);
    assert_eq!(waiting["code"], code.as_str());
    let mut bea = server.client().await;
    let bea_seat = bea.join(&code, "  Bea  ").await;
    assert_eq!(bea_seat, 1 - ana_seat);
    // Two players: the game starts as soon as the friend sits (Turkish seed).
    let started = bea.state_where(|s| s["room"]["started"] == true).await;
    assert_eq!(started["seats"][bea_seat as usize]["nickname"], "Bea");
    assert_eq!(started["seats"][ana_seat as usize]["nickname"], "Ana");
    let english_clock = kind == "english";
    assert_eq!(
        !started["clock"].is_null(),
        english_clock,
        "English has a clock by default"
    );
    let mut clients = [ana, bea];
    let mut seed = seed;
    let (sent, end) = play_to_end(&mut clients, &mut seed, max_plies).await;
    assert_eq!(
        history(&end),
        sent,
        "the record holds exactly the acknowledged moves"
    );
    assert!(end["view"]["legal_moves"].as_array().unwrap().is_empty());
    assert!(end["result"]["reason"].is_string());
    assert_eq!(end["view"]["outcome"]["winner"], end["result"]["winner"]);

    // Rematch: everyone one seat on (2 players: sides swapped), the first seat starts.
    clients[1].send(json!({"v":1,"type":"rematch"})).await;
    // The sender first: a refusal would show there.
    for client in clients.iter_mut().rev() {
        let room = client.state_where(|s| s["room"]["rematch"] == 1).await;
        assert_eq!(ply(&room), 0);
        assert!(room["result"].is_null());
        assert_eq!(room["started"], true);
    }
    assert_eq!(clients[0].you(), Some(1 - ana_seat));
    assert_eq!(clients[1].you(), Some(ana_seat));
    let room = clients[0].room().clone();
    assert_eq!(room["seats"][(1 - ana_seat) as usize]["nickname"], "Ana");
    assert_eq!(to_move(&room), 0);
    let first = clients.iter_mut().find(|c| c.you() == Some(0)).unwrap();
    let text = pick_move(&room, &mut seed);
    first.play(&text, 0).await;
    for client in clients.iter_mut() {
        client.state_where(|s| ply(&s["room"]) == 1).await;
    }
}

/// After the first whole state, a client that holds the last state gets deltas (only the new
/// history, no layout): completed by the client they equal the whole state `sync` sends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn states_after_the_first_are_deltas_that_complete_to_the_whole_state() {
    let server = TestServer::start_unthrottled().await;
    let mut ana = server.client().await;
    ana.create("turkish", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    bea.join(&code, "Bea").await;
    let mut clients = [ana, bea];
    let mut seed = 7;
    let (sent, _) = play_to_end(&mut clients, &mut seed, 1000).await;
    for client in clients.iter_mut() {
        assert!(
            client.deltas >= sent.len(),
            "{} deltas for {} moves",
            client.deltas,
            sent.len()
        );
        let mut held = client.room().clone();
        client.send(json!({"v":1,"type":"sync"})).await;
        let message = client.next().await.expect("state");
        assert_eq!(message["type"], "state");
        let mut whole = message["room"].clone();
        assert!(
            whole.get("history_from").is_none(),
            "sync sends the whole state"
        );
        assert_eq!(history(&whole), sent);
        for room in [&mut held, &mut whole] {
            room.as_object_mut().unwrap().remove("now");
        }
        assert_eq!(held, whole);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn english_full_game_and_rematch() {
    full_game_and_rematch("english", 1, 1000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turkish_full_game_and_rematch() {
    full_game_and_rematch("turkish", 2, 1000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn international_full_game_and_rematch() {
    full_game_and_rematch("international", 3, 1500).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diamond_full_game_and_rematch() {
    full_game_and_rematch("diamond", 4, 1300).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capture_full_game_and_rematch() {
    full_game_and_rematch("capture", 5, 1500).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn english_colours_are_drawn_at_random() {
    let server = TestServer::start().await;
    let mut seats = std::collections::HashSet::new();
    for _ in 0..40 {
        let mut client = server.client().await;
        seats.insert(client.create("english", 2, Value::Null).await);
        client.close().await;
        if seats.len() == 2 {
            break;
        }
    }
    assert_eq!(seats.len(), 2, "the creator got both colours over 40 rooms");
}

/// Three players, the CPU in the free seat; then one leaves and the CPU plays that seat too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_players_cpu_seat_and_leave() {
    let server = TestServer::start_unthrottled().await;
    let mut ana = server.client().await;
    assert_eq!(ana.create("diamond", 3, Value::Null).await, 0);
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    assert_eq!(bea.join(&code, "Bea").await, 1);
    let room = bea
        .state_where(|s| s["room"]["seats"][1]["kind"] == "human")
        .await;
    assert_eq!(room["started"], false, "a third seat is still free");
    bea.expect_error(json!({"v":1,"type":"move","move":"x"}), "not_started")
        .await;
    ana.send(json!({"v":1,"type":"start_cpu"})).await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    assert_eq!(room["seats"][2]["kind"], "cpu");
    assert_eq!(room["seats"][2]["cpu_playing"], true);
    ana.expect_error(json!({"v":1,"type":"start_cpu"}), "already_started")
        .await;

    // Two rounds: the humans move, the CPU (seat 2) answers by itself.
    let mut seed = 11;
    let mut clients = [ana, bea];
    for _ in 0..4 {
        let room = clients[0].state_where(|s| to_move(&s["room"]) != 2).await;
        let target = ply(&room);
        let seat = to_move(&room);
        let mover = clients.iter_mut().find(|c| c.you() == Some(seat)).unwrap();
        let room = mover.state_where(|s| ply(&s["room"]) == target).await;
        let text = pick_move(&room, &mut seed);
        mover.play(&text, target).await;
        clients[0].state_where(|s| ply(&s["room"]) > target).await;
    }
    let room = clients[0].state_where(|s| to_move(&s["room"]) == 0).await;
    let seats: Vec<u64> = room["view"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, [0, 1, 2, 0, 1, 2], "the CPU played seat 2's turns");

    // Ana leaves a 3-player game: the CPU plays her seat from now on.
    let [ana, mut bea] = clients;
    let mut ana = ana;
    ana.send(json!({"v":1,"type":"leave"})).await;
    assert_eq!(ana.reply().await["type"], "left");
    let room = bea
        .state_where(|s| s["room"]["seats"][0]["left"] == true)
        .await;
    assert_eq!(room["seats"][0]["cpu_playing"], true);
    assert!(
        room["result"].is_null(),
        "leaving 3 players does not end the game"
    );
    // Bea plays on alone against two CPUs until the end.
    let mut moves_by_bea = 0;
    loop {
        let room = bea
            .state_where(|s| is_over(&s["room"]) || to_move(&s["room"]) == 1)
            .await;
        if is_over(&room) {
            break;
        }
        assert!(ply(&room) < 1300, "game did not end");
        let text = pick_move(&room, &mut seed);
        let target = ply(&room);
        bea.play(&text, target).await;
        moves_by_bea += 1;
        bea.state_where(|s| ply(&s["room"]) > target).await;
    }
    assert!(moves_by_bea > 0);
    let end = bea.room().clone();
    let history = end["view"]["history"].as_array().unwrap();
    assert!(
        history.iter().skip(6).any(|h| h["seat"] == 0),
        "the CPU moved for Ana"
    );
    // A leaver's token no longer works.
    let mut back = server.client().await;
    back.expect_error(
        json!({"v":1,"type":"resume","code":code,"token":ana.token.clone().unwrap()}),
        "bad_token",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_two_player_game_resigns() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create("turkish", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    let bea_seat = bea.join(&code, "Bea").await;
    bea.state_where(|s| s["room"]["started"] == true).await;
    bea.send(json!({"v":1,"type":"leave"})).await;
    assert_eq!(bea.reply().await["type"], "left");
    let room = ana.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["winner"], ana_seat);
    assert_eq!(room["result"]["reason"], "resignation");
    assert_eq!(room["seats"][bea_seat as usize]["left"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_ends_the_game() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create("international", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    bea.join(&code, "Bea").await;
    ana.state_where(|s| s["room"]["started"] == true).await;
    ana.send(json!({"v":1,"type":"resign"})).await;
    let room = bea.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["winner"], 1 - ana_seat);
    ana.expect_error(json!({"v":1,"type":"resign"}), "game_over")
        .await;
}

/// A dropped player: after 45 s (server time, moved by the test) the CPU plays their turns;
/// back with the seat token, the seat is theirs again at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_player_cpu_takeover_and_reconnect() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create("english", 2, json!("none")).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    let bea_seat = bea.join(&code, "Bea").await;
    let token = bea.token.clone().unwrap();
    let mut seed = 3;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    if to_move(&room) == ana_seat {
        let text = pick_move(&room, &mut seed);
        ana.play(&text, 0).await;
    }
    // Bea to move, and her connection drops.
    let room = bea.state_where(|s| ply(&s["room"]) == 1 - ana_seat).await;
    let target = ply(&room);
    assert_eq!(to_move(&room), bea_seat);
    bea.close().await;
    let room = ana
        .state_where(|s| s["room"]["seats"][bea_seat as usize]["connected"] == false)
        .await;
    let away_since = room["seats"][bea_seat as usize]["away_since"]
        .as_u64()
        .unwrap_or_else(|| panic!("no away_since: {room}"));
    // Clients show the countdown to this instant.
    assert_eq!(
        room["seats"][bea_seat as usize]["takeover_at"].as_u64(),
        Some(away_since + 45_000),
        "{room}"
    );
    assert_eq!(
        room["seats"][bea_seat as usize]["cpu_playing"], false,
        "{room}"
    );

    // 44 s: still Bea's seat, nobody moved.
    server.time.advance(Duration::from_secs(44));
    ana.drain(Duration::from_millis(500)).await;
    let room = ana.room().clone();
    assert_eq!(ply(&room), target, "no move before 45 s");
    assert_eq!(room["seats"][bea_seat as usize]["cpu_playing"], false);

    // 46 s: the CPU plays Bea's turn.
    server.time.advance(Duration::from_secs(2));
    let room = ana.state_where(|s| ply(&s["room"]) > target).await;
    assert_eq!(room["seats"][bea_seat as usize]["cpu_playing"], true);
    let history = room["view"]["history"].as_array().unwrap();
    assert_eq!(history[target as usize]["seat"], bea_seat);
    // Ana moves; the CPU answers for Bea again.
    let text = pick_move(&room, &mut seed);
    ana.play(&text, target + 1).await;
    let room = ana
        .state_where(|s| ply(&s["room"]) >= target + 3 || is_over(&s["room"]))
        .await;
    assert!(!is_over(&room));
    assert_eq!(to_move(&room), ana_seat);

    // Bea is back: her seat at once, and the CPU stops.
    let mut bea = server.client().await;
    assert_eq!(bea.resume(&code, &token).await, bea_seat);
    let room = bea
        .state_where(|s| s["room"]["seats"][bea_seat as usize]["cpu_playing"] == false)
        .await;
    assert_eq!(bea.you(), Some(bea_seat));
    assert_eq!(room["seats"][bea_seat as usize]["connected"], true);
    let now_ply = ply(&room);
    let text = pick_move(&room, &mut seed);
    ana.play(&text, now_ply).await;
    let room = bea.state_where(|s| ply(&s["room"]) == now_ply + 1).await;
    assert_eq!(to_move(&room), bea_seat);
    bea.drain(Duration::from_millis(500)).await;
    let room = bea.room().clone();
    assert_eq!(
        ply(&room),
        now_ply + 1,
        "the CPU no longer plays Bea's turns"
    );
    let text = pick_move(&room, &mut seed);
    bea.play(&text, now_ply + 1).await;
    bea.state_where(|s| ply(&s["room"]) == now_ply + 2).await;
}

/// English: 5 min + 3 × 30 s byo-yomi; a period used up is gone; all time used loses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn byo_yomi_to_a_time_loss() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create("english", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    let bea_seat = bea.join(&code, "Bea").await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    assert_eq!(
        room["clock"]["settings"],
        json!({"main_ms":300000,"periods":3,"period_ms":30000})
    );
    // X: the first mover, who moves at once; Y: the other, whose clock the test runs down.
    let (mut x, mut y, y_seat) = if to_move(&room) == ana_seat {
        (ana, bea, bea_seat)
    } else {
        (bea, ana, ana_seat)
    };
    let mut seed = 9;
    let mut ply_now = 0;
    async fn step(client: &mut Client, ply_now: &mut u64, seed: &mut u64) -> Value {
        let room = client.state_where(|s| ply(&s["room"]) == *ply_now).await;
        let text = pick_move(&room, seed);
        client.play(&text, *ply_now).await;
        *ply_now += 1;
        client.state_where(|s| ply(&s["room"]) == *ply_now).await
    }
    step(&mut x, &mut ply_now, &mut seed).await;
    // Y thinks 299 s: one second of main time left.
    server.time.advance(Duration::from_secs(299));
    let room = step(&mut y, &mut ply_now, &mut seed).await;
    let clock = &room["clock"]["seats"][y_seat as usize];
    assert!(clock["main_ms"].as_u64().unwrap() <= 1000, "{clock}");
    assert_eq!(clock["periods"], 3);
    step(&mut x, &mut ply_now, &mut seed).await;
    // 46 s: main time gone, one period used up, the move made in the second.
    server.time.advance(Duration::from_secs(46));
    let room = step(&mut y, &mut ply_now, &mut seed).await;
    assert_eq!(
        room["clock"]["seats"][y_seat as usize],
        json!({"main_ms":0,"periods":2})
    );
    step(&mut x, &mut ply_now, &mut seed).await;
    // 25 s: inside a period, which is kept.
    server.time.advance(Duration::from_secs(25));
    let room = step(&mut y, &mut ply_now, &mut seed).await;
    assert_eq!(
        room["clock"]["seats"][y_seat as usize],
        json!({"main_ms":0,"periods":2})
    );
    let room = step(&mut x, &mut ply_now, &mut seed).await;
    assert_eq!(room["clock"]["running"], y_seat);
    // Both periods run out (60 s): Y loses on time, though nobody sent anything.
    server.time.advance(Duration::from_secs(61));
    let room = x.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["reason"], "time");
    assert_eq!(room["result"]["flagged"], y_seat);
    assert_eq!(room["result"]["winner"], 1 - y_seat);
    assert_eq!(
        room["clock"]["seats"][y_seat as usize],
        json!({"main_ms":0,"periods":0})
    );
    let text = "11-15";
    y.play(text, ply_now).await;
    let reply = y.reply().await;
    assert_eq!(reply["code"], "game_over");
}

/// A clock is a room option for every game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_option_on_another_game() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let clock = json!({"main_ms": 10000, "periods": 0, "period_ms": 0});
    let ana_seat = ana.create("diamond", 2, clock.clone()).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    bea.join(&code, "Bea").await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    assert_eq!(room["clock"]["settings"], clock);
    assert_eq!(room["clock"]["running"], ana_seat);
    server.time.advance(Duration::from_secs(11));
    let room = bea.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["flagged"], ana_seat);
    assert_eq!(room["result"]["winner"], 1);
}

/// 30 min after everyone left, or 24 h after creation, the room is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_expire() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    ana.create("turkish", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    ana.state_where(|_| true).await;
    ana.close().await;
    // The last connection left: the room is marked empty (its hub records it on the way out).
    let mut watcher = server.client().await;
    let room_code = RoomCode::parse(&code).unwrap();
    wait_until("the empty room is marked", PATIENCE, async || {
        let record = RoomStore::load(&server.store, &room_code).await.unwrap();
        record.unwrap().value.emptied_at.is_some()
    })
    .await;
    server.time.advance(Duration::from_secs(29 * 60));
    watcher
        .send(json!({"v":1,"type":"watch","code":code}))
        .await;
    assert_eq!(watcher.reply().await["type"], "watching");
    watcher.send(json!({"v":1,"type":"leave"})).await;
    assert_eq!(watcher.reply().await["type"], "left");
    server.time.advance(Duration::from_secs(2 * 60));
    watcher
        .expect_error(json!({"v":1,"type":"watch","code":code}), "no_such_room")
        .await;
    watcher
        .expect_error(
            json!({"v":1,"type":"join","code":code,"nickname":"Bo"}),
            "no_such_room",
        )
        .await;
    assert_eq!(server.store.sweep(), 1);

    // 24 h after creation, even with a player connected.
    let mut ana = server.client().await;
    ana.create("english", 2, Value::Null).await;
    ana.state_where(|_| true).await;
    server.time.advance(Duration::from_secs(24 * 3600 + 1));
    loop {
        let message = ana.next().await.expect("open");
        if message["type"] == "closed" {
            assert_eq!(message["code"], ana.code.clone().unwrap().as_str());
            break;
        }
    }
    ana.expect_error(json!({"v":1,"type":"resign"}), "not_in_room")
        .await;
}

/// While players are connected the room outlives 30 quiet minutes: the store holds a room at
/// most 30 min ahead (so one orphaned by a crash goes), and the hub renews that while someone is
/// there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_players_outlives_an_hour_without_a_move() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create("turkish", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    bea.join(&code, "Bea").await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    let room_code = RoomCode::parse(&code).unwrap();
    for _ in 0..3 {
        let expires_at = server
            .store
            .expires_at(&room_code)
            .expect("the room is held");
        server.time.advance(Duration::from_secs(20 * 60));
        // The lease holder renews the room's time to live once a minute on the room's clock.
        wait_until("the room's time to live is renewed", PATIENCE, async || {
            server
                .store
                .expires_at(&room_code)
                .is_some_and(|renewed| renewed > expires_at)
        })
        .await;
    }
    let text = pick_move(&room, &mut 3);
    let mover = if to_move(&room) == ana_seat {
        &mut ana
    } else {
        &mut bea
    };
    mover.play(&text, 0).await;
    let room = mover.state_where(|s| ply(&s["room"]) == 1).await;
    assert_eq!(room["view"]["history"][0]["move"]["move"], text.as_str());
}

/// Spectators watch live, read-only; a full room refuses a join.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_watch_read_only() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    let ana_seat = ana.create("turkish", 2, Value::Null).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    bea.join(&code, "Bea").await;
    let mut carl = server.client().await;
    carl.expect_error(
        json!({"v":1,"type":"join","code":code,"nickname":"Carl"}),
        "room_full",
    )
    .await;
    carl.send(json!({"v":1,"type":"watch","code":code})).await;
    assert_eq!(carl.reply().await["type"], "watching");
    let room = carl.state_where(|s| s["room"]["started"] == true).await;
    assert_eq!(carl.you(), None);
    let text = pick_move(&room, &mut 5);
    carl.expect_error(
        json!({"v":1,"type":"move","move":text,"ply":0}),
        "not_seated",
    )
    .await;
    carl.expect_error(json!({"v":1,"type":"resign"}), "not_seated")
        .await;
    carl.expect_error(json!({"v":1,"type":"rematch"}), "not_seated")
        .await;
    carl.expect_error(json!({"v":1,"type":"start_cpu"}), "not_seated")
        .await;
    assert_eq!(ana_seat, 0);
    ana.play(&text, 0).await;
    let room = carl.state_where(|s| ply(&s["room"]) == 1).await;
    assert_eq!(room["view"]["history"][0]["move"]["move"], text.as_str());
}

/// A room's `view` says what is true in a room, not the app's local game: people at some seats,
/// the server's CPU at others, no undo.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_view_carries_room_fields_not_local_ones() {
    let server = TestServer::start_unthrottled().await;
    let mut ana = server.client().await;
    assert_eq!(ana.create("diamond", 3, Value::Null).await, 0);
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    assert_eq!(bea.join(&code, "Bea").await, 1);
    ana.send(json!({"v":1,"type":"start_cpu"})).await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    bea.state_where(|s| s["room"]["started"] == true).await;
    let view = &room["view"];
    assert_eq!(view["mode"], "room", "{view}");
    assert_eq!(view["can_undo"], false);
    assert_eq!(view["can_redo"], false);
    assert_eq!(view["human_seats"], json!([0, 1]), "seat 2 is the CPU's");
    assert_eq!(view["cpu_to_move"], false, "seat 0 starts");
    // The CPU's turn says so.
    let mut seed = 5;
    let mut clients = [ana, bea];
    loop {
        let room = clients[0].room().clone();
        if to_move(&room) == 2 {
            assert_eq!(room["view"]["cpu_to_move"], true, "{}", room["view"]);
            break;
        }
        let target = ply(&room);
        let seat = to_move(&room);
        let mover = clients.iter_mut().find(|c| c.you() == Some(seat)).unwrap();
        let room = mover.state_where(|s| ply(&s["room"]) == target).await;
        let text = pick_move(&room, &mut seed);
        mover.play(&text, target).await;
        clients[0].state_where(|s| ply(&s["room"]) > target).await;
    }
}
