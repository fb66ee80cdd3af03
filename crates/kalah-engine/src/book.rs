//! Opening books: every move's exact value in each position of a game's first plies, solved once
//! and read back at once by the perfect-play explorer ([`crate::explorer`]).
//!
//! A book is a text file of lines:
//!
//! ```text
//! kalah-book 1
//! rules kalah(4,3) standard
//! plies 2
//! 3,3,3,3:0/3,3,3,3:0/S +6,+2,-4,+6 1,4,...
//! ...
//! end 5 positions fnv1a64 0123456789abcdef
//! ```
//!
//! The first three lines give the format's version, the rules (as the rules write themselves)
//! and the plies: the book holds every position reached from the start in fewer sowings than
//! that (an extra move's sowing counts as one), so the moves of its first plies. Each position's
//! line is the position (the position notation), the value of each house's move for the side to
//! move, comma-separated in house order (`+3`, `0`, `-2`; `x` for an empty house; `L..U` for a
//! move known only within bounds), and a perfect line from the position (move numbers,
//! comma-separated; `-` when none is kept). The last line counts the positions and gives the
//! FNV-1a 64-bit hash of every byte before it, so a damaged or cut file is refused.

use std::collections::HashMap;
use std::fmt::Write as _;

use kalah_rules::{Move, Position, Rules};
use thiserror::Error;

use crate::explorer::{explore, Budget, Exploration, MoveValue};
use crate::score::{Bounds, Seeds};
use crate::solver::Solver;

/// The first line of every book of this format.
pub const MAGIC: &str = "kalah-book 1";

/// What is wrong with a book, or with a book asked for rules it does not hold.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BookError {
    /// The file does not begin as a book of this format does.
    #[error("not a kalah opening book (its first line is not `{MAGIC}`)")]
    NotABook,
    /// A line does not read as the format says.
    #[error("opening book line {line}: {what}")]
    Malformed {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        what: String,
    },
    /// The checksum or the count of positions does not match: the file is damaged or cut.
    #[error("the opening book is damaged (its checksum or its count of positions does not match)")]
    Damaged,
    /// The book is for other rules.
    #[error("the opening book is for {book}, not for {asked}")]
    OtherRules {
        /// The book's rules.
        book: String,
        /// The rules asked for.
        asked: String,
    },
}

/// An opening book: the explorer's answers for the positions of a game's first plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: String,
    plies: u32,
    /// Positions in the order they were found (breadth first), with their answers.
    entries: Vec<(Position, Exploration)>,
    index: HashMap<Position, usize>,
}

/// FNV-1a, 64 bits: the checksum of a book's text.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Returns every position reached from the start of `rules` in fewer than `plies` sowings, each
/// once, breadth first (finished games left out: they have no moves).
pub fn positions(rules: &Rules, plies: u32) -> Vec<Position> {
    let mut seen = HashMap::new();
    let mut found = Vec::new();
    let mut layer = vec![Position::start(rules)];
    for _ in 0..plies {
        let mut next = Vec::new();
        for position in layer {
            if position.is_over(rules) || seen.insert(position, ()).is_some() {
                continue;
            }
            next.extend(position.legal_moves().map(|mv| position.play_unchecked(rules, mv)));
            found.push(position);
        }
        layer = next;
    }
    found
}

impl Book {
    /// Solves every position of the first `plies` plies of `rules` ([`positions`]) with
    /// `solver`, telling `on_position` each position's index, the count, and its answer as it is
    /// settled (with the nodes its solve took; the book keeps none). Positions are solved in full:
    /// no budget.
    pub fn build(
        solver: &Solver,
        rules: &Rules,
        plies: u32,
        mut on_position: impl FnMut(usize, usize, &Position, &Exploration),
    ) -> Book {
        let all = positions(rules, plies);
        let count = all.len();
        let entries: Vec<(Position, Exploration)> = all
            .into_iter()
            .enumerate()
            .map(|(i, position)| {
                let mut explored = explore(solver, &position, rules, Budget::default());
                on_position(i, count, &position, &explored);
                // An answer read from a book searched no nodes, as one read from a file.
                explored.nodes = 0;
                (position, explored)
            })
            .collect();
        Book::of(rules.to_string(), plies, entries)
    }

    fn of(rules: String, plies: u32, entries: Vec<(Position, Exploration)>) -> Book {
        let index = entries.iter().enumerate().map(|(i, (p, _))| (*p, i)).collect();
        Book { rules, plies, entries, index }
    }

    /// Returns the rules the book is for, as they write themselves (`kalah(6,4) standard`).
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// Returns the plies the book covers: the moves of positions fewer sowings than this from
    /// the start.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Returns the number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Tells whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Returns the book's positions with their answers, in the book's order.
    pub fn entries(&self) -> impl Iterator<Item = (&Position, &Exploration)> {
        self.entries.iter().map(|(p, e)| (p, e))
    }

