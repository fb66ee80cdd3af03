//! Live play and replay agree: random requests (every rule set, clocks, takebacks, undo and
//! redo, resignations, time-outs, rematches, engine turns) made at a table, and after each the
//! table rebuilt from how it began and its events, all at once and caught up in two parts, equals
//! the live one. `apply` is the only code that changes a table, so this checks what the commands
//! decide and log (a clock charged, the plies a takeback takes back) against what their changes
//! make.

use std::time::Duration;

use kalah_rules::Seat;
use kalah_table::request::{self, Command, Goto, MoveRequest, Plies, Shown, TakebackRequest};
use kalah_table::table::Seating;
use kalah_table::{Host, Moment, Table};
use proptest::prelude::*;

/// The rules a game may be played under: each preset and rule word the table treats apart.
const RULES: [&str; 8] = [
    "kalah(4,3) standard",
    "kalah(4,3) standard pie",
    "kalah(4,3) standard handicap",
    "kalah(3,3) empty-capture",
    "kalah(4,2) seed-on",
    "kalah(4,3) clockwise pie",
    "kalah(3,4) kgp",
    "kalah(4,2) capture=standard end=side-empty leftover=discard direction=ccw sowing=relay handicap",
];

/// One request of a random game: what it is, two numbers that pick among its choices, and the
/// milliseconds since the request before.
#[derive(Clone, Debug)]
struct Step {
    kind: u8,
    pick: u8,
    who: u8,
    wait: u32,
}

fn step() -> impl Strategy<Value = Step> {
    (0u8..21, any::<u8>(), 0u8..6, prop_oneof![19 => 0u32..3_000, 1 => 0u32..90_000])
        .prop_map(|(kind, pick, who, wait)| Step { kind, pick, who, wait })
}

/// How a random game is set up.
#[derive(Clone, Debug)]
struct Setup {
    rules: usize,
    seats: u8,
    clock: Option<(u32, u32)>,
    friends: Option<bool>,
    rated: bool,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        0..RULES.len(),
        0u8..4,
        proptest::option::of((20u32..600, 0u32..3)),
        proptest::option::of(any::<bool>()),
        proptest::bool::weighted(0.25),
    )
        .prop_map(|(rules, seats, clock, friends, rated)| Setup { rules, seats, clock, friends, rated })
}

/// The new-game body of a setup.
fn body(setup: &Setup) -> String {
    let mut fields = vec![format!("\"rules\": \"{}\"", RULES[setup.rules])];
    match setup.friends {
        Some(north) => {
            fields.push("\"friend\": true".to_string());
            fields.push(format!("\"side\": \"{}\"", if north { "north" } else { "south" }));
        }
        None => {
            let (south, north) = match setup.seats {
                0 => ("human", "human"),
                1 => ("human", "engine:1"),
                2 => ("engine:1", "human"),
                _ => ("engine:1", "engine:2"),
            };
            fields.push(format!("\"south\": \"{south}\", \"north\": \"{north}\""));
        }
    }
    if let Some((seconds, increment)) = setup.clock {
        fields.push(format!("\"clock\": {{\"seconds\": {seconds}, \"increment\": {increment}}}"));
    }
    format!("{{{}}}", fields.join(", "))
}

