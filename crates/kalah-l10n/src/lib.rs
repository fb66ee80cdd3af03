//! The words of kalah's pages in each language. Every text the pages show (the served page and
//! the static site, the board, the KGP server's page) and every error the web API returns for a
//! person to read comes from one [Fluent](https://projectfluent.org) catalog per language,
//! `l10n/CODE.ftl`, built into this crate: adding a language is adding its file
//! (docs/l10n.md says how).
//!
//! * The pages format in the browser: [`assets`] are the files a server serves beside the page
//!   (`l10n.js`, Mozilla's `@fluent/bundle` as ES modules, the catalogs and their index), and
//!   `l10n.js` picks the player's language and formats with `@fluent/bundle`.
//! * A server formats its own messages with [`Words`], by the `fluent-bundle` crate, in the
//!   language a request asks for ([`Words::negotiate`]).

use std::borrow::Cow;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// One language's catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Catalog {
    /// The language's code (its file's name), e.g. `de`.
    pub code: &'static str,
    /// The language's name in itself, from the catalog's `language-name`.
    pub name: &'static str,
    /// The catalog's Fluent text.
    pub text: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// The pages' list of languages, `l10n/index.json`: `[{"code": …, "name": …}]`, English first.
pub const INDEX: &str = include_str!(concat!(env!("OUT_DIR"), "/index.json"));

/// The pages' script: picks the language and formats messages (see its opening comment).
pub const SCRIPT: &str = include_str!("../web/l10n.js");

/// Mozilla's `@fluent/bundle` 0.19.1 as ES modules (web/fluent/README.md): each file's name and
/// text, served under `fluent/`.
pub const FLUENT: [(&str, &str); 8] = [
    ("index.js", include_str!("../web/fluent/index.js")),
    ("bundle.js", include_str!("../web/fluent/bundle.js")),
    ("builtins.js", include_str!("../web/fluent/builtins.js")),
    ("memoizer.js", include_str!("../web/fluent/memoizer.js")),
    ("resolver.js", include_str!("../web/fluent/resolver.js")),
    ("resource.js", include_str!("../web/fluent/resource.js")),
    ("scope.js", include_str!("../web/fluent/scope.js")),
    ("types.js", include_str!("../web/fluent/types.js")),
];

/// A file a server serves beside its page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asset {
    /// The path below the page's folder, e.g. `l10n/de.ftl`.
    pub path: String,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The text.
    pub text: &'static str,
}

/// The files a page's server serves beside the page so that the page speaks every language:
/// `l10n.js`, `fluent/*.js`, `l10n/index.json` and `l10n/CODE.ftl` for each catalog.
pub fn assets() -> Vec<Asset> {
    const SCRIPT_TYPE: &str = "text/javascript; charset=utf-8";
    let mut assets = vec![Asset { path: "l10n.js".into(), content_type: SCRIPT_TYPE, text: SCRIPT }];
    assets.extend(FLUENT.iter().map(|&(name, text)| Asset {
        path: format!("fluent/{name}"),
        content_type: SCRIPT_TYPE,
        text,
    }));
    assets.push(Asset { path: "l10n/index.json".into(), content_type: "application/json", text: INDEX });
    assets.extend(CATALOGS.iter().map(|c| Asset {
        path: format!("l10n/{}.ftl", c.code),
        content_type: "text/plain; charset=utf-8",
        text: c.text,
    }));
    assets
}

/// A catalog that does not parse, or lacks what the others have.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CatalogError {
    /// Fluent could not read part of a catalog.
    #[error("l10n/{code}.ftl does not parse: {errors}")]
    Syntax {
        /// The language.
        code: &'static str,
        /// What Fluent said, joined.
        errors: String,
    },
    /// A catalog's code is not a language identifier.
    #[error("l10n/{code}.ftl: {code:?} is not a language code (e.g. de, pt-BR)")]
    Code {
        /// The file's code.
        code: &'static str,
    },
}

/// A value given to a message: text or a number (which Fluent formats, and picks plurals by).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'a> {
    /// Text, shown as it is.
    Text(Cow<'a, str>),
    /// A number.
    Number(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Arg<'a> {
        Arg::Text(Cow::Borrowed(text))
    }
}

impl From<String> for Arg<'_> {
    fn from(text: String) -> Self {
        Arg::Text(Cow::Owned(text))
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(n: $t) -> Self {
                Arg::Number(n as f64)
            }
        }
    )*};
}
number_args!(u8, u16, u32, u64, usize, i32, i64, f64);

/// The catalogs read by Fluent, to format a server's messages in a request's language.
pub struct Words {
    bundles: Vec<(&'static str, FluentBundle<FluentResource>)>,
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Words").field("languages", &self.bundles.iter().map(|(c, _)| c).collect::<Vec<_>>()).finish()
    }
}

impl Words {
    /// Reads every catalog.
    pub fn new() -> Result<Words, CatalogError> {
        let mut bundles = Vec::new();
        for catalog in CATALOGS {
            let code = catalog.code;
            let id: LanguageIdentifier = code.parse().map_err(|_| CatalogError::Code { code })?;
            let resource =
                FluentResource::try_new(catalog.text.to_string()).map_err(|(_, errors)| CatalogError::Syntax {
                    code,
                    errors: errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
                })?;
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // The pages show text left to right; the isolation marks would only show as noise
            // in a JSON error.
            bundle.set_use_isolating(false);
            bundle.add_resource(resource).map_err(|errors| CatalogError::Syntax {
                code,
                errors: errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
            })?;
            bundles.push((code, bundle));
        }
        Ok(Words { bundles })
    }

