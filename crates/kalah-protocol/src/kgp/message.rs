//! One line of the Kalah Game Protocol: an optional id and reference, a command name, and
//! arguments of the specification's five types (integer, real, word, string, board), read and
//! written without any socket.
//!
//! ```text
//! command  = id name *(*1WSP argument) CRLF
//! id       = [[*1DIGIT] [ref] *1WSP]      e.g. "4 state <…>", "6@4 stop", "@4 move 3"
//! ref      = ["@" *1DIGIT]
//! integer  = ["+" / "-"] *1DIGIT
//! real     = ["+" / "-"] *DIGIT "." *1DIGIT
//! word     = *1(DIGIT / ALPHA / "-" / ":")
//! string   = DQUOTE *("\" CHAR / NDQCHAR) DQUOTE
//! board    = "<" *1DIGIT *("," *1DIGIT) ">"
//! ```
//!
//! Strings unescape `\n` to a line feed, `\t` to a tab and `\X` to X for any other X (as the
//! reference server does); written strings escape `"`, `\`, line feeds and tabs.

use std::fmt;
use std::str::FromStr;

/// The longest line the specification allows, trailing white space included.
pub const MAX_LINE: usize = 16384;

/// One argument of a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// An integer such as `32`, `+0` or `-100`.
    Int(i64),
    /// A real number such as `0.0`, `+3.141` or `-.123`.
    Real(f64),
    /// A bare word of letters, digits, `-` and `:`, such as `freeplay` or `info:name`.
    Word(String),
    /// A quoted string, unescaped.
    Str(String),
    /// A board literal `<m,…>`, as its numbers.
    Board(Vec<u32>),
}

impl Arg {
    /// Names the argument's type, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Arg::Int(_) => "an integer",
            Arg::Real(_) => "a real number",
            Arg::Word(_) => "a word",
            Arg::Str(_) => "a string",
            Arg::Board(_) => "a board",
        }
    }
}

/// A command line: `[ID][@REF] NAME ARG…`.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The sender's id of this command, if any.
    pub id: Option<u64>,
    /// The id of the command this one answers, if any.
    pub reference: Option<u64>,
    /// The command name.
    pub command: String,
    /// The arguments.
    pub args: Vec<Arg>,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// Nothing but white space.
    #[error("the line is empty")]
    Empty,
    /// Longer than the specification allows.
    #[error("the line is {0} bytes long; a command is at most {MAX_LINE} characters")]
    TooLong(usize),
    /// Not UTF-8 text.
    #[error("the line is not UTF-8 text")]
    NotText,
    /// The id or reference before the command is not a number.
    #[error("the id {0:?} is not of the form ID, ID@REF or @REF with decimal numbers")]
    BadId(String),
    /// The command name is missing or holds other characters than letters and digits.
    #[error("the command name {0:?} is not letters and digits")]
    BadName(String),
    /// A quoted string has no closing quote.
    #[error("a string argument has no closing '\"'")]
    OpenString,
    /// A board literal is malformed.
    #[error("the board {0:?} is not <N,N,…> with decimal numbers")]
    BadBoard(String),
    /// An argument is of no type.
    #[error("the argument {0:?} is not an integer, real, word, \"string\" or <board>")]
    BadArg(String),
}

impl Message {
    /// Returns a command without id or reference.
    pub fn new(command: &str, args: Vec<Arg>) -> Message {
        Message { id: None, reference: None, command: command.to_string(), args }
    }

    /// Returns the same command answering `reference`.
    pub fn answering(mut self, reference: Option<u64>) -> Message {
        self.reference = reference;
        self
    }

    /// Returns argument `index` as text, whether a word or a string.
    pub fn text(&self, index: usize) -> Option<&str> {
        match self.args.get(index) {
            Some(Arg::Word(w)) | Some(Arg::Str(w)) => Some(w),
            _ => None,
        }
    }

