//! PDN 3.0 game text: tag pairs, numbered movetext and a result token.
//!
//! ```text
//! [GameType "21"]
//! [FEN "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"]
//! [Result "*"]
//! 1. 12-16 10x19 2. 16-19 *
//! ```
//!
//! Reading is two-stage: [`parse`] splits the text into tags, move texts and the result token
//! (syntax only, any game); [`read`] or [`read_record`] then replays the moves with the game's own
//! `parse_move`, so every game with a move notation gets PDN for free. Comments (`{…}`, `; …`),
//! variations (`(…)`), NAGs (`$1`) and move marks (`!`, `?`) are skipped. Results use the PDN
//! convention: `1-0` White won, `0-1` Black won, `1/2-1/2` a draw, `*` unfinished (the Dutch
//! `2-0`, `0-2`, `1-1` are read too).

use crate::describe::Describe;
use crate::position::{GameKind, GameResult, MoveError, SetupError, Variant};
use crate::record::{AnyGame, Record};
use thiserror::Error;

/// The PDN `GameType` number of each draughts game.
pub fn game_type(kind: GameKind) -> Option<u32> {
    match kind {
        GameKind::International => Some(20),
        GameKind::English => Some(21),
        GameKind::Turkish => Some(30),
        _ => None,
    }
}

fn kind_of_game_type(number: u32) -> Option<GameKind> {
    [
        GameKind::English,
        GameKind::International,
        GameKind::Turkish,
    ]
    .into_iter()
    .find(|&kind| game_type(kind) == Some(number))
}

/// What is wrong with PDN text that does not split into tags and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SyntaxProblem {
    #[error("text after the result token")]
    TextAfterResult,
    #[error("tag pair inside the movetext")]
    TagInMovetext,
    #[error("comment not closed by '}}'")]
    CommentNotClosed,
    #[error("variation not closed by ')'")]
    VariationNotClosed,
    #[error("unexpected '{0}'")]
    Unexpected(char),
    #[error("tag without a name")]
    TagWithoutName,
    #[error("tag value must be in double quotes")]
    TagValueNotQuoted,
    #[error("tag value not closed")]
    TagValueNotClosed,
    #[error("bad escape in tag value")]
    BadEscape,
    #[error("tag not closed by ']'")]
    TagNotClosed,
}

impl SyntaxProblem {
    /// A stable snake_case key (a UI words it in the player's language).
    pub fn code(self) -> &'static str {
        match self {
            SyntaxProblem::TextAfterResult => "text_after_result",
            SyntaxProblem::TagInMovetext => "tag_in_movetext",
            SyntaxProblem::CommentNotClosed => "comment_not_closed",
            SyntaxProblem::VariationNotClosed => "variation_not_closed",
            SyntaxProblem::Unexpected(_) => "unexpected",
            SyntaxProblem::TagWithoutName => "tag_without_name",
            SyntaxProblem::TagValueNotQuoted => "tag_value_not_quoted",
            SyntaxProblem::TagValueNotClosed => "tag_value_not_closed",
            SyntaxProblem::BadEscape => "bad_escape",
            SyntaxProblem::TagNotClosed => "tag_not_closed",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PdnError {
    #[error("PDN syntax error at character {at}: {problem}")]
    Syntax { at: usize, problem: SyntaxProblem },
    #[error("unsupported GameType '{0}' (expected 20, 21 or 30)")]
    GameType(String),
    #[error("PDN game type is {found} but a {expected} game was asked for")]
    WrongGame {
        expected: &'static str,
        found: String,
    },
    #[error("PDN start position: {0}")]
    Setup(#[from] SetupError),
    #[error("PDN move {ply} '{text}': {error}")]
    Move {
        /// 1-based ply in the movetext.
        ply: usize,
        text: String,
        error: MoveError,
    },
}

/// The result token of a PDN game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unfinished,
}

impl PdnResult {
    pub fn as_str(self) -> &'static str {
        match self {
            PdnResult::WhiteWins => "1-0",
            PdnResult::BlackWins => "0-1",
            PdnResult::Draw => "1/2-1/2",
            PdnResult::Unfinished => "*",
        }
    }

    fn parse(token: &str) -> Option<PdnResult> {
        match token {
            "1-0" | "2-0" => Some(PdnResult::WhiteWins),
            "0-1" | "0-2" => Some(PdnResult::BlackWins),
            "1/2-1/2" | "1-1" | "½-½" => Some(PdnResult::Draw),
            "*" => Some(PdnResult::Unfinished),
            _ => None,
        }
    }

    /// The token for a game's end, naming the winner by colour.
    fn of_game(game: &dyn AnyGame) -> PdnResult {
        match game.outcome().map(|outcome| outcome.result) {
            Some(GameResult::Draw) => PdnResult::Draw,
            Some(GameResult::Win(seat)) if game.seat_name(seat) == "white" => PdnResult::WhiteWins,
            Some(GameResult::Win(_)) => PdnResult::BlackWins,
            None => PdnResult::Unfinished,
        }
    }
}

/// A PDN game split into its parts, before any move is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnText {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// Where each move starts in the text (a character index), for messages naming its line.
    pub move_starts: Vec<usize>,
    pub result: PdnResult,
}

