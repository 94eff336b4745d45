//! The `room` of a `state` message (docs/protocol.md), as typed structs: the whole room, and its
//! delta — the same room with only the newest history entries and no board layout.

use super::snapshot::{Delta, DeltaBase, HistoryMark};
use crate::offers;
use crate::play::{self, Game};
use crate::protocol::VERSION;
use crate::store::{
    ClockSettings, GameChoice, RoomKind, RoomRecord, RoomResult, SeatClock, SeatKind, Versioned,
};
use damas::session::{GameView, HistoryEntry, OutcomeView, SeatView};
use damas::{BoardLayout, DrawCounter, Level, MoveInfo, PieceView, Seat, Variant};
use serde::Serialize;
use serde_json::value::RawValue;

/// What a room looks like to everyone in it at one moment.
pub(super) struct RoomFacts<'a> {
    pub record: &'a Versioned<RoomRecord>,
    pub game: &'a Game,
    /// Seats with a live connection.
    pub present: &'a [u8],
    pub now: u64,
    pub takeover_ms: u64,
}

/// A room made ready to send: whole, as a delta against `base` when there can be one, and the
/// history it shows.
pub(super) struct RenderedRoom {
    pub room: Box<RawValue>,
    pub delta: Option<Delta>,
    pub mark: HistoryMark,
}

impl RoomFacts<'_> {
    fn cpu_controls(&self, seat: u8) -> bool {
        play::cpu_controls(&self.record.value, seat, self.now, self.takeover_ms)
    }

    /// The room whole and, against `base`, as a delta; `None` if it cannot be serialized.
    pub(super) fn render(&self, base: Option<&DeltaBase>) -> Option<RenderedRoom> {
        let game_view = self.game.view();
        let mut state = self.state(&game_view);
        let room = to_raw(&state)?;
        let mark = HistoryMark {
            rematch: self.record.value.rematch,
            game_id: self.game.id().to_string(),
            history_len: self.game.history_len(),
        };
        let delta = base
            .and_then(|base| base.history_from(&mark))
            .and_then(|history_from| {
                state.view = state.view.delta(history_from);
                state.history_from = Some(history_from);
                to_raw(&state).map(|room| Delta { history_from, room })
            });
        Some(RenderedRoom { room, delta, mark })
    }

    fn state<'v>(&'v self, game_view: &'v GameView) -> RoomState<'v> {
        let value = &self.record.value;
        let game = self.game;
        let running =
            (value.started && value.result.is_none() && !game.is_over()).then(|| game.to_move());
        let seats = value
            .seats
            .iter()
            .enumerate()
            .map(|(index, seat)| {
                let number = index as u8;
                SeatState {
                    seat: number,
                    color: game_view.seats.get(index).map_or("", |s| s.name.as_str()),
                    kind: seat.kind,
                    nickname: seat.nickname.as_deref(),
                    connected: self.present.contains(&number),
                    left: seat.left,
                    away_since: seat.away_since,
                    takeover_at: seat
                        .away_since
                        .filter(|_| value.started && !seat.left && seat.kind == SeatKind::Human)
                        .map(|since| since.saturating_add(self.takeover_ms)),
                    cpu_playing: self.cpu_controls(number),
                }
            })
            .collect();
        let human_seats = value
            .seats
            .iter()
            .enumerate()
            .filter(|(index, seat)| {
                seat.kind == SeatKind::Human && !seat.left && !self.cpu_controls(*index as u8)
            })
            .map(|(index, _)| index as Seat)
            .collect();
        let cpu_to_move = running.is_some_and(|seat| self.cpu_controls(seat));
        RoomState {
            v: VERSION,
            code: value.code.as_str(),
            version: self.record.version,
            game: &value.game,
            started: value.started,
            rematch: value.rematch,
            seats,
            clock: value.clock.map(|settings| ClockState {
                settings,
                seats: &value.clocks,
                running: running.filter(|_| value.turn_started_at.is_some()),
                turn_started_at: value.turn_started_at,
                flag_at: running.and_then(|seat| crate::clocks::flag_deadline(value, seat)),
            }),
            result: value.result.as_ref(),
            kind: &value.kind,
            draw_offer: value.offers.pending.filter(|_| value.result.is_none()),
            next_draw_offer_ply: (0..value.seats.len() as u8)
                .map(|seat| value.offers.next_offer_ply(seat))
                .collect(),
            can_undo: matches!(value.kind, RoomKind::Cpu { .. })
                && value.resigned.is_none()
                && game.movers().iter().any(|&s| {
                    value
                        .seats
                        .get(usize::from(s))
                        .is_some_and(|s| s.kind == SeatKind::Human)
                }),
            can_redo: !value.redo.is_empty(),
            must_capture: game.must_capture(),
            view: RoomView::new(game_view, human_seats, cpu_to_move),
            history_from: None,
            now: self.now,
            expires_at: value.expires_at(),
        }
    }
}

