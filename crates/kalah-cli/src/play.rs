//! `kalah play` (being written).
use anyhow::Result;
use clap::Args;
/// Flags of `kalah play`.
#[derive(Args, Debug)]
pub struct PlayArgs {}
/// Runs `kalah play`.
pub fn run(_: PlayArgs) -> Result<()> {
    anyhow::bail!("kalah play is being written")
}
