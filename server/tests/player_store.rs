//! One conformance suite for the player store, run on both backends: SQLite (a file in a
//! temporary directory) and PostgreSQL (a real server this test starts, `postgres_server`).
//! Ratings are checked against Elo numbers worked out by hand (and, past the provisional
//! games, against the Elo formula written out here, not the crate's). Crash tests kill -9 a
//! child process in the middle of a rating update and check the store is all as before.

use crate::postgres_server;
use crate::wait;

use damas_server::accounts::AccountId;
use damas_server::player_store::postgres::PostgresStore;
use damas_server::player_store::sqlite::SqliteStore;
use damas_server::player_store::{
    PendingSignIn, PlayerStore, PlayerStoreConfig, PlayerStoreError, RatedGame,
};
use damas_server::ratings::{GameResult, RatedKind};
use postgres_server::PostgresServer;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use wait::wait_until;

fn close(actual: f64, expected: f64, what: &str) {
    assert!(
        (actual - expected).abs() < 1e-3,
        "{what}: {actual} is not {expected}"
    );
}

/// The Elo formula, written out independently of the crate the server uses.
fn elo(own: f64, other: f64, score: f64, k: f64) -> f64 {
    let expected = 1.0 / (1.0 + 10f64.powf((other - own) / 400.0));
    own + k * (score - expected)
}

fn game(
    key: &str,
    kind: RatedKind,
    white: AccountId,
    black: AccountId,
    result: GameResult,
) -> RatedGame {
    RatedGame {
        game_key: key.into(),
        kind,
        white,
        black,
        result,
        pdn: format!("[Event \"{key}\"]\n1. 11-15 23-19 *\n"),
        finished_ms: 1_000,
    }
}

async fn account(store: &dyn PlayerStore, subject: &str) -> AccountId {
    store
        .sign_in("https://issuer.test", subject, subject, 0)
        .await
        .expect("sign in")
        .id
}

