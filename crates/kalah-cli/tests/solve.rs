//! `kalah solve --checkpoint FILE` run as a user runs it: only a checkpoint of this very solve is
//! resumed, replaced or removed; every other file is refused before the solve starts and stays
//! byte for byte as it was.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use kalah_cluster::checkpoint::{CheckpointFile, Claim};
use kalah_engine::proof::ProofTable;
use kalah_engine::score::{Bounds, Seeds};
use kalah_rules::{Position, Rules};

/// The solve every test runs: Kalah(3,2) from the start, +4 for South, in a moment.
const SOLVE: [&str; 4] = ["solve", "--size", "3,2", "--no-egdb"];

/// Runs `kalah solve` on Kalah(3,2) with `--checkpoint path`; returns the exit status, standard
/// output and standard error.
fn solve(path: &Path) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(SOLVE)
        .arg("--checkpoint")
        .arg(path)
        .output()
        .expect("the kalah binary starts");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

/// Writes a valid checkpoint at `path` of the solve of `position` (the start if `None`) under
/// `rules`, as a stopped solve would have left it.
fn write_checkpoint(path: &Path, rules: &Rules, position: Option<&str>, nodes: u64) {
    let position = position.map_or_else(|| Position::start(rules), |text| Position::parse(text, rules).unwrap());
    let table = ProofTable::with_bytes(1 << 16);
    let (file, claim) = CheckpointFile::claim(path, rules, &position, &table).unwrap();
    assert_eq!(claim, Claim::Fresh);
    // Bounds every Kalah(3,2) position meets: its 12 seeds.
    file.save(Bounds::new(Seeds(-12), Seeds(12)), nodes, &table).unwrap();
}

fn kalah_3_2() -> Rules {
    Rules::standard(3, 2).unwrap()
}

#[test]
fn a_file_that_is_not_a_checkpoint_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    for (name, contents) in [("f.txt", &b"data\n"[..]), ("empty", b""), ("almost", b"KALAHCK")] {
        let path = dir.path().join(name);
        fs::write(&path, contents).unwrap();
        let (code, out, err) = solve(&path);
        assert_eq!(code, 2, "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(err.starts_with("kalah: ") && err.contains("is not a kalah checkpoint"), "{name}: {err}");
        assert!(out.is_empty(), "refused before the solve: {out}");
        assert_eq!(fs::read(&path).unwrap(), contents, "{name} is byte for byte as it was");
    }
    let (code, _, err) = solve(dir.path());
    assert_eq!(code, 2, "a folder: {err}");
    assert!(err.contains("is a folder, not a regular file"), "{err}");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3, "no file was added or removed");
}

/// Links (even to a checkpoint of this solve), FIFOs and read-only checkpoints are refused by the
/// rule every file kalah writes follows, before the solve starts.
#[cfg(unix)]
#[test]
fn links_fifos_and_read_only_checkpoints_are_refused_and_kept() {
    use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    write_checkpoint(&at("target.ckpt"), &kalah_3_2(), None, 4242);
    let target = fs::read(at("target.ckpt")).unwrap();
    symlink("target.ckpt", at("link.ckpt")).unwrap();
    symlink("nowhere", at("dangling.ckpt")).unwrap();
    assert!(Command::new("mkfifo").arg(at("fifo.ckpt")).status().unwrap().success());
    write_checkpoint(&at("read-only.ckpt"), &kalah_3_2(), None, 4242);
    fs::set_permissions(at("read-only.ckpt"), fs::Permissions::from_mode(0o444)).unwrap();
    for (name, why) in [
        ("link.ckpt", "is a symbolic link"),
        ("dangling.ckpt", "is a symbolic link"),
        ("fifo.ckpt", "is a FIFO, not a regular file"),
        ("read-only.ckpt", "is read-only"),
    ] {
        let (code, out, err) = solve(&at(name));
        assert_eq!(code, 2, "{name}: {err}");
        let expected =
            format!("kalah: {} {why}; it is left untouched: choose another checkpoint file\n", at(name).display());
        assert_eq!(err, expected);
        assert!(out.is_empty(), "refused before the solve: {out}");
    }
    let kind = |name: &str| fs::symlink_metadata(at(name)).unwrap().file_type();
    assert!(kind("link.ckpt").is_symlink() && kind("dangling.ckpt").is_symlink() && kind("fifo.ckpt").is_fifo());
    assert_eq!(fs::read(at("target.ckpt")).unwrap(), target);
    assert_eq!(fs::read(at("read-only.ckpt")).unwrap(), target);
    assert!(!at("nowhere").exists());
}

