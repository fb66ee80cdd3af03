//! Threads and the `threads` feature: an engine never searches on fewer than one thread, and a
//! build without the feature (`--no-default-features`, as for a browser) takes any number asked
//! for as one, searching and solving exactly as one thread does.

use kalah_engine::search::{Engine, Limits, Options, MAX_THREADS};
use kalah_engine::solver::Solver;
use kalah_rules::{Position, Rules};

fn options(threads: usize) -> Options {
    Options { table_bytes: 4 << 20, threads, ..Options::default() }
}

#[test]
fn an_engine_takes_the_threads_the_build_allows() {
    assert_eq!(MAX_THREADS, if cfg!(feature = "threads") { usize::MAX } else { 1 });
    assert_eq!(Engine::new(options(0)).options().threads, 1);
    let four = if cfg!(feature = "threads") { 4 } else { 1 };
    assert_eq!(Engine::new(options(4)).options().threads, four);
}

#[test]
#[cfg_attr(feature = "threads", ignore = "a build without the `threads` feature: cargo test --no-default-features")]
fn without_the_feature_more_threads_search_and_solve_as_one() {
    let rules = Rules::standard(6, 4).unwrap();
    let position = Position::parse("3,0,4,1,5,2:10/2,2,0,6,1,3:7/N", &rules).unwrap();
    let one = Engine::new(options(1)).search(&position, &rules, Limits::depth(9), None, |_| {});
    let four = Engine::new(options(4)).search(&position, &rules, Limits::depth(9), None, |_| {});
    assert_eq!((four.nodes, four.best, four.score, four.pv), (one.nodes, one.best, one.score, one.pv));
    let small = Rules::standard(4, 3).unwrap();
    let start = Position::start(&small);
    let one = Solver::new(options(1)).solve(&start, &small, None, Limits::default(), None, |_, _| {}).unwrap();
    let four = Solver::new(options(4)).solve(&start, &small, None, Limits::default(), None, |_, _| {}).unwrap();
    assert_eq!((four.nodes, four.best, four.score, four.pv), (one.nodes, one.best, one.score, one.pv));
}
