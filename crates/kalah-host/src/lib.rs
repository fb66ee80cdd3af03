//! Hosting for Kalah's servers, with no game in it: what `kalah serve` (crate kalah-web) and
//! `kalah kgp serve` (crate kalah-kgp-server) need to face the internet. The crate spawns no
//! task of its own and owns no process: a server calls it.
//!
//! * [`certificates`]: a certificate chain and its key from PEM files ([`Certificates`]), read
//!   again when certbot renews them in place, with no restart and no dropped connection.
//! * [`connections`]: connections accepted up to a cap and a share for each client, served by
//!   hyper (HTTP/1.1 and HTTP/2) with time limits on headers and idleness ([`connections::serve`]).
//! * [`proxy`]: the proxies trusted to say who the client is ([`TrustedProxies`]), the one header
//!   read from them ([`ProxyHeader`]), and the server's public address ([`PublicUrl`]).
//! * [`access`]: the access log's lines.
//! * [`guard`]: each client's share of requests, new games and live channels ([`ClientLimits`]),
//!   the origin and JSON checks, bodies read within a limit.
//! * [`headers`]: the security headers every answer has.

pub mod access;
pub mod certificates;
pub mod connections;
pub mod guard;
pub mod headers;
pub mod proxy;

pub use certificates::{Certificates, Refreshed, TlsError, TlsFiles};
pub use connections::ConnectionLimits;
pub use guard::ClientLimits;
pub use proxy::{ProxyHeader, PublicUrl, TrustedProxies};
