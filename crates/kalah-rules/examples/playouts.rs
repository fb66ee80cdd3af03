//! Random playouts of Kalah(6,4) sown by [`Position`] and by [`CompactPosition`], timed one after
//! the other (docs/measurements.md): the rules crate's part of `kalah.random_playouts`.
//!
//! Both ways draw the same numbers from the same wyrand stream (fastrand), so they play the
//! same games and print the same sum of margins. Run it under `valgrind --tool=callgrind` to
//! count instructions.
//!
//! ```text
//! cargo run --release -p kalah-rules --example playouts [-- GAMES [position|compact]]
//! ```

use std::time::Instant;

use kalah_rules::{CompactPosition, Move, MoveSet, Position, Rules};

/// Returns a uniformly random move of a set that is not empty.
fn pick(mut moves: MoveSet, rng: &mut fastrand::Rng) -> Move {
    moves.nth(rng.usize(..moves.len())).expect("a move of the set")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = match args.next().map(|a| a.parse()) {
        None => 1_000_000,
        Some(Ok(games)) => games,
        Some(Err(_)) => {
            eprintln!("playouts: the first argument is the number of games, a whole number");
            std::process::exit(2);
        }
    };
    let which = args.next().unwrap_or_else(|| "both".to_string());
    if !["both", "position", "compact"].contains(&which.as_str()) {
        eprintln!("playouts: the second argument is position, compact or both, not {which}");
        std::process::exit(2);
    }
    let rules = Rules::standard(6, 4).expect("6,4 is in range");
    let start = Position::start(&rules);
    if which != "compact" {
        let mut rng = fastrand::Rng::with_seed(1);
        let (mut sum, mut sowings) = (0i64, 0u64);
        let clock = Instant::now();
        for _ in 0..games {
            let mut position = start;
            loop {
                sowings += 1;
                if position.sow(&rules, pick(position.legal_moves(), &mut rng)).ended {
                    break;
                }
            }
            sum += i64::from(position.final_difference(&rules));
        }
        let seconds = clock.elapsed().as_secs_f64();
        println!("Position:        {games} games, {sowings} sowings, margins {sum:+}, {seconds:.3} s");
    }
    if which != "position" {
        let compact = CompactPosition::new(&start, &rules).expect("Kalah(6,4) has a compact form");
        let mut rng = fastrand::Rng::with_seed(1);
        let (mut sum, mut sowings) = (0i64, 0u64);
        let clock = Instant::now();
        for _ in 0..games {
            sum += i64::from(compact.play_out(|moves| {
                sowings += 1;
                pick(moves, &mut rng)
            }));
        }
        let seconds = clock.elapsed().as_secs_f64();
        println!("CompactPosition: {games} games, {sowings} sowings, margins {sum:+}, {seconds:.3} s");
    }
}
