//! The game record format: plain text a person can read and edit, in the manner of chess's PGN.
//!
//! ```text
//! [Event "Casual game"]
//! [Date "2026.11.22"]
//! [South "Ann"]
//! [North "kalah depth 8"]
//! [Rules "kalah(6,4) standard"]
//! [Result "31-17"]
//! [End "0,0,0,0,0,0:31/0,0,0,0,0,0:17/N"]
//!
//! 1. 3,6 2
//! 2. 1 5 {a capture}
//! …
//! 31-17
//! ```
//!
//! * Tag pairs `[Name "value"]` come first, one a line. `Rules` is required (the text of
//!   [`Rules`]'s `Display`); `Start` gives the start position in the position notation when it is
//!   not the rules' start; `Result` is the final stores, South first, `*` while the game goes on,
//!   or `south-wins` / `north-wins` for a game decided before its moves ended it (a loss on time,
//!   a resignation: a `Termination` tag may say which);
//!   `End` is the position the moves reach, in the position notation (in a game that a sowing
//!   ended, the leftover seeds are already dealt out). Other tags are kept as they are.
//! * Then the moves: one token per turn, its sowings joined by commas (`3,6` is house 3, an extra
//!   move, then house 6). Move numbers `1.` (South's turn first) and `1...` (a line that starts with
//!   North) are for the reader and are skipped. `swap`, `keep` and handicap moves such as `S3>N2` are
//!   turns of their own. `{…}` and `;` to the end of the line are comments.
//! * The moves end with the result token, as in PGN: the final stores (`31-17`), `*` for a game
//!   that goes on, or `south-wins` / `north-wins` for a game decided before its end. Nothing but
//!   comments may follow it.
//!
//! Reading replays every action; any error names its line, and no half-read game is returned. A
//! damaged record cannot load as another game: a record without its result token (cut short) is
//! refused, and so is one whose moves do not reach its `Result` or its `End` position (a move lost
//! or changed). A record without an `End` tag, as written before the tag existed, still loads,
//! with a [`RecordWarning`] that its moves could not be checked.

use std::fmt::Write as _;

use crate::game::{Action, Game};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::Side;

/// A game with its tag pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs other than `Rules`, `Start`, `Result` and `End`, in order.
    pub tags: Vec<(String, String)>,
    /// The game.
    pub game: Game,
    /// The winner of a game decided before its moves ended it (a loss on time, a resignation),
    /// written as the result `south-wins` or `north-wins`; `None` for a game that ended by its
    /// moves or goes on.
    pub decided: Option<Side>,
}

/// A record read from text, with what the reader noticed but accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The record.
    pub record: Record,
    /// What could not be checked, for the caller to show.
    pub warnings: Vec<RecordWarning>,
}

/// Something a readable record lacks, worth telling whoever loads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordWarning {
    /// No `End` tag: the record was written before records carried one.
    #[error("the record has no [End \"…\"] tag (it was written before records carried one): its moves were replayed but could not be checked against the position they should reach")]
    NoEnd,
}

/// A record that cannot be read, with the line (1-based) where the trouble is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct RecordError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong there.
    pub problem: Problem,
}

/// What is wrong in a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A tag line that is not `[Name "value"]`.
    #[error("a tag must look like [Name \"value\"], found {0:?}")]
    TagSyntax(String),
    /// No `Rules` tag.
    #[error("the record has no [Rules \"…\"] tag, e.g. [Rules \"kalah(6,6) standard\"]")]
    NoRules,
    /// A bad `Rules` tag.
    #[error("bad Rules tag: {0}")]
    Rules(crate::RulesError),
    /// A bad `Start` tag.
    #[error("bad Start tag: {0}")]
    Start(crate::PositionError),
    /// A bad `End` tag.
    #[error("bad End tag: {0}")]
    End(crate::PositionError),
    /// A move that cannot be read.
    #[error("{0}")]
    Action(crate::game::ActionError),
    /// A move that cannot be played.
    #[error("move {action} ({side} to play) is illegal: {error}")]
    Illegal {
        /// The move.
        action: Action,
        /// Who was to move.
        side: Side,
        /// Why it is illegal.
        error: crate::PlayError,
    },
    /// Two sowings joined by a comma where the turn had passed.
    #[error("{0} is joined to the turn before by a comma, but that turn ended without an extra move")]
    TurnEnded(Action),
    /// The moves do not end with the result token: the record was cut short.
    #[error("the moves do not end with the result token (* for a game that goes on, the final stores such as 31-17, or south-wins / north-wins): the record is cut short or damaged")]
    NoTerminator,
    /// Something other than a comment after the result token that ends the moves.
    #[error("{0:?} follows the result token that ends the moves: only comments may follow it")]
    AfterTerminator(String),
    /// A result that does not match the replayed game.
    #[error("the result says {said} but the moves give {actual}")]
    Result {
        /// The result written.
        said: String,
        /// The result of the moves.
        actual: String,
    },
    /// An `End` position that the moves do not reach.
    #[error("the End tag says {said} but the moves reach {actual}: a move was changed or lost")]
    EndMismatch {
        /// The position the tag gives (boxed, as positions are large beside the other problems).
        said: Box<Position>,
        /// The position the moves reach.
        actual: Box<Position>,
    },
    /// An unclosed `{` comment.
    #[error("a {{ comment is not closed on its line")]
    Comment,
}

