//! `kalah solve plan | task | merge | run` as a user runs them: the value of a solve split into
//! tasks equals the single process's, a task stopped by SIGTERM resumes from its checkpoint, and
//! a damaged or foreign result is refused. (The Slurm test, which needs a cluster, is
//! `cluster/slurm-test`; docs/cluster.md.)

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use kalah_rules::{Position, Rules};

fn kalah(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah")).args(args).current_dir(dir).output().expect("the kalah binary starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The value line of a solve's or a merge's report.
fn value(output: &Output) -> String {
    assert!(output.status.success(), "{}{}", text(&output.stdout), text(&output.stderr));
    let out = text(&output.stdout);
    // A run reports after each round: the last report is the answer.
    out.lines().rfind(|l| l.starts_with("value: ")).unwrap_or_else(|| panic!("no value in {out}")).to_string()
}

/// Plans `position` under the rule flags `rules`, runs it with two local processes, and returns
/// its value line beside the single process's.
fn split_and_single(rules: &[&str], position: &str, depth: &str, dir: &Path) -> (String, String) {
    let mut plan = vec!["solve", "plan", position, "--depth", depth, "--out", "m.jsonl"];
    plan.extend(rules);
    let planned = kalah(&plan, dir);
    assert!(planned.status.success(), "{}", text(&planned.stderr));
    let run = kalah(&["solve", "run", "--manifest", "m.jsonl", "--local", "2", "--no-egdb", "--hash", "16"], dir);
    let mut single = vec!["solve", position, "--no-egdb"];
    single.extend(rules);
    (value(&run), value(&kalah(&single, dir)))
}

#[test]
fn a_split_solve_has_the_single_solve_value() {
    for (size, depth) in [("5,4", "3"), ("6,3", "4")] {
        let dir = tempfile::tempdir().unwrap();
        let (split, single) = split_and_single(&["--size", size], "start", depth, dir.path());
        assert_eq!(split, single, "Kalah({size})");
    }
    let expected =
        [("5,4", "value: +10 for South with perfect play"), ("6,3", "value: +2 for South with perfect play")];
    for (size, line) in expected {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(split_and_single(&["--size", size], "start", "2", dir.path()).0, line, "Kalah({size})");
    }
}

#[test]
fn random_positions_of_kalah_6_4_split_as_they_solve() {
    let rules = Rules::standard(6, 4).unwrap();
    // A fixed stream of pseudo-random moves (a linear congruential generator).
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut positions = Vec::new();
    while positions.len() < 3 {
        let mut position = Position::start(&rules);
        while position.seeds_in_houses() > 22 && !position.is_over(&rules) {
            let moves: Vec<_> = position.legal_moves().into_iter().collect();
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            position = position.play_unchecked(&rules, moves[(state >> 33) as usize % moves.len()]);
        }
        if !position.is_over(&rules) {
            positions.push(position.to_string());
        }
    }
    for position in &positions {
        let dir = tempfile::tempdir().unwrap();
        let (split, single) = split_and_single(&["--size", "6,4"], position, "3", dir.path());
        assert_eq!(split, single, "{position}");
    }
}

/// Runs task 0 of the manifest in `dir` and sends it SIGTERM as soon as it says its proof has
/// started; returns its exit status and standard error.
fn stopped_task(dir: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["solve", "task", "--manifest", "m.jsonl", "--no-egdb", "--hash", "16", "--verbose"])
        .env("SLURM_ARRAY_TASK_ID", "0")
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    // The start line comes after the signal handler is in place: from then on a stop saves.
    while !said.lines().last().is_some_and(|l| l.starts_with("task 0 (leaf ") && l.contains("a stop saves")) {
        assert!(stderr.read_line(&mut said).unwrap() > 0, "the task ended before its proof started: {said}");
    }
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    stderr.read_to_string(&mut said).unwrap();
    (child.wait().unwrap().code(), said)
}

#[test]
fn a_task_stopped_by_sigterm_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    // Kalah(6,6) one sowing deep, without a database: each task is a solve of hours, so it is
    // still running when the signal comes, however fast or busy the machine.
    let planned = kalah(
        &["solve", "plan", "--size", "6,6", "--depth", "1", "--estimate-depth", "4", "--out", "m.jsonl"],
        dir.path(),
    );
    assert!(planned.status.success(), "{}", text(&planned.stderr));
    let (code, said) = stopped_task(dir.path());
    assert_eq!(code, Some(130), "{said}");
    assert!(said.contains("stopped; saved"), "{said}");
    assert!(!said.contains("resuming from"), "{said}");
    let results = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_dir()).unwrap();
    let checkpoints =
        fs::read_dir(&results).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "ckpt"));
    assert_eq!(checkpoints.count(), 1, "the task's checkpoint");
    let (code, said) = stopped_task(dir.path());
    assert!(said.contains("resuming from"), "{said}");
    assert_eq!(code, Some(130), "{said}");
    assert!(said.contains("stopped; saved"), "{said}");
}

