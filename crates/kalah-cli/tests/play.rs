//! `kalah play` driven through a pipe, as a script or a test harness drives it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use kalah_engine::decide::{decide, Reason};
use kalah_engine::search::{Engine, Options};
use kalah_engine::time::Limits;
use kalah_rules::{Action, Game, Record, Rules};

/// The Wikipedia example turn: South's house 5 ends in the store, then house 1 captures 3 + 1 seeds.
const EXAMPLE: &str = "4,3,0,1,2,2:0/5,3,2,1,2,0:0/S";

/// Runs `kalah play ARGS` with `input` on standard input.
fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    // A separate writer: a long script could fill the pipe while the game fills its output.
    let writer = std::thread::spawn(move || {
        // The game may stop before reading everything (quit, game over): a closed pipe is fine.
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("the game runs to its end");
    writer.join().expect("the writer thread ends");
    output
}

/// Runs a game that must end with status 0, and returns what it printed.
fn transcript(args: &[&str], input: &str) -> String {
    let output = play(args, input);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{args:?} failed: {}\n{stdout}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// Reads the game of a saved record.
fn saved_game(path: &Path) -> Game {
    let text = std::fs::read_to_string(path).expect("the record was saved");
    Record::parse(&text).expect("a saved record reads back").record.game
}

fn actions(game: &Game) -> Vec<String> {
    game.actions().iter().map(Action::to_string).collect()
}

/// Asserts that `needles` occur in `haystack` in this order.
fn assert_in_order(haystack: &str, needles: &[&str]) {
    let mut rest = haystack;
    for needle in needles {
        let at = rest.find(needle).unwrap_or_else(|| panic!("{needle:?} missing (or out of order) in:\n{haystack}"));
        rest = &rest[at + needle.len()..];
    }
}

#[test]
fn a_scripted_game_between_people_announces_extra_moves_and_captures() {
    let out = transcript(&["--south", "human", "--north", "human", "--position", EXAMPLE], "5\n1\n3\n4\n");
    assert_in_order(
        &out,
        &[
            // North's row runs from house 6 at the left; South is to move, so South's numbers show.
            "     [ 0] [ 2] [ 1] [ 2] [ 3] [ 5]",
            "[ 0]                               [ 0]",
            "     [ 4] [ 3] [ 0] [ 1] [ 2] [ 2]",
            "       1    2    3    4    5    6",
            "South (human) to move",
            "South> 5",
            "South sowed house 5\nextra move: South moves again",
            "South (human) to move",
            "South> 1",
            "South sowed house 1\nSouth captures 4 seeds",
            "       6    5    4    3    2    1",
            "North (human) to move",
            "North> 3",
            "North sowed house 3",
            "South> 4",
            "South sowed house 4",
            "End of input",
        ],
    );
}

#[test]
fn relay_sowing_is_counted() {
    // Seed-on rules: house 1 ends in house 2, which is lifted and sown on into the store.
    let args = ["--south", "human", "--north", "human", "--rules", "seed-on", "--position", "1,1,0:0/1,1,1:0/S"];
    let out = transcript(&args, "1\n");
    assert_in_order(
        &out,
        &["South sowed house 1\nrelay sowing: South sowed on from 1 more house\nextra move: South moves again"],
    );
}

#[test]
fn bad_lines_get_a_one_line_message_and_the_game_goes_on() {
    // After 5 and 1 it is North's turn, and North's house 2 is empty.
    let args = ["--south", "human", "--north", "human", "--position", EXAMPLE];
    let out = transcript(&args, "5\n1\n0\n99\n18446744073709551616\nfoo\n\n2\nswap\nkeep\n3\n");
    assert_in_order(
        &out,
        &[
            "North> 0\nthere is no house 0: houses are numbered 1 to 6\n",
            "North> 99\nthere is no house 99: houses are numbered 1 to 6\n",
            "North> 18446744073709551616\nthere is no house 18446744073709551616: houses are numbered 1 to 6\n",
            "North> foo\ncannot read \"foo\": type a house 1-6, undo, hint, chain, save FILE, load FILE, help or quit\n",
            "North> \ntype a house 1-6",
            "North> 2\nhouse 2 is empty: play a house that holds seeds\n",
            "North> swap\na swap is allowed only under the pie rule",
            "North> keep\na handicap move is allowed only under the handicap rule",
            "North> 3\nNorth sowed house 3",
        ],
    );
}

#[test]
fn help_and_quit() {
    let out = transcript(&["--south", "human", "--north", "human", "--size", "4,3"], "help\nquit\n1\n");
    assert_in_order(&out, &["South> help\nCommands at the prompt:", "save FILE", "South> quit\nGame abandoned."]);
    assert!(!out.contains("South sowed"), "nothing is read after quit:\n{out}");
}

#[test]
fn the_end_of_the_input_ends_the_game_quietly() {
    let output = play(&["--south", "human", "--north", "human"], "");
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("End of input: the game stops unfinished."));
    assert!(output.stderr.is_empty());
}

#[test]
fn undo_between_people_takes_back_one_action() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.kalah");
    let input = format!("undo\n1\n2\nundo\nsave {}\n", file.display());
    let out = transcript(&["--south", "human", "--north", "human", "--size", "4,3"], &input);
    assert_in_order(
        &out,
        &["South> undo\nnothing to undo", "North> undo\nTook back 1 action.", "North (human) to move"],
    );
    assert_eq!(actions(&saved_game(&file)), ["1"]);
}

