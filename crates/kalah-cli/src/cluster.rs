//! `kalah solve plan | task | merge | run`: a solve split into independent tasks for a batch
//! system (a Slurm job array, a Kubernetes Indexed Job) or for local processes, and merged back
//! (docs/cluster.md; the formats are in `kalah_cluster::cluster`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use kalah_cluster::checkpoint::Claim;
use kalah_cluster::cluster::{Answer, Manifest, Merged, Task, Tree};
use kalah_engine::search::{Engine, Limits, Options};
use kalah_engine::solver::Solver;
use kalah_rules::Side;

use crate::args::RuleArgs;
use crate::engine::EngineArgs;
use crate::error::bad;
use crate::files::{self, Kind};
use crate::input::{read_text, ReadError};
use crate::solve::{claim_checkpoint, remove_checkpoint, save_checkpoint, stop_on_signals};

/// The steps of a solve split into tasks.
#[derive(Subcommand, Debug)]
pub enum ClusterCommand {
    /// Split a solve into independent tasks: write a manifest (JSON lines) of the positions a few sowings below the root
    Plan(PlanArgs),
    /// Answer one task of a manifest (the index from --index, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)
    Task(TaskArgs),
    /// Back the tasks' results up to the root: the value and best move, or the next round's manifest
    Merge(MergeArgs),
    /// Run a manifest's tasks as local processes, N at a time, merge, and go on round by round until the value is decided
    Run(RunArgs),
}

/// Flags of `kalah solve plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The position to solve, in the position notation or as a KGP board; `start` for the rules' start
    #[arg(default_value = "start")]
    pub position: String,
    /// How many sowings below the root the tasks are (1-16; an extra move's sowing counts as one)
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// The manifest to write (a new file)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Depth of the heuristic search whose estimate of the root is the first round's question (1-30)
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub estimate_depth: u32,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Where a manifest's results go.
#[derive(Args, Debug)]
pub struct ResultsArgs {
    /// The manifest (written by `kalah solve plan` or `kalah solve merge`)
    #[arg(long, value_name = "FILE")]
    pub manifest: PathBuf,
    /// The folder of the results, shared by every round of the tree [default: beside the manifest, results-TREE]
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
}

