//! How the connections to PostgreSQL are encrypted: libpq's `sslmode` and `sslrootcert`, which
//! every PostgreSQL user knows from psql, in the address's query
//! (`postgres://…/kalah?sslmode=verify-full&sslrootcert=ca.pem`), with rustls (the ring
//! provider, as KGP's `wss://`) under tokio-postgres.
//!
//! | `sslmode` | encrypted | the server's certificate |
//! |---|---|---|
//! | `disable` | never | not asked for |
//! | `prefer` (the default) | when the server offers it | not checked |
//! | `require` | always | not checked; checked as `verify-ca` when `sslrootcert` is given |
//! | `verify-ca` | always | signed by an authority trusted: `sslrootcert`'s, or the system's |
//! | `verify-full` | always | as `verify-ca`, and issued for the host connected to |
//!
//! As with libpq, `prefer` and `require` keep eavesdroppers out but do not prove who the server
//! is: a database reached over a network that is not yours wants `verify-full`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_postgres::config::SslMode as Negotiated;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::StoreError;

/// libpq's `sslmode`: whether the connection is encrypted and what is checked of the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SslMode {
    /// Never encrypted.
    Disable,
    /// Encrypted when the server offers it, its certificate not checked.
    #[default]
    Prefer,
    /// Always encrypted, the certificate not checked (unless `sslrootcert` is given).
    Require,
    /// Always encrypted, the certificate signed by an authority trusted.
    VerifyCa,
    /// Always encrypted, the certificate signed by an authority trusted and issued for the host.
    VerifyFull,
}

impl SslMode {
    /// The words `sslmode` takes, in order.
    pub const WORDS: [(&'static str, SslMode); 5] = [
        ("disable", SslMode::Disable),
        ("prefer", SslMode::Prefer),
        ("require", SslMode::Require),
        ("verify-ca", SslMode::VerifyCa),
        ("verify-full", SslMode::VerifyFull),
    ];

    /// Reads an `sslmode` word.
    pub fn parse(word: &str) -> Option<SslMode> {
        SslMode::WORDS.iter().find(|(w, _)| *w == word).map(|&(_, mode)| mode)
    }
}

impl fmt::Display for SslMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = SslMode::WORDS.iter().find(|(_, m)| m == self).map_or("prefer", |(w, _)| w);
        f.write_str(word)
    }
}

/// The TLS settings of an address: the mode and the file of trusted authorities, if given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tls {
    /// Whether to encrypt and what to check.
    pub mode: SslMode,
    /// A PEM file of the certificate authorities to trust instead of the system's.
    pub root: Option<PathBuf>,
}

impl Tls {
    /// Returns what tokio-postgres negotiates: no TLS, TLS if offered, or TLS always.
    pub fn negotiated(&self) -> Negotiated {
        match self.mode {
            SslMode::Disable => Negotiated::Disable,
            SslMode::Prefer => Negotiated::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => Negotiated::Require,
        }
    }

    /// Returns the connector that makes the TLS sessions, checking the server's certificate as
    /// the mode says; reads `sslrootcert` (or the system's authorities) if it is needed.
    pub fn connector(&self) -> Result<MakeRustlsConnect, StoreError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_safe_default_protocol_versions()
            .map_err(|e| StoreError::Postgres(format!("cannot set up TLS: {e}")))?;
        let check = match (self.mode, &self.root) {
            (SslMode::Disable | SslMode::Prefer, _) | (SslMode::Require, None) => Check::Nothing,
            (SslMode::Require | SslMode::VerifyCa, _) => Check::Authority,
            (SslMode::VerifyFull, _) => Check::AuthorityAndHost,
        };
        let verifier: Arc<dyn ServerCertVerifier> = match check {
            Check::Nothing => Arc::new(Unchecked(provider)),
            Check::Authority | Check::AuthorityAndHost => {
                let roots = match &self.root {
                    Some(path) => roots_from_file(path)?,
                    None => system_roots()?,
                };
                let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
                    .build()
                    .map_err(|e| StoreError::Address(format!("cannot use the certificate authorities: {e}")))?;
                Arc::new(Checked { webpki, host: check == Check::AuthorityAndHost })
            }
        };
        let config = builder.dangerous().with_custom_certificate_verifier(verifier).with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }
}

/// What is checked of the server's certificate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    Nothing,
    Authority,
    AuthorityAndHost,
}

/// Reads the certificates of `sslrootcert`, a PEM file.
fn roots_from_file(path: &Path) -> Result<RootCertStore, StoreError> {
    let shown = path.display();
    let bad = |why: String| StoreError::Address(format!("sslrootcert {shown}: {why}"));
    let text = std::fs::read(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let mut roots = RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(&text) {
        let certificate = certificate.map_err(|e| bad(format!("is not a PEM file of certificates: {e}")))?;
        roots.add(certificate).map_err(|e| bad(format!("holds a certificate that cannot be a root: {e}")))?;
    }
    if roots.is_empty() {
        return Err(bad("holds no certificate: give a PEM file with \"-----BEGIN CERTIFICATE-----\" blocks".into()));
    }
    Ok(roots)
}

/// Reads the system's trusted authorities (rustls-native-certs: `/etc/ssl/certs` on Debian, or
/// `SSL_CERT_FILE`).
fn system_roots() -> Result<RootCertStore, StoreError> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        let why = found.errors.first().map_or(String::new(), |e| format!(" ({e})"));
        return Err(StoreError::Address(format!(
            "found no trusted root certificates on this system{why}: install them (Debian: the ca-certificates \
             package) or give the database's certificate authority with ?sslrootcert=FILE"
        )));
    }
    Ok(roots)
}

/// `prefer` and `require` without `sslrootcert`: any certificate, as libpq; the handshake's
/// signatures are still checked, so the session is with whoever holds the certificate's key.
#[derive(Debug)]
struct Unchecked(Arc<CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca` and `verify-full`: the certificate's chain to an authority trusted, and for
/// `verify-full` its names.
#[derive(Debug)]
struct Checked {
    webpki: Arc<WebPkiServerVerifier>,
    /// Whether the certificate must be issued for the host connected to.
    host: bool,
}

impl ServerCertVerifier for Checked {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            // webpki checks the names last, once the chain is good: verify-ca accepts any name.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.host => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_are_read_and_written_as_libpq_writes_them() {
        for (word, mode) in SslMode::WORDS {
            assert_eq!(SslMode::parse(word), Some(mode));
            assert_eq!(mode.to_string(), word);
        }
        assert_eq!(SslMode::parse("allow"), None);
        assert_eq!(SslMode::default(), SslMode::Prefer);
    }

    #[test]
    fn a_root_file_that_is_missing_or_holds_no_certificate_is_refused_in_one_line() {
        let folder = tempfile::tempdir().unwrap();
        let missing = folder.path().join("missing.pem");
        let empty = folder.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        for (root, says) in [(missing, "cannot read it"), (empty, "holds no certificate")] {
            let tls = Tls { mode: SslMode::VerifyFull, root: Some(root) };
            let message = tls.connector().err().expect("refused").to_string();
            assert!(message.starts_with("sslrootcert ") && message.contains(says), "{message}");
            assert_eq!(message.lines().count(), 1);
        }
    }
}
