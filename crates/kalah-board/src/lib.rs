//! The Kalah board as a browser draws it: one script (`web/board.js`) and its style
//! (`web/board.css`), built into the crate so that every page of the project draws the same board
//! from one file, served by whichever server serves the page. The script defines `KalahBoard`:
//!
//! * `KalahBoard.build(element, m, onHouse)`: the pits of a board of `m` houses a side inside
//!   `element` (North's store and houses above, South's below, counter-clockwise), laid across or,
//!   where that does not fit, down the screen; `onHouse(cell)`, if given, hears clicks on houses.
//! * `KalahBoard.draw(element, cells)`: the seeds of `cells`, numbered as the project's JSON
//!   numbers them: South's houses `0..m`, South's store `m`, North's houses `m+1..=2m`, North's
//!   store `2m+1`; each pit gets its count, its stones and a label a screen reader reads.
//! * `KalahBoard.layout(element)`: lays the board out again (on a resize).
//! * `KalahBoard.pit(element, cell)`: the pit of a cell, to mark it (classes `last`, `from`, …).
//!
//! The style's colours are CSS variables (`--wood`, `--pit`, `--ink`, …) with light and dark
//! values, which a page may set again.

/// The board's script: defines `KalahBoard` (see the crate's documentation).
pub const SCRIPT: &str = include_str!("../web/board.js");

/// The board's style: the board, its pits, stones, counts and labels, and their marks.
pub const STYLE: &str = include_str!("../web/board.css");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_defines_its_functions_and_the_style_its_classes() {
        for name in ["build", "draw", "layout", "pit"] {
            assert!(SCRIPT.contains(&format!("{name}(")), "{name}");
        }
        assert!(SCRIPT.contains("globalThis.KalahBoard"));
        for class in [".board", ".pit", ".stones", ".count", ".label", ".board.vertical"] {
            assert!(STYLE.contains(class), "{class}");
        }
    }
}