#[test]
fn undo_against_the_engine_takes_back_the_reply_and_the_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.kalah");
    let input = format!("1\nundo\nsave {}\n", file.display());
    let out = transcript(&["--north", "engine", "--depth", "2", "--size", "4,3"], &input);
    assert_in_order(
        &out,
        &["South sowed house 1", "North (engine) sows house", "South> undo\nTook back", "South (human) to move"],
    );
    assert!(actions(&saved_game(&file)).is_empty());
}

#[test]
fn hint_names_a_house_and_its_value() {
    let out = transcript(&["--south", "human", "--north", "human", "--size", "4,3", "--depth", "2"], "hint\n");
    assert_in_order(&out, &["South> hint\nhint: house ", " seeds to South, depth 2)"]);
}

/// Returns the decision every player and the browser take in `game` at `depth`, by the engine
/// the hint uses (the default table, no database).
fn decided(game: &Game, depth: u32) -> kalah_engine::decide::Decision {
    decide(&Engine::new(Options::default()), game, Limits::depth(depth), None).expect("the game goes on")
}

#[test]
fn the_hint_is_the_decision_every_player_takes() {
    let people = ["--south", "human", "--north", "human", "--depth", "6", "--no-egdb"];
    // South's first turn under the pie rule goes on after house 3's extra move: the hint is the
    // opening closest to even, as the engine player and the browser's hint decide it.
    let out = transcript(&[&people[..], &["--size", "6,4", "--pie"]].concat(), "3\nhint\n");
    let mut rules = Rules::standard(6, 4).unwrap();
    rules.pie = true;
    let mut game = Game::new(rules);
    game.act("3".parse().unwrap()).unwrap();
    let decision = decided(&game, 6);
    assert_eq!(decision.reason, Reason::EvenOffer);
    let Action::Sow(house) = decision.action else { panic!("South sows: {decision:?}") };
    let (value, depth) = (decision.score, decision.depth);
    let line = format!(
        "hint: house {house} (opening closest to even (pie rule); worth {value} seeds to South, depth {depth})"
    );
    assert_in_order(&out, &["South> hint\n", &line]);
    // North's pie offer after a first sowing that leaves South better off: the hint is to swap.
    let mut rules = Rules::standard(4, 3).unwrap();
    rules.pie = true;
    let swapped = (1..=4).find_map(|first| {
        let mut game = Game::new(rules);
        game.act(Action::Sow(kalah_rules::Move::from_number(first)?)).ok()?;
        let decision = decided(&game, 6);
        (decision.action == Action::Swap).then_some((first, decision))
    });
    let (first, decision) = swapped.expect("Kalah(4,3) is +6 for South: some first sowing is worth a swap");
    let out = transcript(&[&people[..], &["--size", "4,3", "--pie"]].concat(), &format!("{first}\nhint\n"));
    let line = format!("hint: swap (South's side is worth {} seeds to you, depth {})", decision.score, decision.depth);
    assert_in_order(&out, &["North> hint\n", &line]);
    // Before a handicap game North's hint is a handicap decision, with its value.
    let out = transcript(&[&people[..], &["--size", "4,3", "--handicap"]].concat(), "hint\n");
    assert_in_order(
        &out,
        &["North> hint\nhint: ", " (handicap: the start worst for South; worth ", " seeds to North, depth "],
    );
}

