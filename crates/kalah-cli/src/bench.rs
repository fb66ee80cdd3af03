//! `kalah bench`: fixed positions to a fixed depth on one thread; the node total is a signature.
//! `kalah bench --solver`: fixed positions solved exactly; the node total is the solver's signature.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use kalah_engine::bench::{run as run_bench, run_solver, DEPTH, POSITIONS, SOLVER_POSITIONS};

use crate::error::bad;

/// Flags of `kalah bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth in sowings (1-30)
    #[arg(long, default_value_t = DEPTH)]
    pub depth: u32,
    /// Search threads (1-64): the signature is for 1; more measure the time to the same depth
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Solve the solver's benchmark positions instead (one thread, no database): its node signature
    #[arg(long, conflicts_with_all = ["depth", "threads"])]
    pub solver: bool,
}

/// Runs `kalah bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    if !(1..=30).contains(&args.depth) {
        return Err(bad(format!("--depth {} is out of range: 1 to 30", args.depth)));
    }
    if !(1..=64).contains(&args.threads) {
        return Err(bad(format!("--threads {} is out of range: 1 to 64", args.threads)));
    }
    let mut out = std::io::stdout().lock();
    let mut failed = Ok(());
    if args.solver {
        let summary = run_solver(|i, info| {
            let (rules, position) = SOLVER_POSITIONS[i];
            if failed.is_ok() {
                failed = writeln!(
                    out,
                    "{:>2} {:<26} {:<36} {:>+4} {:>10} nodes",
                    i + 1,
                    rules,
                    position,
                    info.score.whole_seeds(),
                    info.nodes
                );
            }
        });
        failed?;
        writeln!(out, "solved in {:.3} s", summary.elapsed.as_secs_f64())?;
        writeln!(out, "{} nodes {} nps", summary.nodes, summary.nps())?;
        return Ok(());
    }
    let summary = run_bench(args.depth, args.threads, |i, info| {
        let (rules, position) = POSITIONS[i];
        if failed.is_ok() {
            failed = writeln!(out, "{:>2} {:<26} {:<36} {:>10} nodes", i + 1, rules, position, info.nodes);
        }
    });
    failed?;
    writeln!(out, "{} thread(s): {:.3} s to depth {}", args.threads, summary.elapsed.as_secs_f64(), args.depth)?;
    writeln!(out, "{} nodes {} nps", summary.nodes, summary.nps())?;
    Ok(())
}