/// The whole suite, on an empty store; `reopen` opens the same store again.
async fn conformance<F, Fut>(store: Arc<dyn PlayerStore>, reopen: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Arc<dyn PlayerStore>>,
{
    store.ping().await.expect("ping");
    accounts(store.as_ref()).await;
    sessions(store.as_ref()).await;
    nonces(store.as_ref()).await;
    pending_sign_ins(store.as_ref()).await;
    hand_worked_ratings(store.as_ref()).await;
    provisional_k(store.as_ref()).await;
    refusals(store.as_ref()).await;
    ranking(store.as_ref()).await;
    concurrent_games(Arc::clone(&store)).await;
    // Opening again migrates nothing twice and keeps every row.
    let again = reopen().await;
    let ana = again
        .sign_in("https://issuer.test", "ana", "other name", 0)
        .await
        .expect("sign in again");
    assert_eq!(ana.display_name, "Ana María");
    let rating = again
        .rating(ana.id, RatedKind::English)
        .await
        .expect("rating");
    assert_eq!(rating.games, 2);
}

async fn accounts(store: &dyn PlayerStore) {
    let ana = store
        .sign_in("https://issuer.test", "ana", "Ana", 5)
        .await
        .expect("new account");
    let again = store
        .sign_in("https://issuer.test", "ana", "Someone else", 6)
        .await
        .expect("same account");
    assert_eq!(again.id, ana.id, "(issuer, subject) keys the account");
    assert_eq!(again.display_name, "Ana", "signing in again keeps the name");
    let elsewhere = store
        .sign_in("https://other.test", "ana", "Ana", 7)
        .await
        .expect("other issuer");
    assert_ne!(
        elsewhere.id, ana.id,
        "the same subject at another issuer is another person"
    );
    store.rename(ana.id, "Ana María").await.expect("rename");
    let read = store.account(ana.id).await.expect("read").expect("exists");
    assert_eq!(read.display_name, "Ana María");
    assert_eq!(
        (read.issuer.as_str(), read.subject.as_str()),
        ("https://issuer.test", "ana")
    );
    assert!(matches!(
        store.rename(AccountId(9_999_999), "x").await,
        Err(PlayerStoreError::NoSuchAccount(_))
    ));
    assert_eq!(
        store.account(AccountId(9_999_999)).await.expect("read"),
        None
    );
}

async fn sessions(store: &dyn PlayerStore) {
    let ana = account(store, "ana").await;
    store
        .create_session(ana, "hash-1", 1_000, 2_000)
        .await
        .expect("session");
    let live = store
        .session("hash-1", 1_999)
        .await
        .expect("read")
        .expect("live");
    assert_eq!((live.account.id, live.expires_ms), (ana, 2_000));
    assert_eq!(
        store.session("hash-1", 2_000).await.expect("read"),
        None,
        "expired"
    );
    assert_eq!(store.session("unknown", 1_000).await.expect("read"), None);
    store
        .create_session(ana, "hash-2", 1_000, 5_000)
        .await
        .expect("second session");
    assert!(store.revoke_session("hash-2", 1_500).await.expect("revoke"));
    assert_eq!(
        store.session("hash-2", 1_600).await.expect("read"),
        None,
        "signed out"
    );
    assert!(!store
        .revoke_session("hash-2", 1_700)
        .await
        .expect("revoke again"));
    assert!(matches!(
        store
            .create_session(AccountId(9_999_999), "hash-3", 1_000, 5_000)
            .await,
        Err(PlayerStoreError::NoSuchAccount(_))
    ));
    // A later sign-in sweeps expired sessions; live ones stay.
    store
        .create_session(ana, "hash-4", 3_000, 9_000)
        .await
        .expect("third session");
    assert!(store
        .session("hash-4", 3_000)
        .await
        .expect("read")
        .is_some());
}

async fn nonces(store: &dyn PlayerStore) {
    assert!(store.use_nonce("n1", 0, 100).await.expect("first use"));
    assert!(
        !store.use_nonce("n1", 50, 150).await.expect("replay"),
        "a replayed nonce"
    );
    assert!(store.use_nonce("n2", 50, 150).await.expect("another nonce"));
}

async fn pending_sign_ins(store: &dyn PlayerStore) {
    let pending = PendingSignIn {
        pkce_verifier: "verifier".into(),
        nonce: "nonce".into(),
        return_to: "app".into(),
        display_name: Some("Ana".into()),
        expires_ms: 1_000,
    };
    store
        .put_pending_sign_in("state-1", &pending, 0)
        .await
        .expect("put");
    store
        .put_pending_sign_in(
            "state-2",
            &PendingSignIn {
                display_name: None,
                ..pending.clone()
            },
            0,
        )
        .await
        .expect("put");
    assert_eq!(
        store
            .take_pending_sign_in("state-1", 500)
            .await
            .expect("take"),
        Some(pending.clone())
    );
    assert_eq!(
        store
            .take_pending_sign_in("state-1", 500)
            .await
            .expect("take again"),
        None,
        "a sign-in is taken once"
    );
    assert_eq!(
        store
            .take_pending_sign_in("state-2", 1_000)
            .await
            .expect("take late"),
        None,
        "expired"
    );
    assert_eq!(
        store
            .take_pending_sign_in("unknown", 0)
            .await
            .expect("take"),
        None
    );
}

async fn hand_worked_ratings(store: &dyn PlayerStore) {
    let ana = account(store, "ana").await;
    let bea = account(store, "bea").await;
    let new = store.rating(ana, RatedKind::English).await.expect("rating");
    assert_eq!((new.rating, new.games, new.provisional), (1200.0, 0, true));

    // Two new players (K = 40 each), expected score 0.5: the winner gains 40 × 0.5 = 20.
    let first = store
        .record_rated_game(&game(
            "g1",
            RatedKind::English,
            ana,
            bea,
            GameResult::WhiteWins,
        ))
        .await
        .expect("first game");
    close(first.white.after, 1220.0, "ana after game 1");
    close(first.black.after, 1180.0, "bea after game 1");
    assert_eq!((first.white.games, first.black.games), (1, 1));

    // Ana 1220 vs Bea 1180: E(ana) = 1 / (1 + 10^(−40/400)) = 0.557312. Bea (black) wins:
    // ana 1220 + 40 × (0 − 0.557312) = 1197.7075; bea 1180 + 40 × (1 − 0.442688) = 1202.2925.
    let second = store
        .record_rated_game(&game(
            "g2",
            RatedKind::English,
            ana,
            bea,
            GameResult::BlackWins,
        ))
        .await
        .expect("second game");
    close(second.white.before, 1220.0, "ana before game 2");
    close(second.white.after, 1197.7075, "ana after game 2");
    close(second.black.after, 1202.2925, "bea after game 2");

    let ana_english = store.rating(ana, RatedKind::English).await.expect("rating");
    close(ana_english.rating, 1197.7075, "ana's stored rating");
    assert_eq!(
        (
            ana_english.games,
            ana_english.wins,
            ana_english.draws,
            ana_english.losses
        ),
        (2, 1, 0, 1)
    );
    assert!(ana_english.provisional);

    // Kinds are separate: a Turkish draw between the two leaves both at 1,200 there.
    store
        .record_rated_game(&game("g3", RatedKind::Turkish, bea, ana, GameResult::Draw))
        .await
        .expect("turkish game");
    let ana_turkish = store.rating(ana, RatedKind::Turkish).await.expect("rating");
    close(ana_turkish.rating, 1200.0, "ana turkish");
    assert_eq!((ana_turkish.games, ana_turkish.draws), (1, 1));
    let kinds: Vec<RatedKind> = store
        .ratings(ana)
        .await
        .expect("ratings")
        .iter()
        .map(|rating| rating.kind)
        .collect();
    assert_eq!(kinds.len(), 2);
    assert!(kinds.contains(&RatedKind::English) && kinds.contains(&RatedKind::Turkish));

    // History: ana's rating after each English game, oldest first.
    let history = store
        .rating_history(ana, RatedKind::English, 10)
        .await
        .expect("history");
    assert_eq!(history.len(), 2);
    close(history[0].rating, 1220.0, "history 1");
    close(history[1].rating, 1197.7075, "history 2");
    assert_eq!(history[1].game_id, second.game_id);
    let last_one = store
        .rating_history(ana, RatedKind::English, 1)
        .await
        .expect("history");
    assert_eq!(last_one.len(), 1);
    assert_eq!(last_one[0].game_id, second.game_id);

    // Last games, newest first, with names and both sides' ratings.
    let games = store.last_games(ana, 10).await.expect("games");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].kind, RatedKind::Turkish);
    assert_eq!(games[1].game_id, second.game_id);
    assert_eq!(games[1].result, GameResult::BlackWins);
    assert_eq!(
        (games[1].white_name.as_str(), games[1].black_name.as_str()),
        ("Ana María", "bea")
    );
    close(games[1].black_before, 1180.0, "bea before game 2");
    let pdn = store
        .game_pdn(second.game_id)
        .await
        .expect("pdn")
        .expect("kept");
    assert_eq!(pdn, "[Event \"g2\"]\n1. 11-15 23-19 *\n");
    assert_eq!(store.game_pdn(9_999_999).await.expect("pdn"), None);
}

