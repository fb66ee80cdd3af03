//! The layer file format: a header, the values, a checksum; a layer's bytes checked whole before
//! any of them is used, and the values in memory as a probe reads them.
//!
//! The format is described in the documentation of the crate. Files on disk (reading, mapping,
//! atomic writes) are the `disk` module's; this one needs no file system, so a host without one
//! opens a database from the files' bytes ([`layer_from_bytes`]).

use std::path::Path;

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
#[cfg_attr(not(feature = "fs"), allow(dead_code))] // only a build packs
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

    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
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
    pub(crate) fn check(&self, bytes: &[u8; HEADER_LEN], path: &Path) -> Result<Header, EgdbError> {
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

/// Where a layer's bytes are.
#[derive(Debug)]
enum Storage {
    /// Computed here or read into memory: the values alone.
    Owned(Vec<u8>),
    /// The whole file, mapped: the values lie between the header and the checksum.
    #[cfg(all(unix, feature = "mmap"))]
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

    /// Wraps a whole layer file mapped into memory, checked against `header`.
    #[cfg(all(unix, feature = "mmap"))]
    pub(crate) fn mapped(header: &Header, map: memmap2::Mmap) -> Layer {
        debug_assert_eq!(map.len() as u64, header.file_len());
        Layer { storage: Storage::Mapped(map), encoding: header.encoding, seeds: header.seeds, entries: header.entries }
    }

    /// Returns the stored bytes of the values.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Owned(values) => values,
            #[cfg(all(unix, feature = "mmap"))]
            Storage::Mapped(map) => &map[HEADER_LEN..map.len() - CHECKSUM_LEN],
        }
    }

    /// Returns how the values are kept.
    #[cfg_attr(not(feature = "fs"), allow(dead_code))] // a build and a check tell old files by it
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

/// Checks a layer file's header, `header`, against the layer expected, then the file's length,
/// `found` bytes, against what the header says; returns the header as found (either encoding is
/// accepted). The header is checked first, so a file of another layer or rule set says so.
pub(crate) fn check_header(
    expected: &Header,
    header: &[u8; HEADER_LEN],
    found: u64,
    path: &Path,
) -> Result<Header, EgdbError> {
    let actual = expected.check(header, path)?;
    let want = actual.file_len();
    if found < want {
        return Err(EgdbError::Truncated { path: path.to_path_buf(), expected: want, found });
    }
    if found > want {
        return Err(EgdbError::TrailingBytes { path: path.to_path_buf(), expected: want, found });
    }
    Ok(actual)
}

/// Checks a whole layer file's contents, `bytes`, exactly as a file read from disk is checked
/// (header against `expected`, length, checksum), and keeps its values; `path` names the layer
/// in the errors. A file that fails a check is refused whole.
pub(crate) fn layer_from_bytes(mut bytes: Vec<u8>, path: &Path, expected: &Header) -> Result<Layer, EgdbError> {
    let found = bytes.len() as u64;
    let Some(header) = bytes.first_chunk::<HEADER_LEN>() else {
        return Err(EgdbError::Truncated { path: path.to_path_buf(), expected: expected.file_len(), found });
    };
    let actual = check_header(expected, header, found, path)?;
    // The length is checked: the checksum takes the last four bytes.
    let end = bytes.len() - CHECKSUM_LEN;
    let stored = bytes[end..].try_into().expect("four checksum bytes");
    check_sum(path, &[&bytes[..end]], stored)?;
    bytes.truncate(end);
    bytes.drain(..HEADER_LEN);
    Ok(Layer::owned(&actual, bytes))
}

/// Checks the CRC-32 of `parts` (the file's bytes before its checksum, in order) against the
/// checksum `stored` at its end.
pub(crate) fn check_sum(path: &Path, parts: &[&[u8]], stored: [u8; CHECKSUM_LEN]) -> Result<(), EgdbError> {
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

/// CRC-32 as in zlib, gzip and PNG (IEEE 802.3), from the `crc32fast` crate.
pub(crate) type Crc32 = crc32fast::Hasher;

/// Returns the whole file of a layer: header, `values` (stored as `header` says), checksum.
#[cfg(test)]
pub(crate) fn file_bytes(header: &Header, values: &[u8]) -> Vec<u8> {
    let mut bytes = header.encode().to_vec();
    bytes.extend_from_slice(values);
    let mut crc = Crc32::new();
    crc.update(&bytes);
    bytes.extend_from_slice(&crc.finalize().to_le_bytes());
    bytes
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Values of layer `seeds` with the parity of a rule set where every seed ends in a store.
    pub(crate) fn layer_values(seeds: u32, entries: usize) -> Vec<i8> {
        (0..entries).map(|i| (2 * ((i * 7 + i / 3) as u32 % (seeds + 1)) as i32 - seeds as i32) as i8).collect()
    }

    /// A layer file's bytes are checked as a file on disk is: the values come back in both
    /// encodings, and a damaged, cut, lengthened, foreign or short file is refused whole.
    #[test]
    fn a_layer_given_as_bytes_is_checked_whole() {
        let rules = kalah_rules::Rules::standard(2, 2).unwrap();
        let variant = Variant::of(&rules).unwrap();
        let path = Path::new("layer-003.egdb");
        for encoding in [Encoding::Byte, Encoding::Packed { bits: 2 }] {
            let header = Header { variant, seeds: 3, entries: 20, encoding };
            let values = layer_values(3, 20);
            let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            let stored = if encoding == Encoding::Byte { bytes } else { pack(bytes, 3, 2) };
            let good = file_bytes(&header, &stored);
            let expected = Header::new(variant, 3, 20);
            let layer = layer_from_bytes(good.clone(), path, &expected).unwrap();
            assert_eq!(layer.encoding(), encoding);
            assert_eq!((0..20).map(|rank| layer.value(rank)).collect::<Vec<_>>(), values, "{encoding:?}");
            assert_eq!(layer.bytes(), &stored[..]);
            let given = |bytes: &[u8], expected: &Header| layer_from_bytes(bytes.to_vec(), path, expected);
            let mut flipped = good.clone();
            flipped[HEADER_LEN + 2] ^= 1;
            assert!(matches!(given(&flipped, &expected), Err(EgdbError::Checksum { .. })));
            assert!(matches!(given(&good[..good.len() - 1], &expected), Err(EgdbError::Truncated { .. })));
            assert!(matches!(given(&good[..10], &expected), Err(EgdbError::Truncated { .. })));
            assert!(matches!(given(&[&good[..], &[0]].concat(), &expected), Err(EgdbError::TrailingBytes { .. })));
            assert!(matches!(given(&good, &Header::new(variant, 4, 20)), Err(EgdbError::Mismatch { .. })));
            let mut foreign = good.clone();
            foreign[0] = b'X';
            assert!(matches!(given(&foreign, &expected), Err(EgdbError::BadMagic { .. })));
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
