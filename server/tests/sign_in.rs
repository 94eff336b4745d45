//! Sign-in against a real OpenID provider (`oidc-provider`, started by this test from
//! server/tests/oidc/provider.mjs on a free loopback port), then the account routes: the
//! browser's server-redirect flow with PKCE, the app's ID-token endpoint (RFC 8252), the refused
//! tokens (wrong audience, expired, bad signature, replayed nonce, wrong nonce, unknown issuer),
//! signing out, and ratings, history and ranking over HTTP after a rated game.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use damas_server::accounts::http::AccountsService;
use damas_server::accounts::oidc::{Oidc, OidcConfig};
use damas_server::player_store::{PlayerStore, PlayerStoreConfig, RatedGame};
use damas_server::ratings::{GameResult, RatedKind};
use damas_server::store::memory::MemoryStore;
use damas_server::time::TimeSource;
use damas_server::Config;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// A running provider; stops when dropped (its standard input closes, and it is killed).
struct Provider {
    child: Child,
    issuer: String,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn provider(clients: Value) -> Provider {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
    assert!(
        dir.join("node_modules/oidc-provider").is_dir(),
        "the test OpenID provider is not installed: run scripts/setup (npm ci in server/tests/oidc)"
    );
    let config = json!({ "user": "tester", "clients": clients }).to_string();
    let mut child = Command::new("node")
        .arg(dir.join("provider.mjs"))
        .arg(config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node runs (Node.js is installed by scripts/setup)");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the provider prints its issuer");
    let issuer = line
        .trim()
        .strip_prefix("ISSUER ")
        .unwrap_or_else(|| panic!("the provider did not start: {line:?}"))
        .to_owned();
    Provider { child, issuer }
}

/// A client that keeps the provider's cookies and stops at the redirect that ends a flow (to
/// `damas://…` or to this server's `/#session=…`), so the test can read where it ends.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            let url = attempt.url();
            // (reqwest drops a Location's fragment, so the end is known by where it comes from.)
            let from_callback = attempt
                .previous()
                .last()
                .is_some_and(|previous| previous.path() == "/auth/callback");
            if url.scheme() == "damas" || from_callback {
                attempt.stop()
            } else if attempt.previous().len() > 12 {
                attempt.error("too many redirects")
            } else {
                attempt.follow()
            }
        }))
        .timeout(Duration::from_secs(20))
        .build()
        .expect("a client")
}

fn location(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_else(|| panic!("no redirect: {}", response.status()))
        .to_owned()
}

fn random_text() -> String {
    let bytes: [u8; 24] = rand::random();
    URL_SAFE_NO_PAD.encode(bytes)
}

/// What the app does through the system browser: authorization code with PKCE as a public
/// native client, redirect to `damas://signed-in`, code exchanged for tokens. The ID token.
async fn app_id_token(issuer: &str, client_id: &str, nonce: &str) -> String {
    let verifier = random_text() + &random_text();
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let browser = browser();
    let mut authorize = reqwest::Url::parse(&format!("{issuer}/auth")).expect("url");
    authorize
        .query_pairs_mut()
        .append_pair("client_id", client_id)
        .append_pair("response_type", "code")
        .append_pair("scope", "openid")
        .append_pair("redirect_uri", "damas://signed-in")
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("nonce", nonce)
        .append_pair("state", &random_text());
    let response = browser.get(authorize).send().await.expect("authorize");
    let deep_link = reqwest::Url::parse(&location(&response)).expect("a deep link");
    assert_eq!(deep_link.scheme(), "damas");
    let code = deep_link
        .query_pairs()
        .find(|(key, _)| key == "code")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_else(|| panic!("no code in {deep_link}"));
    let tokens: Value = reqwest::Client::new()
        .post(format!("{issuer}/token"))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", "damas://signed-in"),
            ("client_id", client_id),
            ("code_verifier", &verifier),
        ])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("token json");
    tokens["id_token"]
        .as_str()
        .unwrap_or_else(|| panic!("no id_token: {tokens}"))
        .to_owned()
}

