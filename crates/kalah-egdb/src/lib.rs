//! Endgame databases for Kalah: the exact value of every position with few seeds left in the houses.
//!
//! This crate depends on the rules crate only; the engine depends on it (its searches take a
//! database as an oracle). What lives here:
//!
//! * this module: the database ([`Egdb`]: open from a folder or from the files' bytes, probe,
//!   prefetch), [`build`], [`inspect`], where the files live ([`default_dir`], [`layer_path`]),
//!   and the errors ([`EgdbError`]); which layers an engine opens within its memory is the
//!   engine's one policy (`kalah_engine::databases`);
//! * [`board`]: the byte-level sowing the build and the engine's proof search share;
//! * `index`, `solve`: the rank of a position in its layer, and the computation of a layer from
//!   the layers below;
//! * `file`: the layer file format: header, values, checksum, a layer's bytes checked whole;
//! * `disk`: layer files on disk: checked reads (mapped where allowed), atomic writes;
//! * [`stamp`]: which layer files passed the full check, so that an open need not read them all;
//! * [`memory`]: huge pages, zeroed atomic slots and prefetching, for this crate's layers and the
//!   engine's tables alike.
//!
//! The library never owns the process: it installs no signal handler and never exits. A mapped
//! file that another program cuts short raises `SIGBUS` when touched; the `kalah` binary turns
//! that into one line and a documented exit status, and any other host decides for itself.
//!
//! # Features
//!
//! All are on by default. Without any (`--no-default-features`, as for `wasm32-unknown-unknown`)
//! a database is opened from its files' bytes ([`Egdb::from_bytes`]) and probed, on one thread,
//! with no file system and no memory mapping.
//!
//! * `fs`: a database folder: [`Egdb::open`], [`build`], [`inspect`], [`default_dir`] and the
//!   verified [`stamp`].
//! * `mmap` (implies `fs`): layer files mapped into memory instead of read (Unix), and huge pages
//!   for large tables (Linux).
//! * `threads`: a [`build`] solves each layer on [`BuildOptions::threads`] threads; without it,
//!   on the calling thread alone.
//!
//! # What is stored
//!
//! Under the rules a database supports, what happens from a position on depends only on the
//! seeds in the houses and who is to move; the stores only add a constant. So a database holds,
//! for every distribution of up to K seeds over the 2m houses (the mover's row first), the
//! position's **value**: what the mover gains from here on with perfect play by both sides,
//!
//! ```text
//! value = (final store difference) − (current store difference), both from the mover's view.
//! ```
//!
//! A position with stores is worth its store difference plus its value; [`Egdb::probe`] returns
//! the value. It lies in −k..=k for k seeds in the houses (K ≤ 127). Positions where the game is
//! already over are included: their value is what the leftover rule deals out.
//!
//! Where every seed ends in a store (leftover rules `owner` and `emptier`), the value is 2x − k
//! with x the seeds the mover still gets, so a layer keeps x in ⌈log2(k + 1)⌉ bits: 5 bits for
//! 16 to 31 seeds, 6 for 32 to 63. Under `discard` it keeps the value in one `i8`.
//!
//! # Supported rules
//!
//! Counter-clockwise sowing, any capture rule, either end rule, any leftover rule, single or
//! relay sowing. Not clockwise sowing (its positions carry a count of sowings without progress)
//! and not `majority_ends` (the end depends on the stores): [`Egdb::open`] and [`build`] refuse
//! them with [`EgdbError::Unsupported`]. The seeds a house starts with (n), the pie rule and the
//! handicap do not change a position's value, so a database is keyed by m and the variant
//! fields only: one built for Kalah(6,4) serves Kalah(6,6).
//!
//! One position is left out: under rules whose first move never gives an extra move (the
//! `mkagent` preset), the start position of Kalah(m,n) with South to move is worth something
//! else than the same houses later in a game would be. A database opened for such rules knows
//! their n and does not give that position's value ([`Egdb::probe`] says `None`; a search
//! searches it); every other position is the same.
//!
//! # Layers and the index
//!
//! Layer k holds the C(k + 2m − 1, 2m − 1) distributions of exactly k seeds, ordered by the
//! combinatorial number system (stars and bars), with the cells taken in the order mover's
//! house 1, opponent's house 1, mover's house 2, … (each side's houses from its own house 1,
//! the one farthest from its store). See the `index` submodule. Layer k needs the layers below
//! it: a move that puts seeds in a store lands in a lower layer. Kalah(6,·) has C(K + 12, 12)
//! positions in layers 0..=K; packed, they take 52 MB for K = 18, 139 MB for K = 20, 9.6 GB for
//! K = 31 and 13.9 GB for K = 32 (one byte a position: 86.5 MB, 226 MB, 15.3 GB, 21.1 GB).
//!
//! # Files
//!
//! Layer k of a rule set lives in `DIR/RULES-KEY/layer-KKK.egdb` ([`layer_path`]), e.g.
//! `~/.cache/kalah/egdb/m6-capture-standard-end-side-empty-leftover-owner-sowing-single/layer-016.egdb`.
//! The default DIR is [`default_dir`], under the user's cache directory. A file is:
//!
//! | offset | bytes | content |
//! |---|---|---|
//! | 0 | 8 | magic `KALAHEGD` |
//! | 8 | 2 | format version, little-endian `u16` (2) |
//! | 10 | 1 | m, houses a side |
//! | 11 | 1 | capture: 0 standard, 1 empty, 2 never |
//! | 12 | 1 | end: 0 either side empty, 1 mover stuck |
//! | 13 | 1 | leftover: 0 owner, 1 emptier, 2 discard |
//! | 14 | 1 | sowing: 0 single, 1 relay |
//! | 15 | 1 | direction: 0 counter-clockwise (the only one) |
//! | 16 | 2 | k, seeds in the houses, little-endian `u16` |
//! | 18 | 1 | value encoding: 0 = one `i8` a position, 1 = packed |
//! | 19 | 1 | b, bits a position if packed (⌈log2(k + 1)⌉, at least 1), else 0 |
//! | 20 | 8 | N, number of positions, little-endian `u64` |
//! | 28 | 4 | reserved, 0 |
//! | 32 | V | the values by rank: N bytes of `i8`, or packed |
//! | 32 + V | 4 | CRC-32 (IEEE, as zlib) of every byte before it, little-endian |
//!
//! Packed, the position of rank r keeps x (its value is 2x − k) in bits r·b to r·b + b − 1 of
//! the values, bit i being bit i mod 8 of byte ⌊i / 8⌋; V = ⌈N·b / 8⌉ + 1, the last byte zero
//! padding. Version 1 files (encoding 0 only) are still read; `kalah egdb build` packs them in
//! place of building them again.
//!
//! A file is written to a temporary file beside it, flushed to disk and renamed into place, so
//! a build stopped at any moment keeps every finished layer. A file is mapped into memory (on
//! Unix with the `mmap` feature; read, elsewhere) and checked whole (header against the rules and
//! the layer, length, checksum) before any of it is used; one that fails is never used, and
//! neither is any layer above it. Layers given as bytes ([`Egdb::from_bytes`]) are checked the
//! same way. Mapping shares the system's file cache: once the files have been read, a 5.6 GB
//! database opens in about half a second.
//!
//! ```no_run
//! use kalah_egdb::{self as egdb, BuildOptions, Egdb};
//! use kalah_rules::{Position, Rules};
//! let rules = Rules::standard(6, 4).unwrap();
//! let dir = egdb::default_dir().unwrap();
//! egdb::build(&dir, &rules, 12, &BuildOptions::default(), &mut |_| {}).unwrap();
//! let db = Egdb::open(&dir, &rules).unwrap();
//! let p = Position::parse("0,0,0,0,1,2:30/0,0,0,0,0,1:14/S", &rules).unwrap();
//! let gain = db.probe(&p).unwrap(); // South gains this much more than North from here
//! assert!(gain.abs() <= 4);
//! ```