#[test]
fn chain_lists_the_longest_run_of_extra_moves() {
    // South's row is the 17-seed pattern of six houses; after South clears it North is to move.
    let people = ["--south", "human", "--north", "human", "--position", "6,4,2,3,1,1:0/1,1,1,1,1,1:0/S"];
    let out = transcript(&people, "help\nchain\n6\nchain\n");
    assert_in_order(
        &out,
        &[
            "  chain      the longest run of extra moves",
            "South> chain\nchain: South can make 17 extra moves in a row: 6 4 6 5 6 1 6 2 6 5 6 3 6 4 6 5 6\n",
            "South> 6\nSouth sowed house 6\nextra move: South moves again",
            "South> chain\nchain: South can make 16 extra moves in a row: 4 6 5 6 1 6 2 6 5 6 3 6 4 6 5 6\n",
        ],
    );
    // After the Wikipedia example turn North's house 5 holds 2 seeds and house 6 then 1: two extra
    // moves. South's row is then empty: the game is over and there is no chain.
    let out = transcript(&["--south", "human", "--north", "human", "--position", EXAMPLE], "5\n1\nchain\n");
    assert_in_order(&out, &["North> chain\nchain: North can make 2 extra moves in a row: 5 6\n"]);
    let out = transcript(&["--south", "human", "--north", "human", "--position", "0,0,1:0/1,1,1:0/S"], "3\nchain\n");
    assert_in_order(&out, &["game over> chain\nthe game is over: there is no chain\n"]);
}

#[test]
fn a_saved_game_loads_back_in_a_session_and_with_load() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.kalah");
    let second = dir.path().join("second.kalah");
    let third = dir.path().join("third.kalah");
    let people = ["--south", "human", "--north", "human", "--size", "4,3"];
    let input = format!("2\n1\nsave {}\n3\nload {}\nsave {}\n", first.display(), first.display(), second.display());
    let out = transcript(&people, &input);
    assert_in_order(&out, &["Saved the game to", "Loaded ", "kalah(4,3) standard, 2 actions."]);
    let game = saved_game(&first);
    assert_eq!(actions(&game), ["2", "1"]);
    assert_eq!(saved_game(&second), game);

    let text = std::fs::read_to_string(&first).unwrap();
    for tag in ["[Event \"Casual game\"]", "[South \"human\"]", "[North \"human\"]", "[Rules \"kalah(4,3) standard\"]"]
    {
        assert!(text.contains(tag), "{tag} missing in:\n{text}");
    }
    let date = text.lines().find_map(|l| l.strip_prefix("[Date \"")).expect("a Date tag");
    assert!(date.len() == "YYYY.MM.DD\"]".len() && date.as_bytes()[4] == b'.', "{date}");

    let out =
        transcript(&["--load", first.to_str().unwrap(), "--north", "human"], &format!("save {}\n", third.display()));
    assert!(out.contains("South sowed house 1"), "the last move is shown after loading:\n{out}");
    assert_eq!(saved_game(&third), game);
}

/// Saves a game at the prompt to each of `names` in `dir`, then to `new.kalah`; returns what each
/// save printed (one line each) and checks that the prompt stayed.
fn save_to(dir: &Path, names: &[&str]) -> Vec<String> {
    let mut input = "2\n".to_string();
    for name in names.iter().chain(&["new.kalah"]) {
        input.push_str(&format!("save {}\n", dir.join(name).display()));
    }
    let out = transcript(&["--south", "human", "--north", "human", "--size", "4,3"], &input);
    let answers: Vec<String> =
        out.split("> save ").skip(1).map(|part| part.lines().nth(1).unwrap_or_default().to_string()).collect();
    assert_eq!(answers.len(), names.len() + 1, "{out}");
    assert_eq!(answers[names.len()], format!("Saved the game to {}.", dir.join("new.kalah").display()), "{out}");
    assert_eq!(actions(&saved_game(&dir.join("new.kalah"))), ["2"], "the game went on after the refusals");
    answers[..names.len()].to_vec()
}

