//! The verified stamp: which layer files passed the full check (header, length, checksum), each
//! named with what identifies that very file on disk (size, inode, change and modification
//! times). A plain open checks only the header and length of a layer the stamp names unchanged,
//! so a process that opens a large database to analyse one position does not read all of it;
//! any change to a file (a rewrite, a rename over it, a `touch`, a `chmod`) changes its change
//! time, and the next open checks it in full again.
//!
//! The stamp is a small text file, `kalah-verified`, in the rules' folder, written atomically and
//! only over a stamp of this format: a file of that name that kalah did not write is neither
//! trusted nor replaced. A folder that cannot be written (a read-only share) keeps no stamp, and
//! every open there checks in full.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The stamp's file name, in the rules' folder.
pub const STAMP_FILE: &str = "kalah-verified";

/// The stamp's first line.
const FIRST_LINE: &str = "kalah egdb verified 1";

/// What identifies a file's contents on disk without reading them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    size: u64,
    inode: u64,
    changed: (i64, i64),
    modified: (i64, i64),
}

impl Identity {
    /// Returns the identity of the file at `path`, or `None` where the system does not give one.
    pub fn of(path: &Path) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = fs::metadata(path).ok()?;
            Some(Identity {
                size: m.size(),
                inode: m.ino(),
                changed: (m.ctime(), m.ctime_nsec()),
                modified: (m.mtime(), m.mtime_nsec()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            None
        }
    }

    fn to_line(self, name: &str) -> String {
        let Identity { size, inode, changed, modified } = self;
        format!("{name} {size} {inode} {}.{} {}.{}", changed.0, changed.1, modified.0, modified.1)
    }

    fn from_line(line: &str) -> Option<(String, Identity)> {
        let mut words = line.split(' ');
        let name = words.next()?.to_string();
        let size = words.next()?.parse().ok()?;
        let inode = words.next()?.parse().ok()?;
        let time = |word: Option<&str>| -> Option<(i64, i64)> {
            let (s, ns) = word?.split_once('.')?;
            Some((s.parse().ok()?, ns.parse().ok()?))
        };
        let changed = time(words.next())?;
        let modified = time(words.next())?;
        words.next().is_none().then_some((name, Identity { size, inode, changed, modified }))
    }
}

/// The layers of one rules' folder that passed the full check, as the stamp records them.
#[derive(Debug, Default)]
pub struct Stamp {
    verified: HashMap<String, Identity>,
    /// A stamp file of this format is there (or none is), so it may be written.
    writable: bool,
}

impl Stamp {
    /// Reads the stamp of the rules' folder `dir`; a missing, unreadable or foreign one trusts
    /// nothing.
    pub fn read(dir: &Path) -> Stamp {
        let path = dir.join(STAMP_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Stamp { writable: true, ..Stamp::default() },
            Err(_) => return Stamp::default(),
        };
        let mut lines = text.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Stamp::default();
        }
        Stamp { verified: lines.filter_map(Identity::from_line).collect(), writable: true }
    }

    /// Tells whether the layer file `name` passed the full check and is unchanged since.
    pub fn trusts(&self, name: &str, identity: Option<Identity>) -> bool {
        identity.is_some_and(|id| self.verified.get(name) == Some(&id))
    }

    /// Records that the layer file `name`, as it is now, passed the full check; returns whether
    /// that is news.
    pub fn add(&mut self, name: &str, identity: Option<Identity>) -> bool {
        match identity {
            Some(id) => self.verified.insert(name.to_string(), id) != Some(id),
            None => false,
        }
    }

    /// Writes the stamp into the rules' folder `dir` atomically, if it may; a failure (a
    /// read-only folder) only means the next open checks in full again.
    pub fn write(&self, dir: &Path) {
        if !self.writable {
            return;
        }
        let mut names: Vec<_> = self.verified.iter().collect();
        names.sort_by(|a, b| a.0.cmp(b.0));
        let mut text = format!("{FIRST_LINE}\n");
        for (name, id) in names {
            text.push_str(&id.to_line(name));
            text.push('\n');
        }
        let temp: PathBuf = dir.join(format!("{STAMP_FILE}.tmp{}", std::process::id()));
        let written =
            fs::File::create(&temp).and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()));
        if written.and_then(|()| fs::rename(&temp, dir.join(STAMP_FILE))).is_err() {
            let _ = fs::remove_file(&temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn a_stamp_round_trips_and_a_foreign_file_is_neither_trusted_nor_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let layer = dir.path().join("layer-000.egdb");
        fs::write(&layer, b"values").unwrap();
        let mut stamp = Stamp::read(dir.path());
        assert!(!stamp.trusts("layer-000.egdb", Identity::of(&layer)));
        assert!(stamp.add("layer-000.egdb", Identity::of(&layer)));
        stamp.write(dir.path());
        let again = Stamp::read(dir.path());
        assert!(again.trusts("layer-000.egdb", Identity::of(&layer)));
        // Any change to the file changes its identity.
        fs::write(&layer, b"VALUES").unwrap();
        assert!(!Stamp::read(dir.path()).trusts("layer-000.egdb", Identity::of(&layer)));
        // A file of the stamp's name that kalah did not write: not trusted, not replaced.
        fs::write(dir.path().join(STAMP_FILE), "my notes\n").unwrap();
        let mut foreign = Stamp::read(dir.path());
        foreign.add("layer-000.egdb", Identity::of(&layer));
        foreign.write(dir.path());
        assert_eq!(fs::read_to_string(dir.path().join(STAMP_FILE)).unwrap(), "my notes\n");
    }
}
