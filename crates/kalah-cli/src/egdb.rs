//! `kalah egdb`: build, inspect and probe endgame databases.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use kalah_egdb::{self as egdb, BuildEvent, BuildOptions, Egdb, EgdbError, MAX_SEEDS};
use kalah_rules::rules::{word_of, CAPTURE_WORDS, END_WORDS, LEFTOVER_WORDS, SOWING_WORDS};
use kalah_rules::Rules;

use crate::args::RuleArgs;
use crate::error::bad;

/// Flags of `kalah egdb`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub action: EgdbAction,
    /// Database folder [default: $XDG_CACHE_HOME/kalah/egdb, else ~/.cache/kalah/egdb]
    #[arg(long, value_name = "DIR", global = true)]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// What `kalah egdb` does.
#[derive(Subcommand, Debug)]
pub enum EgdbAction {
    /// Build layers 0..=K, keeping the layers already built (stop and restart at will)
    Build {
        /// Most seeds in the houses (K), 0 to 127; Kalah(6,·) has C(K+12,12) positions, 52 MB for 18, 13.9 GB for 32
        #[arg(long, value_name = "K")]
        seeds: u32,
        /// Threads, 1 to 64 [default: the number of cores]
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
    /// List the layers on disk, their sizes and whether each passes its checks
    Info,
    /// Give the database value of a position and the value of each move
    Probe {
        /// Position in the position notation, e.g. 0,0,1,2:10/1,0,0,0:6/S
        position: String,
    },
}

/// Runs `kalah egdb`.
pub fn run(args: EgdbArgs) -> Result<()> {
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => egdb::default_dir().ok_or_else(|| {
            bad("cannot find a cache folder (neither XDG_CACHE_HOME nor HOME is set): give one with --dir")
        })?,
    };
    folder_or_none(&dir)?;
    match args.action {
        EgdbAction::Build { seeds, threads } => {
            let rules = checked_rules(&args.rules)?;
            build(&dir, &rules, seeds, threads)
        }
        EgdbAction::Info => info(&dir, &checked_rules(&args.rules)?),
        EgdbAction::Probe { position } => probe(&dir, &args.rules, &position),
    }
}

/// Refuses a database folder that is a file, or lies under one: it could never be created.
fn folder_or_none(dir: &std::path::Path) -> Result<()> {
    let Some(existing) = dir.ancestors().find(|a| !a.as_os_str().is_empty() && a.exists()) else { return Ok(()) };
    if existing.is_dir() {
        return Ok(());
    }
    let under = if existing == dir { String::new() } else { format!(" ({} is not a folder)", existing.display()) };
    Err(bad(format!(
        "{} cannot be a database folder{under}: give --dir a folder, or a path where one can be created",
        dir.display()
    )))
}

/// Builds the rules from the flags and checks a database can hold them.
fn checked_rules(flags: &RuleArgs) -> Result<Rules> {
    let rules = flags.rules()?;
    egdb::supports(&rules).map_err(bad)?;
    Ok(rules)
}

/// Describes the rules a database is for: n does not matter, so it is not named.
fn describe(rules: &Rules) -> String {
    format!(
        "Kalah({},·) capture={} end={} leftover={} sowing={}",
        rules.houses(),
        word_of(&CAPTURE_WORDS, rules.capture),
        word_of(&END_WORDS, rules.end),
        word_of(&LEFTOVER_WORDS, rules.leftover),
        word_of(&SOWING_WORDS, rules.sowing)
    )
}

