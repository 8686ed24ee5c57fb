//! Running a user's kernel without letting it crash the harness.
//!
//! A variant that panics is a wrong answer, not the end of `check` or
//! `bench`: every call into a solver goes through [`catch`], which turns
//! the panic into its message. The panic hook stays quiet for those panics
//! (the harness reports them itself, once, naming workload, variant and
//! input) and keeps printing every other panic as before.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Whether this thread is inside [`catch`].
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`; a panic inside it becomes `Err(message)`.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let outer = CATCHING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        format!("panicked: {message}")
    })
}

#[cfg(test)]
mod tests {
    use super::catch;

    #[test]
    fn a_panic_becomes_its_message() {
        assert_eq!(catch(|| 7), Ok(7));
        assert_eq!(
            catch(|| -> u8 { panic!("bad board {}", 3) }),
            Err("panicked: bad board 3".to_owned())
        );
        let nested = catch(|| catch(|| panic!("inner")).unwrap_err());
        assert_eq!(nested, Ok("panicked: inner".to_owned()));
    }
}