    /// Returns argument `index` as an integer.
    pub fn int(&self, index: usize) -> Option<i64> {
        match self.args.get(index) {
            Some(Arg::Int(n)) => Some(*n),
            _ => None,
        }
    }

    /// Returns argument `index` as a board literal, written back as text.
    pub fn board(&self, index: usize) -> Option<String> {
        match self.args.get(index) {
            Some(Arg::Board(numbers)) => Some(board_text(numbers)),
            _ => None,
        }
    }

    /// Returns the command name as the parser finds it, even in a line it cannot read: the first
    /// word, unless that is an id part (a number or @number) with another word after it. In
    /// "1 2mode ok" it is "2mode".
    pub fn command_word(line: &str) -> Option<&str> {
        let mut words = line.split_whitespace();
        let first = words.next();
        match first {
            Some(id) if id.starts_with(|c: char| c.is_ascii_digit() || c == '@') => words.next().or(first),
            _ => first,
        }
    }

    /// Tells whether a line, readable or not, is an `ok` or an `error`: such a line is never
    /// answered, so that two sides never trade errors.
    pub fn is_response(line: &str) -> bool {
        matches!(Message::command_word(line), Some("ok" | "error"))
    }

    /// Reads the id part of a line that is not a command, to answer it with an error.
    pub fn id_of_malformed(line: &str) -> Option<u64> {
        let first = line.split_whitespace().next()?;
        let id = first.split('@').next()?;
        (!id.is_empty() && first.len() < line.trim().len()).then(|| id.parse().ok()).flatten()
    }
}

fn board_text(numbers: &[u32]) -> String {
    let inner: Vec<String> = numbers.iter().map(u32::to_string).collect();
    format!("<{}>", inner.join(","))
}

impl FromStr for Message {
    type Err = MessageError;

    /// Reads one line (without its line break; a trailing `\r` is white space).
    fn from_str(line: &str) -> Result<Message, MessageError> {
        if line.len() > MAX_LINE {
            return Err(MessageError::TooLong(line.len()));
        }
        let rest = line.trim();
        if rest.is_empty() {
            return Err(MessageError::Empty);
        }
        let (first, mut rest) = split_token(rest);
        let (id, reference, command) = if first.starts_with(|c: char| c.is_ascii_digit() || c == '@') {
            // A leading number or @number followed by more is the id part, as the reference reads it.
            if rest.is_empty() {
                (None, None, first)
            } else {
                let (id, reference) = parse_id(first)?;
                let (command, after) = split_token(rest);
                rest = after;
                (id, reference, command)
            }
        } else {
            (None, None, first)
        };
        if command.is_empty() || !command.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(MessageError::BadName(command.to_string()));
        }
        let mut args = Vec::new();
        while !rest.is_empty() {
            let (arg, after) = parse_arg(rest)?;
            args.push(arg);
            rest = after.trim_start();
        }
        Ok(Message { id, reference, command: command.to_string(), args })
    }
}

/// Splits off the first white-space-separated token.
fn split_token(text: &str) -> (&str, &str) {
    match text.find(char::is_whitespace) {
        Some(end) => (&text[..end], text[end..].trim_start()),
        None => (text, ""),
    }
}

fn parse_id(text: &str) -> Result<(Option<u64>, Option<u64>), MessageError> {
    let bad = || MessageError::BadId(text.to_string());
    let number = |digits: &str| -> Result<u64, MessageError> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        digits.parse().map_err(|_| bad())
    };
    match text.split_once('@') {
        Some((id, reference)) => {
            let id = if id.is_empty() { None } else { Some(number(id)?) };
            Ok((id, Some(number(reference)?)))
        }
        None => Ok((Some(number(text)?), None)),
    }
}