impl Record {
    /// Wraps a game with no tags.
    pub fn new(game: Game) -> Record {
        Record { tags: Vec::new(), game, decided: None }
    }

    /// Returns the result text: final stores `S-N`, `*` while the game goes on, or
    /// `south-wins` / `north-wins` for a game decided before its end.
    pub fn result_text(&self) -> String {
        match (self.game.result(), self.decided) {
            (Some(stores), _) => format!("{}-{}", stores.south, stores.north),
            (None, Some(winner)) => decided_text(winner).to_string(),
            (None, None) => "*".to_string(),
        }
    }

    /// Returns the position the moves reach, as the `End` tag writes it.
    fn end_position(&self) -> Position {
        *self.game.position()
    }

    /// Writes the record as text, with its `End` tag and the result token that ends the moves.
    ///
    /// ```
    /// use kalah_rules::{Action, Game, Move, Record, Rules};
    /// let mut game = Game::new(Rules::standard(6, 4).unwrap());
    /// for n in [3, 6, 2] {
    ///     game.act(Action::Sow(Move::from_number(n).unwrap())).unwrap();
    /// }
    /// let text = Record::new(game.clone()).to_text();
    /// assert!(text.contains("[End \"4,4,0,5,5,0:2/5,0,6,6,5,5:1/N\"]"));
    /// assert!(text.ends_with("1. 3,6 2\n*\n"));
    /// let parsed = Record::parse(&text).unwrap();
    /// assert_eq!(parsed.record.game, game);
    /// assert!(parsed.warnings.is_empty());
    ///
    /// // Cut short, or with a move changed, the record is refused.
    /// assert!(Record::parse(text.trim_end_matches("*\n")).is_err());
    /// assert!(Record::parse(&text.replace("1. 3,6 2", "1. 3,6 1")).is_err());
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
        }
        let rules = self.game.rules();
        let _ = writeln!(out, "[Rules \"{rules}\"]");
        if *self.game.start() != Position::start(rules) {
            let _ = writeln!(out, "[Start \"{}\"]", self.game.start());
        }
        let result = self.result_text();
        let _ = writeln!(out, "[Result \"{result}\"]");
        let _ = writeln!(out, "[End \"{}\"]\n", self.end_position());
        let mut number = 1;
        let mut line_open = false;
        for (side, actions) in self.game.turns() {
            let token = actions.iter().map(Action::to_string).collect::<Vec<_>>().join(",");
            match side {
                Side::South => {
                    if line_open {
                        out.push('\n');
                        number += 1;
                    }
                    let _ = write!(out, "{number}. {token}");
                    line_open = true;
                }
                Side::North => {
                    if line_open {
                        let _ = writeln!(out, " {token}");
                    } else {
                        let _ = writeln!(out, "{number}... {token}");
                    }
                    number += 1;
                    line_open = false;
                }
            }
        }
        if line_open {
            out.push('\n');
        }
        let _ = writeln!(out, "{result}");
        out
    }

    /// Reads a record, replaying every move and checking it against the record's result token,
    /// `Result` tag and `End` tag; an error names the line. A record without an `End` tag loads
    /// with [`RecordWarning::NoEnd`].
    pub fn parse(text: &str) -> Result<Parsed, RecordError> {
        let mut tags = Vec::new();
        let mut rules_tag = None;
        let mut start_tag = None;
        let mut result_tag = None;
        let mut end_tag = None;
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).peekable();
        while let Some(&(line, content)) = lines.peek() {
            if content.is_empty() || content.starts_with(';') {
                lines.next();
                continue;
            }
            if !content.starts_with('[') {
                break;
            }
            lines.next();
            let err = |problem| RecordError { line, problem };
            let (name, value) = parse_tag(content).ok_or_else(|| err(Problem::TagSyntax(content.to_string())))?;
            match name.as_str() {
                "Rules" => rules_tag = Some((line, value)),
                "Start" => start_tag = Some((line, value)),
                "Result" => result_tag = Some((line, value)),
                "End" => end_tag = Some((line, value)),
                _ => tags.push((name, value)),
            }
        }
        let (rules_line, rules_text) = rules_tag.ok_or(RecordError { line: 1, problem: Problem::NoRules })?;
        let rules: Rules =
            rules_text.parse().map_err(|e| RecordError { line: rules_line, problem: Problem::Rules(e) })?;
        let game = match start_tag {
            None => Game::new(rules),
            Some((line, start)) => Game::from_position(
                rules,
                Position::parse(&start, &rules).map_err(|e| RecordError { line, problem: Problem::Start(e) })?,
            ),
        };
        let end = match end_tag {
            None => None,
            Some((line, end)) => {
                Some((line, Position::parse(&end, &rules).map_err(|e| RecordError { line, problem: Problem::End(e) })?))
            }
        };
        let mut record = Record { tags, game, decided: None };
        let mut terminator: Option<(usize, String)> = None;
        // A record cut short is refused at the line where it stops.
        let last_line = text.lines().count().max(1);
        for (line, content) in lines {
            let err = |problem| RecordError { line, problem };
            let content = strip_comments(content).ok_or(err(Problem::Comment))?;
            for token in content.split_whitespace() {
                if terminator.is_some() {
                    return Err(err(Problem::AfterTerminator(token.to_string())));
                }
                let token = skip_move_number(token);
                if token.is_empty() {
                    continue;
                }
                if token == "*" || is_score(token) || decided_winner(token).is_some() {
                    terminator = Some((line, token.to_string()));
                    continue;
                }
                for (k, part) in token.split(',').enumerate() {
                    let action: Action = part.parse().map_err(|e| err(Problem::Action(e)))?;
                    if k > 0 && !record.game.last_outcome().is_some_and(|o| o.extra_move) {
                        return Err(err(Problem::TurnEnded(action)));
                    }
                    let side = record.game.position().mover();
                    record.game.act(action).map_err(|error| err(Problem::Illegal { action, side, error }))?;
                }
            }
        }
        let Some(terminator) = terminator else {
            return Err(RecordError { line: last_line, problem: Problem::NoTerminator });
        };
        // A decided result stands for a game its moves have not ended; one they ended has its stores.
        if record.game.result().is_none() {
            record.decided = decided_winner(&terminator.1);
        }
        let actual = record.result_text();
        for (line, said) in result_tag.into_iter().chain([terminator]) {
            if said != actual {
                return Err(RecordError { line, problem: Problem::Result { said, actual } });
            }
        }
        let mut warnings = Vec::new();
        match end {
            Some((line, said)) => {
                let actual = record.end_position();
                if said != actual {
                    let problem = Problem::EndMismatch { said: Box::new(said), actual: Box::new(actual) };
                    return Err(RecordError { line, problem });
                }
            }
            None => warnings.push(RecordWarning::NoEnd),
        }
        Ok(Parsed { record, warnings })
    }
}