#[test]
fn a_checkpoint_of_another_solve_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let position = dir.path().join("position.ckpt");
    write_checkpoint(&position, &kalah_3_2(), Some("2,2,0:1/3,3,2:0/N"), 99);
    let rules = dir.path().join("rules.ckpt");
    write_checkpoint(&rules, &Rules::preset("empty-capture", 3, 2).unwrap(), None, 99);
    for (path, names) in [(&position, "position 2,2,0:1/3,3,2:0/N"), (&rules, "empty-capture")] {
        let before = fs::read(path).unwrap();
        let (code, out, err) = solve(path);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("is the checkpoint of another solve") && err.contains(names), "{err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(fs::read(path).unwrap(), before, "byte for byte as it was");
    }
}

#[test]
fn a_damaged_checkpoint_is_replaced_and_the_solve_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solve.ckpt");
    write_checkpoint(&path, &kalah_3_2(), None, 4242);
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 5;
    bytes[last] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    let (code, out, err) = solve(&path);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is damaged (its checksum does not match its contents)"), "{err}");
    assert!(err.contains("starts afresh") && !err.contains("delete it"), "{err}");
    assert!(!err.contains("resuming"), "{err}");
    assert!(out.contains("value: +4 for South"), "{out}");
    assert!(!path.exists(), "a damaged checkpoint this solve took over is removed at its end");
}

#[test]
fn a_saved_checkpoint_of_this_solve_resumes_and_is_removed_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solve.ckpt");
    write_checkpoint(&path, &kalah_3_2(), None, 4242);
    let (code, out, err) = solve(&path);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming from") && err.contains("value between -12 and +12, 4242 nodes searched"), "{err}");
    assert!(out.contains("value: +4 for South"), "{out}");
    let nodes: u64 = out.lines().find_map(|l| l.strip_prefix("nodes: ")?.split(',').next()?.parse().ok()).unwrap();
    assert!(nodes > 4242, "the nodes before the stop are counted: {out}");
    assert!(!path.exists(), "a finished solve removes its own checkpoint");
}

#[test]
fn stale_temporary_files_are_removed_and_other_files_kept() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solve.ckpt");
    // Left by saves that were killed: process numbers beyond any pid_max, so never running.
    let stale = [dir.path().join("solve.ckpt.tmp99999999"), dir.path().join("solve.tmp99999998")];
    fs::write(&stale[0], b"KALAHCKP\x02\x00 and the first part of a table").unwrap();
    fs::write(&stale[1], b"").unwrap();
    let notes = dir.path().join("solve.ckpt.tmp99999997");
    fs::write(&notes, b"not kalah's").unwrap();
    let (code, _, err) = solve(&path);
    assert_eq!(code, 0, "{err}");
    assert!(stale.iter().all(|p| !p.exists()), "temporary files of killed runs are cleaned up");
    assert_eq!(fs::read(&notes).unwrap(), b"not kalah's");
}

/// A file put at the checkpoint's place while the solve runs is not overwritten by the save at
/// Ctrl-C, nor removed at the end.
#[test]
fn a_file_put_there_during_the_solve_survives_the_stop() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solve.ckpt");
    // Kalah(6,6) without a database takes hours, so it is still running when the signal comes;
    // the first line says the checkpoint is claimed and the Ctrl-C handler is in place.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["solve", "--size", "6,6", "--no-egdb", "--hash", "16", "--verbose", "--checkpoint"])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.starts_with("solving kalah(6,6) standard") && line.contains("a stop saves"), "{line}");
    fs::write(&path, b"data\n").unwrap();
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let rest: String = stderr.lines().map(|l| l.unwrap() + "\n").collect();
    assert_eq!(child.wait().unwrap().code(), Some(130), "{rest}");
    assert!(rest.contains("could not save a checkpoint") && rest.contains("not a kalah checkpoint"), "{rest}");
    assert_eq!(fs::read(&path).unwrap(), b"data\n");
}

