//! A server on the internet, often behind a reverse proxy: the address people use to reach it
//! ([`PublicUrl`]: invitations are built from it and writes must come from it), and the proxies
//! trusted to say who their client is ([`TrustedProxies`]: every per-client limit then counts
//! the real client, not the proxy), in the one header they set ([`ProxyHeader`]).

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::{header, HeaderMap};
use ipnet::IpNet;

/// The address people reach the server at, an origin such as `https://kalah.example`: behind a
/// proxy (which may send another `Host`) or on a machine whose own address is not the one its
/// players type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    /// `scheme://host[:port]`, the scheme and host in lower case.
    origin: String,
}

/// Why a public address is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not a public address: give an origin such as https://kalah.example or http://192.168.1.20:8080 (http or https, a host, an optional port, no path)")]
pub struct PublicUrlError {
    given: String,
}

impl FromStr for PublicUrl {
    type Err = PublicUrlError;

    fn from_str(text: &str) -> Result<PublicUrl, PublicUrlError> {
        let refused = || PublicUrlError { given: text.to_string() };
        let (scheme, rest) = text.split_once("://").ok_or_else(refused)?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(refused());
        }
        let host = rest.strip_suffix('/').unwrap_or(rest);
        let bad = |c: char| c.is_whitespace() || c.is_control() || "/?#@\\\"'<>".contains(c);
        if host.is_empty() || host.contains(bad) {
            return Err(refused());
        }
        // The port, if any, is a number; an IPv6 host is bracketed (its colons are inside).
        let port = match host.strip_prefix('[') {
            Some(rest) => {
                let (inside, after) = rest.split_once(']').ok_or_else(refused)?;
                if inside.parse::<std::net::Ipv6Addr>().is_err() {
                    return Err(refused());
                }
                match after {
                    "" => None,
                    _ => Some(after.strip_prefix(':').ok_or_else(refused)?),
                }
            }
            None => host.split_once(':').map(|(_, port)| port),
        };
        if port.is_some_and(|p| p.parse::<u16>().is_err()) || host.starts_with(':') {
            return Err(refused());
        }
        Ok(PublicUrl { origin: format!("{scheme}://{}", host.to_ascii_lowercase()) })
    }
}

impl PublicUrl {
    /// Returns the origin, `scheme://host[:port]`, as a browser sends it in `Origin`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Returns the page's address: the origin and `/`.
    pub fn page(&self) -> String {
        format!("{}/", self.origin)
    }

    /// Returns whether a browser's `Origin` header names this address.
    pub fn is(&self, origin: &str) -> bool {
        origin.eq_ignore_ascii_case(&self.origin)
    }
}

impl std::fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.origin)
    }
}

/// The header a trusted proxy names its client in. Only that one is read: a proxy passes on
/// whatever else the client sent, so a header the proxy does not set is the client's own word
/// (nginx appends to `X-Forwarded-For` and leaves a client's `Forwarded` as it came).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProxyHeader {
    /// `X-Forwarded-For`, which nginx (`$proxy_add_x_forwarded_for`), Caddy, HAProxy
    /// (`option forwardfor`) and most load balancers set.
    #[default]
    XForwardedFor,
    /// `Forwarded` (RFC 7239), for a proxy that sets it instead.
    Forwarded,
}

/// Why a proxy header is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not a header a proxy names its client in: write x-forwarded-for or forwarded")]
pub struct ProxyHeaderError {
    given: String,
}

impl FromStr for ProxyHeader {
    type Err = ProxyHeaderError;

    fn from_str(text: &str) -> Result<ProxyHeader, ProxyHeaderError> {
        match text.to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(ProxyHeader::XForwardedFor),
            "forwarded" => Ok(ProxyHeader::Forwarded),
            _ => Err(ProxyHeaderError { given: text.to_string() }),
        }
    }
}

impl ProxyHeader {
    /// Returns the header's name as written in a request.
    pub fn name(self) -> &'static str {
        match self {
            ProxyHeader::XForwardedFor => "X-Forwarded-For",
            ProxyHeader::Forwarded => "Forwarded",
        }
    }
}

