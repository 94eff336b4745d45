//! Draw offers, aborts, rooms against the CPU (undo/redo) and pairing pools, over real sockets
//! on a real server (docs/protocol.md). Time-dependent steps move the server's injected clock.

use crate::common;

use common::{is_over, pick_move, ply, to_move, Client, TestServer};
use damas_server::Config;
use serde_json::{json, Value};
use std::time::Duration;

/// Two clients seated in a started 2-player room of `kind`, without a clock.
async fn two_players(server: &TestServer, kind: &str) -> (Client, Client) {
    let mut ana = server.client().await;
    ana.create(kind, 2, json!("none")).await;
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    bea.join(&code, "Bea").await;
    ana.state_where(|s| s["room"]["started"] == true).await;
    bea.state_where(|s| s["room"]["started"] == true).await;
    (ana, bea)
}

/// The client whose seat is to move first, then the other.
fn by_turn(a: Client, b: Client) -> (Client, Client) {
    if a.you() == Some(to_move(a.room())) {
        (a, b)
    } else {
        (b, a)
    }
}

/// Plays one legal move for `client` (to move) and waits until `other` sees it.
async fn move_once(client: &mut Client, other: &mut Client, seed: &mut u64) {
    let room = client.room().clone();
    let at = ply(&room);
    let text = pick_move(&room, seed);
    client.play(&text, at).await;
    client.state_where(|s| ply(&s["room"]) == at + 1).await;
    other.state_where(|s| ply(&s["room"]) == at + 1).await;
}

fn offer() -> Value {
    json!({"v":1,"type":"offer_draw"})
}

