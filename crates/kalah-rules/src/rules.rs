//! The size of the board and every rule variant, as data.

use std::fmt;
use std::str::FromStr;

use crate::error::RulesError;
use crate::position::Position;
use crate::side::Side;

/// Fewest houses a side may have.
pub const MIN_HOUSES: u8 = 1;
/// Most houses a side may have.
pub const MAX_HOUSES: u8 = 12;
/// Fewest seeds a house may start with.
pub const MIN_SEEDS: u8 = 1;
/// Most seeds a house may start with.
pub const MAX_SEEDS: u8 = 12;
/// Most seeds a position may hold in all (both sides of the largest board at the largest start).
pub const MAX_TOTAL_SEEDS: u16 = 2 * MAX_HOUSES as u16 * MAX_SEEDS as u16;
/// Under clockwise sowing, the game ends after this many sowings in a row that put no seed into a store.
///
/// Clockwise seeds can circle the board without reaching a store, so positions can repeat for
/// ever; like chess's fifty-move rule this bounds every game while leaving real play alone.
pub const NO_PROGRESS_LIMIT: u8 = 100;

/// When a last seed in one's own empty house captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// Only when the opposite house holds seeds (the standard rule).
    Standard,
    /// Always: the last seed is captured even when the opposite house is empty (Irving et al.).
    Empty,
    /// Never (the "seed on" game has no captures).
    Never,
}

/// When the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// As soon as either player's houses are all empty (the standard rule).
    EitherSideEmpty,
    /// Only when the player to move has no seeds in their houses (the assignment's wording).
    MoverStuck,
}

/// Who gets the seeds still in the houses when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leftover {
    /// Each player adds the seeds on their own side to their own store (standard).
    Owner,
    /// The player whose houses are empty gets all the seeds left.
    Emptier,
    /// The seeds left are not counted for anyone.
    Discard,
}

/// Which way seeds are sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Counter-clockwise: the rest of one's own houses, one's own store, the opponent's houses.
    CounterClockwise,
    /// Clockwise: the houses behind the one sown, all the opponent's houses, then one's own store.
    Clockwise,
}

/// How a sowing ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sowing {
    /// One lap: the turn ends with the last seed (standard).
    Single,
    /// "Seed on": a last seed in a non-empty house lifts that house and sows on.
    Relay,
}

/// The size of the board and the rule variants of one game of Kalah(m,n).
///
/// Every field is plain data; the presets below name the common combinations.
///
/// ```
/// use kalah_rules::Rules;
/// let rules = Rules::standard(6, 4).unwrap();
/// assert_eq!(rules.to_string(), "kalah(6,4) standard");
/// assert!(Rules::standard(13, 4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    houses: u8,
    seeds: u8,
    /// When a last seed in one's own empty house captures.
    pub capture: Capture,
    /// When the game ends.
    pub end: GameEnd,
    /// Who gets the seeds left in the houses at the end.
    pub leftover: Leftover,
    /// Which way seeds are sown.
    pub direction: Direction,
    /// Single-lap or relay sowing.
    pub sowing: Sowing,
    /// The game also ends as soon as one store holds more than half of all seeds (KGP servers).
    pub majority_ends: bool,
    /// After the first player's first turn the second player may swap sides (the pie rule).
    pub pie: bool,
    /// Before the first move the second player may move one seed from any house to any other.
    pub handicap: bool,
    /// The first sowing of the game (South's, from the start layout) may give an extra move.
    ///
    /// `false` is the Manchester "MKAgent" variant: a last seed in the store on the first move
    /// passes the turn to North like any other. See [`Rules::is_first_move`] for what counts as
    /// the first move.
    pub first_move_extra: bool,
}