/// The proxies whose word on their client is taken: a request that comes from one of them is
/// counted as the client the header they set ([`ProxyHeader`]) names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    nets: Vec<IpNet>,
    header: ProxyHeader,
}

/// Why a trusted proxy is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not an address or CIDR block: give one such as 127.0.0.1, ::1, 10.0.0.0/8 or fd00::/8")]
pub struct ProxyError {
    given: String,
}

impl TrustedProxies {
    /// Returns the proxies in `items`, each an address or a CIDR block, or lists of them
    /// separated by commas, which name their client in `X-Forwarded-For`.
    pub fn parse<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<TrustedProxies, ProxyError> {
        let mut nets = Vec::new();
        for item in items.into_iter().flat_map(|i| i.split(',')).map(str::trim).filter(|i| !i.is_empty()) {
            let net = match item.parse::<IpNet>() {
                Ok(net) => net.trunc(),
                Err(_) => item.parse::<IpAddr>().map(IpNet::from).map_err(|_| ProxyError { given: item.into() })?,
            };
            nets.push(net);
        }
        Ok(TrustedProxies { nets, header: ProxyHeader::default() })
    }

    /// Returns the proxies, naming their client in `header` instead.
    pub fn reading(mut self, header: ProxyHeader) -> TrustedProxies {
        self.header = header;
        self
    }

    /// Returns the header the proxies name their client in.
    pub fn header(&self) -> ProxyHeader {
        self.header
    }

    /// Returns whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.nets.is_empty()
    }

    /// Returns whether `address` is a trusted proxy's.
    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.nets.iter().any(|net| net.contains(&address))
    }

    /// Returns the client a request from `peer` with `headers` comes from: `peer` itself unless
    /// it is a trusted proxy; else the nearest address in the forwarding chain of the proxies'
    /// header that is not a trusted proxy's, read from the right (each proxy appends the address
    /// it saw, so what is left of an untrusted hop may be made up). The other header is not
    /// read: the proxy passes on what the client wrote there.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let mut hops: Vec<Option<IpAddr>> = Vec::new();
        match self.header {
            ProxyHeader::XForwardedFor => {
                for value in headers.get_all("x-forwarded-for").iter() {
                    let Ok(value) = value.to_str() else { return peer };
                    hops.extend(value.split(',').map(|hop| address(hop.trim())));
                }
            }
            ProxyHeader::Forwarded => {
                for value in headers.get_all(header::FORWARDED).iter() {
                    let Ok(value) = value.to_str() else { return peer };
                    for element in value.split(',') {
                        let node = element.split(';').find_map(|pair| {
                            let (key, value) = pair.split_once('=')?;
                            key.trim().eq_ignore_ascii_case("for").then(|| value.trim().trim_matches('"'))
                        });
                        hops.push(node.and_then(address));
                    }
                }
            }
        }
        let mut client = peer;
        for hop in hops.into_iter().rev() {
            match hop {
                // A hop the proxy could not name ("unknown", an obfuscated name): the nearest
                // known address stands for the client.
                None => break,
                Some(address) => {
                    client = address.to_canonical();
                    if !self.trusts(client) {
                        break;
                    }
                }
            }
        }
        client
    }
}

