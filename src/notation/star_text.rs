//! The position text of the two star games, syntax only:
//!
//! ```text
//! diamond:3 R/rr/rrr/rrrr/4rrrrr4/… r 0 0
//! capture:6:long 1/2/3/4/13/o1oooooooooo/… 2 3,0,1,0,0,0
//! ```
//!
//! The first field names the game, its player count and (capture only) `:long` for the long jump.
//! The second is the board: the 17 rows F1 … F17 of the canonical view (seat 0's), separated by
//! `/`, each listed left to right; a letter is a piece, `.` one empty hole and a number that many
//! empty holes. What letters mean and what fields follow are up to each game.

use crate::geometry::holeset::Hole;
use crate::geometry::star::{star, View, HOLES, ROWS, ROW_LENGTHS};
use crate::position::{GameKind, SetupError, Variant};

pub mod error;

pub use error::StarTextError;

/// The header field of a variant: `diamond:3`, `capture:2`, `capture:6:long`.
pub fn write_header(variant: Variant) -> String {
    let long = if variant.long_jump { ":long" } else { "" };
    format!("{}:{}{long}", variant.kind.as_str(), variant.players)
}

/// Reads the header field into a validated variant.
pub fn parse_header(field: &str) -> Result<Variant, StarTextError> {
    let bad = || StarTextError::Header(field.to_string());
    let mut parts = field.split(':');
    let kind = GameKind::parse(parts.next().unwrap_or_default()).map_err(|_| bad())?;
    if !matches!(kind, GameKind::Diamond | GameKind::Capture) {
        return Err(bad());
    }
    let players: u8 = parts
        .next()
        .filter(|digits| digits.len() == 1)
        .and_then(|digits| digits.parse().ok())
        .ok_or_else(bad)?;
    let long_jump = match parts.next() {
        None => false,
        Some("long") => true,
        Some(_) => return Err(bad()),
    };
    if parts.next().is_some() {
        return Err(bad());
    }
    Variant::new(kind, Some(players), long_jump).map_err(|_| bad())
}

/// The variant a star position text is written for (lets a caller pick the game and player count
/// from the text alone).
pub fn variant_of(text: &str) -> Result<Variant, SetupError> {
    let header = text.split_whitespace().next().ok_or(StarTextError::Empty)?;
    Ok(parse_header(header)?)
}

/// The fields of a star position text after its header was checked against `variant`.
pub fn split_fields<'a>(
    variant: Variant,
    text: &'a str,
) -> Result<std::str::SplitWhitespace<'a>, StarTextError> {
    let mut fields = text.split_whitespace();
    let header = fields.next().ok_or(StarTextError::Empty)?;
    let found = parse_header(header)?;
    if found != variant {
        return Err(StarTextError::VariantMismatch {
            text: write_header(found),
            asked: write_header(variant),
        });
    }
    Ok(fields)
}

/// Reads a board field. `symbols` lists the piece letters; the result holds, per hole in canonical
/// order, 0 for empty or 1 + the letter's index in `symbols`.
pub fn parse_board(field: &str, symbols: &[u8]) -> Result<[u8; HOLES], StarTextError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != ROWS {
        return Err(StarTextError::RowCount(rows.len()));
    }
    let star = star();
    let mut cells = [0u8; HOLES];
    for (index, row_text) in rows.iter().enumerate() {
        let row = index + 1;
        let expected = usize::from(ROW_LENGTHS[index]);
        let mut pos = 0usize;
        let mut run = 0usize;
        let mut place = |pos: &mut usize, value: u8| -> Result<(), StarTextError> {
            *pos += 1;
            if *pos <= expected {
                // In range by the check above, so the table has the hole.
                if let Some(hole) = star.at(View::CANONICAL, row as u8, *pos as u8) {
                    cells[hole as usize] = value;
                }
            }
            Ok(())
        };
        for byte in row_text.bytes() {
            if byte.is_ascii_digit() {
                run = run * 10 + usize::from(byte - b'0');
                if run > expected {
                    return Err(StarTextError::RowLength {
                        row,
                        expected,
                        found: pos + run,
                    });
                }
                continue;
            }
            for _ in 0..std::mem::take(&mut run) {
                place(&mut pos, 0)?;
            }
            let value = if byte == b'.' {
                0
            } else {
                match symbols.iter().position(|&s| s == byte) {
                    Some(i) => i as u8 + 1,
                    None => {
                        return Err(StarTextError::Symbol {
                            row,
                            symbol: char::from(byte),
                        })
                    }
                }
            };
            place(&mut pos, value)?;
        }
        pos += run;
        if pos != expected {
            return Err(StarTextError::RowLength {
                row,
                expected,
                found: pos,
            });
        }
    }
    Ok(cells)
}

