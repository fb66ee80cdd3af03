//! The access log: one line a request in the combined log format that Apache and nginx write
//! and that log tools read (`client - - [time] "request" status bytes "referer" "agent"`). The
//! client is the real one behind a trusted proxy; no header that holds a secret is written, and
//! a seat token that an old page put in an address is blanked.

use std::net::IpAddr;
use std::time::SystemTime;

use time::format_description::FormatItem;
use time::macros::format_description;
use time::OffsetDateTime;

/// One request answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The client (the real one behind a trusted proxy), if known.
    pub client: Option<IpAddr>,
    /// When the request came.
    pub at: SystemTime,
    /// The method.
    pub method: String,
    /// The path and query asked for.
    pub target: String,
    /// The protocol, `HTTP/1.1` or `HTTP/2.0`.
    pub version: &'static str,
    /// The status answered.
    pub status: u16,
    /// The body's length, when the answer says it before it is sent.
    pub bytes: Option<u64>,
    /// The `Referer` header.
    pub referer: Option<String>,
    /// The `User-Agent` header.
    pub agent: Option<String>,
}

/// The time as the combined log format writes it, in UTC: `[27/Nov/2026:16:10:03 +0000]`.
const TIME: &[FormatItem<'static>] =
    format_description!("[day]/[month repr:short]/[year]:[hour]:[minute]:[second] +0000");

impl std::fmt::Display for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let client = self.client.map_or("-".to_string(), |c| c.to_string());
        let at = OffsetDateTime::from(self.at).format(TIME).unwrap_or_else(|_| "-".to_string());
        let bytes = self.bytes.map_or("-".to_string(), |b| b.to_string());
        let quoted = |v: &Option<String>| v.as_deref().map_or("-".to_string(), escape);
        write!(
            f,
            "{client} - - [{at}] \"{} {} {}\" {} {bytes} \"{}\" \"{}\"",
            escape(&self.method),
            escape(&blank_tokens(&self.target)),
            self.version,
            self.status,
            quoted(&self.referer),
            quoted(&self.agent)
        )
    }
}

/// Returns `target` with the value of any `seat` or `token` parameter of its query blanked.
fn blank_tokens(target: &str) -> String {
    let Some((path, query)) = target.split_once('?') else { return target.to_string() };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if name.eq_ignore_ascii_case("seat") || name.eq_ignore_ascii_case("token") => {
                format!("{name}=-")
            }
            _ => pair.to_string(),
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

/// Returns `text` as a log line may hold it: quotes, backslashes and control characters escaped,
/// so that a client cannot write a line of its own.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_request_is_one_combined_line_with_no_token() {
        let access = Access {
            client: Some(IpAddr::from([198, 51, 100, 7])),
            at: SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_795_803),
            method: "GET".into(),
            target: "/api/games/ab12/live?seat=s3cr3t&x=1".into(),
            version: "HTTP/1.1",
            status: 400,
            bytes: Some(87),
            referer: None,
            agent: Some("curl/8 \"quoted\"\nsecond line".into()),
        };
        assert_eq!(
            access.to_string(),
            "198.51.100.7 - - [27/Nov/2026:16:10:03 +0000] \"GET /api/games/ab12/live?seat=-&x=1 HTTP/1.1\" 400 87 \
             \"-\" \"curl/8 \\\"quoted\\\"\\x0asecond line\""
        );
        let unknown = Access { client: None, bytes: None, target: "/".into(), ..access };
        assert!(unknown.to_string().starts_with("- - - ["), "{unknown}");
        assert!(unknown.to_string().contains("\" 400 - \""), "{unknown}");
    }
}
