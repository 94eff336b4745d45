//! The CPU on positions with known answers, checked by hand from the seed rules (docs/cpu.md,
//! "Tactical tests"): a 2-for-1 shot in each draughts game, a win in one and a king's jump line
//! that must be cut in the Diamond Game.

use damas::catalogue;
use damas::games::diamond::START_POINTS;
use damas::geometry::holeset::{Hole, HoleSet};
use damas::geometry::star::{star, HOLES, NO_HOLE};
use damas::notation::star_text::write_board;
use damas::search::alphabeta::Params;
use damas::search::levels::{self, MoveTime};
use damas::search::{Level, Player, PlayerConfig, SearchContext};
use damas::{GameKind, GameResult, Playable, Variant};
use std::sync::atomic::AtomicBool;

/// A CPU player of these tests: a level, or expert on one search thread.
#[derive(Clone, Copy, Debug)]
enum Cpu {
    Level(Level),
    ExpertSingle,
    /// Expert on one thread with ProbCut and countermoves (the lab's `expert-selective`).
    Selective,
}

/// The node-budgeted levels (the lab checks the seed's reference CPU on the same shots).
const ALL_PLAYERS: [Cpu; 3] = [
    Cpu::Level(Level::Easy),
    Cpu::Level(Level::Medium),
    Cpu::Level(Level::Hard),
];

/// The draughts shots' players: the levels, and expert with the selective search.
const DRAUGHTS_PLAYERS: [Cpu; 4] = [
    Cpu::Level(Level::Easy),
    Cpu::Level(Level::Medium),
    Cpu::Level(Level::Hard),
    Cpu::Selective,
];

/// Expert on one thread for its shortest time (in two-seat Diamond, with late-move pruning).
fn expert() -> Cpu {
    Cpu::ExpertSingle
}

impl Cpu {
    fn config(self, variant: Variant) -> PlayerConfig {
        match self {
            Cpu::Level(level) => levels::config(variant, Player::Cpu(level)),
            Cpu::ExpertSingle => {
                let movetime = MoveTime::from_millis(500).expect("a move time");
                let expert = levels::config(variant, Player::Expert(movetime));
                PlayerConfig {
                    params: Params {
                        threads: 1,
                        ..expert.params
                    },
                    ..expert
                }
            }
            Cpu::Selective => {
                let single = Cpu::ExpertSingle.config(variant);
                let probcut = levels::selective_probcut(variant.kind);
                assert!(
                    probcut.is_some(),
                    "ProbCut is fitted for {:?}",
                    variant.kind
                );
                PlayerConfig {
                    params: Params {
                        probcut,
                        countermoves: true,
                        ..single.params
                    },
                    ..single
                }
            }
        }
    }
}

fn game(kind: GameKind, players: Option<u8>, text: &str) -> Box<dyn Playable> {
    let variant = Variant::new(kind, players, false).expect("variant");
    catalogue::new_game(variant, Some(text)).expect("position")
}

fn cpu_move(game: &dyn Playable, player: Cpu) -> (String, i32) {
    let stop = AtomicBool::new(false);
    let config = player.config(game.variant());
    let decision = game
        .decide_as(&config, 1, None, &stop, &SearchContext::new())
        .expect("a move");
    (decision.info.text, decision.score)
}

/// Plays `shot`, then checks the opponent's only legal move is `forced` and that the shooter then
/// takes two pieces.
fn assert_two_for_one(mut game: Box<dyn Playable>, shot: &str, forced: &str) {
    game.play(shot).expect("the shot is legal");
    let replies: Vec<String> = game.legal_moves().into_iter().map(|m| m.text).collect();
    assert_eq!(replies, [forced], "the sacrifice must be taken");
    game.play(forced).expect("forced capture");
    let best_capture = game
        .legal_moves()
        .into_iter()
        .map(|m| m.captures.len())
        .max();
    assert_eq!(best_capture, Some(2), "the shot takes two back");
}