/// Writes a board field: `cell(hole)` is 0 for empty or 1 + the index of its letter in `symbols`.
pub fn write_board(symbols: &[u8], cell: impl Fn(Hole) -> u8) -> String {
    let star = star();
    let mut out = String::with_capacity(160);
    for (index, &len) in ROW_LENGTHS.iter().enumerate() {
        if index > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for pos in 1..=len {
            let value = star
                .at(View::CANONICAL, index as u8 + 1, pos)
                .map_or(0, &cell);
            if value == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(char::from(symbols[usize::from(value - 1)]));
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

/// Reads a numeric field.
pub fn parse_number<T: std::str::FromStr>(
    field: &'static str,
    value: Option<&str>,
) -> Result<T, StarTextError> {
    let value = value.ok_or(StarTextError::Missing(field))?;
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) || value.len() > 6 {
        return Err(StarTextError::Field {
            field,
            value: value.to_string(),
        });
    }
    value.parse().map_err(|_| StarTextError::Field {
        field,
        value: value.to_string(),
    })
}

/// Fails on any field left after the last one a game reads.
pub fn expect_end<'a>(mut fields: impl Iterator<Item = &'a str>) -> Result<(), StarTextError> {
    match fields.next() {
        Some(extra) => Err(StarTextError::Extra(extra.to_string())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_round_trip_and_errors() {
        let symbols = b"ab";
        let cells = parse_board("a/2/3/4/13/12/11/10/9/10/11/12/b.b10/4/3/2/1", symbols);
        let cells = match cells {
            Ok(cells) => cells,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(cells[0], 1);
        assert_eq!(cells.iter().filter(|&&c| c != 0).count(), 3);
        let text = write_board(symbols, |h| cells[h as usize]);
        assert_eq!(text, "a/2/3/4/13/12/11/10/9/10/11/12/b1b10/4/3/2/1");
        assert!(matches!(
            parse_board("a/2", symbols),
            Err(StarTextError::RowCount(2))
        ));
        assert!(matches!(
            parse_board("a/3/3/4/13/12/11/10/9/10/11/12/13/4/3/2/1", symbols),
            Err(StarTextError::RowLength { row: 2, .. })
        ));
        assert!(matches!(
            parse_board("c/2/3/4/13/12/11/10/9/10/11/12/13/4/3/2/1", symbols),
            Err(StarTextError::Symbol {
                row: 1,
                symbol: 'c'
            })
        ));
        assert!(parse_board(
            "1/2/3/4/99999999999999999999/12/11/10/9/10/11/12/13/4/3/2/1",
            symbols
        )
        .is_err());
    }

    #[test]
    fn headers() {
        assert_eq!(
            write_header(Variant::standard(GameKind::Diamond)),
            "diamond:3"
        );
        for header in ["diamond:2", "diamond:3", "capture:2", "capture:6:long"] {
            assert_eq!(
                parse_header(header).map(write_header).as_deref(),
                Ok(header)
            );
        }
        for bad in [
            "diamond",
            "diamond:4",
            "diamond:3:long",
            "english:2",
            "capture:7",
            "capture:2:x",
            "capture:2:long:1",
            "capture:02",
        ] {
            assert!(parse_header(bad).is_err(), "{bad}");
        }
    }
}
