//! What the sessions' random-input tests share.

/// A small seeded generator (xorshift), so the random sessions are the same on every run.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// Returns a number below `n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