struct Server {
    base: String,
    time: TimeSource,
    players: Arc<dyn PlayerStore>,
    accounts: Arc<AccountsService>,
    _data: tempfile::TempDir,
}

/// A room server with accounts on SQLite, and sign-in at `issuer` when given.
async fn server(listener: tokio::net::TcpListener, issuer: Option<&str>) -> Server {
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let data = tempfile::tempdir().expect("temp dir");
    let players =
        damas_server::player_store::open(&PlayerStoreConfig::Sqlite(data.path().to_path_buf()))
            .await
            .expect("player store");
    let time = TimeSource::new();
    let oidc = match issuer {
        Some(issuer) => Some(
            Oidc::discover(
                OidcConfig {
                    issuer: issuer.to_owned(),
                    client_id: "damas-web".into(),
                    client_secret: Some("damas-web-secret-for-tests".into()),
                    app_client_ids: vec!["damas-app".into()],
                    public_url: base.clone(),
                },
                time.clone(),
            )
            .await
            .expect("discovery"),
        ),
        None => None,
    };
    let accounts = Arc::new(AccountsService::new(
        Arc::clone(&players),
        time.clone(),
        oidc,
    ));
    let config = Config {
        time: time.clone(),
        ..Config::default()
    };
    let rooms = Arc::new(MemoryStore::new(time.clone()));
    tokio::spawn(damas_server::run_with_accounts(
        listener,
        rooms,
        config,
        Some(Arc::clone(&accounts)),
        std::future::pending(),
    ));
    Server {
        base,
        time,
        players,
        accounts,
        _data: data,
    }
}

async fn post_id_token(server: &Server, id_token: &str, nonce: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}/api/session", server.base))
        .json(&json!({ "id_token": id_token, "nonce": nonce, "display_name": "  Bea\u{200B} " }))
        .send()
        .await
        .expect("post");
    (
        response.status().as_u16(),
        response.json().await.expect("json"),
    )
}

