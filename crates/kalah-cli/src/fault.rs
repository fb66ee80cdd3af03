//! The bus-error report: what happens when a mapped endgame database file changes on disk while
//! the program uses it.
//!
//! The database library maps a layer into memory, not copies it. If another program cuts a
//! mapped file short (truncates it, or rewrites it in place), touching the lost part raises
//! `SIGBUS`, which by default ends the process with "Bus error" and nothing else. kalah's own builds never do this
//! (they write a new file and rename it over the old one, and written layers are read-only), so
//! it means someone changed the database folder by hand while kalah ran. [`report_bus_errors`]
//! turns that into one line on standard error and the exit status [`CHANGED_ON_DISK`]. The
//! handler is the binary's: a library never owns the process (a Python interpreter or a server
//! that loads the engine decides for itself what a fault does).

/// The exit status after a mapped database file changed on disk while in use.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub const CHANGED_ON_DISK: i32 = 3;

/// The line written on standard error before the process exits with [`CHANGED_ON_DISK`].
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub const MESSAGE: &str = "kalah: an endgame database file changed on disk while in use (Bus error); \
leave the database folder alone while kalah runs, then run `kalah egdb info` to check it\n";

/// Installs a `SIGBUS` handler that writes [`MESSAGE`] and exits with [`CHANGED_ON_DISK`]
/// (Linux; elsewhere nothing is installed). Called once, first thing in `main`.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn report_bus_errors() {
    extern "C" fn on_bus_error(_: libc::c_int) {
        // SAFETY: write(2) and _exit(2) are async-signal-safe; the message is a static buffer.
        unsafe {
            libc::write(libc::STDERR_FILENO, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(CHANGED_ON_DISK);
        }
    }
    // SAFETY: a zeroed sigaction is a valid empty one; the handler only calls async-signal-safe
    // functions and never returns, so the faulting access is not retried.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// Installs nothing: only Linux builds map layers with a handler for their faults.
#[cfg(not(target_os = "linux"))]
pub fn report_bus_errors() {}
