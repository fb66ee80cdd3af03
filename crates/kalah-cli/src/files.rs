//! Writing files atomically, so that a crash, a full disk or a killed process never leaves a
//! half-written game record where a good one was.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Writes `contents` to `path` atomically: into a temporary file in the same directory, flushed to
/// the disk, then renamed over `path`. Readers see the old file or the new one, never a mix.
///
/// On an error the temporary file is removed and `path` is left as it was.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{} does not name a file", path.display()))
    })?;
    // The temporary must be in the same directory: a rename is atomic only within one file system.
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (temp_path, mut temp) = create_temporary(dir, name)?;
    let written = temp.write_all(contents).and_then(|()| temp.sync_all()).and_then(|()| fs::rename(&temp_path, path));
    if let Err(error) = written {
        let _ = fs::remove_file(&temp_path);
        return Err(error);
    }
    sync_directory(dir);
    Ok(())
}

/// Creates a new, empty temporary file in `dir` whose name starts from `name`.
fn create_temporary(dir: &Path, name: &OsStr) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    loop {
        let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp_name = format!(".{}.{}-{unique}.tmp", name.to_string_lossy(), std::process::id());
        let temp_path = dir.join(temp_name);
        // `create_new` refuses an existing file, so two writers can never share a temporary.
        match OpenOptions::new().write(true).create_new(true).open(&temp_path) {
            Ok(file) => return Ok((temp_path, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
}

/// Flushes the directory entry of a rename to the disk, where the system allows it.
///
/// Best effort: the file's contents are already safe, and some systems cannot open a directory.
fn sync_directory(dir: &Path) {
    if cfg!(unix) {
        if let Ok(handle) = File::open(dir) {
            let _ = handle.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn writes_a_new_file_and_replaces_an_old_one_without_leaving_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.kalah");
        write_atomically(&path, b"first").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "first");
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(entries(dir.path()), ["game.kalah"]);
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-dir").join("game.kalah");
        assert!(write_atomically(&missing, b"x").is_err());
        // Renaming a file over a directory fails after the temporary was written: it must go.
        let occupied = dir.path().join("occupied");
        fs::create_dir(&occupied).unwrap();
        fs::write(occupied.join("inside"), b"keep").unwrap();
        assert!(write_atomically(&occupied, b"x").is_err());
        assert_eq!(entries(dir.path()), ["occupied"]);
        assert_eq!(fs::read_to_string(occupied.join("inside")).unwrap(), "keep");
    }

    #[test]
    fn a_path_without_a_file_name_is_refused() {
        assert_eq!(write_atomically(Path::new(".."), b"x").unwrap_err().kind(), io::ErrorKind::InvalidInput);
    }
}