/// Reads one argument at the start of `text`, returning it and the rest.
fn parse_arg(text: &str) -> Result<(Arg, &str), MessageError> {
    if let Some(body) = text.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Ok((Arg::Str(value), &body[i + 1..])),
                '\\' => match chars.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, 't')) => value.push('\t'),
                    Some((_, other)) => value.push(other),
                    None => return Err(MessageError::OpenString),
                },
                other => value.push(other),
            }
        }
        return Err(MessageError::OpenString);
    }
    if text.starts_with('<') {
        let end = text.find('>').ok_or_else(|| MessageError::BadBoard(split_token(text).0.to_string()))?;
        let literal = &text[..=end];
        let numbers = literal[1..end]
            .split(',')
            .map(|n| {
                let n = n.trim();
                if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                n.parse::<u32>().ok()
            })
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(|| MessageError::BadBoard(literal.to_string()))?;
        return Ok((Arg::Board(numbers), &text[end + 1..]));
    }
    let (token, rest) = split_token(text);
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let arg = if digits(unsigned) {
        Arg::Int(token.parse().map_err(|_| MessageError::BadArg(token.to_string()))?)
    } else if unsigned.split_once('.').is_some_and(|(whole, frac)| (whole.is_empty() || digits(whole)) && digits(frac))
    {
        Arg::Real(token.parse().map_err(|_| MessageError::BadArg(token.to_string()))?)
    } else if token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':') {
        Arg::Word(token.to_string())
    } else {
        return Err(MessageError::BadArg(token.to_string()));
    };
    Ok((arg, rest))
}

impl fmt::Display for Arg {
    /// Writes the argument as the grammar spells it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Int(n) => write!(f, "{n}"),
            // The grammar has no exponents, infinities or NaN: write a plain decimal.
            Arg::Real(x) => write!(f, "{:.3}", if x.is_finite() { x.clamp(-1e12, 1e12) } else { 0.0 }),
            Arg::Word(w) => f.write_str(w),
            Arg::Str(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        '\n' => f.write_str("\\n")?,
                        '\t' => f.write_str("\\t")?,
                        // No escape reads back as another control character: a space keeps the line one line.
                        c if c.is_control() => f.write_str(" ")?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
            Arg::Board(numbers) => f.write_str(&board_text(numbers)),
        }
    }
}

