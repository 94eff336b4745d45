//! Rated play over real sockets: sockets prove their accounts with session tokens (`sign_in`),
//! two accounts are paired in the rated English pool, one resigns, and the player store (real
//! SQLite) holds both new ratings, worked out by hand, with the game's record. Guests and bad
//! tokens are refused. Time-dependent steps move the server's injected clock.

use crate::common;

use common::{is_over, pick_move, ply, to_move, wait_until, Client, PATIENCE};
use damas_server::accounts::http::AccountsService;
use damas_server::accounts::{new_session_token, Account, SESSION_TTL_MS};
use damas_server::player_store::{PlayerStore, PlayerStoreConfig, PlayerStoreError, RatedGame};
use damas_server::ratings::{GameResult, RatedKind};
use damas_server::store::memory::MemoryStore;
use damas_server::time::TimeSource;
use damas_server::Config;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

struct Server {
    addr: SocketAddr,
    time: TimeSource,
    players: Arc<dyn PlayerStore>,
    _data: tempfile::TempDir,
}

/// A room server with accounts on SQLite; pools pair every 2 s of its (test-moved) time.
async fn server() -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let data = tempfile::tempdir().expect("temp dir");
    let players =
        damas_server::player_store::open(&PlayerStoreConfig::Sqlite(data.path().to_path_buf()))
            .await
            .expect("player store");
    let time = TimeSource::new();
    let accounts = Arc::new(AccountsService::new(
        Arc::clone(&players),
        time.clone(),
        None,
    ));
    let config = Config {
        time: time.clone(),
        pool_wave: Duration::from_secs(2),
        pool_cpu_after: Duration::from_secs(20),
        ..Config::default()
    };
    let rooms = Arc::new(MemoryStore::new(time.clone()));
    tokio::spawn(damas_server::run_with_accounts(
        listener,
        rooms,
        config,
        Some(accounts),
        std::future::pending(),
    ));
    Server {
        addr,
        time,
        players,
        _data: data,
    }
}

/// An account made through the store (as a sign-in makes it) and a live session token for it.
async fn account(server: &Server, subject: &str, name: &str) -> (Account, String) {
    let now = server.time.now_ms() as i64;
    let account = server
        .players
        .sign_in("https://issuer.test", subject, name, now)
        .await
        .expect("account");
    let (token, hash) = new_session_token();
    server
        .players
        .create_session(account.id, &hash, now, now + SESSION_TTL_MS)
        .await
        .expect("session");
    (account, token)
}

async fn sign_in(client: &mut Client, token: &str) -> Value {
    client
        .send(json!({"v":1,"type":"sign_in","session":token}))
        .await;
    client.reply().await
}