async fn get_json(server: &Server, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = reqwest::Client::new().get(format!("{}{path}", server.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("get");
    (
        response.status().as_u16(),
        response.json().await.unwrap_or(Value::Null),
    )
}

fn app_clients(redirect: &str) -> Value {
    json!([
        {
            "client_id": "damas-web",
            "client_secret": "damas-web-secret-for-tests",
            "redirect_uris": [redirect],
        },
        {
            "client_id": "damas-app",
            "application_type": "native",
            "token_endpoint_auth_method": "none",
            "redirect_uris": ["damas://signed-in"],
        },
        {
            "client_id": "other-app",
            "application_type": "native",
            "token_endpoint_auth_method": "none",
            "redirect_uris": ["damas://signed-in"],
        },
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_with_a_real_provider() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let ours = provider(app_clients(&format!("{base}/auth/callback")));
    let stranger = provider(app_clients(&format!("{base}/auth/callback")));
    let server = server(listener, Some(&ours.issuer)).await;

    // 1. A browser, by server redirect: authorization code + PKCE, back to /#session=T.
    let response = browser()
        .get(format!(
            "{}/auth/start?display_name=Ana%20%20Mar%C3%ADa",
            server.base
        ))
        .send()
        .await
        .expect("sign-in flow");
    assert_eq!(response.status().as_u16(), 303);
    let landing = location(&response);
    let web_token = landing
        .strip_prefix("/#session=")
        .unwrap_or_else(|| panic!("not back home with a session: {landing}"))
        .to_owned();
    let (status, session) = get_json(&server, "/api/session", Some(&web_token)).await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["account"]["display_name"], "Ana María");
    let account_id = session["account"]["id"].as_i64().expect("id");
    // The server keeps no personal data: issuer and subject only, and the chosen name.
    let stored = server
        .players
        .account(damas_server::accounts::AccountId(account_id))
        .await
        .expect("read")
        .expect("account");
    assert_eq!(
        (stored.issuer.as_str(), stored.subject.as_str()),
        (ours.issuer.as_str(), "tester")
    );

    // A callback of no sign-in under way is refused.
    let (status, body) = get_json(&server, "/auth/callback?code=abc&state=forged", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("bad_state")),
        "{body}"
    );

    // The same flow for the app ends at its deep link.
    let response = browser()
        .get(format!("{}/auth/start?to=app", server.base))
        .send()
        .await
        .expect("app flow");
    assert!(location(&response).starts_with("damas://signed-in#session="));

    // 2. The app's own system-browser flow, then its ID token posted here.
    let nonce = random_text();
    let id_token = app_id_token(&ours.issuer, "damas-app", &nonce).await;
    let (status, body) = post_id_token(&server, &id_token, &nonce).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["account"]["id"].as_i64(),
        Some(account_id),
        "(issuer, subject) is one account"
    );
    assert_eq!(
        body["account"]["display_name"], "Ana María",
        "an existing account keeps its name"
    );
    let app_token = body["token"].as_str().expect("token").to_owned();
    assert_ne!(app_token, web_token);

    // 3. Refused tokens, each with its code.
    let (status, body) = post_id_token(&server, &id_token, &nonce).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("nonce_replayed")),
        "{body}"
    );

    let nonce = random_text();
    let other = app_id_token(&ours.issuer, "other-app", &nonce).await;
    let (status, body) = post_id_token(&server, &other, &nonce).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("wrong_audience")),
        "{body}"
    );

    let nonce = random_text();
    let foreign = app_id_token(&stranger.issuer, "damas-app", &nonce).await;
    let (status, body) = post_id_token(&server, &foreign, &nonce).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("unknown_issuer")),
        "{body}"
    );

    let nonce = random_text();
    let genuine = app_id_token(&ours.issuer, "damas-app", &nonce).await;
    let (status, body) = post_id_token(&server, &genuine, &random_text()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("bad_nonce")),
        "{body}"
    );
    let mut parts: Vec<String> = genuine.split('.').map(str::to_owned).collect();
    let mut signature = URL_SAFE_NO_PAD.decode(&parts[2]).expect("signature");
    signature[10] ^= 0x01;
    parts[2] = URL_SAFE_NO_PAD.encode(signature);
    let (status, body) = post_id_token(&server, &parts.join("."), &nonce).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("bad_signature")),
        "{body}"
    );
    let (status, body) = post_id_token(&server, "not.a.token", &nonce).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("bad_token")),
        "{body}"
    );

    // The provider's ID tokens last an hour: two hours on, a genuine one is refused.
    let nonce = random_text();
    let late = app_id_token(&ours.issuer, "damas-app", &nonce).await;
    server.time.advance(Duration::from_secs(2 * 3600));
    let (status, body) = post_id_token(&server, &late, &nonce).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("token_expired")),
        "{body}"
    );

    // 4. Signing out ends that session only.
    let response = reqwest::Client::new()
        .delete(format!("{}/api/session", server.base))
        .bearer_auth(&app_token)
        .send()
        .await
        .expect("sign out");
    assert_eq!(response.status().as_u16(), 204);
    let (status, body) = get_json(&server, "/api/session", Some(&app_token)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_signed_in"))
    );
    let (status, _) = get_json(&server, "/api/session", Some(&web_token)).await;
    assert_eq!(status, 200);
    // What the room side asks of a token: its own account, or none.
    let account = server
        .accounts
        .session_account(&web_token)
        .await
        .expect("store");
    assert_eq!(account.map(|account| account.id.0), Some(account_id));
    assert_eq!(
        server
            .accounts
            .session_account(&app_token)
            .await
            .expect("store"),
        None
    );
    assert_eq!(
        server
            .accounts
            .session_account("forged")
            .await
            .expect("store"),
        None
    );
}

