//! `kalah.Rules`: a board size and every rule variant, built from the same words as the command
//! line's flags (`size`, `rules`, `capture`, …) or read from the text records write.

use kalah_rules::rules::{
    parse_size, parse_word, word_of, CAPTURE_WORDS, DIRECTION_WORDS, END_WORDS, LEFTOVER_WORDS, MAX_SEEDS,
    MKAGENT_SIZE, PRESETS, SOWING_WORDS,
};
use kalah_rules::{Position, Rules, RulesError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::actions::ActionSpace;
use crate::error;
use crate::number::Int;

/// The rule keywords, as the command line's flags name them (`--no-first-extra` is `no_first_extra`).
pub const KEYWORDS: [&str; 11] = [
    "size",
    "rules",
    "capture",
    "end",
    "leftover",
    "direction",
    "sowing",
    "majority_ends",
    "pie",
    "handicap",
    "no_first_extra",
];

/// The rule flags as words: a size, a preset, and any single variant changed on top of it, as
/// `kalah`'s flags give them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleWords {
    /// `M,N`, `(M,N)` or `kalah(M,N)`.
    pub size: Option<String>,
    /// A preset name.
    pub preset: Option<String>,
    /// The capture rule's word.
    pub capture: Option<String>,
    /// The end rule's word.
    pub end: Option<String>,
    /// The leftover rule's word.
    pub leftover: Option<String>,
    /// The direction's word.
    pub direction: Option<String>,
    /// The sowing's word.
    pub sowing: Option<String>,
    /// The game also ends once a store holds more than half of all seeds.
    pub majority_ends: bool,
    /// The pie rule.
    pub pie: bool,
    /// The handicap opening.
    pub handicap: bool,
    /// The first move never gives an extra move.
    pub no_first_extra: bool,
}

impl RuleWords {
    /// Tells whether any rule word was given.
    pub fn any_given(&self) -> bool {
        *self != RuleWords::default()
    }

    /// Builds the rules the words describe: the size defaults to the size of the position when
    /// one is given (`size_of_position`, see [`size_of`]), else 6,6 (7,7 for `mkagent`).
    pub fn rules_for(&self, size_of_position: Option<(u8, u8)>) -> Result<Rules, RulesError> {
        let mkagent = self.preset.as_deref() == Some("mkagent");
        let (houses, seeds) = match (&self.size, size_of_position) {
            (Some(size), _) => parse_size(size)?,
            (None, Some(size)) => size,
            (None, None) if mkagent => MKAGENT_SIZE,
            (None, None) => (6, 6),
        };
        let mut rules = Rules::preset(self.preset.as_deref().unwrap_or("standard"), houses, seeds)?;
        if let Some(w) = &self.capture {
            rules.capture = parse_word(&CAPTURE_WORDS, "capture rule", w)?;
        }
        if let Some(w) = &self.end {
            rules.end = parse_word(&END_WORDS, "end rule", w)?;
        }
        if let Some(w) = &self.leftover {
            rules.leftover = parse_word(&LEFTOVER_WORDS, "leftover rule", w)?;
        }
        if let Some(w) = &self.direction {
            rules.direction = parse_word(&DIRECTION_WORDS, "direction", w)?;
        }
        if let Some(w) = &self.sowing {
            rules.sowing = parse_word(&SOWING_WORDS, "sowing", w)?;
        }
        rules.majority_ends |= self.majority_ends;
        rules.pie |= self.pie;
        rules.handicap |= self.handicap;
        rules.first_move_extra &= !self.no_first_extra;
        Ok(rules)
    }

    /// Reads the rule keywords of a call; `skip` names other keywords the caller takes itself.
    pub fn from_kwargs(kwargs: Option<&Bound<'_, PyDict>>, skip: &[&str]) -> PyResult<RuleWords> {
        let mut words = RuleWords::default();
        let Some(kwargs) = kwargs else { return Ok(words) };
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            if skip.contains(&key.as_str()) {
                continue;
            }
            if value.is_none() && KEYWORDS.contains(&key.as_str()) {
                continue;
            }
            let text = |value: &Bound<'_, PyAny>| -> PyResult<String> {
                value
                    .cast::<PyString>()
                    .map(|s| s.to_string())
                    .map_err(|_| PyTypeError::new_err(format!("{key} takes a word (a str), not {}", type_name(value))))
            };
            let flag = |value: &Bound<'_, PyAny>| -> PyResult<bool> {
                value
                    .extract::<bool>()
                    .map_err(|_| PyTypeError::new_err(format!("{key} takes True or False, not {}", type_name(value))))
            };
            match key.as_str() {
                "size" => words.size = Some(size_text(&value)?),
                "rules" => words.preset = Some(text(&value)?),
                "capture" => words.capture = Some(text(&value)?),
                "end" => words.end = Some(text(&value)?),
                "leftover" => words.leftover = Some(text(&value)?),
                "direction" => words.direction = Some(text(&value)?),
                "sowing" => words.sowing = Some(text(&value)?),
                "majority_ends" => words.majority_ends = flag(&value)?,
                "pie" => words.pie = flag(&value)?,
                "handicap" => words.handicap = flag(&value)?,
                "no_first_extra" => words.no_first_extra = flag(&value)?,
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "unexpected keyword argument '{other}': the rule keywords are {}",
                        KEYWORDS.join(", ")
                    )))
                }
            }
        }
        Ok(words)
    }
}