/// English: Black men 5, 9, 14, 15 against White 22, 23, 32. 14-18 gives a man: White must take
/// 23x14 (22 cannot, 15 blocks its landing; 5 stops the jump going on over 9), then 9 jumps 14
/// and 22 (9x18x25).
#[test]
fn english_two_for_one_shot() {
    let fen = "B:W22,23,32:B5,9,14,15";
    assert_two_for_one(game(GameKind::English, None, fen), "14-18", "23x14");
    for player in DRAUGHTS_PLAYERS {
        let (mv, score) = cpu_move(game(GameKind::English, None, fen).as_ref(), player);
        assert_eq!(mv, "14-18", "{player:?}");
        assert!(score >= 150, "{player:?}: {score}");
    }
}

/// International: White men 32, 33, 37, 41 against Black 22, 23, 5. 32-28 gives a man: Black must
/// take 23x32 (22 cannot land on the occupied 33; 41 stops the capture going on over 37), then
/// 37 takes 32 and 22 in one capture (37x17).
#[test]
fn international_two_for_one_shot() {
    let fen = "W:W32,33,37,41:B5,22,23";
    assert_two_for_one(game(GameKind::International, None, fen), "32-28", "23x32");
    for player in DRAUGHTS_PLAYERS {
        let (mv, score) = cpu_move(game(GameKind::International, None, fen).as_ref(), player);
        assert_eq!(mv, "32-28", "{player:?}");
        assert!(score >= 150, "{player:?}: {score}");
    }
}

/// Turkish: White men d1, d2, d3, e4 against Black c4, d5, h7. d3-d4 gives a man: Black must take
/// d5xd3 (c4 cannot land on the occupied e4; d1 stops the capture going on over d2), then d2
/// takes d3 and, turning, c4: d2xd4xb4.
#[test]
fn turkish_two_for_one_shot() {
    let fen = "W:Wd1,d2,d3,e4:Bc4,d5,h7";
    assert_two_for_one(game(GameKind::Turkish, None, fen), "d3-d4", "d5xd3");
    for player in DRAUGHTS_PLAYERS {
        let (mv, score) = cpu_move(game(GameKind::Turkish, None, fen).as_ref(), player);
        assert_eq!(mv, "d3-d4", "{player:?}");
        assert!(score >= 150, "{player:?}: {score}");
    }
}

/// A Diamond position text from piece lists: `(hole, letter index)` with r y g R Y G = 0…5.
fn diamond_text(players: u8, pieces: &[(Hole, u8)], to_move: char) -> String {
    let mut cells = [0u8; HOLES];
    for &(hole, symbol) in pieces {
        assert_eq!(cells[hole as usize], 0, "hole {hole} used twice");
        cells[hole as usize] = symbol + 1;
    }
    let board = write_board(b"rygRYG", |hole| cells[hole as usize]);
    format!("diamond:{players} {board} {to_move} 10 0")
}

fn walk(from: Hole, d: usize, steps: usize) -> Hole {
    let mut hole = from;
    for _ in 0..steps {
        hole = star().neighbour(hole, d);
        assert_ne!(hole, NO_HOLE);
    }
    hole
}

/// The 15 holes of a colour's start or destination, apex first.
fn punta(colour: usize, destination: bool) -> (Hole, HoleSet) {
    let point = START_POINTS[colour];
    let point = if destination { point.opposite() } else { point };
    (star().apex(point), star().punta(point))
}

/// Red's king already sits on its apex and 13 men fill the destination but for one base hole;
/// a man next to that hole steps in and wins (seed: "Gana quien mete sus 15 fichas en la punta
/// de destino y coloca el rey en el vértice").
#[test]
fn diamond_win_in_one() {
    let (apex, destination) = punta(0, true);
    // A base hole of the destination with a hexagon hole behind it, away from the apex.
    let (gap, outside) = destination
        .iter()
        .filter(|&hole| star().border().contains(hole))
        .find_map(|hole| {
            (0..6).find_map(|d| {
                let next = star().neighbour(hole, d);
                (next != NO_HOLE && star().hexagon().contains(next) && !destination.contains(next))
                    .then_some((hole, next))
            })
        })
        .expect("a base hole");
    let mut pieces: Vec<(Hole, u8)> = vec![(apex, 3), (outside, 0)];
    pieces.extend(
        destination
            .iter()
            .filter(|&h| h != apex && h != gap)
            .map(|h| (h, 0)),
    );
    // Yellow at home; a start corner shared with red's destination sends its man to yellow's
    // own destination instead.
    let (yellow_apex, yellow_start) = punta(1, false);
    let (_, yellow_destination) = punta(1, true);
    pieces.push((yellow_apex, 4));
    let mut taken: Vec<Hole> = pieces.iter().map(|&(hole, _)| hole).collect();
    taken.push(gap);
    let yellow_men: Vec<(Hole, u8)> = yellow_start
        .iter()
        .chain(yellow_destination.iter())
        .filter(|h| !taken.contains(h))
        .take(14)
        .map(|h| (h, 1))
        .collect();
    pieces.extend(yellow_men);
    let text = diamond_text(2, &pieces, 'r');
    for player in ALL_PLAYERS.into_iter().take(3).chain([expert()]) {
        let mut game = game(GameKind::Diamond, Some(2), &text);
        let (mv, _) = cpu_move(game.as_ref(), player);
        game.play(&mv).expect("legal");
        assert_eq!(
            game.outcome().map(|o| o.result),
            Some(GameResult::Win(0)),
            "{player:?} played {mv}"
        );
    }
}

