//! Untrusted peers: every malformed, oversized, unauthorised or abusive input gets a typed error
//! (or, for abuse, the socket is closed), the room stays exactly as it was, and the other
//! players do not notice. Ends with a property test throwing random JSON and bytes at a room.

use crate::common;

use common::{pick_move, ply, Client, TestServer};
use damas_server::store::{RoomCode, RoomStore};
use damas_server::Config;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::time::Duration;

/// A started Turkish room with its two players and the store version.
async fn room_in_play(server: &TestServer) -> (Client, Client, String) {
    let mut ana = server.client().await;
    assert_eq!(ana.create("turkish", 2, Value::Null).await, 0);
    let code = ana.code.clone().unwrap();
    let mut bea = server.client().await;
    assert_eq!(bea.join(&code, "Bea").await, 1);
    ana.state_where(|s| s["room"]["started"] == true).await;
    bea.state_where(|s| s["room"]["started"] == true).await;
    (ana, bea, code)
}

async fn stored(server: &TestServer, code: &str) -> (u64, damas_server::store::RoomRecord) {
    let code = RoomCode::parse(code).unwrap();
    let loaded = server.store.load(&code).await.unwrap().unwrap();
    (loaded.version, loaded.value)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_input_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let (mut ana, mut bea, code) = room_in_play(&server).await;
    let before = stored(&server, &code).await;
    let room = ana.room().clone();
    let legal = pick_move(&room, &mut 1);

    let protocol_cases: Vec<(String, &str)> = vec![
        ("not json".into(), "malformed"),
        ("[1,2]".into(), "malformed"),
        ("{}".into(), "malformed"),
        (r#"{"type":"ping"}"#.into(), "malformed"),
        (r#"{"v":3,"type":"ping"}"#.into(), "unsupported_version"),
        (r#"{"v":1,"type":"teleport"}"#.into(), "malformed"),
        (r#"{"v":1,"type":"move"}"#.into(), "malformed"),
        (r#"{"v":1,"type":"move","move":["a"]}"#.into(), "malformed"),
        (r#"{"v":1,"type":"resign","seat":1}"#.into(), "malformed"),
        (
            format!(r#"{{"v":1,"type":"move","move":"{}"}}"#, "a".repeat(5000)),
            "too_large",
        ),
    ];
    // Shared between the two players: ten strikes on one socket would close it.
    for (index, (text, code_expected)) in protocol_cases.iter().enumerate() {
        let client = if index % 2 == 0 { &mut ana } else { &mut bea };
        client.send_text(text).await;
        let reply = client.reply().await;
        assert_eq!(reply["type"], "error", "{text}");
        assert_eq!(reply["code"], *code_expected, "{text}");
    }
    // Refused by the rules or the room, not by the protocol.
    let in_room: Vec<(Value, &str)> = vec![
        (
            json!({"v":1,"type":"move","move":"zz9-zz10"}),
            "illegal_move",
        ),
        (
            json!({"v":1,"type":"move","move":legal,"ply":5}),
            "stale_ply",
        ),
        (json!({"v":1,"type":"start_cpu"}), "already_started"),
        (json!({"v":1,"type":"rematch"}), "game_not_over"),
        (
            json!({"v":1,"type":"join","code":code,"nickname":"X"}),
            "already_in_room",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"turkish","players":2},"nickname":"X"}),
            "already_in_room",
        ),
    ];
    for (message, expected) in in_room {
        ana.expect_error(message, expected).await;
    }
    // Bea may not move for Ana (seat 0 to move).
    bea.expect_error(
        json!({"v":1,"type":"move","move":legal,"ply":0}),
        "not_your_turn",
    )
    .await;

    let mut stranger = server.client().await;
    let lobby_cases: Vec<(Value, &str)> = vec![
        (json!({"v":1,"type":"move","move":legal}), "not_in_room"),
        (json!({"v":1,"type":"resign"}), "not_in_room"),
        (json!({"v":1,"type":"leave"}), "not_in_room"),
        (json!({"v":1,"type":"sync"}), "not_in_room"),
        (
            json!({"v":1,"type":"join","code":"short","nickname":"X"}),
            "no_such_room",
        ),
        (
            json!({"v":1,"type":"join","code":"AAAAAAAAAAAAAAAA","nickname":"X"}),
            "no_such_room",
        ),
        (
            json!({"v":1,"type":"watch","code":"../../etc/passwd"}),
            "no_such_room",
        ),
        (
            json!({"v":1,"type":"join","code":code,"nickname":"X"}),
            "room_full",
        ),
        (
            json!({"v":1,"type":"join","code":code,"nickname":"   "}),
            "bad_nickname",
        ),
        (
            json!({"v":1,"type":"join","code":code,"nickname":"x".repeat(25)}),
            "bad_nickname",
        ),
        (
            json!({"v":1,"type":"resume","code":code,"token":"guess"}),
            "bad_token",
        ),
        (
            json!({"v":1,"type":"resume","code":code,"token":""}),
            "bad_token",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"go","players":2},"nickname":"X"}),
            "unknown_game",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"english","players":3},"nickname":"X"}),
            "bad_players",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"diamond","players":7},"nickname":"X"}),
            "bad_players",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"english","players":2,"long_jump":true},"nickname":"X"}),
            "bad_input",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"X","clock":"fast"}),
            "bad_clock",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"X","clock":{"main_ms":0,"periods":0,"period_ms":0}}),
            "bad_clock",
        ),
        (
            json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":""}),
            "bad_nickname",
        ),
    ];
    for (message, expected) in lobby_cases {
        stranger.expect_error(message, expected).await;
    }
    stranger.send_binary(vec![0, 159, 146, 150]).await;
    let reply = stranger.reply().await;
    assert_eq!(reply["code"], "binary");

    assert_eq!(
        stored(&server, &code).await,
        before,
        "the room is unchanged"
    );
    // And it still plays.
    ana.play(&legal, 0).await;
    bea.state_where(|s| ply(&s["room"]) == 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_senders_and_flooders_are_cut_off_alone() {
    let server = TestServer::start().await;
    let (mut ana, mut bea, code) = room_in_play(&server).await;
    let before = stored(&server, &code).await;

    // Garbage: closed after max_strikes protocol errors, each answered first.
    let mut garbage = server.client().await;
    garbage
        .send(json!({"v":1,"type":"watch","code":code}))
        .await;
    assert_eq!(garbage.reply().await["type"], "watching");
    let mut errors = 0;
    for _ in 0..Config::default().max_strikes + 5 {
        if !garbage.try_send_text("\u{0}garbage").await {
            break;
        }
    }
    while let Some(message) = garbage.next().await {
        if message["type"] == "error" {
            errors += 1;
        }
    }
    assert_eq!(
        errors,
        Config::default().max_strikes,
        "answered, then closed"
    );

    // Flood: valid pings far above the rate; rate_limited errors, then closed.
    let mut flood = server.client().await;
    for _ in 0..200 {
        if !flood.try_send_text(r#"{"v":1,"type":"ping"}"#).await {
            break;
        }
    }
    let (mut pongs, mut limited) = (0, 0);
    while let Some(message) = flood.next().await {
        match message["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") => {
                assert_eq!(message["code"], "rate_limited");
                limited += 1;
            }
            _ => {}
        }
    }
    assert!((15..60).contains(&pongs), "{pongs} pongs");
    assert_eq!(limited, Config::default().max_strikes);

    assert_eq!(stored(&server, &code).await, before);
    // The players never noticed.
    let room = ana.room().clone();
    let text = pick_move(&room, &mut 2);
    ana.play(&text, 0).await;
    let room = bea.state_where(|s| ply(&s["room"]) == 1).await;
    assert_eq!(room["seats"][0]["connected"], true);
    assert_eq!(room["seats"][1]["connected"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_are_refused() {
    let config = Config {
        origins: vec!["https://damas.example".into()],
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let request = |origin: &str| {
        let mut request =
            tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
                server.url(),
            )
            .unwrap();
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
        request
    };
    let refused = tokio_tungstenite::connect_async(request("https://evil.example")).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403)
        }
        other => panic!("expected 403, got {other:?}"),
    }
    assert!(
        tokio_tungstenite::connect_async(request("https://damas.example"))
            .await
            .is_ok()
    );
    let same = format!("http://{}", server.addr);
    assert!(tokio_tungstenite::connect_async(request(&same))
        .await
        .is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_never_reach_the_record_or_other_players() {
    let server = TestServer::start().await;
    let (ana, mut bea, code) = room_in_play(&server).await;
    let token = ana.token.clone().unwrap();
    let (_, record) = stored(&server, &code).await;
    let stored_json = serde_json::to_string(&record).unwrap();
    assert!(!stored_json.contains(&token));
    assert!(stored_json.contains(&damas_server::lobby::hash_token(&token)));
    bea.send(json!({"v":1,"type":"sync"})).await;
    bea.state_where(|_| true).await;
    let seen = bea.state.as_ref().unwrap().to_string();
    assert!(!seen.contains(&token));
    assert!(!seen.contains(&damas_server::lobby::hash_token(&token)));
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        ".{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "move",
            "resign",
            "leave",
            "rematch",
            "start_cpu",
            "join",
            "resume",
            "create",
            "watch",
            "sync",
            "ping",
            "1",
            "v"
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "v", "type", "move", "ply", "code", "nickname", "token", "game", "clock", "x"
                ])
                .prop_map(str::to_string),
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

#[derive(Debug, Clone)]
enum Payload {
    Json(Value),
    Text(String),
    Bytes(Vec<u8>),
}

fn payload() -> impl Strategy<Value = Payload> {
    prop_oneof![
        json_value().prop_map(|mut v| {
            // Most messages look like the protocol, to reach past the version check.
            if let Value::Object(map) = &mut v {
                map.entry("v").or_insert(json!(1));
            }
            Payload::Json(v)
        }),
        ".{0,64}".prop_map(Payload::Text),
        prop::collection::vec(any::<u8>(), 0..64).prop_map(Payload::Bytes),
    ]
}

#[test]
fn random_messages_never_change_a_room() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (server, mut ana, mut bea, code) = runtime.block_on(async {
        let server = TestServer::start().await;
        let (ana, bea, code) = room_in_play(&server).await;
        (server, ana, bea, code)
    });
    let before = runtime.block_on(stored(&server, &code));
    let config = ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(payloads in prop::collection::vec(payload(), 1..8), watch in any::<bool>())| {
        runtime.block_on(async {
            let mut attacker = server.client().await;
            if watch {
                attacker.send(json!({"v":1,"type":"watch","code":code})).await;
                assert_eq!(attacker.reply().await["type"], "watching");
            }
            for payload in &payloads {
                match payload {
                    Payload::Json(value) => attacker.send(value.clone()).await,
                    Payload::Text(text) => attacker.send_text(text).await,
                    Payload::Bytes(bytes) => attacker.send_binary(bytes.clone()).await,
                }
                // A ping after each payload: everything before its pong is the payload's answer.
                attacker.send_text(r#"{"v":1,"type":"ping"}"#).await;
                let mut answers = Vec::new();
                loop {
                    let message = attacker.next().await.expect("the attacker is not cut off");
                    let payload_pings =
                        matches!(payload, Payload::Json(v) if *v == json!({"v":1,"type":"ping"}));
                    let pongs = answers.iter().filter(|a: &&Value| a["type"] == "pong").count();
                    if message["type"] == "pong" && (!payload_pings || pongs == 1) {
                        break;
                    }
                    answers.push(message);
                }
                let garbage = match payload {
                    Payload::Json(_) => false,
                    Payload::Text(text) => serde_json::from_str::<Value>(text).is_err(),
                    Payload::Bytes(_) => true,
                };
                if garbage {
                    // (a `state` of the watched room may arrive meanwhile)
                    let replies: Vec<&Value> =
                        answers.iter().filter(|a| a["type"] != "state").collect();
                    assert_eq!(replies.len(), 1, "{payload:?} → {replies:?}");
                    assert_eq!(replies[0]["type"], "error");
                }
                for answer in &answers {
                    let kind = answer["type"].as_str().unwrap_or_default();
                    assert!(
                        ["error", "pong", "state", "watching", "joined", "left", "closed"].contains(&kind),
                        "{payload:?} → {answer}"
                    );
                }
            }
            attacker.close().await;
        });
        prop_assert_eq!(&runtime.block_on(stored(&server, &code)), &before);
    });
    // The players go on undisturbed.
    runtime.block_on(async {
        ana.drain(Duration::from_millis(200)).await;
        let room = ana.room().clone();
        let text = pick_move(&room, &mut 3);
        ana.play(&text, 0).await;
        bea.state_where(|s| ply(&s["room"]) == 1).await;
    });
}
