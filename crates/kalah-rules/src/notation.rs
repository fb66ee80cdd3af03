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
//!
//! Both read into a [`Setup`] (`text.parse::<Setup>()`), which [`Position::from_setup`] checks;
//! [`Position::parse`] does both.

use std::fmt;
use std::str::FromStr;

use crate::error::{Cell, NotationError, PositionError};
use crate::position::Position;
use crate::rules::{Rules, MAX_HOUSES, MAX_TOTAL_SEEDS, MIN_HOUSES};
use crate::setup::Setup;
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

impl FromStr for Setup {
    type Err = PositionError;

    /// Reads the position notation or a KGP board literal (see the module documentation) without
    /// checking the board: [`Position::from_setup`] does that.
    fn from_str(text: &str) -> Result<Setup, PositionError> {
        let syntax = |problem| PositionError::Syntax { text: text.to_string(), problem };
        let trimmed = text.trim();
        if trimmed.starts_with('<') {
            return parse_kgp(trimmed).map_err(syntax);
        }
        parse_notation(trimmed).map_err(syntax)
    }
}

fn parse_notation(text: &str) -> Result<Setup, NotationError> {
    // Accept a space before the side as well as a slash, as people type it both ways.
    let normal = text.replace(' ', "/");
    let fields: Vec<&str> = normal.split('/').filter(|f| !f.is_empty()).collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(NotationError::Fields { found: fields.len() });
    }
    let (south, south_store) = parse_side(fields[0], Side::South)?;
    let (north, north_store) = parse_side(fields[1], Side::North)?;
    let mover = match fields[2] {
        "S" | "s" => Side::South,
        "N" | "n" => Side::North,
        other => return Err(NotationError::SideToMove(other.to_string())),
    };
    let quiet = match fields.get(3) {
        None => 0,
        Some(q) => q.parse::<u8>().map_err(|_| NotationError::NoProgress(q.to_string()))?,
    };
    Ok(Setup {
        houses: ByPlayer { south, north },
        stores: ByPlayer { south: south_store, north: north_store },
        mover,
        quiet,
    })
}

fn parse_side(field: &str, side: Side) -> Result<(Vec<u16>, u16), NotationError> {
    let (houses, store) =
        field.split_once(':').ok_or_else(|| NotationError::NoStore { side, field: field.to_string() })?;
    let store = parse_count(store, Cell::Store(side))?;
    let houses = houses
        .split(',')
        .enumerate()
        .map(|(i, h)| parse_count(h, Cell::House { side, number: i + 1 }))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((houses, store))
}

fn parse_count(text: &str, cell: Cell) -> Result<u16, NotationError> {
    text.trim().parse::<u16>().map_err(|_| NotationError::Count { cell, text: text.to_string() })
}

/// The most seeds a board read by [`Position::parse_kgp_any_total`] may hold: far more than any
/// verification problem of the KGP reference server (at most 548), and small enough that no cell
/// or sum of a position can overflow.
pub const MAX_SOWABLE_SEEDS: u16 = 4096;

fn parse_kgp(text: &str) -> Result<Setup, NotationError> {
    let inner = text.strip_prefix('<').and_then(|t| t.strip_suffix('>')).ok_or(NotationError::KgpBrackets)?;
    let mut fields = inner.split(',');
    let first = fields.next().unwrap_or_default();
    let m = first
        .trim()
        .parse::<u8>()
        .ok()
        .filter(|m| (MIN_HOUSES..=MAX_HOUSES).contains(m))
        .ok_or_else(|| NotationError::KgpHouses(first.to_string()))?;
    let numbers =
        fields.enumerate().map(|(i, n)| parse_count(n, Cell::KgpField(i + 2))).collect::<Result<Vec<_>, _>>()?;
    let m_usize = usize::from(m);
    if numbers.len() != 2 + 2 * m_usize {
        return Err(NotationError::KgpLength { houses: m, expected: 3 + 2 * m_usize, found: 1 + numbers.len() });
    }
    Ok(Setup {
        houses: ByPlayer { south: numbers[2..2 + m_usize].to_vec(), north: numbers[2 + m_usize..].to_vec() },
        stores: ByPlayer { south: numbers[0], north: numbers[1] },
        // KGP shows the board from the side of the player to move.
        mover: Side::South,
        quiet: 0,
    })
}

impl FromStr for Position {
    type Err = PositionError;

