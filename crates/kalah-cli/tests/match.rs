//! `kalah match` run as a program: a tiny match's output, and bad flags refused with status 2.

use std::process::{Command, Output};

fn kalah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah")).args(args).output().expect("the kalah binary runs")
}

#[test]
fn a_tiny_match_reports_its_result() {
    let args = ["match", "--first", "greedy", "--second", "random", "--games", "4", "--seed", "3", "--size", "4,3"];
    let out = kalah(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("greedy vs random: 4 games of kalah(4,3) standard, seed 3"), "{text}");
    for label in ["wins / draws / losses", "score", "average difference", "Elo difference"] {
        assert!(text.contains(label), "{label} missing from:\n{text}");
    }
    // The same seed gives the same match.
    assert_eq!(String::from_utf8(kalah(&args).stdout).unwrap(), text);
}

#[test]
fn json_output_is_one_object_with_the_counts() {
    let out = kalah(&[
        "match",
        "--first",
        "ordered:depth=2",
        "--second",
        "greedy",
        "--games",
        "6",
        "--size",
        "5,3",
        "--pie",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let count = |key: &str| report[key].as_u64().unwrap();
    assert_eq!(count("wins") + count("draws") + count("losses"), 6);
    assert_eq!(count("games"), 6);
    assert_eq!(report["first"], "ordered depth 2");
    assert_eq!(report["rules"], "kalah(5,3) standard pie");
    assert!(report["average_difference"].is_number());
}

#[test]
fn bad_flags_exit_with_status_2_and_one_line() {
    for args in [
        &["match", "--first", "human", "--second", "random"][..],
        &["match", "--first", "greedy", "--second", "random", "--games", "0"],
        &["match", "--first", "ordered", "--second", "random", "--time", "0"],
        &["match", "--first", "robot", "--second", "random"],
        &["match", "--first", "greedy", "--second", "random", "--size", "13,4"],
    ] {
        let out = kalah(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let message = String::from_utf8(out.stderr).unwrap();
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
        assert!(out.stdout.is_empty());
    }
}