/// Flags of `kalah solve task`.
#[derive(Args, Debug)]
pub struct TaskArgs {
    #[command(flatten)]
    pub files: ResultsArgs,
    /// The task's index in the manifest, from 0 [default: SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX]
    #[arg(long)]
    pub index: Option<usize>,
    /// Print a line on standard error when the proof starts (from then on a stop saves the checkpoint)
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Flags of `kalah solve merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    #[command(flatten)]
    pub files: ResultsArgs,
    /// The next round's manifest, written when the value is not yet decided [default: beside the manifest, TREE-roundR.jsonl]
    #[arg(long, value_name = "FILE")]
    pub next: Option<PathBuf>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// Flags of `kalah solve run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub files: ResultsArgs,
    /// Tasks run at once, each a process of its own (1-256)
    #[arg(long, value_name = "N")]
    pub local: usize,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Manifests are written only as new files (a merge that finds its next round already written
/// leaves it as it is).
const MANIFEST: Kind<'static> = Kind::new_only("a manifest");
/// A task writes its result only where there is none: an answered task is not asked again.
const RESULT: Kind<'static> = Kind::new_only("a result");
/// What `solve plan` accepts as --out.
const PLAN_OUT: &str = "a plan writes a new manifest; give another --out";

/// The largest manifest read: a million tasks of about 80 bytes.
const MAX_MANIFEST_BYTES: usize = 256 << 20;
/// The largest result read: one line of about 250 bytes.
const MAX_RESULT_BYTES: usize = 64 << 10;

/// Runs a step.
pub fn run(command: ClusterCommand) -> Result<()> {
    match command {
        ClusterCommand::Plan(args) => plan(args),
        ClusterCommand::Task(args) => task(args),
        ClusterCommand::Merge(args) => merge(&args.files, args.next.as_deref(), args.json).map(|_| ()),
        ClusterCommand::Run(args) => run_local(args),
    }
}

fn plan(args: PlanArgs) -> Result<()> {
    let text = (args.position != "start").then_some(args.position.as_str());
    let (rules, position) = args.rules.rules_and_position(text)?;
    let tree = Tree::grow(&rules, &position, args.depth).map_err(bad)?;
    // Checked before the estimate's search, and again when the manifest is written.
    files::check(&args.out, &MANIFEST).map_err(|e| e.into_error(PLAN_OUT))?;
    // The first question is the estimate's: MTD(f) starts from its best guess.
    let engine = Engine::new(Options { table_bytes: 16 << 20, ..Options::default() });
    let estimate = engine.search(&position, &rules, Limits::depth(args.estimate_depth), None, |_| {});
    let beta = estimate.score.nearest_seeds().0;
    let manifest = tree.plan(beta);
    files::replace(&args.out, &MANIFEST, manifest.write().as_bytes()).map_err(|e| e.into_error(PLAN_OUT))?;
    // Not println!, which panics on a closed pipe: `main` ends quietly on one.
    writeln!(
        std::io::stdout(),
        "{}: {} tasks of {rules}, {position}, {} sowings deep (tree {}); round 1 asks whether it is worth at least {beta:+} to {}; results go to {}",
        args.out.display(),
        manifest.tasks.len(),
        args.depth,
        tree.id(),
        position.mover(),
        results_dir(&args.out, None, &tree).display()
    )?;
    Ok(())
}

/// Reads a manifest file.
fn read_manifest(path: &Path) -> Result<Manifest> {
    let text = read_text(path, MAX_MANIFEST_BYTES).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    Manifest::read(&text).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// Returns the results folder: given, or `results-TREE` beside the manifest.
fn results_dir(manifest: &Path, given: Option<&Path>, tree: &Tree) -> PathBuf {
    given.map_or_else(
        || manifest.parent().unwrap_or(Path::new("")).join(format!("results-{}", tree.id())),
        Path::to_path_buf,
    )
}

/// The result file of a task: its leaf and its question.
fn result_path(dir: &Path, task: &Task) -> PathBuf {
    dir.join(format!("leaf-{}-at{}.json", task.leaf, task.at_least))
}

/// Reads a result file if it is there; an unreadable, damaged or foreign file is an error.
fn read_result(tree: &Tree, path: &Path) -> Result<Option<Answer>> {
    let refused = |why: String| bad(format!("{} refused: {why}; remove it to answer its task again", path.display()));
    let text = match read_text(path, MAX_RESULT_BYTES) {
        Ok(text) => text,
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(refused(e.to_string())),
    };
    let answer = tree.read_answer(&text).map_err(|e| refused(e.to_string()))?;
    let expected = format!("leaf-{}-at{}.json", answer.leaf, answer.at_least);
    if path.file_name().and_then(|n| n.to_str()) != Some(expected.as_str()) {
        return Err(refused(format!("it holds the answer of {expected}")));
    }
    Ok(Some(answer))
}

/// The task's index: the flag, or the batch system's variable.
fn task_index(given: Option<usize>) -> Result<usize> {
    if let Some(index) = given {
        return Ok(index);
    }
    for name in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        if let Ok(value) = std::env::var(name) {
            return value.trim().parse().map_err(|_| bad(format!("{name}={value:?} is not a task index (0, 1, 2, …)")));
        }
    }
    Err(bad("no task index: give --index I, or run under a Slurm job array or a Kubernetes Indexed Job"))
}

/// Writes an answer's bounds: `value +3` when they meet, else `at least +3` or `at most +2`.
fn bounds_text(answer: &Answer) -> String {
    if answer.lower == answer.upper {
        format!("value {:+}", answer.lower)
    } else if answer.lower >= answer.at_least {
        format!("at least {:+}", answer.lower)
    } else {
        format!("at most {:+}", answer.upper)
    }
}

fn task(args: TaskArgs) -> Result<()> {
    let manifest = read_manifest(&args.files.manifest)?;
    let index = task_index(args.index)?;
    let Some(&job) = manifest.tasks.get(index) else {
        return Err(bad(format!(
            "task {index} is not in the manifest: it has tasks 0 to {}",
            manifest.tasks.len().saturating_sub(1)
        )));
    };
    let tree = &manifest.tree;
    let dir = results_dir(&args.files.manifest, args.files.results.as_deref(), tree);
    let path = result_path(&dir, &job);
    if let Some(answer) = read_result(tree, &path)? {
        writeln!(std::io::stdout(), "task {index} (leaf {}): already answered, {}", job.leaf, bounds_text(&answer))?;
        return Ok(());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let rules = *tree.rules();
    let (options, note) = args.engine.options(&rules)?;
    if let Some(note) = note {
        eprintln!("kalah: {note}");
    }
    let solver = Solver::new(options);
    // One checkpoint a leaf: the bounds and the table it keeps serve any question of the leaf.
    let checkpoint = dir.join(format!("leaf-{}.ckpt", job.leaf));
    let (file, claim) = claim_checkpoint(&checkpoint, &rules, &job.position, solver.proofs())?;
    let (known, resumed) = match claim {
        Claim::Resumed(saved) => {
            eprintln!("task {index}: resuming from {}", checkpoint.display());
            (Some(saved.bounds), saved.nodes)
        }
        Claim::Damaged(damage) => {
            eprintln!("kalah: checkpoint {} is damaged ({damage}): the task starts afresh", checkpoint.display());
            (None, 0)
        }
        Claim::Fresh => (None, 0),
    };
    let stop = stop_on_signals();
    // After the handler: a stop once this line is out saves the checkpoint.
    if args.verbose {
        eprintln!(
            "task {index} (leaf {}): proving whether {} is worth at least {:+} to {}; a stop saves {}",
            job.leaf,
            job.position,
            job.at_least,
            job.position.mover(),
            checkpoint.display()
        );
    }
    let started = Instant::now();
    match solver.bound(&job.position, &rules, known, job.question(), Limits::default(), Some(&stop)) {
        Ok((info, bounds)) => {
            let answer = job.answer(bounds, info.best, info.nodes + resumed, started.elapsed().as_secs_f64());
            files::replace(&path, &RESULT, tree.write_answer(&answer).as_bytes())
                .map_err(|e| e.into_error("a task writes its result only where there is none"))?;
            if let Err(e) = remove_checkpoint(&file) {
                eprintln!("kalah: the checkpoint was not removed: {e}");
            }
            writeln!(
                std::io::stdout(),
                "task {index} (leaf {}: at least {:+} for {}?): {}, {} nodes, {:.2} s",
                job.leaf,
                job.at_least,
                job.position.mover(),
                bounds_text(&answer),
                answer.nodes,
                answer.seconds
            )?;
            Ok(())
        }
        Err(stopped) => {
            let nodes = resumed + stopped.nodes;
            match save_checkpoint(&file, stopped.bounds, nodes, solver.proofs()) {
                Ok(()) => {
                    eprintln!("task {index}: stopped; saved {}; run the task again to resume", checkpoint.display())
                }
                Err(e) => eprintln!("task {index}: stopped; could not save a checkpoint: {e}"),
            }
            std::process::exit(130);
        }
    }
}

/// Reads every result in `dir` (files `leaf-*.json`); one that is damaged or not of this tree
/// stops the merge, naming it.
fn answers(tree: &Tree, dir: &Path) -> Result<Vec<Answer>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(anyhow::Error::new(e).context(format!("cannot read {}", dir.display()))),
    };
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.with_context(|| format!("cannot read {}", dir.display()))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("leaf-") && name.ends_with(".json") {
            paths.push(path);
        }
    }
    paths.sort();
    let mut found = Vec::new();
    for path in paths {
        found.extend(read_result(tree, &path)?);
    }
    Ok(found)
}

