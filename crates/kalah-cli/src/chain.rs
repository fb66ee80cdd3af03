//! `kalah chain`: chains of extra moves: the row of N seeds one turn clears, the longest chain in M
//! houses, the growth of s(n) against n²/π, and the longest chain from a position.

use std::io::{BufWriter, Write};

use anyhow::Result;
use clap::Args;
use kalah_rules::chain::{
    fewest_seeds_needing, longest_chain, Chain, Pattern, DEFAULT_POSITION_LIMIT, MAX_HOUSES as MAX_PATTERN_HOUSES,
    MAX_SEEDS,
};
use kalah_rules::rules::MAX_HOUSES;
use kalah_rules::{Position, Rules, Side};
use serde_json::json;

use crate::analyze::line;
use crate::args::RuleArgs;
use crate::error::bad;

/// Patterns of at most this many seeds list their moves unless `--moves` asks for all.
const LISTED_MOVES: u64 = 100;

/// The moves shown of a longer pattern without `--moves`.
const SHOWN_MOVES: usize = 20;

/// The most moves `--moves` lists (a hundred million, about 700 MB of text).
const MAX_LISTED_MOVES: u64 = 100_000_000;

/// The most positions `--limit` takes.
const MAX_LIMIT: usize = 100_000_000;

/// The numbers of houses in the `--growth` table.
const GROWTH_HOUSES: [u64; 13] = [1, 2, 3, 4, 5, 6, 7, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/// Flags of `kalah chain`.
#[derive(Args, Debug)]
pub struct ChainArgs {
    /// A position (notation or KGP board, `start` for the rules' start): the longest chain of extra
    /// moves the player to move can make from it
    pub position: Option<String>,
    /// The pattern of N seeds (1 to 1000000000000) that one turn of N extra moves clears, counted from the store
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seeds: Option<String>,
    /// The largest pattern that fits in M houses (1 to 1000000): the longest chain there
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub houses: Option<String>,
    /// A table of s(n), the fewest seeds whose pattern needs n houses, against n²/π
    #[arg(long)]
    pub growth: bool,
    /// List every clearing move of --seeds or --houses (by default only patterns of up to 100 seeds do)
    #[arg(long)]
    pub moves: bool,
    /// Positions a POSITION's search remembers before it stops with the longest chain found
    /// (1 to 100000000) [default: 1000000]
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub limit: Option<String>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Runs `kalah chain`.
pub fn run(args: ChainArgs) -> Result<()> {
    let asked = [args.position.is_some(), args.seeds.is_some(), args.houses.is_some(), args.growth];
    if asked.iter().filter(|&&a| a).count() != 1 {
        return Err(bad("give exactly one of --seeds N, --houses M, --growth or a POSITION"));
    }
    if args.limit.is_some() && args.position.is_none() {
        return Err(bad("--limit bounds the search from a POSITION: give one, or leave out --limit"));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    if let Some(text) = &args.position {
        if args.moves {
            return Err(bad(
                "--moves lists the clearing moves of --seeds or --houses; a POSITION's chain is always listed",
            ));
        }
        let limit = match &args.limit {
            Some(text) => number("--limit", text, MAX_LIMIT as u64)? as usize,
            None => DEFAULT_POSITION_LIMIT,
        };
        let start = (text != "start").then_some(text.as_str());
        let (rules, position) = args.rules.rules_and_position(start)?;
        from_position(&mut out, &position, &rules, limit, args.json)?;
        return Ok(out.flush()?);
    }
    // Comparing the Debug text covers every rule flag, including ones added to RuleArgs later.
    if format!("{:?}", args.rules) != format!("{:?}", RuleArgs::default()) {
        return Err(bad(
            "the rule flags (--size, --rules, ...) apply to a POSITION only: patterns are of a single row",
        ));
    }
    if args.growth {
        if args.moves {
            return Err(bad("--moves lists the clearing moves of --seeds or --houses, not of --growth"));
        }
        growth(&mut out, args.json)?;
    } else if let Some(text) = &args.seeds {
        let pattern =
            Pattern::of_seeds(number("--seeds", text, MAX_SEEDS)?).map_err(|e| bad(format!("--seeds: {e}")))?;
        report(&mut out, &pattern, None, args.moves, args.json)?;
    } else if let Some(text) = &args.houses {
        let houses = number("--houses", text, MAX_PATTERN_HOUSES)?;
        let pattern = Pattern::longest_in(houses).map_err(|e| bad(format!("--houses: {e}")))?;
        report(&mut out, &pattern, Some(houses), args.moves, args.json)?;
    }
    Ok(out.flush()?)
}

/// Reads a whole number from 1 to `max` given to `flag`.
fn number(flag: &str, text: &str, max: u64) -> Result<u64> {
    match text.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            Err(bad(format!("{flag} {text} is out of range: give 1 to {max}")))
        }
        _ => Err(bad(format!("{flag} {text:?} is not a whole number: give one from 1 to {max}"))),
    }
}

/// Writes numbers separated by spaces.
fn spaced(numbers: impl IntoIterator<Item = u64>) -> String {
    numbers.into_iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

/// Writes a pattern: its seeds and houses, the row, how often each house is sown, and the moves.
fn report(out: &mut impl Write, pattern: &Pattern, fits_in: Option<u64>, all_moves: bool, json: bool) -> Result<()> {
    let seeds = pattern.seeds();
    let houses = pattern.houses().len() as u64;
    if all_moves && seeds > MAX_LISTED_MOVES {
        return Err(bad(format!("--moves lists at most {MAX_LISTED_MOVES} moves: this pattern has {seeds}")));
    }
    let listed = all_moves || seeds <= LISTED_MOVES;
    // On a Kalah board the notation numbers South's houses from the far end: house i from the store is m+1−i.
    let board = (houses <= u64::from(MAX_HOUSES)).then(|| {
        let row: Vec<String> = pattern.houses().iter().rev().map(u64::to_string).collect();
        (row.join(","), pattern.moves().map(|d| houses + 1 - d).collect::<Vec<_>>())
    });
    if json {
        let value = json!({
            "seeds": seeds,
            "houses": houses,
            "fits_in": fits_in,
            "pattern": pattern.houses(),
            "plays": pattern.plays(),
            "moves": listed.then(|| pattern.moves().collect::<Vec<_>>()),
            "row": board.as_ref().map(|(row, _)| row),
            "row_moves": board.as_ref().map(|(_, moves)| moves),
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    if let Some(m) = fits_in {
        writeln!(out, "the longest chain in {m} houses: {seeds} moves ({} seeds need {} houses)", seeds + 1, m + 1)?;
    }
    writeln!(out, "seeds: {seeds}, cleared by {seeds} extra moves")?;
    writeln!(out, "houses: {houses}")?;
    writeln!(out, "pattern: {}", spaced(pattern.houses().iter().copied()))?;
    writeln!(out, "plays: {}", spaced(pattern.plays()))?;
    if listed {
        write!(out, "moves:")?;
        for mv in pattern.moves() {
            write!(out, " {mv}")?;
        }
        writeln!(out)?;
    } else {
        let first = spaced(pattern.moves().take(SHOWN_MOVES));
        writeln!(out, "moves: {first} ... ({seeds} in all; --moves lists them all)")?;
    }
    writeln!(
        out,
        "(houses count from the store: house i ends in it when it holds i seeds; plays: the sowings of each)"
    )?;
    if let Some((row, moves)) = board {
        writeln!(out, "as South's row in the position notation: {row}, moves {}", spaced(moves))?;
    }
    Ok(())
}

/// Writes the table of s(n) against n²/π.
fn growth(out: &mut impl Write, json: bool) -> Result<()> {
    let rows: Vec<(u64, u64, f64)> = GROWTH_HOUSES
        .iter()
        .map(|&n| {
            let s = fewest_seeds_needing(n).expect("the table's houses are in range");
            (n, s, (n as f64).powi(2) / std::f64::consts::PI)
        })
        .collect();
    if json {
        let rows: Vec<_> =
            rows.iter().map(|&(n, s, law)| json!({"houses": n, "seeds": s, "ratio": s as f64 / law})).collect();
        writeln!(out, "{}", json!({ "growth": rows }))?;
        return Ok(());
    }
    writeln!(out, "s(n): the fewest seeds whose pattern needs n houses; Broline and Loeb: s(n) ~ n²/π")?;
    writeln!(out, "{:>9}  {:>14}  {:>18}  {:>10}", "n", "s(n)", "n²/π", "s(n)·π/n²")?;
    for (n, s, law) in rows {
        writeln!(out, "{n:>9}  {s:>14}  {law:>18.1}  {:>10.6}", s as f64 / law)?;
    }
    Ok(())
}

/// Writes the longest chain of extra moves from a position.
fn from_position(out: &mut impl Write, position: &Position, rules: &Rules, limit: usize, json: bool) -> Result<()> {
    let chain = longest_chain(position, rules, limit);
    let side = position.mover();
    if json {
        let value = json!({
            "position": position.to_string(),
            "rules": rules.to_string(),
            "side": side.name(),
            "over": position.is_over(rules),
            "length": chain.moves.len(),
            "moves": chain.moves.iter().map(|m| m.number()).collect::<Vec<_>>(),
            "ends_game": chain.ends_game,
            "complete": chain.complete,
            "positions": chain.positions,
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    if position.is_over(rules) {
        writeln!(out, "the game is over: {side} has no move")?;
        return Ok(());
    }
    writeln!(out, "{}", describe(&chain, side))?;
    if !chain.moves.is_empty() {
        if chain.ends_game {
            writeln!(out, "the last one ends the game")?;
        } else {
            let them = if chain.moves.len() == 1 { "it" } else { "them" };
            writeln!(out, "after {them} {side} is still to move")?;
        }
    }
    writeln!(out, "positions searched: {}", chain.positions)?;
    Ok(())
}

/// Describes a chain in one line, for `kalah chain POSITION` and the `chain` command of `kalah play`.
pub fn describe(chain: &Chain, side: Side) -> String {
    let mut text = match chain.moves.len() {
        0 => format!("no move of {side} ends in its store: no extra move"),
        1 => format!("{side} can make 1 extra move: {}", line(&chain.moves)),
        n => format!("{side} can make {n} extra moves in a row: {}", line(&chain.moves)),
    };
    if !chain.complete {
        text.push_str(&format!(" (the search stopped at {} positions: a longer chain may exist)", chain.positions));
    }
    text
}
