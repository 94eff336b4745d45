//! Rated play across instances: two `damas-server` processes share one real Redis (rooms and
//! pools) and one real PostgreSQL (accounts, ratings). Two signed-in players, each on their own
//! instance, are paired in the rated English pool, both move, one resigns; both ratings are
//! written once (1,220 and 1,180, worked out by hand below), each socket is told its change in
//! `result.ratings`, and the ranking shows them from either instance.

use crate::common;
use crate::postgres_server;
use crate::redis_server;
use crate::server_process;

use common::{is_over, pick_move, ply, to_move, Client};
use damas_server::accounts::{new_session_token, Account, SESSION_TTL_MS};
use damas_server::player_store::{PlayerStore, PlayerStoreConfig};
use damas_server::ratings::RatedKind;
use postgres_server::PostgresServer;
use redis_server::RedisServer;
use serde_json::{json, Value};
use server_process::Instance;
use std::sync::Arc;

/// An account made in the shared store (as a sign-in makes it), and a live session token.
async fn account(players: &Arc<dyn PlayerStore>, subject: &str, name: &str) -> (Account, String) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_millis() as i64;
    let account = players
        .sign_in("https://issuer.test", subject, name, now)
        .await
        .expect("account");
    let (token, hash) = new_session_token();
    players
        .create_session(account.id, &hash, now, now + SESSION_TTL_MS)
        .await
        .expect("session");
    (account, token)
}