/// Writes a byte count with a decimal unit.
fn size(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn build(dir: &std::path::Path, rules: &Rules, seeds: u32, threads: Option<usize>) -> Result<()> {
    if seeds > MAX_SEEDS {
        return Err(bad(format!("--seeds {seeds} is out of range: a database holds 0 to {MAX_SEEDS} seeds")));
    }
    let threads = match threads {
        Some(n) if !(1..=64).contains(&n) => {
            return Err(bad(format!("--threads {n} is out of range: 1 to 64 threads")))
        }
        Some(n) => n,
        None => BuildOptions::default().threads,
    };
    let total: Option<u64> =
        (0..=seeds).try_fold(0u64, |sum, k| sum.checked_add(egdb::layer_entries(rules.houses(), k)?));
    let total_bytes: Option<u64> = (0..=seeds).try_fold(0u64, |sum, k| sum.checked_add(egdb::layer_bytes(rules, k)?));
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "endgame database for {}, layers 0-{seeds} in {}",
        describe(rules),
        egdb::rules_dir(dir, rules).display()
    )?;
    if let (Some(total), Some(total_bytes)) = (total, total_bytes) {
        writeln!(out, "{total} positions: {} of values", size(total_bytes))?;
    }
    out.flush()?;
    let style =
        ProgressStyle::with_template("layer {prefix:>3} [{bar:40}] {human_pos}/{human_len} positions, {eta} left")
            .expect("the template is valid")
            .progress_chars("=> ");
    let mut bar: Option<ProgressBar> = None;
    let mut failure: Option<std::io::Error> = None;
    let mut report = |out: &mut std::io::StdoutLock, line: String| {
        if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            failure.get_or_insert(e);
        }
    };
    let started = Instant::now();
    let (mut built, mut kept, mut bytes) = (0u32, 0u32, 0u64);
    let result = egdb::build(dir, rules, seeds, &BuildOptions { threads }, &mut |event| match event {
        BuildEvent::Kept { seeds, entries, bytes: b } => {
            kept += 1;
            bytes += b;
            report(
                &mut out,
                format!("layer {seeds:>3}: {entries:>12} positions {:>10}  kept (already built)", size(b)),
            );
        }
        BuildEvent::Repacked { seeds, entries, bytes: b, elapsed } => {
            kept += 1;
            bytes += b;
            report(
                &mut out,
                format!(
                    "layer {seeds:>3}: {entries:>12} positions {:>10}  kept, packed in {}",
                    size(b),
                    seconds(elapsed)
                ),
            );
        }
        BuildEvent::Rejected { seeds, error } => {
            eprintln!("kalah: layer {seeds} is rebuilt: {error}");
        }
        BuildEvent::Started { seeds, entries } => {
            let b = ProgressBar::new(entries).with_style(style.clone()).with_prefix(seeds.to_string());
            bar = Some(b);
        }
        BuildEvent::Progress { done, .. } => {
            if let Some(b) = &bar {
                b.set_position(done);
            }
        }
        BuildEvent::Finished { seeds, entries, bytes: b, elapsed } => {
            if let Some(b) = bar.take() {
                b.finish_and_clear();
            }
            built += 1;
            bytes += b;
            report(
                &mut out,
                format!("layer {seeds:>3}: {entries:>12} positions {:>10}  built in {}", size(b), seconds(elapsed)),
            );
        }
    });
    if let Some(b) = bar.take() {
        b.abandon();
    }
    if let Some(e) = failure {
        return Err(e.into());
    }
    let db = result.map_err(engine_error)?;
    writeln!(
        out,
        "done: layers 0-{} ({built} built, {kept} kept), {} on disk, {} in memory, {}",
        db.max_seeds(),
        size(bytes),
        size(db.memory_bytes() as u64),
        seconds(started.elapsed())
    )?;
    Ok(())
}

/// Maps a database error: unsupported rules and sizes are the user's input, the rest is not.
/// The message holds its cause already, so the cause is not chained (it would be printed twice).
fn engine_error(error: EgdbError) -> anyhow::Error {
    match error {
        EgdbError::Unsupported { .. } | EgdbError::TooManySeeds { .. } | EgdbError::TooLarge { .. } => bad(error),
        other => anyhow!("{other}"),
    }
}

