//! `damas-server bench` reports the ramp-up and the steady state apart: what happens while the
//! rooms open and during the warm-up is not counted in the measured window.

use std::process::Command;

/// The number after `label` in `line` (`"… 12 games finished …"` → 12 for `"games finished"`,
/// taking the word before the label).
fn count_before(line: &str, label: &str) -> u64 {
    let (before, _) = line
        .split_once(label)
        .unwrap_or_else(|| panic!("no {label:?} in {line:?}"));
    before
        .split_whitespace()
        .last()
        .and_then(|n| n.trim_start_matches('(').parse().ok())
        .unwrap_or_else(|| panic!("no count before {label:?} in {line:?}"))
}

#[test]
fn a_measured_window_counts_only_what_happens_in_it() {
    // Quick moves, a warm-up in which games are played, and a window of no time at all.
    let output = Command::new(env!("CARGO_BIN_EXE_damas-server"))
        .args(["bench", "--rooms", "2", "--think-ms", "1"])
        .args(["--warmup-secs", "2", "--seconds", "0"])
        .output()
        .expect("damas-server bench runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "bench failed: {text}");
    let line = |prefix: &str| {
        text.lines()
            .find(|line| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line in:\n{text}"))
            .to_string()
    };
    let ramp = line("ramp-up: ");
    assert!(ramp.contains("2 rooms open"), "{ramp}");
    let warm = line("warm-up: ");
    assert!(count_before(&warm, "moves") > 0, "the rooms played: {warm}");
    let steady = line("steady state: ");
    assert_eq!(count_before(&steady, "games finished"), 0, "{steady}");
    assert_eq!(count_before(&steady, "in 0."), 0, "{steady}");
}