/// The next round, as written.
struct NextRound {
    path: PathBuf,
    manifest: Manifest,
}

/// Merges the results of the manifest's tree and reports; writes and returns the next round
/// while the value is not decided.
fn merge(files: &ResultsArgs, next: Option<&Path>, json: bool) -> Result<Option<NextRound>> {
    let manifest = read_manifest(&files.manifest)?;
    let tree = &manifest.tree;
    let dir = results_dir(&files.manifest, files.results.as_deref(), tree);
    let found = answers(tree, &dir)?;
    let merged = tree.merge(&found);
    let following = match manifest.next(&found) {
        None => None,
        // The next round would ask this round's question again, of the same tasks.
        Some(_)
            if !manifest.tasks.iter().any(|t| found.iter().any(|a| (a.leaf, a.at_least) == (t.leaf, t.at_least))) =>
        {
            return Err(bad(format!(
                "no task of round {} of {} is answered in {}: answer them first (`kalah solve task` or `kalah solve run`)",
                manifest.round,
                files.manifest.display(),
                dir.display()
            )));
        }
        Some(following) => {
            let path = next.map_or_else(
                || {
                    let name = format!("{}-round{}.jsonl", tree.id(), following.round);
                    files.manifest.parent().unwrap_or(Path::new("")).join(name)
                },
                Path::to_path_buf,
            );
            let text = following.write();
            // The same round may be written again; any other file there is left alone.
            match std::fs::read(&path) {
                Ok(old) if old == text.as_bytes() => {}
                Ok(_) => {
                    return Err(bad(format!(
                        "{} exists and is not the next round's manifest: give another --next",
                        path.display()
                    )))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    files::replace(&path, &MANIFEST, text.as_bytes())
                        .map_err(|e| e.into_error("give another --next"))?;
                }
                Err(e) => return Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
            }
            Some(NextRound { path, manifest: following })
        }
    };
    report(tree, &merged, &found, manifest.round, following.as_ref(), json)?;
    Ok(following)
}