async fn provisional_k(store: &dyn PlayerStore) {
    let cai = account(store, "cai").await;
    let dan = account(store, "dan").await;
    let (mut cai_rating, mut dan_rating) = (1200.0, 1200.0);
    // 21 games: Cai wins two of every three. The first 20 of each use K = 40, the 21st K = 20.
    for index in 0..21 {
        let cai_wins = index % 3 != 2;
        let k = if index < 20 { 40.0 } else { 20.0 };
        let (cai_score, dan_score) = if cai_wins { (1.0, 0.0) } else { (0.0, 1.0) };
        let recorded = store
            .record_rated_game(&game(
                &format!("k{index}"),
                RatedKind::International,
                cai,
                dan,
                if cai_wins {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                },
            ))
            .await
            .expect("game");
        let next_cai = elo(cai_rating, dan_rating, cai_score, k);
        let next_dan = elo(dan_rating, cai_rating, dan_score, k);
        close(
            recorded.white.after,
            next_cai,
            &format!("cai after game {}", index + 1),
        );
        close(
            recorded.black.after,
            next_dan,
            &format!("dan after game {}", index + 1),
        );
        (cai_rating, dan_rating) = (next_cai, next_dan);
        let rating = store
            .rating(cai, RatedKind::International)
            .await
            .expect("rating");
        assert_eq!(
            rating.provisional,
            index + 1 < 20,
            "provisional after {} games",
            index + 1
        );
    }
}

