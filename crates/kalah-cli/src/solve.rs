//! `kalah solve`: the exact value of a position with perfect play, a best move and a perfect
//! line; Ctrl-C stops a long solve and saves a checkpoint that the same command resumes from.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Result;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use kalah_cluster::checkpoint::{name_hash, CheckpointError, CheckpointFile, Claim};
use kalah_engine::egdb;
use kalah_engine::proof::ProofTable;
use kalah_engine::score::Bounds;
use kalah_engine::search::Limits;
use kalah_engine::solver::Solver;
use kalah_rules::rules::{word_of, CAPTURE_WORDS, END_WORDS, LEFTOVER_WORDS, SOWING_WORDS};
use kalah_rules::{Position, Rules};

use crate::analyze::line;
use crate::args::RuleArgs;
use crate::engine::EngineArgs;
use crate::error::bad;
use crate::files::{self, Kind};

/// Flags of `kalah solve`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SolveArgs {
    /// A solve split into tasks for a cluster or local processes (docs/cluster.md), the fair starts, the explorer or an opening book
    #[command(subcommand)]
    pub step: Option<SolveCommand>,
    /// The position, in the position notation or as a KGP board; `start` for the rules' start
    #[arg(default_value = "start")]
    pub position: String,
    /// Checkpoint file for stopping and resuming [default: in the user's cache folder, kalah/solve]
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Print the solve's start and each proven bound on the value as a line on standard error, with the time and nodes
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The subcommands of `kalah solve`.
#[derive(Subcommand, Debug)]
pub enum SolveCommand {
    /// A solve split into tasks (docs/cluster.md).
    #[command(flatten)]
    Cluster(crate::cluster::ClusterCommand),
    /// List the starts one or two seeds away from the rules' start that perfect players draw (FairKalah), each decided by the solver
    Fair(crate::fair::FairArgs),
    /// Every legal move of a position with its exact value, a perfect line and the moves that throw away a win (the perfect-play explorer)
    Explore(crate::explore::ExploreArgs),
    /// Write an opening book: every move's exact value in each position of the first plies, for `kalah serve --book` and `solve explore --book`
    Book(crate::explore::BookArgs),
}

/// Returns the default checkpoint file of a solve: named by a hash of the rules and position.
fn default_checkpoint(rules: &Rules, position: &Position) -> Option<PathBuf> {
    let egdb = kalah_egdb::default_dir()?;
    let name = format!("{:016x}.ckpt", name_hash(&format!("{rules}|{position}")));
    Some(egdb.parent()?.join("solve").join(name))
}

/// Maps a checkpoint error: a file that is not this solve's to use is the user's input. The
/// message holds its cause already, so the cause is not chained (it would be printed twice).
fn checkpoint_error(error: CheckpointError) -> anyhow::Error {
    match error {
        CheckpointError::Io { .. } => anyhow::anyhow!("{error}"),
        _ => bad(error),
    }
}

/// What a checkpoint may replace: a regular, writable file (not a link, a FIFO, a device...),
/// whose contents the checkpoint's claim judges (this solve's, a damaged one, or refused).
const CHECKPOINT: Kind<'static> = Kind { name: "a kalah checkpoint", recognise: Some(&|_: &[u8]| true) };

/// Claims the checkpoint file of a solve (or a task): the rule for every file written first,
/// then the checkpoint's own.
pub(crate) fn claim_checkpoint(
    path: &std::path::Path,
    rules: &Rules,
    position: &Position,
    proofs: &ProofTable,
) -> Result<(CheckpointFile, Claim)> {
    files::check(path, &CHECKPOINT).map_err(|e| e.into_error("choose another checkpoint file"))?;
    CheckpointFile::claim(path, rules, position, proofs).map_err(checkpoint_error)
}

/// Saves a checkpoint if what is at its path may still be replaced; the error is one line.
pub(crate) fn save_checkpoint(
    file: &CheckpointFile,
    bounds: Bounds,
    nodes: u64,
    proofs: &ProofTable,
) -> Result<(), String> {
    files::check(file.path(), &CHECKPOINT).map_err(|e| e.to_string())?;
    file.save(bounds, nodes, proofs).map_err(|e| e.to_string())
}

/// Removes a finished solve's checkpoint if what is at its path is still one it may remove.
pub(crate) fn remove_checkpoint(file: &CheckpointFile) -> Result<(), String> {
    files::check(file.path(), &CHECKPOINT).map_err(|e| e.to_string())?;
    file.remove().map(drop).map_err(|e| e.to_string())
}

/// Solves of positions with more seeds than this in the houses, and no database, are told which
/// database would help: smaller ones take under a second without one.
const HINT_SEEDS: u16 = 24;

