//! The draughts FEN of PDN 3.0, syntax only: `W:W31,32,K33:B1-4,K12`.
//!
//! The side to move, then one list per colour of square tokens, each optionally prefixed with `K`
//! for a king. Numeric ranges `a-b` are expanded on input. What a token names is decided by the
//! game (numeric squares 1–32 or 1–50, algebraic `a1`–`h8`), so tokens stay strings here.
//! Both piece lists must be present (a list may be empty: `W:W:BK10`); an empty field (`B::`) or
//! an empty token (`W,,`, a trailing comma) is malformed, never read as "no pieces".

use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenColor {
    White,
    Black,
}

/// One piece as written: its square token and whether it is a king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenPiece {
    pub square: String,
    pub king: bool,
    pub color: FenColor,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenFields {
    pub to_move: FenColor,
    pub pieces: Vec<FenPiece>,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("side to move must be W or B, found '{0}'")]
    SideToMove(String),
    #[error("piece list must start with W or B, found '{0}'")]
    ListColor(String),
    #[error("the {0} piece list appears twice")]
    DuplicateList(&'static str),
    #[error("bad square token '{0}'")]
    Token(String),
    #[error("bad range '{0}'")]
    Range(String),
    #[error("too many fields")]
    TooManyFields,
    #[error("empty field: each ':' must be followed by a W or B piece list")]
    EmptyField,
    #[error("empty square token in the {0} piece list")]
    EmptyToken(&'static str),
    #[error("the {0} piece list is missing")]
    MissingList(&'static str),
}

fn color_name(color: FenColor) -> &'static str {
    match color {
        FenColor::White => "white",
        FenColor::Black => "black",
    }
}

/// Largest range we expand: the biggest board has 64 squares.
const MAX_RANGE: u32 = 64;

/// Splits a FEN into side to move and pieces. Whitespace is ignored, a trailing `.` is allowed,
/// and `[FEN "…"]` tag wrappers are accepted.
pub fn parse(text: &str) -> Result<FenFields, FenError> {
    let mut text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(inner) = text
        .strip_prefix("[FEN\"")
        .and_then(|rest| rest.strip_suffix("\"]"))
    {
        text = inner.to_string();
    }
    let text = text.trim_matches('"').trim_end_matches('.');
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = text.split(':');
    let to_move = match fields.next().unwrap_or_default() {
        "W" | "w" => FenColor::White,
        "B" | "b" => FenColor::Black,
        other => return Err(FenError::SideToMove(other.to_string())),
    };
    let mut pieces = Vec::new();
    let mut seen_white = false;
    let mut seen_black = false;
    for field in fields {
        if field.is_empty() {
            return Err(FenError::EmptyField);
        }
        // `split_at_checked`: a multi-byte first character is an error, not a panic.
        let (color, list) = match field.split_at_checked(1) {
            Some(("W" | "w", rest)) => (FenColor::White, rest),
            Some(("B" | "b", rest)) => (FenColor::Black, rest),
            _ => return Err(FenError::ListColor(field.to_string())),
        };
        let seen = match color {
            FenColor::White => &mut seen_white,
            FenColor::Black => &mut seen_black,
        };
        if *seen {
            return Err(FenError::DuplicateList(color_name(color)));
        }
        *seen = true;
        // An empty list is "no pieces"; inside a list every token names a square.
        let tokens = (!list.is_empty()).then(|| list.split(','));
        for token in tokens.into_iter().flatten() {
            if token.is_empty() {
                return Err(FenError::EmptyToken(color_name(color)));
            }
            let (king, square) = match token.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, token),
            };
            if square.is_empty()
                || !square
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                return Err(FenError::Token(token.to_string()));
            }
            match square.split_once('-') {
                Some((low, high)) => {
                    let (low, high) = match (low.parse::<u32>(), high.parse::<u32>()) {
                        (Ok(low), Ok(high)) if low <= high && high <= MAX_RANGE => (low, high),
                        _ => return Err(FenError::Range(token.to_string())),
                    };
                    pieces.extend((low..=high).map(|n| FenPiece {
                        square: n.to_string(),
                        king,
                        color,
                    }));
                }
                None => pieces.push(FenPiece {
                    square: square.to_string(),
                    king,
                    color,
                }),
            }
        }
    }
    for (seen, color) in [(seen_white, FenColor::White), (seen_black, FenColor::Black)] {
        if !seen {
            return Err(FenError::MissingList(color_name(color)));
        }
    }
    Ok(FenFields { to_move, pieces })
}

/// Writes a FEN from pieces already in the game's square order.
pub fn write(to_move: FenColor, pieces: &[FenPiece]) -> String {
    let side = |color: FenColor| match color {
        FenColor::White => 'W',
        FenColor::Black => 'B',
    };
    let list = |color: FenColor| {
        pieces
            .iter()
            .filter(|p| p.color == color)
            .map(|p| format!("{}{}", if p.king { "K" } else { "" }, p.square))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}:W{}:B{}",
        side(to_move),
        list(FenColor::White),
        list(FenColor::Black)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ranges_kings_and_side() {
        let fields = parse("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        assert_eq!(fields.to_move, FenColor::Black);
        assert_eq!(fields.pieces.len(), 12);
        assert!(fields.pieces[4].king && fields.pieces[4].square == "10");
        let ranged = parse("W:W31-32:B1-3").unwrap();
        let squares: Vec<_> = ranged.pieces.iter().map(|p| p.square.as_str()).collect();
        assert_eq!(squares, ["31", "32", "1", "2", "3"]);
    }

    #[test]
    fn round_trips_through_write() {
        let text = "W:W21,22,K31:BK1,5";
        let fields = parse(text).unwrap();
        assert_eq!(write(fields.to_move, &fields.pieces), text);
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in [
            "", "X:W1", "W:X1", "W:W1:W2", "W:W5-2", "W:W1-999", "W:W1,K", "W:W1;2", "W:é1",
        ] {
            assert!(parse(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn empty_fields_tokens_and_missing_lists_are_errors() {
        assert_eq!(parse("B::"), Err(FenError::EmptyField));
        assert_eq!(parse("W:W1::B2"), Err(FenError::EmptyField));
        assert_eq!(parse("W:W1:B2:"), Err(FenError::EmptyField));
        assert_eq!(parse("B:W,,:B1"), Err(FenError::EmptyToken("white")));
        assert_eq!(parse("W:W1,:B2"), Err(FenError::EmptyToken("white")));
        assert_eq!(parse("W:W1:B,2"), Err(FenError::EmptyToken("black")));
        assert_eq!(parse("B"), Err(FenError::MissingList("white")));
        assert_eq!(parse("W:W1"), Err(FenError::MissingList("black")));
        // An empty list is a side with no pieces, which is well formed.
        assert_eq!(parse("W:W:BK10").map(|f| f.pieces.len()), Ok(1));
    }
}