fn info(dir: &std::path::Path, rules: &Rules) -> Result<()> {
    let layers = egdb::inspect(dir, rules).map_err(engine_error)?;
    let mut out = std::io::stdout().lock();
    let folder = egdb::rules_dir(dir, rules);
    writeln!(out, "endgame database for {} in {}", describe(rules), folder.display())?;
    if layers.is_empty() {
        writeln!(out, "no layers: build them with `kalah egdb build --seeds K`")?;
        return Ok(());
    }
    writeln!(out, "{:>5} {:>12} {:>10}  status", "layer", "positions", "size")?;
    let mut usable: Option<u32> = None;
    let mut broken = false;
    let mut failing = Vec::new();
    let mut bytes = 0u64;
    for layer in &layers {
        let status = match &layer.problem {
            None if layer.unpacked => "ok, one byte a value (older format: `kalah egdb build` packs it)".to_string(),
            None => "ok".to_string(),
            Some(EgdbError::Missing { .. }) => "missing".to_string(),
            Some(problem) => format!("BAD: {problem}"),
        };
        if let Some(problem) = &layer.problem {
            broken = true;
            let what = if matches!(problem, EgdbError::Missing { .. }) { "missing" } else { "bad" };
            failing.push(format!("layer {} is {what}", layer.seeds));
        } else if !broken {
            usable = Some(layer.seeds);
            bytes += layer.bytes;
        }
        writeln!(out, "{:>5} {:>12} {:>10}  {status}", layer.seeds, layer.entries, size(layer.bytes))?;
    }
    match usable {
        Some(k) => {
            writeln!(out, "usable: layers 0-{k} (positions with up to {k} seeds in the houses), {}", size(bytes))?
        }
        None => writeln!(out, "usable: none (layer 0 fails its checks)")?,
    }
    if broken {
        writeln!(out, "rebuild the missing or bad layers with `kalah egdb build --seeds {}`", layers.len() - 1)?;
        out.flush()?;
        // A check that fails is a failure of the command, for scripts as for people.
        return Err(anyhow!("{}: the database fails its checks", failing.join(", ")));
    }
    Ok(())
}

fn probe(dir: &std::path::Path, flags: &RuleArgs, text: &str) -> Result<()> {
    let (rules, position) = flags.rules_and_position(Some(text))?;
    egdb::supports(&rules).map_err(bad)?;
    let db = Egdb::open(dir, &rules).map_err(engine_error)?;
    if let Some(issue) = db.issue() {
        eprintln!("kalah: only layers 0-{} are used: {issue}", db.max_seeds());
    }
    let seeds = u32::from(position.seeds_in_houses());
    let moves = db.move_values(&position, &rules);
    // The database leaves out the first move of a game whose first move gives no extra move;
    // its moves' values still give its value.
    let first_move = !rules.first_move_extra && rules.is_first_move(&position);
    let value = match &moves {
        Some(moves) if first_move => moves.iter().map(|&(_, v)| v).max(),
        _ => db.probe(&position),
    };
    let Some(value) = value else {
        return Err(bad(format!(
            "the position has {seeds} seeds in the houses but the database holds up to {}: build more layers with `kalah egdb build --seeds {seeds}`",
            db.max_seeds()
        )));
    };
    let me = position.mover();
    let now = position.store_difference();
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {position}: {seeds} seeds in the houses, {me} to move")?;
    writeln!(
        out,
        "value: {value:+} for {me} from here on; final store difference {:+} (South minus North)",
        now + value * me.sign()
    )?;
    let moves = moves.unwrap_or_default();
    if moves.is_empty() {
        writeln!(out, "the game is over")?;
        return Ok(());
    }
    let best: Vec<String> = moves.iter().filter(|(_, v)| *v == value).map(|(mv, _)| mv.to_string()).collect();
    writeln!(out, "best: {}", best.join(" "))?;
    for (mv, v) in &moves {
        writeln!(out, "  move {mv}: {v:+}{}", if *v == value { "  best" } else { "" })?;
    }
    Ok(())
}