pub mod board;
#[cfg(feature = "fs")]
mod disk;
mod file;
mod index;
pub mod memory;
#[cfg(feature = "fs")]
mod solve;
#[cfg(feature = "fs")]
pub mod stamp;

use std::path::{Path, PathBuf};
#[cfg(feature = "fs")]
use std::time::{Duration, Instant};

use kalah_rules::rules::{word_of, CAPTURE_WORDS, END_WORDS, LEFTOVER_WORDS, SOWING_WORDS};
use kalah_rules::{Move, Position, Rules, Side};
use thiserror::Error;

use board::Variant;
use file::{Encoding, Header, Layer};
use index::Ranker;

/// The most seeds in the houses a database can hold: values must fit in an `i8`.
pub const MAX_SEEDS: u32 = 127;

/// Returns the number of positions of layer `seeds` on a board of `houses` houses a side, or
/// `None` if it does not fit in a `u64`.
pub fn layer_entries(houses: u8, seeds: u32) -> Option<u64> {
    index::layer_entries(2 * houses as usize, seeds)
}

/// Why a database cannot be built, opened or used.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// The rules make a position's value depend on more than its houses.
    #[error("endgame databases do not support {rules}: {why}")]
    Unsupported {
        /// The rules asked for.
        rules: Rules,
        /// Why they are not supported.
        why: &'static str,
    },
    /// More seeds than a value byte can describe.
    #[error("{seeds} seeds is too many for an endgame database: at most {MAX_SEEDS}")]
    TooManySeeds {
        /// The seeds asked for.
        seeds: u32,
    },
    /// A layer too large to index or hold in memory.
    #[error("layer {seeds} of Kalah({houses},·) has {entries} positions, too many to build or load")]
    TooLarge {
        /// Houses a side.
        houses: u8,
        /// The layer.
        seeds: u32,
        /// Its positions (`u64::MAX` if past counting).
        entries: u64,
    },
    /// Memory for a layer cannot be had.
    #[error("not enough memory for layer {seeds}: it takes {bytes} bytes")]
    OutOfMemory {
        /// The layer.
        seeds: u32,
        /// The bytes it needs.
        bytes: u64,
    },
    /// No layer at all for these rules.
    #[error("no endgame database in {dir}: build one with `kalah egdb build --seeds K`")]
    NoDatabase {
        /// The folder of the rules.
        dir: PathBuf,
    },
    /// A layer file is missing.
    #[error("{path} is missing")]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// Reading or writing failed.
    #[error("cannot read or write {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is shorter than its header says.
    #[error("{path} is truncated: {found} bytes where the layer takes {expected}; rebuild it with `kalah egdb build`")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Its right size.
        expected: u64,
        /// Its size.
        found: u64,
    },
    /// The file is longer than its header says.
    #[error("{path} has bytes past its end: {found} bytes where the layer takes {expected}; rebuild it with `kalah egdb build`")]
    TrailingBytes {
        /// The file.
        path: PathBuf,
        /// Its right size.
        expected: u64,
        /// Its size.
        found: u64,
    },
    /// The file does not start as a layer file.
    #[error("{path} is not an endgame database layer (wrong magic bytes)")]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// The file is of another format version.
    #[error(
        "{path} has format version {found}; this program reads version {supported}: rebuild it with `kalah egdb build`"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u16,
        /// The version read here.
        supported: u16,
    },
    /// A header field differs from the rules or the layer the file is named for.
    #[error("{path} is not the layer expected: its {field} is {found}, not {expected}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which header field.
        field: &'static str,
        /// The value expected.
        expected: u64,
        /// The value in the file.
        found: u64,
    },
    /// The checksum does not match: the file is damaged.
    #[error("{path} is damaged: its checksum is {stored:08x} but its contents give {computed:08x}; rebuild it with `kalah egdb build`")]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum in the file.
        stored: u32,
        /// The checksum of its contents.
        computed: u32,
    },
}

