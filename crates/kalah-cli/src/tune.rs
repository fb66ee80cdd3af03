//! `kalah tune` (being written).
use anyhow::Result;
use clap::Args;
/// Flags of `kalah tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {}
/// Runs `kalah tune`.
pub fn run(_: TuneArgs) -> Result<()> {
    anyhow::bail!("kalah tune is being written")
}
