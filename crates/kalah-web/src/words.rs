//! The server's errors in a person's language: an error that names a message of the pages'
//! catalogs ([`Said`], kalah-l10n's `l10n/*.ftl`) sends its name and arguments as `code` and
//! `args`, for a page to say in its own language, and its `error` in the language the request's
//! `Accept-Language` asks for: English (the library's own text) unless another catalog is asked.

use std::sync::LazyLock;

use kalah_l10n::{Arg, Words};
pub(crate) use kalah_table::Said;
use kalah_table::SaidArg;

/// The catalogs, read once. They are built in and kalah-l10n's tests read them, so they parse.
static WORDS: LazyLock<Option<Words>> = LazyLock::new(|| Words::new().ok());

fn arg(value: &SaidArg) -> Arg<'_> {
    match value {
        SaidArg::Text(text) => Arg::from(text.as_str()),
        SaidArg::Number(n) => Arg::Number(*n),
    }
}

/// Returns `said` in `language`, or `None` if the catalogs do not have it.
pub(crate) fn say(said: &Said, language: &str) -> Option<String> {
    let args: Vec<(&str, Arg<'_>)> = said.args.iter().map(|(name, value)| (*name, arg(value))).collect();
    WORDS.as_ref()?.format(language, said.id, &args)
}

/// Returns `said` in English (its id if the catalogs lack it, which kalah-web's tests rule out).
pub(crate) fn english(said: &Said) -> String {
    say(said, "en").unwrap_or_else(|| said.id.to_string())
}

/// Returns the language to answer a request in, from its `Accept-Language`.
pub(crate) fn language(accept_language: Option<&str>) -> &'static str {
    WORDS.as_ref().map_or("en", |w| w.negotiate(accept_language))
}