#[test]
fn a_solve_without_a_database_names_the_one_that_would_help() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["solve", "--size", "6,4", "--hash", "16", "--egdb-dir"])
        .arg(dir.path())
        .arg("--checkpoint")
        .arg(dir.path().join("solve.ckpt"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary starts");
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let build = format!(
        "`kalah egdb build --seeds 18 --size 6,4 --capture standard --end side-empty --leftover owner --sowing single --dir {}`",
        dir.path().display()
    );
    assert!(line.starts_with("kalah: no endgame database is built for these rules") && line.contains(&build), "{line}");
    assert!(line.contains("(about 10 s to build, 52 MB)"), "{line}");
    // A small solve, or one told to use none, is not told about it.
    let (status, _, stderr) = solve(&dir.path().join("small.ckpt"));
    assert_eq!(status, 0);
    assert!(!stderr.contains("endgame database"), "{stderr}");
}

/// Runs `kalah` with `args`; returns the exit status, standard output and standard error.
fn kalah(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kalah")).args(args).output().expect("the kalah binary starts");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

#[test]
fn fair_starts_are_the_nearby_starts_a_full_solve_finds_drawn() {
    // Kalah(3,3) with empty captures, every start one or two seeds from the start, fair or not.
    let fair = ["solve", "fair", "--size", "3,3", "--rules", "empty-capture", "--moved", "2", "--no-egdb"];
    let (status, out, err) = kalah(&[&fair[..], &["--all"]].concat());
    assert_eq!(status, 0, "{err}");
    let mut rules = Rules::standard(3, 3).unwrap();
    rules.capture = kalah_rules::Capture::Empty;
    assert!(out.starts_with("# kalah solve fair: starts one or two seeds from the start that perfect players draw\n# rules: kalah(3,3) empty-capture\n"), "{out}");
    let solver =
        kalah_engine::solver::Solver::new(kalah_engine::search::Options { table_bytes: 8 << 20, ..Default::default() });
    let (mut fair_seen, mut starts) = (Vec::new(), 0);
    for line in out.lines().filter(|line| !line.starts_with('#')) {
        let (start, verdict) = line.split_once("  # ").unwrap_or((line, ""));
        let (position, shifts) = start.split_once("  ").unwrap();
        assert!(!shifts.is_empty() && shifts.split(' ').count() <= 2, "{line}");
        let position = Position::parse(position, &rules).unwrap();
        let solved = solver.solve(&position, &rules, None, Default::default(), None, |_, _| {}).unwrap();
        let value = solved.score.whole_seeds().0;
        match verdict.split_once(" wins by ") {
            None => {
                assert_eq!(value, 0, "{line}");
                fair_seen.push(position.to_string());
            }
            Some((side, by)) => {
                let by: i32 = by.strip_suffix(" or more").unwrap().parse().unwrap();
                let proven = if side == "South" { value >= by } else { value <= -by };
                assert!(by >= 1 && proven, "{line}: value {value}");
            }
        }
        starts += 1;
    }
    assert!(!fair_seen.is_empty() && fair_seen.len() < starts);
    let summary = out.lines().last().unwrap();
    assert!(summary.starts_with(&format!("# {} fair of {starts} starts; ", fair_seen.len())), "{summary}");
    // Without --all, the fair ones alone; as JSON, the same list.
    let (status, json, _) = kalah(&[&fair[..], &["--json"]].concat());
    assert_eq!(status, 0);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let listed: Vec<&str> = json["fair"].as_array().unwrap().iter().map(|s| s["position"].as_str().unwrap()).collect();
    assert_eq!(listed, fair_seen);
    assert_eq!(json["starts"], starts);
    // And one through `kalah solve` itself.
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("fair.ckpt");
    let checkpoint = checkpoint.to_str().unwrap();
    let (status, solved, _) = kalah(&[
        "solve",
        listed[0],
        "--size",
        "3,3",
        "--rules",
        "empty-capture",
        "--no-egdb",
        "--json",
        "--checkpoint",
        checkpoint,
    ]);
    assert_eq!(status, 0);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&solved).unwrap()["value"], 0);
    // What cannot be asked is said in a line.
    let (status, _, err) = kalah(&["solve", "fair", "--size", "3,3", "--moved", "3"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("3 is not in 1..=2"), "{err}");
    let (status, _, err) = kalah(&["solve", "fair", "--size", "3,3", "--pie", "--no-egdb"]);
    assert_eq!((status, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("fair starts are for rules without the pie rule"), "{err}");
}
