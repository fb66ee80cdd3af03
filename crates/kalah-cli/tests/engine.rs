//! The engine's commands from the outside: analyze, solve, bench.

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

#[test]
fn an_interrupted_solve_resumes_from_its_checkpoint() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("kalah-cli-resume-{}", std::process::id()));
    let checkpoint = dir.join("solve.ckpt");
    let checkpoint_arg = checkpoint.to_str().unwrap();
    let args = ["solve", "--size", "5,4", "--no-egdb", "--hash", "256", "--verbose", "--checkpoint", checkpoint_arg];
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Interrupt as the first bound is proven (the solve goes on well after it), as Ctrl-C would.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.starts_with("solving kalah(5,4)"), "{line}");
    line.clear();
    stderr.read_line(&mut line).unwrap();
    assert!(line.contains("value between"), "{line}");
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let mut rest = String::new();
    for l in stderr.lines() {
        rest.push_str(&l.unwrap());
        rest.push('\n');
    }
    let code = child.wait().unwrap().code();
    if code == Some(0) {
        // The solve finished before the signal arrived (a very fast machine): nothing to resume.
        assert!(!checkpoint.exists());
    } else {
        assert_eq!(code, Some(130), "{rest}");
        assert!(rest.contains("stopped: the value is between"), "{rest}");
        assert!(checkpoint.exists(), "{rest}");
        let (code, out, err) = kalah(&args);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("resuming from"), "{err}");
        assert!(out.contains("value: +10 for South"), "{out}");
        assert!(!checkpoint.exists(), "a finished solve removes its checkpoint");
    }
    let _ = std::fs::remove_dir_all(dir);
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