/// Whether the side to move has a move that wins at once.
fn wins_at_once(game: &dyn Playable) -> bool {
    let me = game.to_move();
    game.legal_moves().into_iter().any(|mv| {
        let mut next = game.clone_box();
        next.play(&mv.text).is_ok() && next.outcome().map(|o| o.result) == Some(GameResult::Win(me))
    })
}

/// Yellow's 14 men fill its destination but for the apex; its king can jump a red man into the
/// hexagon hole at the end of the destination's edge line and from there jump the whole line of
/// men onto the apex (seed: the king "puede saltar de una vez por encima de cualquier número de
/// fichas seguidas"). Red must cut the line: the CPU's move leaves yellow no winning move.
#[test]
fn diamond_must_block_the_kings_line() {
    let (apex, destination) = punta(1, true);
    let edge = (0..6)
        .find(|&d| {
            let next = star().neighbour(apex, d);
            next != NO_HOLE && destination.contains(next)
        })
        .expect("an edge from the apex");
    let landing = walk(apex, edge, 5);
    assert!(!destination.contains(landing) && star().hexagon().contains(landing));
    // Approach the landing from a direction off the edge line, so a piece on the landing breaks
    // the chain instead of lengthening the line.
    let (stone, king) = (0..6)
        .filter(|&d| d != edge && d != (edge + 3) % 6)
        .find_map(|d| {
            let stone = star().neighbour(landing, d);
            let king = if stone == NO_HOLE {
                NO_HOLE
            } else {
                star().neighbour(stone, d)
            };
            let open =
                |h: Hole| h != NO_HOLE && star().hexagon().contains(h) && !destination.contains(h);
            (open(stone) && open(king)).then_some((stone, king))
        })
        .expect("an approach");
    let mut pieces: Vec<(Hole, u8)> = vec![(king, 4), (stone, 0)];
    pieces.extend(destination.iter().filter(|&h| h != apex).map(|h| (h, 1)));
    let (red_apex, red_start) = punta(0, false);
    pieces.push((red_apex, 3));
    let taken: Vec<Hole> = pieces.iter().map(|&(hole, _)| hole).collect();
    let red_men: Vec<(Hole, u8)> = red_start
        .iter()
        .filter(|&h| h != red_apex && !taken.contains(&h))
        .take(13)
        .map(|h| (h, 0))
        .collect();
    pieces.extend(red_men);
    let text = diamond_text(2, &pieces, 'r');
    let start = game(GameKind::Diamond, Some(2), &text);
    let losing = start
        .legal_moves()
        .into_iter()
        .filter(|mv| {
            let mut next = start.clone_box();
            next.play(&mv.text).is_ok() && wins_at_once(next.as_ref())
        })
        .count();
    // The threat is real: most red moves (16 of 21) let yellow win at once.
    assert!(
        losing * 2 > start.legal_moves().len(),
        "only {losing} red moves lose in {text}"
    );
    for player in [Cpu::Level(Level::Medium), Cpu::Level(Level::Hard), expert()] {
        let mut game = start.clone_box();
        let (mv, _) = cpu_move(game.as_ref(), player);
        game.play(&mv).expect("legal");
        assert!(
            !wins_at_once(game.as_ref()),
            "{player:?} played {mv}; yellow still wins"
        );
    }
}
