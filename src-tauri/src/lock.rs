//! Taking the app's mutexes.

use std::sync::{Mutex, MutexGuard};

/// A lock whose holder panicked still guards consistent data here (every change is applied whole
/// or not at all), so it is taken over rather than turned into a second panic.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