impl PdnText {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// The game named by the `GameType` tag (its first number), if there is one.
    pub fn game_kind(&self) -> Result<Option<GameKind>, PdnError> {
        let Some(value) = self.tag("GameType") else {
            return Ok(None);
        };
        let number = value.split(',').next().unwrap_or_default().trim();
        number
            .parse()
            .ok()
            .and_then(kind_of_game_type)
            .map(Some)
            .ok_or_else(|| PdnError::GameType(value.to_string()))
    }
}

/// A PDN game read and replayed, as the game type `G` its factory makes.
#[derive(Debug)]
pub struct PdnGame<G: AnyGame + ?Sized = dyn AnyGame> {
    pub tags: Vec<(String, String)>,
    pub game: Box<G>,
    pub result: PdnResult,
}

/// Reads one game; its `GameType` tag picks the game (`default` when the tag is missing, English
/// when both are), its `FEN` tag the start, and `new_game` (the catalogue's) builds it.
pub fn read<G: AnyGame + ?Sized>(
    text: &str,
    default: Option<GameKind>,
    new_game: impl Fn(Variant, Option<&str>) -> Result<Box<G>, SetupError>,
) -> Result<PdnGame<G>, PdnError> {
    let parsed = parse(text)?;
    let kind = parsed.game_kind()?.or(default).unwrap_or(GameKind::English);
    let mut game = new_game(Variant::standard(kind), parsed.tag("FEN"))?;
    for (index, text) in parsed.moves.iter().enumerate() {
        game.play(text).map_err(|error| PdnError::Move {
            ply: index + 1,
            text: text.clone(),
            error,
        })?;
    }
    Ok(PdnGame {
        tags: parsed.tags,
        game,
        result: parsed.result,
    })
}

/// Reads one game of a known game type into its typed record.
pub fn read_record<P: Describe>(
    variant: Variant,
    text: &str,
) -> Result<(PdnText, Record<P>), PdnError> {
    let parsed = parse(text)?;
    if let Some(kind) = parsed.game_kind()? {
        if kind != variant.kind {
            return Err(PdnError::WrongGame {
                expected: variant.kind.as_str(),
                found: kind.as_str().to_string(),
            });
        }
    }
    let start = match parsed.tag("FEN") {
        Some(fen) => P::from_text(variant, fen)?,
        None => P::start(variant)?,
    };
    let mut record = Record::new(start);
    for (index, text) in parsed.moves.iter().enumerate() {
        record.play_text(text).map_err(|error| PdnError::Move {
            ply: index + 1,
            text: text.clone(),
            error,
        })?;
    }
    Ok((parsed, record))
}

/// Writes a game as PDN. `tags` override or extend the defaults (seven-tag roster, `GameType`,
/// `SetUp`/`FEN` when the game did not start from the standard position); a `Result` tag given
/// here (a resignation, an agreed draw) also sets the closing token.
pub fn write(game: &dyn AnyGame, tags: &[(&str, &str)]) -> String {
    write_kept(game, &[], tags)
}

