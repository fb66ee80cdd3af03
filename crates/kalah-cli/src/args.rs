//! Command-line flags shared by the subcommands: the board size, the rules, a start position.

use anyhow::Result;
use clap::Args;
use kalah_rules::rules::{
    parse_size, parse_word, CAPTURE_WORDS, DIRECTION_WORDS, END_WORDS, LEFTOVER_WORDS, MKAGENT_SIZE, SOWING_WORDS,
};
use kalah_rules::{Position, Rules};

use crate::error::bad;

/// The rule flags: a size, a preset, and any single variant changed on top of it.
#[derive(Args, Clone, Debug, Default)]
pub struct RuleArgs {
    /// Board size M,N: M houses a side (1-12), N seeds a house (1-12) [default: 6,6; 7,7 for mkagent]
    #[arg(long, value_name = "M,N", global = true)]
    pub size: Option<String>,
    /// Rules preset: standard, empty-capture, assignment, seed-on, clockwise, kgp, mkagent
    #[arg(long, value_name = "PRESET", global = true)]
    pub rules: Option<String>,
    /// Capture rule: standard (opposite house must hold seeds), empty, none
    #[arg(long, value_name = "RULE", global = true)]
    pub capture: Option<String>,
    /// End of the game: side-empty (either side empty) or mover-stuck (the player to move has no seeds)
    #[arg(long, value_name = "RULE", global = true)]
    pub end: Option<String>,
    /// Leftover seeds at the end go to: owner, emptier (who emptied their side), discard
    #[arg(long, value_name = "RULE", global = true)]
    pub leftover: Option<String>,
    /// Sowing direction: ccw (counter-clockwise, standard) or cw
    #[arg(long, value_name = "DIR", global = true)]
    pub direction: Option<String>,
    /// Sowing: single (one lap) or relay (seed on: a last seed in a non-empty house sows on)
    #[arg(long, value_name = "KIND", global = true)]
    pub sowing: Option<String>,
    /// The game also ends once a store holds more than half of all seeds
    #[arg(long, global = true)]
    pub majority_ends: bool,
    /// Pie rule: after South's first turn North may swap sides
    #[arg(long, global = true)]
    pub pie: bool,
    /// Handicap opening: before the first move North may move one seed to another house
    #[arg(long, global = true)]
    pub handicap: bool,
    /// The first move of the game (South's) never gives an extra move (as in mkagent)
    #[arg(long, global = true)]
    pub no_first_extra: bool,
}

impl RuleArgs {
    /// Tells whether any rule flag was given.
    pub fn any_given(&self) -> bool {
        // Every field is named, so a flag added later does not compile until it is counted here.
        let RuleArgs {
            size,
            rules,
            capture,
            end,
            leftover,
            direction,
            sowing,
            majority_ends,
            pie,
            handicap,
            no_first_extra,
        } = self;
        [size, rules, capture, end, leftover, direction, sowing].iter().any(|word| word.is_some())
            || [majority_ends, pie, handicap, no_first_extra].iter().any(|&&flag| flag)
    }

    /// Builds the rules the flags describe, with `houses` taken from a position when no size is given.
    pub fn rules_for(&self, houses_of_position: Option<u8>) -> Result<Rules> {
        // The Manchester game is played on its own board unless told otherwise.
        let default_seeds = if self.rules.as_deref() == Some("mkagent") { MKAGENT_SIZE.1 } else { 6 };
        let (houses, seeds) = match (&self.size, houses_of_position) {
            (Some(size), _) => parse_size(size).map_err(bad)?,
            (None, Some(m)) => (m, default_seeds),
            (None, None) if self.rules.as_deref() == Some("mkagent") => MKAGENT_SIZE,
            (None, None) => (6, 6),
        };
        let mut rules = Rules::preset(self.rules.as_deref().unwrap_or("standard"), houses, seeds).map_err(bad)?;
        if let Some(w) = &self.capture {
            rules.capture = parse_word(&CAPTURE_WORDS, "capture rule", w).map_err(bad)?;
        }
        if let Some(w) = &self.end {
            rules.end = parse_word(&END_WORDS, "end rule", w).map_err(bad)?;
        }
        if let Some(w) = &self.leftover {
            rules.leftover = parse_word(&LEFTOVER_WORDS, "leftover rule", w).map_err(bad)?;
        }
        if let Some(w) = &self.direction {
            rules.direction = parse_word(&DIRECTION_WORDS, "direction", w).map_err(bad)?;
        }
        if let Some(w) = &self.sowing {
            rules.sowing = parse_word(&SOWING_WORDS, "sowing", w).map_err(bad)?;
        }
        rules.majority_ends |= self.majority_ends;
        rules.pie |= self.pie;
        rules.handicap |= self.handicap;
        rules.first_move_extra &= !self.no_first_extra;
        Ok(rules)
    }