#[test]
fn damaged_foreign_and_unasked_files_are_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    assert!(kalah(&["solve", "plan", "--size", "4,3", "--depth", "2", "--out", "m.jsonl"], path).status.success());
    assert!(kalah(&["solve", "plan", "--size", "4,3", "--depth", "3", "--out", "other.jsonl"], path).status.success());
    // A plan never writes over a file.
    fs::write(path.join("mine.txt"), "keep me").unwrap();
    let refused = kalah(&["solve", "plan", "--size", "4,3", "--out", "mine.txt"], path);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(fs::read_to_string(path.join("mine.txt")).unwrap(), "keep me");
    // Nor over a link, even one that leads nowhere.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("nowhere", path.join("link.jsonl")).unwrap();
        let refused = kalah(&["solve", "plan", "--size", "4,3", "--out", "link.jsonl"], path);
        assert_eq!(refused.status.code(), Some(2));
        assert_eq!(
            text(&refused.stderr),
            "kalah: link.jsonl is a symbolic link; it is left untouched: a plan writes a new manifest; give another --out\n"
        );
        assert!(fs::symlink_metadata(path.join("link.jsonl")).unwrap().file_type().is_symlink());
        assert!(!path.join("nowhere").exists());
    }
    // A merge with no task of the round answered would only ask the same round again.
    let unanswered = kalah(&["solve", "merge", "--manifest", "m.jsonl"], path);
    assert_eq!(unanswered.status.code(), Some(2), "{}", text(&unanswered.stdout));
    let error = text(&unanswered.stderr);
    assert!(
        error.starts_with("kalah: no task of round 1 of m.jsonl is answered in results-") && error.lines().count() == 1
    );
    assert!(unanswered.stdout.is_empty());
    let mut names: Vec<String> =
        fs::read_dir(path).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["link.jsonl", "m.jsonl", "mine.txt", "other.jsonl"], "no manifest was written");
    // The task index must be one of the manifest's.
    let out_of_range = kalah(&["solve", "task", "--manifest", "m.jsonl", "--index", "999", "--no-egdb"], path);
    assert_eq!(out_of_range.status.code(), Some(2));
    assert!(text(&out_of_range.stderr).contains("is not in the manifest"));
    let answered = kalah(&["solve", "task", "--manifest", "m.jsonl", "--index", "0", "--no-egdb"], path);
    assert!(answered.status.success(), "{}", text(&answered.stderr));
    let mine = fs::read_dir(path).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_dir()).unwrap();
    let result = fs::read_dir(&mine)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .unwrap();
    let good = fs::read_to_string(&result).unwrap();
    // Another tree's result in this tree's folder.
    let other_plan = fs::read_to_string(path.join("other.jsonl")).unwrap();
    let other_tree = other_plan.split("\"tree\":\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let foreign = good.replacen("\"tree\":\"", &format!("\"tree\":\"{other_tree}"), 1);
    for (damage, why) in [(good[..good.len() / 2].to_string(), "not a kalah result"), (foreign, "checksum")] {
        fs::write(&result, &damage).unwrap();
        let merged = kalah(&["solve", "merge", "--manifest", "m.jsonl"], path);
        assert_eq!(merged.status.code(), Some(2), "{}", text(&merged.stdout));
        let error = text(&merged.stderr);
        assert!(error.contains("refused") && error.contains(why) && error.lines().count() == 1, "{error}");
        let again = kalah(&["solve", "task", "--manifest", "m.jsonl", "--index", "0", "--no-egdb"], path);
        assert_eq!(again.status.code(), Some(2), "a task does not write over a file it cannot read");
        assert_eq!(fs::read_to_string(&result).unwrap(), damage, "the file is left as it was");
    }
    // A good result of another tree, under this tree's name for it.
    fs::write(&result, &good).unwrap();
    let other = kalah(&["solve", "merge", "--manifest", "other.jsonl", "--results", mine.to_str().unwrap()], path);
    assert_eq!(other.status.code(), Some(2));
    assert!(text(&other.stderr).contains("another tree"), "{}", text(&other.stderr));
}
