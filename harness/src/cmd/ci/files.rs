//! The written files and how a second `ci --init` knows them: each opens
//! with a line naming the command and a hash of the rest, so a file whose
//! rest still has that hash is the command's own (rewritten when the
//! settings changed), and one whose rest does not was edited (left alone
//! unless `--force`).

use std::path::Path;

/// Where the two workflows go, from the repository's root.
pub const GATE: &str = ".github/workflows/bench-gate.yml";
pub const COMMENT: &str = ".github/workflows/bench-comment.yml";

/// What is at a file's place, against what `ci --init` would write there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No file.
    Missing,
    /// Exactly what it would write.
    Current,
    /// Written by it, for other settings or an older bitbench, and not
    /// edited since.
    Stale,
    /// Edited since it was written, or not written by it.
    Edited,
}

/// `body` under its header line, which names `program`'s command and the
/// hash of `body`.
pub fn stamped(program: &str, body: &str) -> String {
    format!(
        "# Written by `{program} ci --init`, hash {:016x}: ci --init leaves it alone once \
         edited.\n{body}",
        fnv1a(body)
    )
}

/// The state of `existing` (the file's text, `None`: no file) against the
/// text `wanted`.
pub fn state(existing: Option<&str>, wanted: &str) -> State {
    let Some(text) = existing else {
        return State::Missing;
    };
    if text == wanted {
        return State::Current;
    }
    let (header, body) = text.split_once('\n').unwrap_or((text, ""));
    let hash = format!(", hash {:016x}:", fnv1a(body));
    if header.starts_with("# Written by `") && header.contains(&hash) {
        State::Stale
    } else {
        State::Edited
    }
}

/// The file at `path`, `None` when there is none (or it is no text).
pub fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// FNV-1a, 64 bits: enough to tell an edited file from the one written,
/// with no dependency (this is no defence against someone forging it,
/// only a way to leave a person's edits alone).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_current_stale_or_edited_by_its_header() {
        let wanted = stamped("toy", "name: bench-gate\n");
        assert_eq!(state(None, &wanted), State::Missing);
        assert_eq!(state(Some(&wanted), &wanted), State::Current);
        // Written for other settings: its header still holds its body's hash.
        let older = stamped("toy", "name: bench-gate\n# older\n");
        assert_eq!(state(Some(&older), &wanted), State::Stale);
        // Edited anywhere below the header, or the header itself.
        let edited = older.replace("# older", "# mine");
        assert_eq!(state(Some(&edited), &wanted), State::Edited);
        assert_eq!(state(Some("name: mine\n"), &wanted), State::Edited);
        assert_eq!(state(Some(""), &wanted), State::Edited);
        // The known value of FNV-1a 64 for "a".
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