#[cfg(unix)]
#[test]
fn save_refuses_links_fifos_folders_other_files_and_read_only_files() {
    use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("target.kalah"), "[Rules \"kalah(4,3) standard\"]\n\n*\n").unwrap();
    symlink("target.kalah", dir.join("link.kalah")).unwrap();
    symlink("nowhere", dir.join("dangling.kalah")).unwrap();
    assert!(Command::new("mkfifo").arg(dir.join("fifo")).status().unwrap().success());
    std::fs::create_dir(dir.join("folder")).unwrap();
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    std::fs::write(dir.join("empty"), "").unwrap();
    std::fs::write(dir.join("read-only.kalah"), "[Rules \"kalah(4,3) standard\"]\n\n*\n").unwrap();
    std::fs::set_permissions(dir.join("read-only.kalah"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let refusals = [
        ("link.kalah", "is a symbolic link"),
        ("dangling.kalah", "is a symbolic link"),
        ("fifo", "is a FIFO, not a regular file"),
        ("folder", "is a folder, not a regular file"),
        ("notes.txt", "is not a kalah record"),
        ("empty", "is not a kalah record"),
        ("read-only.kalah", "is read-only"),
    ];
    let names: Vec<&str> = refusals.iter().map(|(name, _)| *name).collect();
    for (said, (name, why)) in save_to(dir, &names).iter().zip(refusals) {
        let expected = format!(
            "cannot save: {} {why}; it is left untouched: save to a new file or over a kalah record",
            dir.join(name).display()
        );
        assert_eq!(said, &expected);
    }
    let kind = |name: &str| std::fs::symlink_metadata(dir.join(name)).unwrap().file_type();
    assert!(kind("link.kalah").is_symlink() && kind("dangling.kalah").is_symlink() && kind("fifo").is_fifo());
    assert!(!dir.join("nowhere").exists());
    assert_eq!(std::fs::read_to_string(dir.join("target.kalah")).unwrap(), "[Rules \"kalah(4,3) standard\"]\n\n*\n");
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "my notes\n");
    assert_eq!(std::fs::read_to_string(dir.join("empty")).unwrap(), "");
    assert!(std::fs::read_to_string(dir.join("read-only.kalah")).unwrap().ends_with("\n*\n"));
}

#[cfg(unix)]
#[test]
fn save_replaces_a_record_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("mine.kalah");
    // A record as written, and one whose moves were damaged by hand: both are records.
    for old in
        [saved_record(dir, &["1"]), "; my game\n[Event \"x\"]\n[Rules \"kalah(4,3) standard\"]\n9 9 *\n".to_string()]
    {
        for mode in [0o600, 0o640] {
            std::fs::write(&path, &old).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            assert_eq!(save_to(dir, &["mine.kalah"]), [format!("Saved the game to {}.", path.display())]);
            assert_eq!(actions(&saved_game(&path)), ["2"]);
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777, mode);
        }
    }
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["game.kalah", "mine.kalah", "new.kalah"], "no temporary file is left");
}

/// A device is refused and stays a device: a node made for the test where the system allows it
/// (as root), else /dev/null, which only root could replace.
#[cfg(unix)]
#[test]
fn save_refuses_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let made = Command::new("mknod").arg(dir.join("full")).args(["c", "1", "7"]).stderr(Stdio::null()).status();
    let device = if made.is_ok_and(|status| status.success()) {
        dir.join("full")
    } else {
        let null = Path::new("/dev/null");
        // Without a node of its own, a test run by root must not try /dev/null itself.
        let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        if root || !null.exists() {
            eprintln!("skipped: no device node can be made here");
            return;
        }
        null.to_path_buf()
    };
    let said = save_to(dir, &[device.to_str().unwrap()]);
    assert!(
        said[0].ends_with(
            "is a device, not a regular file; it is left untouched: save to a new file or over a kalah record"
        ),
        "{said:?}"
    );
    assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device());
}

