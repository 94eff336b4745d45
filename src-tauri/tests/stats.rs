//! Statistics against the CPU through the commands: each finished game counted once, per game and
//! level, from the human side; kept across restarts; an unreadable list reported and restarted.

mod common;

use common::TestApp;
use serde_json::{json, Value};

/// English vs the CPU from black to move with one capture, 14x23, that takes white's last man.
/// `human` is the human's seat (0: black, who wins by that capture).
fn one_capture_from_the_end(human: u8, level: &str) -> Value {
    json!({"setup": {"variant": {"kind": "english"}, "mode": "cpu", "level": level,
        "human_seats": [human], "position": "B:W18:B14"}})
}

fn stats_of(app: &TestApp, kind: &str, level: &str) -> Value {
    let all = app.ok("get_stats", json!({}));
    all.as_array()
        .expect("a list")
        .iter()
        .find(|row| row["kind"] == kind && row["level"] == level)
        .cloned()
        .unwrap_or(Value::Null)
}

fn win(app: &TestApp, level: &str) {
    let game = app.ok("new_game", one_capture_from_the_end(0, level));
    let won = app.ok("play_move", json!({"id": game["id"], "moveText": "14x23"}));
    assert_eq!(won["outcome"]["winner"], 0);
}

#[test]
fn wins_losses_and_streaks_per_game_and_level() {
    let dir = tempfile::tempdir().unwrap();
    {
        let app = TestApp::start(dir.path());
        assert_eq!(app.ok("get_stats", json!({})), json!([]));
        win(&app, "easy");
        win(&app, "easy");
        // Lost to the CPU's capture.
        let lost = app.ok("new_game", one_capture_from_the_end(1, "easy"));
        let reply = app.ok("cpu_move", json!({"id": lost["id"]}));
        assert_eq!(reply["outcome"]["winner"], 0);
        win(&app, "easy");
        // Undone and replayed: still one game.
        let game = app.ok("new_game", one_capture_from_the_end(0, "hard"));
        app.ok("play_move", json!({"id": game["id"], "moveText": "14x23"}));
        app.ok("undo", json!({"id": game["id"]}));
        app.ok("redo", json!({"id": game["id"]}));
        // Resigned in another game: a loss there.
        let turkish =
            json!({"setup": {"variant": {"kind": "turkish"}, "mode": "cpu", "level": "medium"}});
        let turkish = app.ok("new_game", turkish);
        app.ok("resign", json!({"id": turkish["id"]}));
        // Pass-and-play is not counted.
        let local = json!({"setup": {"variant": {"kind": "english"}, "mode": "local"}});
        let local = app.ok("new_game", local);
        app.ok("resign", json!({"id": local["id"]}));
    }
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    let easy = stats_of(&app, "english", "easy");
    assert_eq!(easy["played"], 4);
    assert_eq!(
        (
            easy["wins"].clone(),
            easy["draws"].clone(),
            easy["losses"].clone()
        ),
        (json!(3), json!(0), json!(1))
    );
    assert_eq!(easy["current_streak"], 1);
    assert_eq!(easy["best_streak"], 2);
    assert_eq!(easy["average_plies"], 1.0);
    assert_eq!(easy["recent"], json!(["win", "win", "loss", "win"]));
    let hard = stats_of(&app, "english", "hard");
    assert_eq!(
        (hard["played"].clone(), hard["wins"].clone()),
        (json!(1), json!(1))
    );
    let turkish = stats_of(&app, "turkish", "medium");
    assert_eq!(
        (turkish["played"].clone(), turkish["losses"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(turkish["average_plies"], 0.0);
    assert_eq!(
        app.ok("get_stats", json!({})).as_array().map(Vec::len),
        Some(3)
    );
}

#[test]
fn unreadable_statistics_are_reported_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join(damas_app_lib::PROGRESS_FILE);
    let good =
        json!({"kind": "english", "level": "easy", "result": "win", "plies": 30, "finished": 1});
    let bad =
        json!({"kind": "chess", "level": "easy", "result": "win", "plies": 30, "finished": 2});
    let file = json!({ damas_app_lib::RESULTS_KEY: [good, bad] });
    std::fs::write(&progress, serde_json::to_vec(&file).unwrap()).unwrap();
    {
        let app = TestApp::start(dir.path());
        let notices = app.ok("take_startup_notices", json!({}));
        assert_eq!(notices[0]["code"], "corrupt_progress", "{notices}");
        assert_eq!(stats_of(&app, "english", "easy")["played"], 1);
        win(&app, "easy");
        assert_eq!(stats_of(&app, "english", "easy")["played"], 2);
    }
    // Rewritten without the unreadable entry.
    let app = TestApp::start(dir.path());
    assert_eq!(app.ok("take_startup_notices", json!({})), json!([]));
    assert_eq!(stats_of(&app, "english", "easy")["wins"], 2);
    drop(app);

    // Not a list at all: reported, and the statistics start again.
    let file = json!({ damas_app_lib::RESULTS_KEY: "many wins" });
    std::fs::write(&progress, serde_json::to_vec(&file).unwrap()).unwrap();
    let app = TestApp::start(dir.path());
    let notices = app.ok("take_startup_notices", json!({}));
    assert_eq!(notices[0]["code"], "corrupt_progress", "{notices}");
    assert_eq!(app.ok("get_stats", json!({})), json!([]));
}

#[test]
fn candies_count_long_wins_of_the_local_day() {
    let dir = tempfile::tempdir().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let day = 86_400_000;
    // An offset that puts "now" at local noon, so every result below is of the same local day.
    let offset_minutes = (day / 2 - now.rem_euclid(day)) / 60_000;
    let result = |result: &str, plies: u32, ago_ms: i64| json!({"kind": "turkish", "level": "easy", "result": result, "plies": plies, "finished": now - ago_ms});
    let results = json!([
        result("win", 16, 60_000),
        result("win", 40, 30_000),
        result("win", 15, 20_000),
        result("loss", 60, 10_000),
        // Two days ago.
        result("win", 30, 2 * day),
    ]);
    let file = json!({ damas_app_lib::RESULTS_KEY: results });
    let progress = dir.path().join(damas_app_lib::PROGRESS_FILE);
    std::fs::write(&progress, serde_json::to_vec(&file).unwrap()).unwrap();
    let app = TestApp::start(dir.path());
    let candies = app.ok("get_candies", json!({"utcOffsetMinutes": offset_minutes}));
    // The last game to finish is the loss 10 s ago: it is due nothing and gave nothing.
    assert_eq!(
        candies,
        json!({"today": 12, "total": 18, "budget": 60, "last_due": 0, "last_earned": 0})
    );
}

#[test]
fn friend_games_give_candies_once_per_room_game_and_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let day = 86_400_000;
    let offset_minutes = (day / 2 - now.rem_euclid(day)) / 60_000;
    let candies =
        |app: &TestApp| app.ok("get_candies", json!({"utcOffsetMinutes": offset_minutes}));
    let game = |rematch: u32, result: &str, plies: u32| {
        json!({"game": {"code": "x8Jd0-qL2mZ_a9Qe", "rematch": rematch, "kind": "english",
                        "result": result, "plies": plies}})
    };
    {
        let app = TestApp::start(dir.path());
        assert_eq!(
            app.ok("record_room_result", game(0, "win", 20)),
            json!(true)
        );
        // The same room game again (a resumed screen, a second dialog): not counted twice.
        assert_eq!(
            app.ok("record_room_result", game(0, "win", 20)),
            json!(false)
        );
        assert_eq!(
            app.ok("record_room_result", game(0, "loss", 30)),
            json!(false)
        );
        assert_eq!(
            candies(&app),
            json!({"today": 15, "total": 15, "budget": 60, "last_due": 15, "last_earned": 15})
        );
        assert_eq!(
            app.ok("record_room_result", game(1, "draw", 16)),
            json!(true)
        );
        // Recorded, but too short for candies.
        assert_eq!(
            app.ok("record_room_result", game(2, "loss", 15)),
            json!(true)
        );
        assert_eq!(
            app.ok("record_room_result", game(3, "loss", 60)),
            json!(true)
        );
        // 15 + 8 + 0 + 5; the last one, the 60-ply loss, gave its 5.
        assert_eq!(
            candies(&app),
            json!({"today": 28, "total": 28, "budget": 60, "last_due": 5, "last_earned": 5})
        );
        for bad in [
            json!({"game": {"code": "../x", "rematch": 0, "kind": "english", "result": "win", "plies": 20}}),
            json!({"game": {"code": "x8Jd0-qL2mZ_a9Qe", "rematch": 9, "kind": "english", "result": "victory", "plies": 20}}),
            json!({"game": {"code": "x8Jd0-qL2mZ_a9Qe", "rematch": 9, "kind": "chess", "result": "win", "plies": 20}}),
            json!({"game": {"code": "x8Jd0-qL2mZ_a9Qe", "rematch": 9, "kind": "english", "result": "win", "plies": 1_000_000}}),
            json!({"game": {"code": "x8Jd0-qL2mZ_a9Qe", "rematch": 9, "kind": "english", "result": "win", "plies": 20, "candies": 99}}),
            json!({"game": {"code": "x8Jd0-qL2mZ_a9Qe", "rematch": -1, "kind": "english", "result": "win", "plies": 20}}),
        ] {
            assert_eq!(
                app.error_code("record_room_result", bad.clone()),
                "bad_input",
                "{bad}"
            );
        }
        assert_eq!(candies(&app)["today"], 28, "nothing bad was recorded");
        // Friend games are rewards only: the statistics are against the CPU.
        assert_eq!(app.ok("get_stats", json!({})), json!([]));
    }
    let app = TestApp::start(dir.path());
    assert_eq!(
        candies(&app),
        json!({"today": 28, "total": 28, "budget": 60, "last_due": 5, "last_earned": 5})
    );
    assert_eq!(
        app.ok("record_room_result", game(1, "win", 40)),
        json!(false),
        "still once after a restart"
    );
    let progress: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join(damas_app_lib::PROGRESS_FILE)).unwrap(),
    )
    .unwrap();
    assert_eq!(
        progress[damas_app_lib::ROOM_RESULTS_KEY]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}
