//! What several of the integration tests need alike (each test file that uses it says
//! `mod common;`).

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};

/// A certificate authority made for a test, which signs servers' certificates.
pub struct Authority {
    params: CertificateParams,
    key: KeyPair,
    /// Its certificate, PEM.
    pem: String,
}

impl Authority {
    /// Makes an authority named `name`.
    pub fn new(name: &str) -> Authority {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().unwrap();
        let pem = params.self_signed(&key).unwrap().pem();
        Authority { params, key, pem }
    }

    /// Writes its certificate to the PEM file `name` in `folder` and returns the file's path.
    pub fn write(&self, folder: &std::path::Path, name: &str) -> std::path::PathBuf {
        let path = folder.join(name);
        std::fs::write(&path, &self.pem).unwrap();
        path
    }

    /// Returns a server's certificate for `names` (host names or IP addresses) signed by this
    /// authority, and its key: both DER.
    pub fn server(&self, names: &[&str]) -> (rcgen::Certificate, KeyPair) {
        let params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
        let key = KeyPair::generate().unwrap();
        let certificate = params.signed_by(&key, &Issuer::from_params(&self.params, &self.key)).unwrap();
        (certificate, key)
    }
}
