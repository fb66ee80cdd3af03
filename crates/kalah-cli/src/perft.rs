//! `kalah perft`: count move sequences, optionally per first move and with speed figures.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use kalah_rules::{divide, perft};

use crate::args::RuleArgs;
use crate::error::bad;

/// Flags of `kalah perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of sowings (an extra move is a sowing of its own), 0 to 40
    pub depth: u32,
    /// Start position in the position notation (default: the rules' start)
    #[arg(long)]
    pub position: Option<String>,
    /// Print the count below each first move as well
    #[arg(long)]
    pub divide: bool,
    /// Print the time taken and leaves per second
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Runs `kalah perft`.
pub fn run(args: PerftArgs) -> Result<()> {
    if args.depth > 40 {
        return Err(bad(format!("depth {} is out of range: perft takes a depth from 0 to 40", args.depth)));
    }
    let (rules, position) = args.rules.rules_and_position(args.position.as_deref())?;
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let count = if args.divide {
        let parts = divide(&position, &rules, args.depth);
        for (mv, n) in &parts {
            writeln!(out, "{mv}: {n}")?;
        }
        if parts.is_empty() {
            perft(&position, &rules, args.depth)
        } else {
            parts.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&position, &rules, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{count}")?;
    if args.stats {
        let rate = count as f64 / seconds.max(1e-9);
        writeln!(
            out,
            "{count} leaves in {seconds:.3} s: {:.1} million leaves a second ({rules}, depth {})",
            rate / 1e6,
            args.depth
        )?;
    }
    Ok(())
}
