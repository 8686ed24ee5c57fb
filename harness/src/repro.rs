//! The commands that reproduce a finding, naming the program as it was run.
//!
//! `check` and `fuzz` print `PROGRAM solve WORKLOAD --variant V 'INPUT'`
//! lines to paste back into a shell; a wrong answer on an input too long
//! for that line is reproduced from the set, seed and index that
//! regenerate it. An outside crate's kernels run through
//! that crate's own binary, not `bitbench`, so the line names whatever the
//! user ran.

use std::path::Path;
use std::time::Duration;

/// Where a batch of inputs came from, as `inputs` regenerates it.
#[derive(Clone, Debug)]
pub(crate) struct Generated<'a> {
    /// The input set.
    pub set: &'a str,
    /// The generator's seed.
    pub seed: u64,
    /// How many inputs were asked of the generator (`inputs --count`).
    pub count: usize,
}

/// The running program as the user invoked it: the file name of `argv[0]`,
/// else `binary` (the [`Origin`](crate::Origin)'s, when the platform gives
/// no `argv[0]`).
pub(crate) fn program(binary: &str) -> String {
    std::env::args_os()
        .next()
        .as_deref()
        .and_then(|arg0| Path::new(arg0).file_name())
        .map_or_else(
            || binary.to_owned(),
            |name| name.to_string_lossy().into_owned(),
        )
}

/// `PROGRAM solve WORKLOAD [--variant V] [--timeout N] 'INPUT'...`: the
/// command answering `inputs` with `variant` (none: the workload's
/// default). A hang's line gives the `deadline` it ran into, whole seconds
/// rounded up, so that the repro stops too (`solve` alone runs as long as
/// the variant takes).
pub(crate) fn solve_line(
    program: &str,
    workload: &str,
    variant: Option<&str>,
    inputs: &[String],
    deadline: Option<Duration>,
) -> String {
    let mut line = format!("{program} solve {workload}");
    if let Some(variant) = variant {
        line.push_str(&format!(" --variant {variant}"));
    }
    if let Some(deadline) = deadline {
        let seconds = deadline.as_secs() + u64::from(deadline.subsec_nanos() > 0);
        line.push_str(&format!(" --timeout {seconds}"));
    }
    for input in inputs {
        line.push(' ');
        line.push_str(&shell_quote(input));
    }
    line
}

/// `PROGRAM inputs WORKLOAD 'SET' --seed S --count N | sed -n 'Kp' >
/// input.txt && PROGRAM solve WORKLOAD --variant V --input-file input.txt`:
/// the command answering input `index` of a generated batch with
/// `variant`, for an input too long for a command line (one argument may
/// not exceed 128 KiB on Linux) or a finding.
pub(crate) fn regenerate_line(
    program: &str,
    workload: &str,
    variant: &str,
    source: &Generated<'_>,
    index: usize,
) -> String {
    format!(
        "{program} inputs {workload} {} --seed {} --count {} | sed -n '{}p' > input.txt \
         && {program} solve {workload} --variant {variant} --input-file input.txt",
        shell_quote(source.set),
        source.seed,
        source.count,
        index + 1
    )
}

/// The words of a line [`solve_line`] wrote: split at spaces, with
/// single-quoted words (and `'\''` within them) read back.
pub(crate) fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let (mut quoted, mut escaped) = (false, false);
    for c in line.chars() {
        match (c, quoted, escaped) {
            (c, false, true) => {
                word.get_or_insert_with(String::new).push(c);
                escaped = false;
            }
            ('\'', ..) => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            ('\\', false, _) => escaped = true,
            (' ', false, _) => words.extend(word.take()),
            (c, ..) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Quotes a text input for a POSIX shell.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_quoted_for_the_shell() {
        assert_eq!(
            solve_line("toy", "w", Some("v"), &["it's 1".into(), "2".into()], None),
            r"toy solve w --variant v 'it'\''s 1' '2'"
        );
        assert_eq!(
            solve_line("bitbench", "w", None, &[], None),
            "bitbench solve w"
        );
    }

    #[test]
    fn a_long_input_is_regenerated_by_set_seed_and_index() {
        let source = Generated {
            set: "size:1048576",
            seed: 7,
            count: 4,
        };
        assert_eq!(
            regenerate_line("toy", "hex", "planted", &source, 2),
            "toy inputs hex 'size:1048576' --seed 7 --count 4 | sed -n '3p' > input.txt \
             && toy solve hex --variant planted --input-file input.txt"
        );
    }

    #[test]
    fn a_hang_repro_stops_at_its_deadline_rounded_up() {
        let line = |d| solve_line("toy", "w", Some("v"), &["1".into()], Some(d));
        assert_eq!(
            line(Duration::from_secs(5)),
            "toy solve w --variant v --timeout 5 '1'"
        );
        assert_eq!(
            line(Duration::from_millis(5250)),
            "toy solve w --variant v --timeout 6 '1'"
        );
    }

    #[test]
    fn solve_lines_read_back_into_their_words() {
        let inputs = ["it's 1".to_owned(), "#.. /...".to_owned(), String::new()];
        let line = solve_line("toy", "w", None, &inputs, Some(Duration::from_secs(3)));
        assert_eq!(
            shell_words(&line),
            [
                "toy",
                "solve",
                "w",
                "--timeout",
                "3",
                "it's 1",
                "#.. /...",
                ""
            ]
        );
    }

    #[test]
    fn the_program_is_the_test_binary_not_a_fixed_name() {
        let name = program("fallback");
        assert_ne!(name, "fallback");
        assert!(!name.contains('/'), "{name}");
        assert!(
            std::env::current_exe()
                .unwrap()
                .to_string_lossy()
                .ends_with(&name),
            "{name}"
        );
    }
}
