//! Hub's position and move texts for International draughts (10×10, squares 1–50 in standard
//! order), and their translation to and from Damas's FEN and moves.
//!
//! - Position: the side to move (`W` or `B`) and one character per square 1–50: `w` `b` men,
//!   `W` `B` kings, `e` empty (`Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww` is the start).
//! - Move: `32-28` for a step; a capture is `from x to x captured x captured ...`, the captured
//!   squares in any order and the landings between left out (`28x19x23`).

use crate::describe::MoveInfo;
use thiserror::Error;

/// Squares of the International board.
pub const SQUARES: usize = 50;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("a position is 51 characters (side to move and 50 squares), found {0}")]
    Length(usize),
    #[error("the side to move must be W or B, found '{0}'")]
    SideToMove(char),
    #[error("square {square}: '{found}' is not w, b, W, B or e")]
    Square { square: usize, found: char },
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveTextError {
    #[error("'{0}' is not a Hub move (from-to, or from x to x captured ...)")]
    Syntax(String),
    #[error("'{0}': squares are numbered 1 to 50")]
    Square(String),
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
    #[error("'{0}' names several legal moves: list the captured pieces")]
    Ambiguous(String),
}

/// The FEN of a Hub position (`W:W31,K32:B1,...`), which Damas's games read.
pub fn fen_of_position(text: &str) -> Result<String, PositionError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != SQUARES + 1 {
        return Err(PositionError::Length(chars.len()));
    }
    let side = match chars[0] {
        'W' => 'W',
        'B' => 'B',
        other => return Err(PositionError::SideToMove(other)),
    };
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (index, &c) in chars[1..].iter().enumerate() {
        let square = index + 1;
        match c {
            'w' => white.push(square.to_string()),
            'W' => white.push(format!("K{square}")),
            'b' => black.push(square.to_string()),
            'B' => black.push(format!("K{square}")),
            'e' => {}
            found => return Err(PositionError::Square { square, found }),
        }
    }
    Ok(format!("{side}:W{}:B{}", white.join(","), black.join(",")))
}

/// A move as Hub writes it.
pub fn move_text(info: &MoveInfo) -> String {
    if info.captures.is_empty() {
        format!("{}-{}", info.from, info.to)
    } else {
        let mut parts = vec![info.from.as_str(), info.to.as_str()];
        parts.extend(info.captures.iter().map(String::as_str));
        parts.join("x")
    }
}

fn square_number(text: &str, whole: &str) -> Result<u32, MoveTextError> {
    let number: u32 = text
        .parse()
        .map_err(|_| MoveTextError::Syntax(whole.to_string()))?;
    if (1..=SQUARES as u32).contains(&number) {
        Ok(number)
    } else {
        Err(MoveTextError::Square(whole.to_string()))
    }
}

