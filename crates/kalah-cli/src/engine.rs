//! The engine flags shared by `analyze`, `solve`, `play` and `match`: table size, threads,
//! the endgame database and the memory limit.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use kalah_engine::egdb::{self, Egdb};
use kalah_engine::search::{Engine, Options};
use kalah_rules::Rules;

use crate::error::bad;

/// Flags that set up the strong engine.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Transposition table size in MiB (1-65536)
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub hash: usize,
    /// Search threads (1-64): all search the same tree through one shared table (Lazy SMP), and one that reaches a child another is searching puts it off (ABDADA)
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Folder of the endgame databases [default: the user's cache folder, kalah/egdb]
    #[arg(long, value_name = "DIR")]
    pub egdb_dir: Option<PathBuf>,
    /// Do not use endgame databases even if they are there
    #[arg(long)]
    pub no_egdb: bool,
    /// Most memory the table and databases may take, in MiB; databases load only the layers that fit
    #[arg(long, value_name = "MIB")]
    pub memory: Option<usize>,
}

impl Default for EngineArgs {
    fn default() -> EngineArgs {
        EngineArgs { hash: 64, threads: 1, egdb_dir: None, no_egdb: false, memory: None }
    }
}

const MIB: usize = 1 << 20;

impl EngineArgs {
    /// Checks the flags and builds the engine for `rules`, with a note to print if the database
    /// could not be used in full (or `None`).
    pub fn build(&self, rules: &Rules) -> Result<(Engine, Option<String>)> {
        let (options, note) = self.options(rules)?;
        Ok((Engine::new(options), note))
    }

    /// Checks the flags and returns the engine's settings for `rules`, with a note as for [`EngineArgs::build`].
    pub fn options(&self, rules: &Rules) -> Result<(Options, Option<String>)> {
        if !(1..=65536).contains(&self.hash) {
            return Err(bad(format!("--hash {} is out of range: the table takes 1 to 65536 MiB", self.hash)));
        }
        if !(1..=64).contains(&self.threads) {
            return Err(bad(format!("--threads {} is out of range: 1 to 64 threads", self.threads)));
        }
        if let Some(limit) = self.memory {
            if self.hash > limit {
                return Err(bad(format!(
                    "the table alone (--hash {} MiB) is over the memory limit (--memory {limit} MiB): lower --hash or raise --memory",
                    self.hash
                )));
            }
        }
        // A table larger than the free memory would have the machine swap, not search.
        if let Some(free) = available_mib().filter(|&free| self.hash > free * 9 / 10) {
            return Err(bad(format!(
                "--hash {} MiB is more than this machine can spare now ({} MiB of {free} MiB available): lower --hash",
                self.hash,
                free * 9 / 10
            )));
        }
        let (oracle, note) = self.database(rules)?;
        let options = Options {
            table_bytes: self.hash * MIB,
            threads: self.threads,
            oracle: oracle.map(|db| db as Arc<dyn kalah_engine::search::Oracle>),
            ..Options::default()
        };
        Ok((options, note))
    }

    /// Opens the endgame database for `rules`, within what the memory limit leaves; none if
    /// switched off, missing or not made for these rules.
    fn database(&self, rules: &Rules) -> Result<(Option<Arc<Egdb>>, Option<String>)> {
        if self.no_egdb || egdb::supports(rules).is_err() {
            return Ok((None, None));
        }
        let Some(dir) = self.egdb_dir.clone().or_else(egdb::default_dir) else { return Ok((None, None)) };
        // Without --memory, the database loads only the layers that fit in the free memory.
        let room = self
            .memory
            .or_else(|| available_mib().map(|free| free * 9 / 10))
            .map_or(u64::MAX, |limit| (limit.saturating_sub(self.hash) * MIB) as u64);
        match Egdb::open_within(&dir, rules, egdb::MAX_SEEDS, room) {
            Ok(db) => {
                let note =
                    db.issue().map(|e| format!("endgame database: {e}; using layers up to {} seeds", db.max_seeds()));
                Ok((Some(Arc::new(db)), note))
            }
            // No database yet is normal: the engine works without one.
            Err(egdb::EgdbError::NoDatabase { .. }) => Ok((None, None)),
            Err(e) => Ok((None, Some(format!("endgame database not used: {e}")))),
        }
    }
}

/// Returns the memory available to new processes now, in MiB (`MemAvailable` on Linux), if known.
fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}
