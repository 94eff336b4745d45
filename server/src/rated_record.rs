//! The stored record of a rated game: the session's PDN (draughts) or record text (star games),
//! with the tags an outsider's reader expects of a played game — `Event`, `Site`, `Date`,
//! `Round`, the players' names on their seats' tags (`White`/`Black` in draughts; the star games'
//! seat colours) and the `Result` as the room ended it. The room's result is the authority: an
//! agreed draw or a flag fall is no rules' end, so the session alone would write `*`.

use crate::play;
use crate::store::RoomRecord;
use damas::session::pdn_date;

/// The `Site` of every rated game's record.
pub const SITE: &str = "Damas online";

/// What a rated game's record needs besides the room: who sat where, and when it ended.
pub struct RecordTags<'a> {
    /// The players' names by seat (display names of the accounts).
    pub names: [&'a str; 2],
    /// The game's kind as the pools name it (`english` …).
    pub kind: &'a str,
    /// Games played in the room before this one: the record's `Round` is this plus one.
    pub game_number: u32,
    pub finished_ms: u64,
}

/// The tag line value, escaped as PDN reads it.
fn tag_line(name: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]")
}

/// A seat's tag name: its colour capitalised (`White`, `Black`, `Red` …).
fn seat_tag(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `text` with each of `tags` set: an existing tag line of that name gets the value, a missing
/// one is added after the last tag line (the order of `tags` kept).
pub fn set_tags(text: &str, tags: &[(String, String)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let tag_count = lines
        .iter()
        .take_while(|line| line.starts_with('['))
        .count();
    let mut added = Vec::new();
    for (name, value) in tags {
        let prefix = format!("[{name} \"");
        match lines[..tag_count]
            .iter_mut()
            .find(|line| line.starts_with(&prefix))
        {
            Some(line) => *line = tag_line(name, value),
            None => added.push(tag_line(name, value)),
        }
    }
    lines.splice(tag_count..tag_count, added);
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// PDN's result tokens, which end the movetext.
const RESULT_TOKENS: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];

/// `text` with the result token that ends its movetext made `value` (as the `Result` tag).
fn set_termination(text: &str, value: &str) -> String {
    let body = text.trim_end();
    let last = body.rsplit([' ', '\n']).next().unwrap_or("");
    if !RESULT_TOKENS.contains(&last) {
        return text.to_owned();
    }
    format!("{}{value}\n", &body[..body.len() - last.len()])
}

/// A rated game's record and the tag naming each seat's player in it.
pub struct RatedRecord {
    /// Empty if the game does not replay.
    pub text: String,
    /// `White`, `Black` (draughts), the seats' colours (star games).
    pub name_tags: [String; 2],
}

/// The record of `room`'s game (it has ended) with the tags of a played rated game.
pub fn rated_record(room: &RoomRecord, tags: &RecordTags<'_>) -> RatedRecord {
    let Ok(session) = play::replay(room, None) else {
        return RatedRecord {
            text: String::new(),
            name_tags: ["White".into(), "Black".into()],
        };
    };
    let game = session.game();
    let name_tags = [0, 1].map(|seat| seat_tag(game.seat_name(seat)));
    let text = headed(&session, room, tags);
    RatedRecord { text, name_tags }
}

fn headed(session: &damas::session::Session, room: &RoomRecord, tags: &RecordTags<'_>) -> String {
    let text = session.export_text();
    let game = session.game();
    let mut set: Vec<(String, String)> = vec![
        ("Event".into(), format!("Damas rated game ({})", tags.kind)),
        ("Site".into(), SITE.into()),
        ("Date".into(), pdn_date(tags.finished_ms)),
        ("Round".into(), (tags.game_number + 1).to_string()),
    ];
    for (seat, name) in tags.names.iter().enumerate() {
        set.push((seat_tag(game.seat_name(seat as u8)), (*name).to_owned()));
    }
    let draughts = text.lines().any(|line| line.starts_with("[GameType "));
    if let Some(result) = &room.result {
        if draughts {
            let value = match result.winner {
                None => "1/2-1/2",
                Some(seat) if game.seat_name(seat) == "white" => "1-0",
                Some(_) => "0-1",
            };
            set.push(("Result".into(), value.into()));
            return set_termination(&set_tags(&text, &set), value);
        } else {
            let winner = result.winner.map_or("draw", |seat| game.seat_name(seat));
            set.push(("Winner".into(), winner.into()));
        }
    }
    set_tags(&text, &set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_movetext_ends_with_the_result() {
        let text = "[Result \"*\"]\n\n1. 11-15 23-19 *\n";
        assert_eq!(
            set_termination(text, "1/2-1/2"),
            "[Result \"*\"]\n\n1. 11-15 23-19 1/2-1/2\n"
        );
        assert_eq!(
            set_termination("[Result \"*\"]\n\n*\n", "0-1"),
            "[Result \"*\"]\n\n0-1\n"
        );
        // No result token: nothing to change.
        assert_eq!(set_termination("1. 11-15", "1-0"), "1. 11-15");
    }

    #[test]
    fn tags_are_replaced_in_place_and_missing_ones_added_after_the_others() {
        let text = "[Event \"Damas\"]\n[White \"?\"]\n[Result \"*\"]\n\n1. 11-15 *\n";
        let out = set_tags(
            text,
            &[
                ("White".into(), "Ana \"la\" \\ B".into()),
                ("Site".into(), SITE.into()),
                ("Result".into(), "1-0".into()),
            ],
        );
        assert_eq!(
            out,
            "[Event \"Damas\"]\n[White \"Ana \\\"la\\\" \\\\ B\"]\n[Result \"1-0\"]\n\
             [Site \"Damas online\"]\n\n1. 11-15 *\n"
        );
    }
}
