//! `kalah compare` (being written).
use anyhow::Result;
use clap::Args;
/// Flags of `kalah compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {}
/// Runs `kalah compare`.
pub fn run(_: CompareArgs) -> Result<()> {
    anyhow::bail!("kalah compare is being written")
}
