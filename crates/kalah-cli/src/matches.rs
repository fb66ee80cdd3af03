//! `kalah match`: two players over a number of games, with wins, draws, losses and the Elo difference.

use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kalah_course::arena::{play_match, BoxedPlayer, Elo, GameSummary, MatchConfig, MatchResult};
use kalah_course::player::Strength;
use kalah_engine::databases::Memory;
use kalah_engine::search::DEFAULT_TABLE_BYTES;

use crate::args::RuleArgs;
use crate::engine::shared_databases;
use crate::error::bad;
use crate::players::PlayerSpec;

/// The most games one match plays.
const MAX_GAMES: u32 = 1_000_000;
/// The longest opening, in sowings.
const MAX_OPENING: u32 = 40;
/// The most threads a match uses.
const MAX_THREADS: usize = 64;
/// The depth of searches without their own strength when neither `--depth` nor `--time` is given.
const DEFAULT_DEPTH: u32 = 6;

/// Flags of `kalah match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first player: random, greedy, engine, minimax, alphabeta or ordered; a search may add :depth=N or :time=MS
    #[arg(long, value_name = "SPEC")]
    pub first: String,
    /// The second player, written as for --first
    #[arg(long, value_name = "SPEC")]
    pub second: String,
    /// Games to play (1 to 1000000), in pairs from one opening with each player South once
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub games: u32,
    /// Seed of the openings and of random players' moves
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Depth of searches without a strength of their own (1 to 64) [default: 6 unless --time is given]
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Milliseconds a move for searches without a strength of their own (1 to 3600000)
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// A clock for each player's whole game instead: milliseconds for the game and, after a +, added a move
    #[arg(long, value_name = "MS[+MS]")]
    pub clock: Option<String>,
    /// Random sowings at the start of each game pair (0 to 40)
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub opening: u32,
    /// Games played at the same time (1 to 64); timed searches then share the processor
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Print the result as one JSON object
    #[arg(long)]
    pub json: bool,
    /// The size and rule variants of every game.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Reads `--depth`, `--time` and `--clock` into the strength of searches that have none of their own.
pub fn default_strength(depth: Option<u32>, time: Option<u64>, clock: Option<&str>) -> Result<Strength> {
    crate::players::strength_from_flags(depth, time, clock, Strength::Depth(DEFAULT_DEPTH))
}

/// Reads a player for a match: anything but a human, who cannot sit through a match.
fn program(flag: &str, text: &str) -> Result<PlayerSpec> {
    match text.parse::<PlayerSpec>().map_err(|e| bad(format!("{flag}: {e}")))? {
        PlayerSpec::Human => Err(bad(format!(
            "{flag} human: a match is between programs; accepted are random, greedy, engine, minimax, alphabeta, ordered"
        ))),
        spec => Ok(spec),
    }
}

/// Writes an Elo difference with its margin, e.g. `+191 ± 134 (95%)`.
pub fn format_elo(elo: &Elo) -> String {
    let difference = if elo.difference.round() == 0.0 {
        "0".to_string()
    } else if elo.difference.is_finite() {
        format!("{:+.0}", elo.difference)
    } else if elo.difference > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    };
    let margin = if elo.margin.is_finite() { format!("{:.0}", elo.margin) } else { "inf".to_string() };
    format!("{difference} ± {margin} (95%)")
}

/// Returns a finite number, or `None` for JSON (which has no infinity).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The printed result of a match.
#[derive(serde::Serialize)]
struct Report<'a> {
    first: &'a str,
    second: &'a str,
    rules: String,
    games: u32,
    seed: u64,
    opening_plies: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: f64,
    average_difference: f64,
    elo: Option<f64>,
    elo_margin: Option<f64>,
}

