//! `kalah chain` from the outside: patterns, the longest chain in M houses, the growth table, positions.

use std::process::Command;

fn kalah(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kalah")).arg("chain").args(args).output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = kalah(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}"))
}

#[test]
fn five_seeds_are_cleared_by_houses_1_3_1_2_1() {
    let (code, out, _) = kalah(&["--seeds", "5"]);
    assert_eq!(code, 0);
    for line in ["houses: 3\n", "pattern: 1 1 3\n", "moves: 1 3 1 2 1\n", "South's row in the position notation: 3,1,1"]
    {
        assert!(out.contains(line), "{line:?} missing in:\n{out}");
    }
    let value = json(&["--seeds", "5", "--json"]);
    assert_eq!(value["houses"], 3);
    assert_eq!(value["pattern"], serde_json::json!([1, 1, 3]));
    assert_eq!(value["moves"], serde_json::json!([1, 3, 1, 2, 1]));
    assert_eq!(value["row_moves"], serde_json::json!([3, 1, 3, 2, 3]));
}

#[test]
fn six_houses_hold_a_chain_of_17() {
    let (code, out, _) = kalah(&["--houses", "6"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("the longest chain in 6 houses: 17 moves (18 seeds need 7 houses)\n"), "{out}");
    let value = json(&["--houses", "6", "--json"]);
    assert_eq!(value["seeds"], 17);
    assert_eq!(value["pattern"], serde_json::json!([1, 1, 3, 2, 4, 6]));
    // The row as a position: the search over real sowings finds the same 17 moves.
    let row = value["row"].as_str().unwrap();
    let chain = json(&[&format!("{row}:0/1,1,1,1,1,1:0/S"), "--json"]);
    assert_eq!(chain["length"], 17);
    assert_eq!(chain["moves"], value["row_moves"]);
    assert_eq!(chain["ends_game"], true);
    assert_eq!(chain["complete"], true);
}

#[test]
fn a_million_seeds_summarise_their_moves_unless_asked() {
    let value = json(&["--seeds", "1000000", "--json"]);
    assert_eq!(value["houses"], 1771);
    assert!(value["moves"].is_null() && value["row"].is_null());
    let plays: u64 = value["plays"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).sum();
    assert_eq!(plays, 1_000_000);
    let (code, out, _) = kalah(&["--seeds", "1000000"]);
    assert_eq!(code, 0);
    assert!(out.contains(" ... (1000000 in all; --moves lists them all)"), "{out}");
    let (code, out, _) = kalah(&["--seeds", "1000000", "--moves"]);
    assert_eq!(code, 0);
    let moves = out.lines().find_map(|l| l.strip_prefix("moves: ")).expect("a moves line");
    assert_eq!(moves.split(' ').count(), 1_000_000);
}

#[test]
fn the_growth_table_tends_to_1() {
    let value = json(&["--growth", "--json"]);
    let rows = value["growth"].as_array().unwrap();
    let last = rows.last().unwrap();
    assert_eq!(last["houses"], 1_000_000);
    assert!((last["ratio"].as_f64().unwrap() - 1.0).abs() < 1e-5, "{last}");
    let (code, out, _) = kalah(&["--growth"]);
    assert_eq!(code, 0);
    assert!(out.contains("        7              18"), "s(7) = 18:\n{out}");
}

#[test]
fn positions_follow_the_rule_flags() {
    let value = json(&["start", "--size", "6,4", "--json"]);
    assert_eq!(value["moves"], serde_json::json!([3]));
    // Seed-on sowing: house 4 ends in the store, house 2 lands on house 3 and sows on into it, then house 4.
    let value = json(&["start", "--size", "4,1", "--rules", "seed-on", "--json"]);
    assert_eq!(value["moves"], serde_json::json!([4, 2, 4]));
    let value = json(&["start", "--size", "4,1", "--json"]);
    assert_eq!(value["moves"], serde_json::json!([4]));
    let (code, out, _) = kalah(&["0,0,0:4/1,1,1:0/S"]);
    assert_eq!(code, 0);
    assert_eq!(out, "the game is over: South has no move\n");
    let (code, out, _) = kalah(&["12,11,10,9,8,7,6,5,4,3,2,1:0/1,1,1,1,1,1,1,1,1,1,1,1:0/S", "--limit", "1000"]);
    assert_eq!(code, 0);
    assert!(out.contains("(the search stopped at 1000 positions: a longer chain may exist)"), "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        &[][..],
        &["--seeds", "0"],
        &["--seeds", "five"],
        &["--seeds", "-5"],
        &["--seeds", "1000000000001"],
        &["--seeds", "99999999999999999999999"],
        &["--houses", "0"],
        &["--houses", "1000001"],
        &["--seeds", "5", "--houses", "3"],
        &["--seeds", "5", "--growth"],
        &["start", "--seeds", "5"],
        &["--seeds", "5", "--size", "6,4"],
        &["--seeds", "5", "--limit", "10"],
        &["--seeds", "1000000000000", "--moves"],
        &["--growth", "--moves"],
        &["start", "--moves"],
        &["start", "--limit", "0"],
        &["1,2:0/S"],
        &["start", "--size", "13,4"],
    ] {
        let (code, _, err) = kalah(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("kalah: ") && !err.contains("panicked"), "{args:?}: {err}");
    }
}
