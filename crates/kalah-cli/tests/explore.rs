//! `kalah solve explore` and `kalah solve book` run as a user runs them: each move's value agrees
//! with `kalah solve` of the position it leads to, a book answers for its positions and is
//! refused for other rules, and `--out` never replaces a file that is not a book.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs `kalah ARGS` with its own home and cache folders in `dir` (no database of the machine);
/// returns the exit status, standard output and standard error.
fn kalah(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(args)
        .env("HOME", dir)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .current_dir(dir)
        .output()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.code().unwrap_or(-1), text(output.stdout), text(output.stderr))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn every_move_agrees_with_kalah_solve_of_the_position_it_leads_to() {
    let dir = tempfile::tempdir().unwrap();
    let position = "4,4,4,0:1/5,5,4,4:0/N";
    let (status, out, err) = kalah(dir.path(), &["solve", "explore", position, "--size", "4,4", "--no-egdb", "--json"]);
    assert_eq!(status, 0, "{err}");
    let explored = json(&out);
    assert_eq!((explored["exact"].as_bool(), explored["source"].as_str()), (Some(true), Some("solver")));
    let moves = explored["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let rules = kalah_rules::Rules::standard(4, 4).unwrap();
    let parent: kalah_rules::Position = position.parse().unwrap();
    for m in moves {
        let mv = kalah_rules::Move::from_number(m["move"].as_u64().unwrap() as u32).unwrap();
        let child = parent.play(&rules, mv).unwrap().0;
        let (status, out, err) =
            kalah(dir.path(), &["solve", &child.to_string(), "--size", "4,4", "--no-egdb", "--json"]);
        assert_eq!(status, 0, "{err}");
        let solved = json(&out)["value"].as_i64().unwrap();
        let expected = if child.mover() == parent.mover() { solved } else { -solved };
        assert_eq!(m["value"].as_i64(), Some(expected), "move {mv}: {m}");
        assert_eq!(m["again"].as_bool(), Some(child.mover() == parent.mover() && !child.is_over(&rules)));
    }
    let best = moves.iter().filter(|m| m["best"] == true).count();
    assert!(best >= 1);
    assert_eq!(explored["line"][0], moves.iter().find(|m| m["best"] == true).unwrap()["move"]);
}

#[test]
fn a_book_answers_for_its_positions_and_is_refused_for_other_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (status, _, err) =
        kalah(dir.path(), &["solve", "book", "--size", "4,3", "--plies", "2", "--out", "k43.book", "--no-egdb"]);
    assert_eq!(status, 0, "{err}");
    assert!(err.contains("kalah(4,3) standard, 2 plies, 5 positions"), "{err}");
    let text = std::fs::read_to_string(dir.path().join("k43.book")).unwrap();
    assert!(text.starts_with("kalah-book 1\nrules kalah(4,3) standard\nplies 2\n"), "{text}");
    // From the book: the same values as the solver's.
    let args = |book: bool| {
        let mut args = vec!["solve", "explore", "3,3,3,0:1/4,4,3,3:0/N", "--size", "4,3", "--no-egdb", "--json"];
        if book {
            args.extend(["--book", "k43.book"]);
        }
        args
    };
    let (_, out, _) = kalah(dir.path(), &args(true));
    let (booked, solved) = (json(&out), json(&kalah(dir.path(), &args(false)).1));
    assert_eq!(booked["source"], "book");
    assert_eq!(booked["moves"], solved["moves"]);
    assert_eq!(booked["value"], solved["value"]);
    // A book for other rules is refused with one line.
    let (status, _, err) = kalah(dir.path(), &["solve", "explore", "--size", "4,4", "--no-egdb", "--book", "k43.book"]);
    assert_eq!(status, 2);
    assert_eq!(err.trim(), "kalah: k43.book: the opening book is for kalah(4,3) standard, not for kalah(4,4) standard");
    // --out replaces a book, never another file.
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let (status, _, err) =
        kalah(dir.path(), &["solve", "book", "--size", "4,3", "--plies", "1", "--out", "notes.txt", "--no-egdb"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("not a kalah opening book"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "mine");
    let (status, _, err) =
        kalah(dir.path(), &["solve", "book", "--size", "4,3", "--plies", "1", "--out", "k43.book", "--no-egdb"]);
    assert_eq!(status, 0, "{err}");
}
