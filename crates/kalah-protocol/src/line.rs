//! Lines out of a byte stream, each kept to a limit: however long a line the other side sends,
//! at most `limit + 1` of its bytes are held (the `+ 1` is a `\r` that may turn out to end it).
//!
//! [`LineReader::push`] takes bytes as they come and hands back a [`Frame`] when a line ends;
//! [`LineReader::finish`] hands back an unterminated last line at the end of the stream;
//! [`LineReader::read_from`] does both over any [`BufRead`], for a program that reads a socket or
//! standard input.

use std::io::{self, BufRead};

/// One line of the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line within the limit, without its line end (`\n` or `\r\n`).
    Line(Vec<u8>),
    /// A line longer than the limit: read to its end, its start kept so that it can be named.
    TooLong {
        /// Its first `limit` bytes.
        start: Vec<u8>,
        /// Its whole length in bytes, without the line end.
        length: usize,
    },
}

/// Splits a byte stream into [`Frame`]s of at most `limit` bytes.
#[derive(Clone, Debug)]
pub struct LineReader {
    limit: usize,
    /// The first `limit + 1` bytes of the line read so far.
    kept: Vec<u8>,
    /// The bytes of the line read so far, kept or not.
    length: usize,
    /// The last byte read is a `\r`, which a `\n` would make part of the line end.
    cr: bool,
}

impl LineReader {
    /// Returns a reader of lines of at most `limit` bytes, line end not counted.
    pub fn new(limit: usize) -> LineReader {
        LineReader { limit, kept: Vec::new(), length: 0, cr: false }
    }

    /// Returns the longest line accepted.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Takes bytes from the start of `input` up to and including the first `\n`; returns how many
    /// it took and the line they ended, if they ended one.
    pub fn push(&mut self, input: &[u8]) -> (usize, Option<Frame>) {
        let (part, ended) = match input.iter().position(|&b| b == b'\n') {
            Some(at) => (&input[..at], true),
            None => (input, false),
        };
        let room = (self.limit + 1).saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&part[..part.len().min(room)]);
        self.length += part.len();
        if let Some(&last) = part.last() {
            self.cr = last == b'\r';
        }
        let used = part.len() + usize::from(ended);
        (used, ended.then(|| self.take()))
    }

    /// Ends the stream: returns its last line if it did not end in `\n`.
    pub fn finish(&mut self) -> Option<Frame> {
        (self.length > 0).then(|| self.take())
    }

    /// Reads the next line from `reader`; `None` at the end of the stream.
    pub fn read_from(&mut self, reader: &mut impl BufRead) -> io::Result<Option<Frame>> {
        loop {
            let available = match reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(self.finish());
            }
            let (used, frame) = self.push(available);
            reader.consume(used);
            if frame.is_some() {
                return Ok(frame);
            }
        }
    }

    fn take(&mut self) -> Frame {
        let mut kept = std::mem::take(&mut self.kept);
        let mut length = std::mem::take(&mut self.length);
        if std::mem::take(&mut self.cr) {
            length -= 1;
            kept.truncate(length);
        }
        if length > self.limit {
            kept.truncate(self.limit);
            Frame::TooLong { start: kept, length }
        } else {
            Frame::Line(kept)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Read};

    use super::*;

    fn frames(input: &[u8], limit: usize, capacity: usize) -> Vec<Frame> {
        let mut reader = BufReader::with_capacity(capacity, input);
        let mut lines = LineReader::new(limit);
        let mut found = Vec::new();
        while let Some(frame) = lines.read_from(&mut reader).unwrap() {
            found.push(frame);
        }
        found
    }

    fn line(text: &str) -> Frame {
        Frame::Line(text.as_bytes().to_vec())
    }

    #[test]
    fn lines_are_split_across_reads_and_lose_their_line_ends() {
        for capacity in [1, 2, 7, 4096] {
            let found = frames(b"kgp 1 0 1\r\n4 state <6,1>\n\n\r\nlast\r", 16, capacity);
            assert_eq!(found, [line("kgp 1 0 1"), line("4 state <6,1>"), line(""), line(""), line("last")]);
        }
        assert_eq!(frames(b"", 16, 7), []);
        assert_eq!(frames(b"a\rb\n", 16, 7), [line("a\rb")]);
    }

    #[test]
    fn a_line_at_the_limit_is_kept_and_one_past_it_is_too_long() {
        let exact = format!("{}\r\n{}\n", "x".repeat(10), "y".repeat(10));
        assert_eq!(frames(exact.as_bytes(), 10, 3), [line(&"x".repeat(10)), line(&"y".repeat(10))]);
        let over = format!("1 {}\r\n{}\r\nping\n", "x".repeat(9), "y".repeat(11));
        assert_eq!(
            frames(over.as_bytes(), 10, 3),
            [
                Frame::TooLong { start: b"1 xxxxxxxx".to_vec(), length: 11 },
                Frame::TooLong { start: "y".repeat(10).into_bytes(), length: 11 },
                line("ping")
            ]
        );
        // A last line without its line end is judged the same way.
        assert_eq!(frames(b"0123456789A", 10, 4), [Frame::TooLong { start: b"0123456789".to_vec(), length: 11 }]);
    }

    #[test]
    fn an_endless_line_is_read_through_without_being_held() {
        let limit = 64 << 10;
        let endless = io::repeat(b'z').take(100 << 20).chain(&b"\r\nnext\n"[..]);
        let mut reader = BufReader::new(endless);
        let mut lines = LineReader::new(limit);
        let mut pushes = 0;
        let frame = loop {
            let available = reader.fill_buf().unwrap();
            let (used, frame) = lines.push(available);
            reader.consume(used);
            pushes += 1;
            // Never more than the limit and a possible '\r' in memory, however long the line.
            assert!(lines.kept.len() <= limit + 1);
            if let Some(frame) = frame {
                break frame;
            }
        };
        assert!(pushes > 1000);
        let Frame::TooLong { start, length } = frame else { panic!("a line of 100 MiB is too long") };
        assert!(start.len() == limit && start.iter().all(|&b| b == b'z'));
        assert_eq!(length, 100 << 20);
        assert_eq!(lines.read_from(&mut reader).unwrap(), Some(line("next")));
        assert_eq!(lines.read_from(&mut reader).unwrap(), None);
    }

    #[test]
    fn a_read_error_after_a_line_leaves_the_line_whole() {
        struct Failing(Vec<u8>);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("gone"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
        let mut reader = BufReader::new(Failing(b"ping\n".to_vec()));
        let mut lines = LineReader::new(100);
        assert_eq!(lines.read_from(&mut reader).unwrap(), Some(line("ping")));
        assert!(lines.read_from(&mut reader).is_err());
    }
}
