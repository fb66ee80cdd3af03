//! Layer files on disk: read with every check (mapped into memory where the system and the
//! `mmap` feature allow), written atomically, and the temporary files of stopped builds removed.
//!
//! The format and its checks are the `file` module's; this module only moves the bytes.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::file::{check_header, check_sum, Crc32, Header, Layer, CHECKSUM_LEN, HEADER_LEN};
use crate::EgdbError;

/// Marks a temporary file in the middle of being written: `layer-KKK.egdb.tmp-PID`.
const TEMP_MARK: &str = ".tmp-";

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io { path: path.to_path_buf(), source }
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
    let actual = check_header(expected, &header, found, path)?;
    let want = actual.file_len();
    let truncated = || EgdbError::Truncated { path: path.to_path_buf(), expected: want, found };
    let values_len = actual.encoding.values_len(actual.entries);
    let len = usize::try_from(values_len).map_err(|_| EgdbError::TooLarge {
        houses: expected.variant.houses,
        seeds: expected.seeds,
        entries: expected.entries,
    })?;
    #[cfg(all(unix, feature = "mmap"))]
    if let Some(map) = map.then(|| map_file(&file, want, !verified)).flatten() {
        // The mapped file is checked exactly as a read one: header (again, as mapped), checksum.
        let body = &map[..HEADER_LEN + len];
        expected.check(body[..HEADER_LEN].try_into().expect("a whole header"), path)?;
        let stored = map[HEADER_LEN + len..].try_into().expect("four checksum bytes");
        if !verified {
            check_sum(path, &[body], stored)?;
        }
        return Ok(Layer::mapped(&actual, map));
    }
    // Where nothing is mapped, the file is always read and every byte checked.
    #[cfg(not(all(unix, feature = "mmap")))]
    let _ = (map, verified);
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
    Ok(Layer::owned(&actual, values))
}

/// Maps the whole of `file`, `len` bytes, read-only, or returns `None` if the system will not
/// (the caller then reads the file instead).
///
/// Mapping shares the system's cache of the file: a database read before loads in a fraction of
/// a second instead of being copied into fresh memory, which took longer than the solve of
/// Kalah(6,4) it served.
#[cfg(all(unix, feature = "mmap"))]
#[allow(unsafe_code)]
fn map_file(file: &File, len: u64, populate: bool) -> Option<memmap2::Mmap> {
    // SAFETY: a mapped file changed or cut short under the mapping would change the values read
    // or fault. This program never writes a layer file in place: a build writes a temporary file
    // and renames it over the old one, which leaves the mapped file as it was, and layers are
    // read-only. A fault from another program cutting one short raises SIGBUS, which
    // the program reports (the `kalah` binary installs a handler that says what happened).
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
    // Elsewhere (macOS, the BSDs) the pages are read as the probes touch them.
    #[cfg(not(target_os = "linux"))]
    let _ = populate;
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
    let mut bytes = crate::file::file_bytes(&Header { encoding: crate::file::Encoding::Byte, ..*header }, values);
    bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
    // The checksum covers the version too.
    let end = bytes.len() - CHECKSUM_LEN;
    let mut crc = Crc32::new();
    crc.update(&bytes[..end]);
    bytes[end..].copy_from_slice(&crc.finalize().to_le_bytes());
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// Replaces a (read-only) layer file with `bytes`, as a person editing the folder might.
#[cfg(test)]
fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    fs::remove_file(path)?;
    fs::write(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::file::{layer_from_bytes, pack, tests::layer_values, Encoding};

    /// The three ways of loading a layer (mapped, read, and from the file's bytes) give the same
    /// values and refuse the same damaged files, in both encodings.
    #[test]
    fn mapped_read_and_given_layers_agree_and_refuse_damage() {
        let rules = kalah_rules::Rules::standard(2, 2).unwrap();
        let variant = Variant::of(&rules).unwrap();
        for encoding in [Encoding::Byte, Encoding::Packed { bits: 2 }] {
            let header = Header { variant, seeds: 3, entries: 20, encoding };
            let values = layer_values(3, 20);
            let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            let stored = if encoding == Encoding::Byte { bytes } else { pack(bytes, 3, 2) };
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("layer-003.egdb");
            write_layer(&path, &header, &stored).unwrap();
            // A build asks for the packed encoding; a layer in bytes is still read.
            let expected = Header::new(variant, 3, 20);
            // Mapped, read, then given as bytes.
            let ways = |path: &Path, expected: &Header| -> [Result<Layer, EgdbError>; 3] {
                [
                    load(path, expected, true, false),
                    load(path, expected, false, false),
                    layer_from_bytes(fs::read(path).unwrap(), path, expected),
                ]
            };
            for (way, layer) in ways(&path, &expected).into_iter().enumerate() {
                let layer = layer.unwrap();
                assert_eq!(layer.encoding(), encoding);
                let read: Vec<i8> = (0..20).map(|rank| layer.value(rank)).collect();
                assert_eq!(read, values, "way {way} {encoding:?}");
                assert!(layer.address(19).is_some() && layer.address(20).is_none());
            }
            let good = fs::read(&path).unwrap();
            let mut flipped = good.clone();
            flipped[HEADER_LEN + 2] ^= 1;
            replace(&path, &flipped).unwrap();
            for (way, result) in ways(&path, &expected).into_iter().enumerate() {
                assert!(matches!(result, Err(EgdbError::Checksum { .. })), "way {way}");
            }
            replace(&path, &good[..good.len() - 1]).unwrap();
            for (way, result) in ways(&path, &expected).into_iter().enumerate() {
                assert!(matches!(result, Err(EgdbError::Truncated { .. })), "way {way}");
            }
            replace(&path, &[&good[..], &[0]].concat()).unwrap();
            for (way, result) in ways(&path, &expected).into_iter().enumerate() {
                assert!(matches!(result, Err(EgdbError::TrailingBytes { .. })), "way {way}");
            }
            let other = Header::new(variant, 4, 20);
            replace(&path, &good).unwrap();
            for (way, result) in ways(&path, &other).into_iter().enumerate() {
                assert!(matches!(result, Err(EgdbError::Mismatch { .. })), "way {way}");
            }
        }
    }
}
