//! The engine flags shared by `analyze`, `solve`, `mkagent`, `kgp` and the cluster's tasks:
//! table size, threads, the endgame database and the memory limit; and the databases of `play`,
//! `match` and `serve`, within what this machine can spare.
//!
//! Which layers of a database an engine uses within that memory, and how much memory the machine
//! can spare, are the engine's policies ([`kalah_engine::databases`]); here are only the flags.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use kalah_engine::databases::{self, spare_memory, Databases, Memory};
use kalah_engine::search::Options;
use kalah_engine::GameEngine;
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
    pub fn build(&self, rules: &Rules) -> Result<(GameEngine, Option<String>)> {
        let (options, note) = self.options(rules)?;
        Ok((GameEngine::new(*rules, options), note))
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
        let table = Memory::mib(self.hash as u64);
        if let Some((spare, available)) = spare_memory().filter(|(spare, _)| table > *spare) {
            return Err(bad(format!(
                "--hash {} MiB is more than this machine can spare now ({spare} of {available} available): lower --hash",
                self.hash
            )));
        }
        let limit = self.memory.map(|mib| Memory::mib(mib as u64));
        let attached = egdb_folder(self.egdb_dir.as_ref(), self.no_egdb)
            .map(|dir| databases::open(rules, &dir, databases::budget(limit, table)))
            .unwrap_or_default();
        let options = Options {
            table_bytes: self.hash * MIB,
            threads: self.threads,
            oracle: attached.engine_oracle(),
            ..Options::default()
        };
        Ok((options, attached.unused.map(|unused| unused.to_string())))
    }
}

/// Returns the folder of the endgame databases: `dir` if given, else the user's cache folder;
/// none when switched `off` or when there is no cache folder.
pub fn egdb_folder(dir: Option<&PathBuf>, off: bool) -> Option<PathBuf> {
    if off {
        return None;
    }
    dir.cloned().or_else(kalah_engine::egdb::default_dir)
}

/// Returns the databases in `dir` (none: no databases) for engines whose tables take `tables`
/// together, shared by those engines, within what this machine can spare now.
pub fn shared_databases(dir: Option<PathBuf>, tables: Memory) -> Option<Arc<Databases>> {
    dir.map(|dir| Arc::new(Databases::new(dir, databases::budget(None, tables))))
}
