//! The layer files: a header, the values, a checksum; written atomically, read with every check.
//!
//! The format is described in the documentation of the crate.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use kalah_rules::{Capture, GameEnd, Leftover, Sowing};

use crate::board::Variant;
use crate::EgdbError;

/// The first eight bytes of every layer file.
pub(crate) const MAGIC: [u8; 8] = *b"KALAHEGD";
/// The format version this code writes: 2 added the packed value encoding.
pub(crate) const VERSION: u16 = 2;
/// The oldest format version this code reads (one byte a value).
const OLDEST_VERSION: u16 = 1;
/// Bytes before the values.
pub(crate) const HEADER_LEN: usize = 32;
/// Bytes of the checksum after the values.
pub(crate) const CHECKSUM_LEN: usize = 4;
/// Marks a temporary file in the middle of being written: `layer-KKK.egdb.tmp-PID`.
const TEMP_MARK: &str = ".tmp-";

/// How a layer keeps its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// One `i8` a position: the value itself (encoding byte 0).
    Byte,
    /// `bits` bits a position, packed from bit 0 of the first byte on (encoding byte 1): the
    /// seeds x the mover still gets, so the value is 2x − k. Used where every seed ends in a
    /// store, so the value has the parity of k and x needs only ⌈log2(k + 1)⌉ bits: a 32-seed
    /// database takes 14 GB instead of 21.
    Packed {
        /// Bits a position.
        bits: u8,
    },
}

impl Encoding {
    /// Returns the encoding a build writes for layer `seeds` under `variant`.
    pub(crate) fn preferred(variant: &Variant, seeds: u32) -> Encoding {
        if variant.leftover == Leftover::Discard {
            // Discarded seeds go to nobody, so the value's parity says nothing.
            Encoding::Byte
        } else {
            Encoding::Packed { bits: packed_bits(seeds) }
        }
    }

    /// Returns the bytes that `entries` values take: packed values end with a byte of padding,
    /// so a reader may always load two bytes at once.
    pub(crate) fn values_len(self, entries: u64) -> u64 {
        match self {
            Encoding::Byte => entries,
            Encoding::Packed { bits } => (entries * u64::from(bits)).div_ceil(8) + 1,
        }
    }
}

/// Returns the bits that hold every number 0..=`seeds`.
fn packed_bits(seeds: u32) -> u8 {
    (u32::BITS - seeds.leading_zeros()).max(1) as u8
}

/// Packs the values of layer `seeds`, one `i8` a byte, into `bits` bits each, in place (a packed
/// value never lies after the byte it came from, so nothing is overwritten before it is read):
/// the largest layers are gigabytes, and a second buffer would double the memory of a build.
pub(crate) fn pack(mut values: Vec<u8>, seeds: u32, bits: u8) -> Vec<u8> {
    let entries = values.len();
    let (mut acc, mut filled, mut written) = (0u64, 0u8, 0usize);
    for i in 0..entries {
        let value = i32::from(values[i] as i8) + seeds as i32;
        debug_assert!(value >= 0 && value % 2 == 0 && value <= 2 * seeds as i32, "value {value} of layer {seeds}");
        acc |= ((value / 2) as u64) << filled;
        filled += bits;
        while filled >= 8 {
            values[written] = acc as u8;
            written += 1;
            acc >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        values[written] = acc as u8;
        written += 1;
    }
    values.truncate(written);
    values.resize(Encoding::Packed { bits }.values_len(entries as u64) as usize, 0);
    // A large allocation shrinks in place; the freed memory goes to the next layer.
    values.shrink_to_fit();
    values
}

/// What a layer file's header says: the rules, the layer, its size and its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) variant: Variant,
    pub(crate) seeds: u32,
    pub(crate) entries: u64,
    pub(crate) encoding: Encoding,
}

fn capture_code(c: Capture) -> u8 {
    match c {
        Capture::Standard => 0,
        Capture::Empty => 1,
        Capture::Never => 2,
    }
}

fn end_code(e: GameEnd) -> u8 {
    match e {
        GameEnd::EitherSideEmpty => 0,
        GameEnd::MoverStuck => 1,
    }
}

fn leftover_code(l: Leftover) -> u8 {
    match l {
        Leftover::Owner => 0,
        Leftover::Emptier => 1,
        Leftover::Discard => 2,
    }
}

fn sowing_code(s: Sowing) -> u8 {
    match s {
        Sowing::Single => 0,
        Sowing::Relay => 1,
    }
}

