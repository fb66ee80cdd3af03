//! Whom the client trusts for `wss://`: the system's root certificates (rustls-native-certs reads
//! the store the system keeps, `/etc/ssl/certs` on Debian, or `SSL_CERT_FILE`), or with
//! `--ca FILE` only the certificates in that PEM file, for a server with a certificate of its own.
//!
//! The system's store rather than a list built into the program: a university or company network
//! that adds its own root to the system is trusted as the system trusts it, and the list is kept
//! up to date with the system. Certificates are checked by rustls with the ring provider.

use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, Result};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;
use tokio_rustls::rustls::{self, CertificateError, ClientConfig, RootCertStore};

use crate::error::bad;

/// Returns the TLS settings of the client: the roots it trusts, no client certificate.
pub fn client_config(ca: Option<&Path>) -> Result<Arc<ClientConfig>> {
    let roots = match ca {
        Some(path) => roots_from_file(path)?,
        None => system_roots()?,
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| anyhow!("cannot set up TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Reads the certificates of a PEM file (`--ca`).
fn roots_from_file(path: &Path) -> Result<RootCertStore> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| bad(format!("--ca {shown}: cannot read it: {e}")))?;
    let mut roots = RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(&text) {
        let certificate =
            certificate.map_err(|e| bad(format!("--ca {shown} is not a PEM file of certificates: {e}")))?;
        roots
            .add(certificate)
            .map_err(|e| bad(format!("--ca {shown} holds a certificate that cannot be a root: {e}")))?;
    }
    if roots.is_empty() {
        return Err(bad(format!(
            "--ca {shown} holds no certificate: give a PEM file with \"-----BEGIN CERTIFICATE-----\" blocks"
        )));
    }
    Ok(roots)
}

/// Reads the system's trusted roots.
fn system_roots() -> Result<RootCertStore> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        let why = found.errors.first().map_or(String::new(), |e| format!(" ({e})"));
        return Err(anyhow!(
            "found no trusted root certificates on this system{why}: install them (Debian: the ca-certificates \
             package) or give the server's certificate authority with --ca FILE"
        ));
    }
    Ok(roots)
}

/// Explains a TLS error when it is about the server's certificate, or returns `None`.
pub fn certificate_problem(error: &rustls::Error) -> Option<String> {
    let rustls::Error::InvalidCertificate(why) = error else { return None };
    let why = match why {
        CertificateError::UnknownIssuer => "its issuer is not a certificate authority the client trusts".to_string(),
        CertificateError::BadSignature => "its signature does not verify".to_string(),
        other => other.to_string(),
    };
    Some(format!(
        "the server's certificate is refused ({why}): if the server has a certificate of its own, give its \
         certificate authority with --ca FILE"
    ))
}
