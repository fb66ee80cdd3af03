//! Checkpoints of a long solve: the transposition table and how far the search got, so that a
//! solve stopped with Ctrl-C resumes where it stopped.
//!
//! File format (all integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `KALAHCKP` |
//! | 2 | format version (1) |
//! | 2 + n | rules text: length `u16`, then UTF-8 (as `Rules` displays) |
//! | 2 + n | position text: length `u16`, then UTF-8 (the position notation) |
//! | 8 | the proven bounds on the value so far, lower then upper, `i32` each (hundredths of a seed, mover's view) |
//! | 8 | nodes searched so far, `u64` |
//! | 8 | number of table slots, `u64` |
//! | 16 each | the slots: key word `u64`, data word `u64` (see [`crate::tt`]) |
//! | 4 | CRC-32 of everything before it |
//!
//! Files are written to a temporary file, synced and renamed into place.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use kalah_rules::{Position, Rules};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"KALAHCKP";
const VERSION: u16 = 1;

/// How far a stopped solve got.
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
    /// The transposition table's slots.
    pub slots: Vec<(u64, u64)>,
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

impl Checkpoint {
    /// Writes the checkpoint to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |source| CheckpointError::Io { path: path.to_path_buf(), source };
        let mut bytes = Vec::with_capacity(64 + self.slots.len() * 16);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for text in [self.rules.to_string(), self.position.to_string()] {
            bytes.extend_from_slice(&(text.len() as u16).to_le_bytes());
            bytes.extend_from_slice(text.as_bytes());
        }
        bytes.extend_from_slice(&self.bounds.0.to_le_bytes());
        bytes.extend_from_slice(&self.bounds.1.to_le_bytes());
        bytes.extend_from_slice(&self.nodes.to_le_bytes());
        bytes.extend_from_slice(&(self.slots.len() as u64).to_le_bytes());
        for (key, data) in &self.slots {
            bytes.extend_from_slice(&key.to_le_bytes());
            bytes.extend_from_slice(&data.to_le_bytes());
        }
        bytes.extend_from_slice(&crc32fast::hash(&bytes).to_le_bytes());
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let temp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = (|| {
            let mut file = fs::File::create(&temp)?;
            file.write_all(&bytes)?;
            file.sync_all()?;
            fs::rename(&temp, path)
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(io)
    }

    /// Reads a checkpoint, checking its checksum and contents.
    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = fs::read(path).map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })?;
        let damaged = |why| CheckpointError::Damaged { path: path.to_path_buf(), why };
        if bytes.len() < 4 {
            return Err(damaged("too short"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != sum {
            return Err(damaged("the checksum does not match"));
        }
        let mut reader = Reader { bytes: body, at: 0 };
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
        if count.checked_mul(16) != Some((body.len() - reader.at) as u64) {
            return Err(damaged("the slot count does not match the length"));
        }
        let slots = (0..count).map(|_| (reader.u64().unwrap_or(0), reader.u64().unwrap_or(0))).collect();
        Ok(Checkpoint { rules, position, bounds: (lower, upper), nodes, slots })
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

    fn sample() -> Checkpoint {
        let rules = Rules::standard(6, 4).unwrap();
        Checkpoint {
            rules,
            position: Position::start(&rules),
            bounds: (-300, 800),
            nodes: 12345,
            slots: vec![(1, 2), (3, 4)],
        }
    }

    #[test]
    fn checkpoints_round_trip_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("kalah-ckpt-{}", std::process::id()));
        let path = dir.join("a.ckpt");
        sample().save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), sample());
        let mut bytes = fs::read(&path).unwrap();
        bytes[40] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(matches!(Checkpoint::load(&path), Err(CheckpointError::Damaged { .. })));
        fs::write(&path, &bytes[..10]).unwrap();
        assert!(matches!(Checkpoint::load(&path), Err(CheckpointError::Damaged { .. })));
        let _ = fs::remove_dir_all(dir);
    }
}