/// Returns today's date (UTC) as the `Date` tag writes it: `YYYY.MM.DD`.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    date_text(seconds)
}

/// Returns the date of `unix_seconds` (seconds since 1970-01-01 UTC) as the `Date` tag writes
/// it: `YYYY.MM.DD`, in UTC.
///
/// ```
/// assert_eq!(kalah_rules::record::date_text(951_782_400), "2000.02.29");
/// ```
pub fn date_text(unix_seconds: u64) -> String {
    let (year, month, day) = civil_date(unix_seconds / 86_400);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Converts days since 1970-01-01 to (year, month, day) of the Gregorian calendar.
///
/// Howard Hinnant's `civil_from_days`: counting years from March puts the leap day last, so
/// every month but February has a fixed place in a 400-year cycle.
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

fn strip_comments(line: &str) -> Option<String> {
    let line = line.split(';').next().unwrap_or("");
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}')?;
        out.push(' ');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Some(out)
}

fn skip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

/// The result text of a game that `winner` won before its moves ended it.
fn decided_text(winner: Side) -> &'static str {
    match winner {
        Side::South => "south-wins",
        Side::North => "north-wins",
    }
}

/// Reads a decided result (`south-wins`, `north-wins`).
fn decided_winner(token: &str) -> Option<Side> {
    [Side::South, Side::North].into_iter().find(|&side| decided_text(side) == token)
}

