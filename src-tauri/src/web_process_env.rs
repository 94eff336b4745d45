//! The environment the app gives its web processes. On Linux the WebKitGTK web process inherits
//! the app's environment, and glibc reads its malloc tunables from it when the process starts.
//!
//! By default glibc raises its mmap threshold each time a large block that was mmapped is freed
//! (up to 32 MiB), so later blocks of that size come from the main heap, where the holes they
//! leave between live blocks are never given back. The web process allocates and frees such
//! blocks with each game (software GL's buffers, painting, images), and its main heap grew by
//! ~40 MiB over the first twenty games; with the thresholds fixed at glibc's initial 128 KiB,
//! large blocks stay mmapped and go back to the system when freed (docs/performance.md, "Memory
//! across games"). A value the user sets is kept.

/// The malloc tunables set for the web processes, where the environment has none.
pub const WEB_PROCESS_MALLOC: [(&str, &str); 2] = [
    ("MALLOC_MMAP_THRESHOLD_", "131072"),
    ("MALLOC_TRIM_THRESHOLD_", "131072"),
];

/// Sets [`WEB_PROCESS_MALLOC`] in this process's environment for the web processes it starts.
/// Called first thing in `run`, before any thread is started (changing the environment is not
/// safe while another thread may read it).
pub fn set_for_web_processes() {
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        return;
    }
    for (name, value) in WEB_PROCESS_MALLOC {
        if std::env::var_os(name).is_none() {
            std::env::set_var(name, value);
        }
    }
}