impl fmt::Display for Message {
    /// Writes the command without its line break.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.id, self.reference) {
            (Some(id), Some(r)) => write!(f, "{id}@{r} ")?,
            (Some(id), None) => write!(f, "{id} ")?,
            (None, Some(r)) => write!(f, "@{r} ")?,
            (None, None) => {}
        }
        f.write_str(&self.command)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Message {
        line.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    #[test]
    fn ids_and_references_as_the_specification_writes_them() {
        let m = parse("4 state <3,0,0,3,3,3,3,3,3>");
        assert_eq!((m.id, m.reference, m.command.as_str()), (Some(4), None, "state"));
        assert_eq!(m.args, vec![Arg::Board(vec![3, 0, 0, 3, 3, 3, 3, 3, 3])]);
        let m = parse("6@4 stop");
        assert_eq!((m.id, m.reference, m.command.as_str()), (Some(6), Some(4), "stop"));
        let m = parse("@8 move 3\r");
        assert_eq!((m.id, m.reference, m.args.clone()), (None, Some(8), vec![Arg::Int(3)]));
        let m = parse("kgp 1 0 1");
        assert_eq!((m.id, m.command.as_str(), m.args.len()), (None, "kgp", 3));
        assert_eq!(parse("goodbye").args, vec![]);
        assert_eq!(parse("  12   ping  ").id, Some(12));
    }

    #[test]
    fn every_argument_type() {
        let m = parse(r#"set info:comment "say \"hi\"\n\\ \x" 32 +0 -100 0.0 +2.5 -.123 <1,2> word-w:x"#);
        assert_eq!(
            m.args,
            vec![
                Arg::Word("info:comment".into()),
                Arg::Str("say \"hi\"\n\\ x".into()),
                Arg::Int(32),
                Arg::Int(0),
                Arg::Int(-100),
                Arg::Real(0.0),
                Arg::Real(2.5),
                Arg::Real(-0.123),
                Arg::Board(vec![1, 2]),
                Arg::Word("word-w:x".into()),
            ]
        );
        assert_eq!(m.text(1), Some("say \"hi\"\n\\ x"));
        assert_eq!(m.text(0), Some("info:comment"));
        assert_eq!(m.int(2), Some(32));
        assert_eq!(m.board(8).as_deref(), Some("<1,2>"));
    }

    #[test]
    fn written_lines_read_back() {
        let mut m = Message::new(
            "set",
            vec![Arg::Word("info:name".into()), Arg::Str("a \"b\" \\ c\nd\te\u{7}".into()), Arg::Real(-1.5)],
        )
        .answering(Some(8));
        m.id = Some(3);
        let line = m.to_string();
        assert_eq!(line, r#"3@8 set info:name "a \"b\" \\ c\nd\te " -1.500"#);
        let back = parse(&line);
        assert_eq!(back.text(1), Some("a \"b\" \\ c\nd\te "));
        assert_eq!(back.reference, Some(8));
        assert_eq!(Message::new("move", vec![Arg::Int(3)]).answering(Some(4)).to_string(), "@4 move 3");
        assert_eq!(Arg::Real(f64::NAN).to_string(), "0.000");
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        for (line, want) in [
            ("", MessageError::Empty),
            ("   \r", MessageError::Empty),
            ("4x state", MessageError::BadId("4x".into())),
            ("@ state", MessageError::BadId("@".into())),
            ("4@ state", MessageError::BadId("4@".into())),
            ("99999999999999999999999 ping", MessageError::BadId("99999999999999999999999".into())),
            ("st@te <1>", MessageError::BadName("st@te".into())),
            ("4 \"state\"", MessageError::BadName("\"state\"".into())),
            ("set info:name \"open", MessageError::OpenString),
            ("set info:name \"open\\", MessageError::OpenString),
            ("4 state <1,,2>", MessageError::BadBoard("<1,,2>".into())),
            ("4 state <1,2", MessageError::BadBoard("<1,2".into())),
            ("4 state <1,-2>", MessageError::BadBoard("<1,-2>".into())),
            ("4 state <99999999999>", MessageError::BadBoard("<99999999999>".into())),
            ("move 1.", MessageError::BadArg("1.".into())),
            ("move a_b", MessageError::BadArg("a_b".into())),
            ("move 99999999999999999999", MessageError::BadArg("99999999999999999999".into())),
        ] {
            assert_eq!(line.parse::<Message>(), Err(want), "{line:?}");
        }
        let long = format!("set info:name \"{}\"", "x".repeat(MAX_LINE));
        assert!(matches!(long.parse::<Message>(), Err(MessageError::TooLong(_))));
        for e in [MessageError::BadArg("x".into()), MessageError::TooLong(20000)] {
            assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn malformed_lines_keep_their_id_for_the_answer() {
        assert_eq!(Message::id_of_malformed("14 st@te"), Some(14));
        assert_eq!(Message::id_of_malformed("14@2 state <1,"), Some(14));
        assert_eq!(Message::id_of_malformed("x state"), None);
        assert_eq!(Message::id_of_malformed("14"), None);
        assert_eq!(Message::id_of_malformed("@2 move x_"), None);
    }

    #[test]
    fn the_command_word_is_found_as_the_parser_finds_it() {
        for line in ["1 2mode ok", "ok", "14@3 ok <1,", "@2 move x_", "7", "error \"open", "  4  x  "] {
            let parsed = line.parse::<Message>().ok().map(|m| m.command);
            if let Some(command) = parsed {
                assert_eq!(Message::command_word(line), Some(command.as_str()), "{line:?}");
            }
        }
        assert_eq!(Message::command_word("1 2mode ok"), Some("2mode"));
        assert_eq!(Message::command_word("14@3 ok <1,"), Some("ok"));
        assert_eq!(Message::command_word("error \"open"), Some("error"));
        assert_eq!(Message::command_word("7"), Some("7"));
        assert_eq!(Message::command_word(" \t "), None);
    }
}
