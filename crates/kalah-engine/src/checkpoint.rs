//! Checkpoints of a long solve: the proof table and how far the search got, so that a solve
//! stopped with Ctrl-C resumes where it stopped.
//!
//! File format (all integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `KALAHCKP` |
//! | 2 | format version (2) |
//! | 2 + n | rules text: length `u16`, then UTF-8 (as `Rules` displays) |
//! | 2 + n | position text: length `u16`, then UTF-8 (the position notation) |
//! | 8 | the proven bounds on the value so far, lower then upper, `i32` each (hundredths of a seed, mover's view) |
//! | 8 | nodes searched so far, `u64` |
//! | 8 | number of table slots, `u64` |
//! | 16 each | the slots: key word `u64`, data word `u64` (see [`crate::solver::ProofTable`]) |
//! | 4 | CRC-32 of everything before it |
//!
//! A table can take gigabytes, so it is streamed to and from the file, never copied in memory.
//! Files are written to a temporary file, synced and renamed into place; a file is read twice,
//! once to check its checksum and once to load it, so a damaged file never reaches the table.

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use kalah_rules::{Position, Rules};
use thiserror::Error;

use crate::solver::ProofTable;

const MAGIC: &[u8; 8] = b"KALAHCKP";
const VERSION: u16 = 2;
/// Bytes read or written at a time.
const CHUNK: usize = 1 << 20;

/// How far a stopped solve got (the table itself goes with it to and from the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The rules of the solve.
    pub rules: Rules,
    /// The position being solved.
    pub position: Position,
    /// The proven (lower, upper) bounds on the value when the solve stopped.
    pub bounds: (i32, i32),
    /// Nodes searched before the stop.
    pub nodes: u64,
}

/// A checkpoint that cannot be written or read.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file system failed.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not a whole, valid checkpoint.
    #[error("checkpoint {path} is damaged ({why}); delete it to start the solve afresh")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: &'static str,
    },
}

