//! `kalah match` (being written).
use anyhow::Result;
use clap::Args;
/// Flags of `kalah match`.
#[derive(Args, Debug)]
pub struct MatchArgs {}
/// Runs `kalah match`.
pub fn run(_: MatchArgs) -> Result<()> {
    anyhow::bail!("kalah match is being written")
}