impl Header {
    /// Returns the size of the whole file.
    pub(crate) fn file_len(&self) -> u64 {
        (HEADER_LEN + CHECKSUM_LEN) as u64 + self.encoding.values_len(self.entries)
    }

    /// Returns the header of layer `seeds` as a build writes it.
    pub(crate) fn new(variant: Variant, seeds: u32, entries: u64) -> Header {
        Header { variant, seeds, entries, encoding: Encoding::preferred(&variant, seeds) }
    }

    fn encode(&self) -> [u8; HEADER_LEN] {
        let v = &self.variant;
        let mut bytes = [0u8; HEADER_LEN];
        bytes[0..8].copy_from_slice(&MAGIC);
        bytes[8..10].copy_from_slice(&VERSION.to_le_bytes());
        bytes[10] = v.houses;
        bytes[11] = capture_code(v.capture);
        bytes[12] = end_code(v.end);
        bytes[13] = leftover_code(v.leftover);
        bytes[14] = sowing_code(v.sowing);
        bytes[15] = 0; // counter-clockwise, the only direction supported
        bytes[16..18].copy_from_slice(&(self.seeds as u16).to_le_bytes());
        (bytes[18], bytes[19]) = match self.encoding {
            Encoding::Byte => (0, 0),
            Encoding::Packed { bits } => (1, bits),
        };
        bytes[20..28].copy_from_slice(&self.entries.to_le_bytes());
        bytes
    }

    /// Checks a header read from `path` against this one, naming the first field that differs,
    /// and returns it with the encoding the file uses: a layer in either encoding is accepted.
    fn check(&self, bytes: &[u8; HEADER_LEN], path: &Path) -> Result<Header, EgdbError> {
        if bytes[0..8] != MAGIC {
            return Err(EgdbError::BadMagic { path: path.to_path_buf() });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(EgdbError::Version { path: path.to_path_buf(), found: version, supported: VERSION });
        }
        // Version 1 knows only bytes; version 2 may hold either encoding.
        let packed = Encoding::Packed { bits: packed_bits(self.seeds) };
        let encoding = match bytes[18] {
            1 if version >= 2 && Encoding::preferred(&self.variant, self.seeds) == packed => packed,
            _ => Encoding::Byte,
        };
        let found_header = Header { encoding, ..*self };
        let mut want = found_header.encode();
        want[8..10].copy_from_slice(&version.to_le_bytes());
        let fields: [(&'static str, std::ops::Range<usize>); 11] = [
            ("houses a side", 10..11),
            ("capture rule", 11..12),
            ("end rule", 12..13),
            ("leftover rule", 13..14),
            ("sowing", 14..15),
            ("direction", 15..16),
            ("seeds", 16..18),
            ("value encoding", 18..19),
            ("bits a value", 19..20),
            ("positions", 20..28),
            ("reserved bytes", 28..32),
        ];
        let number = |b: &[u8]| b.iter().rev().fold(0u64, |n, &x| n << 8 | u64::from(x));
        for (field, range) in fields {
            let (found, expected) = (number(&bytes[range.clone()]), number(&want[range]));
            if found != expected {
                return Err(EgdbError::Mismatch { path: path.to_path_buf(), field, expected, found });
            }
        }
        Ok(found_header)
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io { path: path.to_path_buf(), source }
}

/// Where a layer's bytes are.
#[derive(Debug)]
enum Storage {
    /// Computed here or read into memory: the values alone.
    Owned(Vec<u8>),
    /// The whole file, mapped: the values lie between the header and the checksum.
    #[cfg(unix)]
    Mapped(memmap2::Mmap),
}

/// A layer's values in memory: mapped from its file where the system allows, else read into
/// the heap (and always in the heap while a build computes it).
#[derive(Debug)]
pub(crate) struct Layer {
    storage: Storage,
    encoding: Encoding,
    seeds: u32,
    entries: u64,
}

impl Layer {
    /// Wraps values computed or read here.
    pub(crate) fn owned(header: &Header, values: Vec<u8>) -> Layer {
        debug_assert_eq!(values.len() as u64, header.encoding.values_len(header.entries));
        Layer {
            storage: Storage::Owned(values),
            encoding: header.encoding,
            seeds: header.seeds,
            entries: header.entries,
        }
    }

    /// Returns the stored bytes of the values.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Owned(values) => values,
            #[cfg(unix)]
            Storage::Mapped(map) => &map[HEADER_LEN..map.len() - CHECKSUM_LEN],
        }
    }

    /// Returns how the values are kept.
    pub(crate) fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Returns the number of positions.
    pub(crate) fn entries(&self) -> u64 {
        self.entries
    }