/// Positions a database build settles in a second of one core (Kalah(6,·): 18 seeds, 86.5 M
/// positions, in 8.5 s; 24 seeds, 1.25 G positions, in 134 s; docs/measurements.md).
const BUILD_POSITIONS_PER_SECOND: u64 = 9_000_000;

/// The CPU time of the database a solve without one is told about: the largest that builds in
/// about this long. The shortest cold start for Kalah(6,4) is 18 seeds, built in 8.5 s, which
/// cut the solve from 47 s to 17 s (docs/solver.md).
const SUGGESTED_BUILD_SECONDS: u64 = 10;

/// Names the database that would help a solve under `rules` that has none, with the command that
/// builds it (into `dir` when given), its build time and its size; `None` where no database can
/// be built for the rules or none would be smaller than the position's `seeds`.
fn database_hint(rules: &Rules, seeds: u16, dir: Option<&std::path::Path>) -> Option<String> {
    egdb::supports(rules).ok()?;
    // The largest database below the position's seeds that builds in the time suggested.
    let budget = SUGGESTED_BUILD_SECONDS * BUILD_POSITIONS_PER_SECOND;
    let mut positions = 0u64;
    let mut size = None;
    for k in 0..u32::from(seeds).min(egdb::MAX_SEEDS) {
        let more = positions.checked_add(egdb::layer_entries(rules.houses(), k)?)?;
        if more > budget {
            break;
        }
        positions = more;
        size = Some(k);
    }
    let k = size.filter(|&k| k >= 2)?;
    let bytes = (0..=k).try_fold(0u64, |sum, k| sum.checked_add(egdb::layer_bytes(rules, k)?))?;
    let seconds = positions.div_ceil(BUILD_POSITIONS_PER_SECOND);
    let (houses, seeds) = (rules.houses(), rules.seeds());
    Some(format!(
        "no endgame database is built for these rules; `kalah egdb build --seeds {k} --size {houses},{seeds} \
         --capture {} --end {} --leftover {} --sowing {}{}` (about {seconds} s to build, {:.0} MB) makes long solves \
         much faster, and a larger one faster still",
        word_of(&CAPTURE_WORDS, rules.capture),
        word_of(&END_WORDS, rules.end),
        word_of(&LEFTOVER_WORDS, rules.leftover),
        word_of(&SOWING_WORDS, rules.sowing),
        dir.map_or_else(String::new, |dir| format!(" --dir {}", dir.display())),
        bytes as f64 / 1e6
    ))
}

/// Returns a flag that Ctrl-C (SIGINT), SIGTERM and SIGHUP set: a batch system sends SIGTERM
/// before a time limit or an eviction, and a stopped solve saves its checkpoint.
pub(crate) fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = Arc::clone(&stop);
    // A second handler cannot be installed in one process; only tests would try, so ignore that.
    let _ = ctrlc::set_handler(move || handler_stop.store(true, Ordering::SeqCst));
    stop
}

