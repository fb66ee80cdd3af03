//! `kalah`: play, analyse and study Kalah(m,n) from the command line.

mod analyze;
mod args;
mod bench;
mod board;
mod chain;
mod cluster;
mod compare;
mod completions;
mod egdb;
mod engine;
mod error;
mod explore;
mod fair;
mod fault;
mod files;
mod input;
mod kgp;
mod kgp_server;
mod manual;
mod matches;
mod mkagent;
mod perft;
mod play;
mod players;
mod serve;
mod solve;
mod tune;

use clap::{CommandFactory, Parser, Subcommand};

/// Kalah(m,n) with every common rule variant: play it, search it, count it.
#[derive(Parser, Debug)]
#[command(name = "kalah", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal: people, the engine, or baselines on either side
    Play(play::PlayArgs),
    /// Count the move sequences of exactly DEPTH sowings (perft)
    Perft(perft::PerftArgs),
    /// Compare the Max and Min calls of minimax, alpha-beta and ordered alpha-beta
    Compare(compare::CompareArgs),
    /// Play a match between two players and report wins, draws, losses and Elo
    Match(matches::MatchArgs),
    /// Analyse a position with the strong engine: best move, value, line, speed
    Analyze(analyze::AnalyzeArgs),
    /// Solve a position: its exact value with perfect play, a best move and a perfect line
    Solve(solve::SolveArgs),
    /// Search fixed positions to a fixed depth on one thread: node signature and speed
    Bench(bench::BenchArgs),
    /// Tune the evaluation weights by self-play (seeded, so reproducible)
    Tune(tune::TuneArgs),
    /// Build and inspect endgame databases
    Egdb(egdb::EgdbArgs),
    /// Chains of extra moves: the row of N seeds one turn clears, the longest chain in M houses or from a position
    Chain(chain::ChainArgs),
    /// Play for the Manchester MKAgent referee over standard input and output (Kalah(7,7), pie rule)
    Mkagent(mkagent::MkagentArgs),
    /// Play on a Kalah Game Protocol (KGP) server: freeplay, verify or eval mode; or run one (kgp serve)
    Kgp(kgp_server::KgpCommand),
    /// Serve a page where people play in the browser, with a JSON API
    Serve(serve::ServeCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output
    Completions(completions::CompletionsArgs),
    /// Print the manual page of kalah or of one command (roff), or write every page into a folder
    Man(manual::ManArgs),
}

fn main() {
    fault::report_bus_errors();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with status 0, and usage errors with status 2.
            let _ = e.print();
            std::process::exit(e.exit_code());
        }
    };
    let result = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Match(a) => matches::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Egdb(a) => egdb::run(a),
        Command::Chain(a) => chain::run(a),
        Command::Mkagent(a) => mkagent::run(a),
        Command::Kgp(kgp_server::KgpCommand { serve: Some(command), .. }) => kgp_server::run(command),
        Command::Kgp(a) => kgp::run(a.client),
        Command::Serve(serve::ServeCommand { action: Some(serve::ServeAction::Backup(a)), .. }) => serve::backup(a),
        Command::Serve(serve::ServeCommand { action: Some(serve::ServeAction::RemovePlayer(a)), .. }) => {
            serve::remove_player(a)
        }
        Command::Serve(a) => serve::run(a.args),
        Command::Completions(a) => completions::run(a, Cli::command()),
        Command::Man(a) => manual::run(a, Cli::command()),
    };
    if let Err(e) = result {
        let status = error::exit_status(&e);
        if status != 0 {
            eprintln!("kalah: {e:#}");
        }
        std::process::exit(status);
    }
}
