//! The position notation, and the board literals of the KGP tournament protocol.
//!
//! A position is written `SOUTH_HOUSES:SOUTH_STORE/NORTH_HOUSES:NORTH_STORE/SIDE`: each side's houses
//! from its own house 1 (the one farthest from its store) to house m, separated by commas, then its
//! store, then `S` or `N` for the player to move. Read this way the numbers follow the board
//! counter-clockwise from South's house 1. The Kalah(6,4) start is
//! `4,4,4,4,4,4:0/4,4,4,4,4,4:0/S`. Under clockwise sowing a fourth field may give the number of
//! sowings since a seed last reached a store (`…/S/12`); it is written only when it is not 0.
//!
//! A KGP board `<m,south_store,north_store,south_1,…,south_m,north_1,…,north_m>` reads as a position
//! with South to move (KGP always shows the board from the side of the player to move).

use std::fmt;
use std::str::FromStr;

use crate::error::PositionError;
use crate::position::Position;
use crate::rules::{Rules, MAX_HOUSES, MAX_TOTAL_SEEDS};
use crate::side::{ByPlayer, Side};

impl fmt::Display for Position {
    /// Writes the position notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in Side::BOTH {
            for (i, seeds) in self.row(side).iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{seeds}")?;
            }
            write!(f, ":{}/", self.store(side))?;
        }
        write!(f, "{}", self.mover().letter())?;
        if self.quiet() > 0 {
            write!(f, "/{}", self.quiet())?;
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// Reads the position notation or a KGP board literal; see the module documentation.
    fn from_str(text: &str) -> Result<Position, PositionError> {
        let trimmed = text.trim();
        let syntax = |why: &str| PositionError::Syntax { text: text.to_string(), why: why.to_string() };
        if trimmed.starts_with('<') {
            return parse_kgp(trimmed, MAX_TOTAL_SEEDS).map_err(|why| syntax(&why));
        }
        // Accept a space before the side as well as a slash, as people type it both ways.
        let normal = trimmed.replace(' ', "/");
        let fields: Vec<&str> = normal.split('/').filter(|f| !f.is_empty()).collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(syntax("expected three fields separated by '/': South, North, side to move"));
        }
        let south = parse_side(fields[0], "South").map_err(|why| syntax(&why))?;
        let north = parse_side(fields[1], "North").map_err(|why| syntax(&why))?;
        let mover = match fields[2] {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            other => return Err(syntax(&format!("the side to move is {other:?}, not S or N"))),
        };
        let quiet = match fields.get(3) {
            None => 0,
            Some(q) => q
                .parse::<u8>()
                .map_err(|_| syntax(&format!("the no-progress count {q:?} is not a number from 0 to 255")))?,
        };
        build(south, north, mover, quiet)
    }
}

type SideParts = (Vec<u16>, u16);

