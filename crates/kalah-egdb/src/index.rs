//! The index of a position in its layer: the rank of its distribution of seeds (stars and bars).
//!
//! A distribution of k seeds over n cells is a row of k stars and n − 1 bars; the positions of
//! the bars form a combination, ranked by the combinatorial number system: with `P_j` the seeds
//! in cells 0..=j, the bar after cell j sits at `j + P_j` and
//!
//! ```text
//! rank = Σ_{j=0}^{n-2} C(j + P_j, j + 1)
//! ```
//!
//! which numbers the C(k + n − 1, n − 1) distributions 0, 1, … without gaps. The last cell is the
//! most significant; rank 0 has every seed in the last cell.
//!
//! The cells are taken in the order mover's house 1, opponent's house 1, mover's house 2,
//! opponent's house 2, …: the houses far from the stores, which the enumeration changes fastest,
//! then stay the least significant whichever side is to move, so the children of neighbouring
//! positions tend to have neighbouring ranks whether or not the move hands the turn over.

/// Returns the number of distributions of `seeds` seeds over `cells` cells, C(seeds + cells − 1, cells − 1),
/// or `None` if it does not fit in a `u64`.
pub fn layer_entries(cells: usize, seeds: u32) -> Option<u64> {
    let cells = cells.max(1) as u64;
    binomial(u64::from(seeds) + cells - 1, cells - 1)
}

/// Returns C(n, k), or `None` if it does not fit in a `u64`.
fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut value: u128 = 1;
    for i in 0..k {
        // C(n, i) × (n − i) = C(n, i + 1) × (i + 1), so the division is exact.
        value = value * u128::from(n - i) / u128::from(i + 1);
        if value > u128::from(u64::MAX) {
            return None;
        }
    }
    Some(value as u64)
}

/// Ranks and unranks the distributions of up to `max_seeds` seeds over the 2m houses.
#[derive(Clone, Debug)]
pub(crate) struct Ranker {
    houses: usize,
    max_seeds: u32,
    stride: usize,
    /// `terms[j * stride + p]` = C(j + p, j + 1): the term of the bar after cell j with p seeds up
    /// to it. The row of the last cell is all zero so the rank loop needs no test for it.
    terms: Vec<u64>,
}

impl Ranker {
    /// Returns the ranker of distributions of up to `max_seeds` seeds over `2 × houses` cells.
    ///
    /// Terms too large for a `u64` saturate; they belong to layers too large to build.
    pub(crate) fn new(houses: usize, max_seeds: u32) -> Ranker {
        let cells = 2 * houses;
        let stride = max_seeds as usize + 1;
        let mut terms = vec![0u64; cells * stride];
        for j in 0..cells - 1 {
            for p in 0..stride {
                terms[j * stride + p] = binomial((j + p) as u64, j as u64 + 1).unwrap_or(u64::MAX);
            }
        }
        Ranker { houses, max_seeds, stride, terms }
    }

    /// Returns the most seeds a distribution may hold.
    pub(crate) fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// Returns the bytes the tables take.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.terms.len() * std::mem::size_of::<u64>()
    }

    /// Returns the rank of the houses `mover` and `opponent` (each from its house 1) in their layer.
    ///
    /// The caller makes sure they hold at most `max_seeds` seeds in all.
    #[inline]
    pub(crate) fn rank<T: Copy + Into<u32>>(&self, mover: &[T], opponent: &[T]) -> u64 {
        debug_assert_eq!(mover.len(), self.houses);
        debug_assert_eq!(opponent.len(), self.houses);
        let mut seeds = 0usize;
        let mut rank = 0u64;
        let mut row = 0usize;
        for (&mine, &theirs) in mover.iter().zip(opponent) {
            seeds += mine.into() as usize;
            rank = rank.wrapping_add(self.terms[row + seeds]);
            row += self.stride;
            seeds += theirs.into() as usize;
            rank = rank.wrapping_add(self.terms[row + seeds]);
            row += self.stride;
        }
        rank
    }

    /// Writes into `cells` (in rank order, see the module documentation) the distribution of
    /// `seeds` seeds with rank `rank`.
    #[cfg_attr(not(feature = "fs"), allow(dead_code))] // only a build walks a layer
    pub(crate) fn unrank(&self, seeds: u32, mut rank: u64, cells: &mut [u8]) {
        let n = 2 * self.houses;
        debug_assert!(seeds <= self.max_seeds);
        let mut upper = seeds as usize;
        for j in (0..n - 1).rev() {
            let row = &self.terms[j * self.stride..];
            // The largest prefix sum whose term fits; row[0] = C(j, j + 1) = 0 always fits.
            let mut p = upper;
            while row[p] > rank {
                p -= 1;
            }
            rank -= row[p];
            cells[j + 1] = (upper - p) as u8;
            upper = p;
        }
        cells[0] = upper as u8;
    }
}

/// Steps `cells` (in rank order) to the distribution of the next rank; returns `false` after the last.
///
/// In the combinatorial number system the next combination raises the lowest bar that can move
/// and drops the bars below it to the bottom: in cells, the seeds before the first non-empty
/// cell i ≥ 1, plus one taken from it, gather in cell i − 1.
#[inline]
#[cfg_attr(not(feature = "fs"), allow(dead_code))] // only a build walks a layer
pub(crate) fn step(cells: &mut [u8]) -> bool {
    let Some(i) = cells.iter().skip(1).position(|&c| c > 0).map(|i| i + 1) else {
        return false;
    };
    let first = cells[0];
    cells[0] = 0;
    cells[i - 1] = first + 1;
    cells[i] -= 1;
    true
}

/// Splits cells in rank order into the mover's and the opponent's houses.
#[inline]
#[cfg_attr(not(feature = "fs"), allow(dead_code))] // only a build walks a layer
pub(crate) fn split(cells: &[u8], mover: &mut [u8], opponent: &mut [u8]) {
    for (i, pair) in cells.chunks_exact(2).enumerate() {
        mover[i] = pair[0];
        opponent[i] = pair[1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_are_binomials() {
        assert_eq!(layer_entries(12, 0), Some(1));
        assert_eq!(layer_entries(12, 1), Some(12));
        assert_eq!(layer_entries(12, 20), Some(84_672_315)); // C(31, 11)
        assert_eq!(layer_entries(4, 3), Some(20));
        assert_eq!(layer_entries(24, 127), None, "C(150, 23) is past a u64");
        assert_eq!(layer_entries(12, 127), Some(binomial(138, 11).unwrap()));
        assert_eq!(binomial(200, 100), None);
    }

    #[test]
    fn step_walks_the_ranks_in_order_and_unrank_inverts_rank() {
        for houses in 1..=3 {
            for seeds in 0..=6u32 {
                let ranker = Ranker::new(houses, 6);
                let n = 2 * houses;
                let mut cells = vec![0u8; n];
                ranker.unrank(seeds, 0, &mut cells);
                let (mut mover, mut opponent) = (vec![0u8; houses], vec![0u8; houses]);
                let mut count = 0u64;
                loop {
                    split(&cells, &mut mover, &mut opponent);
                    assert_eq!(cells.iter().map(|&c| u32::from(c)).sum::<u32>(), seeds);
                    assert_eq!(ranker.rank(&mover, &opponent), count, "{cells:?}");
                    let mut back = vec![0u8; n];
                    ranker.unrank(seeds, count, &mut back);
                    assert_eq!(back, cells);
                    count += 1;
                    if !step(&mut cells) {
                        break;
                    }
                }
                assert_eq!(Some(count), layer_entries(n, seeds));
            }
        }
    }
}
