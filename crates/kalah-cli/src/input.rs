//! Reading input with a size limit: a file (a game record) and lines (the prompt of `kalah play`,
//! a protocol's messages).
//!
//! Nothing read here grows past its limit in memory: a huge file, `/dev/zero` or a line of
//! hundreds of megabytes is refused, or skipped, with one line saying so.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The largest game record read: a long game is a few kilobytes.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// The longest line read from standard input at the prompt.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Why a text file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file holds more than the limit.
    #[error("it is over {} (at most {limit} bytes are read)", size(*limit))]
    TooLarge {
        /// The most bytes read.
        limit: usize,
    },
    /// The file holds a NUL byte, so it is not text.
    #[error("it is not text: byte {offset} is a NUL byte")]
    Binary {
        /// Where the first NUL byte is, from 0.
        offset: usize,
    },
    /// The file is not UTF-8 text.
    #[error("it is not UTF-8 text: byte {offset} starts an invalid sequence")]
    NotUtf8 {
        /// Where the text stops being UTF-8, from 0.
        offset: usize,
    },
}

/// Writes a limit in bytes the way people say it: `1 MiB`, `64 KiB`, or bytes.
fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Reads the UTF-8 text of the file at `path`, refusing it as soon as it is seen to be longer
/// than `limit` bytes or to hold a NUL byte (so `/dev/zero` is refused after its first block).
pub fn read_text(path: &Path, limit: usize) -> Result<String, ReadError> {
    let file = File::open(path)?;
    let mut reader = file.take(limit as u64 + 1);
    let mut bytes = Vec::new();
    let mut block = [0u8; 8192];
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.into()),
        };
        if let Some(at) = block[..n].iter().position(|&b| b == 0) {
            return Err(ReadError::Binary { offset: bytes.len() + at });
        }
        bytes.extend_from_slice(&block[..n]);
        if bytes.len() > limit {
            return Err(ReadError::TooLarge { limit });
        }
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 { offset: e.utf8_error().valid_up_to() })
}

/// A line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its line end; bytes that are not UTF-8 are replaced.
    Text(String),
    /// A line longer than the limit: it was read to its end and thrown away.
    TooLong {
        /// The limit it went over, in bytes.
        limit: usize,
    },
    /// The end of the input.
    End,
}

/// Reads one line of at most `limit` bytes (the line end not counted) from `input`.
///
/// A longer line is read on to its end but not kept, so memory stays within the limit however
/// long the line is; it comes back as [`Line::TooLong`].
pub fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Line> {
    let mut kept = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (part, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        if !too_long {
            if kept.len() + part.len() > limit {
                too_long = true;
                kept = Vec::new();
            } else {
                kept.extend_from_slice(part);
            }
        }
        let used = part.len() + usize::from(ended);
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(Line::End);
    }
    if too_long {
        return Ok(Line::TooLong { limit });
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Line::Text(String::from_utf8_lossy(&kept).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn lines_within_the_limit_are_read_and_longer_ones_skipped() {
        let text = format!("one\r\n{}\nthree\n{}", "x".repeat(100), "y".repeat(100));
        // A small buffer makes the long lines span many reads.
        let mut input = BufReader::with_capacity(7, text.as_bytes());
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text("one".into()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::TooLong { limit: 10 });
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text("three".into()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::TooLong { limit: 10 });
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::End);
        let mut exact = "0123456789\n\n".as_bytes();
        assert_eq!(read_line(&mut exact, 10).unwrap(), Line::Text("0123456789".into()));
        assert_eq!(read_line(&mut exact, 10).unwrap(), Line::Text(String::new()));
        assert_eq!(read_line(&mut exact, 10).unwrap(), Line::End);
    }

    #[test]
    fn an_endless_line_is_skipped_without_being_kept() {
        // 200 MB of input without a line end, then a line: read through, never held.
        let endless = io::repeat(b'z').take(200 << 20).chain("next\n".as_bytes());
        let mut input = BufReader::new(endless);
        assert_eq!(read_line(&mut input, MAX_LINE_BYTES).unwrap(), Line::TooLong { limit: MAX_LINE_BYTES });
        assert_eq!(read_line(&mut input, MAX_LINE_BYTES).unwrap(), Line::End);
        let mut input = BufReader::new(io::repeat(b'z').take(1 << 20).chain("\nnext\n".as_bytes()));
        assert_eq!(read_line(&mut input, MAX_LINE_BYTES).unwrap(), Line::TooLong { limit: MAX_LINE_BYTES });
        assert_eq!(read_line(&mut input, MAX_LINE_BYTES).unwrap(), Line::Text("next".into()));
    }

    #[test]
    fn files_over_the_limit_binary_or_not_utf8_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record");
        std::fs::write(&path, "héllo").unwrap();
        assert_eq!(read_text(&path, 6).unwrap(), "héllo");
        assert!(matches!(read_text(&path, 5), Err(ReadError::TooLarge { limit: 5 })));
        std::fs::write(&path, b"ab\0cd").unwrap();
        assert!(matches!(read_text(&path, 100), Err(ReadError::Binary { offset: 2 })));
        std::fs::write(&path, b"ab\xffcd").unwrap();
        assert!(matches!(read_text(&path, 100), Err(ReadError::NotUtf8 { offset: 2 })));
        assert!(matches!(read_text(&dir.path().join("missing"), 100), Err(ReadError::Io(_))));
        assert!(matches!(read_text(dir.path(), 100), Err(ReadError::Io(_))), "a folder");
        assert_eq!(
            ReadError::TooLarge { limit: MAX_RECORD_BYTES }.to_string(),
            "it is over 1 MiB (at most 1048576 bytes are read)"
        );
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_at_its_first_block() {
        assert!(matches!(read_text(Path::new("/dev/zero"), MAX_RECORD_BYTES), Err(ReadError::Binary { offset: 0 })));
    }
}