fn is_score(token: &str) -> bool {
    token.split_once('-').is_some_and(|(a, b)| {
        !a.is_empty() && !b.is_empty() && a.chars().all(|c| c.is_ascii_digit()) && b.chars().all(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Move;

    fn sample() -> Game {
        let mut rules = Rules::standard(6, 4).unwrap();
        rules.pie = true;
        let mut game = Game::new(rules);
        for action in ["3", "6", "swap", "2", "1"] {
            game.act(action.parse().unwrap()).unwrap();
        }
        game
    }

    /// A game of Kalah(6,4) played for `sowings` sowings, each the mover's last non-empty house
    /// but one where it can.
    fn long_game(sowings: usize) -> Game {
        let mut game = Game::new(Rules::standard(6, 4).unwrap());
        for i in 0..sowings {
            let moves: Vec<Move> = game.position().legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            game.act(Action::Sow(moves[(i * 7) % moves.len()])).unwrap();
        }
        game
    }

    fn parse(text: &str) -> Result<Record, RecordError> {
        Record::parse(text).map(|parsed| parsed.record)
    }

    #[test]
    fn dates_follow_the_gregorian_calendar() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(19_723), (2024, 1, 1));
        assert_eq!(civil_date(47_541), (2100, 3, 1));
        assert_eq!(date_text(19_723 * 86_400 + 86_399), "2024.01.01");
    }

    #[test]
    fn records_round_trip_with_tags_and_pie() {
        let mut record = Record::new(sample());
        record.tags.push(("South".into(), "Ann \"the\" player".into()));
        let text = record.to_text();
        assert!(text.contains("1. 3,6 swap\n2... 2,1\n*\n"), "{text}");
        assert_eq!(Record::parse(&text), Ok(Parsed { record, warnings: Vec::new() }));
    }

    #[test]
    fn a_finished_game_records_its_result() {
        let rules = Rules::standard(3, 2).unwrap();
        let mut game = Game::new(rules);
        while !game.is_over() {
            let mv = game.position().legal_moves().last().unwrap();
            game.act(Action::Sow(mv)).unwrap();
        }
        let text = Record::new(game.clone()).to_text();
        let result = Record::new(game).result_text();
        assert!(text.ends_with(&format!("{result}\n")));
        let tampered = text.replace(&format!("[Result \"{result}\"]"), "[Result \"0-0\"]");
        let err = parse(&tampered).unwrap_err();
        assert!(matches!(err.problem, Problem::Result { .. }), "{err}");
    }

    #[test]
    fn a_start_position_and_a_north_first_line() {
        let rules = Rules::standard(6, 4).unwrap();
        let start = Position::parse("4,4,4,4,4,4:0/4,4,4,4,4,4:0/N", &rules).unwrap();
        let mut game = Game::from_position(rules, start);
        game.act(Action::Sow(Move::from_number(1).unwrap())).unwrap();
        let text = Record::new(game.clone()).to_text();
        assert!(text.contains("[Start \"4,4,4,4,4,4:0/4,4,4,4,4,4:0/N\"]"));
        assert!(text.contains("1... 1\n"));
        assert_eq!(parse(&text).unwrap().game, game);
    }

    #[test]
    fn damaged_records_name_the_line() {
        let good = "[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2 {fine} ; so far\n2. 1 1\n* ; goes on\n";
        let old = Record::parse(good).unwrap();
        assert_eq!(old.warnings, [RecordWarning::NoEnd]);
        let end = format!("[End \"{}\"]", old.record.game.position());
        let tagged = Record::parse(&good.replace("\n\n", &format!("\n{end}\n"))).unwrap();
        assert_eq!((tagged.record, tagged.warnings), (old.record, Vec::new()));
        let cases = [
            ("[Rules \"kalah(6,4) standard\"]\n[Oops\n1. 3\n*\n", 2),
            ("[Event \"x\"]\n\n1. 3\n*\n", 1),
            ("[Rules \"kalah(6,44) standard\"]\n", 1),
            ("[Rules \"kalah(6,4) standard\"]\n[Start \"1,2/3\"]\n", 2),
            ("[Rules \"kalah(6,4) standard\"]\n[End \"1,2/3\"]\n*\n", 2),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2\n2. 9\n*\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2\n2. 1,2\n*\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3 x\n*\n", 3),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3 {open\n*\n", 3),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2 *\n2. 1 swap\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 1 3-2\n", 3),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2\n", 3),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2\n\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n[End \"4,4,4,4,4,4:0/4,4,4,4,4,4:0/S\"]\n\n1. 3,6 2\n*\n", 2),
        ];
        for (text, line) in cases {
            let err = parse(text).expect_err(text);
            assert_eq!(err.line, line, "{err} in {text:?}");
            assert!(!err.to_string().contains('\n'));
        }
    }

    #[test]
    fn a_record_cut_anywhere_is_refused() {
        for game in [long_game(30), long_game(1000)] {
            let text = Record::new(game.clone()).to_text();
            assert_eq!(parse(&text).unwrap().game, game);
            for cut in 0..text.len() {
                let rest = &text[cut..];
                match parse(&text[..cut]) {
                    Err(_) => {}
                    // Only blank space may be cut off a record that still loads.
                    Ok(_) => assert!(rest.trim().is_empty(), "cut before {rest:?} loads"),
                }
            }
        }
    }

    #[test]
    fn a_record_without_a_line_of_moves_is_refused() {
        for game in [long_game(30), long_game(1000)] {
            let text = Record::new(game).to_text();
            let lines: Vec<&str> = text.lines().collect();
            let moves = lines.iter().position(|l| l.is_empty()).unwrap() + 1;
            for dropped in moves..lines.len() {
                let mut kept = lines.clone();
                kept.remove(dropped);
                assert!(parse(&kept.join("\n")).is_err(), "loads without {:?}", lines[dropped]);
            }
        }
    }

    #[test]
    fn a_record_with_a_move_changed_is_refused() {
        let game = long_game(40);
        let text = Record::new(game).to_text();
        let (tags, moves) = text.split_once("\n\n").unwrap();
        let mut changed = 0;
        // Every sowing of every turn, changed to every other house.
        for (at, _) in moves.match_indices(|c: char| c.is_ascii_digit()) {
            let token_start = moves[..at].rfind(' ').map_or(0, |i| i + 1);
            let is_move_number = moves[at..].trim_start_matches(|c: char| c.is_ascii_digit()).starts_with('.');
            let in_result = moves[at..].lines().next().is_some_and(|l| !l.contains(' ') && l.contains('-'));
            if is_move_number || in_result || at > token_start && moves.as_bytes()[at - 1].is_ascii_digit() {
                continue;
            }
            for house in 1..=6u8 {
                let digit = (b'0' + house) as char;
                if moves[at..].starts_with(digit) {
                    continue;
                }
                let edited = format!("{tags}\n\n{}{digit}{}", &moves[..at], &moves[at + 1..]);
                assert!(parse(&edited).is_err(), "changing the move at {at} to {digit} loads:\n{edited}");
                changed += 1;
            }
        }
        assert!(changed > 100, "{changed}");
        // The damage of the issue: 2. 1 changed to 2. 3.
        let rules = Rules::standard(6, 4).unwrap();
        let mut game = Game::new(rules);
        for n in [2, 1, 1, 2] {
            game.act(Action::Sow(Move::from_number(n).unwrap())).unwrap();
        }
        let text = Record::new(game).to_text();
        assert!(text.contains("2. 1 2\n"), "{text}");
        let err = parse(&text.replace("2. 1 2", "2. 3 2")).unwrap_err();
        assert!(matches!(err.problem, Problem::EndMismatch { .. }), "{err}");
        assert_eq!(err.line, 3);
    }

    #[test]
    fn a_game_decided_before_its_end_says_its_winner_and_reads_back_decided() {
        let mut record = Record::new(sample());
        record.decided = Some(Side::North);
        record.tags.push(("Termination".to_string(), "South ran out of time".to_string()));
        let text = record.to_text();
        assert!(text.contains("[Result \"north-wins\"]"), "{text}");
        assert!(text.trim_end().ends_with("north-wins"), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!(back, record);
        // The tag and the token must agree, as for stores.
        let err = parse(&text.replace("[Result \"north-wins\"]", "[Result \"south-wins\"]")).unwrap_err();
        assert!(matches!(err.problem, Problem::Result { .. }), "{err}");
        // A game its moves ended has its stores: a decided result there is refused.
        let over = long_game(400);
        assert!(over.is_over());
        let text = Record::new(over).to_text();
        let result = Record::new(long_game(400)).result_text();
        let err = parse(&text.replace(&result, "south-wins")).unwrap_err();
        assert!(matches!(err.problem, Problem::Result { .. }), "{err}");
    }
}
