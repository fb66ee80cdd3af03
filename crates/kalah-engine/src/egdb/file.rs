//! The layer files: a header, the values, a checksum; written atomically, read with every check.
//!
//! The format is described in the documentation of [`crate::egdb`].

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use kalah_rules::{Capture, GameEnd, Leftover, Sowing};

use super::board::Variant;
use super::EgdbError;

/// The first eight bytes of every layer file.
pub(crate) const MAGIC: [u8; 8] = *b"KALAHEGD";
/// The format version this code writes and reads.
pub(crate) const VERSION: u16 = 1;
/// Bytes before the values.
pub(crate) const HEADER_LEN: usize = 32;
/// Bytes of the checksum after the values.
pub(crate) const CHECKSUM_LEN: usize = 4;
/// Marks a temporary file in the middle of being written: `layer-KKK.egdb.tmp-PID`.
const TEMP_MARK: &str = ".tmp-";

/// What a layer file's header says: the rules, the layer and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) variant: Variant,
    pub(crate) seeds: u32,
    pub(crate) entries: u64,
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
        (HEADER_LEN + CHECKSUM_LEN) as u64 + self.entries
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
        bytes[18] = 0; // values are i8
        bytes[20..28].copy_from_slice(&self.entries.to_le_bytes());
        bytes
    }

    /// Checks a header read from `path` against this one, naming the first field that differs.
    fn check(&self, bytes: &[u8; HEADER_LEN], path: &Path) -> Result<(), EgdbError> {
        if bytes[0..8] != MAGIC {
            return Err(EgdbError::BadMagic { path: path.to_path_buf() });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(EgdbError::Version { path: path.to_path_buf(), found: version, supported: VERSION });
        }
        let want = self.encode();
        let fields: [(&'static str, std::ops::Range<usize>); 11] = [
            ("houses a side", 10..11),
            ("capture rule", 11..12),
            ("end rule", 12..13),
            ("leftover rule", 13..14),
            ("sowing", 14..15),
            ("direction", 15..16),
            ("seeds", 16..18),
            ("value encoding", 18..19),
            ("reserved byte", 19..20),
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
        Ok(())
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io { path: path.to_path_buf(), source }
}

/// A layer's values in memory: mapped from its file where the system allows, else read into
/// the heap (and always in the heap while a build computes it).
#[derive(Debug)]
pub(crate) enum Layer {
    /// Values computed here or read into memory.
    Owned(Vec<u8>),
    /// The whole file, mapped: the values lie between the header and the checksum.
    #[cfg(unix)]
    Mapped(memmap2::Mmap),
}

impl Layer {
    /// Returns the values, one `i8` a position, as bytes.
    #[inline]
    pub(crate) fn values(&self) -> &[u8] {
        match self {
            Layer::Owned(values) => values,
            #[cfg(unix)]
            Layer::Mapped(map) => &map[HEADER_LEN..map.len() - CHECKSUM_LEN],
        }
    }
}

/// Reads the values of the layer at `path`, checking the header against `expected`, the length
/// and the checksum; any file that fails a check is refused whole.
pub(crate) fn read_layer(path: &Path, expected: &Header) -> Result<Layer, EgdbError> {
    load(path, expected, true)
}

/// [`read_layer`], mapping the file if `map` and the system allow it, else reading it.
fn load(path: &Path, expected: &Header, map: bool) -> Result<Layer, EgdbError> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(EgdbError::Missing { path: path.to_path_buf() }),
        Err(e) => return Err(io_error(path)(e)),
    };
    let found = file.metadata().map_err(io_error(path))?.len();
    let want = expected.file_len();
    // The header is checked before the length, so a file of another layer or rule set says so.
    let truncated = || EgdbError::Truncated { path: path.to_path_buf(), expected: want, found };
    let mut header = [0u8; HEADER_LEN];
    if found < HEADER_LEN as u64 {
        return Err(truncated());
    }
    file.read_exact(&mut header).map_err(io_error(path))?;
    expected.check(&header, path)?;
    if found < want {
        return Err(truncated());
    }
    if found > want {
        return Err(EgdbError::TrailingBytes { path: path.to_path_buf(), expected: want, found });
    }
    let entries = usize::try_from(expected.entries).map_err(|_| EgdbError::TooLarge {
        houses: expected.variant.houses,
        seeds: expected.seeds,
        entries: expected.entries,
    })?;
    #[cfg(unix)]
    if let Some(map) = map.then(|| map_file(&file, want)).flatten() {
        // The mapped file is checked exactly as a read one: header (again, as mapped), checksum.
        let body = &map[..HEADER_LEN + entries];
        expected.check(body[..HEADER_LEN].try_into().expect("a whole header"), path)?;
        let stored = map[HEADER_LEN + entries..].try_into().expect("four checksum bytes");
        check_sum(path, &[body], stored)?;
        return Ok(Layer::Mapped(map));
    }
    let mut values = Vec::new();
    values
        .try_reserve_exact(entries)
        .map_err(|_| EgdbError::OutOfMemory { seeds: expected.seeds, bytes: expected.entries })?;
    // Probes are random accesses into large layers: huge pages spare them most TLB misses.
    crate::tt::advise_huge_pages(values.as_ptr() as usize, entries);
    // Read straight into the reserved memory: zeroing gigabytes first only to overwrite them
    // took a third of the time it takes to load a large database.
    let mut stored = [0u8; CHECKSUM_LEN];
    let read = (&mut file)
        .take(expected.entries)
        .read_to_end(&mut values)
        .and_then(|n| if n == entries { Ok(()) } else { Err(io::ErrorKind::UnexpectedEof.into()) })
        .and_then(|()| file.read_exact(&mut stored));
    // A file cut short while being read is still a truncated file.
    read.map_err(|e| if e.kind() == io::ErrorKind::UnexpectedEof { truncated() } else { io_error(path)(e) })?;
    check_sum(path, &[&header, &values], stored)?;
    Ok(Layer::Owned(values))
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
fn map_file(file: &File, len: u64) -> Option<memmap2::Mmap> {
    // SAFETY: a mapped file changed or cut short under the mapping would change the values read
    // or fault. This program never writes a layer file in place: a build writes a temporary file
    // and renames it over the old one, which leaves the mapped file as it was.
    let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
    if map.len() as u64 != len {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        // Probes are random accesses: fill the page tables now rather than fault page by page,
        // and let the kernel use huge pages where it can. Both are hints; a kernel that refuses
        // either still serves the mapping.
        let _ = map.advise(memmap2::Advice::HugePage);
        let _ = map.advise(memmap2::Advice::PopulateRead);
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
    debug_assert_eq!(values.len() as u64, header.entries);
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

/// CRC-32 as in zlib, gzip and PNG (IEEE 802.3), from the `crc32fast` crate.
type Crc32 = crc32fast::Hasher;

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of loading a layer give the same values and refuse the same damaged files.
    #[test]
    fn mapped_and_read_layers_agree_and_refuse_damage() {
        let rules = kalah_rules::Rules::standard(2, 2).unwrap();
        let header = Header { variant: Variant::of(&rules).unwrap(), seeds: 3, entries: 20 };
        let values: Vec<u8> = (0..20u8).map(|i| (i % 7).wrapping_sub(3)).collect();
        let dir = std::env::temp_dir().join(format!("kalah-layer-test-{}", std::process::id()));
        let path = dir.join("layer-003.egdb");
        write_layer(&path, &header, &values).unwrap();
        for map in [true, false] {
            assert_eq!(load(&path, &header, map).unwrap().values(), &values[..], "map {map}");
        }
        let good = fs::read(&path).unwrap();
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 5] ^= 1;
        fs::write(&path, &flipped).unwrap();
        for map in [true, false] {
            assert!(matches!(load(&path, &header, map), Err(EgdbError::Checksum { .. })), "map {map}");
        }
        fs::write(&path, &good[..good.len() - 1]).unwrap();
        for map in [true, false] {
            assert!(matches!(load(&path, &header, map), Err(EgdbError::Truncated { .. })), "map {map}");
        }
        let other = Header { seeds: 4, ..header };
        fs::write(&path, &good).unwrap();
        for map in [true, false] {
            assert!(matches!(load(&path, &other, map), Err(EgdbError::Mismatch { .. })), "map {map}");
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        let mut crc = Crc32::new();
        crc.update(b"123456789");
        assert_eq!(crc.finalize(), 0xCBF4_3926);
    }
}