async fn refusals(store: &dyn PlayerStore) {
    let ana = account(store, "ana").await;
    let bea = account(store, "bea").await;
    let before = store.rating(ana, RatedKind::English).await.expect("rating");
    assert!(matches!(
        store
            .record_rated_game(&game(
                "self",
                RatedKind::English,
                ana,
                ana,
                GameResult::Draw
            ))
            .await,
        Err(PlayerStoreError::SamePlayer)
    ));
    assert!(matches!(
        store
            .record_rated_game(&game(
                "ghost",
                RatedKind::English,
                ana,
                AccountId(9_999_999),
                GameResult::Draw
            ))
            .await,
        Err(PlayerStoreError::NoSuchAccount(_))
    ));
    assert!(matches!(
        store
            .record_rated_game(&game("g1", RatedKind::English, ana, bea, GameResult::WhiteWins))
            .await,
        Err(PlayerStoreError::AlreadyRecorded(key)) if key == "g1"
    ));
    let mut huge = game("huge", RatedKind::English, ana, bea, GameResult::Draw);
    huge.pdn = "1. 11-15 ".repeat(10_000);
    assert!(matches!(
        store.record_rated_game(&huge).await,
        Err(PlayerStoreError::BadInput(_))
    ));
    let after = store.rating(ana, RatedKind::English).await.expect("rating");
    assert_eq!(before, after, "a refused game changes nothing");
    assert_eq!(store.last_games(ana, 50).await.expect("games").len(), 3);
}

async fn ranking(store: &dyn PlayerStore) {
    // Diamond: eve beats fay and gus; fay and gus draw — eve 1st, fay and gus share a place.
    let eve = account(store, "eve").await;
    let fay = account(store, "fay").await;
    let gus = account(store, "gus").await;
    let hal = account(store, "hal").await;
    let kind = RatedKind::Diamond2;
    store
        .record_rated_game(&game("d1", kind, eve, fay, GameResult::WhiteWins))
        .await
        .expect("d1");
    store
        .record_rated_game(&game("d2", kind, gus, eve, GameResult::BlackWins))
        .await
        .expect("d2");
    // eve 1220 after d1; d2: eve (black) 1220 vs gus 1200 wins:
    // E(eve) = 1 / (1 + 10^(−20/400)) = 0.528751; eve 1220 + 40 × 0.471249 = 1238.8500,
    // gus 1200 − 40 × 0.471249 = 1181.1500; fay stays 1180.
    let top = store.ranking(kind, 10).await.expect("ranking");
    let names: Vec<&str> = top
        .iter()
        .map(|entry| entry.display_name.as_str())
        .collect();
    assert_eq!(names, ["eve", "gus", "fay"]);
    let places: Vec<u32> = top.iter().map(|entry| entry.place).collect();
    assert_eq!(places, [1, 2, 3]);
    close(top[0].rating, 1238.8500, "eve");
    close(top[1].rating, 1181.1500, "gus");
    assert!(top.iter().all(|entry| entry.provisional));
    assert_eq!(store.ranking(kind, 2).await.expect("top 2").len(), 2);
    let own = store
        .place(fay, kind)
        .await
        .expect("place")
        .expect("ranked");
    assert_eq!((own.place, own.account), (3, fay));
    assert_eq!(
        store.place(hal, kind).await.expect("place"),
        None,
        "no rated game yet"
    );
    assert!(store
        .ranking(RatedKind::Capture2, 10)
        .await
        .expect("empty")
        .is_empty());

    // Equal ratings share a place: hal and a new player draw → both 1200.
    let ivy = account(store, "ivy").await;
    store
        .record_rated_game(&game("d3", kind, hal, ivy, GameResult::Draw))
        .await
        .expect("d3");
    let hal_place = store
        .place(hal, kind)
        .await
        .expect("place")
        .expect("ranked");
    let ivy_place = store
        .place(ivy, kind)
        .await
        .expect("place")
        .expect("ranked");
    assert_eq!((hal_place.place, ivy_place.place), (2, 2));
    let top = store.ranking(kind, 10).await.expect("ranking");
    let places: Vec<u32> = top.iter().map(|entry| entry.place).collect();
    assert_eq!(places, [1, 2, 2, 4, 5]);
}