/// [`write`] for a game read from PDN whose tags are `kept`: they come first, in their order and
/// with their values (a default is added after them only when missing), so a game read and
/// written back keeps its header; `tags` still override them.
pub fn write_kept(game: &dyn AnyGame, kept: &[(String, String)], tags: &[(&str, &str)]) -> String {
    let variant = game.variant();
    let result = tags
        .iter()
        .find(|(name, _)| *name == "Result")
        .and_then(|(_, value)| PdnResult::parse(value))
        .unwrap_or_else(|| PdnResult::of_game(game));
    let mut defaults: Vec<(String, String)> = ["Event", "Site", "Date", "Round", "White", "Black"]
        .iter()
        .map(|name| (name.to_string(), "?".to_string()))
        .collect();
    defaults.push(("Result".into(), result.as_str().into()));
    if let Some(number) = game_type(variant.kind) {
        defaults.push(("GameType".into(), number.to_string()));
    }
    if !game.started_from_standard() {
        defaults.push(("SetUp".into(), "1".into()));
        defaults.push(("FEN".into(), game.start_text()));
    }
    let mut all: Vec<(String, String)> = kept.to_vec();
    for (name, value) in defaults {
        if !all.iter().any(|(tag, _)| *tag == name) {
            all.push((name, value));
        }
    }
    for (name, value) in tags {
        match all.iter_mut().find(|(tag, _)| tag == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => all.push((name.to_string(), value.to_string())),
        }
    }
    let mut out = String::new();
    for (name, value) in &all {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{escaped}\"]\n"));
    }
    out.push('\n');
    let mut line = String::new();
    let mut push = |word: String, out: &mut String| {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    };
    // Move numbers count rounds from seat 0, who moves first in every game: two plies a number
    // in draughts, one per seat in the star games.
    let first_seat = start_seat(game);
    let seats = game.seats().max(1);
    for (index, info) in game.history().iter().enumerate() {
        let seat = (usize::from(first_seat) + index) % seats;
        let number = (usize::from(first_seat) + index) / seats + 1;
        if seat == 0 {
            push(format!("{number}."), &mut out);
        } else if index == 0 {
            push(format!("{number}..."), &mut out);
        }
        push(info.text.clone(), &mut out);
    }
    push(result.as_str().to_string(), &mut out);
    out.push_str(&line);
    out.push('\n');
    out
}

/// The seat to move in the start position.
fn start_seat(game: &dyn AnyGame) -> u8 {
    let plies = game.ply();
    let now = usize::from(game.to_move());
    ((now + plies * (game.seats().max(1) - 1)) % game.seats().max(1)) as u8
}

/// Splits PDN text into tags, move texts and the result (the first game only; text after its
/// result token is an error).
pub fn parse(text: &str) -> Result<PdnText, PdnError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tags = Vec::new();
    let mut moves = Vec::new();
    let mut move_starts = Vec::new();
    let mut result = None;
    let mut at = 0;
    let mut in_movetext = false;
    let syntax = |at: usize, problem: SyntaxProblem| PdnError::Syntax { at, problem };
    while at < chars.len() {
        let c = chars[at];
        if c.is_whitespace() {
            at += 1;
            continue;
        }
        if result.is_some() {
            return Err(syntax(at, SyntaxProblem::TextAfterResult));
        }
        match c {
            '[' => {
                if in_movetext {
                    return Err(syntax(at, SyntaxProblem::TagInMovetext));
                }
                let (tag, next) = parse_tag(&chars, at)?;
                tags.push(tag);
                at = next;
            }
            '{' => {
                at = skip_until(&chars, at, '}')
                    .ok_or_else(|| syntax(at, SyntaxProblem::CommentNotClosed))?;
            }
            ';' => {
                at = skip_until(&chars, at, '\n').unwrap_or(chars.len());
            }
            '%' if at == 0 || chars[at - 1] == '\n' => {
                at = skip_until(&chars, at, '\n').unwrap_or(chars.len());
            }
            '(' => {
                let mut depth = 0usize;
                let start = at;
                loop {
                    match chars.get(at) {
                        None => return Err(syntax(start, SyntaxProblem::VariationNotClosed)),
                        Some('(') => depth += 1,
                        Some(')') => {
                            depth -= 1;
                            if depth == 0 {
                                at += 1;
                                break;
                            }
                        }
                        Some('{') => {
                            at = skip_until(&chars, at, '}')
                                .ok_or_else(|| syntax(at, SyntaxProblem::CommentNotClosed))?;
                            continue;
                        }
                        Some(_) => {}
                    }
                    at += 1;
                }
            }
            ')' | ']' | '}' | '"' => return Err(syntax(at, SyntaxProblem::Unexpected(c))),
            _ => {
                in_movetext = true;
                let start = at;
                while at < chars.len()
                    && !chars[at].is_whitespace()
                    && !matches!(chars[at], '{' | '(' | ';' | '[' | ')' | ']' | '}' | '"')
                {
                    at += 1;
                }
                let token: String = chars[start..at].iter().collect();
                if let Some(found) = PdnResult::parse(&token) {
                    result = Some(found);
                    continue;
                }
                if token.starts_with('$') {
                    continue;
                }
                // A move number, possibly glued to its move: `12.`, `12...`, `12.11-15`.
                let digits = token.chars().take_while(char::is_ascii_digit).count();
                let rest = &token[digits..];
                let mv = if digits > 0 && rest.starts_with('.') {
                    rest.trim_start_matches('.')
                } else {
                    token.as_str()
                };
                let mv = mv.trim_end_matches(['!', '?']);
                if !mv.is_empty() {
                    moves.push(mv.to_string());
                    move_starts.push(start);
                }
            }
        }
    }
    Ok(PdnText {
        tags,
        moves,
        move_starts,
        result: result.unwrap_or(PdnResult::Unfinished),
    })
}