async fn signed_in_rated(client: &mut Client, token: &str, nickname: &str) {
    client
        .send(json!({"v":1,"type":"sign_in","session":token}))
        .await;
    let signed = client.reply().await;
    assert_eq!(signed["type"], "signed_in", "{signed}");
    client
        .send(json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":nickname}))
        .await;
    let waiting = client.reply().await;
    assert_eq!(waiting["type"], "pool_waiting", "{waiting}");
    assert_eq!(waiting["pool"], "english/rated");
}

/// `paired`, then `joined` and the started room; the `paired` message.
async fn paired(client: &mut Client) -> Value {
    let paired = client.reply().await;
    assert_eq!(paired["type"], "paired", "{paired}");
    let joined = client.reply().await;
    assert_eq!(joined["type"], "joined", "{joined}");
    client.code = joined["code"].as_str().map(str::to_string);
    client.token = joined["token"].as_str().map(str::to_string);
    client.state_where(|s| s["room"]["started"] == true).await;
    paired
}

async fn ranking(instance: &Instance) -> Value {
    let response = reqwest::get(format!("{}/api/ranking/english", instance.base()))
        .await
        .expect("ranking request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("ranking json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_across_two_instances_is_rated_once_and_ranked_everywhere() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let postgres = PostgresServer::start();
    // The test's own connection migrates the database before the instances open it.
    let players = damas_server::player_store::open(&PlayerStoreConfig::Postgres(postgres.url()))
        .await
        .expect("PostgreSQL store");
    let (ana_account, ana_token) = account(&players, "ana-sub", "Ana").await;
    let (bea_account, bea_token) = account(&players, "bea-sub", "Bea").await;
    let args = [
        "--redis",
        &redis.url(),
        "--database",
        &postgres.url(),
        "--pool-wave-ms",
        "200",
        "--pool-cpu-after-secs",
        "600",
    ];
    let first_instance = Instance::start(&args);
    let second_instance = Instance::start(&args);

    let mut ana = Client::connect(first_instance.addr).await;
    let mut bea = Client::connect(second_instance.addr).await;
    signed_in_rated(&mut ana, &ana_token, "Ana").await;
    signed_in_rated(&mut bea, &bea_token, "Bea").await;
    let ana_paired = paired(&mut ana).await;
    let bea_paired = paired(&mut bea).await;
    assert_eq!(ana_paired["code"], bea_paired["code"]);
    assert_eq!(ana_paired["rated"], true);
    assert_eq!(ana_paired["opponent"]["nickname"], "Bea");
    assert_eq!(bea_paired["opponent"]["rating"], 1200);

    // Both sides make their first move (an abort would count for nobody), then the side that
    // moved second resigns.
    let (mut first, mut second, first_account, second_account) =
        if ana.you() == Some(to_move(ana.room())) {
            (ana, bea, &ana_account, &bea_account)
        } else {
            (bea, ana, &bea_account, &ana_account)
        };
    let mut seed = 5;
    for _ in 0..2 {
        let (mover, other) = if first.you() == Some(to_move(first.room())) {
            (&mut first, &mut second)
        } else {
            (&mut second, &mut first)
        };
        let room = mover.room().clone();
        let at = ply(&room);
        mover.play(&pick_move(&room, &mut seed), at).await;
        mover.state_where(|s| ply(&s["room"]) == at + 1).await;
        other.state_where(|s| ply(&s["room"]) == at + 1).await;
    }
    second.send(json!({"v":1,"type":"resign"})).await;
    let winner = first.you().expect("seated");
    let loser = second.you().expect("seated");

    // Both at 1,200 and provisional (K = 40): expected score 1 / (1 + 10^0) = 0.5 each, so the
    // winner gains 40 × (1 − 0.5) = 20, the loser loses 40 × 0.5 = 20. Each socket, on its own
    // instance, gets both changes.
    for client in [&mut first, &mut second] {
        let room = client
            .state_where(|s| is_over(&s["room"]) && !s["room"]["result"]["ratings"].is_null())
            .await;
        assert_eq!(room["result"]["winner"], winner);
        let ratings = room["result"]["ratings"].as_array().expect("ratings");
        let of = |seat: u64| &ratings[seat as usize];
        assert_eq!(
            (of(winner)["before"].clone(), of(winner)["after"].clone()),
            (json!(1200.0), json!(1220.0))
        );
        assert_eq!(
            (of(loser)["before"].clone(), of(loser)["after"].clone()),
            (json!(1200.0), json!(1180.0))
        );
    }

    // Written once: one game each, one record.
    for (account, rating) in [(first_account, 1220.0), (second_account, 1180.0)] {
        let stored = players
            .rating(account.id, RatedKind::English)
            .await
            .expect("rating");
        assert_eq!(
            (stored.rating, stored.games),
            (rating, 1),
            "{}",
            account.display_name
        );
        let games = players.last_games(account.id, 10).await.expect("games");
        assert_eq!(games.len(), 1, "one record");
    }

    // The ranking is the same from either instance: the winner first.
    for instance in [&first_instance, &second_instance] {
        let ranking = ranking(instance).await;
        let top = ranking["top"].as_array().expect("top");
        assert_eq!(top.len(), 2, "{ranking}");
        assert_eq!(top[0]["display_name"], first_account.display_name);
        assert_eq!(top[0]["rating"], 1220.0);
        assert_eq!(top[0]["place"], 1);
        assert_eq!(top[1]["display_name"], second_account.display_name);
        assert_eq!(top[1]["rating"], 1180.0);
        assert_eq!(top[1]["games"], 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_shared_pools_the_cpu_stands_in_after_the_wait() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let args = [
        "--redis",
        &redis.url(),
        "--pool-wave-ms",
        "200",
        "--pool-cpu-after-secs",
        "1",
    ];
    let first_instance = Instance::start(&args);
    let _second_instance = Instance::start(&args);
    let mut ana = Client::connect(first_instance.addr).await;
    ana.send(json!({"v":2,"type":"pool_join","pool":{"kind":"turkish"},"nickname":"Ana"}))
        .await;
    let waiting = ana.reply().await;
    assert_eq!(waiting["type"], "pool_waiting", "{waiting}");
    // Nobody else in the Turkish pool: a wave after the wait, whichever instance runs it, gives
    // Ana the CPU, shown as the CPU, in a casual game.
    let paired = paired(&mut ana).await;
    assert_eq!(paired["opponent"]["cpu"], true);
    assert_eq!(paired["opponent"]["level"], "medium");
    assert_eq!(paired["rated"], false);
    let me = ana.you().expect("seated") as usize;
    assert_eq!(ana.room()["seats"][1 - me]["kind"], "cpu");
    assert_eq!(ana.room()["kind"]["cpu_level"], "medium");
}