    /// Returns the value of the position of rank `rank`, which must be below [`Layer::entries`].
    #[inline]
    pub(crate) fn value(&self, rank: u64) -> i8 {
        let bytes = self.bytes();
        match self.encoding {
            Encoding::Byte => bytes[rank as usize] as i8,
            Encoding::Packed { bits } => {
                let bit = rank * u64::from(bits);
                let at = (bit / 8) as usize;
                // The padding byte at the end makes the second byte always there.
                let word = u16::from_le_bytes([bytes[at], bytes[at + 1]]) >> (bit % 8);
                let x = i32::from(word & ((1u16 << bits) - 1));
                (2 * x - self.seeds as i32) as i8
            }
        }
    }

    /// Returns the first byte holding the value of rank `rank` (to bring into the cache), or
    /// `None` if there is no such position.
    #[inline]
    pub(crate) fn address(&self, rank: u64) -> Option<&u8> {
        if rank >= self.entries {
            return None;
        }
        let at = match self.encoding {
            Encoding::Byte => rank,
            Encoding::Packed { bits } => rank * u64::from(bits) / 8,
        };
        self.bytes().get(at as usize)
    }
}

/// Reads the values of the layer at `path`, checking the header against `expected`, the length
/// and the checksum; any file that fails a check is refused whole.
pub(crate) fn read_layer(path: &Path, expected: &Header) -> Result<Layer, EgdbError> {
    load(path, expected, true, false)
}

/// [`read_layer`] of a file the verified stamp names unchanged since it passed the full check:
/// the header and the length are checked, the checksum (which reads every page) is not.
pub(crate) fn open_verified_layer(path: &Path, expected: &Header) -> Result<Layer, EgdbError> {
    load(path, expected, true, true)
}

/// [`read_layer`], mapping the file if `map` and the system allow it, else reading it; `verified`
/// skips the checksum of a mapped file.
fn load(path: &Path, expected: &Header, map: bool, verified: bool) -> Result<Layer, EgdbError> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(EgdbError::Missing { path: path.to_path_buf() }),
        Err(e) => return Err(io_error(path)(e)),
    };
    let found = file.metadata().map_err(io_error(path))?.len();
    let mut header = [0u8; HEADER_LEN];
    if found < HEADER_LEN as u64 {
        return Err(EgdbError::Truncated { path: path.to_path_buf(), expected: expected.file_len(), found });
    }
    file.read_exact(&mut header).map_err(io_error(path))?;
    // The header is checked before the length, so a file of another layer or rule set says so.
    let actual = expected.check(&header, path)?;
    let want = actual.file_len();
    let truncated = || EgdbError::Truncated { path: path.to_path_buf(), expected: want, found };
    if found < want {
        return Err(truncated());
    }
    if found > want {
        return Err(EgdbError::TrailingBytes { path: path.to_path_buf(), expected: want, found });
    }
    let values_len = actual.encoding.values_len(actual.entries);
    let len = usize::try_from(values_len).map_err(|_| EgdbError::TooLarge {
        houses: expected.variant.houses,
        seeds: expected.seeds,
        entries: expected.entries,
    })?;
    let layer = |storage| Layer { storage, encoding: actual.encoding, seeds: actual.seeds, entries: actual.entries };
    #[cfg(unix)]
    if let Some(map) = map.then(|| map_file(&file, want, !verified)).flatten() {
        // The mapped file is checked exactly as a read one: header (again, as mapped), checksum.
        let body = &map[..HEADER_LEN + len];
        expected.check(body[..HEADER_LEN].try_into().expect("a whole header"), path)?;
        let stored = map[HEADER_LEN + len..].try_into().expect("four checksum bytes");
        if !verified {
            check_sum(path, &[body], stored)?;
        }
        return Ok(layer(Storage::Mapped(map)));
    }
    let mut values = Vec::new();
    values.try_reserve_exact(len).map_err(|_| EgdbError::OutOfMemory { seeds: expected.seeds, bytes: values_len })?;
    // Probes are random accesses into large layers: huge pages spare them most TLB misses.
    crate::memory::advise_huge_pages(values.as_ptr() as usize, len);
    // Read straight into the reserved memory: zeroing gigabytes first only to overwrite them
    // took a third of the time it takes to load a large database.
    let mut stored = [0u8; CHECKSUM_LEN];
    let read = (&mut file)
        .take(values_len)
        .read_to_end(&mut values)
        .and_then(|n| if n == len { Ok(()) } else { Err(io::ErrorKind::UnexpectedEof.into()) })
        .and_then(|()| file.read_exact(&mut stored));
    // A file cut short while being read is still a truncated file.
    read.map_err(|e| if e.kind() == io::ErrorKind::UnexpectedEof { truncated() } else { io_error(path)(e) })?;
    check_sum(path, &[&header, &values], stored)?;
    Ok(layer(Storage::Owned(values)))
}

