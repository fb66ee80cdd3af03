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
//! | 8 | the proven bounds on the value so far, lower then upper, `i32` each (hundredths of a seed, mover's view: whole seeds, converted here and only here) |
//! | 8 | nodes searched so far, `u64` |
//! | 8 | number of table slots, `u64` |
//! | 16 each | the slots: key word `u64`, data word `u64` (see [`kalah_engine::proof::ProofTable`]) |
//! | 4 | CRC-32 of everything before it |
//!
//! A table can take gigabytes, so it is streamed to and from the file, never copied in memory.
//! A file is written to a temporary file beside it (`NAME.tmpPID`), synced and renamed into
//! place; it is read twice, once to check its checksum and once to load it, so a damaged file
//! never reaches the table.
//!
//! # Which files are touched
//!
//! A solve claims its checkpoint file before it starts ([`CheckpointFile::claim`]), and only
//! through the [`CheckpointFile`] it gets back is the file read, replaced or removed:
//!
//! * no file: the solve starts afresh;
//! * a checkpoint of this very solve (same rules, same position): it is resumed, and replaced or
//!   removed later;
//! * a file that starts as a kalah checkpoint but is damaged: the solve starts afresh and may
//!   replace or remove it;
//! * anything else is refused and never touched: a file that is not a kalah checkpoint (a
//!   folder, an empty file, any other file), a checkpoint of another solve (the error names its
//!   rules and position), or one of a format version this program does not read.
//!
//! The file is checked again just before a save and before the removal at the end of a solve,
//! so a file put there while the solve ran is not lost either. Temporary files left by a run that
//! was killed while saving (`NAME.tmpPID` of a process that is gone, holding the start of a
//! checkpoint) are removed by the next claim of the same file.

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use kalah_rules::{Position, Rules};
use thiserror::Error;

use kalah_engine::proof::ProofTable;
use kalah_engine::score::{Bounds, Seeds};

const MAGIC: &[u8; 8] = b"KALAHCKP";
const VERSION: u16 = 2;
/// Bytes read or written at a time.
const CHUNK: usize = 1 << 20;
/// Bytes read to find the header: the magic, the version and two short texts.
const HEADER_READ: usize = 4096;
/// Marks a temporary file: `NAME.tmpPID`.
const TEMP_MARK: &str = ".tmp";

/// How far a stopped solve got (the table itself goes with it to and from the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The rules of the solve.
    pub rules: Rules,
    /// The position being solved.
    pub position: Position,
    /// The proven bounds on the value when the solve stopped, for the side to move.
    pub bounds: Bounds,
    /// Nodes searched before the stop.
    pub nodes: u64,
}

/// What is wrong with a damaged checkpoint: a file that starts as a kalah checkpoint but cannot
/// be used.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum Damage {
    /// The file ends before its header or its slots do.
    #[error("it is cut short")]
    TooShort,
    /// The checksum at the end does not match the contents.
    #[error("its checksum does not match its contents")]
    Checksum,
    /// The rules in the header cannot be read.
    #[error("its rules cannot be read")]
    Rules,
    /// The position in the header cannot be read.
    #[error("its position cannot be read")]
    Position,
    /// The slot count does not match the file's length.
    #[error("its slot count does not match its length")]
    SlotCount,
    /// The bounds in the header are not whole seeds, lower then upper.
    #[error("its bounds are not whole seeds in order")]
    Bounds,
}

/// Why a checkpoint file cannot be claimed, read, written or removed.
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
    /// Something other than a kalah checkpoint is there: it is never read further, replaced or removed.
    #[error("{path} is not a kalah checkpoint; it is left untouched: choose another checkpoint file")]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// The checkpoint of another solve is there: it is left for that solve.
    #[error("{path} is the checkpoint of another solve ({rules}, position {position}); it is left untouched: choose another checkpoint file")]
    OtherSolve {
        /// The file.
        path: PathBuf,
        /// The rules of the solve it belongs to.
        rules: Rules,
        /// The position of the solve it belongs to.
        position: Position,
    },
    /// A kalah checkpoint of a format version this program does not read.
    #[error("{path} is a kalah checkpoint of format version {found}, which this program cannot resume (it reads version {supported}); it is left untouched: choose another checkpoint file")]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u16,
        /// The version read here.
        supported: u16,
    },
    /// The file starts as a kalah checkpoint but is damaged.
    #[error("checkpoint {path} is damaged: {damage}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        damage: Damage,
    },
}