fn answer(accept: bool) -> Value {
    json!({"v":1,"type":"answer_draw","accept":accept})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offer_accepted_by_the_opponent() {
    let server = TestServer::start().await;
    let (ana, bea) = two_players(&server, "english").await;
    let (mut first, mut second) = by_turn(ana, bea);
    let first_seat = first.you().unwrap();
    // Offered on the opponent's turn too: the second player offers while the first is to move.
    second.send(offer()).await;
    let room = first
        .state_where(|s| !s["room"]["draw_offer"].is_null())
        .await;
    assert_eq!(room["draw_offer"]["from"], 1 - first_seat);
    assert_eq!(room["draw_offer"]["to"], first_seat);
    // Both see it; the offerer cannot answer their own offer.
    second
        .state_where(|s| !s["room"]["draw_offer"].is_null())
        .await;
    second.expect_error(answer(true), "no_draw_offer").await;
    second.expect_error(offer(), "offer_pending").await;
    first.send(answer(true)).await;
    let room = second.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["winner"], Value::Null);
    assert_eq!(room["result"]["reason"], "agreement");
    assert_eq!(room["draw_offer"], Value::Null);
    first
        .expect_error(json!({"v":1,"type":"move","move":"11-15"}), "game_over")
        .await;
    first.expect_error(offer(), "game_over").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declined_offers_and_lapsed_offers_hold_the_offerer_back() {
    let server = TestServer::start().await;
    let (ana, bea) = two_players(&server, "turkish").await;
    let (mut first, mut second) = by_turn(ana, bea);
    let mut seed = 5;
    // The first player offers on their own turn; the second declines.
    first.send(offer()).await;
    second
        .state_where(|s| !s["room"]["draw_offer"].is_null())
        .await;
    second.send(answer(false)).await;
    let first_seat = first.you().unwrap() as usize;
    let room = first
        .state_where(|s| s["room"]["next_draw_offer_ply"][first_seat] == 10)
        .await;
    assert!(!is_over(&room));
    assert_eq!(room["draw_offer"], Value::Null, "declined");
    // Spam refused until ply 10.
    first.expect_error(offer(), "offer_too_soon").await;
    // The second player offers; the first moves: their own move answers nothing (they are the
    // receiver: the offer lapses).
    second.send(offer()).await;
    first
        .state_where(|s| !s["room"]["draw_offer"].is_null())
        .await;
    move_once(&mut first, &mut second, &mut seed).await;
    let room = second.room().clone();
    assert_eq!(room["draw_offer"], Value::Null, "the receiver moved");
    let second_seat = second.you().unwrap() as usize;
    assert_eq!(room["next_draw_offer_ply"][second_seat], 11);
    second.expect_error(offer(), "offer_too_soon").await;
    first.expect_error(answer(true), "no_draw_offer").await;
    // Ten plies on, the first player may offer again; an offer survives the offerer's own move.
    for _ in 0..9 {
        let to = to_move(first.room());
        if first.you() == Some(to) {
            move_once(&mut first, &mut second, &mut seed).await;
        } else {
            move_once(&mut second, &mut first, &mut seed).await;
        }
        if is_over(first.room()) {
            return;
        }
    }
    assert_eq!(ply(first.room()), 10);
    // Ply 10 is the first player's turn again (even plies).
    first.send(offer()).await;
    second
        .state_where(|s| !s["room"]["draw_offer"].is_null())
        .await;
    move_once(&mut first, &mut second, &mut seed).await;
    assert_eq!(second.room()["draw_offer"]["from"], first.you().unwrap());
    second.send(answer(true)).await;
    let room = first.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["reason"], "agreement");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_only_while_a_side_has_not_moved() {
    let server = TestServer::start().await;
    let (ana, bea) = two_players(&server, "international").await;
    let (mut first, mut second) = by_turn(ana, bea);
    let mut seed = 9;
    // One side moved, the other not yet: still abortable, by either.
    move_once(&mut first, &mut second, &mut seed).await;
    second.send(json!({"v":1,"type":"abort"})).await;
    let room = first.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["reason"], "aborted");
    assert_eq!(room["result"]["winner"], Value::Null);
    // A game where both sides moved is not.
    let (ana, bea) = two_players(&server, "international").await;
    let (mut first, mut second) = by_turn(ana, bea);
    move_once(&mut first, &mut second, &mut seed).await;
    move_once(&mut second, &mut first, &mut seed).await;
    first
        .expect_error(json!({"v":1,"type":"abort"}), "cannot_abort")
        .await;
    // Offers and aborts are for 2-player games; spectators cannot act.
    let mut three = server.client().await;
    three.create("diamond", 3, Value::Null).await;
    three.send(json!({"v":1,"type":"start_cpu"})).await;
    three.state_where(|s| s["room"]["started"] == true).await;
    three.expect_error(offer(), "two_players_only").await;
    three
        .expect_error(json!({"v":1,"type":"abort"}), "two_players_only")
        .await;
    three
        .expect_error(json!({"v":1,"type":"undo"}), "undo_not_allowed")
        .await;
}

