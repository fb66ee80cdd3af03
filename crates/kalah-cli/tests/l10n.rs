//! Every message the pages and the servers name is in the catalogs (kalah-l10n's `l10n/*.ftl`,
//! whose own tests check that every language has every message English has): the scripts'
//! `t('…')`, `attribute('…')` and `name(element, '…')`, the HTML's `data-l10n-id="…"`, and the
//! errors' `Said::new("…")` in the Rust of kalah-web and kalah-table.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The ids of English's messages and terms.
fn english() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("crates/kalah-l10n/l10n/en.ftl")).unwrap();
    text.lines()
        .filter(|line| line.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .filter_map(|line| line.split_once(" =").map(|(id, _)| id.trim().to_string()))
        .collect()
}

/// The literal that starts `text` (quoted with `'`, `"` or a backtick without `${`), if any.
fn literal(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let quote = text.chars().next().filter(|c| matches!(c, '\'' | '"' | '`'))?;
    let rest = &text[1..];
    let end = rest.find(quote)?;
    let id = &rest[..end];
    (!id.contains("${")).then_some(id)
}

/// The message ids `source` names in the ways the module documentation lists.
fn named(source: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for line in source.lines() {
        for (at, _) in line.match_indices('(') {
            let before = &line[..at];
            let word_start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |k| k + 1);
            let after = &line[at + 1..];
            match &before[word_start..] {
                "t" | "attribute" => ids.extend(literal(after).map(str::to_string)),
                // name(element, 'id', …): the second argument.
                "name" => {
                    if let Some((_, second)) = after.split_once(',') {
                        ids.extend(literal(second).map(str::to_string));
                    }
                }
                "new" if before.ends_with("Said::new") => ids.extend(literal(after).map(str::to_string)),
                _ => {}
            }
        }
        for (at, _) in line.match_indices("data-l10n-id=") {
            ids.extend(literal(&line[at + "data-l10n-id=".len()..]).map(str::to_string));
        }
    }
    ids
}

fn files(folder: &str, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)))
        .collect();
    found.sort();
    found
}

#[test]
fn every_message_the_pages_and_servers_name_is_in_the_catalogs() {
    let english = english();
    let mut sources = Vec::new();
    for folder in ["crates/kalah-web/web", "crates/kalah-board/web", "crates/kalah-kgp-server/web"] {
        sources.extend(files(folder, &["js", "html"]));
    }
    sources.extend(files("crates/kalah-web/src", &["rs"]));
    sources.push(root().join("crates/kalah-table/src/refused.rs"));
    let mut missing = Vec::new();
    let mut count = 0;
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for id in named(&text) {
            count += 1;
            if !english.contains(&id) {
                missing.push(format!("{}: {id}", path.strip_prefix(root()).unwrap_or(path).display()));
            }
        }
    }
    assert!(missing.is_empty(), "messages named but not in l10n/en.ftl: {missing:#?}");
    // The scan finds the errors' messages at least (a scan that finds nothing checks nothing).
    assert!(count >= 400, "only {count} messages named");
}

#[test]
fn the_scan_finds_each_way_of_naming_a_message() {
    let source = r#"
        note(t('page-a', { n: 1 }));
        el.title = attribute("page-b", 'title');
        name(button, 'page-c');
        <span data-l10n-id="page-d">D</span>
        Said::new("error-e").with("x", 1)
        t(`page-${dynamic}`); const it = 'page-not-named';
    "#;
    assert_eq!(named(source), ["page-a", "page-b", "page-c", "page-d", "error-e"]);
}