/// The named rule presets, with the text that names them.
pub const PRESETS: [(&str, &str); 7] = [
    ("standard", "capture only when the opposite house holds seeds; ends when either side is empty"),
    ("empty-capture", "capture even when the opposite house is empty (Irving, Donkers & Uiterwijk)"),
    ("assignment", "standard, but the game ends only when the player to move has no seeds"),
    ("seed-on", "relay sowing: a last seed in a non-empty house sows on; no captures"),
    ("clockwise", "standard captures, seeds sown clockwise"),
    ("kgp", "standard, and the game ends once a store holds more than half of all seeds"),
    ("mkagent", "the Manchester agents' game: Kalah(7,7), pie rule, no extra move on the first move"),
];

/// The board size of the `mkagent` preset when no size is given: Kalah(7,7).
pub const MKAGENT_SIZE: (u8, u8) = (7, 7);

impl Rules {
    /// Returns Kalah(`houses`,`seeds`) under the standard rules, or an error naming the allowed range.
    pub fn standard(houses: u8, seeds: u8) -> Result<Rules, RulesError> {
        if !(MIN_HOUSES..=MAX_HOUSES).contains(&houses) {
            return Err(RulesError::Houses(houses.into()));
        }
        if !(MIN_SEEDS..=MAX_SEEDS).contains(&seeds) {
            return Err(RulesError::Seeds(seeds.into()));
        }
        Ok(Rules {
            houses,
            seeds,
            capture: Capture::Standard,
            end: GameEnd::EitherSideEmpty,
            leftover: Leftover::Owner,
            direction: Direction::CounterClockwise,
            sowing: Sowing::Single,
            majority_ends: false,
            pie: false,
            handicap: false,
            first_move_extra: true,
        })
    }

    /// Returns Kalah(`houses`,`seeds`) under the named preset (see [`PRESETS`]).
    pub fn preset(name: &str, houses: u8, seeds: u8) -> Result<Rules, RulesError> {
        let mut rules = Rules::standard(houses, seeds)?;
        match name {
            "standard" => {}
            "empty-capture" => rules.capture = Capture::Empty,
            "assignment" => rules.end = GameEnd::MoverStuck,
            "seed-on" => {
                rules.sowing = Sowing::Relay;
                rules.capture = Capture::Never;
            }
            "clockwise" => rules.direction = Direction::Clockwise,
            "kgp" => rules.majority_ends = true,
            "mkagent" => {
                rules.first_move_extra = false;
                rules.pie = true;
            }
            _ => return Err(RulesError::Preset(name.to_string())),
        }
        Ok(rules)
    }

    /// Returns Kalah(`houses`,`seeds`) under every combination of the fields that change how the
    /// game plays (capture, end, leftover, direction, sowing, `majority_ends`,
    /// `first_move_extra`): 288 rule sets, without the pie rule or the handicap, for tests and
    /// tools that must hold under all of them.
    ///
    /// ```
    /// use kalah_rules::Rules;
    /// let all = Rules::variants(6, 4).unwrap();
    /// assert_eq!(all.len(), 288);
    /// assert!(all.contains(&Rules::preset("empty-capture", 6, 4).unwrap()));
    /// ```
    pub fn variants(houses: u8, seeds: u8) -> Result<Vec<Rules>, RulesError> {
        /// Every rule set of `all` once for each value of one field.
        fn times<T: Copy>(
            all: Vec<Rules>,
            values: impl Iterator<Item = T> + Clone,
            set: fn(&mut Rules, T),
        ) -> Vec<Rules> {
            all.into_iter()
                .flat_map(|rules| {
                    values.clone().map(move |value| {
                        let mut rules = rules;
                        set(&mut rules, value);
                        rules
                    })
                })
                .collect()
        }
        let mut all = vec![Rules::standard(houses, seeds)?];
        all = times(all, CAPTURE_WORDS.iter().map(|w| w.1), |r, v| r.capture = v);
        all = times(all, END_WORDS.iter().map(|w| w.1), |r, v| r.end = v);
        all = times(all, LEFTOVER_WORDS.iter().map(|w| w.1), |r, v| r.leftover = v);
        all = times(all, DIRECTION_WORDS.iter().map(|w| w.1), |r, v| r.direction = v);
        all = times(all, SOWING_WORDS.iter().map(|w| w.1), |r, v| r.sowing = v);
        all = times(all, [false, true].into_iter(), |r, v| r.majority_ends = v);
        all = times(all, [true, false].into_iter(), |r, v| r.first_move_extra = v);
        Ok(all)
    }

