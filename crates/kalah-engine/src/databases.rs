//! The one policy for attaching endgame databases to engines: which layers, within what memory.
//!
//! A front end names the folder of the databases and the memory they may take; the layers of
//! the rules' database are loaded from 0 up while they fit (layer 0 always), and what could not
//! be used is said in an [`Unused`] for the front end to show or not. No database for the rules,
//! or rules no database supports, are not worth a word: the engine searches without one.
//!
//! * [`open`]: one engine's database (the command line's `analyze`, `solve`, `mkagent`).
//! * [`Databases`]: the databases of many engines (the web server's pool, a match's players, a
//!   terminal game's players and hints): each variant's database opened once, the first time an
//!   engine needs it, within what the budget leaves, and shared after that; dropped with it.
//!
//! How much memory there is to spend is the front end's to say: a limit it was given, or what
//! this machine can spare now ([`spare_memory`], [`budget`]), as the command line and the Python
//! package reckon it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use kalah_rules::Rules;

use crate::egdb::{self, Egdb, EgdbError};
use crate::search::Oracle;

/// An amount of memory, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Memory(u64);

impl Memory {
    /// No limit.
    pub const UNLIMITED: Memory = Memory(u64::MAX);

    /// Returns `bytes` bytes.
    pub const fn bytes(bytes: u64) -> Memory {
        Memory(bytes)
    }

    /// Returns `mib` MiB (2^20 bytes each), or no limit past what a `u64` counts.
    pub const fn mib(mib: u64) -> Memory {
        Memory(mib.saturating_mul(1 << 20))
    }

    /// Returns the amount in bytes.
    pub const fn as_bytes(self) -> u64 {
        self.0
    }

    /// Returns what is left of this after `used`, or nothing.
    pub const fn saturating_sub(self, used: Memory) -> Memory {
        Memory(self.0.saturating_sub(used.0))
    }
}

impl fmt::Display for Memory {
    /// Writes whole MiB (`640 MiB`), bytes below one MiB, or `no limit`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            u64::MAX => f.write_str("no limit"),
            bytes if bytes >= 1 << 20 => write!(f, "{} MiB", bytes >> 20),
            bytes => write!(f, "{bytes} bytes"),
        }
    }
}

/// What of a database on disk could not be used.
#[derive(Debug, thiserror::Error)]
pub enum Unused {
    /// The layers above `loaded` would take the database past the memory it may take.
    #[error("endgame database: layers above {loaded} seeds left out to keep within {budget}")]
    OverBudget {
        /// The most seeds of the layers loaded.
        loaded: u32,
        /// The memory the database could take.
        budget: Memory,
    },
    /// A layer failed a check: the layers under it are used.
    #[error("endgame database: {error}; using layers up to {loaded} seeds")]
    Damaged {
        /// The most seeds of the layers loaded.
        loaded: u32,
        /// What is wrong with the layer above.
        error: EgdbError,
    },
    /// The database could not be opened at all.
    #[error("endgame database not used: {0}")]
    Failed(EgdbError),
}

/// A database attached for one set of rules: the oracle for the engine (none if there is no
/// database to use), and what of it could not be used.
#[derive(Debug, Default)]
pub struct Attached {
    /// The database, when one of the rules could be opened.
    pub oracle: Option<Arc<Egdb>>,
    /// What could not be used, if anything.
    pub unused: Option<Unused>,
}

impl Attached {
    /// Returns the database as the engine's oracle ([`crate::search::Options::oracle`]).
    pub fn engine_oracle(&self) -> Option<Arc<dyn Oracle>> {
        self.oracle.clone().map(|db| db as Arc<dyn Oracle>)
    }
}

/// Returns what this machine can spare now, nine tenths of the memory available to new processes
/// (`MemAvailable` on Linux), and that memory; `None` where it is not known.
pub fn spare_memory() -> Option<(Memory, Memory)> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let available = Memory::bytes(kib.saturating_mul(1024));
    // The tenth left over is for the rest of the process and the machine's other work.
    Some((Memory::bytes(available.as_bytes() / 10 * 9), available))
}

/// Returns what endgame databases may take beside engine tables of `tables`: `limit` (the tables
/// and the databases together), or without one what this machine can spare now
/// ([`spare_memory`]), less the tables; no limit when neither is known.
pub fn budget(limit: Option<Memory>, tables: Memory) -> Memory {
    limit.or_else(|| spare_memory().map(|(spare, _)| spare)).map_or(Memory::UNLIMITED, |l| l.saturating_sub(tables))
}