/// The legal move a Hub move names. A capture may leave out its captured pieces (`28x19`) when
/// only one legal capture goes from that square to that one.
pub fn find_move<'a>(legal: &'a [MoveInfo], text: &str) -> Result<&'a MoveInfo, MoveTextError> {
    let syntax = || MoveTextError::Syntax(text.to_string());
    let (separator, capture) = match (text.contains('-'), text.contains('x')) {
        (true, false) => ('-', false),
        (false, true) => ('x', true),
        _ => return Err(syntax()),
    };
    let squares = text
        .split(separator)
        .map(|part| square_number(part, text))
        .collect::<Result<Vec<u32>, _>>()?;
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return Err(syntax());
    }
    let mut captured: Vec<u32> = squares[2..].to_vec();
    captured.sort_unstable();
    if captured.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err(syntax());
    }
    let number = |square: &str| square.parse::<u32>().ok();
    let matches: Vec<&MoveInfo> = legal
        .iter()
        .filter(|info| {
            number(&info.from) == Some(squares[0])
                && number(&info.to) == Some(squares[1])
                && info.captures.is_empty() != capture
                && (captured.is_empty() || {
                    let mut theirs: Vec<Option<u32>> =
                        info.captures.iter().map(|square| number(square)).collect();
                    theirs.sort_unstable();
                    theirs
                        == captured
                            .iter()
                            .map(|&square| Some(square))
                            .collect::<Vec<_>>()
                })
        })
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(MoveTextError::Illegal(text.to_string())),
        _ => Err(MoveTextError::Ambiguous(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;
    use crate::position::{GameKind, Variant};

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    fn legal(fen: Option<&str>) -> Vec<MoveInfo> {
        catalogue::new_game(Variant::standard(GameKind::International), fen)
            .unwrap()
            .legal_moves()
    }

    #[test]
    fn positions_become_fens() {
        let men = |range: std::ops::RangeInclusive<u32>| {
            range.map(|s| s.to_string()).collect::<Vec<_>>().join(",")
        };
        assert_eq!(
            fen_of_position(START).unwrap(),
            format!("W:W{}:B{}", men(31..=50), men(1..=20))
        );
        // The protocol's own example: white kings on 4 and 5, men on 25, 35 and 36; black
        // kings on 38 and 48; black to move.
        assert_eq!(
            fen_of_position("BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee").unwrap(),
            "B:WK4,K5,25,35,36:BK38,K48"
        );
    }

    #[test]
    fn bad_positions_are_refused() {
        assert_eq!(fen_of_position("W"), Err(PositionError::Length(1)));
        assert_eq!(
            fen_of_position(&format!("{START}e")),
            Err(PositionError::Length(52))
        );
        assert_eq!(
            fen_of_position(&START.replacen('W', "X", 1)),
            Err(PositionError::SideToMove('X'))
        );
        let mut text = START.to_string();
        text.replace_range(3..4, "k");
        assert_eq!(
            fen_of_position(&text),
            Err(PositionError::Square {
                square: 3,
                found: 'k'
            })
        );
    }

    #[test]
    fn moves_are_found_and_written() {
        let start = legal(None);
        let step = find_move(&start, "32-28").unwrap();
        assert_eq!((step.from.as_str(), step.to.as_str()), ("32", "28"));
        assert_eq!(move_text(step), "32-28");
        assert_eq!(
            find_move(&start, "32-29"),
            Err(MoveTextError::Illegal("32-29".into()))
        );
        assert_eq!(
            find_move(&start, "32x28"),
            Err(MoveTextError::Illegal("32x28".into()))
        );
        // White man on 37 takes the four black men round a circle back to 37
        // (37x28x17x26x37 in Damas's notation, landings in order).
        let circle = legal(Some("W:W37:B32,22,31,21,3"));
        for text in ["37x37x21x22x31x32", "37x37x32x31x22x21", "37x37"] {
            let info = find_move(&circle, text).unwrap();
            assert_eq!(info.text, "37x28x17x26x37");
            assert_eq!(move_text(info), "37x37x21x22x31x32");
        }
        assert_eq!(
            find_move(&circle, "37x37x21x22x31"),
            Err(MoveTextError::Illegal("37x37x21x22x31".into()))
        );
    }

    #[test]
    fn malformed_moves_are_refused() {
        let start = legal(None);
        for text in [
            "",
            "32",
            "32-28-23",
            "32-28x23",
            "a-b",
            "32--28",
            "28x19x23x23",
        ] {
            assert_eq!(
                find_move(&start, text),
                Err(MoveTextError::Syntax(text.into())),
                "{text}"
            );
        }
        for text in ["0-5", "51-46", "32-99999999999"] {
            assert!(
                matches!(
                    find_move(&start, text),
                    Err(MoveTextError::Square(_) | MoveTextError::Syntax(_))
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn a_capture_without_its_pieces_must_be_unique() {
        // Two captures from 1 to 23 that take different pieces (hand-made, as a king's two
        // routes would be): the short form cannot choose, the full form can.
        let capture = |captures: [&str; 2]| MoveInfo {
            text: format!("1x{}x23", captures[0]),
            from: "1".into(),
            to: "23".into(),
            path: vec![],
            jumps: 2,
            captures: captures.iter().map(|s| s.to_string()).collect(),
            legs: vec![],
            pass: false,
        };
        let moves = [capture(["7", "18"]), capture(["12", "18"])];
        assert_eq!(
            find_move(&moves, "1x23"),
            Err(MoveTextError::Ambiguous("1x23".into()))
        );
        assert_eq!(
            find_move(&moves, "1x23x18x12").unwrap().captures,
            ["12", "18"]
        );
    }
}