/// A writer that keeps the CRC-32 of what passes through it.
struct Summing<W: Write> {
    inner: W,
    sum: crc32fast::Hasher,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.sum.update(&bytes[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl Checkpoint {
    /// Writes the checkpoint and the filled slots of `proofs` to `path` atomically.
    pub fn save(&self, path: &Path, proofs: &ProofTable) -> Result<(), CheckpointError> {
        let io = |source| CheckpointError::Io { path: path.to_path_buf(), source };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let temp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = (|| {
            let file = fs::File::create(&temp)?;
            let mut out = Summing { inner: BufWriter::with_capacity(CHUNK, file), sum: crc32fast::Hasher::new() };
            out.write_all(MAGIC)?;
            out.write_all(&VERSION.to_le_bytes())?;
            for text in [self.rules.to_string(), self.position.to_string()] {
                out.write_all(&(text.len() as u16).to_le_bytes())?;
                out.write_all(text.as_bytes())?;
            }
            out.write_all(&self.bounds.0.to_le_bytes())?;
            out.write_all(&self.bounds.1.to_le_bytes())?;
            out.write_all(&self.nodes.to_le_bytes())?;
            out.write_all(&proofs.filled().to_le_bytes())?;
            let mut failed = None;
            proofs.for_each(|key_word, data| {
                if failed.is_none() {
                    let mut slot = [0u8; 16];
                    slot[..8].copy_from_slice(&key_word.to_le_bytes());
                    slot[8..].copy_from_slice(&data.to_le_bytes());
                    failed = out.write_all(&slot).err();
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            let sum = out.sum.clone().finalize();
            let mut file = out.inner.into_inner().map_err(|e| e.into_error())?;
            file.write_all(&sum.to_le_bytes())?;
            file.sync_all()?;
            fs::rename(&temp, path)
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(io)
    }

    /// Reads a checkpoint; if `wanted` accepts it, loads its slots into `proofs` and returns it.
    ///
    /// The whole file's checksum is checked before anything is loaded. A checkpoint that
    /// `wanted` refuses (another solve's) is returned as `Ok(None)` and loads nothing.
    pub fn load(
        path: &Path,
        wanted: impl FnOnce(&Checkpoint) -> bool,
        proofs: &ProofTable,
    ) -> Result<Option<Checkpoint>, CheckpointError> {
        let io = |source| CheckpointError::Io { path: path.to_path_buf(), source };
        let damaged = |why| CheckpointError::Damaged { path: path.to_path_buf(), why };
        let length = fs::metadata(path).map_err(io)?.len();
        if length < 4 {
            return Err(damaged("too short"));
        }
        let body = length - 4;
        let mut file = BufReader::with_capacity(CHUNK, fs::File::open(path).map_err(io)?);
        let mut sum = crc32fast::Hasher::new();
        let mut left = body;
        let mut buffer = vec![0u8; CHUNK];
        while left > 0 {
            let n = left.min(CHUNK as u64) as usize;
            file.read_exact(&mut buffer[..n]).map_err(io)?;
            sum.update(&buffer[..n]);
            left -= n as u64;
        }
        let mut stored = [0u8; 4];
        file.read_exact(&mut stored).map_err(io)?;
        if sum.finalize().to_le_bytes() != stored {
            return Err(damaged("the checksum does not match"));
        }
        // The checksum holds: read it again, the header first.
        let mut file = BufReader::with_capacity(CHUNK, fs::File::open(path).map_err(io)?);
        let header_bytes = body.min(4096) as usize;
        let mut header = vec![0u8; header_bytes];
        file.read_exact(&mut header).map_err(io)?;
        let mut reader = Reader { bytes: &header, at: 0 };
        if reader.take(8).ok_or(damaged("too short"))? != MAGIC {
            return Err(damaged("not a kalah checkpoint"));
        }
        if reader.u16().ok_or(damaged("too short"))? != VERSION {
            return Err(damaged("an unknown format version"));
        }
        let rules: Rules = reader.text().ok_or(damaged("bad rules text"))?.parse().map_err(|_| damaged("bad rules"))?;
        let position = reader.text().and_then(|t| Position::parse(&t, &rules).ok()).ok_or(damaged("bad position"))?;
        let lower = reader.u32().ok_or(damaged("too short"))? as i32;
        let upper = reader.u32().ok_or(damaged("too short"))? as i32;
        let nodes = reader.u64().ok_or(damaged("too short"))?;
        let count = reader.u64().ok_or(damaged("too short"))?;
        let start = reader.at as u64;
        if count.checked_mul(16) != Some(body - start) {
            return Err(damaged("the slot count does not match the length"));
        }
        let checkpoint = Checkpoint { rules, position, bounds: (lower, upper), nodes };
        if !wanted(&checkpoint) {
            return Ok(None);
        }
        // Slots may begin inside the header bytes already read: take those first.
        let mut pending = header[reader.at..].to_vec();
        let mut left = count * 16 - pending.len() as u64;
        loop {
            let whole = pending.len() / 16 * 16;
            for slot in pending[..whole].chunks_exact(16) {
                let key_word = u64::from_le_bytes(slot[..8].try_into().expect("8 bytes"));
                let data = u64::from_le_bytes(slot[8..].try_into().expect("8 bytes"));
                proofs.import(&[(key_word, data)]);
            }
            pending.drain(..whole);
            if left == 0 {
                break;
            }
            let n = left.min(CHUNK as u64) as usize;
            let at = pending.len();
            pending.resize(at + n, 0);
            file.read_exact(&mut pending[at..]).map_err(io)?;
            left -= n as u64;
        }
        Ok(Some(checkpoint))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn text(&mut self) -> Option<String> {
        let len = self.u16()? as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Proof;
    use kalah_rules::Move;

    fn sample() -> Checkpoint {
        let rules = Rules::standard(6, 4).unwrap();
        Checkpoint { rules, position: Position::start(&rules), bounds: (-300, 800), nodes: 12345 }
    }

    fn table() -> ProofTable {
        let table = ProofTable::with_bytes(1 << 16);
        for key in 1..=500u64 {
            let proof = Proof { lower: -(key as i16 % 7), upper: key as i16 % 9, best: Move::from_number(3), work: 5 };
            table.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), proof);
        }
        table
    }

    #[test]
    fn checkpoints_round_trip_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("kalah-ckpt-{}", std::process::id()));
        let path = dir.join("a.ckpt");
        let saved = table();
        sample().save(&path, &saved).unwrap();
        let loaded = ProofTable::with_bytes(1 << 16);
        assert_eq!(Checkpoint::load(&path, |_| true, &loaded).unwrap(), Some(sample()));
        let key = 7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert_eq!(loaded.probe(key), saved.probe(key));
        assert!(loaded.probe(key).is_some());
        assert_eq!(loaded.filled(), saved.filled());
        // Another solve's checkpoint loads nothing.
        let untouched = ProofTable::with_bytes(1 << 16);
        assert_eq!(Checkpoint::load(&path, |_| false, &untouched).unwrap(), None);
        assert_eq!(untouched.filled(), 0);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let fresh = ProofTable::with_bytes(1 << 16);
        assert!(matches!(Checkpoint::load(&path, |_| true, &fresh), Err(CheckpointError::Damaged { .. })));
        assert_eq!(fresh.filled(), 0, "a damaged file loads nothing");
        fs::write(&path, &bytes[..10]).unwrap();
        assert!(matches!(Checkpoint::load(&path, |_| true, &fresh), Err(CheckpointError::Damaged { .. })));
        let _ = fs::remove_dir_all(dir);
    }
}