/// Returns the name of a value's type, for a `TypeError`.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "this".to_string(), |n| n.to_string())
}

/// Reads a board size given as `"6,4"`, `"kalah(6,4)"` or `(6, 4)` into the text `parse_size` reads.
fn size_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text.to_string());
    }
    if let Ok(pair) = value.extract::<(u32, u32)>() {
        return Ok(format!("{},{}", pair.0, pair.1));
    }
    Err(PyTypeError::new_err(format!("size takes \"M,N\" or a pair (M, N) of whole numbers, not {}", type_name(value))))
}

/// The size of the board and every rule variant of a game of Kalah(m,n).
///
/// Build rules from the command line's words as keywords, or read the text that `str()` and
/// game records write:
///
/// >>> kalah.Rules(size="6,4", rules="empty-capture", pie=True)
/// kalah.Rules('kalah(6,4) empty-capture pie')
/// >>> kalah.Rules("kalah(6,4) standard")
/// kalah.Rules('kalah(6,4) standard')
///
/// Keywords: size ("M,N" or (M, N); 1 to 12 houses, 1 to 12 seeds; default 6,6, 7,7 for
/// mkagent), rules (a preset: standard, empty-capture, assignment, seed-on, clockwise, kgp,
/// mkagent), capture (standard, empty, none), end (side-empty, mover-stuck), leftover (owner,
/// emptier, discard), direction (ccw, cw), sowing (single, relay), and the flags majority_ends,
/// pie, handicap, no_first_extra.
#[pyclass(frozen, eq, hash, module = "kalah", name = "Rules", from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyRules {
    /// The rules.
    pub rules: Rules,
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (text=None, **flags))]
    fn new(text: Option<&str>, flags: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
        let words = RuleWords::from_kwargs(flags, &[])?;
        let rules =
            match text {
                Some(_) if words.any_given() => return Err(error::bad(
                    "give the rules either as text (\"kalah(6,4) standard\") or as keywords (size=\"6,4\"), not both",
                )),
                Some(text) => text.parse().map_err(error::rules)?,
                None => words.rules_for(None).map_err(error::rules)?,
            };
        Ok(PyRules { rules })
    }

    /// Houses a side (m).
    #[getter]
    fn houses(&self) -> u8 {
        self.rules.houses()
    }

    /// Seeds each house starts with (n).
    #[getter]
    fn seeds(&self) -> u8 {
        self.rules.seeds()
    }

    /// The capture rule: "standard", "empty" or "none".
    #[getter]
    fn capture(&self) -> &'static str {
        word_of(&CAPTURE_WORDS, self.rules.capture)
    }

    /// The end rule: "side-empty" or "mover-stuck".
    #[getter]
    fn end(&self) -> &'static str {
        word_of(&END_WORDS, self.rules.end)
    }

    /// Who gets the seeds left at the end: "owner", "emptier" or "discard".
    #[getter]
    fn leftover(&self) -> &'static str {
        word_of(&LEFTOVER_WORDS, self.rules.leftover)
    }

    /// The sowing direction: "ccw" or "cw".
    #[getter]
    fn direction(&self) -> &'static str {
        word_of(&DIRECTION_WORDS, self.rules.direction)
    }

    /// The sowing: "single" or "relay".
    #[getter]
    fn sowing(&self) -> &'static str {
        word_of(&SOWING_WORDS, self.rules.sowing)
    }

    /// The game also ends once a store holds more than half of all seeds.
    #[getter]
    fn majority_ends(&self) -> bool {
        self.rules.majority_ends
    }

    /// The pie rule: after the first player's first turn the second may swap sides.
    #[getter]
    fn pie(&self) -> bool {
        self.rules.pie
    }

    /// The handicap opening: before the first move the second player may move one seed.
    #[getter]
    fn handicap(&self) -> bool {
        self.rules.handicap
    }

    /// The first sowing of the game may give an extra move (False under mkagent).
    #[getter]
    fn first_move_extra(&self) -> bool {
        self.rules.first_move_extra
    }

    /// The name of the preset these rules are (pie and handicap aside), or None.
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        self.rules.preset_name()
    }

    /// The seeds in play at the start: 2mn.
    #[getter]
    fn total_seeds(&self) -> u16 {
        self.rules.total_seeds()
    }

    /// How many integer actions these rules have (see Game.legal_actions).
    #[getter]
    fn num_actions(&self) -> usize {
        ActionSpace::of(&self.rules).len()
    }

    /// The named presets: (name, what it is) pairs.
    #[staticmethod]
    fn presets() -> Vec<(&'static str, &'static str)> {
        PRESETS.to_vec()
    }

    /// Every combination of the fields that change how Kalah(houses, seeds) plays: 288 rule sets.
    #[staticmethod]
    fn variants(houses: Int, seeds: Int) -> PyResult<Vec<PyRules>> {
        // The rules' own check says 1 to 12 for any u8; a number beyond that is out of range too.
        let houses = houses.within(0, u8::MAX, "houses", "1 to 12 houses")?;
        let seeds = seeds.within(0, u8::MAX, "seeds", "1 to 12 seeds")?;
        let all = Rules::variants(houses, seeds).map_err(error::rules)?;
        Ok(all.into_iter().map(|rules| PyRules { rules }).collect())
    }

    fn __str__(&self) -> String {
        self.rules.to_string()
    }

    fn __repr__(&self) -> String {
        format!("kalah.Rules('{}')", self.rules)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let text = slf.get().rules.to_string();
        Ok((slf.get_type().into_any(), PyTuple::new(slf.py(), [text])?))
    }
}

