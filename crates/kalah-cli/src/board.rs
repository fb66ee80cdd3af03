//! Drawing a position as text, the way the board lies on the table between the two players.
//!
//! North sits at the top and South at the bottom. Each player's houses run from house 1 at that
//! player's left towards the player's own store at their right, so South's row reads 1..m left
//! to right with South's store at the right end, and North's row reads m..1 left to right with
//! North's store at the left end:
//!
//! ```text
//!      [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]       North
//! [ 0]                               [ 0]
//!      [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]       South
//!        1    2    3    4    5    6
//! ```

use kalah_rules::{Position, Side};

/// Draws `position` as lines of text, with house numbers beside the rows of the sides in `numbered`
/// (above North's row, below South's row).
pub fn draw(position: &Position, numbered: &[Side]) -> String {
    let m = usize::from(position.houses());
    let width = cell_width(position);
    let cell = |seeds: &u16| format!("[{seeds:>width$}]");
    let number = |house: usize| format!(" {house:>width$} ");
    // A store cell and the space after it: the houses start this far in.
    let indent = " ".repeat(width + 3);
    let houses_span = m * (width + 2) + m.saturating_sub(1);
    // The side labels go past South's store, so they never stand over or under a store.
    let label_gap = " ".repeat(width + 5);

    let north_numbers: Vec<String> = (1..=m).rev().map(number).collect();
    let north_row: Vec<String> = position.row(Side::North).iter().rev().map(cell).collect();
    let south_row: Vec<String> = position.row(Side::South).iter().map(cell).collect();
    let south_numbers: Vec<String> = (1..=m).map(number).collect();

    let mut lines = Vec::new();
    if numbered.contains(&Side::North) {
        lines.push(format!("{indent}{}", north_numbers.join(" ")));
    }
    lines.push(format!("{indent}{}{label_gap}North", north_row.join(" ")));
    lines.push(format!(
        "{}{}{}",
        cell(&position.store(Side::North)),
        " ".repeat(houses_span + 2),
        cell(&position.store(Side::South))
    ));
    lines.push(format!("{indent}{}{label_gap}South", south_row.join(" ")));
    if numbered.contains(&Side::South) {
        lines.push(format!("{indent}{}", south_numbers.join(" ")));
    }
    lines.iter().map(|line| format!("{}\n", line.trim_end())).collect()
}

/// Returns the digits a cell needs: enough for the fullest house or store and the house numbers,
/// and at least two, so that boards of small counts keep one look.
fn cell_width(position: &Position) -> usize {
    let fullest = Side::BOTH
        .iter()
        .flat_map(|&side| position.row(side).iter().copied().chain([position.store(side)]))
        .chain([u16::from(position.houses())])
        .max()
        .unwrap_or(0);
    fullest.to_string().len().max(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn the_start_is_drawn_with_south_numbered_below() {
        let drawn = draw(&position("2,2,2:0/2,2,2:0/S"), &[Side::South]);
        let expected = "     [ 2] [ 2] [ 2]       North\n\
                        [ 0]                [ 0]\n     \
                        [ 2] [ 2] [ 2]       South\n       \
                        1    2    3\n";
        assert_eq!(drawn, expected);
    }

    #[test]
    fn north_runs_from_house_m_at_the_left_with_its_store_at_the_left_end() {
        let drawn = draw(&position("1,2,3:4/5,6,7:8/N"), &[Side::North]);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines.len(), 4, "numbers above North's row only: {drawn}");
        assert_eq!(lines[0], "       3    2    1");
        assert_eq!(lines[1], "     [ 7] [ 6] [ 5]       North");
        assert_eq!(lines[2], "[ 8]                [ 4]", "North's store at the left, South's at the right");
        assert_eq!(lines[3], "     [ 1] [ 2] [ 3]       South");
    }

    #[test]
    fn cells_widen_for_three_digit_counts_and_stay_aligned() {
        let drawn = draw(&position("1,0:100/0,3:0/S"), &[Side::North, Side::South]);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[1], "      [  3] [  0]        North");
        assert_eq!(lines[2], "[  0]             [100]");
        assert_eq!(lines[3], "      [  1] [  0]        South");
        assert_eq!(lines[4], "         1     2");
        // Every house cell starts in the column of the number above or below it.
        assert_eq!(lines[0].find('2'), lines[1].find("[  3]").map(|c| c + 3));
    }

    #[test]
    fn a_finished_game_shows_no_numbers_and_the_handicap_shows_both() {
        let p = position("0,0,0,0:10/0,0,0,0:14/S");
        assert_eq!(draw(&p, &[]).lines().count(), 3);
        assert_eq!(draw(&p, &Side::BOTH).lines().count(), 5);
    }
}