/// Runs `kalah match`.
pub fn run(args: MatchArgs) -> Result<()> {
    let first = program("--first", &args.first)?;
    let second = program("--second", &args.second)?;
    if !(1..=MAX_GAMES).contains(&args.games) {
        return Err(bad(format!("--games {} is out of range: a match plays 1 to {MAX_GAMES} games", args.games)));
    }
    if args.opening > MAX_OPENING {
        return Err(bad(format!("--opening {} is out of range: give 0 to {MAX_OPENING} sowings", args.opening)));
    }
    if !(1..=MAX_THREADS).contains(&args.threads) {
        return Err(bad(format!("--threads {} is out of range: give 1 to {MAX_THREADS}", args.threads)));
    }
    let strength = default_strength(args.depth, args.time, args.clock.as_deref())?;
    let rules = args.rules.rules()?;
    // Every engine of the match shares the databases, beside two tables a game played at once.
    let tables = Memory::bytes((2 * args.threads * DEFAULT_TABLE_BYTES) as u64);
    let databases = shared_databases(kalah_engine::egdb::default_dir(), tables);
    let build = |spec: &PlayerSpec, seed: u64| -> BoxedPlayer {
        // Humans were refused above, so every spec builds; the greedy player stands in for safety.
        spec.build(strength, seed, databases.as_ref()).unwrap_or_else(|| Box::new(kalah_course::player::GreedyPlayer))
    };
    let first_factory = |seed: u64| build(&first, seed);
    let second_factory = |seed: u64| build(&second, seed);
    let first_name = build(&first, 0).name();
    let second_name = build(&second, 0).name();
    let config =
        MatchConfig { rules, games: args.games, seed: args.seed, opening_plies: args.opening, threads: args.threads };

    let progress = ProgressBar::new(u64::from(args.games));
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let tally = [AtomicU32::new(0), AtomicU32::new(0), AtomicU32::new(0)];
    let on_game = |game: &GameSummary| {
        let slot = match game.first_store.cmp(&game.second_store) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        };
        tally[slot].fetch_add(1, Ordering::Relaxed);
        let [w, d, l] = tally.each_ref().map(|t| t.load(Ordering::Relaxed));
        progress.set_message(format!("+{w} ={d} -{l}"));
        progress.inc(1);
    };
    let result = play_match(&config, &first_factory, &second_factory, &on_game);
    progress.finish_and_clear();
    let result = result?;

    let mut out = std::io::stdout().lock();
    if args.json {
        let report = report(&first_name, &second_name, &config, &result);
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        print_text(&mut out, &first_name, &second_name, &config, &result)?;
    }
    Ok(())
}

fn report<'a>(first: &'a str, second: &'a str, config: &MatchConfig, result: &MatchResult) -> Report<'a> {
    let elo = result.elo();
    Report {
        first,
        second,
        rules: config.rules.to_string(),
        games: result.played(),
        seed: config.seed,
        opening_plies: config.opening_plies,
        wins: result.wins,
        draws: result.draws,
        losses: result.losses,
        score: result.score(),
        average_difference: result.average_difference(),
        elo: finite(elo.difference),
        elo_margin: finite(elo.margin),
    }
}

fn print_text(
    out: &mut impl Write,
    first: &str,
    second: &str,
    config: &MatchConfig,
    result: &MatchResult,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{first} vs {second}: {} games of {}, seed {}, openings of {} sowings",
        result.played(),
        config.rules,
        config.seed,
        config.opening_plies
    )?;
    writeln!(out, "{:<24}{}", "first player", first)?;
    writeln!(out, "{:<24}{}", "second player", second)?;
    writeln!(out, "{:<24}{} / {} / {}", "wins / draws / losses", result.wins, result.draws, result.losses)?;
    writeln!(out, "{:<24}{:.1}%", "score", 100.0 * result.score())?;
    writeln!(out, "{:<24}{:+.2} seeds (first minus second)", "average difference", result.average_difference())?;
    writeln!(out, "{:<24}{}", "Elo difference", format_elo(&result.elo()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_read_and_refuse() {
        assert_eq!(default_strength(None, None, None).unwrap(), Strength::Depth(DEFAULT_DEPTH));
        assert_eq!(default_strength(Some(3), None, None).unwrap(), Strength::Depth(3));
        assert_eq!(
            default_strength(None, Some(50), None).unwrap(),
            Strength::Time(std::time::Duration::from_millis(50))
        );
        for (depth, time) in
            [(Some(0), None), (Some(65), None), (None, Some(0)), (Some(3), Some(50)), (None, Some(3_600_001))]
        {
            let error = default_strength(depth, time, None).unwrap_err();
            assert_eq!(crate::error::exit_status(&error), 2, "{depth:?} {time:?}");
        }
    }

    #[test]
    fn humans_are_refused() {
        assert!(program("--first", "human").is_err());
        assert!(program("--first", "robot").is_err());
        assert_eq!(program("--first", "greedy").unwrap(), PlayerSpec::Greedy);
    }

    #[test]
    fn elo_reads_well_even_when_infinite() {
        assert_eq!(format_elo(&Elo { difference: 190.85, margin: 134.4 }), "+191 ± 134 (95%)");
        assert_eq!(format_elo(&Elo { difference: f64::INFINITY, margin: f64::INFINITY }), "+inf ± inf (95%)");
        assert_eq!(format_elo(&Elo { difference: -0.2, margin: 0.0 }), "0 ± 0 (95%)");
    }
}
