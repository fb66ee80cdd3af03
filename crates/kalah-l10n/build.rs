//! Lists the catalogs of `l10n/` (one `CODE.ftl` a language), so that adding a language is adding
//! its file: writes `catalogs.rs` (each catalog's code, name and text, built in) and the pages'
//! `l10n/index.json` (each language's code and name) into `OUT_DIR`.
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("l10n");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut codes: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("l10n/ is readable") {
        let path = entry.expect("l10n/ is readable").path();
        let Some(code) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".ftl")) else {
            continue;
        };
        println!("cargo::rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a catalog is UTF-8");
        let name = text
            .lines()
            .find_map(|line| line.strip_prefix("language-name ="))
            .unwrap_or_else(|| panic!("{}: no `language-name = …` line", path.display()))
            .trim()
            .to_string();
        codes.push((code.to_string(), name));
    }
    // English first: the language a message falls back to.
    codes.sort_by_key(|(code, _)| (code != "en", code.clone()));
    assert_eq!(codes.first().map(|(c, _)| c.as_str()), Some("en"), "l10n/en.ftl is missing");
    let mut rust = String::from("/// The catalogs, English first.\npub const CATALOGS: &[Catalog] = &[\n");
    let mut json = String::from("[");
    for (k, (code, name)) in codes.iter().enumerate() {
        writeln!(
            rust,
            "    Catalog {{ code: {code:?}, name: {name:?}, text: include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/l10n/{code}.ftl\")) }},"
        )
        .expect("a String");
        if k > 0 {
            json.push(',');
        }
        write!(json, "{{\"code\":{code:?},\"name\":{name:?}}}").expect("a String");
    }
    rust.push_str("];\n");
    json.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).to_path_buf();
    std::fs::write(out.join("catalogs.rs"), rust).expect("OUT_DIR is writable");
    std::fs::write(out.join("index.json"), json).expect("OUT_DIR is writable");
}
