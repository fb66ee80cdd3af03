//! One server an SQLite file, and only a file it can write.
//!
//! Two processes writing one SQLite file would each hold their own copy of a game in memory and
//! store changes the other never sees (PostgreSQL is the database for several servers), so a
//! server holds an OS lock (`flock`, Windows' `LockFileEx`; the crate fs4) on a lock file beside the database,
//! `FILE.lock`, for as long as it runs. The system releases the lock when the process ends, even
//! by `kill -9`, so a lock is never stale. The lock file is created empty and never written:
//! it is only a handle to lock (the database's own file is not locked, because SQLite's POSIX
//! locks on it are dropped when any handle of the process on that file is closed, and because
//! `flock` on NFS is emulated with those very locks). Deleting it at the end would let two
//! servers lock two different files of one name, so it stays.
//!
//! Who holds the file is written in the database's table `holder` (its process, since when, and
//! the address it serves once it listens), so that a second server can say whom it found. The
//! first of these writes is also the start's write probe: a database this process may read but
//! not write (a read-only file, which SQLite opens read-only without a word, or a folder that
//! refuses the write-ahead log) is refused at the start rather than at the first move.

use std::fs::{File, OpenOptions};

use fs4::TryLockError;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

use crate::event::Moment;
use crate::store::StoreError;

/// The server that holds an SQLite file, as it wrote itself in the table `holder`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Holder {
    /// Its process id.
    pub pid: u32,
    /// The address it listens on, once it listens (`127.0.0.1:8080`).
    pub address: Option<String>,
    /// When it took the file.
    pub since: Moment,
}

impl std::fmt::Display for Holder {
    /// Writes `process 1234 serving 127.0.0.1:8080 since 2026.05.01 12:00:00 UTC`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "process {}", self.pid)?;
        match &self.address {
            Some(address) => write!(f, " serving {address}")?,
            None => f.write_str(" (not listening yet)")?,
        }
        let seconds = self.since.0 / 1000;
        let day = seconds % 86_400;
        write!(
            f,
            " since {} {:02}:{:02}:{:02} UTC",
            kalah_rules::record::date_text(seconds),
            day / 3600,
            day / 60 % 60,
            day % 60
        )
    }
}

/// The lock file of the SQLite file `database`: `FILE.lock` beside it.
pub fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".lock");
    database.with_file_name(name)
}

/// Takes the lock of the SQLite file `database` for as long as the returned file is open.
///
/// # Errors
/// [`StoreError::Held`] when another process holds it (with whom it found, if that one wrote
/// itself down yet); [`StoreError::Unwritable`] when the lock file cannot be made.
pub(crate) fn lock(database: &Path) -> Result<File, StoreError> {
    let path = lock_path(database);
    let unwritable = |why: String| StoreError::Unwritable { database: database.display().to_string(), why };
    let file = match OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path) {
        Ok(file) => file,
        // A lock file made before, in a folder or as a file this user may no longer write, still
        // locks when opened for reading; the database's own check then says what is wrong.
        Err(e) if path.is_file() => File::open(&path)
            .map_err(|_| unwritable(format!("its lock file {} cannot be opened: {e}", path.display())))?,
        Err(e) => return Err(unwritable(format!("its lock file {} cannot be made: {e}", path.display()))),
    };
    // Through fs4's trait by name: std's own `File::try_lock` needs Rust 1.89 (the workspace's
    // rust-version is 1.85), and would be picked before the trait's method.
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => {
            Err(StoreError::Held { database: database.to_path_buf(), holder: read(database).map(Box::new) })
        }
        Err(TryLockError::Error(e)) => Err(StoreError::Lock { file: path, why: e.to_string() }),
    }
}

/// Reads who holds `database` from its table `holder`, on a read-only connection; `None` if it
/// has not written itself down yet (it writes as soon as it has opened the file) or cannot be read.
fn read(database: &Path) -> Option<Holder> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(database, flags).ok()?;
    connection.busy_timeout(std::time::Duration::from_secs(1)).ok()?;
    connection
        .query_row("SELECT pid, address, since FROM holder WHERE id = 1", [], |row| {
            Ok(Holder { pid: row.get(0)?, address: row.get(1)?, since: Moment(row.get::<_, i64>(2)? as u64) })
        })
        .optional()
        .ok()
        .flatten()
}

/// Writes this process down as the holder (under the lock): the start's write probe.
pub(crate) fn record(connection: &Connection) -> Result<(), rusqlite::Error> {
    connection.execute(
        "INSERT OR REPLACE INTO holder (id, pid, address, since) VALUES (1, ?1, NULL, ?2)",
        params![std::process::id(), Moment::now().0 as i64],
    )?;
    Ok(())
}

/// Writes the address this process serves into its row of `holder`.
pub(crate) fn serving(connection: &Connection, address: &str) -> Result<(), rusqlite::Error> {
    connection
        .execute("UPDATE holder SET address = ?1 WHERE id = 1 AND pid = ?2", params![address, std::process::id()])?;
    Ok(())
}

impl crate::App {
    /// Writes down the address the server listens on (known only once it listens), so that a
    /// second server started on the same SQLite file can say whom it found there. Nothing to do
    /// for PostgreSQL, which several servers share.
    ///
    /// # Errors
    /// The database failed.
    pub fn serving(&self, address: std::net::SocketAddr) -> Result<(), StoreError> {
        self.games.store().serving(&address.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Database, Store};

    #[test]
    fn a_held_file_is_refused_with_its_holder_and_taken_once_released() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        let database = Database::Sqlite(path.clone());
        let store = Store::open(&database).unwrap();
        // Refused before the holder listens, then with the address it listens on.
        let Err(StoreError::Held { holder: Some(holder), .. }) = Store::open(&database) else { panic!("held") };
        assert_eq!((holder.pid, holder.address.as_deref()), (std::process::id(), None));
        store.serving("127.0.0.1:8080").unwrap();
        let refused = Store::open(&database).err().unwrap();
        let text = refused.to_string();
        let expected =
            format!("is held by another kalah serve (process {} serving 127.0.0.1:8080 since ", std::process::id());
        assert!(text.contains(&expected) && text.contains(" UTC)"), "{text}");
        assert_eq!(lock_path(&path), dir.path().join("games.sqlite.lock"));
        drop(store);
        Store::open(&database).unwrap();
    }

    #[test]
    fn the_holder_says_when_in_utc() {
        let holder =
            Holder { pid: 7, address: None, since: Moment(951_782_400_000 + 13 * 3_600_000 + 5 * 60_000 + 9_000) };
        assert_eq!(holder.to_string(), "process 7 (not listening yet) since 2000.02.29 13:05:09 UTC");
    }
}
