//! Endgame databases: every value equals an exhaustive search, damaged files are refused, builds resume.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use kalah_egdb::{self as egdb, BuildEvent, BuildOptions, Egdb, EgdbError};
use kalah_rules::{Direction, Leftover, Position, Rules, Side};

/// A folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("kalah-egdb-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn options() -> BuildOptions {
    BuildOptions { threads: 2 }
}

/// Builds layers 0..=`seeds` and returns the events' kinds by layer: 'k' kept, 'p' packed, 'r'
/// rejected, 'b' built.
fn build(dir: &Path, rules: &Rules, seeds: u32) -> (Egdb, String) {
    let mut log = String::new();
    let db = egdb::build(dir, rules, seeds, &options(), &mut |event| match event {
        BuildEvent::Kept { .. } => log.push('k'),
        BuildEvent::Repacked { .. } => log.push('p'),
        BuildEvent::Rejected { .. } => log.push('r'),
        BuildEvent::Finished { .. } => log.push('b'),
        BuildEvent::Started { .. } | BuildEvent::Progress { .. } => {}
    })
    .unwrap();
    (db, log)
}

/// Every distribution of `seeds` seeds over `cells` cells, written out by a plain recursion
/// (independent of the database's index).
fn distributions(cells: usize, seeds: u16) -> Vec<Vec<u16>> {
    if cells == 1 {
        return vec![vec![seeds]];
    }
    let mut all = Vec::new();
    for first in 0..=seeds {
        for mut rest in distributions(cells - 1, seeds - first) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

fn position(rules: &Rules, south: &[u16], north: &[u16], stores: (u16, u16), mover: Side) -> Position {
    let row = |r: &[u16]| r.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
    let text = format!("{}:{}/{}:{}/{}", row(south), stores.0, row(north), stores.1, mover.letter());
    Position::parse(&text, rules).unwrap()
}

/// The final store difference from the mover's view with perfect play: a plain negamax over the
/// rules crate's positions, stores and all. The memo is keyed by the whole position (stores
/// included), so it assumes nothing the database assumes; it only keeps the test fast.
fn negamax(p: &Position, rules: &Rules, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let me = p.mover();
    let value = if p.is_over(rules) {
        p.final_difference(rules) * me.sign()
    } else {
        p.legal_moves()
            .map(|mv| {
                let child = p.play_unchecked(rules, mv);
                let v = negamax(&child, rules, memo);
                if child.mover() == me {
                    v
                } else {
                    -v
                }
            })
            .max()
            .expect("a game that is not over has a move")
    };
    memo.insert(*p, value);
    value
}

/// Checks every position of up to `max` seeds on `rules`' board against the negamax, with either
/// side to move, and some with seeds in the stores.
fn check_against_negamax(rules: &Rules, max: u32) {
    let dir = TempDir::new(&format!("negamax-{}", egdb::rules_key(rules)));
    let (db, _) = build(&dir.0, rules, max);
    assert_eq!(db.max_seeds(), max);
    let m = rules.houses() as usize;
    let mut memo = HashMap::new();
    let mut checked = 0;
    for seeds in 0..=max as u16 {
        for (i, cells) in distributions(2 * m, seeds).into_iter().enumerate() {
            let (mine, theirs) = cells.split_at(m);
            let stores = if i % 7 == 0 { (3, 1) } else { (0, 0) };
            for p in
                [position(rules, mine, theirs, stores, Side::South), position(rules, theirs, mine, stores, Side::North)]
            {
                let me = p.mover();
                let now = i32::from(p.store(me)) - i32::from(p.store(!me));
                let expected = negamax(&p, rules, &mut memo) - now;
                let moves = db.move_values(&p, rules).unwrap();
                if !rules.first_move_extra && rules.is_first_move(&p) {
                    // The one position the database leaves out: its move values still hold.
                    assert_eq!(db.probe(&p), None, "{rules}: {p}");
                    assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(expected), "{rules}: {p}");
                    continue;
                }
                assert_eq!(db.probe(&p), Some(expected), "{rules}: {p}");
                if !p.is_over(rules) {
                    assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(expected), "{rules}: {p}");
                    for (mv, v) in moves {
                        let child = p.play_unchecked(rules, mv);
                        let later = negamax(&child, rules, &mut memo) * if child.mover() == me { 1 } else { -1 };
                        assert_eq!(v, later - now, "{rules}: {p} move {mv}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn every_value_equals_an_exhaustive_search() {
    for preset in ["standard", "empty-capture", "assignment", "seed-on"] {
        for (m, max) in [(2, 10), (3, 10), (4, 9)] {
            check_against_negamax(&Rules::preset(preset, m, 4).unwrap(), max);
        }
    }
}

/// Under the `mkagent` rules the first move never gives an extra move: the start position of
/// Kalah(m,n) is worth something else than the same houses later in a game, so the database
/// leaves it out (its moves are still valued), and a database opened for another n is not used.
#[test]
fn the_first_move_without_an_extra_move_is_left_out() {
    for (m, n, max) in [(2, 2, 10), (3, 1, 8), (2, 1, 6)] {
        let rules = Rules::preset("mkagent", m, n).unwrap();
        check_against_negamax(&rules, max);
        let dir = TempDir::new(&format!("first-move-{m}-{n}"));
        let (db, _) = build(&dir.0, &rules, max);
        let start = Position::start(&rules);
        assert_eq!(db.probe(&start), None, "{rules}");
        assert!(db.matches(&rules) && !db.matches(&Rules::preset("mkagent", m, n + 1).unwrap()));
        // Under rules whose first move may give an extra move, the same houses are an ordinary position.
        let mut plain = rules;
        plain.first_move_extra = true;
        assert!(!db.matches(&plain));
        assert!(Egdb::open(&dir.0, &plain).unwrap().probe(&start).is_some());
    }
}

#[test]
fn every_leftover_rule_equals_an_exhaustive_search() {
    for leftover in [Leftover::Emptier, Leftover::Discard] {
        for preset in ["standard", "assignment"] {
            let mut rules = Rules::preset(preset, 3, 4).unwrap();
            rules.leftover = leftover;
            check_against_negamax(&rules, 8);
        }
    }
}

#[test]
fn probes_outside_the_database_say_none() {
    let rules = Rules::standard(3, 4).unwrap();
    let dir = TempDir::new("outside");
    let (db, _) = build(&dir.0, &rules, 4);
    assert_eq!(db.probe(&position(&rules, &[1, 1, 1], &[1, 1, 0], (0, 0), Side::South)), None, "5 seeds");
    assert!(db.probe(&position(&rules, &[1, 1, 1], &[1, 0, 0], (9, 9), Side::South)).is_some());
    let other = Rules::standard(4, 4).unwrap();
    assert_eq!(db.probe(&position(&other, &[1, 0, 0, 0], &[1, 0, 0, 0], (0, 0), Side::South)), None);
    assert!(db.matches(&Rules::standard(3, 6).unwrap()), "n does not matter");
    assert!(!db.matches(&Rules::preset("empty-capture", 3, 4).unwrap()));
    assert!(db.memory_bytes() >= 1 + 6 + 21 + 56 + 126);
}

#[test]
fn a_stopped_build_keeps_its_finished_layers() {
    let rules = Rules::standard(4, 3).unwrap();
    let dir = TempDir::new("resume");
    let (_, log) = build(&dir.0, &rules, 5);
    assert_eq!(log, "bbbbbb");
    let before: Vec<Vec<u8>> = (0..=5).map(|k| fs::read(egdb::layer_path(&dir.0, &rules, k)).unwrap()).collect();
    // A stopped build leaves at most a temporary file, which the next build clears away.
    let stale = egdb::rules_dir(&dir.0, &rules).join("layer-006.egdb.tmp-4000000000");
    fs::write(&stale, b"half a layer").unwrap();
    let (db, log) = build(&dir.0, &rules, 8);
    assert_eq!(log, "kkkkkkbbb");
    assert_eq!(db.max_seeds(), 8);
    for (k, bytes) in before.iter().enumerate() {
        assert_eq!(&fs::read(egdb::layer_path(&dir.0, &rules, k as u32)).unwrap(), bytes);
    }
    if Path::new("/proc/self").exists() {
        assert!(!stale.exists(), "the temporary file of a process that is gone is removed");
    }
    let (_, log) = build(&dir.0, &rules, 8);
    assert_eq!(log, "kkkkkkkkk", "nothing left to build");
}

#[test]
fn the_layer_file_has_the_documented_layout() {
    let rules = Rules::preset("seed-on", 4, 3).unwrap();
    let dir = TempDir::new("layout");
    build(&dir.0, &rules, 3);
    let path = egdb::layer_path(&dir.0, &rules, 3);
    assert!(path.ends_with("m4-capture-none-end-side-empty-leftover-owner-sowing-relay/layer-003.egdb"));
    let bytes = fs::read(&path).unwrap();
    let entries = egdb::layer_entries(4, 3).unwrap();
    assert_eq!(entries, 120);
    // 3 seeds: the mover gets 0 to 3 of them, 2 bits a position, and a byte of padding.
    assert_eq!(bytes.len() as u64, 32 + (entries * 2).div_ceil(8) + 1 + 4);
    assert_eq!(&bytes[..8], b"KALAHEGD");
    assert_eq!(&bytes[8..20], &[2, 0, 4, 2, 0, 0, 1, 0, 3, 0, 1, 2]);
    assert_eq!(u64::from_le_bytes(bytes[20..28].try_into().unwrap()), entries);
}

#[test]
fn damaged_layers_are_never_used() {
    let rules = Rules::standard(3, 4).unwrap();
    let dir = TempDir::new("damaged");
    build(&dir.0, &rules, 6);
    let four = position(&rules, &[1, 1, 1], &[1, 0, 0], (0, 0), Side::South);
    let five = position(&rules, &[2, 1, 1], &[1, 0, 0], (0, 0), Side::South);
    let good = Egdb::open(&dir.0, &rules).unwrap();
    assert!(good.issue().is_none());
    assert_eq!(good.max_seeds(), 6);
    // The full check is recorded, so the next open reads only the headers; any change to a file
    // (below) changes what the stamp recorded of it, and it is checked in full again.
    let stamp = egdb::rules_dir(&dir.0, &rules).join(egdb::stamp::STAMP_FILE);
    assert!(fs::read_to_string(&stamp).unwrap().starts_with("kalah egdb verified 1\nlayer-000.egdb "));
    let trusted = Egdb::open(&dir.0, &rules).unwrap();
    assert_eq!((trusted.max_seeds(), trusted.issue().is_none()), (6, true));

    // A truncated layer 5: layers 0-4 are loaded and the reason is given.
    let path5 = egdb::layer_path(&dir.0, &rules, 5);
    let bytes5 = fs::read(&path5).unwrap();
    fs::write(&path5, &bytes5[..bytes5.len() - 10]).unwrap();
    let db = Egdb::open(&dir.0, &rules).unwrap();
    assert_eq!(db.max_seeds(), 4);
    assert!(matches!(db.issue(), Some(EgdbError::Truncated { .. })), "{:?}", db.issue());
    let message = db.issue().unwrap().to_string();
    assert!(message.contains("layer-005.egdb") && message.contains("truncated"), "{message}");
    assert_eq!(db.probe(&five), None);
    assert_eq!(db.probe(&four), good.probe(&four));

    // One flipped bit in the values of layer 4.
    let path4 = egdb::layer_path(&dir.0, &rules, 4);
    let mut bytes4 = fs::read(&path4).unwrap();
    bytes4[40] ^= 0x10;
    fs::write(&path4, &bytes4).unwrap();
    let db = Egdb::open(&dir.0, &rules).unwrap();
    assert_eq!(db.max_seeds(), 3);
    assert!(matches!(db.issue(), Some(EgdbError::Checksum { .. })), "{:?}", db.issue());
    assert!(db.issue().unwrap().to_string().contains("damaged"));
    assert_eq!(db.probe(&four), None);

    // inspect reports each layer.
    let statuses = egdb::inspect(&dir.0, &rules).unwrap();
    let problems: Vec<bool> = statuses.iter().map(|s| s.problem.is_some()).collect();
    assert_eq!(problems, [false, false, false, false, true, true, false]);

    // A header naming other rules.
    let path2 = egdb::layer_path(&dir.0, &rules, 2);
    let mut bytes2 = fs::read(&path2).unwrap();
    bytes2[11] = 1;
    fs::write(&path2, &bytes2).unwrap();
    let db = Egdb::open(&dir.0, &rules).unwrap();
    assert_eq!(db.max_seeds(), 1);
    assert!(matches!(db.issue(), Some(EgdbError::Mismatch { field: "capture rule", .. })), "{:?}", db.issue());

    // A missing layer below others is reported too.
    fs::remove_file(&path2).unwrap();
    let db = Egdb::open(&dir.0, &rules).unwrap();
    assert!(matches!(db.issue(), Some(EgdbError::Missing { .. })), "{:?}", db.issue());

    // Rebuilding replaces exactly the bad layers and gives the same values as before.
    let (db, log) = build(&dir.0, &rules, 6);
    assert_eq!(log, "kkbkrbrbk");
    assert_eq!(db.probe(&five), good.probe(&five));
    assert_eq!(fs::read(&path5).unwrap(), bytes5);

    // Layer 0 damaged: nothing can be used.
    let path0 = egdb::layer_path(&dir.0, &rules, 0);
    let mut bytes0 = fs::read(&path0).unwrap();
    bytes0[0] = b'X';
    fs::write(&path0, &bytes0).unwrap();
    assert!(matches!(Egdb::open(&dir.0, &rules), Err(EgdbError::BadMagic { .. })));
}

#[test]
fn no_database_and_unsupported_rules_are_errors() {
    let dir = TempDir::new("none");
    let rules = Rules::standard(3, 4).unwrap();
    let error = Egdb::open(&dir.0, &rules).unwrap_err();
    assert!(matches!(error, EgdbError::NoDatabase { .. }));
    assert!(error.to_string().contains("kalah egdb build"));
    assert!(egdb::inspect(&dir.0, &rules).unwrap().is_empty());

    let mut clockwise = rules;
    clockwise.direction = Direction::Clockwise;
    let kgp = Rules::preset("kgp", 3, 4).unwrap();
    for bad in [clockwise, kgp] {
        assert!(matches!(egdb::supports(&bad), Err(EgdbError::Unsupported { .. })));
        assert!(matches!(Egdb::open(&dir.0, &bad), Err(EgdbError::Unsupported { .. })));
        let built = egdb::build(&dir.0, &bad, 2, &options(), &mut |_| {});
        let message = built.unwrap_err().to_string();
        assert!(message.starts_with("endgame databases do not support"), "{message}");
    }
    assert!(matches!(
        egdb::build(&dir.0, &rules, 128, &options(), &mut |_| {}),
        Err(EgdbError::TooManySeeds { seeds: 128 })
    ));
    assert!(matches!(
        egdb::build(&dir.0, &Rules::standard(12, 4).unwrap(), 127, &options(), &mut |_| {}),
        Err(EgdbError::TooLarge { .. })
    ));
}

/// Reads the layer files 0..=`seeds` of `rules` under `dir`, as a host without a file system
/// would fetch them.
fn layer_files(dir: &Path, rules: &Rules, seeds: u32) -> Vec<Vec<u8>> {
    (0..=seeds).map(|k| fs::read(egdb::layer_path(dir, rules, k)).unwrap()).collect()
}

/// A database opened from the bytes of a built folder's files probes the same value as the
/// folder's for every position, and its move values agree; a damaged layer stops the loading
/// below it exactly as it does in a folder.
#[test]
fn a_database_opened_from_bytes_probes_what_the_folder_does() {
    for rules in [Rules::standard(3, 4).unwrap(), Rules::preset("mkagent", 3, 3).unwrap()] {
        let dir = TempDir::new(&format!("bytes-{}", egdb::rules_key(&rules)));
        let (_, _) = build(&dir.0, &rules, 7);
        let folder = Egdb::open(&dir.0, &rules).unwrap();
        let given = Egdb::from_bytes(&rules, layer_files(&dir.0, &rules, 7)).unwrap();
        assert_eq!((given.max_seeds(), given.issue().is_none()), (7, true));
        assert!(given.matches(&rules));
        let m = rules.houses() as usize;
        let mut probed = 0;
        for seeds in 0..=8u16 {
            for cells in distributions(2 * m, seeds) {
                let (mine, theirs) = cells.split_at(m);
                for p in [
                    position(&rules, mine, theirs, (0, 0), Side::South),
                    position(&rules, theirs, mine, (2, 1), Side::North),
                ] {
                    assert_eq!(given.probe(&p), folder.probe(&p), "{rules}: {p}");
                    assert_eq!(given.move_values(&p, &rules), folder.move_values(&p, &rules), "{rules}: {p}");
                    probed += usize::from(given.probe(&p).is_some());
                }
            }
        }
        assert!(probed > 1000, "{probed} positions probed");
    }

    let rules = Rules::standard(3, 4).unwrap();
    let dir = TempDir::new("bytes-damaged");
    build(&dir.0, &rules, 6);
    let mut files = layer_files(&dir.0, &rules, 6);
    files[4][40] ^= 0x10;
    let db = Egdb::from_bytes(&rules, files.clone()).unwrap();
    assert_eq!(db.max_seeds(), 3);
    let message = db.issue().unwrap().to_string();
    assert!(matches!(db.issue(), Some(EgdbError::Checksum { .. })), "{message}");
    assert!(message.contains("layer-004.egdb") && message.contains("damaged"), "{message}");
    // Fewer layers given: the database holds those.
    assert_eq!(Egdb::from_bytes(&rules, files[..2].to_vec()).unwrap().max_seeds(), 1);
    // Layer 0 damaged, none given, or other rules: nothing can be used.
    files[0][33] ^= 1;
    assert!(matches!(Egdb::from_bytes(&rules, files), Err(EgdbError::Checksum { .. })));
    assert!(matches!(Egdb::from_bytes(&rules, Vec::new()), Err(EgdbError::NoDatabase { .. })));
    let other = Rules::standard(4, 4).unwrap();
    let files = layer_files(&dir.0, &rules, 6);
    assert!(matches!(Egdb::from_bytes(&other, files), Err(EgdbError::Mismatch { field: "houses a side", .. })));
}
