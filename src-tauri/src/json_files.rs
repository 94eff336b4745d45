//! The app's JSON files on disk: written whole and atomically, and set aside (not lost) when
//! they cannot be read.

use crate::error::{AppError, Notice};
use damas::session::unix_ms;
use serde_json::{Map, Value};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `value` as JSON to a temporary file beside `path`, syncs it, then renames it over `path`:
/// a reader sees the old file or the new one, never a part.
pub fn write_atomically(path: &Path, value: &Value) -> Result<(), AppError> {
    let bytes = serde_json::to_vec_pretty(value).map_err(AppError::storage)?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)?;
        // The rename itself is durable once the directory is synced (not possible everywhere).
        if let Some(dir) = path.parent() {
            if let Ok(dir) = fs::File::open(dir) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    };
    write().map_err(|error| {
        let _ = fs::remove_file(&temporary);
        AppError::storage(format!("writing {}: {error}", path.display()))
    })
}

/// `settings.json` → `settings.corrupt-<unix ms>.json` beside it.
pub(crate) fn aside_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut stamp = unix_ms();
    loop {
        let candidate = path.with_file_name(format!("{stem}.corrupt-{stamp}.json"));
        if !candidate.exists() {
            return candidate;
        }
        stamp += 1;
    }
}

pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Moves `path` aside when it exists but is not a readable JSON object.
pub(crate) fn set_aside_if_corrupt(path: &Path, code: &'static str, what: &str) -> Option<Notice> {
    let problem = match fs::read(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
        Err(error) => error.to_string(),
        Ok(bytes) => match serde_json::from_slice::<Map<String, Value>>(&bytes) {
            Ok(_) => return None,
            Err(error) => error.to_string(),
        },
    };
    let aside = aside_path(path);
    let message = match fs::rename(path, &aside) {
        Ok(()) => format!(
            "the {what} file could not be read ({problem}) and was moved to {}; starting without it",
            file_name(&aside)
        ),
        Err(error) => format!(
            "the {what} file could not be read ({problem}) nor moved aside ({error}); starting without it"
        ),
    };
    Some(Notice { code, message })
}