/// Returns the board size a position is of: its houses a side, and the fewest seeds a house
/// (at most 12) whose 2mn seeds hold all the position's. A start position gives its own size, so
/// that the rules' seed total, which bounds the observations, is the position's (the command line
/// instead takes 6 seeds a house when `--size` is left out).
pub fn size_of(position: &Position) -> (u8, u8) {
    let houses = position.houses();
    let per_house = u32::from(position.total_seeds()).div_ceil(2 * u32::from(houses));
    (houses, per_house.clamp(1, u32::from(MAX_SEEDS)) as u8)
}

/// Reads the rules of a call that takes `rules` (a `Rules`, a preset name or None) and the rule
/// keywords, with the size taken from a position (see [`size_of`]) when none is given.
pub fn rules_of(
    rules: Option<&Bound<'_, PyAny>>,
    words: &RuleWords,
    size_of_position: Option<(u8, u8)>,
) -> PyResult<Rules> {
    let mut words = words.clone();
    match rules {
        None => {}
        Some(value) if value.is_none() => {}
        Some(value) => {
            if let Ok(given) = value.cast::<PyRules>() {
                if words.any_given() {
                    return Err(error::bad(
                        "give either a kalah.Rules or rule keywords (size=, capture=, ...), not both",
                    ));
                }
                return Ok(given.get().rules);
            }
            if let Ok(preset) = value.cast::<PyString>() {
                words.preset = Some(preset.to_string());
            } else {
                return Err(PyTypeError::new_err(format!(
                    "rules takes a kalah.Rules or a preset name, not {}",
                    type_name(value)
                )));
            }
        }
    }
    words.rules_for(size_of_position).map_err(error::rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_change_one_variant_on_top_of_a_preset() {
        let words = RuleWords {
            size: Some("6,4".into()),
            preset: Some("empty-capture".into()),
            leftover: Some("discard".into()),
            pie: true,
            ..RuleWords::default()
        };
        assert_eq!(
            words.rules_for(None).unwrap().to_string(),
            "kalah(6,4) capture=empty end=side-empty leftover=discard direction=ccw sowing=single pie"
        );
    }

    #[test]
    fn the_size_comes_from_the_preset_or_the_position() {
        let mkagent = RuleWords { preset: Some("mkagent".into()), ..RuleWords::default() };
        assert_eq!(mkagent.rules_for(None).unwrap(), Rules::mkagent());
        assert_eq!(RuleWords::default().rules_for(Some((3, 4))).unwrap(), Rules::standard(3, 4).unwrap());
        assert_eq!(
            RuleWords { preset: Some("mkagent".into()), ..RuleWords::default() }
                .rules_for(Some((4, 3)))
                .unwrap()
                .seeds(),
            3
        );
        assert_eq!(RuleWords::default().rules_for(None).unwrap(), Rules::default());
    }

    #[test]
    fn a_position_gives_its_size() {
        let start = Position::start(&Rules::standard(4, 3).unwrap());
        assert_eq!(size_of(&start), (4, 3));
        // 25 seeds on 3 houses a side: 5 seeds a house would hold 30, 4 only 24.
        assert_eq!(size_of(&"0,0,1:20/1,0,0:3/S".parse().unwrap()), (3, 5));
        assert_eq!(size_of(&"0:0/0:0/S".parse().unwrap()), (1, 1), "at least one seed a house");
        assert_eq!(size_of(&"0:100/0:0/S".parse().unwrap()), (1, 12), "at most twelve");
    }

    #[test]
    fn bad_words_say_what_is_accepted() {
        let bad = RuleWords { capture: Some("maybe".into()), ..RuleWords::default() };
        let message = bad.rules_for(None).unwrap_err().to_string();
        assert!(message.contains("standard, empty, none"), "{message}");
        let size = RuleWords { size: Some("13,4".into()), ..RuleWords::default() };
        assert!(size.rules_for(None).unwrap_err().to_string().contains("1 to 12"));
    }
}
