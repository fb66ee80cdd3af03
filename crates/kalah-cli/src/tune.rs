//! `kalah tune`: tune the evaluation weights by seeded self-play and print them ready for `eval.rs`.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kalah_course::tune::{as_rust, check_against_start, tune, TuneConfig, WEIGHT_LIMIT};

use crate::args::RuleArgs;
use crate::error::bad;
use crate::matches::format_elo;

/// Flags of `kalah tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Seed of the steps and the openings: the same flags give the same weights
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Games in each iteration's match of candidate against best (2 to 100000, even)
    #[arg(long, value_name = "N", default_value_t = 800)]
    pub games: u32,
    /// Candidates to try (1 to 100000)
    #[arg(long, value_name = "K", default_value_t = 200)]
    pub iterations: u32,
    /// Fixed depth of the ordered alpha-beta both sides search with (1 to 64)
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub depth: u32,
    /// Random sowings at the start of each game pair (0 to 40)
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub opening: u32,
    /// Percentage points above 50% a candidate must score to replace the best (0 to below 50, e.g. 2.5)
    #[arg(long, value_name = "PCT", default_value = "3", allow_hyphen_values = true)]
    pub margin: String,
    /// Largest change of a weight in the first iteration, in hundredths of a seed (1 to 400); it shrinks later
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub step: i32,
    /// Games of the final weights against the start on new openings (0 to 100000; 0 skips the check)
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub check_games: u32,
    /// Games played at the same time (1 to 64); the result does not depend on it
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub threads: usize,
    /// The size and rule variants of every game.
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl TuneArgs {
    /// Checks the flags and builds the run they describe.
    fn config(&self) -> Result<TuneConfig> {
        let range =
            |flag: &str, value: String, accepted: &str| bad(format!("{flag} {value} is out of range: {accepted}"));
        if !(2..=100_000).contains(&self.games) || self.games % 2 != 0 {
            return Err(range("--games", self.games.to_string(), "give an even number of games from 2 to 100000"));
        }
        if !(1..=100_000).contains(&self.iterations) {
            return Err(range("--iterations", self.iterations.to_string(), "give 1 to 100000"));
        }
        if !(1..=64).contains(&self.depth) {
            return Err(range("--depth", self.depth.to_string(), "give a depth from 1 to 64"));
        }
        if self.opening > 40 {
            return Err(range("--opening", self.opening.to_string(), "give 0 to 40 sowings"));
        }
        // Read here rather than by clap, so that a refusal repeats the text as it was typed.
        let margin = self.margin.parse::<f64>().ok().filter(|m| (0.0..50.0).contains(m)).ok_or_else(|| {
            range("--margin", self.margin.clone(), "give a number of percentage points from 0 to below 50, e.g. 2.5")
        })?;
        if !(1..=WEIGHT_LIMIT).contains(&self.step) {
            return Err(range("--step", self.step.to_string(), "give 1 to 400 hundredths of a seed"));
        }
        if self.check_games > 100_000 {
            return Err(range("--check-games", self.check_games.to_string(), "give 0 to 100000"));
        }
        if !(1..=64).contains(&self.threads) {
            return Err(range("--threads", self.threads.to_string(), "give 1 to 64"));
        }
        let mut config = TuneConfig::new(self.rules.rules()?, self.seed, self.games, self.iterations);
        config.depth = self.depth;
        config.opening_plies = self.opening;
        config.margin = margin / 100.0;
        config.max_step = self.step;
        config.threads = self.threads;
        Ok(config)
    }
}

/// Runs `kalah tune`.
pub fn run(args: TuneArgs) -> Result<()> {
    let config = args.config()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "tuning {} from {}: ordered alpha-beta depth {}, {} games an iteration, {} iterations, seed {}",
        config.rules,
        as_rust(&config.start),
        config.depth,
        config.games,
        config.iterations,
        config.seed
    )?;
    let progress = ProgressBar::new(u64::from(config.iterations));
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} iterations, {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut printed = Ok(());
    let mut accepted = 0;
    let tuned = tune(&config, &mut |step| {
        accepted += usize::from(step.accepted);
        progress.inc(1);
        progress.set_message(format!("{accepted} accepted"));
        if step.accepted && printed.is_ok() {
            let r = &step.result;
            printed = progress.suspend(|| {
                writeln!(
                    out,
                    "iteration {:>4}: {} {} -> {}: {:.1}% ({}-{}-{}) against the best, accepted",
                    step.iteration,
                    step.feature,
                    step.from,
                    step.to,
                    100.0 * r.score(),
                    r.wins,
                    r.draws,
                    r.losses
                )
            });
        }
    });
    progress.finish_and_clear();
    let tuned = tuned?;
    printed?;
    writeln!(
        out,
        "{} iterations, {} accepted; the weights, for crates/kalah-engine/src/eval.rs:",
        config.iterations,
        tuned.accepted()
    )?;
    writeln!(out, "    pub const TUNED: Weights = {};", as_rust(&tuned.weights))?;
    if args.check_games > 0 {
        let check = check_against_start(&config, tuned.weights, args.check_games, &|_| {})?;
        writeln!(
            out,
            "check against the start over {} new games at depth {}: {}-{}-{}, score {:.1}%, average difference {:+.2}, Elo {}",
            check.played(),
            config.depth,
            check.wins,
            check.draws,
            check.losses,
            100.0 * check.score(),
            check.average_difference(),
            format_elo(&check.elo())
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        tune: TuneArgs,
    }

    fn config(flags: &[&str]) -> Result<TuneConfig> {
        let cli = Cli::try_parse_from(std::iter::once("tune").chain(flags.iter().copied()))?;
        cli.tune.config()
    }

    #[test]
    fn flags_build_the_run() {
        let run = config(&["--seed", "3", "--games", "8", "--margin", "10", "--size", "4,3"]).unwrap();
        assert_eq!((run.seed, run.games, run.margin, run.rules.houses()), (3, 8, 0.1, 4));
        for bad in [
            &["--games", "0"][..],
            &["--games", "3"],
            &["--iterations", "0"],
            &["--depth", "0"],
            &["--margin", "50"],
            &["--margin", "NaN"],
            &["--step", "0"],
            &["--threads", "0"],
        ] {
            let error = config(bad).unwrap_err();
            assert_eq!(crate::error::exit_status(&error), 2, "{bad:?}");
        }
    }
}