/// Checks that a database can be built for `rules`.
pub fn supports(rules: &Rules) -> Result<(), EgdbError> {
    Variant::of(rules).map(|_| ())
}

/// Returns the seeds a house holds at the start if the first move of `rules` never gives an extra
/// move: the database leaves that one position out.
fn first_move(rules: &Rules) -> Option<u8> {
    (!rules.first_move_extra).then_some(rules.seeds())
}

/// Returns the name of the folder of `rules`' databases: m and the variant fields, e.g.
/// `m6-capture-standard-end-side-empty-leftover-owner-sowing-single`.
pub fn rules_key(rules: &Rules) -> String {
    format!(
        "m{}-capture-{}-end-{}-leftover-{}-sowing-{}",
        rules.houses(),
        word_of(&CAPTURE_WORDS, rules.capture),
        word_of(&END_WORDS, rules.end),
        word_of(&LEFTOVER_WORDS, rules.leftover),
        word_of(&SOWING_WORDS, rules.sowing)
    )
}

/// Returns the folder of `rules`' layers under the database folder `dir`.
pub fn rules_dir(dir: &Path, rules: &Rules) -> PathBuf {
    dir.join(rules_key(rules))
}

/// Returns the file of layer `seeds` of `rules` under the database folder `dir`.
pub fn layer_path(dir: &Path, rules: &Rules, seeds: u32) -> PathBuf {
    rules_dir(dir, rules).join(format!("layer-{seeds:03}.egdb"))
}

/// Returns the default database folder: `$XDG_CACHE_HOME/kalah/egdb`, else `~/.cache/kalah/egdb`
/// (`%LOCALAPPDATA%\kalah\egdb` on Windows), or `None` if none of these is set.
pub fn default_dir() -> Option<PathBuf> {
    let from = |var: &str| std::env::var_os(var).map(PathBuf::from).filter(|p| p.is_absolute());
    let cache = from("XDG_CACHE_HOME")
        .or_else(|| from("HOME").map(|home| home.join(".cache")))
        .or_else(|| from("LOCALAPPDATA"))?;
    Some(cache.join("kalah").join("egdb"))
}