/// Returns the address of a forwarding hop: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`.
fn address(hop: &str) -> Option<IpAddr> {
    if let Ok(address) = hop.parse::<IpAddr>() {
        return Some(address);
    }
    if let Some(rest) = hop.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    hop.parse::<std::net::SocketAddr>().ok().map(|a| a.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn a_public_address_is_an_origin() {
        let url: PublicUrl = "HTTPS://Kalah.Example/".parse().unwrap();
        assert_eq!(url.origin(), "https://kalah.example");
        assert_eq!(url.page(), "https://kalah.example/");
        assert!(url.is("https://kalah.example"));
        assert!(!url.is("http://kalah.example"));
        for good in ["http://192.168.1.20:8080", "https://[2001:db8::1]:8443", "https://[::1]", "http://a.b"] {
            assert!(good.parse::<PublicUrl>().is_ok(), "{good}");
        }
        for bad in ["kalah.example", "ftp://a", "https://", "https://a/b", "https://a?x", "https://u@a", "https://a:x"]
        {
            let e = bad.parse::<PublicUrl>().unwrap_err().to_string();
            assert!(e.contains("give an origin such as https://kalah.example"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_client_is_the_nearest_untrusted_hop() {
        let proxies = TrustedProxies::parse(["127.0.0.1, 10.0.0.0/8", "::1"]).unwrap();
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // Not a trusted peer: its headers are ignored.
        let stranger = ip("203.0.113.9");
        assert_eq!(proxies.client(stranger, &headers(&[("x-forwarded-for", "1.2.3.4")])), stranger);
        // Through the proxy: the client it names; a client's own made-up hops on the left are not read.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.7")]);
        assert_eq!(proxies.client(proxy, &h), ip("198.51.100.7"));
        // Two proxies, both trusted, and two headers.
        let h = headers(&[("x-forwarded-for", "198.51.100.7"), ("x-forwarded-for", "10.1.2.3")]);
        assert_eq!(proxies.client(proxy, &h), ip("198.51.100.7"));
        // Unknown hop: the nearest known address; no header: the proxy itself.
        let h = headers(&[("x-forwarded-for", "unknown, 10.9.9.9")]);
        assert_eq!(proxies.client(proxy, &h), ip("10.9.9.9"));
        assert_eq!(proxies.client(proxy, &HeaderMap::new()), proxy);
        // An IPv4 peer on an IPv6 socket.
        assert_eq!(proxies.client(ip("::ffff:127.0.0.1"), &headers(&[("x-forwarded-for", "5.5.5.5")])), ip("5.5.5.5"));
        assert!(TrustedProxies::parse(["10.0.0.0/33"]).is_err());
        let e = TrustedProxies::parse(["proxy.example"]).unwrap_err().to_string();
        assert!(e.contains("not an address or CIDR block"), "{e}");
        assert!(TrustedProxies::default().is_empty());
    }

    #[test]
    fn only_the_header_the_proxy_sets_is_read() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let proxy = ip("127.0.0.1");
        let nginx = TrustedProxies::parse(["127.0.0.1"]).unwrap();
        assert_eq!(nginx.header(), ProxyHeader::XForwardedFor);
        // nginx appends the client it saw to X-Forwarded-For and passes a client's own
        // Forwarded on untouched: that one is the client's word, and is not read.
        let forged = headers(&[("forwarded", "for=6.6.6.6"), ("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(nginx.client(proxy, &forged), ip("198.51.100.7"));
        let forged = headers(&[("forwarded", "for=6.6.6.6")]);
        assert_eq!(nginx.client(proxy, &forged), proxy, "no header the proxy sets: the proxy itself");
        // A proxy that sets Forwarded (RFC 7239): quoted IPv6 with a port; X-Forwarded-For is not read.
        let rfc = TrustedProxies::parse(["127.0.0.1", "10.0.0.0/8"]).unwrap().reading(ProxyHeader::Forwarded);
        let h = headers(&[
            ("forwarded", "for=192.0.2.60;proto=https, for=\"[2001:db8:cafe::17]:4711\""),
            ("x-forwarded-for", "1.1.1.1"),
        ]);
        assert_eq!(rfc.client(proxy, &h), ip("2001:db8:cafe::17"));
        let h = headers(&[("forwarded", "for=unknown, for=10.9.9.9")]);
        assert_eq!(rfc.client(proxy, &h), ip("10.9.9.9"));
        assert_eq!(rfc.client(proxy, &headers(&[("x-forwarded-for", "6.6.6.6")])), proxy);
        assert_eq!("X-Forwarded-For".parse::<ProxyHeader>(), Ok(ProxyHeader::XForwardedFor));
        assert_eq!("forwarded".parse::<ProxyHeader>(), Ok(ProxyHeader::Forwarded));
        let e = "x-real-ip".parse::<ProxyHeader>().unwrap_err().to_string();
        assert!(e.contains("write x-forwarded-for or forwarded"), "{e}");
    }
}
