//! How a host ends a search or a solve: the answer of its callback after each iteration or bound
//! ([`Flow`]: go on, or stop), a flag another thread may set, and budgets of nodes and time
//! ([`crate::time::Limits`]).
//!
//! A host with one thread (a browser, an interpreter's event loop) cannot set a flag while the
//! search runs, so it slices the work instead: a node budget for each call, the engine's tables
//! kept between calls, and its callback's answer to stop at a depth or a bound it is content with.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::time::{Instant, Limits};

/// What a callback answers after each iteration of a search or each bound of a solve: `()` goes on
/// (so `|_| {}` serves), and `ControlFlow::Break(())` stops with the result so far.
///
/// ```
/// use std::ops::ControlFlow;
/// use kalah_engine::search::{Engine, Limits, Options};
/// use kalah_rules::{Position, Rules};
/// let rules = Rules::standard(6, 6).unwrap();
/// let engine = Engine::new(Options::default());
/// let info = engine.search(&Position::start(&rules), &rules, Limits::default(), None, |info| {
///     if info.depth >= 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// });
/// assert_eq!(info.depth, 3);
/// ```
pub trait Flow {
    /// Returns the answer as a `ControlFlow`: `Break` stops.
    fn flow(self) -> ControlFlow<()>;
}

impl Flow for () {
    /// Goes on.
    fn flow(self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl Flow for ControlFlow<()> {
    /// Stops on `Break`.
    fn flow(self) -> ControlFlow<()> {
        self
    }
}

/// What ends a search or a solve from outside it, looked at every few thousand nodes: the hard
/// time of its limits, its node budget, and the caller's flag.
pub(crate) struct Watch<'a> {
    started: Instant,
    hard: Option<Duration>,
    nodes: Option<u64>,
    external: Option<&'a AtomicBool>,
}

impl<'a> Watch<'a> {
    /// Returns the watch of work that began at `started` within `limits`, which `external` may
    /// also stop.
    pub(crate) fn new(started: Instant, limits: &Limits, external: Option<&'a AtomicBool>) -> Watch<'a> {
        Watch { started, hard: limits.budget().map(|b| b.hard), nodes: limits.nodes, external }
    }

    /// Tells whether the work must end now, `nodes` nodes in: out of time or nodes, or told to.
    #[inline]
    pub(crate) fn expired(&self, nodes: u64) -> bool {
        let over_time = self.hard.is_some_and(|hard| self.started.elapsed() >= hard);
        let over_nodes = self.nodes.is_some_and(|n| nodes >= n);
        let told = self.external.is_some_and(|flag| flag.load(Ordering::Relaxed));
        over_time || over_nodes || told
    }
}