/// Returns the sizes of layers 0..=`max_seeds`, or why they cannot be built.
fn layer_sizes(variant: &Variant, max_seeds: u32) -> Result<Vec<u64>, EgdbError> {
    if max_seeds > MAX_SEEDS {
        return Err(EgdbError::TooManySeeds { seeds: max_seeds });
    }
    (0..=max_seeds)
        .map(|seeds| {
            layer_entries(variant.houses, seeds)
                .filter(|&n| usize::try_from(n).is_ok_and(|n| n <= isize::MAX as usize))
                .ok_or(EgdbError::TooLarge {
                    houses: variant.houses,
                    seeds,
                    entries: layer_entries(variant.houses, seeds).unwrap_or(u64::MAX),
                })
        })
        .collect()
}

/// Returns the bytes the values of layer `seeds` of `rules` take as a build writes them, or
/// `None` if the rules are not supported or the layer is too large to count.
pub fn layer_bytes(rules: &Rules, seeds: u32) -> Option<u64> {
    let variant = Variant::of(rules).ok()?;
    let entries = layer_entries(variant.houses, seeds)?;
    Encoding::preferred(&variant, seeds).values_len(entries).into()
}

/// Settings of a build.
#[cfg(feature = "fs")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Threads solving a layer (without the `threads` feature, one: the calling thread).
    pub threads: usize,
}

#[cfg(feature = "fs")]
impl Default for BuildOptions {
    /// As many threads as the machine has cores.
    fn default() -> BuildOptions {
        BuildOptions { threads: std::thread::available_parallelism().map_or(1, |n| n.get()) }
    }
}

/// What a build is doing, for a progress display.
#[cfg(feature = "fs")]
#[derive(Debug)]
pub enum BuildEvent {
    /// A layer on disk passed every check and is used as it is.
    Kept {
        /// The layer.
        seeds: u32,
        /// Its positions.
        entries: u64,
        /// Its file size.
        bytes: u64,
    },
    /// A layer on disk of an older build (one byte a value) passed every check and was packed
    /// and written again in the smaller encoding.
    Repacked {
        /// The layer.
        seeds: u32,
        /// Its positions.
        entries: u64,
        /// Its new file size.
        bytes: u64,
        /// The time packing and writing it took.
        elapsed: Duration,
    },
    /// A layer file on disk failed a check and will be built again.
    Rejected {
        /// The layer.
        seeds: u32,
        /// What is wrong with it.
        error: EgdbError,
    },
    /// A layer is being computed.
    Started {
        /// The layer.
        seeds: u32,
        /// Its positions.
        entries: u64,
    },
    /// Some of the layer is done.
    Progress {
        /// The layer.
        seeds: u32,
        /// Positions solved so far.
        done: u64,
        /// Its positions.
        entries: u64,
    },
    /// A layer was computed and written.
    Finished {
        /// The layer.
        seeds: u32,
        /// Its positions.
        entries: u64,
        /// Its file size.
        bytes: u64,
        /// The time computing and writing it took.
        elapsed: Duration,
    },
}

/// Builds layers 0..=`max_seeds` of `rules` in the database folder `dir`, keeping the layers
/// already there that pass every check, and returns the whole database.
///
/// Each layer is written as soon as it is done, so a build that is stopped loses only the layer it
/// was computing. Memory: the layers built so far plus the one in progress.
#[cfg(feature = "fs")]
pub fn build(
    dir: &Path,
    rules: &Rules,
    max_seeds: u32,
    options: &BuildOptions,
    events: &mut dyn FnMut(BuildEvent),
) -> Result<Egdb, EgdbError> {
    let variant = Variant::of(rules)?;
    let sizes = layer_sizes(&variant, max_seeds)?;
    let ranker = Ranker::new(variant.houses as usize, max_seeds);
    let folder = rules_dir(dir, rules);
    std::fs::create_dir_all(&folder).map_err(|source| EgdbError::Io { path: folder.clone(), source })?;
    disk::remove_stale_temps(&folder);
    let mut layers: Vec<Layer> = Vec::with_capacity(sizes.len());
    for (seeds, &entries) in (0u32..).zip(&sizes) {
        let path = layer_path(dir, rules, seeds);
        let header = Header::new(variant, seeds, entries);
        match disk::read_layer(&path, &header) {
            Ok(layer) if layer.encoding() == header.encoding => {
                events(BuildEvent::Kept { seeds, entries, bytes: header.file_len() });
                layers.push(layer);
                continue;
            }
            Ok(layer) => {
                // A layer of an older build, one byte a value: pack it rather than build it again.
                let started = Instant::now();
                let values = encode(layer.bytes().to_vec(), &header);
                drop(layer);
                let bytes = disk::write_layer(&path, &header, &values)?;
                events(BuildEvent::Repacked { seeds, entries, bytes, elapsed: started.elapsed() });
                layers.push(Layer::owned(&header, values));
                continue;
            }
            Err(EgdbError::Missing { .. }) => {}
            Err(error) => events(BuildEvent::Rejected { seeds, error }),
        }
        events(BuildEvent::Started { seeds, entries });
        let started = Instant::now();
        let values = solve::solve_layer(variant, &ranker, &layers, seeds, entries, options.threads, &mut |done| {
            events(BuildEvent::Progress { seeds, done, entries })
        })?;
        let values = encode(values, &header);
        let bytes = disk::write_layer(&path, &header, &values)?;
        events(BuildEvent::Finished { seeds, entries, bytes, elapsed: started.elapsed() });
        layers.push(Layer::owned(&header, values));
    }
    Ok(Egdb { variant, ranker, layers, issue: None, first_move: first_move(rules) })
}