/// Checks the CRC-32 of `parts` (the file's bytes before its checksum, in order) against the
/// checksum `stored` at its end.
fn check_sum(path: &Path, parts: &[&[u8]], stored: [u8; CHECKSUM_LEN]) -> Result<(), EgdbError> {
    let mut crc = Crc32::new();
    for part in parts {
        crc.update(part);
    }
    let (stored, computed) = (u32::from_le_bytes(stored), crc.finalize());
    if stored != computed {
        return Err(EgdbError::Checksum { path: path.to_path_buf(), stored, computed });
    }
    Ok(())
}

/// Maps the whole of `file`, `len` bytes, read-only, or returns `None` if the system will not
/// (the caller then reads the file instead).
///
/// Mapping shares the system's cache of the file: a database read before loads in a fraction of
/// a second instead of being copied into fresh memory, which took longer than the solve of
/// Kalah(6,4) it served.
#[cfg(unix)]
#[allow(unsafe_code)]
fn map_file(file: &File, len: u64, populate: bool) -> Option<memmap2::Mmap> {
    // SAFETY: a mapped file changed or cut short under the mapping would change the values read
    // or fault. This program never writes a layer file in place: a build writes a temporary file
    // and renames it over the old one, which leaves the mapped file as it was, and layers are
    // read-only. A fault from another program cutting one short is reported by `fault`.
    let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
    if map.len() as u64 != len {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        // Probes are random accesses: let the kernel use huge pages where it can, and fill the
        // page tables now rather than fault page by page, unless the layer was verified before
        // (then an open that probes a few positions reads only the pages it touches). All are
        // hints; a kernel that refuses one still serves the mapping.
        let _ = map.advise(memmap2::Advice::HugePage);
        if populate {
            let _ = map.advise(memmap2::Advice::PopulateRead);
        }
        let _ = map.advise(memmap2::Advice::Random);
    }
    Some(map)
}

/// Returns where a layer is written before it is renamed into place.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!("{TEMP_MARK}{}", std::process::id()));
    path.with_file_name(name)
}

/// Writes a layer to `path` atomically: a temporary file in the same folder, flushed to disk, then
/// renamed over `path`, so a build stopped at any moment leaves either the old file or the whole
/// new one. Returns the size of the file.
pub(crate) fn write_layer(path: &Path, header: &Header, values: &[u8]) -> Result<u64, EgdbError> {
    debug_assert_eq!(values.len() as u64, header.encoding.values_len(header.entries));
    let folder = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(folder).map_err(io_error(folder))?;
    let temp = temp_path(path);
    let head = header.encode();
    let write = || -> io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&temp)?);
        let mut crc = Crc32::new();
        crc.update(&head);
        crc.update(values);
        out.write_all(&head)?;
        out.write_all(values)?;
        out.write_all(&crc.finalize().to_le_bytes())?;
        let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        // Read-only: a layer is never changed in place (a mapped file cut short faults), only
        // replaced by a rename, which needs no write permission on the file.
        let mut permissions = file.metadata()?.permissions();
        permissions.set_readonly(true);
        file.set_permissions(permissions)?;
        file.sync_all()
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&temp);
        return Err(io_error(&temp)(e));
    }
    if let Err(e) = fs::rename(&temp, path) {
        let _ = fs::remove_file(&temp);
        return Err(io_error(path)(e));
    }
    // The rename itself is durable only once the folder is flushed; not every system can open a
    // folder for that (Windows cannot), and the file is complete either way.
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(header.file_len())
}