    /// Returns the number of houses on each side (m).
    #[inline]
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// Returns the number of seeds each house starts with (n).
    #[inline]
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// Returns the same rules on a board of another size.
    pub fn with_size(mut self, houses: u8, seeds: u8) -> Result<Rules, RulesError> {
        let sized = Rules::standard(houses, seeds)?;
        self.houses = sized.houses;
        self.seeds = sized.seeds;
        Ok(self)
    }

    /// Returns the total number of seeds in play at the start.
    pub fn total_seeds(&self) -> u16 {
        2 * u16::from(self.houses) * u16::from(self.seeds)
    }

    /// Tells whether a game under these rules can go on without progress (only clockwise sowing can).
    #[inline]
    pub fn counts_no_progress(&self) -> bool {
        self.direction == Direction::Clockwise
    }

    /// Returns the rules of the `mkagent` preset on their own board, Kalah(7,7).
    pub fn mkagent() -> Rules {
        Rules::preset("mkagent", MKAGENT_SIZE.0, MKAGENT_SIZE.1).expect("7,7 is in range")
    }

    /// Returns the name of the preset these rules equal, if any (size, pie and handicap aside).
    ///
    /// A preset that sets the pie rule (`mkagent`) names only rules that have it.
    pub fn preset_name(&self) -> Option<&'static str> {
        let plain = |mut rules: Rules| {
            rules.pie = false;
            rules.handicap = false;
            rules
        };
        PRESETS.iter().map(|(name, _)| *name).find(|name| {
            Rules::preset(name, self.houses, self.seeds)
                .is_ok_and(|preset| plain(preset) == plain(*self) && (self.pie || !preset.pie))
        })
    }

    /// Tells whether a sowing from `position` is the first move of the game, the one that
    /// `first_move_extra: false` keeps from giving an extra move.
    ///
    /// That is South to move with every house still holding the seeds it started with (and, under
    /// clockwise sowing, no sowing without progress yet). The stores are not looked at, so the
    /// answer depends only on what a search's table key covers (houses, mover, no-progress
    /// count). In a game from the start no later position looks like this: counter-clockwise,
    /// a sowing that puts no seed in a store moves seeds towards the mover's store, so the start
    /// layout never returns, and under clockwise sowing a return would carry a no-progress count.
    #[inline]
    pub fn is_first_move(&self, position: &Position) -> bool {
        position.mover() == Side::South
            && position.quiet() == 0
            && position.houses() == self.houses
            && Side::BOTH.iter().all(|&side| position.row(side).iter().all(|&seeds| seeds == u16::from(self.seeds)))
    }
}

impl Default for Rules {
    /// Kalah(6,6) under the standard rules.
    fn default() -> Rules {
        Rules::standard(6, 6).expect("6,6 is in range")
    }
}

impl fmt::Display for Rules {
    /// Writes the rules as `kalah(M,N) PRESET` or `kalah(M,N) key=value…`, the form [`FromStr`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kalah({},{})", self.houses, self.seeds)?;
        let preset = self.preset_name();
        match preset {
            Some(name) => write!(f, " {name}")?,
            None => {
                write!(f, " capture={}", word_of(&CAPTURE_WORDS, self.capture))?;
                write!(f, " end={}", word_of(&END_WORDS, self.end))?;
                write!(f, " leftover={}", word_of(&LEFTOVER_WORDS, self.leftover))?;
                write!(f, " direction={}", word_of(&DIRECTION_WORDS, self.direction))?;
                write!(f, " sowing={}", word_of(&SOWING_WORDS, self.sowing))?;
                if self.majority_ends {
                    write!(f, " majority-ends")?;
                }
                if !self.first_move_extra {
                    write!(f, " no-first-extra")?;
                }
            }
        }
        // A preset that has the pie rule already says so.
        let preset_has_pie =
            preset.and_then(|name| Rules::preset(name, self.houses, self.seeds).ok()).is_some_and(|p| p.pie);
        if self.pie && !preset_has_pie {
            write!(f, " pie")?;
        }
        if self.handicap {
            write!(f, " handicap")?;
        }
        Ok(())
    }
}