/// Turns a layer's values, one `i8` a byte, into the encoding of `header`.
#[cfg(feature = "fs")]
fn encode(values: Vec<u8>, header: &Header) -> Vec<u8> {
    match header.encoding {
        Encoding::Byte => values,
        Encoding::Packed { bits } => file::pack(values, header.seeds, bits),
    }
}

/// A layer file found on disk and what checking it said.
#[cfg(feature = "fs")]
#[derive(Debug)]
pub struct LayerStatus {
    /// The layer: seeds in the houses.
    pub seeds: u32,
    /// The file.
    pub path: PathBuf,
    /// Its positions.
    pub entries: u64,
    /// The file's size (0 if it is missing).
    pub bytes: u64,
    /// What is wrong with it, or `None` if it passed every check.
    pub problem: Option<EgdbError>,
    /// Whether it passed its checks but keeps one byte a value where a build now packs the
    /// values (an older build's file; the next `build` packs it).
    pub unpacked: bool,
}

/// Checks every layer of `rules` in the database folder `dir`, from 0 to the highest on disk
/// (the missing ones in between included); an empty list means there is none.
#[cfg(feature = "fs")]
pub fn inspect(dir: &Path, rules: &Rules) -> Result<Vec<LayerStatus>, EgdbError> {
    let variant = Variant::of(rules)?;
    let Some(highest) = highest_on_disk(dir, rules) else { return Ok(Vec::new()) };
    let sizes = layer_sizes(&variant, highest)?;
    let folder = rules_dir(dir, rules);
    let mut stamp = stamp::Stamp::read(&folder);
    let mut stamped = false;
    let statuses = (0u32..)
        .zip(sizes)
        .map(|(seeds, entries)| {
            let path = layer_path(dir, rules, seeds);
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            let header = Header::new(variant, seeds, entries);
            let identity = stamp::Identity::of(&path);
            // Always the full check here: this is the command that says whether the files are sound.
            let (problem, unpacked) = match disk::read_layer(&path, &header) {
                Ok(layer) => {
                    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                    stamped |= stamp.add(name, identity);
                    (None, layer.encoding() != header.encoding)
                }
                Err(e) => (Some(e), false),
            };
            LayerStatus { seeds, path, entries, bytes, problem, unpacked }
        })
        .collect();
    if stamped {
        stamp.write(&folder);
    }
    Ok(statuses)
}

/// Returns the highest layer number with a file in `rules`' folder (valid or not, at most [`MAX_SEEDS`]).
#[cfg(feature = "fs")]
fn highest_on_disk(dir: &Path, rules: &Rules) -> Option<u32> {
    let entries = std::fs::read_dir(rules_dir(dir, rules)).ok()?;
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let number = name.to_str()?.strip_prefix("layer-")?.strip_suffix(".egdb")?.parse::<u32>().ok()?;
            (number <= MAX_SEEDS).then_some(number)
        })
        .max()
}

/// An endgame database in memory: layers 0..=K of one rule set.
///
/// ```no_run
/// # use kalah_egdb::Egdb;
/// # use kalah_rules::{Position, Rules};
/// # let rules = Rules::default();
/// # let position = Position::start(&rules);
/// let db = Egdb::open(&kalah_egdb::default_dir().unwrap(), &rules).unwrap();
/// if let Some(gain) = db.probe(&position) {
///     let mover = position.mover();
///     let final_difference = i32::from(position.store(mover)) - i32::from(position.store(!mover)) + gain;
/// #   let _ = final_difference;
/// }
/// ```
#[derive(Debug)]
pub struct Egdb {
    variant: Variant,
    ranker: Ranker,
    /// The values of layer k, by rank, as bytes of `i8`.
    layers: Vec<Layer>,
    issue: Option<EgdbError>,
    /// The seeds a house holds at the start when the rules' first move never gives an extra
    /// move: that start position is not in the database (see the crate documentation).
    first_move: Option<u8>,
}

