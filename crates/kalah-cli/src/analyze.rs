//! `kalah analyze`: the engine's view of a position: best move, value, line, speed, and the
//! exact value when the search proves it.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use kalah_engine::search::Info;
use kalah_engine::time::Limits;
use kalah_rules::{Move, Position};

use crate::args::RuleArgs;
use crate::engine::EngineArgs;
use crate::error::bad;

/// Flags of `kalah analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The position, in the position notation or as a KGP board; `start` for the rules' start
    #[arg(default_value = "start")]
    pub position: String,
    /// Search to this depth in sowings (1-120)
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (default 2000 when no other limit is given)
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search about this many nodes
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Reads the search limits shared by `analyze` and engine players.
pub fn limits(depth: Option<u32>, time: Option<u64>, nodes: Option<u64>, default_ms: u64) -> Result<Limits> {
    if let Some(d) = depth {
        if !(1..=120).contains(&d) {
            return Err(bad(format!("--depth {d} is out of range: 1 to 120 sowings")));
        }
    }
    if let Some(t) = time {
        if !(1..=86_400_000).contains(&t) {
            return Err(bad(format!("--time {t} is out of range: 1 to 86400000 milliseconds")));
        }
    }
    if nodes == Some(0) {
        return Err(bad("--nodes 0 is out of range: give at least 1 node"));
    }
    let mut limits = Limits { depth, nodes, time: time.map(Duration::from_millis), clock: None };
    if depth.is_none() && time.is_none() && nodes.is_none() {
        limits.time = Some(Duration::from_millis(default_ms));
    }
    Ok(limits)
}

/// Writes a line of moves as house numbers separated by spaces.
pub fn line(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// Runs `kalah analyze`.
pub fn run(args: AnalyzeArgs) -> Result<()> {
    let text = (args.position != "start").then_some(args.position.as_str());
    let (rules, position) = args.rules.rules_and_position(text)?;
    let limits = limits(args.depth, args.time, args.nodes, 2000)?;
    let (engine, note) = args.engine.build(&rules)?;
    let mut out = std::io::stdout().lock();
    if let Some(note) = note {
        eprintln!("kalah: {note}");
    }
    if position.is_over(&rules) {
        let value = position.final_difference(&rules) * position.mover().sign();
        if args.json {
            writeln!(
                out,
                "{}",
                serde_json::json!({"position": position.to_string(), "over": true, "value": value, "exact": true})
            )?;
        } else {
            writeln!(out, "the game is over: {value:+} for {}", position.mover())?;
        }
        return Ok(());
    }
    let mut iterations = Vec::new();
    let info = engine.search(&position, limits, None, |info: &Info| {
        if !args.json {
            let _ = writeln!(
                out,
                "depth {:>3}  value {:>7}{}  nodes {:>11}  nps {:>10}  pv {}",
                info.depth,
                info.score,
                if info.score.is_exact() { " exact" } else { "      " },
                info.nodes,
                info.nps(),
                line(&info.pv)
            );
        }
        iterations.push(info.clone());
    });
    report(&mut out, &position, &info, args.json, &iterations)
}

fn report(out: &mut impl Write, position: &Position, info: &Info, json: bool, iterations: &[Info]) -> Result<()> {
    let best = info.best.map(|m| m.number());
    if json {
        let value = serde_json::json!({
            "position": position.to_string(),
            "side": position.mover().name(),
            "best": best,
            "value": info.score.seeds(),
            "exact": info.score.is_exact(),
            "depth": info.depth,
            "pv": info.pv.iter().map(|m| m.number()).collect::<Vec<_>>(),
            "nodes": info.nodes,
            "nps": info.nps(),
            "millis": info.elapsed.as_millis() as u64,
            "iterations": iterations.iter().map(|i| serde_json::json!({
                "depth": i.depth, "value": i.score.seeds(), "exact": i.score.is_exact(),
                "nodes": i.nodes, "pv": i.pv.iter().map(|m| m.number()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        writeln!(out, "best move: {}", best.map_or("none".to_string(), |b| b.to_string()))?;
        writeln!(out, "value: {} seeds for {} (depth {})", info.score, position.mover(), info.depth)?;
        if info.score.is_exact() {
            writeln!(out, "exact value: {:+} (proven)", info.score.whole_seeds())?;
        }
        writeln!(out, "line: {}", line(&info.pv))?;
        writeln!(out, "nodes: {}, {:.3} s, {} nodes a second", info.nodes, info.elapsed.as_secs_f64(), info.nps())?;
    }
    Ok(())
}
