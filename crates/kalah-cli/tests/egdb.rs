//! `kalah egdb build`, `info` and `probe` run as a user runs them, always with `--dir`.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `kalah egdb ARGS --dir DIR`.
fn egdb(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah"))
        .arg("egdb")
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("the kalah binary starts")
}

/// Runs a command that must succeed and returns its standard output.
fn ok(dir: &Path, args: &[&str]) -> String {
    let output = egdb(dir, args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{args:?} failed: {}\n{stdout}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// Runs a command that must fail with status 2 and a one-line message; returns the message.
fn bad(dir: &Path, args: &[&str]) -> String {
    let output = egdb(dir, args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

#[test]
fn build_then_info_then_probe() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = ok(dir, &["build", "--seeds", "6", "--size", "4,3"]);
    assert!(out.contains("Kalah(4,·) capture=standard end=side-empty leftover=owner sowing=single"), "{out}");
    assert!(out.contains("layer   6:         1716 positions"), "{out}");
    assert!(out.contains("done: layers 0-6 (7 built, 0 kept)"), "{out}");
    let folder = dir.join("m4-capture-standard-end-side-empty-leftover-owner-sowing-single");
    assert!(folder.join("layer-006.egdb").is_file());

    let out = ok(dir, &["info", "--size", "4,3"]);
    assert_eq!(out.lines().filter(|l| l.ends_with("  ok")).count(), 7, "{out}");
    assert!(out.contains("usable: layers 0-6"), "{out}");

    // The size comes from the position. Every move is forced: South 3 to house 4, North 2 to
    // house 3, South 4 into the store, and North keeps its seed: one each, so +0 from here.
    let out = ok(dir, &["probe", "0,0,1,0:4/0,1,0,0:3/S"]);
    assert!(out.contains("2 seeds in the houses, South to move"), "{out}");
    assert!(out.contains("value: +0 for South from here on; final store difference +1"), "{out}");
    assert!(out.contains("best: 3\n"), "{out}");

    // A finished game is worth its leftovers.
    let out = ok(dir, &["probe", "0,0,0,0:4/0,1,2,0:3/S"]);
    assert!(out.contains("value: -3 for South"), "{out}");
    assert!(out.contains("the game is over"), "{out}");

    // Building again keeps every layer.
    let out = ok(dir, &["build", "--seeds", "7", "--size", "4,3", "--threads", "1"]);
    assert!(out.contains("done: layers 0-7 (1 built, 7 kept)"), "{out}");
}

#[test]
fn a_damaged_layer_shows_in_info_and_is_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(dir, &["build", "--seeds", "4", "--size", "3,3", "--rules", "seed-on"]);
    let layer = dir.join("m3-capture-none-end-side-empty-leftover-owner-sowing-relay/layer-003.egdb");
    let bytes = std::fs::read(&layer).unwrap();
    // Layers are read-only: the damaged copy replaces the file.
    std::fs::remove_file(&layer).unwrap();
    std::fs::write(&layer, &bytes[..bytes.len() - 3]).unwrap();
    let info = egdb(dir, &["info", "--size", "3,3", "--rules", "seed-on"]);
    let (out, stderr) = (String::from_utf8_lossy(&info.stdout), String::from_utf8_lossy(&info.stderr));
    assert!(out.contains("BAD: ") && out.contains("truncated"), "{out}");
    assert!(out.contains("usable: layers 0-2"), "{out}");
    // A check that fails fails the command, with one line naming the layer.
    assert_eq!(info.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr, "kalah: layer 3 is bad: the database fails its checks\n");
    std::fs::rename(
        dir.join("m3-capture-none-end-side-empty-leftover-owner-sowing-relay/layer-001.egdb"),
        dir.join("away"),
    )
    .unwrap();
    let info = egdb(dir, &["info", "--size", "3,3", "--rules", "seed-on"]);
    assert_eq!(info.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&info.stderr);
    assert_eq!(stderr, "kalah: layer 1 is missing, layer 3 is bad: the database fails its checks\n");
    std::fs::rename(
        dir.join("away"),
        dir.join("m3-capture-none-end-side-empty-leftover-owner-sowing-relay/layer-001.egdb"),
    )
    .unwrap();
    let probe = egdb(dir, &["probe", "1,1,1:0/1,0,0:0/S", "--rules", "seed-on"]);
    let stderr = String::from_utf8_lossy(&probe.stderr);
    assert!(stderr.contains("only layers 0-2 are used"), "{stderr}");
    assert_eq!(probe.status.code(), Some(2), "4 seeds are beyond the usable layers: {stderr}");
    let out = ok(dir, &["build", "--seeds", "4", "--size", "3,3", "--rules", "seed-on"]);
    assert!(out.contains("(1 built, 4 kept)"), "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for args in [
        &["build", "--seeds", "200"][..],
        &["build", "--seeds", "3", "--rules", "kgp"],
        &["build", "--seeds", "3", "--direction", "cw"],
        &["build", "--seeds", "3", "--threads", "0"],
        &["build", "--seeds", "3", "--threads", "65"],
        &["build", "--seeds", "3", "--threads", "100000000000"],
        &["build", "--seeds", "3", "--capture", "sometimes"],
        &["build", "--seeds"],
        &["build", "--bogus"],
        &["probe", "1,2,3"],
        &["probe", "1,0:0/0,1:0/S", "--size", "3,3"],
    ] {
        let message = bad(dir, args);
        if !args.contains(&"--bogus") && !args.ends_with(&["--seeds"]) {
            assert_eq!(message.trim_end().lines().count(), 1, "{args:?}: {message}");
            assert!(message.starts_with("kalah: "), "{args:?}: {message}");
        }
    }
    ok(dir, &["build", "--seeds", "2", "--size", "2,1"]);
    let message = bad(dir, &["probe", "2,1:0/0,1:0/N"]);
    assert!(message.contains("4 seeds") && message.contains("up to 2"), "{message}");
}

#[test]
fn a_file_as_the_database_folder_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("afile");
    std::fs::write(&file, "mine").unwrap();
    for (dir, args) in [
        (file.clone(), &["build", "--seeds", "3", "--size", "4,3"][..]),
        (file.join("below"), &["build", "--seeds", "3", "--size", "4,3"]),
        (file.clone(), &["info", "--size", "4,3"]),
        (file.clone(), &["probe", "1,0:0/0,1:0/S"]),
    ] {
        let message = bad(&dir, args);
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
        assert!(message.contains("give --dir a folder, or a path where one can be created"), "{message}");
        assert!(message.contains(&format!("{} cannot be a database folder", dir.display())), "{message}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

#[test]
fn info_and_probe_without_a_database() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = ok(dir, &["info", "--size", "5,4"]);
    assert!(out.contains("no layers"), "{out}");
    let output = egdb(dir, &["probe", "1,0:0/0,1:0/S"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no endgame database"));
}

#[test]
fn the_first_move_of_an_mkagent_game_is_valued_by_its_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(dir, &["build", "--seeds", "8", "--size", "2,2", "--rules", "mkagent"]);
    // The first move never gives an extra move here: house 1 is worth +2, house 2 (into the
    // store, but North moves next) -2. The same houses later in a game would be worth -2.
    let out = ok(dir, &["probe", "2,2:0/2,2:0/S", "--size", "2,2", "--rules", "mkagent"]);
    assert!(out.contains("value: +2 for South"), "{out}");
    assert!(out.contains("best: 1\n") && out.contains("move 2: -2\n"), "{out}");
}

/// A layer cut short by another program while a solve has it mapped ends the solve with one
/// line and status 3, not "Bus error" (status 135 from the shell).
#[cfg(target_os = "linux")]
#[test]
fn a_layer_cut_short_while_mapped_is_reported_in_one_line() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    use std::process::Stdio;

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    ok(&dir, &["build", "--seeds", "12", "--size", "6,4", "--threads", "1"]);
    // Kalah(6,4) takes minutes with this small database, and probes it all the time.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["solve", "--size", "6,4", "--hash", "16", "--verbose", "--egdb-dir"])
        .arg(&dir)
        .arg("--checkpoint")
        .arg(tmp.path().join("solve.ckpt"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.starts_with("solving"), "{line}");
    let mut layers = 0;
    // The layer files (the folder also holds the record of which layers were checked).
    for entry in walk(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "egdb")) {
        let mode = std::fs::metadata(&entry).unwrap().permissions().mode();
        assert_eq!(mode & 0o222, 0, "{} is writable", entry.display());
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::OpenOptions::new().write(true).open(&entry).unwrap().set_len(0).unwrap();
        layers += 1;
    }
    assert_eq!(layers, 13);
    let rest: String = stderr.lines().map(|l| l.unwrap() + "\n").collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3), "{rest}");
    let last = rest.lines().last().unwrap_or_default();
    assert!(last.starts_with("kalah: an endgame database file changed on disk"), "{rest}");
}

/// Every file below `dir`.
#[cfg(target_os = "linux")]
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
