//! The engine's commands from the outside: analyze, solve, bench; and the course's `compare` on
//! given positions and on a saved game.

use std::process::Command;

fn kalah(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(args)
        .env("XDG_CACHE_HOME", std::env::temp_dir().join("kalah-cli-engine-tests"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn solve_gives_the_published_value_and_a_line() {
    let (code, out, _) = kalah(&["solve", "--size", "4,3", "--no-egdb"]);
    assert_eq!(code, 0);
    assert!(out.contains("value: +6 for South"), "{out}");
    assert!(out.contains("line: "), "{out}");
    let (code, out, _) = kalah(&["solve", "--size", "4,3", "--no-egdb", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["value"], 6);
}

#[test]
fn analyze_reports_a_move_and_proves_small_endgames() {
    let (code, out, _) =
        kalah(&["analyze", "0,0,0,1,2,1:20/1,0,0,0,1,1:21/S", "--size", "6,4", "--depth", "30", "--json", "--no-egdb"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["best"].as_u64().is_some(), "{out}");
    assert_eq!(json["exact"], true, "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        &["analyze", "1,2:0/3:0/S"][..],
        &["analyze", "--depth", "0"],
        &["analyze", "--hash", "0"],
        &["solve", "--size", "13,2"],
        &["bench", "--depth", "0"],
        &["bench", "--threads", "0"],
    ] {
        let (code, _, err) = kalah(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// The rows of `kalah compare ARGS --json`: (search, Max calls, Min calls) at each depth.
fn compare_rows(args: &[&str]) -> Vec<(String, f64, f64)> {
    let (code, out, err) = kalah(&[&["compare", "--json"], args].concat());
    assert_eq!(code, 0, "{args:?}: {err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = json["rows"].as_array().unwrap();
    rows.iter()
        .map(|r| {
            let calls = |k: &str| r[k].as_f64().unwrap();
            (r["algorithm"].as_str().unwrap().to_string(), calls("max_calls"), calls("min_calls"))
        })
        .collect()
}

#[test]
fn compare_counts_the_calls_on_a_given_position_and_averages_over_a_game() {
    use kalah_course::classic::{search, Algorithm};
    use kalah_engine::eval::Weights;
    use kalah_rules::{Action, Game, Move, Rules};

    // One position: the counts are the search's own.
    let rules = Rules::standard(6, 6).unwrap();
    let mut game = Game::new(rules);
    for house in [3, 5, 1, 6] {
        game.act(Action::Sow(Move::from_number(house).unwrap())).unwrap();
    }
    let position = game.position().to_string();
    let rows = compare_rows(&["--position", &position, "--from", "3", "--to", "3"]);
    for ((name, max, min), algorithm) in rows.iter().zip(Algorithm::ALL) {
        let found = search(game.position(), &rules, 3, algorithm, &Weights::TUNED);
        assert_eq!((*max, *min), (found.counts.max_calls as f64, found.counts.min_calls as f64), "{name}");
    }
    let (code, out, _) = kalah(&["compare", "--position", &position, "--from", "3", "--to", "3"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("kalah(6,6)") && out.contains("1 position (given)"), "{out}");

    // A saved game: the averages over every position of it, as each position given.
    let folder = tempfile::tempdir().unwrap();
    let record = folder.path().join("game.kalah");
    let text = kalah_rules::record::Record::new(game.clone()).to_text();
    std::fs::write(&record, text).unwrap();
    let over_game = compare_rows(&["--game", record.to_str().unwrap(), "--from", "2", "--to", "2"]);
    let each: Vec<String> = game.positions().iter().map(ToString::to_string).collect();
    let mut args: Vec<&str> = vec!["--from", "2", "--to", "2"];
    for p in &each {
        args.extend(["--position", p]);
    }
    let given = compare_rows(&args);
    assert_eq!(over_game, given);

    // Refusals: one line, status 2.
    for args in [
        &["compare", "--position", "1,2:0/3:0/S"][..],
        &["compare", "--game", "no-such-record.kalah"],
        &["compare", "--game", record.to_str().unwrap(), "--size", "6,4"],
    ] {
        let (code, _, err) = kalah(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let (code, _, err) = kalah(&["compare", "--position", "start", "--seed", "3"]);
    assert_eq!(code, 2, "a sample's seed with given positions: {err}");
}

/// Starts `kalah ARGS` (a solve with `--verbose`), waits for the line that says the solve has
/// started (its Ctrl-C handler is in place from then on), sends SIGINT, and returns the exit
/// status and everything the solve wrote on standard error.
fn interrupted(args: &[&str]) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.lines().last().is_some_and(|l| l.starts_with("solving ")) {
        assert!(stderr.read_line(&mut said).unwrap() > 0, "the solve ended before it started: {said}");
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    stderr.read_to_string(&mut said).unwrap();
    (child.wait().unwrap().code(), said)
}

/// Ctrl-C saves a checkpoint, and the same command resumes from its bounds and nodes. Kalah(6,6)
/// without a database takes hours, so the solve is still running when the signal comes,
/// however fast or busy the machine.
#[test]
fn an_interrupted_solve_saves_a_checkpoint_that_the_same_command_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("solve.ckpt");
    let checkpoint = checkpoint.to_str().unwrap();
    let args = ["solve", "--size", "6,6", "--no-egdb", "--hash", "16", "--verbose", "--checkpoint", checkpoint];
    let (code, said) = interrupted(&args);
    assert_eq!(code, Some(130), "{said}");
    let stopped = said.lines().find_map(|l| l.strip_prefix("stopped: the value is between ")).expect(&said);
    let (bounds, saved) = stopped.split_once("; saved ").expect(&said);
    assert_eq!(saved, format!("{checkpoint}; run the same command to resume"));
    let (code, said) = interrupted(&args);
    assert_eq!(code, Some(130), "{said}");
    let resumed = format!("resuming from {checkpoint}: value between {bounds}, ");
    assert!(said.lines().next().is_some_and(|l| l.starts_with(&resumed)), "{resumed}\n{said}");
    assert!(said.contains("stopped: the value is between"), "{said}");
}

/// A solve stopped after its first proven bound (the library's stop flag, set when the bound is
/// heard, so the stop comes at the same point on any machine) and saved as `kalah solve` saves
/// it, then finished by the command: the value is the published one and the checkpoint goes.
#[test]
fn a_checkpoint_of_a_stopped_solve_resumes_to_the_value() {
    use kalah_cluster::checkpoint::{CheckpointFile, Claim};
    use kalah_engine::search::{Limits, Options};
    use kalah_engine::solver::Solver;
    use kalah_rules::{Position, Rules};
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solve.ckpt");
    let rules = Rules::standard(5, 4).unwrap();
    let start = Position::start(&rules);
    let solver = Solver::new(Options { table_bytes: 16 << 20, ..Options::default() });
    let stop = AtomicBool::new(false);
    let stopped = solver
        .solve(&start, &rules, None, Limits::default(), Some(&stop), |_, _| stop.store(true, Ordering::Relaxed))
        .expect_err("stopped after the first bound");
    assert!(stopped.bounds.lower.0 > -40 || stopped.bounds.upper.0 < 40, "a bound was proven: {:?}", stopped.bounds);
    let (file, claim) = CheckpointFile::claim(&path, &rules, &start, solver.proofs()).unwrap();
    assert_eq!(claim, Claim::Fresh);
    file.save(stopped.bounds, stopped.nodes, solver.proofs()).unwrap();
    let path_arg = path.to_str().unwrap();
    let (code, out, err) = kalah(&["solve", "--size", "5,4", "--no-egdb", "--hash", "16", "--checkpoint", path_arg]);
    assert_eq!(code, 0, "{err}");
    let resumed = format!(
        "resuming from {path_arg}: value between {:+} and {:+}, {} nodes searched",
        stopped.bounds.lower, stopped.bounds.upper, stopped.nodes
    );
    assert!(err.contains(&resumed), "{resumed}\n{err}");
    assert!(out.contains("value: +10 for South"), "{out}");
    assert!(!path.exists(), "a finished solve removes its checkpoint");
}

#[test]
fn a_table_larger_than_the_free_memory_is_refused_before_anything_is_allocated() {
    let free_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines().find(|l| l.starts_with("MemAvailable:"))?.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kib| kib / 1024);
    let Some(free_mib) = free_mib else { return };
    // Only meaningful where 64 GiB is more than the machine can spare (every CI machine here).
    if free_mib * 9 / 10 < 65536 {
        let (code, _, err) = kalah(&["analyze", "--hash", "65536", "--depth", "1"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("more than this machine can spare"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