/// Returns a stable 64-bit name for `text` (FNV-1a): it names a solve's checkpoint file and a
/// cluster's tree. A name, not a defence: the files' checksums guard against damage.
pub fn name_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// What a checkpoint file held when a solve claimed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// There was no file: the solve starts afresh.
    Fresh,
    /// A checkpoint of this solve, now loaded into the proof table: the solve resumes from it.
    Resumed(Checkpoint),
    /// A damaged kalah checkpoint: the solve starts afresh, and a save replaces it.
    Damaged(Damage),
}

/// A checkpoint file claimed by one solve (its rules and position): saved to, replaced and
/// removed only while it holds nothing, a checkpoint of that solve, or a damaged checkpoint.
#[derive(Clone, Debug)]
pub struct CheckpointFile {
    path: PathBuf,
    rules: Rules,
    position: Position,
}

/// What a look at a file's header found there.
enum Found {
    Nothing,
    ThisSolve,
    Damaged(Damage),
}

impl CheckpointFile {
    /// Claims `path` as the checkpoint of the solve of `position` under `rules`, and loads it
    /// into `proofs` if it is a checkpoint of this solve.
    ///
    /// Temporary files of killed runs beside it are removed first.
    ///
    /// # Errors
    /// [`CheckpointError::NotACheckpoint`], [`CheckpointError::OtherSolve`] and
    /// [`CheckpointError::Version`] when the file is not this solve's to use (it is left as it
    /// is), [`CheckpointError::Io`] when it cannot be read. A damaged checkpoint is not an
    /// error: it is [`Claim::Damaged`], and the table is left empty.
    pub fn claim(
        path: &Path,
        rules: &Rules,
        position: &Position,
        proofs: &ProofTable,
    ) -> Result<(CheckpointFile, Claim), CheckpointError> {
        let file = CheckpointFile { path: path.to_path_buf(), rules: *rules, position: *position };
        file.remove_stale_temps();
        let claim = match file.look()? {
            Found::Nothing => Claim::Fresh,
            Found::Damaged(damage) => Claim::Damaged(damage),
            Found::ThisSolve => match file.load(proofs) {
                Ok(checkpoint) => Claim::Resumed(checkpoint),
                Err(CheckpointError::Damaged { damage, .. }) => Claim::Damaged(damage),
                Err(error) => return Err(error),
            },
        };
        Ok((file, claim))
    }

    /// Returns the file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the bounds, the nodes and the filled slots of `proofs` to the file atomically, if
    /// the file still holds nothing, a checkpoint of this solve or a damaged checkpoint.
    ///
    /// # Errors
    /// A refusal as for [`CheckpointFile::claim`] if another file was put there meanwhile (it is
    /// left as it is), or [`CheckpointError::Io`].
    pub fn save(&self, bounds: Bounds, nodes: u64, proofs: &ProofTable) -> Result<(), CheckpointError> {
        self.look()?;
        let checkpoint = Checkpoint { rules: self.rules, position: self.position, bounds, nodes };
        checkpoint.write(&self.path, proofs)
    }

    /// Removes the file at the end of the solve if it holds a checkpoint of this solve or a
    /// damaged checkpoint; returns whether there was one to remove.
    ///
    /// # Errors
    /// A refusal as for [`CheckpointFile::claim`] if another file was put there meanwhile (it is
    /// left as it is), or [`CheckpointError::Io`].
    pub fn remove(&self) -> Result<bool, CheckpointError> {
        match self.look()? {
            Found::Nothing => Ok(false),
            Found::ThisSolve | Found::Damaged(_) => match fs::remove_file(&self.path) {
                Ok(()) => Ok(true),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
                Err(source) => Err(CheckpointError::Io { path: self.path.clone(), source }),
            },
        }
    }

