//! The UI's test fixtures, made by the engine: `ui/tests/fixtures/<game>.json` holds the
//! `GameView`s of chosen positions and move sequences of each game, exactly as the app's commands
//! return them. The UI's node tests read them (instead of a second rules engine in JavaScript), and
//! the in-browser stand-in (`ui/js/replay.js`) replays them.
//!
//! This test fails when a committed fixture differs from what the engine makes now. To rewrite
//! them after a deliberate change of the engine or of the view:
//!
//! ```sh
//! UPDATE_UI_FIXTURES=1 cargo test -p damas --test ui_fixtures
//! ```
//!
//! A file holds `lines`: a new game (`setup`), then `steps` — `play` (a human move), `cpu` (the
//! move the CPU seat plays, chosen here so the file does not depend on the search), `undo`,
//! `redo`, `resign` — and `views[i]`, the view after step i (`views[0]` is the new game). Each view
//! has the line's name as `id`, `last_played` and `created` 0, and no `layout`: the layouts are stored once per
//! player count in `layouts`.

use damas::geometry::holeset::HoleSet;
use damas::geometry::star::star;
use damas::notation::star_text::write_board;
use damas::session::{GameSetup, Session};
use damas::MoveInfo;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

enum Step {
    Play(&'static str),
    Cpu(&'static str),
    /// The CPU's move: the first legal move with the most jumps (a deterministic pick).
    CpuLongest,
    /// A human move: the first legal move with the most jumps.
    PlayLongest,
    Undo,
    Redo,
    Resign,
}

struct Line {
    name: &'static str,
    setup: Value,
    steps: Vec<Step>,
}

fn cpu(kind: &str, players: Option<u8>, human_seats: &[u8]) -> Value {
    json!({
        "variant": {"kind": kind, "players": players},
        "mode": "cpu",
        "level": "easy",
        "human_seats": human_seats,
    })
}

fn local(kind: &str, players: Option<u8>, position: Option<&str>) -> Value {
    let mut setup = json!({"variant": {"kind": kind, "players": players}, "mode": "local"});
    if let Some(text) = position {
        setup["position"] = json!(text);
    }
    setup
}

fn line(name: &'static str, setup: Value, steps: Vec<Step>) -> Line {
    Line { name, setup, steps }
}

/// The capture game's position text for pieces at axial coordinates, seat 0 to move.
fn capture_position(players: u8, pieces: &[(i8, i8)]) -> String {
    let set: HoleSet = pieces
        .iter()
        .map(|&(q, r)| star().by_axial(q, r).expect("hole on the board"))
        .collect();
    let board = write_board(b"o", |h| u8::from(set.contains(h)));
    let captures = vec!["0"; usize::from(players)].join(",");
    format!("capture:{players} {board} 1 {captures}")
}

/// The lines of each game. Positions are the hand-checked ones of the rule tests
/// (tests/rules_*.rs), chosen for what the UI must show: forced captures, routes that part,
/// stop-here, undo and redo against the CPU, the end of a game.
fn lines(kind: &str) -> Vec<Line> {
    use Step::*;
    match kind {
        "english" => vec![
            line(
                "vs-cpu",
                cpu("english", None, &[0]),
                vec![
                    Play("11-15"),
                    Cpu("22-18"),
                    Play("15x22"),
                    Cpu("25x18"),
                    Undo,
                    Redo,
                    Resign,
                ],
            ),
            // Black 14 must take 18; the man on 1 may not move.
            line(
                "forced-capture",
                local("english", None, Some("B:W18,32:B1,14")),
                vec![],
            ),
            // Two routes to 26 that part after the first jump.
            line(
                "two-routes",
                local("english", None, Some("B:W14,15,22,23:B10")),
                vec![],
            ),
            // White 23 takes 18 then 9: a double jump with one route.
            line(
                "double-jump",
                local("english", None, Some("W:W23,32:B1,9,18")),
                vec![Play("23x14x5")],
            ),
        ],
        "international" => vec![
            line(
                "vs-cpu",
                cpu("international", None, &[0]),
                vec![Play("32-28"), Cpu("19-23"), Play("28x19"), Cpu("14x23")],
            ),
            // rules.md I4: three men beat two kings; the only move is 32x21x12x3.
            line(
                "majority",
                local("international", None, Some("W:W32,34:B8,17,27,K20,K30")),
                vec![Play("32x21x12x3")],
            ),
            // rules.md I5: a king takes 28, 13, 12 and chooses among three landings.
            line(
                "king-landings",
                local("international", None, Some("W:WK37:B12,13,28,33")),
                vec![],
            ),
        ],
        "turkish" => vec![
            line(
                "vs-cpu",
                cpu("turkish", None, &[0]),
                vec![Play("a3-a4"), CpuLongest, PlayLongest, CpuLongest],
            ),
            // rules.md §T5: d2 takes d3 to d4, then c4 or e4: two routes through one landing.
            line(
                "two-routes",
                local("turkish", None, Some("W:Wd2,a2:Bd3,c4,e4,h8")),
                vec![],
            ),
            // rules.md §T6: a king's four-piece capture crossing a square emptied earlier.
            line(
                "king-chain",
                local("turkish", None, Some("W:WKd2:Bd4,f6,h5,c4")),
                vec![Play("d2xd6xh6xh4xb4")],
            ),
        ],
        "diamond" => vec![
            line(
                "vs-cpu",
                cpu("diamond", Some(3), &[0]),
                vec![PlayLongest, CpuLongest, CpuLongest, Undo, Redo],
            ),
            line(
                "local-2",
                local("diamond", Some(2), None),
                vec![PlayLongest, PlayLongest, Resign],
            ),
            line(
                "local-3",
                local("diamond", Some(3), None),
                vec![PlayLongest],
            ),
        ],
        "capture" => vec![
            line(
                "vs-cpu",
                cpu("capture", Some(3), &[0]),
                vec![PlayLongest, CpuLongest, CpuLongest],
            ),
            // (0,0) over (1,0) to (2,0), and on over (2,1) to (2,2): stop after either jump.
            line(
                "chain-stop",
                local(
                    "capture",
                    Some(2),
                    Some(&capture_position(2, &[(0, 0), (1, 0), (2, 1)])),
                ),
                vec![],
            ),
        ],
        other => panic!("no fixture lines for {other}"),
    }
}

/// The first legal move with the most jumps.
fn longest(session: &Session) -> MoveInfo {
    let moves = session.view().legal_moves;
    let most = moves.iter().map(|m| m.jumps).max().expect("a legal move");
    moves
        .into_iter()
        .find(|m| m.jumps == most)
        .expect("a legal move")
}

fn play_cpu(session: &mut Session, chosen: MoveInfo) {
    let turn = session.begin_cpu_turn().expect("the CPU is to move");
    session
        .finish_cpu_turn(&turn, Some(chosen))
        .expect("the CPU's move is legal");
}

fn legal(session: &Session, text: &str) -> MoveInfo {
    session
        .view()
        .legal_moves
        .into_iter()
        .find(|m| m.text == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", session.game().position_text()))
}

/// Runs a line; returns its steps as JSON and the views, each with its layout.
fn run(line: &Line) -> (Vec<Value>, Vec<Value>) {
    let setup: GameSetup = serde_json::from_value(line.setup.clone()).expect("setup");
    let mut session = Session::new(line.name.to_string(), &setup).expect("new game");
    let mut steps = Vec::new();
    let mut views = vec![serde_json::to_value(session.view()).expect("view")];
    for step in &line.steps {
        let done = match step {
            Step::Play(text) => {
                session.play_move(text).expect("legal human move");
                json!({"action": "play", "move": text})
            }
            Step::PlayLongest => {
                let mv = longest(&session);
                session.play_move(&mv.text).expect("legal human move");
                json!({"action": "play", "move": mv.text})
            }
            Step::Cpu(text) => {
                let mv = legal(&session, text);
                play_cpu(&mut session, mv);
                json!({"action": "cpu", "move": text})
            }
            Step::CpuLongest => {
                let mv = longest(&session);
                let text = mv.text.clone();
                play_cpu(&mut session, mv);
                json!({"action": "cpu", "move": text})
            }
            Step::Undo => {
                session.undo().expect("undo");
                json!({"action": "undo"})
            }
            Step::Redo => {
                session.redo().expect("redo");
                json!({"action": "redo"})
            }
            Step::Resign => {
                session.resign().expect("resign");
                json!({"action": "resign"})
            }
        };
        steps.push(done);
        views.push(serde_json::to_value(session.view()).expect("view"));
    }
    (steps, views)
}

/// The fixture file of one game, as text.
fn fixture(kind: &str) -> String {
    let mut layouts = Map::new();
    let mut out_lines = Vec::new();
    for line in lines(kind) {
        let (steps, views) = run(&line);
        let views: Vec<Value> = views
            .into_iter()
            .map(|mut view| {
                let object = view.as_object_mut().expect("a view is an object");
                let players = object["variant"]["players"].to_string();
                let layout = object.remove("layout").expect("a view has a layout");
                match layouts.get(&players) {
                    None => {
                        layouts.insert(players, layout);
                    }
                    Some(known) => assert_eq!(known, &layout, "one layout per player count"),
                }
                object.insert("last_played".into(), json!(0));
                object.insert("created".into(), json!(0));
                view
            })
            .collect();
        out_lines.push(json!({
            "name": line.name,
            "setup": line.setup,
            "steps": steps,
            "views": views,
        }));
    }
    let file = json!({
        "about": "Made by the engine: UPDATE_UI_FIXTURES=1 cargo test -p damas --test ui_fixtures. Do not edit.",
        "kind": kind,
        "layouts": layouts,
        "lines": out_lines,
    });
    let mut text = serde_json::to_string_pretty(&file).expect("JSON");
    text.push('\n');
    text
}

#[test]
fn ui_fixtures_are_up_to_date() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ui/tests/fixtures");
    let update = std::env::var_os("UPDATE_UI_FIXTURES").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for kind in ["english", "international", "turkish", "diamond", "capture"] {
        let path = dir.join(format!("{kind}.json"));
        let made = fixture(kind);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == made {
            continue;
        }
        if update {
            std::fs::create_dir_all(&dir).expect("fixture directory");
            std::fs::write(&path, made).expect("write fixture");
        } else {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale UI fixtures (the engine's views changed): {stale:?}\n\
         rewrite them with: UPDATE_UI_FIXTURES=1 cargo test -p damas --test ui_fixtures"
    );
}
