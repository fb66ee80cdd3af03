//! `kalah solve explore` and `kalah solve book`: every legal move of a position with its exact
//! value (the perfect-play explorer), and the opening books that hold the explorer's answers
//! for a game's first plies.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kalah_engine::book::{self, Book, MAGIC};
use kalah_engine::explorer::{explore, Budget};
use kalah_engine::solver::Solver;
use kalah_rules::Rules;

use crate::args::RuleArgs;
use crate::engine::EngineArgs;
use crate::error::bad;
use crate::files::{self, Kind};

/// Flags of `kalah solve explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// The position, in the position notation or as a KGP board; `start` for the rules' start
    #[arg(default_value = "start")]
    pub position: String,
    /// An opening book to answer from when it holds the position (repeatable)
    #[arg(long, value_name = "FILE")]
    pub book: Vec<PathBuf>,
    /// Stop after about this many nodes in all; moves not settled by then show their proven bounds
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Stop after about this many seconds; moves not settled by then show their proven bounds
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Print one JSON object (the shape of the web API's explore route) instead of text
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Flags of `kalah solve book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// The book covers the moves of positions fewer sowings than this from the start (1-12; an extra move's sowing counts as one)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub plies: u32,
    /// The book to write: a new file, or a book this command wrote before
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// What `--out` of `kalah solve book` may replace: an opening book.
const BOOK: Kind<'static> =
    Kind { name: "a kalah opening book", recognise: Some(&|head: &[u8]| head.starts_with(MAGIC.as_bytes())) };

/// The largest book read: far beyond any that builds in a day.
const MAX_BOOK_BYTES: u64 = 256 << 20;

/// Reads the opening book at `path`; `rules`, when given, are the rules it must be for.
pub fn read_book(path: &std::path::Path, rules: Option<&Rules>) -> Result<Book> {
    let size = std::fs::metadata(path)
        .map_err(|e| bad(format!("cannot read the opening book {}: {e}", path.display())))?
        .len();
    if size > MAX_BOOK_BYTES {
        return Err(bad(format!("{} is too large for an opening book ({size} bytes)", path.display())));
    }
    let bytes =
        std::fs::read(path).map_err(|e| bad(format!("cannot read the opening book {}: {e}", path.display())))?;
    Book::from_bytes(&bytes, rules).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// Runs `kalah solve explore`.
pub fn run_explore(args: ExploreArgs) -> Result<()> {
    let text = (args.position != "start").then_some(args.position.as_str());
    let (rules, position) = args.rules.rules_and_position(text)?;
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(bad(format!("--time {t} is not a time: give a number of seconds above 0")))
        }
        t => t.map(Duration::from_secs_f64),
    };
    let books = args.book.iter().map(|path| read_book(path, Some(&rules))).collect::<Result<Vec<_>>>()?;
    let from_book = book::answer(&books, &rules, &position);
    let started = std::time::Instant::now();
    let (explored, source) = match from_book {
        Some(found) => (found, "book"),
        None => {
            let (options, note) = args.engine.options(&rules)?;
            if let Some(note) = note {
                eprintln!("kalah: {note}");
            }
            let solver = Solver::new(options);
            let stop = crate::solve::stop_on_signals();
            let budget = Budget { nodes: args.nodes, time, stop: Some(&stop) };
            (explore(&solver, &position, &rules, budget), "solver")
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let view = kalah_table::Explored::of(0, &rules, &position, &explored, source, (seconds * 1e3) as u64);
        let mut report = serde_json::to_value(view)?;
        // The version is a game's, which a position given here has not.
        if let Some(object) = report.as_object_mut() {
            object.remove("version");
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let side = position.mover();
    writeln!(out, "{rules}, {position}")?;
    let bounds = explored.bounds;
    match explored.value() {
        Some(v) => writeln!(out, "value: {v:+} for {side} with perfect play (exact)")?,
        None => writeln!(out, "value: between {:+} and {:+} for {side} (not settled)", bounds.lower, bounds.upper)?,
    }
    for m in &explored.moves {
        let value = match m.value() {
            Some(v) => format!("{v:+}"),
            None => format!("{:+}..{:+}", m.bounds.lower, m.bounds.upper),
        };
        let mut notes = Vec::new();
        notes.push(m.verdict().map_or("unknown", |v| v.name()).to_string());
        if explored.best().contains(&m.mv) {
            notes.push("best".into());
        }
        if let Some(lost) = explored.throws_away(m.mv) {
            notes.push(format!("throws away the {}", lost.name()));
        }
        if m.again {
            notes.push("moves again".into());
        }
        writeln!(out, "move {}: {value:>7}  {}", m.mv, notes.join(", "))?;
    }
    writeln!(out, "line: {}", crate::analyze::line(&explored.line))?;
    writeln!(out, "from the {source}; nodes: {}, {seconds:.2} s", explored.nodes)?;
    Ok(())
}

/// Runs `kalah solve book`.
pub fn run_book(args: BookArgs) -> Result<()> {
    const ADVICE: &str = "a book is written only over a book; give another --out";
    let rules = args.rules.rules()?;
    // Checked before the solves, and again when the book is written.
    files::check(&args.out, &BOOK).map_err(|e| e.into_error(ADVICE))?;
    let (options, note) = args.engine.options(&rules)?;
    if let Some(note) = note {
        eprintln!("kalah: {note}");
    }
    let solver = Solver::new(options);
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} positions {msg}")
            .expect("a valid template"),
    );
    let started = std::time::Instant::now();
    let mut nodes = 0;
    let book = Book::build(&solver, &rules, args.plies, |i, count, _, explored| {
        nodes += explored.nodes;
        bar.set_length(count as u64);
        bar.set_position(i as u64 + 1);
    });
    bar.finish_and_clear();
    let text = book.to_text();
    files::replace(&args.out, &BOOK, text.as_bytes()).map_err(|e| e.into_error(ADVICE))?;
    eprintln!(
        "wrote {}: {rules}, {} plies, {} positions, {} bytes; {nodes} nodes, {:.1} s",
        args.out.display(),
        book.plies(),
        book.len(),
        text.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