fn report(
    tree: &Tree,
    merged: &Merged,
    found: &[Answer],
    round: u32,
    next: Option<&NextRound>,
    json: bool,
) -> Result<()> {
    let side: Side = tree.root().mover();
    let nodes: u64 = found.iter().map(|a| a.nodes).sum();
    let seconds: f64 = found.iter().map(|a| a.seconds).sum();
    let mut out = std::io::stdout().lock();
    if json {
        let value = serde_json::json!({
            "rules": tree.rules().to_string(),
            "position": tree.root().to_string(),
            "side": side.name(),
            "decided": merged.decided(),
            "lower": merged.lower,
            "upper": merged.upper,
            "best": merged.best.map(|m| m.number()),
            "leaves": tree.leaves().len(),
            "answered_leaves": merged.answered,
            "results": found.len(),
            "round": round,
            "next": next.map(|n| n.path.display().to_string()),
            "next_tasks": next.map(|n| n.manifest.tasks.len()),
            "nodes": nodes,
            "task_seconds": seconds,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        return Ok(());
    }
    writeln!(out, "{}, {}", tree.rules(), tree.root())?;
    if merged.decided() {
        writeln!(out, "value: {:+} for {side} with perfect play", merged.lower)?;
        let best = merged.best.map_or("none (the game is over)".to_string(), |m| m.to_string());
        writeln!(out, "best move: {best}")?;
    } else {
        writeln!(out, "value: between {:+} and {:+} for {side}; not yet decided", merged.lower, merged.upper)?;
    }
    writeln!(
        out,
        "proof: {} results for {} of {} leaves ({} sowings deep), round {round}; {nodes} nodes, {seconds:.1} s of tasks",
        found.len(),
        merged.answered,
        tree.leaves().len(),
        tree.depth()
    )?;
    if let Some(next) = next {
        writeln!(
            out,
            "next: round {}, {} ({} tasks: is it worth at least {:+} to {side}?)",
            next.manifest.round,
            next.path.display(),
            next.manifest.tasks.len(),
            next.manifest.beta
        )?;
    }
    Ok(())
}

fn run_local(args: RunArgs) -> Result<()> {
    if !(1..=256).contains(&args.local) {
        return Err(bad(format!("--local {} is out of range: 1 to 256 processes", args.local)));
    }
    let mut files = ResultsArgs { manifest: args.files.manifest.clone(), results: args.files.results.clone() };
    let exe = std::env::current_exe().context("cannot find the kalah program to start the tasks")?;
    // The children hear Ctrl-C from the terminal themselves and save their checkpoints; this
    // process stops starting new ones.
    let stop = stop_on_signals();
    loop {
        let manifest = read_manifest(&files.manifest)?;
        let tree = &manifest.tree;
        let dir = results_dir(&files.manifest, files.results.as_deref(), tree);
        args.engine.options(tree.rules())?;
        let mut waiting = Vec::new();
        for (index, job) in manifest.tasks.iter().enumerate() {
            if read_result(tree, &result_path(&dir, job))?.is_none() {
                waiting.push(index);
            }
        }
        let mut common: Vec<String> = vec![
            "solve".into(),
            "task".into(),
            "--manifest".into(),
            files.manifest.display().to_string(),
            "--results".into(),
            dir.display().to_string(),
            "--hash".into(),
            args.engine.hash.to_string(),
            "--threads".into(),
            args.engine.threads.to_string(),
        ];
        if let Some(egdb) = &args.engine.egdb_dir {
            common.extend(["--egdb-dir".into(), egdb.display().to_string()]);
        }
        if args.engine.no_egdb {
            common.push("--no-egdb".into());
        }
        if let Some(memory) = args.engine.memory {
            common.extend(["--memory".into(), memory.to_string()]);
        }
        eprintln!(
            "round {}: running {} of {} tasks, {} at a time",
            manifest.round,
            waiting.len(),
            manifest.tasks.len(),
            args.local
        );
        let mut running: Vec<(usize, std::process::Child)> = Vec::new();
        let mut failed = Vec::new();
        let mut queue = waiting.into_iter();
        let mut told = false;
        loop {
            if stop.load(Ordering::Relaxed) && !told {
                // A stop that reached only this process (a batch system's TERM, `timeout`) is
                // passed on, so that each task saves its checkpoint.
                told = true;
                for (_, child) in &mut running {
                    terminate(child);
                }
            }
            while running.len() < args.local && !stop.load(Ordering::Relaxed) {
                let Some(index) = queue.next() else { break };
                let child = Command::new(&exe)
                    .args(&common)
                    .args(["--index", &index.to_string()])
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .context("cannot start a task")?;
                running.push((index, child));
            }
            if running.is_empty() {
                break;
            }
            let mut i = 0;
            while i < running.len() {
                match running[i].1.try_wait().context("cannot wait for a task")? {
                    Some(status) => {
                        let (index, _) = running.swap_remove(i);
                        if !status.success() && !told {
                            failed.push(index);
                        }
                    }
                    None => i += 1,
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        if stop.load(Ordering::Relaxed) {
            eprintln!("stopped: run the same command to go on (answered tasks are not asked again)");
            std::process::exit(130);
        }
        if !failed.is_empty() {
            failed.sort_unstable();
            return Err(anyhow::anyhow!(
                "{} tasks of {} failed (indexes {failed:?}); run the same command to try them again",
                failed.len(),
                files.manifest.display()
            ));
        }
        match merge(&files, None, false)? {
            None => return Ok(()),
            Some(next) => files.manifest = next.path,
        }
    }
}

/// Asks a task to stop and save its checkpoint: SIGTERM through kill(1), which keeps this
/// crate free of unsafe code; where that fails, the task is killed (its last checkpoint stays).
fn terminate(child: &mut std::process::Child) {
    let asked = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    if !asked.is_ok_and(|status| status.success()) {
        let _ = child.kill();
    }
}