/// Runs `kalah solve`.
pub fn run(args: SolveArgs) -> Result<()> {
    match args.step {
        Some(SolveCommand::Cluster(step)) => return crate::cluster::run(step),
        Some(SolveCommand::Fair(fair)) => return crate::fair::run(fair),
        Some(SolveCommand::Explore(explore)) => return crate::explore::run_explore(explore),
        Some(SolveCommand::Book(book)) => return crate::explore::run_book(book),
        None => {}
    }
    let text = (args.position != "start").then_some(args.position.as_str());
    let (rules, position) = args.rules.rules_and_position(text)?;
    let (options, note) = args.engine.options(&rules)?;
    if let Some(note) = note {
        eprintln!("kalah: {note}");
    } else if options.oracle.is_none() && !args.engine.no_egdb && position.seeds_in_houses() > HINT_SEEDS {
        if let Some(hint) = database_hint(&rules, position.seeds_in_houses(), args.engine.egdb_dir.as_deref()) {
            eprintln!("kalah: {hint}");
        }
    }
    let solver = Solver::new(options);
    let mut resumed_nodes = 0;
    let mut known = None;
    // The checkpoint is claimed before the solve starts: a file that is not this solve's
    // checkpoint is refused now, not when a stop hours later would have overwritten it.
    let checkpoint = match args.checkpoint.clone().or_else(|| default_checkpoint(&rules, &position)) {
        Some(path) => {
            let (file, claim) = claim_checkpoint(&path, &rules, &position, solver.proofs())?;
            match claim {
                Claim::Fresh => {}
                Claim::Resumed(saved) => {
                    resumed_nodes = saved.nodes;
                    known = Some(saved.bounds);
                    eprintln!(
                        "resuming from {}: value between {:+} and {:+}, {} nodes searched",
                        path.display(),
                        saved.bounds.lower,
                        saved.bounds.upper,
                        saved.nodes
                    );
                }
                Claim::Damaged(damage) => eprintln!(
                    "kalah: checkpoint {} is damaged ({damage}): the solve starts afresh, and a stop saves over it",
                    path.display()
                ),
            }
            Some(file)
        }
        None => None,
    };

    let stop = stop_on_signals();
    // After the handler: a Ctrl-C once this line is out saves the checkpoint.
    if args.verbose {
        let saved = match &checkpoint {
            Some(file) => format!("; a stop saves {}", file.path().display()),
            None => String::new(),
        };
        eprintln!("solving {rules}, {position}{saved}");
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}").expect("a valid template"));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let started = std::time::Instant::now();
    let bounds = std::sync::Mutex::new(known);
    let done = AtomicBool::new(false);
    let solved = std::thread::scope(|scope| {
        // The display is redrawn from a thread of its own: one proof can take hours, and the
        // nodes and the bound under test should move meanwhile.
        let display = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let progress = solver.progress();
                let seconds = started.elapsed().as_secs_f64().max(1e-3);
                let mut parts = Vec::new();
                if let Some(known) = *bounds.lock().unwrap_or_else(|e| e.into_inner()) {
                    parts.push(format!(
                        "value between {:+} and {:+} for {}",
                        known.lower,
                        known.upper,
                        position.mover()
                    ));
                }
                match progress.testing {
                    Some(beta) => parts.push(format!("proving whether it is at least {beta:+}")),
                    None if parts.is_empty() => parts.push("estimating".to_string()),
                    None => {}
                }
                parts.push(format!(
                    "{} nodes, {:.2} M/s",
                    progress.nodes + resumed_nodes,
                    progress.nodes as f64 / seconds / 1e6
                ));
                bar.set_message(parts.join("; "));
                std::thread::park_timeout(std::time::Duration::from_millis(250));
            }
        });
        let solved = solver.solve(&position, &rules, known, Limits::default(), Some(&stop), |proven, nodes| {
            if args.verbose {
                eprintln!(
                    "{:8.2} s  value between {:+} and {:+}, {} nodes",
                    started.elapsed().as_secs_f64(),
                    proven.lower,
                    proven.upper,
                    nodes + resumed_nodes
                );
            }
            *bounds.lock().unwrap_or_else(|e| e.into_inner()) = Some(proven);
        });
        done.store(true, Ordering::Relaxed);
        // The result need not wait for the display's next redraw.
        display.thread().unpark();
        solved
    });
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    let info = match solved {
        Ok(info) => info,
        Err(stopped) => {
            let (bounds, nodes) = (stopped.bounds, resumed_nodes + stopped.nodes);
            let saved = checkpoint
                .as_ref()
                .map(|file| save_checkpoint(file, bounds, nodes, solver.proofs()).map(|()| file.path()));
            let range = format!("the value is between {:+} and {:+}", bounds.lower, bounds.upper);
            match saved {
                Some(Ok(path)) => {
                    eprintln!("stopped: {range}; saved {}; run the same command to resume", path.display())
                }
                Some(Err(e)) => eprintln!("stopped: {range}; could not save a checkpoint: {e}"),
                None => eprintln!("stopped: {range}; no checkpoint folder, give --checkpoint FILE"),
            }
            std::process::exit(130);
        }
    };
    // Only a checkpoint of this solve (or a damaged one) is removed; the file is checked again.
    if let Some(Err(e)) = checkpoint.as_ref().map(remove_checkpoint) {
        eprintln!("kalah: the checkpoint was not removed: {e}");
    }
    let value = info.score.whole_seeds();
    let side = position.mover();
    if args.json {
        let report = serde_json::json!({
            "rules": rules.to_string(),
            "position": position.to_string(),
            "side": side.name(),
            "value": value.0,
            "best": info.best.map(|m| m.number()),
            "line": info.pv.iter().map(|m| m.number()).collect::<Vec<_>>(),
            "nodes": info.nodes + resumed_nodes,
            "seconds": info.elapsed.as_secs_f64(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "{rules}, {position}")?;
        writeln!(out, "value: {value:+} for {side} with perfect play")?;
        writeln!(out, "best move: {}", info.best.map_or("none (the game is over)".to_string(), |m| m.to_string()))?;
        writeln!(out, "line: {}", line(&info.pv))?;
        writeln!(out, "nodes: {}, {:.2} s", info.nodes + resumed_nodes, info.elapsed.as_secs_f64())?;
    }
    Ok(())
}
