//! Writing files: the one rule for what may be replaced, and atomic writes, so that a crash, a
//! full disk or a killed process never leaves a half-written file where a good one was.
//!
//! A file is written only where there is nothing yet, or where a regular file of the same kind
//! ([`Kind`]) is, which the program wrote before and the user may write over: a game record, a
//! checkpoint, a manual page. Everything else is refused and left as it is ([`Refused`]): a
//! symbolic link (replacing it would cut it off from its target), a folder, a FIFO, a device or a
//! socket, a file of another kind, and a read-only file. A replaced file keeps its permissions.

use std::ffi::OsStr;
use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::bad;

/// Bytes read from the start of an existing file to tell its kind.
pub const HEAD_BYTES: usize = 4096;

/// Tells from a file's first bytes whether it is of a kind.
pub type Recognise<'a> = dyn Fn(&[u8]) -> bool + 'a;

/// The kind of file a command writes: what may stand where it writes.
#[derive(Clone, Copy)]
pub struct Kind<'a> {
    /// What such a file is, as in "notes.txt is not a kalah record".
    pub name: &'a str,
    /// Tells from a file's first [`HEAD_BYTES`] bytes whether it is of this kind and may be
    /// replaced; `None` for a command that writes only new files.
    pub recognise: Option<&'a Recognise<'a>>,
}

impl<'a> Kind<'a> {
    /// A kind of file that is only ever written new: any file already there is refused.
    pub const fn new_only(name: &'a str) -> Kind<'a> {
        Kind { name, recognise: None }
    }
}

/// What stands where a file is to be written, when it may be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing: the file is created.
    New,
    /// A regular, writable file of the kind: it is replaced, and the new file takes these permissions.
    Replaces(Permissions),
}

/// Why a file is not written; it is left as it is.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// A symbolic link.
    #[error("{} is a symbolic link; it is left untouched", path.display())]
    Link {
        /// The path given.
        path: PathBuf,
    },
    /// Something other than a regular file: a folder, a FIFO, a device, a socket.
    #[error("{} is {what}, not a regular file; it is left untouched", path.display())]
    NotAFile {
        /// The path given.
        path: PathBuf,
        /// What it is, with its article: "a folder".
        what: &'static str,
    },
    /// A regular file of another kind, or any file where only a new one is written.
    #[error("{} {}; it is left untouched", path.display(), match kind { Some(kind) => format!("is not {kind}"), None => "exists".to_string() })]
    Foreign {
        /// The path given.
        path: PathBuf,
        /// The kind that would have been replaced, or `None` where only a new file is written.
        kind: Option<String>,
    },
    /// A file without write permission.
    #[error("{} is read-only; it is left untouched", path.display())]
    ReadOnly {
        /// The path given.
        path: PathBuf,
    },
    /// The file system failed.
    // Not a `source`: the message holds it already, and an error chain would print it twice.
    #[error("{}: {cause}", path.display())]
    Io {
        /// The path given.
        path: PathBuf,
        /// What failed.
        cause: io::Error,
    },
}

impl Refused {
    /// Returns the error for the command line: a refusal is the user's input (status 2), a
    /// failure of the file system is not (status 1). `advice` says what is accepted instead.
    pub fn into_error(self, advice: &str) -> anyhow::Error {
        match self {
            Refused::Io { .. } => anyhow::Error::new(self),
            refusal => bad(format!("{refusal}: {advice}")),
        }
    }
}

/// Tells whether a file of `kind` may be written at `path`, and what it would replace.
///
/// # Errors
/// A [`Refused`] saying why not; nothing at `path` is changed.
pub fn check(path: &Path, kind: &Kind<'_>) -> Result<Target, Refused> {
    let io = |cause| Refused::Io { path: path.to_path_buf(), cause };
    let metadata = match fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::New),
        Err(e) => return Err(io(e)),
    };
    not_special(path, &metadata)?;
    let Some(recognise) = kind.recognise else {
        return Err(Refused::Foreign { path: path.to_path_buf(), kind: None });
    };
    // Opened without following a link and without waiting on a FIFO, then checked again through
    // the handle: what is read is what was looked at, even if the path changed meanwhile.
    let file = open(path, OpenOptions::new().read(true)).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    not_special(path, &metadata)?;
    let mut head = Vec::with_capacity(HEAD_BYTES);
    file.take(HEAD_BYTES as u64).read_to_end(&mut head).map_err(io)?;
    if !recognise(&head) {
        return Err(Refused::Foreign { path: path.to_path_buf(), kind: Some(kind.name.to_string()) });
    }
    // The mode bits say read-only even to root, who may write anything; opening for writing
    // (nothing is written) asks the system for everyone else.
    let writable = !metadata.permissions().readonly()
        && match open(path, OpenOptions::new().write(true)) {
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => false,
            Err(e) => return Err(io(e)),
        };
    if !writable {
        return Err(Refused::ReadOnly { path: path.to_path_buf() });
    }
    Ok(Target::Replaces(metadata.permissions()))
}