    /// The codes of the languages, English first.
    pub fn languages(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.bundles.iter().map(|&(code, _)| code)
    }

    /// Returns the language to answer in for an `Accept-Language` header's value: the first
    /// language it names (by weight) that has a catalog, matched on the primary subtag too
    /// (`de-AT` is answered in `de`); English if none.
    pub fn negotiate(&self, accept_language: Option<&str>) -> &'static str {
        let mut asked: Vec<(f32, usize, &str)> = accept_language
            .unwrap_or("")
            .split(',')
            .enumerate()
            .filter_map(|(k, part)| {
                let mut pieces = part.split(';');
                let tag = pieces.next()?.trim();
                let weight = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
                (!tag.is_empty() && weight > 0.0).then_some((weight, k, tag))
            })
            .collect();
        asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, _, tag) in asked {
            let primary = tag.split('-').next().unwrap_or(tag);
            for code in self.languages() {
                if code.eq_ignore_ascii_case(tag) || code.eq_ignore_ascii_case(primary) {
                    return code;
                }
            }
        }
        CATALOGS[0].code
    }

    /// Returns message `id` in `language` with `args` (English where `language`'s catalog lacks
    /// it), or `None` if no catalog has it.
    pub fn format(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        let mut fluent = FluentArgs::new();
        for (name, arg) in args {
            match arg {
                Arg::Text(text) => fluent.set(*name, FluentValue::from(text.as_ref())),
                Arg::Number(n) => fluent.set(*name, FluentValue::from(*n)),
            }
        }
        let chosen = self.bundles.iter().filter(|(code, _)| *code == language);
        for (_, bundle) in chosen.chain(self.bundles.iter().take(1)) {
            let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
                continue;
            };
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, Some(&fluent), &mut errors);
            return Some(text.into_owned());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Each catalog's messages, as `id` and `id.attribute`.
    fn keys(text: &str) -> BTreeSet<String> {
        use fluent_bundle::FluentResource;
        let resource = FluentResource::try_new(text.to_string()).expect("parses");
        let mut keys = BTreeSet::new();
        for entry in resource.entries() {
            if let fluent_syntax::ast::Entry::Message(message) = entry {
                let id = message.id.name;
                if message.value.is_some() {
                    keys.insert(id.to_string());
                }
                for attribute in &message.attributes {
                    keys.insert(format!("{id}.{}", attribute.id.name));
                }
            }
        }
        keys
    }

    #[test]
    fn every_catalog_parses_and_has_every_message_of_every_other() {
        Words::new().expect("the catalogs parse");
        let english = keys(CATALOGS[0].text);
        assert!(english.contains("language-name") && english.contains("language-choose"));
        for catalog in &CATALOGS[1..] {
            let other = keys(catalog.text);
            let missing: Vec<_> = english.difference(&other).collect();
            let extra: Vec<_> = other.difference(&english).collect();
            assert!(missing.is_empty(), "l10n/{}.ftl lacks {missing:?}", catalog.code);
            assert!(extra.is_empty(), "l10n/{}.ftl has messages English lacks: {extra:?}", catalog.code);
        }
    }

    #[test]
    fn english_and_german_are_there_and_the_index_lists_them() {
        let codes: Vec<_> = CATALOGS.iter().map(|c| c.code).collect();
        assert_eq!(codes[0], "en");
        assert!(codes.contains(&"de"));
        assert!(INDEX.starts_with("[{\"code\":\"en\",\"name\":\"English\"}"), "{INDEX}");
        assert!(INDEX.contains("{\"code\":\"de\",\"name\":\"Deutsch\"}"), "{INDEX}");
        let paths: Vec<_> = assets().into_iter().map(|a| a.path).collect();
        for path in ["l10n.js", "fluent/index.js", "l10n/index.json", "l10n/en.ftl", "l10n/de.ftl"] {
            assert!(paths.iter().any(|p| p == path), "{path}");
        }
        // Every module the vendored package imports is served.
        for (_, text) in FLUENT {
            for line in text.lines().filter(|l| l.contains(" from \"./")) {
                let name = line.split("\"./").nth(1).and_then(|s| s.split('"').next()).expect("a path");
                assert!(FLUENT.iter().any(|(n, _)| *n == name), "{name}");
            }
        }
    }

    #[test]
    fn a_request_is_answered_in_the_first_language_it_accepts_that_has_a_catalog() {
        let words = Words::new().unwrap();
        assert_eq!(words.negotiate(None), "en");
        assert_eq!(words.negotiate(Some("de-DE,de;q=0.9,en;q=0.8")), "de");
        assert_eq!(words.negotiate(Some("fr-CH, fr;q=0.9, de;q=0.5")), "de");
        assert_eq!(words.negotiate(Some("en;q=0.5, de")), "de");
        assert_eq!(words.negotiate(Some("de;q=0, en")), "en");
        assert_eq!(words.negotiate(Some("x-klingon, ,;q=abc")), "en");
    }

    #[test]
    fn numbers_and_plurals_follow_the_language() {
        let words = Words::new().unwrap();
        assert_eq!(words.format("en", "language-name", &[]).as_deref(), Some("English"));
        assert_eq!(words.format("de", "language-name", &[]).as_deref(), Some("Deutsch"));
        // A language without the message answers in English; no catalog has `no-such`.
        assert_eq!(words.format("xx", "language-name", &[]).as_deref(), Some("English"));
        assert_eq!(words.format("de", "no-such", &[]), None);
    }
}