impl Egdb {
    /// Loads every layer of `rules` found in the database folder `dir`, from 0 up to the first
    /// that is missing or fails a check.
    ///
    /// Fails if the rules are not supported or layer 0 cannot be loaded. When a layer fails a
    /// check, or is missing below others, the layers under it are loaded and [`Egdb::issue`]
    /// says what stopped the loading.
    #[cfg(feature = "fs")]
    pub fn open(dir: &Path, rules: &Rules) -> Result<Egdb, EgdbError> {
        Egdb::open_up_to(dir, rules, MAX_SEEDS)
    }

    /// Like [`Egdb::open`], but loads no layer above `max_seeds`, to bound the memory used.
    #[cfg(feature = "fs")]
    pub fn open_up_to(dir: &Path, rules: &Rules, max_seeds: u32) -> Result<Egdb, EgdbError> {
        Egdb::open_within(dir, rules, max_seeds, u64::MAX)
    }

    /// Like [`Egdb::open_up_to`], but also stops below the first layer that would take the
    /// values in memory past `max_bytes` (layer 0 is always loaded).
    #[cfg(feature = "fs")]
    pub fn open_within(dir: &Path, rules: &Rules, max_seeds: u32, max_bytes: u64) -> Result<Egdb, EgdbError> {
        let variant = Variant::of(rules)?;
        let max_seeds = max_seeds.min(MAX_SEEDS);
        let mut layers: Vec<Layer> = Vec::new();
        let mut issue = None;
        let mut used = 0u64;
        let folder = rules_dir(dir, rules);
        let mut stamp = stamp::Stamp::read(&folder);
        let mut stamped = false;
        for seeds in 0..=max_seeds {
            let path = layer_path(dir, rules, seeds);
            // A layer too large to index cannot have been built.
            let Ok(sizes) = layer_sizes(&variant, seeds) else { break };
            let entries = sizes[seeds as usize];
            // The file's size says what the layer takes, whichever encoding it has.
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            if seeds > 0 && used.saturating_add(bytes) > max_bytes {
                break;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let identity = stamp::Identity::of(&path);
            let header = Header::new(variant, seeds, entries);
            let loaded = if stamp.trusts(&name, identity) {
                disk::open_verified_layer(&path, &header)
            } else {
                disk::read_layer(&path, &header)
            };
            match loaded {
                Ok(layer) => {
                    used += bytes;
                    layers.push(layer);
                    // Checked in full now (or trusted already): later opens need not read it all.
                    stamped |= stamp.add(&name, identity);
                }
                Err(error) => {
                    let gap = highest_on_disk(dir, rules).is_some_and(|h| h > seeds && h <= max_seeds);
                    match error {
                        EgdbError::Missing { .. } if seeds == 0 => {
                            return Err(EgdbError::NoDatabase { dir: rules_dir(dir, rules) })
                        }
                        _ if seeds == 0 => return Err(error),
                        EgdbError::Missing { .. } if !gap => {}
                        _ => issue = Some(error),
                    }
                    break;
                }
            }
        }
        if stamped {
            stamp.write(&folder);
        }
        let ranker = Ranker::new(variant.houses as usize, layers.len() as u32 - 1);
        Ok(Egdb { variant, ranker, layers, issue, first_move: first_move(rules) })
    }

    /// Opens a database from the contents of its layer files, for a host without a file system
    /// (a browser fetches them): `layers` gives the bytes of `layer-000.egdb`, `layer-001.egdb`,
    /// … in order, as [`build`] writes them (their names under a folder are
    /// [`layer_path`]'s).
    ///
    /// Each is checked exactly as [`Egdb::open`] checks a file (the header against the rules and
    /// the layer, the length, the checksum), and as there, loading stops below the first layer
    /// that fails a check, which [`Egdb::issue`] then names. The errors name each layer by its
    /// path under the database folder.
    ///
    /// # Errors
    ///
    /// If the rules are not supported, no layer is given, or layer 0 fails a check.
    pub fn from_bytes(rules: &Rules, layers: impl IntoIterator<Item = Vec<u8>>) -> Result<Egdb, EgdbError> {
        let variant = Variant::of(rules)?;
        let mut loaded: Vec<Layer> = Vec::new();
        let mut issue = None;
        for (seeds, bytes) in (0u32..).zip(layers) {
            let path = layer_path(Path::new(""), rules, seeds);
            let checked = layer_sizes(&variant, seeds).and_then(|sizes| {
                let header = Header::new(variant, seeds, sizes[seeds as usize]);
                file::layer_from_bytes(bytes, &path, &header)
            });
            match checked {
                Ok(layer) => loaded.push(layer),
                Err(error) if seeds == 0 => return Err(error),
                Err(error) => {
                    issue = Some(error);
                    break;
                }
            }
        }
        if loaded.is_empty() {
            return Err(EgdbError::NoDatabase { dir: rules_dir(Path::new(""), rules) });
        }
        let ranker = Ranker::new(variant.houses as usize, loaded.len() as u32 - 1);
        Ok(Egdb { variant, ranker, layers: loaded, issue, first_move: first_move(rules) })
    }

    /// Returns the most seeds in the houses of a position the database holds (K).
    pub fn max_seeds(&self) -> u32 {
        self.ranker.max_seeds()
    }

    /// Returns the houses a side of the board the database is for.
    pub fn houses(&self) -> u8 {
        self.variant.houses
    }

    /// Tells whether the database gives the values of positions under `rules`.
    pub fn matches(&self, rules: &Rules) -> bool {
        Variant::of(rules).is_ok_and(|v| v == self.variant) && first_move(rules) == self.first_move
    }

    /// Returns why loading stopped below a layer that is on disk, if it did.
    pub fn issue(&self) -> Option<&EgdbError> {
        self.issue.as_ref()
    }

    /// Takes out why loading stopped (after which [`Egdb::issue`] is `None`), for a caller that
    /// reports it itself.
    pub fn take_issue(&mut self) -> Option<EgdbError> {
        self.issue.take()
    }

    /// Returns the bytes the database takes in memory.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Egdb>()
            + self.ranker.memory_bytes()
            + self.layers.iter().map(|l| l.bytes().len()).sum::<usize>()
            + self.layers.len() * std::mem::size_of::<Layer>()
    }

