//! `kalah solve fair`: the starts a seed or two away from the rules' start that perfect players
//! draw (FairKalah), each decided by the solver; the list it prints is what the new-game form
//! offers (crates/kalah-table/data/fair-starts.txt).

use std::io::Write;

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kalah_engine::fairness::{judge, nearby_starts, Nearby, Verdict, MAX_MOVED};
use kalah_engine::search::Limits;
use kalah_engine::solver::Solver;

use crate::args::RuleArgs;
use crate::engine::EngineArgs;
use crate::error::bad;

/// Flags of `kalah solve fair`.
#[derive(Args, Debug)]
pub struct FairArgs {
    /// Seeds moved from the start, each from a house to another house or a store: 1, or 2 for
    /// every start one or two seeds away (FairKalah's; many more starts to decide)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_MOVED)))]
    pub moved: u8,
    /// Print every start tried with whom it favours, not only the fair ones
    #[arg(long)]
    pub all: bool,
    /// Print one JSON object at the end instead of a line a start as it is found
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The seeds moved, as `S2>N3 S5>N-store`.
fn shifts(nearby: &Nearby) -> String {
    nearby.shifts.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// Runs `kalah solve fair`.
pub fn run(args: FairArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    if rules.pie || rules.handicap {
        return Err(bad(format!(
            "fair starts are for rules without the pie rule or the handicap opening ({rules}): leave out --pie and --handicap"
        )));
    }
    let (options, note) = args.engine.options(&rules)?;
    if let Some(note) = note {
        eprintln!("kalah: {note}");
    }
    let starts = nearby_starts(&rules, args.moved).map_err(bad)?;
    let solver = Solver::new(options);
    let stop = crate::solve::stop_on_signals();
    let bar = ProgressBar::new(starts.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} starts, {msg} fair, {elapsed_precise} (eta {eta})")
            .expect("a valid template"),
    );
    let started = std::time::Instant::now();
    let mut out = std::io::stdout().lock();
    if !args.json {
        let seeds = if args.moved == 1 { "one seed" } else { "one or two seeds" };
        writeln!(out, "# kalah solve fair: starts {seeds} from the start that perfect players draw")?;
        writeln!(out, "# rules: {rules}")?;
        out.flush()?;
    }
    let (mut fair, mut nodes, mut tried) = (Vec::new(), 0u64, 0usize);
    bar.set_message("0");
    for nearby in &starts {
        let judged = match judge(&solver, &nearby.position, &rules, Limits::default(), Some(&stop)) {
            Ok(judged) => judged,
            Err(stopped) => {
                bar.finish_and_clear();
                nodes += stopped.nodes;
                eprintln!(
                    "stopped after {tried} of {} starts: {} fair so far, {nodes} nodes, {:.1} s",
                    starts.len(),
                    fair.len(),
                    started.elapsed().as_secs_f64()
                );
                std::process::exit(130);
            }
        };
        nodes += judged.nodes;
        tried += 1;
        let is_fair = judged.verdict == Verdict::Fair;
        if is_fair {
            fair.push(nearby);
            bar.set_message(fair.len().to_string());
        }
        if !args.json && (is_fair || args.all) {
            let verdict = match judged.verdict {
                Verdict::Fair => String::new(),
                Verdict::Favours(side, by) => format!("  # {side} wins by {} or more", by.0),
            };
            bar.suspend(|| {
                writeln!(out, "{}  {}{verdict}", nearby.position, shifts(nearby)).and_then(|()| out.flush())
            })?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let report = serde_json::json!({
            "rules": rules.to_string(),
            "moved": args.moved,
            "starts": starts.len(),
            "fair": fair.iter().map(|n| serde_json::json!({
                "position": n.position.to_string(),
                "shifts": n.shifts.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "nodes": nodes,
            "seconds": seconds,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "# {} fair of {} starts; {nodes} nodes, {seconds:.1} s", fair.len(), starts.len())?;
    }
    Ok(())
}
