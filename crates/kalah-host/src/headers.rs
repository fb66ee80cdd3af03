//! The security headers every answer of a server has ([`secure`]), and the page's content
//! security policy ([`CONTENT_SECURITY_POLICY`]).

use axum::http::{header, HeaderMap, HeaderValue};

/// The page's content security policy: its own script, style and requests only (it has no inline
/// script or style and loads nothing from elsewhere), and no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Sets the security headers of an answer: the content security policy, no sniffing of its
/// type, no referrer, no framing.
pub fn secure(headers: &mut HeaderMap) {
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_secured_with_the_four_headers() {
        let mut headers = HeaderMap::new();
        secure(&mut headers);
        assert_eq!(headers.len(), 4);
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
        assert!(headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().contains("frame-ancestors 'none'"));
    }
}
