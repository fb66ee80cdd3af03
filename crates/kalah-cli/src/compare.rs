//! `kalah compare`: the average Max and Min calls of the three searches, depth by depth, on
//! sampled positions, on given ones, or on every position of a saved game.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, ValueEnum};
use kalah_course::compare::{compare_at, sample_positions, Row};
use kalah_course::trace::game_positions;
use kalah_engine::eval::Weights;
use kalah_rules::record::Record;
use kalah_rules::{Position, Rules};

use crate::args::RuleArgs;
use crate::error::bad;
use crate::input::{self, MAX_RECORD_BYTES};

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
    /// Compare on this position (the position notation or a KGP board; `start` for the rules'
    /// start) instead of a sample; repeat it for several, averaged
    #[arg(long = "position", value_name = "POSITION", conflicts_with_all = ["positions", "seed", "game"])]
    pub position: Vec<String>,
    /// Compare on every position of a saved game (a game record, as `save` in `kalah play` writes),
    /// averaged: the assignment's averages over a game
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["positions", "seed"])]
    pub game: Option<PathBuf>,
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
    let weights = match args.eval {
        EvalChoice::Store => Weights::STORE,
        EvalChoice::Tuned => Weights::TUNED,
    };
    let (rules, positions, source) = if let Some(path) = &args.game {
        if args.rules.any_given() {
            return Err(bad("--game takes the rules from the game's record: give no rule flags with it"));
        }
        let (rules, positions) = game(path)?;
        (rules, positions, Source::Game(path.display().to_string()))
    } else if !args.position.is_empty() {
        let (rules, positions) = given(&args.rules, &args.position)?;
        (rules, positions, Source::Given)
    } else {
        let rules = args.rules.rules()?;
        let positions = sample_positions(&rules, args.positions, args.seed);
        (rules, positions, Source::Sample(args.seed))
    };
    let mut out = std::io::stdout().lock();
    if !args.json {
        let count = match positions.len() {
            1 => "1 position".to_string(),
            n => format!("{n} positions"),
        };
        let whence = match &source {
            Source::Sample(seed) => format!("(seed {seed})"),
            Source::Given => "(given)".to_string(),
            Source::Game(path) => format!("of the game {path}"),
        };
        writeln!(out, "{rules}, {count} {whence}, {:?} evaluation", args.eval)?;
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
        let mut report = serde_json::json!({
            "rules": rules.to_string(),
            "positions": positions.len(),
            "eval": format!("{:?}", args.eval).to_lowercase(),
            "rows": all,
        });
        match source {
            Source::Sample(seed) => report["seed"] = seed.into(),
            Source::Given => {
                report["given"] = positions.iter().map(ToString::to_string).collect::<Vec<_>>().into();
            }
            Source::Game(path) => report["game"] = path.into(),
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}

/// Where the compared positions come from.
enum Source {
    /// Sampled from games, with this seed.
    Sample(u64),
    /// Given with `--position`.
    Given,
    /// Every position of the game in this record file.
    Game(String),
}

/// Reads the positions given with `--position`: the rules from the flags, the size from the first
/// position when no `--size` is given; every position must be of that size.
fn given(flags: &RuleArgs, texts: &[String]) -> Result<(Rules, Vec<Position>)> {
    let first = texts.iter().find(|t| t.as_str() != "start").map(String::as_str);
    let (rules, _) = flags.rules_and_position(first)?;
    let mut positions = Vec::with_capacity(texts.len());
    for text in texts {
        let position = if text == "start" {
            Position::start(&rules)
        } else {
            Position::parse(text, &rules).map_err(|e| bad(format!("--position {text}: {e}")))?
        };
        if position.is_over(&rules) {
            return Err(bad(format!("--position {text}: the game is over there, so there is nothing to search")));
        }
        positions.push(position);
    }
    Ok((rules, positions))
}

/// Reads a game record and returns its rules and every position of the game where it is not over.
fn game(path: &Path) -> Result<(Rules, Vec<Position>)> {
    let cannot = |e: &dyn std::fmt::Display| bad(format!("--game: cannot load {}: {e}", path.display()));
    let text = input::read_text(path, MAX_RECORD_BYTES).map_err(|e| cannot(&e))?;
    let game = Record::parse(&text).map_err(|e| cannot(&e))?.record.game;
    let positions = game_positions(&game);
    if positions.is_empty() {
        return Err(bad(format!("--game {}: the game is over at its start: no position to search", path.display())));
    }
    Ok((*game.rules(), positions))
}
