//! Room codes people can pass on by voice or by hand: Crockford's base32 (one case, no look-alikes),
//! typed back in any case with spaces or dashes; an unknown code is said at once by `lookup`,
//! before a visitor gives a nickname; codes of the former format keep working.

use crate::common;

use common::TestServer;
use damas_server::lobby;
use damas_server::store::{GameChoice, RoomCode, RoomStore};
use serde_json::json;
use std::time::Duration;

/// The 20-character canonical form: digits and capitals without I, L, O, U.
fn is_canonical(code: &str) -> bool {
    code.len() == 20
        && code
            .chars()
            .all(|c| c.is_ascii_digit() || (c.is_ascii_uppercase() && !"ILOU".contains(c)))
}

/// The code as shown (groups of five), typed back in lower case with spaces.
fn typed_by_hand(code: &str) -> String {
    let lower = code.to_lowercase();
    let groups: Vec<&str> = (0..4).map(|i| &lower[i * 5..i * 5 + 5]).collect();
    format!(" {} ", groups.join(" - "))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_typed_in_lower_case_with_spaces_and_dashes_joins_the_room() {
    let server = TestServer::start().await;
    let mut ana = server.client().await;
    ana.create("international", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    assert!(is_canonical(&code), "{code}");
    let room = ana.state_where(|_| true).await;
    assert_eq!(room["code"], code.as_str());

    let typed = typed_by_hand(&code);
    let mut bo = server.client().await;
    // Looked up first (the UI does, before asking a nickname): the canonical code comes back.
    bo.send(json!({"v":1,"type":"lookup","code":typed})).await;
    let info = bo.reply().await;
    assert_eq!(info["type"], "room_info", "{info}");
    assert_eq!(info["code"], code.as_str());
    assert_eq!(info["game"]["kind"], "international");
    assert_eq!(info["free_seats"], 1);
    assert_eq!(info["started"], false);
    // Then joined with the same typed text.
    bo.join(&typed, "Bo").await;
    assert_eq!(bo.code.as_deref(), Some(code.as_str()));
    let room = bo.state_where(|s| s["room"]["started"] == true).await;
    assert_eq!(room["code"], code.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_code_is_said_at_once_without_a_nickname() {
    let server = TestServer::start().await;
    let mut bo = server.client().await;
    for code in [
        "K7Q2M-9XRTD-ABCDE-FGH1J",
        "not a code",
        "K7Q2M-9XRTD-ABCDE",
        "x8Jd0-qL2mZ_a9Qe",
    ] {
        bo.expect_error(json!({"v":1,"type":"lookup","code":code}), "no_such_room")
            .await;
    }
    // A lookup does not put the connection in a room.
    bo.create("english", 2, json!("none")).await;
    let mut cy = server.client().await;
    cy.send(json!({"v":1,"type":"lookup","code":bo.code.clone().unwrap()}))
        .await;
    assert_eq!(cy.reply().await["free_seats"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_the_former_code_format_still_opens() {
    let server = TestServer::start().await;
    // A room made before the new alphabet: 16 base64url characters, case-sensitive.
    let legacy = "x8Jd0-qL2mZ_a9Qe";
    let code = RoomCode::parse(legacy).expect("a former code");
    let (_, hash) = lobby::new_token();
    let game = GameChoice {
        kind: "english".into(),
        players: 2,
        long_jump: false,
    };
    let now = server.time.now_ms();
    let (record, _) =
        lobby::new_room(code.clone(), game, None, "Ana".into(), hash, now).expect("a room");
    assert!(server
        .store
        .create(&code, &record, Duration::from_secs(600))
        .await
        .expect("stored"));
    let mut bo = server.client().await;
    bo.send(json!({"v":1,"type":"lookup","code":legacy})).await;
    assert_eq!(bo.reply().await["code"], legacy);
    bo.join(legacy, "Bo").await;
    assert_eq!(bo.code.as_deref(), Some(legacy));
    // Its case matters (it is not of the new alphabet): in lower case it is another code.
    let mut cy = server.client().await;
    cy.expect_error(
        json!({"v":1,"type":"lookup","code":legacy.to_lowercase()}),
        "no_such_room",
    )
    .await;
}