fn parse_side(field: &str, name: &str) -> Result<SideParts, String> {
    let (houses, store) =
        field.split_once(':').ok_or_else(|| format!("{name}'s part {field:?} has no ':' before its store"))?;
    let store = parse_count(store, &format!("{name}'s store"))?;
    let houses = houses
        .split(',')
        .enumerate()
        .map(|(i, h)| parse_count(h, &format!("{name}'s house {}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((houses, store))
}

fn parse_count(text: &str, what: &str) -> Result<u16, String> {
    parse_count_up_to(text, what, MAX_TOTAL_SEEDS)
}

fn parse_count_up_to(text: &str, what: &str, limit: u16) -> Result<u16, String> {
    text.trim()
        .parse::<u16>()
        .ok()
        .filter(|&n| n <= limit)
        .ok_or_else(|| format!("{what} is {text:?}, not a number of seeds from 0 to {limit}"))
}

/// The most seeds a board read by [`Position::parse_kgp_any_total`] may hold: far more than any
/// verification problem of the KGP reference server (at most 548), and small enough that no cell
/// or sum of a position can overflow.
pub const MAX_SOWABLE_SEEDS: u16 = 4096;

fn parse_kgp(text: &str, limit: u16) -> Result<Position, String> {
    let inner = text
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(|| "a KGP board starts with '<' and ends with '>'".to_string())?;
    let numbers = inner
        .split(',')
        .enumerate()
        .map(|(i, n)| parse_count_up_to(n, &format!("KGP field {}", i + 1), limit))
        .collect::<Result<Vec<_>, _>>()?;
    let m = *numbers.first().ok_or("a KGP board is empty")? as usize;
    if !(1..=MAX_HOUSES as usize).contains(&m) {
        return Err(format!("a KGP board with {m} houses: m must be 1 to {MAX_HOUSES}"));
    }
    if numbers.len() != 3 + 2 * m {
        return Err(format!("a KGP board of {m} houses has {} numbers, not {}", 3 + 2 * m, numbers.len()));
    }
    let total: u32 = numbers[1..].iter().map(|&n| u32::from(n)).sum();
    if total > u32::from(limit) {
        return Err(format!("the board holds {total} seeds; at most {limit} are allowed"));
    }
    let south = (numbers[3..3 + m].to_vec(), numbers[1]);
    let north = (numbers[3 + m..].to_vec(), numbers[2]);
    build_up_to(south, north, Side::South, 0, limit).map_err(|e| e.to_string())
}

fn build(south: SideParts, north: SideParts, mover: Side, quiet: u8) -> Result<Position, PositionError> {
    build_up_to(south, north, mover, quiet, MAX_TOTAL_SEEDS)
}

fn build_up_to(
    south: SideParts,
    north: SideParts,
    mover: Side,
    quiet: u8,
    limit: u16,
) -> Result<Position, PositionError> {
    if south.0.len() != north.0.len() {
        return Err(PositionError::Uneven { south: south.0.len(), north: north.0.len() });
    }
    let m = south.0.len();
    if m > MAX_HOUSES as usize {
        return Err(PositionError::Houses { found: m, expected: format!("at most {MAX_HOUSES} are allowed") });
    }
    let total: u32 =
        south.0.iter().chain(&north.0).map(|&n| u32::from(n)).sum::<u32>() + u32::from(south.1) + u32::from(north.1);
    if total > u32::from(limit) {
        return Err(PositionError::TooManySeeds(total));
    }
    Ok(Position::from_parts(
        ByPlayer { south: &south.0, north: &north.0 },
        ByPlayer { south: south.1, north: north.1 },
        mover,
        quiet,
    ))
}

impl Position {
    /// Reads a position (notation or KGP board) and checks that it fits `rules`' board.
    ///
    /// The seed total is not required to be 2mn: problems and endgames may hold fewer seeds.
    ///
    /// ```
    /// use kalah_rules::{Position, Rules, Side};
    /// let rules = Rules::standard(6, 4).unwrap();
    /// let p = Position::parse("4,4,4,4,4,4:0/4,4,4,4,4,4:0/S", &rules).unwrap();
    /// assert_eq!(p, Position::start(&rules));
    /// let k = Position::parse("<6,1,0,4,4,0,5,5,5,4,4,4,4,4,4>", &rules).unwrap();
    /// assert_eq!(k.to_string(), "4,4,0,5,5,5:1/4,4,4,4,4,4:0/S");
    /// assert!(Position::parse("4,4,4:0/4,4,4:0/S", &rules).is_err());
    /// ```
    pub fn parse(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        let position: Position = text.parse()?;
        if position.houses() != rules.houses() {
            return Err(PositionError::Houses {
                found: position.houses().into(),
                expected: format!(
                    "the rules are for Kalah({},{}) with {} houses",
                    rules.houses(),
                    rules.seeds(),
                    rules.houses()
                ),
            });
        }
        Ok(position)
    }

    /// Reads a KGP board literal (South to move) whose seed total may exceed [`MAX_TOTAL_SEEDS`], up
    /// to [`MAX_SOWABLE_SEEDS`].
    ///
    /// The KGP reference server's verification problems are random boards of up to 548 seeds. Such a
    /// position can be sown ([`Position::sow`]) and written, but the searches, evaluation and
    /// databases assume at most [`MAX_TOTAL_SEEDS`]: use [`Position::parse`] for positions to search.
    ///
    /// ```
    /// use kalah_rules::Position;
    /// let big = Position::parse_kgp_any_total("<2,100,100,50,50,50,50>").unwrap();
    /// assert_eq!(big.total_seeds(), 400);
    /// assert!("<2,100,100,50,50,50,50>".parse::<Position>().is_err());
    /// ```
    pub fn parse_kgp_any_total(text: &str) -> Result<Position, PositionError> {
        let trimmed = text.trim();
        parse_kgp(trimmed, MAX_SOWABLE_SEEDS)
            .map_err(|why| PositionError::Syntax { text: text.to_string(), why: why.to_string() })
    }

    /// Writes the position as a KGP board literal, seen from the player to move (who becomes South).
    pub fn to_kgp(&self) -> String {
        let me = self.mover();
        let mut parts = vec![self.houses().to_string(), self.store(me).to_string(), self.store(!me).to_string()];
        parts.extend(self.row(me).iter().chain(self.row(!me)).map(u16::to_string));
        format!("<{}>", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["4,4,4,4,4,4:0/4,4,4,4,4,4:0/S", "0:3/1:0/N", "1,0,12:3/0,0,0:9/N/7"] {
            assert_eq!(text.parse::<Position>().unwrap().to_string(), text);
        }
        assert_eq!("1,2:0/3,4:0 n".parse::<Position>().unwrap().to_string(), "1,2:0/3,4:0/N");
    }

    #[test]
    fn kgp_round_trips_from_the_movers_view() {
        let p: Position = "1,2,3:4/5,6,7:8/S".parse().unwrap();
        assert_eq!(p.to_kgp(), "<3,4,8,1,2,3,5,6,7>");
        assert_eq!(p.to_kgp().parse::<Position>().unwrap(), p);
        let north = p.with_mover(Side::North);
        assert_eq!(north.to_kgp(), "<3,8,4,5,6,7,1,2,3>");
    }

    #[test]
    fn kgp_boards_of_any_total_up_to_the_sowable_limit() {
        let big = Position::parse_kgp_any_total("<3,40,50,100,100,0,100,100,100>").unwrap();
        assert_eq!((big.total_seeds(), big.store(Side::North), big.house(Side::South, 1)), (590, 50, 100));
        assert_eq!(big.to_kgp(), "<3,40,50,100,100,0,100,100,100>");
        let err = Position::parse_kgp_any_total("<1,4000,4000,1,1>").unwrap_err().to_string();
        assert!(err.contains("8002 seeds; at most 4096"), "{err}");
        assert!(Position::parse_kgp_any_total("4,4:0/4,4:0/S").is_err());
    }

    #[test]
    fn malformed_positions_say_what_is_wrong() {
        for bad in [
            "",
            "4,4:0/4,4:0",
            "4,4:0/4,4:0/X",
            "4,4/4,4:0/S",
            "4,x:0/4,4:0/S",
            "4,4:0/4,4,4:0/S",
            "4,4:0/4,4:0/S/-1",
            "<2,0,0,1,1,1>",
            "<0,0,0>",
            "<2,0,0,1,1,1,1",
            "1,1,1,1,1,1,1,1,1,1,1,1,1:0/1,1,1,1,1,1,1,1,1,1,1,1,1:0/S",
            "200,200:0/0,0:0/S",
        ] {
            let err = bad.parse::<Position>().expect_err(bad).to_string();
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }
}
