//! `kalah bench`: fixed positions to a fixed depth on one thread; the node total is a signature.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use kalah_engine::bench::{run as run_bench, DEPTH, POSITIONS};

use crate::error::bad;

/// Flags of `kalah bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth in sowings (1-30)
    #[arg(long, default_value_t = DEPTH)]
    pub depth: u32,
}

/// Runs `kalah bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    if !(1..=30).contains(&args.depth) {
        return Err(bad(format!("--depth {} is out of range: 1 to 30", args.depth)));
    }
    let mut out = std::io::stdout().lock();
    let mut failed = Ok(());
    let summary = run_bench(args.depth, |i, info| {
        let (rules, position) = POSITIONS[i];
        if failed.is_ok() {
            failed = writeln!(out, "{:>2} {:<26} {:<36} {:>10} nodes", i + 1, rules, position, info.nodes);
        }
    });
    failed?;
    writeln!(out, "{} nodes {} nps", summary.nodes, summary.nps())?;
    Ok(())
}