/// Removes temporary files left in `folder` by builds that were stopped, when their process is
/// gone (checked through `/proc`, so only where there is one).
pub(crate) fn remove_stale_temps(folder: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some((_, pid)) = name.split_once(TEMP_MARK) else { continue };
        if name.starts_with("layer-") && pid.parse::<u32>().is_ok() && !proc.join(pid).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes layer `header.seeds` as format version 1 wrote it (one byte a value), as older builds
/// left it in users' caches.
#[cfg(test)]
pub(crate) fn write_version_1(path: &Path, header: &Header, values: &[u8]) {
    let mut bytes = Header { encoding: Encoding::Byte, ..*header }.encode().to_vec();
    bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(values);
    let mut crc = Crc32::new();
    crc.update(&bytes);
    bytes.extend_from_slice(&crc.finalize().to_le_bytes());
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// Replaces a (read-only) layer file with `bytes`, as a person editing the folder might.
#[cfg(test)]
fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    fs::remove_file(path)?;
    fs::write(path, bytes)
}

/// CRC-32 as in zlib, gzip and PNG (IEEE 802.3), from the `crc32fast` crate.
type Crc32 = crc32fast::Hasher;

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of layer `seeds` with the parity of a rule set where every seed ends in a store.
    fn layer_values(seeds: u32, entries: usize) -> Vec<i8> {
        (0..entries).map(|i| (2 * ((i * 7 + i / 3) as u32 % (seeds + 1)) as i32 - seeds as i32) as i8).collect()
    }

    /// Both ways of loading a layer give the same values and refuse the same damaged files, in
    /// both encodings.
    #[test]
    fn mapped_and_read_layers_agree_and_refuse_damage() {
        let rules = kalah_rules::Rules::standard(2, 2).unwrap();
        let variant = Variant::of(&rules).unwrap();
        for encoding in [Encoding::Byte, Encoding::Packed { bits: 2 }] {
            let header = Header { variant, seeds: 3, entries: 20, encoding };
            let values = layer_values(3, 20);
            let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            let stored = if encoding == Encoding::Byte { bytes } else { pack(bytes, 3, 2) };
            let dir = std::env::temp_dir().join(format!("kalah-layer-test-{}-{encoding:?}", std::process::id()));
            let path = dir.join("layer-003.egdb");
            write_layer(&path, &header, &stored).unwrap();
            // A build asks for the packed encoding; a layer in bytes is still read.
            let expected = Header::new(variant, 3, 20);
            for map in [true, false] {
                let layer = load(&path, &expected, map, false).unwrap();
                assert_eq!(layer.encoding(), encoding);
                let read: Vec<i8> = (0..20).map(|rank| layer.value(rank)).collect();
                assert_eq!(read, values, "map {map} {encoding:?}");
                assert!(layer.address(19).is_some() && layer.address(20).is_none());
            }
            let good = fs::read(&path).unwrap();
            let mut flipped = good.clone();
            flipped[HEADER_LEN + 2] ^= 1;
            replace(&path, &flipped).unwrap();
            for map in [true, false] {
                assert!(matches!(load(&path, &expected, map, false), Err(EgdbError::Checksum { .. })), "map {map}");
            }
            replace(&path, &good[..good.len() - 1]).unwrap();
            for map in [true, false] {
                assert!(matches!(load(&path, &expected, map, false), Err(EgdbError::Truncated { .. })), "map {map}");
            }
            let other = Header::new(variant, 4, 20);
            replace(&path, &good).unwrap();
            for map in [true, false] {
                assert!(matches!(load(&path, &other, map, false), Err(EgdbError::Mismatch { .. })), "map {map}");
            }
            let _ = fs::remove_dir_all(&dir);
        }
    }

    /// Packing keeps every value, for every width a layer uses, and takes the documented size.
    #[test]
    fn packing_round_trips() {
        let rules = kalah_rules::Rules::standard(6, 4).unwrap();
        let variant = Variant::of(&rules).unwrap();
        for seeds in [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 127] {
            for entries in [1usize, 2, 3, 7, 8, 9, 1000] {
                let header = Header::new(variant, seeds, entries as u64);
                let Encoding::Packed { bits } = header.encoding else { panic!("standard rules pack") };
                assert!(1u32 << bits > seeds && (bits == 1 || 1u32 << (bits - 1) <= seeds), "{seeds}: {bits} bits");
                let values = layer_values(seeds, entries);
                let packed = pack(values.iter().map(|&v| v as u8).collect(), seeds, bits);
                assert_eq!(packed.len() as u64, header.encoding.values_len(entries as u64));
                let layer = Layer::owned(&header, packed);
                let read: Vec<i8> = (0..entries as u64).map(|rank| layer.value(rank)).collect();
                assert_eq!(read, values, "{seeds} seeds, {entries} positions");
            }
        }
        let mut discard = rules;
        discard.leftover = kalah_rules::Leftover::Discard;
        assert_eq!(Encoding::preferred(&Variant::of(&discard).unwrap(), 20), Encoding::Byte, "no parity to use");
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        let mut crc = Crc32::new();
        crc.update(b"123456789");
        assert_eq!(crc.finalize(), 0xCBF4_3926);
    }
}
