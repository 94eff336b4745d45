//! The environment the app gives its web processes. On Linux the WebKitGTK web process inherits
//! the app's environment, and glibc reads its malloc tunables from it when the process starts.
//!
//! By default glibc raises its mmap threshold each time a large block that was mmapped is freed
//! (up to 32 MiB), so later blocks of that size come from the main heap, where the holes they
//! leave between live blocks are never given back. The web process allocates and frees such
//! blocks with each game (software GL's buffers, painting, images), and its main heap grew by
//! ~40 MiB over the first twenty games; with the thresholds fixed at glibc's initial 128 KiB,
//! large blocks stay mmapped and go back to the system when freed (docs/performance.md, "Memory
//! across games").
//!
//! On a machine without a GPU render node (`/dev/dri/renderD*`), Mesa draws in software, and
//! WebKit's painting "on the GPU" is the CPU again with extra threads sharing software GL: there,
//! WebKitGTK 2.50 with Mesa 22.3 crashed now and then in its compositor thread inside
//! `swrast_dri.so` (the web process gone, the window blank; seen in the end-to-end runs under
//! Xvfb). There the web process paints with the CPU (`WEBKIT_SKIA_ENABLE_CPU_RENDERING`); WebGL
//! (the 3D board) still draws with GL. A value the user sets is kept.

use std::path::Path;

/// The malloc tunables set for the web processes, where the environment has none.
pub const WEB_PROCESS_MALLOC: [(&str, &str); 2] = [
    ("MALLOC_MMAP_THRESHOLD_", "131072"),
    ("MALLOC_TRIM_THRESHOLD_", "131072"),
];

/// Set for the web processes where no GPU render node exists: paint with the CPU.
pub const CPU_PAINTING: (&str, &str) = ("WEBKIT_SKIA_ENABLE_CPU_RENDERING", "1");

/// Where Linux lists the GPUs' device nodes.
const DRI_DIR: &str = "/dev/dri";

/// Whether `dir` (a `/dev/dri`) holds a render node, i.e. a GPU that GL can draw with.
pub fn has_render_node(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Sets [`WEB_PROCESS_MALLOC`], and [`CPU_PAINTING`] without a GPU, in this process's environment
/// for the web processes it starts. Called first thing in `run`, before any thread is started
/// (changing the environment is not safe while another thread may read it).
pub fn set_for_web_processes() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let mut wanted: Vec<(&str, &str)> = Vec::new();
    if cfg!(target_env = "gnu") {
        wanted.extend(WEB_PROCESS_MALLOC);
    }
    if !has_render_node(Path::new(DRI_DIR)) {
        wanted.push(CPU_PAINTING);
    }
    for (name, value) in wanted {
        if std::env::var_os(name).is_none() {
            std::env::set_var(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::has_render_node;

    #[test]
    fn a_render_node_is_a_gpu_and_a_card_or_nothing_is_not() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        assert!(!has_render_node(dir.path()), "an empty /dev/dri");
        assert!(
            !has_render_node(&dir.path().join("absent")),
            "no /dev/dri at all"
        );
        std::fs::write(dir.path().join("card0"), b"").expect("writable");
        assert!(
            !has_render_node(dir.path()),
            "a display card without a render node"
        );
        std::fs::write(dir.path().join("renderD128"), b"").expect("writable");
        assert!(has_render_node(dir.path()));
    }
}