    /// Returns the book's answer for `position` under `rules`, or `None` when the book does not
    /// hold the position.
    ///
    /// # Errors
    /// [`BookError::OtherRules`] when the book is for other rules.
    pub fn get(&self, rules: &Rules, position: &Position) -> Result<Option<&Exploration>, BookError> {
        let asked = rules.to_string();
        if asked != self.rules {
            return Err(BookError::OtherRules { book: self.rules.clone(), asked });
        }
        Ok(self.index.get(position).map(|&i| &self.entries[i].1))
    }

    /// Returns the book as the text of its file.
    pub fn to_text(&self) -> String {
        let mut text = format!("{MAGIC}\nrules {}\nplies {}\n", self.rules, self.plies);
        for (position, explored) in &self.entries {
            let houses = usize::from(position.houses());
            let values: Vec<String> = (0..houses)
                .map(|i| match explored.moves.iter().find(|m| m.mv.index() == i) {
                    None => "x".to_string(),
                    Some(m) if m.bounds.is_exact() => format!("{:+}", m.bounds.lower),
                    Some(m) => format!("{:+}..{:+}", m.bounds.lower, m.bounds.upper),
                })
                .collect();
            let line = if explored.line.is_empty() {
                "-".to_string()
            } else {
                explored.line.iter().map(|m| m.number().to_string()).collect::<Vec<_>>().join(",")
            };
            let _ = writeln!(text, "{position} {} {line}", values.join(","));
        }
        let hash = fnv1a64(text.as_bytes());
        let _ = writeln!(text, "end {} positions fnv1a64 {hash:016x}", self.entries.len());
        text
    }

    /// Reads a book from its file's bytes, checking its format and checksum; `rules` are the
    /// rules it must be for (`None`: any, the caller asks [`Book::rules`]).
    ///
    /// # Errors
    /// [`BookError`]: not a book, a malformed line, a damaged file, or a book for other rules.
    pub fn from_bytes(bytes: &[u8], rules: Option<&Rules>) -> Result<Book, BookError> {
        if !bytes.starts_with(MAGIC.as_bytes()) || bytes.get(MAGIC.len()) != Some(&b'\n') {
            return Err(BookError::NotABook);
        }
        let text = std::str::from_utf8(bytes).map_err(|_| BookError::Damaged)?;
        let body_end = text.trim_end_matches('\n').rfind('\n').ok_or(BookError::Damaged)? + 1;
        let (body, last) = text.split_at(body_end);
        let last: Vec<&str> = last.split_whitespace().collect();
        let (count, hash) = match last.as_slice() {
            ["end", count, "positions", "fnv1a64", hash] => {
                (count.parse::<usize>().ok(), u64::from_str_radix(hash, 16).ok())
            }
            _ => (None, None),
        };
        if hash != Some(fnv1a64(body.as_bytes())) {
            return Err(BookError::Damaged);
        }
        let malformed = |line: usize, what: String| BookError::Malformed { line, what };
        let mut lines = body.lines().enumerate().skip(1);
        let book_rules = match lines.next() {
            Some((_, line)) if line.starts_with("rules ") => line["rules ".len()..].to_string(),
            _ => return Err(malformed(2, "expected `rules RULES`".into())),
        };
        if let Some(rules) = rules {
            let asked = rules.to_string();
            if asked != book_rules {
                return Err(BookError::OtherRules { book: book_rules, asked });
            }
        }
        let plies = match lines.next() {
            Some((_, line)) => line
                .strip_prefix("plies ")
                .and_then(|p| p.parse::<u32>().ok())
                .ok_or_else(|| malformed(3, "expected `plies N`".into()))?,
            None => return Err(malformed(3, "expected `plies N`".into())),
        };
        let mut entries = Vec::new();
        for (i, line) in lines {
            let n = i + 1;
            let fields: Vec<&str> = line.split(' ').collect();
            let [position, values, pv] = fields.as_slice() else {
                return Err(malformed(n, "expected a position, its moves' values and a line".into()));
            };
            let position: Position = position.parse().map_err(|e| malformed(n, format!("the position: {e}")))?;
            let values: Vec<&str> = values.split(',').collect();
            if values.len() != usize::from(position.houses()) {
                return Err(malformed(n, format!("{} values for {} houses", values.len(), position.houses())));
            }
            let legal = position.legal_moves();
            let mut moves = Vec::new();
            for (house, value) in values.iter().enumerate() {
                let mv = Move::from_index(house);
                let number =
                    |s: &str| s.parse::<i32>().map(Seeds).map_err(|_| malformed(n, format!("the value `{value}`")));
                let bounds = match value.split_once("..") {
                    _ if *value == "x" => {
                        if legal.contains(mv) {
                            return Err(malformed(n, format!("house {} is not empty but has no value", mv.number())));
                        }
                        continue;
                    }
                    Some((lower, upper)) => Bounds::new(number(lower)?, number(upper)?),
                    None => Bounds::exact(number(value)?),
                };
                if !legal.contains(mv) || bounds.lower > bounds.upper {
                    return Err(malformed(n, format!("the value `{value}` of house {}", mv.number())));
                }
                moves.push(MoveValue { mv, again: false, bounds, line: Vec::new() });
            }
            let line: Vec<Move> = if *pv == "-" {
                Vec::new()
            } else {
                pv.split(',')
                    .map(|m| m.parse::<u32>().ok().and_then(Move::from_number))
                    .collect::<Option<_>>()
                    .ok_or_else(|| malformed(n, format!("the line `{pv}`")))?
            };
            if let Some(first) = line.first() {
                if let Some(m) = moves.iter_mut().find(|m| m.mv == *first) {
                    m.line.clone_from(&line);
                }
            }
            let mut explored = Exploration::of_moves(moves, 0);
            explored.line = line;
            entries.push((position, explored));
        }
        if count != Some(entries.len()) {
            return Err(BookError::Damaged);
        }
        Ok(Book::of(book_rules, plies, entries))
    }
}

