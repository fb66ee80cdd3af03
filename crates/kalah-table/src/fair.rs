//! The fair starts the new-game form offers: positions a seed or two from a board's start that
//! perfect players draw, as `kalah solve fair` listed them (the file `data/fair-starts.txt`,
//! docs/solver.md says how it was made and checked).

use kalah_rules::{Position, Rules};
use serde::Serialize;

/// `kalah solve fair`'s output for each board and rules the form offers, one after the other.
const LISTS: &str = include_str!("../data/fair-starts.txt");

/// One fair start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FairStart {
    /// The position, in the position notation.
    pub position: String,
    /// The seeds moved from the start, as `S5>S3 N6>N-store`.
    pub shifts: String,
}

/// The fair starts of one board and rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FairStarts {
    /// The rules, as the new-game request's `rules` takes them.
    pub rules: String,
    /// Houses a side and seeds a house.
    pub size: [u8; 2],
    /// The starts, in the order `kalah solve fair` found them.
    pub starts: Vec<FairStart>,
}

/// What is wrong with the list's file: a bug of the build, which a test catches.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("data/fair-starts.txt, line {line}: {what}")]
pub struct ListError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// Reads lists in `kalah solve fair`'s output format: a `# rules: RULES` line before each
/// board's starts, a `POSITION  SHIFTS` line a start, other `#` lines comments.
///
/// # Errors
/// A line that is not a start of the rules above it.
pub fn read(text: &str) -> Result<Vec<FairStarts>, ListError> {
    let mut lists: Vec<(Rules, FairStarts)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let error = |what: String| ListError { line: index + 1, what };
        if let Some(rules) = line.strip_prefix("# rules: ") {
            let parsed: Rules = rules.parse().map_err(|e| error(format!("{e}")))?;
            let size = [parsed.houses(), parsed.seeds()];
            lists.push((parsed, FairStarts { rules: rules.to_string(), size, starts: Vec::new() }));
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (rules, list) = lists.last_mut().ok_or_else(|| error("a start before any `# rules:` line".into()))?;
        let (position, shifts) = line.split_once("  ").ok_or_else(|| error("not `POSITION  SHIFTS`".into()))?;
        let parsed = Position::parse(position, rules).map_err(|e| error(format!("{e}")))?;
        if parsed.total_seeds() != Position::start(rules).total_seeds() {
            return Err(error(format!("{position} does not hold the start's seeds")));
        }
        list.starts.push(FairStart { position: position.to_string(), shifts: shifts.trim().to_string() });
    }
    Ok(lists.into_iter().map(|(_, list)| list).collect())
}

/// Returns the fair starts the form offers, by board and rules: read once, when first asked for
/// (every `GET /api/variants` answers with them).
pub fn fair_starts() -> &'static [FairStarts] {
    static LISTS_READ: std::sync::LazyLock<Vec<FairStarts>> =
        // The file is the repository's own and tested: a broken one is a build's bug, shown as no list.
        std::sync::LazyLock::new(|| read(LISTS).unwrap_or_default());
    &LISTS_READ
}

/// Returns the value of `position` under `rules` for the side to move when it is one of the fair
/// starts the form offers: 0, a draw, proven by `kalah solve fair` when the list was made.
pub fn proven(rules: &Rules, position: &Position) -> Option<i32> {
    let text = position.to_string();
    fair_starts()
        .iter()
        .filter(|list| list.rules.parse::<Rules>().is_ok_and(|r| r == *rules))
        .any(|list| {
            list.starts
                .iter()
                .any(|s| s.position == text || Position::parse(&s.position, rules).is_ok_and(|p| p == *position))
        })
        .then_some(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_read_whole() {
        let lists = read(LISTS).unwrap();
        let kalah_6_4 = lists.iter().find(|l| l.rules == "kalah(6,4) empty-capture").unwrap();
        // FairKalah's count (Neller et al., 2022): 3 starts with one seed moved, 251 with two.
        assert_eq!(kalah_6_4.starts.len(), 254);
        assert_eq!(kalah_6_4.starts.iter().filter(|s| !s.shifts.contains(' ')).count(), 3);
        assert_eq!(kalah_6_4.size, [6, 4]);
        // Without empty captures: 323, the count of Pham and Neller ("FairKalah Without Empty Capture").
        let standard = lists.iter().find(|l| l.rules == "kalah(6,4) standard").unwrap();
        assert_eq!(standard.starts.len(), 323);
        assert_eq!(standard.starts.iter().filter(|s| !s.shifts.contains(' ')).count(), 3);
        assert_eq!(fair_starts(), lists.as_slice());
        // Each is a draw for the side to move; the board's own start is not in the list.
        let rules: Rules = standard.rules.parse().unwrap();
        let first = Position::parse(&standard.starts[0].position, &rules).unwrap();
        assert_eq!(proven(&rules, &first), Some(0));
        assert_eq!(proven(&rules, &Position::start(&rules)), None);
        assert_eq!(proven(&"kalah(6,4) empty-capture".parse().unwrap(), &first), None, "other rules");
    }

    #[test]
    fn a_bad_list_is_refused_with_its_line() {
        let bad = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(bad("4,4:0/4,4:0/S  S1>S2"), "data/fair-starts.txt, line 1: a start before any `# rules:` line");
        assert!(bad("# rules: kalah(2,2)\n\n3,1:0/2,2:0/S").contains("line 3: not `POSITION  SHIFTS`"));
        assert!(bad("# rules: kalah(2,2)\n3,2:0/2,2:0/S  S1>S2").contains("does not hold the start's seeds"));
    }
}