async fn session_for(
    server: &Server,
    subject: &str,
) -> (damas_server::accounts::AccountId, String) {
    let account = server
        .players
        .sign_in("https://issuer.test", subject, subject, 0)
        .await
        .expect("account");
    let (token, hash) = damas_server::accounts::new_session_token();
    let now = i64::try_from(server.time.now_ms()).expect("now");
    server
        .players
        .create_session(account.id, &hash, now, now + 3_600_000)
        .await
        .expect("session");
    (account.id, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_and_ranking_over_http() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let server = server(listener, None).await;
    let (ana, ana_token) = session_for(&server, "ana").await;
    let (bea, bea_token) = session_for(&server, "bea").await;
    let recorded = server
        .players
        .record_rated_game(&RatedGame {
            game_key: "room/1".into(),
            kind: RatedKind::English,
            white: ana,
            black: bea,
            result: GameResult::WhiteWins,
            pdn: "[Result \"1-0\"]\n1. 11-15 *\n".into(),
            finished_ms: 5,
        })
        .await
        .expect("a rated game");

    let (status, mine) = get_json(&server, "/api/me/ratings", Some(&ana_token)).await;
    assert_eq!(status, 200, "{mine}");
    let ratings = mine["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 5, "every kind, played or not");
    let english = ratings
        .iter()
        .find(|r| r["kind"] == "english")
        .expect("english");
    // Two new players, K = 40: the winner gains 20.
    assert_eq!(
        (english["rating"].as_f64(), english["games"].as_u64()),
        (Some(1220.0), Some(1))
    );
    assert_eq!(
        (english["provisional"].as_bool(), english["place"].as_u64()),
        (Some(true), Some(1))
    );
    let turkish = ratings
        .iter()
        .find(|r| r["kind"] == "turkish")
        .expect("turkish");
    assert_eq!(
        (turkish["rating"].as_f64(), turkish["place"].is_null()),
        (Some(1200.0), true)
    );

    let (status, ranking) =
        get_json(&server, "/api/ranking/english?limit=10", Some(&bea_token)).await;
    assert_eq!(status, 200, "{ranking}");
    let names: Vec<&str> = ranking["top"]
        .as_array()
        .expect("top")
        .iter()
        .map(|entry| entry["display_name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["ana", "bea"]);
    assert_eq!(ranking["you"]["place"].as_u64(), Some(2));
    assert_eq!(ranking["you"]["rating"].as_f64(), Some(1180.0));
    let (status, anonymous) = get_json(&server, "/api/ranking/english", None).await;
    assert_eq!((status, anonymous["you"].is_null()), (200, true));

    let (_, history) = get_json(&server, "/api/me/history?kind=english", Some(&bea_token)).await;
    assert_eq!(history["history"][0]["rating"].as_f64(), Some(1180.0));
    let (_, games) = get_json(&server, "/api/me/games?limit=5", Some(&bea_token)).await;
    assert_eq!(
        games["games"][0]["game_id"].as_i64(),
        Some(recorded.game_id)
    );
    assert_eq!(games["games"][0]["result"], "white_wins");
    let pdn = reqwest::get(format!(
        "{}/api/games/{}/pdn",
        server.base, recorded.game_id
    ))
    .await
    .expect("pdn")
    .text()
    .await
    .expect("text");
    assert_eq!(pdn, "[Result \"1-0\"]\n1. 11-15 *\n");

    // Renaming cleans the name like a nickname; a bad one is refused.
    let response = reqwest::Client::new()
        .put(format!("{}/api/me/name", server.base))
        .bearer_auth(&ana_token)
        .json(&json!({ "display_name": " Ana \t  B\u{202E}. " }))
        .send()
        .await
        .expect("rename");
    assert_eq!(response.status().as_u16(), 200);
    let (_, session) = get_json(&server, "/api/session", Some(&ana_token)).await;
    assert_eq!(session["account"]["display_name"], "Ana B.");
    let response = reqwest::Client::new()
        .put(format!("{}/api/me/name", server.base))
        .bearer_auth(&ana_token)
        .json(&json!({ "display_name": "x".repeat(25) }))
        .send()
        .await
        .expect("rename");
    assert_eq!(response.status().as_u16(), 400);

    // Refusals: no session, an unknown kind, a bad limit, sign-in not configured.
    let (status, body) = get_json(&server, "/api/me/ratings", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_signed_in"))
    );
    let (status, body) = get_json(&server, "/api/me/ratings", Some("forged-token")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_signed_in"))
    );
    let (status, body) = get_json(&server, "/api/ranking/chess", None).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_kind")));
    let (status, body) = get_json(&server, "/api/me/games?limit=100000", Some(&bea_token)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let (status, body) = get_json(&server, "/auth/start", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("sign_in_off")));

    // One account's burst is capped (20, then 5 per second): of 40 requests in a row, no more
    // pass than the bucket allows in the time they took, and the rest are refused.
    let started = std::time::Instant::now();
    let (mut passed, mut limited) = (0u32, 0u32);
    for _ in 0..40 {
        let (status, body) = get_json(&server, "/api/me/games", Some(&bea_token)).await;
        match status {
            200 => passed += 1,
            429 => {
                assert_eq!(body["code"], "rate_limited");
                limited += 1;
            }
            other => panic!("unexpected status {other}: {body}"),
        }
    }
    let allowed = 20.0 + 5.0 * started.elapsed().as_secs_f64() + 1.0;
    assert!(
        f64::from(passed) <= allowed,
        "{passed} passed, at most {allowed:.1} allowed"
    );
    assert!(limited > 0, "no request was limited");
}

/// The app's web view (another origin, on the `--origin` list) may call the account routes with
/// its session token: the preflight and the answer carry CORS for that origin, and for no other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_routes_answer_the_allowed_origins_only() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let data = tempfile::tempdir().expect("temp dir");
    let players =
        damas_server::player_store::open(&PlayerStoreConfig::Sqlite(data.path().to_path_buf()))
            .await
            .expect("player store");
    let time = TimeSource::new();
    let accounts = Arc::new(AccountsService::new(players, time.clone(), None));
    let config = Config {
        time: time.clone(),
        origins: vec!["tauri://localhost".into()],
        ..Config::default()
    };
    tokio::spawn(damas_server::run_with_accounts(
        listener,
        Arc::new(MemoryStore::new(time)),
        config,
        Some(accounts),
        std::future::pending(),
    ));
    let client = reqwest::Client::new();
    let allowed = |response: &reqwest::Response| {
        response
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap_or_default().to_owned())
    };
    let preflight = client
        .request(reqwest::Method::OPTIONS, format!("{base}/api/me/ratings"))
        .header("Origin", "tauri://localhost")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "authorization")
        .send()
        .await
        .expect("preflight");
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(allowed(&preflight).as_deref(), Some("tauri://localhost"));
    let headers = preflight
        .headers()
        .get("access-control-allow-headers")
        .map(|v| v.to_str().unwrap_or_default().to_ascii_lowercase())
        .unwrap_or_default();
    assert!(headers.contains("authorization"), "{headers}");
    let ranking = client
        .get(format!("{base}/api/ranking/english"))
        .header("Origin", "tauri://localhost")
        .send()
        .await
        .expect("ranking");
    assert_eq!(ranking.status().as_u16(), 200);
    assert_eq!(allowed(&ranking).as_deref(), Some("tauri://localhost"));
    let other = client
        .get(format!("{base}/api/ranking/english"))
        .header("Origin", "https://elsewhere.example")
        .send()
        .await
        .expect("ranking");
    assert_eq!(allowed(&other), None, "no CORS for an origin off the list");
}
