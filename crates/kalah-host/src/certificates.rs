//! HTTPS in the server itself (`kalah serve --cert FILE --key FILE`): a certificate chain and
//! its key read from PEM files, and read again when the files change (certbot renews them in
//! place), without a restart and without dropping a connection. A renewal that cannot be read
//! (the key written before the certificate, a typo) keeps the certificate being served and
//! says why. HTTP/2 is offered through ALPN beside HTTP/1.1.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;

/// How often a server looks at its certificate's files for a renewal ([`Certificates::refresh`]).
pub const CHECKED_EVERY: Duration = Duration::from_secs(10);

/// A certificate chain and its private key, PEM files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, the server's own first (certbot's `fullchain.pem`).
    pub cert: PathBuf,
    /// The private key (certbot's `privkey.pem`).
    pub key: PathBuf,
}

/// Why a certificate and key cannot serve HTTPS.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file that cannot be read, or is not PEM.
    #[error("{path}: cannot read {what}: {}", pem_words(error))]
    Pem {
        /// The file.
        path: PathBuf,
        /// What it should hold.
        what: &'static str,
        /// What went wrong.
        error: rustls_pki_types::pem::Error,
    },
    /// No certificate in the file.
    #[error("{0}: no certificate in it (a PEM file with -----BEGIN CERTIFICATE----- blocks)")]
    NoCertificate(PathBuf),
    /// The key does not fit the certificate, or rustls refuses them.
    #[error("the certificate and key cannot serve TLS: {0}")]
    Rustls(#[from] rustls::Error),
}

/// Says what is wrong with a PEM file in words: the PEM reader's own message quotes the lines it
/// could not read as lists of byte values.
fn pem_words(error: &rustls_pki_types::pem::Error) -> String {
    use rustls_pki_types::pem::Error;
    let quoted = |bytes: &[u8]| String::from_utf8_lossy(bytes).trim().to_string();
    match error {
        Error::MissingSectionEnd { end_marker } => {
            let end = format!("-----END {}-----", quoted(end_marker));
            format!("a section has no end line {end:?} (was the file cut short, or is it still being written?)")
        }
        Error::IllegalSectionStart { line } => {
            format!("a line that begins a section cannot be read: {:?}", quoted(line))
        }
        Error::Base64Decode(e) => format!("a section is not base64 ({e})"),
        Error::Io(e) => e.to_string(),
        Error::NoItemsFound => "no section of that kind in it (PEM: -----BEGIN … -----)".to_string(),
        Error::SectionTooLarge => "a section is larger than 256 MB".to_string(),
        other => other.to_string(),
    }
}

/// When the files were last read: each one's modification time and length.
type Stamp = [Option<(SystemTime, u64)>; 2];

/// The certificate being served, read again from its files when they change.
pub struct Certificates {
    files: TlsFiles,
    current: RwLock<Arc<CertifiedKey>>,
    read: Mutex<Stamp>,
}

impl std::fmt::Debug for Certificates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Certificates").field("files", &self.files).finish_non_exhaustive()
    }
}

/// What [`Certificates::refresh`] found.
#[derive(Debug)]
pub enum Refreshed {
    /// The files are as they were.
    Unchanged,
    /// The files changed and are served from now on.
    Reloaded,
    /// The files changed but cannot be served: the earlier certificate still is.
    Failed(TlsError),
}

impl Certificates {
    /// Reads the certificate and key in `files`.
    pub fn open(files: TlsFiles) -> Result<Arc<Certificates>, TlsError> {
        let read = stamp(&files);
        let key = load(&files)?;
        Ok(Arc::new(Certificates { files, current: RwLock::new(Arc::new(key)), read: Mutex::new(read) }))
    }

    /// Returns the files served.
    pub fn files(&self) -> &TlsFiles {
        &self.files
    }

