//! Criterion benchmarks of the hot paths: move generation, sowing, evaluation and fixed searches.
//! Run with `cargo bench -p kalah-course --bench engine`.

// criterion_main! writes `main` without a doc line.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use kalah_course::classic::{search as classic_search, Algorithm};
use kalah_course::compare::sample_positions;
use kalah_engine::eval::{evaluate, Weights};
use kalah_engine::search::{Engine, Limits, Options};
use kalah_rules::{Position, Rules};

fn positions() -> (Rules, Vec<Position>) {
    let rules = Rules::standard(6, 6).unwrap();
    (rules, sample_positions(&rules, 64, 5))
}

fn rules_paths(c: &mut Criterion) {
    let (rules, positions) = positions();
    c.bench_function("legal moves of 64 positions", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).legal_moves().len()).sum::<usize>())
    });
    c.bench_function("every sowing of 64 positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .flat_map(|p| p.legal_moves().map(move |mv| black_box(p).play_unchecked(&rules, mv)))
                .map(|c| c.store_difference())
                .sum::<i32>()
        })
    });
    c.bench_function("tuned evaluation of 64 positions", |b| {
        b.iter(|| positions.iter().map(|p| evaluate(black_box(p), &rules, p.mover(), &Weights::TUNED)).sum::<i32>())
    });
}

fn searches(c: &mut Criterion) {
    let rules = Rules::standard(6, 6).unwrap();
    let start = Position::start(&rules);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("ordered alpha-beta, Kalah(6,6) start, depth 8", |b| {
        b.iter(|| classic_search(black_box(&start), &rules, 8, Algorithm::Ordered, &Weights::TUNED).value)
    });
    group.bench_function("engine, Kalah(6,6) start, depth 12, fresh 16 MiB table", |b| {
        b.iter(|| {
            let engine = Engine::new(Options { table_bytes: 16 << 20, ..Options::default() });
            engine.search(black_box(&start), &rules, Limits::depth(12), None, |_| {}).score
        })
    });
    group.finish();
}

criterion_group!(benches, rules_paths, searches);
criterion_main!(benches);