/// Waits until the CPU has answered: the person (seat `you`) is to move, or the game is over.
async fn persons_turn(client: &mut Client, you: u64) -> Value {
    client
        .state_where(|s| is_over(&s["room"]) || to_move(&s["room"]) == you)
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_plays_the_cpu_undoes_and_redoes() {
    let server = TestServer::start_unthrottled().await;
    let mut ana = server.client().await;
    ana.send(
        json!({"v":1,"type":"play_cpu","game":{"kind":"english","players":2},
                    "nickname":"Ana","level":"easy","seat":1}),
    )
    .await;
    let joined = ana.reply().await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["seat"], 1);
    // Seat 0 (the CPU, black in English) moves first, by itself.
    let room = persons_turn(&mut ana, 1).await;
    assert_eq!(room["clock"], Value::Null, "no clock against the CPU");
    assert_eq!(room["kind"]["type"], "cpu");
    assert_eq!(room["kind"]["level"], "easy");
    assert_eq!(room["seats"][0]["kind"], "cpu");
    assert_eq!(ply(&room), 1);
    assert_eq!(room["can_undo"], false, "the person has not moved yet");
    // Three moves of the person, each answered by the CPU.
    let mut seed = 3;
    let mut played = Vec::new();
    for _ in 0..3 {
        let room = ana.room().clone();
        let text = pick_move(&room, &mut seed);
        played.push(text.clone());
        let at = ply(&room);
        ana.play(&text, at).await;
        let room = ana
            .state_where(|s| ply(&s["room"]) == at + 2 || is_over(&s["room"]))
            .await;
        assert!(!is_over(&room), "a short game of three moves");
    }
    let before_undo = ana.room().clone();
    assert_eq!(ply(&before_undo), 7);
    assert_eq!(before_undo["can_undo"], true);
    // Undo: back to before the person's last move (the CPU's reply with it).
    ana.send(json!({"v":1,"type":"undo"})).await;
    let room = ana.state_where(|s| ply(&s["room"]) == 5).await;
    assert_eq!(to_move(&room), 1);
    assert_eq!(room["can_redo"], true);
    // Undo again, then redo twice: the same position as before, CPU replies included.
    ana.send(json!({"v":1,"type":"undo"})).await;
    ana.state_where(|s| ply(&s["room"]) == 3).await;
    ana.send(json!({"v":1,"type":"redo"})).await;
    ana.state_where(|s| ply(&s["room"]) == 5).await;
    ana.send(json!({"v":1,"type":"redo"})).await;
    let room = ana.state_where(|s| ply(&s["room"]) == 7).await;
    assert_eq!(room["view"]["pieces"], before_undo["view"]["pieces"]);
    assert_eq!(room["can_redo"], false);
    ana.expect_error(json!({"v":1,"type":"redo"}), "nothing_to_redo")
        .await;
    // A new move after an undo drops the redo list.
    ana.send(json!({"v":1,"type":"undo"})).await;
    let room = ana.state_where(|s| ply(&s["room"]) == 5).await;
    let text = pick_move(&room, &mut seed);
    ana.play(&text, 5).await;
    let room = ana
        .state_where(|s| ply(&s["room"]) == 7 || is_over(&s["room"]))
        .await;
    assert_eq!(room["can_redo"], false);
    // Offers are for people; bad levels are refused.
    ana.expect_error(offer(), "opponent_is_cpu").await;
    let mut bea = server.client().await;
    bea.expect_error(
        json!({"v":1,"type":"play_cpu","game":{"kind":"english","players":2},"nickname":"B","level":"god"}),
        "bad_level",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_is_refused_in_rooms_of_people() {
    let server = TestServer::start().await;
    let (ana, bea) = two_players(&server, "english").await;
    let (mut first, mut second) = by_turn(ana, bea);
    let mut seed = 1;
    move_once(&mut first, &mut second, &mut seed).await;
    first
        .expect_error(json!({"v":1,"type":"undo"}), "undo_not_allowed")
        .await;
    first
        .expect_error(json!({"v":1,"type":"redo"}), "undo_not_allowed")
        .await;
}

/// A server whose pools pair every 2 s and call the CPU after 20 s of its (test-moved) time.
async fn pool_server() -> TestServer {
    TestServer::start_with(Config {
        pool_wave: Duration::from_secs(2),
        pool_cpu_after: Duration::from_secs(20),
        ..Config::default()
    })
    .await
}

async fn join_pool(client: &mut Client, kind: &str, rated: bool, nickname: &str) -> Value {
    client
        .send(json!({"v":1,"type":"pool_join","pool":{"kind":kind,"rated":rated},"nickname":nickname}))
        .await;
    client.reply().await
}

/// Waits for `paired`, then the `joined` and first `state` of the pairing's room.
async fn paired(client: &mut Client) -> (Value, Value) {
    let paired = client.reply().await;
    assert_eq!(paired["type"], "paired", "{paired}");
    let joined = client.reply().await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["code"], paired["code"]);
    client.code = joined["code"].as_str().map(str::to_string);
    client.token = joined["token"].as_str().map(str::to_string);
    let room = client.state_where(|s| s["room"]["started"] == true).await;
    (paired, room)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_in_a_pool_are_paired_into_an_ordinary_room() {
    let server = pool_server().await;
    let mut ana = server.client().await;
    let mut bea = server.client().await;
    let waiting = join_pool(&mut ana, "english", false, "Ana").await;
    assert_eq!(waiting["type"], "pool_waiting", "{waiting}");
    assert_eq!(waiting["pool"], "english/casual");
    assert_eq!(waiting["rating"], 1200);
    assert_eq!(
        join_pool(&mut bea, "english", false, "Bea").await["type"],
        "pool_waiting"
    );
    // In a pool, no room: one thing at a time.
    ana.expect_error(
        json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"A"}),
        "already_in_pool",
    )
    .await;
    server.time.advance(Duration::from_secs(2));
    let (ana_paired, ana_room) = paired(&mut ana).await;
    let (bea_paired, bea_room) = paired(&mut bea).await;
    assert_eq!(ana_paired["code"], bea_paired["code"]);
    assert_eq!(ana_paired["opponent"]["nickname"], "Bea");
    assert_eq!(ana_paired["opponent"]["cpu"], false);
    assert_eq!(bea_paired["opponent"]["nickname"], "Ana");
    assert_eq!(ana_paired["rated"], false);
    assert_ne!(ana.you(), bea.you());
    // The seed's English clock: 5 min + 3 × 30 s.
    assert_eq!(
        ana_room["clock"]["settings"],
        json!({"main_ms":300000,"periods":3,"period_ms":30000})
    );
    assert_eq!(ana_room["kind"]["type"], "pool");
    assert_eq!(ana_room["kind"]["pool"], "english/casual");
    assert_eq!(bea_room["seats"][0]["kind"], "human");
    assert_eq!(bea_room["seats"][1]["kind"], "human");
    // An ordinary room: moves, and the game ends like any other.
    let (mut first, mut second) = by_turn(ana, bea);
    let mut seed = 2;
    move_once(&mut first, &mut second, &mut seed).await;
    second.send(json!({"v":1,"type":"resign"})).await;
    let room = first.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["winner"], first.you().unwrap());
    assert_eq!(room["result"]["reason"], "resignation");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_free_after_the_wait_the_cpu_stands_in() {
    let server = pool_server().await;
    let mut ana = server.client().await;
    let waiting = join_pool(&mut ana, "international", false, "Ana").await;
    assert_eq!(waiting["type"], "pool_waiting");
    // A player of another pool is no partner.
    let mut bea = server.client().await;
    join_pool(&mut bea, "turkish", false, "Bea").await;
    let cpu_at = waiting["cpu_at"].as_u64().unwrap();
    server.time.advance(Duration::from_secs(21));
    let (paired_message, room) = paired(&mut ana).await;
    assert!(server.time.now_ms() >= cpu_at);
    assert_eq!(paired_message["opponent"]["cpu"], true);
    assert_eq!(paired_message["opponent"]["level"], "medium", "from 1,200");
    assert_eq!(paired_message["rated"], false);
    let me = ana.you().unwrap() as usize;
    assert_eq!(room["seats"][me]["kind"], "human");
    assert_eq!(room["seats"][1 - me]["kind"], "cpu", "shown as the CPU");
    assert_eq!(room["kind"]["rated"], false);
    assert_eq!(room["kind"]["cpu_level"], "medium");
    assert_eq!(
        room["clock"]["settings"],
        json!({"main_ms":600000,"periods":3,"period_ms":30000})
    );
    // The CPU plays its side: it moves first, or answers Ana's first move.
    let mut seed = 4;
    if me == 0 {
        let text = pick_move(&room, &mut seed);
        ana.play(&text, 0).await;
    }
    let target = if me == 0 { 2 } else { 1 };
    let room = ana.state_where(|s| ply(&s["room"]) >= target).await;
    assert_eq!(to_move(&room), me as u64);
    assert!(!is_over(&room));
    // Bea got the CPU in her own pool too.
    let (bea_paired, _) = paired(&mut bea).await;
    assert_eq!(bea_paired["opponent"]["cpu"], true);
    assert_ne!(bea_paired["code"], paired_message["code"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pool_refusals_and_leaving() {
    let server = pool_server().await;
    let mut ana = server.client().await;
    ana.send(
        json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":"Ana"}),
    )
    .await;
    assert_eq!(ana.reply().await["code"], "sign_in_required");
    ana.expect_error(
        json!({"v":1,"type":"pool_join","pool":{"kind":"chess"},"nickname":"Ana"}),
        "bad_pool",
    )
    .await;
    ana.expect_error(json!({"v":1,"type":"pool_leave"}), "not_in_pool")
        .await;
    assert_eq!(
        join_pool(&mut ana, "diamond", false, "Ana").await["type"],
        "pool_waiting"
    );
    ana.expect_error(
        json!({"v":1,"type":"pool_join","pool":{"kind":"diamond"},"nickname":"Ana"}),
        "already_in_pool",
    )
    .await;
    ana.send(json!({"v":1,"type":"pool_leave"})).await;
    assert_eq!(ana.reply().await["type"], "pool_left");
    // Gone from the pool: a newcomer waits alone, and after the wait gets the CPU, not Ana.
    let mut bea = server.client().await;
    join_pool(&mut bea, "diamond", false, "Bea").await;
    server.time.advance(Duration::from_secs(21));
    let (bea_paired, _) = paired(&mut bea).await;
    assert_eq!(bea_paired["opponent"]["cpu"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_move_that_never_comes_aborts_a_pairing() {
    let server = pool_server().await;
    let mut ana = server.client().await;
    let mut bea = server.client().await;
    join_pool(&mut ana, "english", false, "Ana").await;
    join_pool(&mut bea, "english", false, "Bea").await;
    server.time.advance(Duration::from_secs(2));
    paired(&mut ana).await;
    paired(&mut bea).await;
    let (mut first, mut second) = by_turn(ana, bea);
    // The first side moves 29 s into its 30 s: the game goes on.
    server.time.advance(Duration::from_secs(29));
    let mut seed = 8;
    move_once(&mut first, &mut second, &mut seed).await;
    // The second side never makes its first move: 30 s after its turn began, the game ends
    // without a result (long before its 5-minute clock would fall).
    server.time.advance(Duration::from_secs(29));
    second.send(json!({"v":1,"type":"sync"})).await;
    let room = second.state_where(|s| ply(&s["room"]) == 1).await;
    assert!(!is_over(&room), "29 s: still running");
    server.time.advance(Duration::from_secs(1));
    for client in [&mut first, &mut second] {
        let room = client.state_where(|s| is_over(&s["room"])).await;
        assert_eq!(
            room["result"],
            json!({"winner": null, "reason": "aborted", "flagged": null})
        );
        assert_eq!(ply(&room), 1);
    }
    // A friends' room (with the same clock) waits for its players' first moves: only its clock
    // ends it.
    let mut cid = server.client().await;
    cid.create("english", 2, json!("default")).await;
    let code = cid.code.clone().unwrap();
    let mut dan = server.client().await;
    dan.join(&code, "Dan").await;
    cid.state_where(|s| s["room"]["started"] == true).await;
    server.time.advance(Duration::from_secs(120));
    cid.send(json!({"v":1,"type":"sync"})).await;
    let room = cid
        .state_where(|s| s["room"]["clock"]["running"].is_u64())
        .await;
    assert!(!is_over(&room), "no abort by itself among friends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_are_rate_limited_per_connection() {
    let server = TestServer::start().await;
    let (mut ana, mut bea) = two_players(&server, "english").await;
    // Three offers at once pass the limit (the game refuses the repeats); the fourth does not.
    ana.send(offer()).await;
    ana.state_where(|s| !s["room"]["draw_offer"].is_null())
        .await;
    ana.expect_error(offer(), "offer_pending").await;
    ana.expect_error(offer(), "offer_pending").await;
    ana.expect_error(offer(), "rate_limited").await;
    // The other player's own allowance is untouched: accepting by offering back works.
    bea.send(offer()).await;
    let room = bea.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["reason"], "agreement");
}