    /// Looks at the files every [`CHECKED_EVERY`] for as long as the future runs and tells
    /// `report` of each change: a renewal served from the next connection on, or one that cannot
    /// be served (the earlier certificate still is). Returns when `report` answers `Break`.
    /// Both servers (`kalah serve`, `kalah kgp serve`) watch their certificate with it.
    pub async fn watch(self: Arc<Self>, mut report: impl FnMut(Refreshed) -> ControlFlow<()>) {
        let mut tick = tokio::time::interval(CHECKED_EVERY);
        loop {
            tick.tick().await;
            match self.refresh() {
                Refreshed::Unchanged => {}
                changed => {
                    if report(changed).is_break() {
                        return;
                    }
                }
            }
        }
    }

    /// Reads the files again if they changed since they were last read.
    pub fn refresh(&self) -> Refreshed {
        let now = stamp(&self.files);
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        if *read == now {
            return Refreshed::Unchanged;
        }
        // Not read again until they change again, whether or not they serve.
        *read = now;
        match load(&self.files) {
            Ok(key) => {
                *self.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(key);
                Refreshed::Reloaded
            }
            Err(e) => Refreshed::Failed(e),
        }
    }

    /// Reads the files again now (a host's SIGHUP), changed or not.
    pub fn reload(&self) -> Result<(), TlsError> {
        let now = stamp(&self.files);
        let key = load(&self.files)?;
        *self.read.lock().unwrap_or_else(|e| e.into_inner()) = now;
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(key);
        Ok(())
    }

    /// Returns an acceptor that serves the current certificate to each new connection,
    /// offering HTTP/2 and HTTP/1.1.
    pub fn acceptor(self: &Arc<Certificates>) -> Result<TlsAcceptor, TlsError> {
        self.acceptor_offering(&[b"h2", b"http/1.1"])
    }

    /// Returns an acceptor that serves the current certificate to each new connection, offering
    /// `protocols` through ALPN (a WebSocket server that speaks HTTP/1.1 alone: `http/1.1`).
    pub fn acceptor_offering(self: &Arc<Certificates>, protocols: &[&[u8]]) -> Result<TlsAcceptor, TlsError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_cert_resolver(Arc::clone(self) as Arc<dyn ResolvesServerCert>);
        config.alpn_protocols = protocols.iter().map(|p| p.to_vec()).collect();
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

impl ResolvesServerCert for Certificates {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(Arc::clone(&self.current.read().unwrap_or_else(|e| e.into_inner())))
    }
}

fn stamp(files: &TlsFiles) -> Stamp {
    let one = |path: &Path| std::fs::metadata(path).ok().and_then(|m| Some((m.modified().ok()?, m.len())));
    [one(&files.cert), one(&files.key)]
}

/// Reads the chain and key of `files` and checks that the key is the certificate's.
fn load(files: &TlsFiles) -> Result<CertifiedKey, TlsError> {
    fn pem<'a>(path: &'a Path, what: &'static str) -> impl Fn(rustls_pki_types::pem::Error) -> TlsError + 'a {
        move |error| TlsError::Pem { path: path.to_path_buf(), what, error }
    }
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&files.cert)
        .map_err(pem(&files.cert, "the certificate chain"))?
        .collect::<Result<_, _>>()
        .map_err(pem(&files.cert, "the certificate chain"))?;
    if certs.is_empty() {
        return Err(TlsError::NoCertificate(files.cert.clone()));
    }
    let key = PrivateKeyDer::from_pem_file(&files.key).map_err(pem(&files.key, "the private key"))?;
    let provider = rustls::crypto::ring::default_provider();
    Ok(CertifiedKey::from_der(certs, key, &provider)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_cut_short_is_said_in_words() {
        let folder = tempfile::tempdir().unwrap();
        let (cert, key) = (folder.path().join("cert.pem"), folder.path().join("key.pem"));
        // A renewal caught half written: the section begins and never ends.
        std::fs::write(&cert, "-----BEGIN CERTIFICATE-----\nMIIB\n").unwrap();
        std::fs::write(&key, "").unwrap();
        let error = Certificates::open(TlsFiles { cert, key }).map(drop).expect_err("refused").to_string();
        assert!(error.contains("a section has no end line \"-----END CERTIFICATE-----\""), "{error}");
        assert!(!error.contains("[45, 45"), "no byte values: {error}");
    }
}