    /// Looks at what the file holds, from its header: an error for anything this solve may not touch.
    fn look(&self) -> Result<Found, CheckpointError> {
        let path = &self.path;
        let io = |source| CheckpointError::Io { path: path.clone(), source };
        let metadata = match fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
            Err(e) => return Err(io(e)),
        };
        if !metadata.is_file() {
            return Err(CheckpointError::NotACheckpoint { path: path.clone() });
        }
        let mut head = Vec::with_capacity(HEADER_READ);
        fs::File::open(path).and_then(|f| f.take(HEADER_READ as u64).read_to_end(&mut head)).map_err(io)?;
        let header = match Header::read(&head) {
            Ok(header) => header,
            Err(HeaderError::NotACheckpoint) => return Err(CheckpointError::NotACheckpoint { path: path.clone() }),
            Err(HeaderError::Version(found)) => {
                return Err(CheckpointError::Version { path: path.clone(), found, supported: VERSION })
            }
            Err(HeaderError::Damaged(damage)) => return Ok(Found::Damaged(damage)),
        };
        if header.rules != self.rules || header.position != self.position {
            return Err(CheckpointError::OtherSolve {
                path: path.clone(),
                rules: header.rules,
                position: header.position,
            });
        }
        Ok(Found::ThisSolve)
    }

    /// Reads the checkpoint, checksum first, and loads its slots into `proofs`.
    fn load(&self, proofs: &ProofTable) -> Result<Checkpoint, CheckpointError> {
        let path = &self.path;
        let io = |source| CheckpointError::Io { path: path.clone(), source };
        let damaged = |damage| CheckpointError::Damaged { path: path.clone(), damage };
        let length = fs::metadata(path).map_err(io)?.len();
        if length < 4 {
            return Err(damaged(Damage::TooShort));
        }
        let body = length - 4;
        let mut file = BufReader::with_capacity(CHUNK, fs::File::open(path).map_err(io)?);
        let mut sum = crc32fast::Hasher::new();
        let mut left = body;
        let mut buffer = vec![0u8; CHUNK];
        let cut = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                damaged(Damage::TooShort)
            } else {
                io(e)
            }
        };
        while left > 0 {
            let n = left.min(CHUNK as u64) as usize;
            file.read_exact(&mut buffer[..n]).map_err(cut)?;
            sum.update(&buffer[..n]);
            left -= n as u64;
        }
        let mut stored = [0u8; 4];
        file.read_exact(&mut stored).map_err(cut)?;
        if sum.finalize().to_le_bytes() != stored {
            return Err(damaged(Damage::Checksum));
        }
        // The checksum holds: read it again, the header first.
        let mut file = BufReader::with_capacity(CHUNK, fs::File::open(path).map_err(io)?);
        let mut head = vec![0u8; body.min(HEADER_READ as u64) as usize];
        file.read_exact(&mut head).map_err(cut)?;
        let header = Header::read(&head).map_err(|e| match e {
            HeaderError::Damaged(damage) => damaged(damage),
            HeaderError::NotACheckpoint => CheckpointError::NotACheckpoint { path: path.clone() },
            HeaderError::Version(found) => CheckpointError::Version { path: path.clone(), found, supported: VERSION },
        })?;
        if header.rules != self.rules || header.position != self.position {
            return Err(CheckpointError::OtherSolve {
                path: path.clone(),
                rules: header.rules,
                position: header.position,
            });
        }
        if header.count.checked_mul(16) != Some(body - header.len as u64) {
            return Err(damaged(Damage::SlotCount));
        }
        // Slots may begin inside the header bytes already read: take those first.
        let mut pending = head[header.len..].to_vec();
        let mut left = header.count * 16 - pending.len() as u64;
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
            file.read_exact(&mut pending[at..]).map_err(cut)?;
            left -= n as u64;
        }
        Ok(Checkpoint { rules: header.rules, position: header.position, bounds: header.bounds, nodes: header.nodes })
    }

    /// Removes temporary files that saves of this file left when their process was killed:
    /// `NAME.tmpPID` (and `STEM.tmpPID`, as earlier versions named them) of a process that is
    /// gone (checked through `/proc`, so only where there is one), holding nothing but the start
    /// of a checkpoint.
    fn remove_stale_temps(&self) {
        let proc = Path::new("/proc");
        if !proc.join("self").exists() {
            return;
        }
        let (Some(name), Some(stem)) = (self.path.file_name(), self.path.file_stem()) else { return };
        let (Some(name), Some(stem)) = (name.to_str(), stem.to_str()) else { return };
        let folder = match self.path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let Ok(entries) = fs::read_dir(folder) else { return };
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(file_name) = file_name.to_str() else { continue };
            let pid = [name, stem]
                .iter()
                .find_map(|base| file_name.strip_prefix(base)?.strip_prefix(TEMP_MARK))
                .filter(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
            let Some(pid) = pid else { continue };
            if pid == std::process::id().to_string() || proc.join(pid).exists() {
                continue;
            }
            let mut start = Vec::with_capacity(MAGIC.len());
            let read = fs::File::open(entry.path()).and_then(|f| f.take(MAGIC.len() as u64).read_to_end(&mut start));
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if is_file && read.is_ok() && MAGIC.starts_with(&start) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// Returns where a save of `path` writes before it renames: `NAME.tmpPID` beside it.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!("{TEMP_MARK}{}", std::process::id()));
    path.with_file_name(name)
}

/// What a header says, or why it cannot be used.
struct Header {
    rules: Rules,
    position: Position,
    bounds: Bounds,
    nodes: u64,
    /// Slots after the header.
    count: u64,
    /// Bytes of the header.
    len: usize,
}

enum HeaderError {
    NotACheckpoint,
    Version(u16),
    Damaged(Damage),
}

impl Header {
    /// Reads a header from the first bytes of a file.
    fn read(bytes: &[u8]) -> Result<Header, HeaderError> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(MAGIC.len()) != Some(MAGIC.as_slice()) {
            return Err(HeaderError::NotACheckpoint);
        }
        let short = HeaderError::Damaged(Damage::TooShort);
        let version = reader.u16().ok_or(short)?;
        if version != VERSION {
            return Err(HeaderError::Version(version));
        }
        let rules_text = reader.text().ok_or(HeaderError::Damaged(Damage::TooShort))?;
        let rules: Rules = std::str::from_utf8(rules_text)
            .ok()
            .and_then(|text| text.parse().ok())
            .ok_or(HeaderError::Damaged(Damage::Rules))?;
        let position_text = reader.text().ok_or(HeaderError::Damaged(Damage::TooShort))?;
        let position = std::str::from_utf8(position_text)
            .ok()
            .and_then(|text| Position::parse(text, &rules).ok())
            .ok_or(HeaderError::Damaged(Damage::Position))?;
        let mut number = || reader.u64().ok_or(HeaderError::Damaged(Damage::TooShort));
        let bounds_word = number()?;
        // The file keeps hundredths of a seed, as the solver gave them when the format was made.
        let seeds = |hundredths: u64| Seeds::from_hundredths(hundredths as u32 as i32);
        let bounds = match (seeds(bounds_word), seeds(bounds_word >> 32)) {
            (Some(lower), Some(upper)) if lower <= upper => Bounds::new(lower, upper),
            _ => return Err(HeaderError::Damaged(Damage::Bounds)),
        };
        let nodes = number()?;
        let count = number()?;
        Ok(Header { rules, position, bounds, nodes, count, len: reader.at })
    }
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
    /// Writes the checkpoint and the filled slots of `proofs` to `path` atomically (through
    /// `NAME.tmpPID` beside it); only a [`CheckpointFile`] that checked `path` calls this.
    fn write(&self, path: &Path, proofs: &ProofTable) -> Result<(), CheckpointError> {
        let io = |source| CheckpointError::Io { path: path.to_path_buf(), source };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let temp = temp_path(path);
        let written = (|| {
            let file = fs::File::create(&temp)?;
            let mut out = Summing { inner: BufWriter::with_capacity(CHUNK, file), sum: crc32fast::Hasher::new() };
            out.write_all(MAGIC)?;
            out.write_all(&VERSION.to_le_bytes())?;
            for text in [self.rules.to_string(), self.position.to_string()] {
                out.write_all(&(text.len() as u16).to_le_bytes())?;
                out.write_all(text.as_bytes())?;
            }
            out.write_all(&self.bounds.lower.hundredths().to_le_bytes())?;
            out.write_all(&self.bounds.upper.hundredths().to_le_bytes())?;
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
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// Takes a text's bytes: its length, then the bytes (checked as UTF-8 by the caller).
    fn text(&mut self) -> Option<&[u8]> {
        let len = self.u16()? as usize;
        self.take(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::proof::Proof;
    use kalah_rules::Move;

    fn rules() -> Rules {
        Rules::standard(6, 4).unwrap()
    }

    fn table() -> ProofTable {
        let table = ProofTable::with_bytes(1 << 16);
        for key in 1..=500u64 {
            let proof = Proof { lower: -(key as i16 % 7), upper: key as i16 % 9, best: Move::from_number(3), work: 5 };
            table.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), proof);
        }
        table
    }

    /// A folder of its own under the system's temporary folder, removed when dropped.
    struct Folder(PathBuf);

    impl Folder {
        fn new(name: &str) -> Folder {
            let path = std::env::temp_dir().join(format!("kalah-ckpt-{}-{name}", std::process::id()));
            let _ = fs::remove_dir_all(&path);
            fs::create_dir_all(&path).unwrap();
            Folder(path)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn checkpoints_round_trip_and_damage_is_caught() {
        let folder = Folder::new("round-trip");
        let path = folder.0.join("a.ckpt");
        let (rules, start) = (rules(), Position::start(&rules()));
        let saved = table();
        let (file, claim) = CheckpointFile::claim(&path, &rules, &start, &ProofTable::with_bytes(1 << 16)).unwrap();
        assert_eq!(claim, Claim::Fresh);
        let bounds = Bounds::new(Seeds(-3), Seeds(8));
        file.save(bounds, 12345, &saved).unwrap();
        let loaded = ProofTable::with_bytes(1 << 16);
        let (file, claim) = CheckpointFile::claim(&path, &rules, &start, &loaded).unwrap();
        let expected = Checkpoint { rules, position: start, bounds, nodes: 12345 };
        assert_eq!(claim, Claim::Resumed(expected));
        let key = 7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert!(loaded.probe(key).is_some());
        assert_eq!(loaded.probe(key), saved.probe(key));
        assert_eq!(loaded.filled(), saved.filled());

        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let fresh = ProofTable::with_bytes(1 << 16);
        let (_, claim) = CheckpointFile::claim(&path, &rules, &start, &fresh).unwrap();
        assert_eq!(claim, Claim::Damaged(Damage::Checksum));
        assert_eq!(fresh.filled(), 0, "a damaged file loads nothing");
        fs::write(&path, &bytes[..20]).unwrap();
        let (_, claim) = CheckpointFile::claim(&path, &rules, &start, &fresh).unwrap();
        assert_eq!(claim, Claim::Damaged(Damage::TooShort));
        // A damaged checkpoint is replaced by a save, and removed at the end.
        file.save(Bounds::exact(Seeds(0)), 1, &saved).unwrap();
        assert!(matches!(CheckpointFile::claim(&path, &rules, &start, &fresh).unwrap().1, Claim::Resumed(_)));
        fs::write(&path, &bytes[..20]).unwrap();
        assert!(file.remove().unwrap());
        assert!(!path.exists());
        assert!(!file.remove().unwrap(), "nothing left to remove");
    }

    /// The bounds are kept in hundredths of a seed, as the first files of this format kept them;
    /// a file whose bounds are not whole seeds in order is damaged.
    #[test]
    fn the_bounds_are_kept_in_hundredths_and_must_be_whole_seeds() {
        let folder = Folder::new("bounds");
        let path = folder.0.join("b.ckpt");
        let (rules, start) = (rules(), Position::start(&rules()));
        let table = ProofTable::with_bytes(1 << 16);
        let (file, _) = CheckpointFile::claim(&path, &rules, &start, &table).unwrap();
        file.save(Bounds::new(Seeds(-3), Seeds(8)), 5, &table).unwrap();
        let bytes = fs::read(&path).unwrap();
        let at = 8 + 2 + 2 + rules.to_string().len() + 2 + start.to_string().len();
        assert_eq!(bytes[at..at + 8], [(-300i32).to_le_bytes(), 800i32.to_le_bytes()].concat());
        for (lower, upper) in [(-250, 800), (-300, 850), (800, -300)] {
            let mut changed = bytes.clone();
            changed[at..at + 4].copy_from_slice(&i32::to_le_bytes(lower));
            changed[at + 4..at + 8].copy_from_slice(&i32::to_le_bytes(upper));
            let body = changed.len() - 4;
            let sum = crc32fast::hash(&changed[..body]);
            changed[body..].copy_from_slice(&sum.to_le_bytes());
            fs::write(&path, &changed).unwrap();
            let (_, claim) = CheckpointFile::claim(&path, &rules, &start, &table).unwrap();
            assert_eq!(claim, Claim::Damaged(Damage::Bounds), "{lower} {upper}");
        }
    }

    /// Files that are not this solve's are refused by the claim, a save and a removal alike,
    /// and stay as they were.
    #[test]
    fn files_that_are_not_this_solves_checkpoint_are_never_touched() {
        let folder = Folder::new("refused");
        let (rules, start) = (rules(), Position::start(&rules()));
        let table = ProofTable::with_bytes(1 << 16);
        let other_path = folder.0.join("other.ckpt");
        let later = start.play_unchecked(&rules, Move::from_number(1).unwrap());
        let (other, _) = CheckpointFile::claim(&other_path, &rules, &later, &table).unwrap();
        other.save(Bounds::new(Seeds(-1), Seeds(1)), 7, &table).unwrap();
        let mut version = fs::read(&other_path).unwrap();
        version[8] = 9;
        let cases: [(&str, &[u8]); 5] = [
            ("notes.txt", b"data\n"),
            ("empty", b""),
            ("kalah-like", b"KALAHEG"),
            ("other.ckpt", &fs::read(&other_path).unwrap()),
            ("version.ckpt", &version),
        ];
        for (name, contents) in cases {
            let path = folder.0.join(name);
            fs::write(&path, contents).unwrap();
            let error = CheckpointFile::claim(&path, &rules, &start, &table).unwrap_err();
            match name {
                "other.ckpt" => {
                    assert!(matches!(&error, CheckpointError::OtherSolve { position, .. } if *position == later))
                }
                "version.ckpt" => assert!(matches!(error, CheckpointError::Version { found: 9, .. })),
                _ => assert!(matches!(error, CheckpointError::NotACheckpoint { .. }), "{name}: {error}"),
            }
            // A file put there after the claim is refused by the save and the removal.
            let unclaimed = folder.0.join(format!("{name}.later"));
            let (file, _) = CheckpointFile::claim(&unclaimed, &rules, &start, &table).unwrap();
            fs::write(&unclaimed, contents).unwrap();
            assert!(file.save(Bounds::exact(Seeds(0)), 1, &table).is_err(), "{name}");
            assert!(file.remove().is_err(), "{name}");
            assert_eq!(fs::read(&path).unwrap(), contents, "{name}");
            assert_eq!(fs::read(&unclaimed).unwrap(), contents, "{name}");
        }
        let error = CheckpointFile::claim(&folder.0, &rules, &start, &table).unwrap_err();
        assert!(matches!(error, CheckpointError::NotACheckpoint { .. }), "a folder: {error}");
        assert_eq!(fs::read_dir(&folder.0).unwrap().count(), 10, "no file was added or removed");
    }

    #[test]
    fn a_claim_removes_the_temporary_files_of_killed_runs_only() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let folder = Folder::new("temps");
        let path = folder.0.join("solve.ckpt");
        let write = |name: &str, contents: &[u8]| fs::write(folder.0.join(name), contents).unwrap();
        // Temporary files of a process that cannot exist (beyond any pid_max).
        write("solve.ckpt.tmp99999999", b"KALAHCKP and half a table");
        write("solve.tmp99999998", b"");
        // Files that are not such temporary files stay.
        let own = format!("solve.ckpt.tmp{}", std::process::id());
        let kept = ["solve.ckpt.tmp99999997", "other.ckpt.tmp99999999", "solve.ckpt.tmp-99999999", own.as_str()];
        write(kept[0], b"somebody's notes");
        write(kept[1], b"KALAHCKP of another file");
        write(kept[2], b"KALAHCKP");
        write(kept[3], b"KALAHCKP");
        CheckpointFile::claim(&path, &rules(), &Position::start(&rules()), &ProofTable::with_bytes(1 << 16)).unwrap();
        let mut left: Vec<String> =
            fs::read_dir(&folder.0).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        let mut expected: Vec<String> = kept.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(left, expected);
    }
}