fn to_raw(state: &RoomState) -> Option<Box<RawValue>> {
    match serde_json::to_string(state).map(RawValue::from_string) {
        Ok(Ok(raw)) => Some(raw),
        Ok(Err(error)) | Err(error) => {
            tracing::error!(room = %state.code, %error, "the room state could not be serialized");
            None
        }
    }
}

/// The `room` of a `state` message (docs/protocol.md).
#[derive(Serialize)]
struct RoomState<'a> {
    v: u64,
    code: &'a str,
    /// The record's version: grows with every change.
    version: u64,
    game: &'a GameChoice,
    started: bool,
    rematch: u32,
    seats: Vec<SeatState<'a>>,
    clock: Option<ClockState<'a>>,
    result: Option<&'a RoomResult>,
    /// How the room came to be (`friends`, `cpu` with its level, `pool`).
    kind: &'a RoomKind,
    /// The draw offer waiting for an answer (2-player games), seen by everyone.
    draw_offer: Option<offers::PendingOffer>,
    /// Per seat: the ply from which it may offer a draw again.
    next_draw_offer_ply: Vec<usize>,
    /// Rooms against the CPU: whether `undo` / `redo` would do something.
    can_undo: bool,
    can_redo: bool,
    /// Pieces that must capture (each has a ring in the UI).
    must_capture: Vec<String>,
    /// The game as the session shows it, as true in a room.
    view: RoomView<'a>,
    /// A delta (`Delta`): `view.history` holds the entries from this index on, `view.layout` is
    /// left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    history_from: Option<usize>,
    /// The server's unix ms when this state was made (clients correct their clocks by it).
    now: u64,
    expires_at: u64,
}

#[derive(Serialize)]
struct SeatState<'a> {
    seat: u8,
    /// The seat's colour in the game's words (Red, Black …).
    color: &'a str,
    kind: SeatKind,
    nickname: Option<&'a str>,
    connected: bool,
    left: bool,
    away_since: Option<u64>,
    /// When the CPU takes this dropped seat (`away_since` + the takeover time), unix ms.
    takeover_at: Option<u64>,
    /// The CPU plays this seat now (from the start, after a leave, or 45 s after a drop).
    cpu_playing: bool,
}

#[derive(Serialize)]
struct ClockState<'a> {
    settings: ClockSettings,
    seats: &'a [SeatClock],
    /// The seat whose clock runs.
    running: Option<u8>,
    turn_started_at: Option<u64>,
    /// When the running clock runs out, unix ms.
    flag_at: Option<u64>,
}

/// The session's [`GameView`] field for field, in its order, borrowed. The session plays every
/// seat of a room as the app's "local" game (anyone may move, undo is there); a room's view says
/// what is true in a room instead: `mode` `"room"`, no undo or redo, `human_seats` the seats
/// people play now, `cpu_to_move` when the server's CPU plays the turn. A delta leaves `layout`
/// out and holds only the newest history entries.
#[derive(Serialize)]
struct RoomView<'a> {
    id: &'a str,
    variant: &'a Variant,
    mode: &'static str,
    level: &'a Option<Level>,
    human_seats: Vec<Seat>,
    seats: &'a [SeatView],
    to_move: Seat,
    ply: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<&'a BoardLayout>,
    pieces: &'a [PieceView],
    legal_moves: &'a [MoveInfo],
    must_capture: &'a [String],
    history: &'a [HistoryEntry],
    outcome: &'a Option<OutcomeView>,
    draw_counters: &'a [DrawCounter],
    can_undo: bool,
    can_redo: bool,
    cpu_to_move: bool,
    last_played: u64,
    created: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    review_ply: Option<usize>,
    #[serde(skip_serializing_if = "is_zero")]
    hints: u32,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tags: &'a [(String, String)],
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