/// Refuses a symbolic link and anything that is not a regular file.
fn not_special(path: &Path, metadata: &Metadata) -> Result<(), Refused> {
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return Ok(());
    }
    if file_type.is_symlink() {
        return Err(Refused::Link { path: path.to_path_buf() });
    }
    let what = if file_type.is_dir() { "a folder" } else { special_name(&file_type) };
    Err(Refused::NotAFile { path: path.to_path_buf(), what })
}

/// Names a file type that is neither a file, a folder nor a link.
#[cfg(unix)]
fn special_name(file_type: &fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn special_name(_: &fs::FileType) -> &'static str {
    "not a file"
}

/// Opens `path` with `options`, never through a symbolic link and never waiting for a FIFO's
/// other end.
fn open(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Writes `contents` to `path` if [`check`] allows a file of `kind` there, atomically: into a
/// temporary file in the same folder, flushed to the disk, checked again and renamed over `path`.
/// Readers see the old file or the new one, never a mix; a replaced file's permissions are kept.
///
/// # Errors
/// A [`Refused`]; the temporary file is removed and `path` is left as it was.
pub fn replace(path: &Path, kind: &Kind<'_>, contents: &[u8]) -> Result<(), Refused> {
    through_temporary(path, kind, |target, _, temp| {
        let mut temp = temp;
        temp.write_all(contents)?;
        if let Target::Replaces(permissions) = target {
            temp.set_permissions(permissions)?;
        }
        temp.sync_all()
    })
}

/// Writes a new file at `path`, where nothing may stand yet ([`check`] with `kind`), atomically as
/// [`replace`]: `write` fills the empty temporary file in the same folder whose path it is given
/// (a writer that takes a path, as SQLite's `VACUUM INTO`), which is then flushed to the disk,
/// checked again and renamed to `path`.
///
/// # Errors
/// A [`Refused`], or `write`'s failure as [`Refused::Io`]; the temporary file is removed and
/// `path` is left as it was.
pub fn create<E: std::fmt::Display>(
    path: &Path,
    kind: &Kind<'_>,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), Refused> {
    through_temporary(path, kind, |_, temp_path, temp| {
        drop(temp);
        write(temp_path).map_err(|e| io::Error::other(e.to_string()))?;
        OpenOptions::new().write(true).open(temp_path)?.sync_all()
    })
}

/// Checks `path` for a file of `kind`, has `fill` write and flush a temporary file beside it
/// (given what [`check`] found, its path and the file open for writing), checks `path` again
/// (whatever was put there meanwhile is refused too) and renames the temporary over it. On any
/// failure the temporary is removed and `path` is left as it was.
fn through_temporary(
    path: &Path,
    kind: &Kind<'_>,
    fill: impl FnOnce(Target, &Path, File) -> io::Result<()>,
) -> Result<(), Refused> {
    let target = check(path, kind)?;
    let io = |cause| Refused::Io { path: path.to_path_buf(), cause };
    let name = path.file_name().ok_or_else(|| {
        io(io::Error::new(io::ErrorKind::InvalidInput, format!("{} does not name a file", path.display())))
    })?;
    // The temporary must be in the same directory: a rename is atomic only within one file system.
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (temp_path, temp) = create_temporary(dir, name).map_err(io)?;
    let written = fill(target, &temp_path, temp)
        .map_err(io)
        .and_then(|()| check(path, kind).map(drop))
        .and_then(|()| fs::rename(&temp_path, path).map_err(io));
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

    /// Files that start with `GAME`.
    const GAME: Kind<'static> = Kind { name: "a game", recognise: Some(&|head: &[u8]| head.starts_with(b"GAME")) };

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn writes_a_new_file_and_replaces_one_of_its_kind_without_leaving_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.kalah");
        replace(&path, &GAME, b"GAME first").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "GAME first");
        replace(&path, &GAME, b"GAME second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "GAME second");
        assert_eq!(entries(dir.path()), ["game.kalah"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.kalah");
        for mode in [0o600, 0o640, 0o664] {
            fs::write(&path, b"GAME old").unwrap();
            fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
            replace(&path, &GAME, b"GAME new").unwrap();
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, mode);
        }
    }

    #[test]
    fn files_of_another_kind_and_any_file_where_only_new_ones_go_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs::write(&path, b"my notes").unwrap();
        let refused = replace(&path, &GAME, b"GAME").unwrap_err();
        assert!(matches!(refused, Refused::Foreign { kind: Some(_), .. }), "{refused:?}");
        assert!(refused.to_string().ends_with("notes.txt is not a game; it is left untouched"), "{refused}");
        fs::write(&path, b"GAME of mine").unwrap();
        let refused = replace(&path, &Kind::new_only("a plan"), b"plan").unwrap_err();
        assert!(refused.to_string().ends_with("notes.txt exists; it is left untouched"), "{refused}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "GAME of mine");
        assert_eq!(entries(dir.path()), ["notes.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_folders_and_read_only_files_are_left_alone() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        fs::write(at("target"), b"GAME target").unwrap();
        symlink("target", at("link")).unwrap();
        symlink("nowhere", at("dangling")).unwrap();
        fs::create_dir(at("folder")).unwrap();
        assert!(std::process::Command::new("mkfifo").arg(at("fifo")).status().unwrap().success());
        fs::write(at("read-only"), b"GAME kept").unwrap();
        fs::set_permissions(at("read-only"), Permissions::from_mode(0o444)).unwrap();
        type Expected = fn(&Refused) -> bool;
        let cases: [(&str, Expected); 5] = [
            ("link", |r| matches!(r, Refused::Link { .. })),
            ("dangling", |r| matches!(r, Refused::Link { .. })),
            ("folder", |r| matches!(r, Refused::NotAFile { what: "a folder", .. })),
            ("fifo", |r| matches!(r, Refused::NotAFile { what: "a FIFO", .. })),
            ("read-only", |r| matches!(r, Refused::ReadOnly { .. })),
        ];
        for (name, expected) in cases {
            let refused = replace(&at(name), &GAME, b"GAME new").unwrap_err();
            assert!(expected(&refused), "{name}: {refused:?}");
            assert!(refused.to_string().ends_with("; it is left untouched"), "{refused}");
        }
        assert!(fs::symlink_metadata(at("link")).unwrap().file_type().is_symlink());
        assert!(fs::symlink_metadata(at("dangling")).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(at("target")).unwrap(), "GAME target");
        assert_eq!(fs::read_to_string(at("read-only")).unwrap(), "GAME kept");
        assert_eq!(entries(dir.path()), ["dangling", "fifo", "folder", "link", "read-only", "target"]);
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-dir").join("game.kalah");
        assert!(matches!(replace(&missing, &GAME, b"GAME"), Err(Refused::Io { .. })));
        assert_eq!(entries(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn a_file_made_by_a_writer_is_created_new_and_a_failed_one_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("copy");
        let new = Kind::new_only("a copy");
        create(&path, &new, |temporary| fs::write(temporary, b"copied")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "copied");
        let refused = create(&path, &new, |temporary| fs::write(temporary, b"again")).unwrap_err();
        assert!(refused.to_string().ends_with("copy exists; it is left untouched"), "{refused}");
        let failed = create(&dir.path().join("other"), &new, |_| Err("the source is gone")).unwrap_err();
        assert!(failed.to_string().ends_with("other: the source is gone"), "{failed}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "copied");
        assert_eq!(entries(dir.path()), ["copy"]);
    }

    #[test]
    fn a_path_without_a_file_name_is_refused() {
        let refused = replace(Path::new("/"), &GAME, b"GAME").unwrap_err();
        assert!(matches!(refused, Refused::NotAFile { what: "a folder", .. }), "{refused:?}");
    }
}