/// Rebuilds the table from its start and every event it made, at once and in two parts.
fn agrees(live: &Table, start: &kalah_table::Start, cut: usize) -> Result<(), TestCaseError> {
    let events = live.unsaved().1;
    let back = Table::rebuild(start, events).map_err(|e| TestCaseError::fail(format!("rebuilt: {e}")))?;
    prop_assert!(back == *live, "rebuilt {back:#?}\nlive {live:#?}");
    let cut = cut % (events.len() + 1);
    let mut caught = Table::rebuild(start, &events[..cut]).expect("a part of a log that rebuilds whole");
    caught.catch_up(&events[cut..]).map_err(|e| TestCaseError::fail(format!("caught up: {e}")))?;
    prop_assert!(caught == *live, "caught up at {cut}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_game_rebuilt_from_its_events_is_the_live_game(setup in setup(), steps in proptest::collection::vec(step(), 0..80)) {
        let mut minted = 0;
        let mut mint = || { minted += 1; format!("token-{minted}") };
        let mut now = Moment(1_700_000_000_000);
        let created = request::create(body(&setup).as_bytes(), now, Some(&mut mint)).expect("a valid new game");
        let mut table = created.table;
        if setup.rated {
            table = table.with_seating(Seating { names: ["ann".into(), "bob".into()], rated: true });
        }
        let start = table.start();
        let (token, invite) = (created.token.expect("a token"), created.invite);
        let mut rematches = 0;
        for (i, step) in steps.iter().enumerate() {
            now = now.plus(Duration::from_millis(u64::from(step.wait)));
            // Who asks: the player to decide, the creator, the invited friend, a stranger, or a
            // wrong token.
            let friend = invite.as_deref().unwrap_or(&token);
            let deciding = [token.as_str(), friend].into_iter().find(|t| {
                table.actor(Some(t), Host::Server).is_ok_and(|actor| table.may_act(actor).is_ok())
            });
            let actor = match step.who {
                0 | 1 => table.actor(Some(deciding.unwrap_or(&token)), Host::Server),
                2 => table.actor(Some(&token), Host::Server),
                3 => table.actor(Some(friend), Host::Server),
                4 => table.actor(None, Host::Server),
                _ => table.actor(Some("nobody"), Host::Server),
            };
            let Ok(actor) = actor else { continue };
            let pick = usize::from(step.pick);
            let legal = table.game().legal_actions();
            let mut before = (table.version(), table.unsaved().1.len());
            let done = match step.kind {
                0..=9 => {
                    let action = if legal.is_empty() || pick % 11 == 10 { "9".to_string() } else { legal[pick % legal.len()].to_string() };
                    let version = (pick % 7 != 6).then_some(table.version());
                    let request = (pick % 5 == 4).then(|| format!("r{}", pick % 3));
                    let body = serde_json::json!({ "action": action, "version": version, "request": request }).to_string();
                    let command: MoveRequest = request::read(body.as_bytes(), None).expect("a move body");
                    table.handle(actor, Command::Move(command), now)
                }
                10 => match table.begin_engine_move(actor, now) {
                    Ok(begun) => {
                        let legal = begun.snapshot.game.legal_actions();
                        // Sometimes the game changes (a time-out) before the answer.
                        if pick % 4 == 3 { table.check_time(now.plus(Duration::from_secs(200))); }
                        before = (table.version(), table.unsaved().1.len());
                        table.play_engine_move(begun.snapshot.version, legal[pick % legal.len()], now)
                    }
                    Err(e) => Err(e),
                },
                11 => table.handle(actor, Command::Undo(Plies { plies: (pick % 4 != 0).then_some(pick % 4) }), now),
                12 => table.handle(actor, Command::Redo(Plies { plies: (pick % 4 != 0).then_some(pick % 4) }), now),
                13 => table.handle(actor, Command::Goto(Goto { ply: pick % (table.history().plies() + 2) }), now),
                14 => {
                    let version = if pick % 3 == 0 { table.version().saturating_sub(1) } else { table.version() };
                    table.handle(actor, Command::Shown(Shown { version }), now)
                }
                15 | 20 => {
                    let answer = match pick % 3 { 0 => None, 1 => Some("accept".to_string()), _ => Some("refuse".to_string()) };
                    table.handle(actor, Command::Takeback(TakebackRequest { answer }), now)
                }
                16 if pick % 4 == 0 => table.resigner(actor).and_then(|seat| table.resign(seat, now)),
                16 | 17 => { table.check_time(now); Ok(()) }
                18 => { table.arrive(actor, now); Ok(()) }
                _ => {
                    let seat = if pick % 2 == 0 { Seat::First } else { Seat::Second };
                    match table.offer_rematch(seat, now) {
                        Ok(true) => { rematches += 1; table.rematched(&format!("rematch-{rematches}"), now); Ok(()) }
                        other => other.map(drop),
                    }
                }
            };
            if done.is_err() {
                prop_assert_eq!((table.version(), table.unsaved().1.len()), before, "a refusal changed the table: {:?}", done);
            }
            agrees(&table, &start, i * 7 + pick)?;
        }
    }
}