async fn join_rated(client: &mut Client, nickname: &str) -> Value {
    client
        .send(json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":nickname}))
        .await;
    client.reply().await
}

/// Waits for `paired`, then the `joined` and the started room.
async fn paired(client: &mut Client) -> (Value, Value) {
    let paired = client.reply().await;
    assert_eq!(paired["type"], "paired", "{paired}");
    let joined = client.reply().await;
    assert_eq!(joined["type"], "joined", "{joined}");
    client.code = joined["code"].as_str().map(str::to_string);
    client.token = joined["token"].as_str().map(str::to_string);
    let room = client.state_where(|s| s["room"]["started"] == true).await;
    (paired, room)
}

/// The account's English rating once its rated games reach `games` (the result is written by
/// the server after the game's end).
async fn english_rating_after(server: &Server, account: &Account, games: u32) -> f64 {
    let mut last = None;
    wait_until("the rated game is recorded", PATIENCE, async || {
        let rating = server
            .players
            .rating(account.id, RatedKind::English)
            .await
            .expect("rating");
        let recorded = rating.games >= games;
        last = Some(rating);
        recorded
    })
    .await;
    let rating = last.expect("the rating was read");
    assert_eq!(rating.games, games, "counted once");
    rating.rating
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_between_two_signed_in_players_updates_both_ratings() {
    let server = server().await;
    // Display names differ from the pool nicknames: the record names the accounts.
    let (ana_account, ana_token) = account(&server, "ana-sub", "Ana Pérez").await;
    let (bea_account, bea_token) = account(&server, "bea-sub", "Bea \"B\" Ruiz").await;
    let mut ana = Client::connect(server.addr).await;
    let mut bea = Client::connect(server.addr).await;
    let signed = sign_in(&mut ana, &ana_token).await;
    assert_eq!(signed["type"], "signed_in", "{signed}");
    assert_eq!(signed["account"], ana_account.id.0);
    assert_eq!(signed["name"], "Ana Pérez");
    let ratings = signed["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 5, "every game kind");
    assert_eq!(ratings[0]["kind"], "english");
    assert_eq!(ratings[0]["rating"], 1200.0);
    assert_eq!(ratings[0]["provisional"], true);
    assert_eq!(
        sign_in(&mut bea, &bea_token).await["account"],
        bea_account.id.0
    );

    let waiting = join_rated(&mut ana, "Ana").await;
    assert_eq!(waiting["type"], "pool_waiting", "{waiting}");
    assert_eq!(waiting["pool"], "english/rated");
    assert_eq!(waiting["rating"], 1200);
    assert_eq!(join_rated(&mut bea, "Bea").await["type"], "pool_waiting");
    server.time.advance(Duration::from_secs(2));
    let (ana_paired, room) = paired(&mut ana).await;
    let (bea_paired, _) = paired(&mut bea).await;
    assert_eq!(ana_paired["code"], bea_paired["code"]);
    assert_eq!(ana_paired["rated"], true);
    assert_eq!(ana_paired["opponent"]["nickname"], "Bea");
    assert_eq!(ana_paired["opponent"]["rating"], 1200);
    assert_eq!(room["kind"]["rated"], true);
    let code = ana_paired["code"].as_str().unwrap().to_owned();

    // Seat 0 moves first: it is white in the store. Both sides move (no abort), then the
    // second player resigns.
    let (mut first, mut second, first_account, second_account) =
        if ana.you() == Some(to_move(ana.room())) {
            (ana, bea, &ana_account, &bea_account)
        } else {
            (bea, ana, &bea_account, &ana_account)
        };
    let pdn_names = |account: &Account| account.display_name.replace('"', "\\\"");
    assert_eq!(first.you(), Some(0));
    let mut seed = 7;
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
    let room = first.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["winner"], 0);

    // Both at 1,200 and provisional (K = 40): the expected score is 1 / (1 + 10^0) = 0.5 each,
    // so the winner gains 40 × (1 − 0.5) = 20 and the loser loses 40 × 0.5 = 20.
    assert_eq!(
        english_rating_after(&server, first_account, 1).await,
        1220.0
    );
    assert_eq!(
        english_rating_after(&server, second_account, 1).await,
        1180.0
    );
    // Once written, the changes come to both players in the room's result, seat by seat (seat
    // 0 won: +20; both still provisional after one rated game).
    for client in [&mut first, &mut second] {
        let room = client
            .state_where(|s| s["room"]["result"]["ratings"].is_array())
            .await;
        assert_eq!(
            room["result"]["ratings"],
            json!([
                {"before": 1200.0, "after": 1220.0, "provisional": true},
                {"before": 1200.0, "after": 1180.0, "provisional": true},
            ]),
            "{room}"
        );
        assert_eq!(room["result"]["winner"], 0, "the result itself unchanged");
        assert_eq!(room["result"]["reason"], "resignation");
    }
    let games = server
        .players
        .last_games(first_account.id, 10)
        .await
        .expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].white, first_account.id, "white moved first");
    assert_eq!(games[0].black, second_account.id);
    assert_eq!(games[0].result, GameResult::WhiteWins);
    let pdn = server
        .players
        .game_pdn(games[0].game_id)
        .await
        .expect("pdn")
        .expect("a record");
    // English checkers names the side that moves first Black: seat 0's win is "0-1" in PDN, and
    // the seat that resigned is White.
    assert!(pdn.contains("[Result \"0-1\"]"), "{pdn}");
    assert!(pdn.contains("[Resigned \"white\"]"), "{pdn}");
    // The record's tags name the game, the day it ended and both players by their accounts'
    // display names, on their seats' tags (seat 0 is Black in English checkers); the movetext
    // ends with the result.
    let day = damas::session::pdn_date(server.time.now_ms());
    for tag in [
        "[Event \"Damas rated game (english)\"]".to_owned(),
        "[Site \"Damas online\"]".to_owned(),
        format!("[Date \"{day}\"]"),
        "[Round \"1\"]".to_owned(),
        format!("[Black \"{}\"]", pdn_names(first_account)),
        format!("[White \"{}\"]", pdn_names(second_account)),
        "[GameType \"21\"]".to_owned(),
    ] {
        assert!(pdn.contains(&tag), "{tag} in {pdn}");
    }
    assert!(pdn.trim_end().ends_with(" 0-1"), "{pdn}");
    let reread =
        damas::session::Session::import("reread".into(), &pdn, damas::session::Mode::Local)
            .expect("the record reads back");
    assert_eq!(reread.game().ply(), 2, "both moves in the record");
    // The game's key is its room and number there: the same game cannot count twice.
    let again = server
        .players
        .record_rated_game(&RatedGame {
            game_key: format!("{code}/0"),
            kind: RatedKind::English,
            white: first_account.id,
            black: second_account.id,
            result: GameResult::WhiteWins,
            pdn,
            finished_ms: 0,
        })
        .await;
    assert!(
        matches!(again, Err(PlayerStoreError::AlreadyRecorded(_))),
        "{again:?}"
    );
    // The next pool join reads the new rating.
    first.send(json!({"v":1,"type":"leave"})).await;
    assert_eq!(first.reply().await["type"], "left");
    let waiting = join_rated(&mut first, "Ana").await;
    assert_eq!(waiting["rating"], 1220, "{waiting}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_bad_tokens_and_signed_out_sessions_stay_out_of_rated_pools() {
    let server = server().await;
    let mut guest = Client::connect(server.addr).await;
    guest
        .expect_error(
            json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":"G"}),
            "sign_in_required",
        )
        .await;
    // A bad token proves nothing: the connection stays a guest.
    guest
        .expect_error(
            json!({"v":1,"type":"sign_in","session":"not-a-session"}),
            "bad_session",
        )
        .await;
    guest
        .expect_error(json!({"v":1,"type":"sign_in","session":""}), "bad_session")
        .await;
    guest
        .expect_error(
            json!({"v":1,"type":"sign_in","session":"x".repeat(3000)}),
            "bad_session",
        )
        .await;
    guest
        .expect_error(
            json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":"G"}),
            "sign_in_required",
        )
        .await;
    // A session signed out after `sign_in` stops working at the next pool join.
    let (_, token) = account(&server, "cid-sub", "Cid").await;
    let mut cid = Client::connect(server.addr).await;
    assert_eq!(sign_in(&mut cid, &token).await["type"], "signed_in");
    let hash = damas_server::lobby::hash_token(&token);
    assert!(server
        .players
        .revoke_session(&hash, server.time.now_ms() as i64)
        .await
        .expect("revoke"));
    cid.expect_error(
        json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":"Cid"}),
        "bad_session",
    )
    .await;
    cid.expect_error(
        json!({"v":1,"type":"pool_join","pool":{"kind":"english","rated":true},"nickname":"Cid"}),
        "sign_in_required",
    )
    .await;
    // A signed-out guest still plays casual games.
    cid.send(json!({"v":1,"type":"pool_join","pool":{"kind":"english"},"nickname":"Cid"}))
        .await;
    assert_eq!(cid.reply().await["type"], "pool_waiting");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pool_joins_are_limited_per_account_over_all_its_sockets() {
    let server = server().await;
    let (_, token) = account(&server, "dee-sub", "Dee").await;
    let mut phone = Client::connect(server.addr).await;
    let mut laptop = Client::connect(server.addr).await;
    assert_eq!(sign_in(&mut phone, &token).await["type"], "signed_in");
    assert_eq!(sign_in(&mut laptop, &token).await["type"], "signed_in");
    let casual = json!({"v":1,"type":"pool_join","pool":{"kind":"english"},"nickname":"Dee"});
    // The account's burst (5 joins) spent on one socket …
    for _ in 0..5 {
        phone.send(casual.clone()).await;
        assert_eq!(phone.reply().await["type"], "pool_waiting");
        phone.send(json!({"v":1,"type":"pool_leave"})).await;
        assert_eq!(phone.reply().await["type"], "pool_left");
    }
    // … leaves none to its other socket, whose own allowance is untouched.
    laptop.expect_error(casual.clone(), "rate_limited").await;
    // Another account is not held back.
    let (_, other) = account(&server, "eva-sub", "Eva").await;
    let mut eva = Client::connect(server.addr).await;
    assert_eq!(sign_in(&mut eva, &other).await["type"], "signed_in");
    eva.send(casual).await;
    assert_eq!(eva.reply().await["type"], "pool_waiting");
}