#[test]
fn a_damaged_record_names_its_line_and_leaves_the_game_alone() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir.path().join("damaged.kalah");
    std::fs::write(&damaged, "[Rules \"kalah(4,3) standard\"]\n\n1. 1 2\n2. 9\n").unwrap();
    let kept = dir.path().join("kept.kalah");
    let input = format!("1\nload {}\nsave {}\n", damaged.display(), kept.display());
    let out = transcript(&["--south", "human", "--north", "human", "--size", "4,3"], &input);
    assert!(out.contains("cannot load") && out.contains("line 4: move 9"), "{out}");
    assert_eq!(actions(&saved_game(&kept)), ["1"]);

    let output = play(&["--load", damaged.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 4"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Saves a game of Kalah(6,4) between two people who play `moves`, and returns the record's text.
fn saved_record(dir: &Path, moves: &[&str]) -> String {
    let path = dir.join("game.kalah");
    let people = ["--south", "human", "--north", "human", "--size", "6,4"];
    let input = format!("{}\nsave {}\n", moves.join("\n"), path.display());
    transcript(&people, &input);
    std::fs::read_to_string(&path).unwrap()
}

/// Loads `text` with `kalah play --load` and returns the exit status and standard error.
fn load(dir: &Path, text: &str) -> (Option<i32>, String) {
    let path = dir.join("damaged.kalah");
    std::fs::write(&path, text).unwrap();
    let output = play(&["--load", path.to_str().unwrap(), "--north", "human"], "");
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn damaged_records_are_refused_instead_of_loading_as_another_game() {
    let dir = tempfile::tempdir().unwrap();
    // South 1, North 1, South 2 (an extra move: 3 seeds reach the store), 6, North 2, ...
    let text = saved_record(dir.path(), &["1", "1", "3", "2", "5", "6", "4", "3", "1", "5"]);
    let lines: Vec<&str> = text.lines().collect();
    let last_move = lines.len() - 2;
    assert!(lines[last_move].chars().next().is_some_and(|c| c.is_ascii_digit()), "{text}");
    assert_eq!(lines[last_move + 1], "*", "the result token ends the moves:\n{text}");
    let (status, stderr) = load(dir.path(), &text);
    assert_eq!(status, Some(0), "the record as saved loads: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");

    // Cut in the middle of the last line of moves (head -c), cut after a whole line, a move changed.
    let mid_line = text.len() - "*\n".len() - 2;
    let cut_line: String = lines[..last_move].iter().map(|l| format!("{l}\n")).collect();
    let first_move = lines.iter().position(|l| l.starts_with("1. ")).unwrap();
    let changed = text.replacen(lines[first_move], &lines[first_move].replacen("1. 1 1", "1. 1 2", 1), 1);
    assert_ne!(changed, text);
    for (damaged, line) in [(&text[..mid_line], last_move + 1), (&cut_line[..], last_move), (&changed[..], 0)] {
        let (status, stderr) = load(dir.path(), damaged);
        assert_eq!(status, Some(2), "{damaged}\n{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("kalah: cannot load "), "{stderr}");
        if line > 0 {
            assert!(stderr.contains(&format!(": line {line}: the moves do not end with the result token")), "{stderr}");
        } else {
            assert!(stderr.contains("a move was changed or lost") || stderr.contains("is illegal"), "{stderr}");
        }
    }
}

#[test]
fn a_record_written_before_the_end_tag_loads_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let text = saved_record(dir.path(), &["1", "1"]);
    let old: String = text.lines().filter(|l| !l.starts_with("[End ")).map(|l| format!("{l}\n")).collect();
    assert_ne!(old, text);
    let (status, stderr) = load(dir.path(), &old);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("kalah: warning: ") && stderr.contains("has no [End"), "{stderr}");
    // At the prompt the warning follows the load.
    let path = dir.path().join("damaged.kalah");
    let out = transcript(&["--south", "human", "--north", "human"], &format!("load {}\n", path.display()));
    assert_in_order(&out, &["Loaded ", "warning: the record has no [End"]);
}

#[test]
fn records_are_read_with_a_limit_and_dev_zero_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.kalah");
    let mut text = String::from("[Rules \"kalah(6,4) standard\"]\n");
    text.push_str(&"; a comment line to make the record long\n".repeat(30_000));
    text.push_str("*\n");
    std::fs::write(&huge, &text).unwrap();
    for (path, says) in [(huge.to_str().unwrap(), "it is over 1 MiB"), ("/dev/zero", "it is not text")] {
        if !Path::new(path).exists() {
            continue;
        }
        let output = play(&["--load", path], "");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{path}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{path}: {stderr}");
    }
    let out = transcript(&["--south", "human", "--north", "human"], "load /dev/zero\nquit\n");
    assert!(out.contains("cannot load /dev/zero: it is not text"), "{out}");
}

#[test]
fn a_prompt_line_over_the_limit_is_skipped() {
    let long = "1".repeat(70_000);
    let out = transcript(&["--south", "human", "--north", "human", "--size", "4,3"], &format!("{long}\n2\nquit\n"));
    assert_in_order(
        &out,
        &["South> \nthe line is longer than 65536 bytes: it was skipped\nSouth> 2\nSouth sowed house 2"],
    );
    assert!(!out.contains(&long[..100]), "the long line is not echoed");
}

#[test]
fn engines_play_each_other_to_the_end() {
    let out = transcript(&["--south", "engine", "--north", "alphabeta", "--depth", "2", "--size", "4,3"], "");
    assert!(out.contains("South (engine) sows house"), "{out}");
    assert!(out.contains("North (alphabeta) sows house"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("Game over: South "), "{last}");
    assert!(last.contains(" wins by ") || last.contains("draw"), "{last}");
    assert!(!out.contains("> "), "no prompt without a person at the board:\n{out}");
}

#[test]
fn a_person_plays_the_engine_from_a_script() {
    // Every fourth line names each house once, so each turn finds a legal move; the game ends long
    // before the script, and the lines after it get a message.
    let script = "1\n2\n3\n4\n".repeat(60);
    let out = transcript(&["--north", "greedy", "--size", "4,3"], &script);
    assert_in_order(&out, &["South sowed house", "North (greedy) sows house", "Game over: South ", "game over> "]);
    let out = transcript(&["--south", "ordered:depth=1", "--north", "human", "--size", "4,3"], &script);
    assert_in_order(&out, &["South (ordered) sows house", "North sowed house", "Game over: South "]);
}

#[test]
fn the_pie_rule_swaps_the_seats() {
    let people = ["--south", "human", "--north", "human", "--size", "4,3", "--pie"];
    let out = transcript(&people, "swap\n1\nswap\n");
    assert_in_order(
        &out,
        &[
            "South> swap\na swap is allowed only",
            "North (human) to move: sow a house, or swap",
            "North> swap\nNorth swapped sides",
            "North (human) to move",
        ],
    );
    // The engine moved first as South; after the swap it plays North and moves again at once.
    let out =
        transcript(&["--south", "engine", "--north", "human", "--depth", "2", "--size", "4,3", "--pie"], "swap\n");
    assert_in_order(
        &out,
        &[
            "South (engine) sows house",
            "North> swap\nNorth swapped sides",
            "the first player (engine) now plays North, the second player (human) plays South",
            "North (engine) sows house",
            "South (human) to move",
        ],
    );
}

#[test]
fn the_handicap_rule_asks_north_first() {
    let people = ["--south", "human", "--north", "human", "--size", "4,3", "--handicap"];
    let out = transcript(&people, "1\nkeep\n1\n");
    assert_in_order(
        &out,
        &[
            "North (human) decides the handicap",
            "North> 1\nthe second player must first decide",
            "North> keep\nNorth kept the board",
            "South> 1\nSouth sowed house 1",
        ],
    );
    let out = transcript(&people, "S1>N4\n");
    assert_in_order(&out, &["North moved one seed from S1 to N4", "     [ 2] [ 3] [ 3] [ 3]"]);
    let out = transcript(&["--north", "engine", "--depth", "1", "--size", "4,3", "--handicap"], "");
    assert!(out.contains("North (engine) keeps") || out.contains("North (engine) moves one seed"), "{out}");
}

#[test]
fn bad_flags_exit_with_status_2_and_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.kalah");
    std::fs::write(&record, "[Rules \"kalah(4,3) standard\"]\n\n1. 1\n").unwrap();
    let record = record.to_str().unwrap();
    for args in [
        vec!["--depth", "0"],
        vec!["--depth", "65"],
        vec!["--time", "0"],
        vec!["--depth", "2", "--time", "100"],
        vec!["--south", "robot"],
        vec!["--north", "human:depth=3"],
        vec!["--size", "13,4"],
        vec!["--position", "1,2"],
        vec!["--load", record, "--size", "4,3"],
        vec!["--load", record, "--position", "1:0/1:0/S"],
    ] {
        let output = play(&args, "");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("kalah: ") && !stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_engine_takes_a_database_folder_or_none() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    let built = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["egdb", "build", "--seeds", "6", "--size", "3,2", "--threads", "1", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let engines = ["--size", "3,2", "--south", "engine:depth=3", "--north", "engine:depth=3"];
    let with = transcript(&[&engines[..], &["--egdb-dir", dir.to_str().unwrap()]].concat(), "");
    let without = transcript(&[&engines[..], &["--no-egdb"]].concat(), "");
    // Both play Kalah(3,2) to its end; the database only makes the engine's values exact.
    assert!(with.contains("Game over") && without.contains("Game over"), "{with}\n{without}");
    let missing = play(&[&engines[..], &["--egdb-dir", "/no/such/folder"]].concat(), "");
    let message = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{message}");
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    assert!(message.contains("--egdb-dir /no/such/folder: no such folder"), "{message}");
}
