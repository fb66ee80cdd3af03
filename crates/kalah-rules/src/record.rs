//! The game record format: plain text a person can read and edit, in the manner of chess's PGN.
//!
//! ```text
//! [Event "Casual game"]
//! [Date "2026.11.22"]
//! [South "Ann"]
//! [North "kalah depth 8"]
//! [Rules "kalah(6,4) standard"]
//! [Result "31-17"]
//!
//! 1. 3,6 2
//! 2. 1 5 {a capture}
//! …
//! 31-17
//! ```
//!
//! * Tag pairs `[Name "value"]` come first, one a line. `Rules` is required (the text of
//!   [`Rules`]'s `Display`); `Start` gives the start position in the position notation when it is
//!   not the rules' start; `Result` is the final stores, South first, or `*` while the game goes on.
//!   Other tags are kept as they are.
//! * Then the moves: one token per turn, its sowings joined by commas (`3,6` is house 3, an extra
//!   move, then house 6). Move numbers `1.` (South's turn first) and `1...` (a line that starts with
//!   North) are for the reader and are skipped. `swap`, `keep` and handicap moves such as `S3>N2` are
//!   turns of their own. `{…}` and `;` to the end of the line are comments. The last token may
//!   repeat the result.
//!
//! Reading replays every action; any error names its line, and no half-read game is returned.

use std::fmt::Write as _;

use crate::game::{Action, Game};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::Side;

/// A game with its tag pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs other than `Rules`, `Start` and `Result`, in order.
    pub tags: Vec<(String, String)>,
    /// The game.
    pub game: Game,
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
    /// A result that does not match the replayed game.
    #[error("the result says {said} but the moves give {actual}")]
    Result {
        /// The result written.
        said: String,
        /// The result of the moves.
        actual: String,
    },
    /// An unclosed `{` comment.
    #[error("a {{ comment is not closed on its line")]
    Comment,
}

impl Record {
    /// Wraps a game with no tags.
    pub fn new(game: Game) -> Record {
        Record { tags: Vec::new(), game }
    }

    /// Returns the result text: final stores `S-N`, or `*` while the game goes on.
    pub fn result_text(&self) -> String {
        match self.game.result() {
            Some(stores) => format!("{}-{}", stores.south, stores.north),
            None => "*".to_string(),
        }
    }

    /// Writes the record as text.
    ///
    /// ```
    /// use kalah_rules::{Action, Game, Move, Record, Rules};
    /// let mut game = Game::new(Rules::standard(6, 4).unwrap());
    /// for n in [3, 6, 2] {
    ///     game.act(Action::Sow(Move::from_number(n).unwrap())).unwrap();
    /// }
    /// let text = Record::new(game.clone()).to_text();
    /// assert!(text.contains("1. 3,6 2"));
    /// assert_eq!(Record::parse(&text).unwrap().game, game);
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
        let _ = writeln!(out, "[Result \"{result}\"]\n");
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

    /// Reads a record, replaying every move; an error names the line.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags = Vec::new();
        let mut rules_tag = None;
        let mut start_tag = None;
        let mut result_tag = None;
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
        let mut record = Record { tags, game };
        let mut final_token = None;
        for (line, content) in lines {
            let err = |problem| RecordError { line, problem };
            let content = strip_comments(content).ok_or(err(Problem::Comment))?;
            for token in content.split_whitespace() {
                let token = skip_move_number(token);
                if token.is_empty() {
                    continue;
                }
                if token == "*" || is_score(token) {
                    final_token = Some((line, token.to_string()));
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
        let actual = record.result_text();
        for (line, said) in result_tag.into_iter().chain(final_token) {
            if said != actual {
                return Err(RecordError { line, problem: Problem::Result { said, actual } });
            }
        }
        Ok(record)
    }
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

    #[test]
    fn records_round_trip_with_tags_and_pie() {
        let mut record = Record::new(sample());
        record.tags.push(("South".into(), "Ann \"the\" player".into()));
        let text = record.to_text();
        assert!(text.contains("1. 3,6 swap\n2... 2,1\n"), "{text}");
        assert_eq!(Record::parse(&text).unwrap(), record);
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
        let err = Record::parse(&tampered).unwrap_err();
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
        assert_eq!(Record::parse(&text).unwrap().game, game);
    }

    #[test]
    fn damaged_records_name_the_line() {
        let good = "[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2 {fine} ; so far\n2. 1 1\n";
        assert!(Record::parse(good).is_ok());
        let cases = [
            ("[Rules \"kalah(6,4) standard\"]\n[Oops\n1. 3\n", 2),
            ("[Event \"x\"]\n\n1. 3\n", 1),
            ("[Rules \"kalah(6,44) standard\"]\n", 1),
            ("[Rules \"kalah(6,4) standard\"]\n[Start \"1,2/3\"]\n", 2),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2\n2. 9\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2\n2. 1,2\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3 x\n", 3),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3 {open\n", 3),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 3,6 2 *\n2. 1 swap\n", 4),
            ("[Rules \"kalah(6,4) standard\"]\n\n1. 1 3-2\n", 3),
        ];
        for (text, line) in cases {
            let err = Record::parse(text).expect_err(text);
            assert_eq!(err.line, line, "{err} in {text:?}");
            assert!(!err.to_string().contains('\n'));
        }
    }
}