    /// Builds the rules, with no position to take the size from.
    pub fn rules(&self) -> Result<Rules> {
        self.rules_for(None)
    }

    /// Builds the rules and the start position: `position` if given (checked against the size), else the rules' start.
    pub fn rules_and_position(&self, position: Option<&str>) -> Result<(Rules, Position)> {
        match position {
            None => {
                let rules = self.rules()?;
                Ok((rules, Position::start(&rules)))
            }
            Some(text) => {
                let parsed: Position = text.parse().map_err(bad)?;
                let rules = self.rules_for(Some(parsed.houses()))?;
                let position = Position::parse(text, &rules).map_err(bad)?;
                Ok((rules, position))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_change_one_variant_on_top_of_a_preset() {
        let args = RuleArgs {
            size: Some("6,4".into()),
            rules: Some("empty-capture".into()),
            leftover: Some("discard".into()),
            pie: true,
            ..RuleArgs::default()
        };
        let rules = args.rules().unwrap();
        assert_eq!(
            rules.to_string(),
            "kalah(6,4) capture=empty end=side-empty leftover=discard direction=ccw sowing=single pie"
        );
    }

    #[test]
    fn the_size_comes_from_the_position_when_not_given() {
        let args = RuleArgs::default();
        let (rules, p) = args.rules_and_position(Some("1,2,3:0/3,2,1:0/N")).unwrap();
        assert_eq!(rules.houses(), 3);
        assert_eq!(p.houses(), 3);
        let sized = RuleArgs { size: Some("6,4".into()), ..RuleArgs::default() };
        assert!(sized.rules_and_position(Some("1,2,3:0/3,2,1:0/N")).is_err());
    }

    #[test]
    fn the_mkagent_preset_brings_its_board_and_the_variant_is_a_flag() {
        let preset = RuleArgs { rules: Some("mkagent".into()), ..RuleArgs::default() };
        assert_eq!(preset.rules().unwrap(), Rules::mkagent());
        let flags = RuleArgs { size: Some("7,7".into()), pie: true, no_first_extra: true, ..RuleArgs::default() };
        assert_eq!(flags.rules().unwrap(), Rules::mkagent());
        let small = RuleArgs { size: Some("4,3".into()), ..preset };
        assert_eq!(small.rules().unwrap().to_string(), "kalah(4,3) mkagent");
    }

    #[test]
    fn any_rule_flag_counts_as_given() {
        assert!(!RuleArgs::default().any_given());
        for args in [
            RuleArgs { size: Some("6,4".into()), ..RuleArgs::default() },
            RuleArgs { rules: Some("standard".into()), ..RuleArgs::default() },
            RuleArgs { sowing: Some("relay".into()), ..RuleArgs::default() },
            RuleArgs { majority_ends: true, ..RuleArgs::default() },
            RuleArgs { no_first_extra: true, ..RuleArgs::default() },
        ] {
            assert!(args.any_given(), "{args:?}");
        }
    }

    #[test]
    fn bad_flags_are_refused() {
        for args in [
            RuleArgs { size: Some("13,4".into()), ..RuleArgs::default() },
            RuleArgs { rules: Some("chess".into()), ..RuleArgs::default() },
            RuleArgs { capture: Some("maybe".into()), ..RuleArgs::default() },
        ] {
            assert!(args.rules().is_err());
        }
    }
}