impl<'a> RoomView<'a> {
    fn new(view: &'a GameView, human_seats: Vec<Seat>, cpu_to_move: bool) -> RoomView<'a> {
        // A field the session adds must be placed here too (the test below compares them).
        RoomView {
            id: &view.id,
            variant: &view.variant,
            mode: "room",
            level: &view.level,
            human_seats,
            seats: &view.seats,
            to_move: view.to_move,
            ply: view.ply,
            layout: Some(&view.layout),
            pieces: &view.pieces,
            legal_moves: &view.legal_moves,
            must_capture: &view.must_capture,
            history: &view.history,
            outcome: &view.outcome,
            draw_counters: &view.draw_counters,
            can_undo: false,
            can_redo: false,
            cpu_to_move,
            last_played: view.last_played,
            created: view.created,
            review_ply: view.review_ply,
            hints: view.hints,
            tags: &view.tags,
        }
    }

    /// The same view without the layout and with the history entries from `history_from` on.
    fn delta(self, history_from: usize) -> RoomView<'a> {
        RoomView {
            layout: None,
            history: &self.history[history_from.min(self.history.len())..],
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::GameChoice;

    /// A started room of English draughts against the CPU, two moves in.
    fn two_moves_in() -> (Versioned<RoomRecord>, Game) {
        let choice = GameChoice {
            kind: "english".into(),
            players: 2,
            long_jump: false,
        };
        let code = crate::lobby::new_code();
        let (mut record, seat) = crate::cpu_rooms::new_room(
            code,
            choice,
            "easy".into(),
            Some(0),
            "Ana".into(),
            "h".into(),
            1_000,
        )
        .expect("a room");
        let mut game = Some(Game::new(&record).expect("a game"));
        for (ply, text) in ["11-15", "23-19"].into_iter().enumerate() {
            let mover = game.as_ref().expect("a game").to_move();
            play::play_move(&mut record, &mut game, mover, text, Some(ply), 2_000)
                .expect("a legal move");
        }
        assert_eq!(seat, 0);
        (
            Versioned {
                version: 3,
                value: record,
            },
            game.expect("a game"),
        )
    }

    fn facts<'a>(record: &'a Versioned<RoomRecord>, game: &'a Game) -> RoomFacts<'a> {
        RoomFacts {
            record,
            game,
            present: &[0],
            now: 3_000,
            takeover_ms: 45_000,
        }
    }

    #[test]
    fn the_room_view_is_the_session_view_with_what_is_true_in_a_room() {
        let (record, game) = two_moves_in();
        let facts = facts(&record, &game);
        let mut expected = game.view();
        expected.mode = "room".into();
        expected.human_seats = vec![0];
        expected.can_undo = false;
        expected.can_redo = false;
        expected.cpu_to_move = false;
        let rendered = facts.render(None).expect("rendered");
        let room: serde_json::Value = serde_json::from_str(rendered.room.get()).expect("JSON");
        // Byte for byte: the same fields in the same order.
        assert_eq!(
            serde_json::to_string(&room["view"]).expect("JSON"),
            serde_json::to_string(&expected).expect("JSON")
        );
        assert!(rendered.delta.is_none(), "no base, no delta");
        assert_eq!(rendered.mark.history_len, 2);
    }

    #[test]
    fn a_delta_is_the_whole_room_without_layout_and_older_history() {
        let (record, game) = two_moves_in();
        let facts = facts(&record, &game);
        let first = facts.render(None).expect("rendered");
        let base = DeltaBase::of(&super::super::snapshot::Snapshot {
            mark: Some(HistoryMark {
                history_len: 1,
                ..first.mark.clone()
            }),
            ..Default::default()
        });
        let rendered = facts.render(base.as_ref()).expect("rendered");
        let delta = rendered.delta.expect("a delta");
        assert_eq!(delta.history_from, 1);
        let mut whole: serde_json::Value = serde_json::from_str(rendered.room.get()).expect("JSON");
        let delta: serde_json::Value = serde_json::from_str(delta.room.get()).expect("JSON");
        assert_eq!(delta["history_from"], 1);
        assert!(delta["view"].get("layout").is_none());
        let history = whole["view"]["history"].as_array().expect("history");
        assert_eq!(history.len(), 2);
        assert_eq!(delta["view"]["history"], serde_json::json!(history[1..]));
        // Take out what the delta leaves out: the rest is the same room.
        let view = whole["view"].as_object_mut().expect("view");
        view.remove("layout");
        view["history"] = delta["view"]["history"].clone();
        whole["history_from"] = 1.into();
        assert_eq!(whole, delta);
    }
}