/// Opens the database of `rules` in the folder `dir`: its layers from 0 up while together they
/// take at most `budget` (layer 0 always).
///
/// ```
/// use kalah_engine::databases::{self, Memory};
/// use kalah_rules::Rules;
/// // No database in an empty folder: nothing attached, and nothing to say.
/// let attached = databases::open(&Rules::default(), &std::env::temp_dir().join("no-kalah-egdb-here"), Memory::UNLIMITED);
/// assert!(attached.oracle.is_none() && attached.unused.is_none());
/// ```
pub fn open(rules: &Rules, dir: &Path, budget: Memory) -> Attached {
    if egdb::supports(rules).is_err() {
        return Attached::default();
    }
    match Egdb::open_within(dir, rules, egdb::MAX_SEEDS, budget.as_bytes()) {
        Ok(mut db) => {
            let loaded = db.max_seeds();
            let unused = match db.take_issue() {
                Some(error) => Some(Unused::Damaged { loaded, error }),
                // Loading stops below a layer on disk only when it is damaged or over the budget.
                None if loaded < egdb::MAX_SEEDS && egdb::layer_path(dir, rules, loaded + 1).is_file() => {
                    Some(Unused::OverBudget { loaded, budget })
                }
                None => None,
            };
            Attached { oracle: Some(Arc::new(db)), unused }
        }
        // No database yet is normal: the engine works without one.
        Err(EgdbError::NoDatabase { .. }) => Attached::default(),
        Err(error) => Attached { oracle: None, unused: Some(Unused::Failed(error)) },
    }
}

/// The endgame databases of many engines: a folder and the memory they may take together.
///
/// Each variant's database is opened the first time an engine asks for rules it serves, within
/// what the databases opened before left of the budget, and shared with every engine that asks
/// after that. The memory is given back when the `Databases` is dropped.
#[derive(Debug)]
pub struct Databases {
    dir: PathBuf,
    budget: Memory,
    /// The rules asked for so far, each with its database (`None`: none to use).
    opened: Mutex<Vec<(Rules, Option<Arc<Egdb>>)>>,
}

impl Databases {
    /// Returns the databases in the folder `dir`, taking at most `budget` together.
    pub fn new(dir: impl Into<PathBuf>, budget: Memory) -> Databases {
        Databases { dir: dir.into(), budget, opened: Mutex::new(Vec::new()) }
    }

    /// Returns the folder of the databases.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Returns the database for `rules`, opening it if no engine asked for its variant before.
    /// What could not be used is told to the ask that opened it; later asks share the oracle.
    pub fn attach(&self, rules: &Rules) -> Attached {
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        let known = opened.iter().find(|(asked, db)| asked == rules || db.as_ref().is_some_and(|db| db.matches(rules)));
        if let Some((_, db)) = known {
            return Attached { oracle: db.clone(), unused: None };
        }
        let used = opened.iter().filter_map(|(_, db)| db.as_ref()).map(|db| db.memory_bytes() as u64).sum();
        let attached = open(rules, &self.dir, self.budget.saturating_sub(Memory::bytes(used)));
        opened.push((*rules, attached.oracle.clone()));
        attached
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Position;

    /// Builds layers 0..=`seeds` of `rules` in a new temporary folder.
    fn built(rules: &Rules, seeds: u32) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        egdb::build(dir.path(), rules, seeds, &egdb::BuildOptions { threads: 1 }, &mut |_| {}).unwrap();
        dir
    }

    /// The bytes layers 0..=`seeds` take on disk.
    fn on_disk(dir: &Path, rules: &Rules, seeds: u32) -> u64 {
        (0..=seeds).map(|k| std::fs::metadata(egdb::layer_path(dir, rules, k)).unwrap().len()).sum()
    }