/// The 1-based line of character `at` of `text` (a syntax error's or a move's place).
pub fn line_of(text: &str, at: usize) -> usize {
    1 + text.chars().take(at).filter(|&c| c == '\n').count()
}

/// The index just after the next `end` from `at`, if any.
fn skip_until(chars: &[char], at: usize, end: char) -> Option<usize> {
    chars[at + 1..]
        .iter()
        .position(|&c| c == end)
        .map(|offset| at + 1 + offset + 1)
}

/// Reads `[Name "value"]` starting at `at` (the `[`); returns the pair and the index after `]`.
fn parse_tag(chars: &[char], mut at: usize) -> Result<((String, String), usize), PdnError> {
    let start = at;
    let error = |problem: SyntaxProblem| PdnError::Syntax { at: start, problem };
    at += 1;
    let name_start = at;
    while at < chars.len() && (chars[at].is_alphanumeric() || chars[at] == '_') {
        at += 1;
    }
    let name: String = chars[name_start..at].iter().collect();
    if name.is_empty() {
        return Err(error(SyntaxProblem::TagWithoutName));
    }
    while at < chars.len() && chars[at].is_whitespace() {
        at += 1;
    }
    if chars.get(at) != Some(&'"') {
        return Err(error(SyntaxProblem::TagValueNotQuoted));
    }
    at += 1;
    let mut value = String::new();
    loop {
        match chars.get(at) {
            None | Some('\n') => return Err(error(SyntaxProblem::TagValueNotClosed)),
            Some('\\') => {
                match chars.get(at + 1) {
                    Some(&escaped @ ('"' | '\\')) => value.push(escaped),
                    _ => return Err(error(SyntaxProblem::BadEscape)),
                }
                at += 2;
            }
            Some('"') => {
                at += 1;
                break;
            }
            Some(&c) => {
                value.push(c);
                at += 1;
            }
        }
    }
    while at < chars.len() && chars[at].is_whitespace() && chars[at] != '\n' {
        at += 1;
    }
    if chars.get(at) != Some(&']') {
        return Err(error(SyntaxProblem::TagNotClosed));
    }
    Ok(((name, value), at + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_tags_moves_comments_and_result() {
        let text = "[Event \"Test \\\"cup\\\"\"]\n[GameType \"21\"]\n\n1. 11-15 {book} 23-19 \
                    2. 8-11! (2. 9-13 22-18) 22-17 $3 ; rest\n3.9-13 1-0\n";
        let parsed = parse(text).unwrap();
        assert_eq!(parsed.tag("Event"), Some("Test \"cup\""));
        assert_eq!(parsed.moves, ["11-15", "23-19", "8-11", "22-17", "9-13"]);
        assert_eq!(parsed.result, PdnResult::WhiteWins);
        assert_eq!(parsed.game_kind(), Ok(Some(GameKind::English)));
        let lines: Vec<usize> = parsed
            .move_starts
            .iter()
            .map(|&at| line_of(text, at))
            .collect();
        assert_eq!(lines, [4, 4, 4, 4, 5]);
    }

    #[test]
    fn rejects_broken_text() {
        for bad in [
            "[Event \"x\"",
            "[Event x]",
            "{open",
            "(1. 11-15",
            "1. 11-15 * 2. 9-13",
            "1. 11-15 [Event \"late\"]",
            "]",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