    /// Reads the position notation or a KGP board literal; see the module documentation.
    ///
    /// The board is checked for its shape and for at most [`MAX_TOTAL_SEEDS`] seeds, not against
    /// any rules: [`Position::parse`] does that too.
    fn from_str(text: &str) -> Result<Position, PositionError> {
        text.parse::<Setup>()?.check(MAX_TOTAL_SEEDS)
    }
}

impl Position {
    /// Reads a position (notation or KGP board) and checks it against `rules` with
    /// [`Position::from_setup`].
    ///
    /// ```
    /// use kalah_rules::{Position, PositionError, Rules, Side};
    /// let rules = Rules::standard(6, 4).unwrap();
    /// let p = Position::parse("4,4,4,4,4,4:0/4,4,4,4,4,4:0/S", &rules).unwrap();
    /// assert_eq!(p, Position::start(&rules));
    /// let k = Position::parse("<6,1,0,4,4,0,5,5,5,4,4,4,4,4,4>", &rules).unwrap();
    /// assert_eq!(k.to_string(), "4,4,0,5,5,5:1/4,4,4,4,4,4:0/S");
    /// assert_eq!(
    ///     Position::parse("4,4,4:0/4,4,4:0/S", &rules),
    ///     Err(PositionError::WrongSize { found: 3, houses: 6, seeds: 4 })
    /// );
    /// ```
    pub fn parse(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        Position::from_setup(text.parse()?, rules)
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
        let syntax = |problem| PositionError::Syntax { text: text.to_string(), problem };
        let trimmed = text.trim();
        if !trimmed.starts_with('<') {
            return Err(syntax(NotationError::KgpBrackets));
        }
        Position::from_setup_any_total(parse_kgp(trimmed).map_err(syntax)?)
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
        use NotationError::*;
        let south = |number| Cell::House { side: Side::South, number };
        let syntax = [
            ("", Fields { found: 0 }),
            ("4,4:0/4,4:0", Fields { found: 2 }),
            ("4,4:0/4,4:0/X", SideToMove("X".into())),
            ("4,4/4,4:0/S", NoStore { side: Side::South, field: "4,4".into() }),
            ("4,x:0/4,4:0/S", Count { cell: south(2), text: "x".into() }),
            ("4,4:y/4,4:0/S", Count { cell: Cell::Store(Side::South), text: "y".into() }),
            ("4,4:0/4,4:0/S/-1", NoProgress("-1".into())),
            ("<2,0,0,1,1,1>", KgpLength { houses: 2, expected: 7, found: 6 }),
            ("<0,0,0>", KgpHouses("0".into())),
            ("<2,0,0,1,1,1,1", KgpBrackets),
            ("<2,0,0,1,z,1,1>", Count { cell: Cell::KgpField(5), text: "z".into() }),
        ];
        for (bad, problem) in syntax {
            let err = bad.parse::<Position>().expect_err(bad);
            assert_eq!(err, PositionError::Syntax { text: bad.into(), problem }, "{bad}");
            assert!(!err.to_string().contains('\n'), "one line: {err}");
        }
        let board = [
            ("4,4:0/4,4,4:0/S", PositionError::Uneven { south: 2, north: 3 }),
            ("1,1,1,1,1,1,1,1,1,1,1,1,1:0/1,1,1,1,1,1,1,1,1,1,1,1,1:0/S", PositionError::HouseCount { found: 13 }),
            ("200,200:0/0,0:0/S", PositionError::TooManySeeds { total: 400, limit: MAX_TOTAL_SEEDS }),
        ];
        for (bad, expected) in board {
            assert_eq!(bad.parse::<Position>(), Err(expected), "{bad}");
        }
    }

    #[test]
    fn the_texts_people_see_stay_as_they_were() {
        let err = "4,x:0/4,4:0/S".parse::<Position>().unwrap_err().to_string();
        assert!(
            err.starts_with("cannot read position \"4,x:0/4,4:0/S\": South's house 2 is \"x\", not a number"),
            "{err}"
        );
        assert!(err.ends_with("or a KGP board <m,s_store,n_store,s_1..s_m,n_1..n_m>"), "{err}");
        let rules = Rules::standard(6, 4).unwrap();
        let err = Position::parse("1:0/1:0/S", &rules).unwrap_err().to_string();
        assert_eq!(err, "the position has 1 houses a side but the rules are for Kalah(6,4) with 6 houses");
    }
}