    #[test]
    fn the_layers_that_fit_are_loaded_and_the_rest_is_named() {
        let rules = Rules::standard(3, 3).unwrap();
        let dir = built(&rules, 6);
        let whole = open(&rules, dir.path(), Memory::UNLIMITED);
        assert_eq!(whole.oracle.as_ref().map(|db| db.max_seeds()), Some(6));
        assert!(whole.unused.is_none(), "{:?}", whole.unused);
        // A budget that holds layers 0-4 exactly.
        let budget = Memory::bytes(on_disk(dir.path(), &rules, 4));
        let part = open(&rules, dir.path(), budget);
        assert_eq!(part.oracle.as_ref().map(|db| db.max_seeds()), Some(4));
        assert!(matches!(part.unused, Some(Unused::OverBudget { loaded: 4, budget: b }) if b == budget));
        let note = part.unused.unwrap().to_string();
        assert!(note.starts_with("endgame database: layers above 4 seeds left out to keep within"), "{note}");
        // Layer 0 is always loaded.
        assert_eq!(open(&rules, dir.path(), Memory::bytes(0)).oracle.map(|db| db.max_seeds()), Some(0));
        let position = Position::parse("1,0,0:8/0,0,1:8/S", &rules).unwrap();
        assert!(whole.engine_oracle().unwrap().probe(&position).is_some());
    }

    #[test]
    fn a_damaged_layer_leaves_the_ones_under_it_and_says_why() {
        let rules = Rules::standard(3, 3).unwrap();
        let dir = built(&rules, 5);
        let path = egdb::layer_path(dir.path(), &rules, 3);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        let attached = open(&rules, dir.path(), Memory::UNLIMITED);
        assert_eq!(attached.oracle.as_ref().map(|db| db.max_seeds()), Some(2));
        let Some(unused @ Unused::Damaged { loaded: 2, .. }) = &attached.unused else {
            panic!("{:?}", attached.unused)
        };
        let note = unused.to_string();
        assert!(note.contains("truncated") && note.ends_with("; using layers up to 2 seeds"), "{note}");
        // Layer 0 damaged: nothing to use, and why.
        std::fs::write(egdb::layer_path(dir.path(), &rules, 0), b"not a layer").unwrap();
        let failed = open(&rules, dir.path(), Memory::UNLIMITED);
        assert!(failed.oracle.is_none());
        assert!(matches!(failed.unused, Some(Unused::Failed(_))), "{:?}", failed.unused);
        assert!(failed.unused.unwrap().to_string().starts_with("endgame database not used: "));
    }

    #[test]
    fn missing_or_unsupported_databases_are_not_worth_a_word() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            open(&Rules::default(), dir.path(), Memory::UNLIMITED),
            Attached { oracle: None, unused: None }
        ));
        let mut majority = Rules::default();
        majority.majority_ends = true;
        assert!(egdb::supports(&majority).is_err());
        assert!(matches!(open(&majority, dir.path(), Memory::UNLIMITED), Attached { oracle: None, unused: None }));
    }

    #[test]
    fn each_variant_opens_once_and_is_shared_within_one_budget() {
        let three = Rules::standard(3, 3).unwrap();
        let four = Rules::standard(4, 2).unwrap();
        let dir = built(&three, 6);
        egdb::build(dir.path(), &four, 8, &egdb::BuildOptions { threads: 1 }, &mut |_| {}).unwrap();
        let databases = Databases::new(dir.path(), Memory::UNLIMITED);
        let first = databases.attach(&three).oracle.unwrap();
        // Another seed count and the pie rule share the database of the variant.
        let mut pie = Rules::standard(3, 5).unwrap();
        pie.pie = true;
        let again = databases.attach(&pie).oracle.unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(databases.attach(&four).oracle.map(|db| (db.houses(), db.max_seeds())), Some((4, 8)));
        // What the first database takes is not there for the next.
        let small = Databases::new(dir.path(), Memory::bytes(on_disk(dir.path(), &three, 6)));
        assert_eq!(small.attach(&three).oracle.map(|db| db.max_seeds()), Some(6));
        let squeezed = small.attach(&four);
        // Layers 0-8 of four houses take several times what layers 0-6 of three houses take.
        assert!(squeezed.oracle.is_some_and(|db| db.max_seeds() < 8), "the layers above are left out");
        assert!(matches!(squeezed.unused, Some(Unused::OverBudget { .. })), "{:?}", squeezed.unused);
        assert!(small.attach(&four).unused.is_none(), "said once, when opened");
        assert_eq!(Memory::mib(640).to_string(), "640 MiB");
        assert_eq!(budget(Some(Memory::mib(100)), Memory::mib(64)), Memory::mib(36));
        assert_eq!(budget(Some(Memory::mib(10)), Memory::mib(64)), Memory::bytes(0));
        assert_eq!(Memory::UNLIMITED.to_string(), "no limit");
    }
}