    /// Returns what the mover gains from `position` on with perfect play (the final store
    /// difference minus the current one, from the mover's view), or `None` if the position has
    /// more seeds in the houses than the database holds or another number of houses.
    ///
    /// Fast enough for a search: a few table lookups, no allocation. The rules are not checked
    /// here (a position does not carry them): see [`Egdb::matches`].
    #[inline]
    pub fn probe(&self, position: &Position) -> Option<i32> {
        let (layer, rank) = self.locate(position)?;
        Some(i32::from(layer.value(rank)))
    }

    /// Starts bringing `position`'s value into the cache, for a [`Egdb::probe`] soon after, and
    /// tells whether the database holds the position.
    ///
    /// A probe is a random access into gigabytes, so it nearly always misses the cache; a search
    /// that asks for all of a node's children first finds their values there when it reads them.
    #[inline]
    pub fn prefetch(&self, position: &Position) -> bool {
        self.prefetch_ticket(position).is_some()
    }

    /// [`Egdb::prefetch`], returning the layer and the rank of `position` in one number for
    /// [`Egdb::read_ticket`], so that reading the value does not rank the position again.
    #[inline]
    pub fn prefetch_ticket(&self, position: &Position) -> Option<u64> {
        let (layer, rank) = self.locate(position)?;
        Egdb::ticket(layer, rank, u32::from(position.seeds_in_houses()))
    }

    /// [`Egdb::prefetch_ticket`] of a byte board ([`board::Board`], the mover's houses first) of
    /// this database's variant, holding `seeds` seeds in its houses: the proof search's nodes
    /// are byte boards, and ranking their bytes spares making a `Position` of each child.
    ///
    /// Under a first-move rule the start distribution is never found, whoever is to move (a
    /// board does not say): a miss is only a search, never a wrong value.
    #[inline]
    pub fn prefetch_board(&self, board: &board::Board, seeds: u32) -> Option<u64> {
        let m = usize::from(self.variant.houses);
        let (mover, opponent) = (&board[..m], &board[m + 1..2 * m + 1]);
        if self.first_move.is_some_and(|start| mover.iter().chain(opponent).all(|&s| s == start)) {
            return None;
        }
        let (layer, rank) = self.locate_rows(seeds, mover, opponent)?;
        Egdb::ticket(layer, rank, seeds)
    }

    /// Starts bringing the value of rank `rank` in `layer` (of `seeds` seeds) into the cache and
    /// returns its ticket for [`Egdb::read_ticket`].
    #[inline]
    fn ticket(layer: &Layer, rank: u64, seeds: u32) -> Option<u64> {
        crate::memory::prefetch(layer.address(rank)?);
        // A layer of 2^56 positions could not be held in memory; were there one, its positions
        // would be searched rather than read, which is slower but still right.
        (rank < 1 << 56).then(|| u64::from(seeds) << 56 | rank)
    }