/// Returns the explorer's answer for `position` under `rules` from the first of `books` that holds
/// it, its extra moves marked, or `None` when none does (books of other rules are passed over):
/// the explorer's "a book, else a solve" for every host (the server, the static site, the CLI).
pub fn answer<'a>(
    books: impl IntoIterator<Item = &'a Book>,
    rules: &Rules,
    position: &Position,
) -> Option<Exploration> {
    let found = books.into_iter().find_map(|book| book.get(rules, position).ok().flatten())?;
    let mut found = found.clone();
    mark_extra_moves(&mut found, position, rules);
    Some(found)
}

/// Marks the moves of `explored`, an answer for `position`, that give another turn under `rules`:
/// a book does not store it.
pub fn mark_extra_moves(explored: &mut Exploration, position: &Position, rules: &Rules) {
    for m in &mut explored.moves {
        if let Ok((child, _)) = position.play(rules, m.mv) {
            m.again = child.mover() == position.mover() && !child.is_over(rules);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;

    fn book() -> (Rules, Book) {
        let rules = Rules::standard(4, 3).unwrap();
        let solver = Solver::new(Options { table_bytes: 16 << 20, ..Options::default() });
        let book = Book::build(&solver, &rules, 2, |_, _, _, _| {});
        (rules, book)
    }

    #[test]
    fn a_book_reads_back_as_it_was_written() {
        let (rules, book) = book();
        assert_eq!(book.len(), 1 + 4, "the start and its four children, none repeated");
        let text = book.to_text();
        let read = Book::from_bytes(text.as_bytes(), Some(&rules)).unwrap();
        assert_eq!(read.to_text(), text);
        let start = Position::start(&rules);
        let mut explored = read.get(&rules, &start).unwrap().unwrap().clone();
        mark_extra_moves(&mut explored, &start, &rules);
        let built = book.get(&rules, &start).unwrap().unwrap();
        assert_eq!(
            explored.moves.iter().map(|m| (m.mv, m.bounds, m.again)).collect::<Vec<_>>(),
            built.moves.iter().map(|m| (m.mv, m.bounds, m.again)).collect::<Vec<_>>()
        );
        assert_eq!(explored.line, built.line);
        assert_eq!(explored.value(), Some(Seeds(6)));
    }

    #[test]
    fn damaged_books_and_books_for_other_rules_are_refused() {
        let (_, book) = book();
        let text = book.to_text();
        let other = Rules::standard(4, 4).unwrap();
        assert_eq!(
            Book::from_bytes(text.as_bytes(), Some(&other)).unwrap_err().to_string(),
            "the opening book is for kalah(4,3) standard, not for kalah(4,4) standard"
        );
        assert!(matches!(book.get(&other, &Position::start(&other)), Err(BookError::OtherRules { .. })));
        let damaged = text.replacen("+6", "+5", 1);
        assert_eq!(Book::from_bytes(damaged.as_bytes(), None), Err(BookError::Damaged));
        let cut = &text[..text.len() - 30];
        assert_eq!(Book::from_bytes(cut.as_bytes(), None), Err(BookError::Damaged));
        assert_eq!(Book::from_bytes(b"hello\n", None), Err(BookError::NotABook));
    }
}