async fn concurrent_games(store: Arc<dyn PlayerStore>) {
    // 12 games of one pair at once: each must start from the rating the previous one left.
    let jon = account(store.as_ref(), "jon").await;
    let kim = account(store.as_ref(), "kim").await;
    let mut tasks = Vec::new();
    for index in 0..12 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let (white, black) = if index % 2 == 0 {
                (jon, kim)
            } else {
                (kim, jon)
            };
            store
                .record_rated_game(&game(
                    &format!("c{index}"),
                    RatedKind::Capture2,
                    white,
                    black,
                    GameResult::WhiteWins,
                ))
                .await
                .expect("concurrent game")
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    let games = store.last_games(jon, 50).await.expect("games");
    assert_eq!(games.len(), 12);
    let mut chronological = games.clone();
    chronological.reverse();
    let (mut jon_rating, mut kim_rating) = (1200.0, 1200.0);
    for game in &chronological {
        let (jon_before, kim_before, jon_after, kim_after) = if game.white == jon {
            (
                game.white_before,
                game.black_before,
                game.white_after,
                game.black_after,
            )
        } else {
            (
                game.black_before,
                game.white_before,
                game.black_after,
                game.white_after,
            )
        };
        close(
            jon_before,
            jon_rating,
            "jon's rating chains from game to game",
        );
        close(
            kim_before,
            kim_rating,
            "kim's rating chains from game to game",
        );
        (jon_rating, kim_rating) = (jon_after, kim_after);
    }
    let jon_now = store
        .rating(jon, RatedKind::Capture2)
        .await
        .expect("rating");
    assert_eq!(jon_now.games, 12);
    close(
        jon_now.rating,
        jon_rating,
        "jon's stored rating is the last game's",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_conformance() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let store = damas_server::player_store::open(&PlayerStoreConfig::Sqlite(data.clone()))
        .await
        .expect("open creates the directory and the file");
    assert!(data.join("players.sqlite3").is_file());
    conformance(store, || {
        let data = data.clone();
        async move {
            damas_server::player_store::open(&PlayerStoreConfig::Sqlite(data))
                .await
                .expect("reopen")
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_conformance() {
    let server = PostgresServer::start();
    let url = server.url();
    let store = damas_server::player_store::open(&PlayerStoreConfig::Postgres(url.clone()))
        .await
        .expect("connect and migrate");
    conformance(store, || {
        let url = url.clone();
        async move {
            damas_server::player_store::open(&PlayerStoreConfig::Postgres(url))
                .await
                .expect("reconnect")
        }
    })
    .await;
}

// ---- Crash tests: kill -9 in the middle of a rating update ----

const CHILD_STORE: &str = "DAMAS_CRASH_STORE";
const CHILD_MODE: &str = "DAMAS_CRASH_MODE";
const CHILD_MARKER: &str = "DAMAS_CRASH_MARKER";

/// The child side (run by the crash tests as a separate process of this test binary).
/// `pause`: records game "crash" and stops for good between the two ratings' writes, after
/// creating the marker file. `loop`: records games one after another until killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the crash tests run it as a child process"]
async fn crash_child() {
    let target = std::env::var(CHILD_STORE).expect("DAMAS_CRASH_STORE");
    let mode = std::env::var(CHILD_MODE).expect("DAMAS_CRASH_MODE");
    let marker = std::env::var(CHILD_MARKER).expect("DAMAS_CRASH_MARKER");
    let hook: damas_server::player_store::MidUpdateHook = Arc::new(move || {
        std::fs::write(&marker, b"mid-update").expect("marker");
        loop {
            std::thread::park();
        }
    });
    let store: Arc<dyn PlayerStore> = match (target.split_once(':'), mode.as_str()) {
        (Some(("sqlite", path)), "pause") => Arc::new(
            SqliteStore::open_file(Path::new(path))
                .await
                .expect("open")
                .with_mid_update_hook(hook),
        ),
        (Some(("sqlite", path)), _) => {
            Arc::new(SqliteStore::open_file(Path::new(path)).await.expect("open"))
        }
        (Some(("postgres", url)), "pause") => Arc::new(
            PostgresStore::connect(url)
                .await
                .expect("connect")
                .with_mid_update_hook(hook),
        ),
        (Some(("postgres", url)), _) => {
            Arc::new(PostgresStore::connect(url).await.expect("connect"))
        }
        _ => panic!("bad DAMAS_CRASH_STORE"),
    };
    let ana = account(store.as_ref(), "ana").await;
    let bea = account(store.as_ref(), "bea").await;
    if mode == "pause" {
        store
            .record_rated_game(&game(
                "crash",
                RatedKind::English,
                ana,
                bea,
                GameResult::WhiteWins,
            ))
            .await
            .expect("paused before this returns");
        panic!("the hook should have stopped the update");
    }
    for index in 0.. {
        let result = if index % 3 == 0 {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        };
        store
            .record_rated_game(&game(
                &format!("loop{index}"),
                RatedKind::English,
                ana,
                bea,
                result,
            ))
            .await
            .expect("loop game");
    }
}

fn spawn_child(target: &str, mode: &str, marker: &Path) -> std::process::Child {
    Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "--ignored",
            "--exact",
            "player_store::crash_child",
            "--test-threads=1",
        ])
        .env(CHILD_STORE, target)
        .env(CHILD_MODE, mode)
        .env(CHILD_MARKER, marker)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the child process starts")
}

/// How long the crash tests wait for their child process.
const CHILD_PATIENCE: Duration = Duration::from_secs(60);

/// Every row agrees: each player's game count and rating are those of their game rows.
async fn consistent(store: &dyn PlayerStore, who: AccountId) -> u32 {
    let rating = store.rating(who, RatedKind::English).await.expect("rating");
    let history = store
        .rating_history(who, RatedKind::English, 200)
        .await
        .expect("history");
    assert_eq!(
        rating.games as usize,
        history.len(),
        "games counted = game rows"
    );
    if let Some(last) = history.last() {
        close(rating.rating, last.rating, "rating = the last game's");
    } else {
        close(rating.rating, 1200.0, "no game, no change");
    }
    rating.games
}

async fn crash_suite(target: &str, open: impl AsyncFn() -> Arc<dyn PlayerStore>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = dir.path().join("marker");
    let store = open().await;
    let ana = account(store.as_ref(), "ana").await;
    let bea = account(store.as_ref(), "bea").await;
    store
        .record_rated_game(&game(
            "before",
            RatedKind::English,
            ana,
            bea,
            GameResult::WhiteWins,
        ))
        .await
        .expect("a committed game");
    let ana_before = store.rating(ana, RatedKind::English).await.expect("rating");
    let bea_before = store.rating(bea, RatedKind::English).await.expect("rating");

    // 1. Killed right between the two ratings' writes: all as before.
    let mut child = spawn_child(target, "pause", &marker);
    wait_until(
        "the child reaches the middle of the update",
        CHILD_PATIENCE,
        async || marker.is_file(),
    )
    .await;
    child.kill().expect("kill -9");
    child.wait().expect("reaped");
    let store = open().await;
    assert_eq!(
        store.rating(ana, RatedKind::English).await.expect("rating"),
        ana_before
    );
    assert_eq!(
        store.rating(bea, RatedKind::English).await.expect("rating"),
        bea_before
    );
    assert_eq!(
        store.last_games(ana, 10).await.expect("games").len(),
        1,
        "no game row"
    );
    // Nothing is left locked: the same game records now, once.
    let recorded = store
        .record_rated_game(&game(
            "crash",
            RatedKind::English,
            ana,
            bea,
            GameResult::WhiteWins,
        ))
        .await
        .expect("the interrupted game records after the crash");
    close(
        recorded.white.before,
        ana_before.rating,
        "from the rating before",
    );

    // 2. Killed at whatever point a stream of updates has reached: every row still agrees.
    let mut child = spawn_child(target, "loop", &marker);
    let watcher = open().await;
    wait_until("the child records some games", CHILD_PATIENCE, async || {
        watcher
            .rating(ana, RatedKind::English)
            .await
            .map(|r| r.games)
            .unwrap_or(0)
            >= 8
    })
    .await;
    child.kill().expect("kill -9");
    child.wait().expect("reaped");
    let store = open().await;
    let ana_games = consistent(store.as_ref(), ana).await;
    let bea_games = consistent(store.as_ref(), bea).await;
    assert_eq!(ana_games, bea_games);
    assert!(ana_games >= 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_kill_mid_update() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("players.sqlite3");
    let target = format!("sqlite:{}", path.display());
    crash_suite(&target, async || {
        let store: Arc<dyn PlayerStore> =
            Arc::new(SqliteStore::open_file(&path).await.expect("open"));
        store
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_kill_mid_update() {
    let server = PostgresServer::start();
    let url = server.url();
    let target = format!("postgres:{url}");
    crash_suite(&target, async || {
        let store: Arc<dyn PlayerStore> =
            Arc::new(PostgresStore::connect(&url).await.expect("connect"));
        store
    })
    .await;
}