/// Words for [`Capture`], as flags and records spell them.
pub const CAPTURE_WORDS: [(&str, Capture); 3] =
    [("standard", Capture::Standard), ("empty", Capture::Empty), ("none", Capture::Never)];
/// Words for [`GameEnd`].
pub const END_WORDS: [(&str, GameEnd); 2] =
    [("side-empty", GameEnd::EitherSideEmpty), ("mover-stuck", GameEnd::MoverStuck)];
/// Words for [`Leftover`].
pub const LEFTOVER_WORDS: [(&str, Leftover); 3] =
    [("owner", Leftover::Owner), ("emptier", Leftover::Emptier), ("discard", Leftover::Discard)];
/// Words for [`Direction`].
pub const DIRECTION_WORDS: [(&str, Direction); 2] =
    [("ccw", Direction::CounterClockwise), ("cw", Direction::Clockwise)];
/// Words for [`Sowing`].
pub const SOWING_WORDS: [(&str, Sowing); 2] = [("single", Sowing::Single), ("relay", Sowing::Relay)];

/// Returns the word of `value` in one of the word tables (each table names every value).
pub fn word_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table.iter().find(|(_, v)| *v == value).map(|(w, _)| *w).expect("every value has a word")
}

/// Looks a word up in one of the word tables, with an error listing the accepted words.
pub fn parse_word<T: Copy>(table: &[(&'static str, T)], what: &'static str, word: &str) -> Result<T, RulesError> {
    table.iter().find(|(w, _)| *w == word).map(|(_, v)| *v).ok_or_else(|| RulesError::Word {
        what,
        word: word.to_string(),
        accepted: table.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(", "),
    })
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads `kalah(M,N)` followed by an optional preset name, `key=value` words
    /// (`capture`, `end`, `leftover`, `direction`, `sowing`) and the flags `majority-ends`,
    /// `no-first-extra`, `pie`, `handicap`.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let mut words = text.split_whitespace();
        let size = words.next().ok_or(RulesError::Size(text.to_string()))?;
        let (houses, seeds) = parse_size(size)?;
        let mut rules = Rules::standard(houses, seeds)?;
        for word in words {
            match word.split_once('=') {
                Some(("capture", v)) => rules.capture = parse_word(&CAPTURE_WORDS, "capture", v)?,
                Some(("end", v)) => rules.end = parse_word(&END_WORDS, "end", v)?,
                Some(("leftover", v)) => rules.leftover = parse_word(&LEFTOVER_WORDS, "leftover", v)?,
                Some(("direction", v)) => rules.direction = parse_word(&DIRECTION_WORDS, "direction", v)?,
                Some(("sowing", v)) => rules.sowing = parse_word(&SOWING_WORDS, "sowing", v)?,
                Some(_) => return Err(RulesError::Option(word.to_string())),
                None => match word {
                    "pie" => rules.pie = true,
                    "handicap" => rules.handicap = true,
                    "majority-ends" => rules.majority_ends = true,
                    "no-first-extra" => rules.first_move_extra = false,
                    name => {
                        let preset = Rules::preset(name, houses, seeds)?;
                        rules = Rules { pie: rules.pie || preset.pie, handicap: rules.handicap, ..preset };
                    }
                },
            }
        }
        Ok(rules)
    }
}

/// Reads a board size written `kalah(M,N)`, `(M,N)` or `M,N`.
pub fn parse_size(text: &str) -> Result<(u8, u8), RulesError> {
    let bad = || RulesError::Size(text.to_string());
    let inner = text.trim();
    let inner = inner.strip_prefix("kalah").unwrap_or(inner);
    let inner = inner.strip_prefix('(').and_then(|s| s.strip_suffix(')')).unwrap_or(inner);
    let (m, n) = inner.split_once(',').ok_or_else(bad)?;
    let m: u32 = m.trim().parse().map_err(|_| bad())?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    let m = u8::try_from(m).map_err(|_| RulesError::Houses(m))?;
    let n = u8::try_from(n).map_err(|_| RulesError::Seeds(n))?;
    Rules::standard(m, n)?;
    Ok((m, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_round_trips_through_text() {
        for (name, _) in PRESETS {
            for pie in [false, true] {
                let mut rules = Rules::preset(name, 5, 3).unwrap();
                rules.pie = pie;
                let text = rules.to_string();
                assert_eq!(text.parse::<Rules>().unwrap(), rules, "{text}");
            }
        }
    }

    #[test]
    fn unnamed_combinations_round_trip() {
        let mut rules = Rules::standard(4, 2).unwrap();
        rules.leftover = Leftover::Discard;
        rules.sowing = Sowing::Relay;
        rules.handicap = true;
        let text = rules.to_string();
        assert_eq!(
            text,
            "kalah(4,2) capture=standard end=side-empty leftover=discard direction=ccw sowing=relay handicap"
        );
        assert_eq!(text.parse::<Rules>().unwrap(), rules);
    }

    #[test]
    fn the_mkagent_preset_names_itself_only_with_the_pie_rule() {
        let rules = Rules::mkagent();
        assert_eq!((rules.houses(), rules.seeds()), (7, 7));
        assert!(rules.pie && !rules.first_move_extra);
        assert_eq!(rules.to_string(), "kalah(7,7) mkagent");
        assert_eq!("kalah(7,7) standard no-first-extra pie".parse::<Rules>().unwrap(), rules);
        let mut no_pie = rules;
        no_pie.pie = false;
        let text = no_pie.to_string();
        assert_eq!(
            text,
            "kalah(7,7) capture=standard end=side-empty leftover=owner direction=ccw sowing=single no-first-extra"
        );
        assert_eq!(text.parse::<Rules>().unwrap(), no_pie);
        assert_eq!("kalah(7,7) handicap mkagent".parse::<Rules>().unwrap().to_string(), "kalah(7,7) mkagent handicap");
    }

    #[test]
    fn only_the_start_layout_with_south_to_move_is_the_first_move() {
        let rules = Rules::mkagent();
        let start = Position::start(&rules);
        assert!(rules.is_first_move(&start));
        assert!(!rules.is_first_move(&start.with_mover(Side::North)));
        let stores: Position = "7,7,7,7,7,7,7:3/7,7,7,7,7,7,7:1/S".parse().unwrap();
        assert!(rules.is_first_move(&stores), "stores are not looked at: table keys leave them out");
        let after = start.play_unchecked(&rules, crate::Move::from_number(2).unwrap());
        assert!(!rules.is_first_move(&after) && !rules.is_first_move(&after.with_mover(Side::South)));
        assert!(!Rules::standard(7, 6).unwrap().is_first_move(&start), "another seed count");
    }

    #[test]
    fn an_unknown_preset_lists_every_preset() {
        let message = Rules::preset("chess", 6, 4).unwrap_err().to_string();
        for (name, _) in PRESETS {
            assert!(message.contains(name), "{name} missing from {message:?}");
        }
        assert!(message.ends_with("clockwise, kgp, mkagent"), "{message}");
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert_eq!(Rules::standard(0, 4), Err(RulesError::Houses(0)));
        assert_eq!(Rules::standard(6, 13), Err(RulesError::Seeds(13)));
        assert!(parse_size("kalah(6,300)").is_err());
        assert_eq!(parse_size("(12,12)").unwrap(), (12, 12));
        assert_eq!(parse_size("6,4").unwrap(), (6, 4));
        assert!("kalah(6,4) bogus".parse::<Rules>().is_err());
        assert!("kalah(6,4) capture=sometimes".parse::<Rules>().is_err());
    }
}