    /// Returns the value of the position a [`Egdb::prefetch_ticket`] of this database gave
    /// `ticket` for.
    ///
    /// # Panics
    ///
    /// If `ticket` names a layer this database does not have: it did not come from this database.
    #[inline]
    pub fn read_ticket(&self, ticket: u64) -> i32 {
        i32::from(self.layers[(ticket >> 56) as usize].value(ticket & ((1 << 56) - 1)))
    }

    /// Returns the layer and the rank of `position`, if the database holds the position.
    #[inline]
    fn locate(&self, position: &Position) -> Option<(&Layer, u64)> {
        if position.houses() != self.variant.houses {
            return None;
        }
        if let Some(seeds) = self.first_move {
            let start = |side| position.row(side).iter().all(|&s| s == u16::from(seeds));
            if position.mover() == Side::South && start(Side::South) && start(Side::North) {
                return None;
            }
        }
        let me = position.mover();
        self.locate_rows(u32::from(position.seeds_in_houses()), position.row(me), position.row(!me))
    }

    /// Returns the layer and the rank of the houses `mover` and `opponent` (each from its house
    /// 1), which hold `seeds` seeds, if the database holds them.
    #[inline]
    fn locate_rows<T: Copy + Into<u32>>(&self, seeds: u32, mover: &[T], opponent: &[T]) -> Option<(&Layer, u64)> {
        let layer = self.layers.get(seeds as usize)?;
        let rank = self.ranker.rank(mover, opponent);
        (rank < layer.entries()).then_some((layer, rank))
    }

    /// Returns every legal move of `position` with what the mover gains from here on by playing
    /// it and playing perfectly after, or `None` if the database does not cover the position
    /// or the rules. Empty when the game is over.
    pub fn move_values(&self, position: &Position, rules: &Rules) -> Option<Vec<(Move, i32)>> {
        if !self.matches(rules) || position.houses() != self.variant.houses {
            return None;
        }
        let me = position.mover();
        let own = |p: &Position| i32::from(p.store(me)) - i32::from(p.store(!me));
        if position.is_over(rules) {
            self.probe(position)?;
            return Some(Vec::new());
        }
        position
            .legal_moves()
            .map(|mv| {
                let child = position.play_unchecked(rules, mv);
                let later = if child.is_over(rules) {
                    child.final_difference(rules) * me.sign() - own(&child)
                } else {
                    let v = self.probe(&child)?;
                    if child.mover() == me {
                        v
                    } else {
                        -v
                    }
                };
                Some((mv, own(&child) - own(position) + later))
            })
            .collect()
    }
}

#[cfg(all(test, feature = "fs"))]
mod tests {
    use super::*;

    /// Layers an older build wrote, one byte a value, are used as they are when opened, and a
    /// build packs them instead of computing them again, to the same files a new build writes.
    #[test]
    fn layers_of_format_1_are_read_and_packed() {
        let rules = Rules::standard(3, 4).unwrap();
        let variant = Variant::of(&rules).unwrap();
        let base = std::env::temp_dir().join(format!("kalah-egdb-v1-{}", std::process::id()));
        let (new, old) = (base.join("new"), base.join("old"));
        let fresh = build(&new, &rules, 6, &BuildOptions { threads: 2 }, &mut |_| {}).unwrap();
        for (seeds, layer) in (0u32..).zip(&fresh.layers) {
            let values: Vec<u8> = (0..layer.entries()).map(|rank| layer.value(rank) as u8).collect();
            let header = Header::new(variant, seeds, layer.entries());
            disk::write_version_1(&layer_path(&old, &rules, seeds), &header, &values);
        }
        let opened = Egdb::open(&old, &rules).unwrap();
        assert!(opened.issue().is_none() && opened.max_seeds() == 6);
        assert!(opened.layers.iter().all(|l| l.encoding() == Encoding::Byte));
        for (a, b) in opened.layers.iter().zip(&fresh.layers) {
            assert!((0..a.entries()).all(|rank| a.value(rank) == b.value(rank)));
        }
        assert!(opened.memory_bytes() > fresh.memory_bytes(), "bytes take more room than packed values");
        drop(opened);
        let mut log = String::new();
        let mut note = |event: BuildEvent| match event {
            BuildEvent::Repacked { .. } => log.push('p'),
            BuildEvent::Kept { .. } => log.push('k'),
            _ => log.push('?'),
        };
        build(&old, &rules, 6, &BuildOptions { threads: 2 }, &mut note).unwrap();
        assert_eq!(log, "ppppppp");
        for seeds in 0..=6 {
            let (a, b) = (layer_path(&old, &rules, seeds), layer_path(&new, &rules, seeds));
            assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap(), "layer {seeds}");
        }
        let _ = std::fs::remove_dir_all(&base);
    }
}
