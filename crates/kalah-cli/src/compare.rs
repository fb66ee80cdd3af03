//! `kalah compare`: the average Max and Min calls of the three searches, depth by depth.

use std::io::Write;

use anyhow::Result;
use clap::{Args, ValueEnum};
use kalah_course::compare::{compare_at, sample_positions, Row};
use kalah_engine::eval::Weights;

use crate::args::RuleArgs;
use crate::error::bad;

/// Which evaluation the searches use at their leaves.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EvalChoice {
    /// The store difference alone (the reference figures use it)
    Store,
    /// The tuned evaluation (store, houses, extra moves, captures, tempo)
    Tuned,
}

/// Flags of `kalah compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Shallowest depth, in sowings (1-30)
    #[arg(long, default_value_t = 1)]
    pub from: u32,
    /// Deepest depth, in sowings (1-30)
    #[arg(long, default_value_t = 6)]
    pub to: u32,
    /// Number of positions, sampled from games of the engine against itself (1-10000)
    #[arg(long, default_value_t = 100)]
    pub positions: usize,
    /// Seed of the sample: the same seed gives the same positions
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Evaluation at the leaves
    #[arg(long, value_enum, default_value_t = EvalChoice::Tuned)]
    pub eval: EvalChoice,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Runs `kalah compare`.
pub fn run(args: CompareArgs) -> Result<()> {
    for (name, depth) in [("--from", args.from), ("--to", args.to)] {
        if !(1..=30).contains(&depth) {
            return Err(bad(format!("{name} {depth} is out of range: depths go from 1 to 30")));
        }
    }
    if args.from > args.to {
        return Err(bad(format!(
            "--from {} is deeper than --to {}: give the shallower depth first",
            args.from, args.to
        )));
    }
    if !(1..=10_000).contains(&args.positions) {
        return Err(bad(format!("--positions {} is out of range: 1 to 10000", args.positions)));
    }
    let rules = args.rules.rules()?;
    let weights = match args.eval {
        EvalChoice::Store => Weights::STORE,
        EvalChoice::Tuned => Weights::TUNED,
    };
    let positions = sample_positions(&rules, args.positions, args.seed);
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(out, "{rules}, {} positions (seed {}), {:?} evaluation", positions.len(), args.seed, args.eval)?;
        writeln!(
            out,
            "{:>5}  {:<9}  {:>12}  {:>12}  {:>12}  {:>9}  {:>10}",
            "depth", "search", "Max calls", "Min calls", "total", "ratio", "ms/pos"
        )?;
    }
    let mut all: Vec<Row> = Vec::new();
    for depth in args.from..=args.to {
        let rows = compare_at(&positions, &rules, depth, &weights)?;
        if !args.json {
            for row in &rows {
                writeln!(
                    out,
                    "{:>5}  {:<9}  {:>12.1}  {:>12.1}  {:>12.1}  {:>9.4}  {:>10.3}",
                    row.depth,
                    row.algorithm.name(),
                    row.max_calls,
                    row.min_calls,
                    row.total,
                    row.ratio_to_minimax,
                    row.millis
                )?;
            }
            out.flush()?;
        }
        all.extend(rows);
    }
    if args.json {
        let report = serde_json::json!({
            "rules": rules.to_string(),
            "positions": positions.len(),
            "seed": args.seed,
            "eval": format!("{:?}", args.eval).to_lowercase(),
            "rows": all,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}
