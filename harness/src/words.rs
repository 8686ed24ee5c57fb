//! The program's own words: what its help calls it, says it is, and runs
//! its examples on.
//!
//! Every program built on bitbench shares one command line (`cli`, `cmd/`),
//! yet its help must read as its own: `popcount solve --help` shows
//! `popcount solve popcount '0x…'`, not the `bitbench` binary's board of
//! `components`. So the help texts that name the program, say what it is
//! or show a workload, an input or an input set are templates, with
//! placeholders in braces (`{program}`, `{workload}`, see [`Words::fill`]),
//! and the program's words are written in when its help is shown. The
//! built-in suite keeps the words the `bitbench` binary has always shown;
//! any other suite's examples come from its first workload, and its about
//! line from its package's description. Lines printed while a command
//! runs (hints, reproducing commands) name the program as it was run
//! instead, [`crate::repro::program`].

use crate::entry::Suite;
use crate::repro::shell_quote;
use clap::builder::StyledStr;
use clap::{Arg, Command};

/// A help text of `T` and how to set it.
type Text<T> = (fn(&T) -> Option<&StyledStr>, fn(T, String) -> T);

/// The help texts of a command that may hold placeholders.
const COMMAND_TEXTS: [Text<Command>; 4] = [
    (Command::get_about, |c, t| c.about(t)),
    (Command::get_long_about, |c, t| c.long_about(t)),
    (Command::get_after_help, |c, t| c.after_help(t)),
    (Command::get_after_long_help, |c, t| c.after_long_help(t)),
];

/// The help texts of an argument that may hold placeholders.
const ARG_TEXTS: [Text<Arg>; 2] = [
    (Arg::get_help, |a, t| a.help(t)),
    (Arg::get_long_help, |a, t| a.long_help(t)),
];

/// What a program's help says where its templates have placeholders.
#[derive(Debug)]
pub(crate) struct Words {
    /// `{about}`: what the program is, one line without a final period.
    about: String,
    /// `{program}`: the program, named as its `Usage:` line names it.
    program: String,
    /// `{workload}`: the workload the examples run.
    workload: String,
    /// `{input}` (shell-quoted): an input of it in its text format.
    input: String,
    /// `{sets}`: input sets to name as examples; the first is `{set}`,
    /// the one the `inputs` example prints.
    sets: Vec<String>,
    /// `{file}`: where the `inputs` example writes.
    file: String,
    /// `{sample}`: how many inputs one `bench` sample holds, as a clause
    /// after "holds", or nothing.
    sample: String,
}

impl Words {
    /// The words of `suite`'s program, whose package describes it as
    /// `description` (empty when it does not): that is its about line.
    /// The `bitbench` binary's words are its own (its about line is not
    /// its package's description, which speaks of the library).
    pub(crate) fn of(suite: &Suite, description: &str) -> Words {
        let program = suite.origin().binary.to_owned();
        let description = description.trim();
        let description = description.strip_suffix('.').unwrap_or(description);
        #[cfg(feature = "suite")]
        if std::ptr::eq(suite.workloads(), crate::builtin::WORKLOADS) {
            return Words::bitbench(program, description);
        }
        let names: Vec<&str> = suite.workloads().iter().map(|w| w.name()).collect();
        let about = match description {
            "" => format!(
                "Differential testing and benchmarking of {}",
                names.join(", ")
            ),
            description => description.to_owned(),
        };
        let first = suite.workloads()[0];
        let set = first.measured_sets(&[], false).into_iter().next();
        Words {
            about,
            program,
            workload: first.name().to_owned(),
            input: first.example_input().unwrap_or_else(|| "INPUT".to_owned()),
            sets: vec![set.unwrap_or_else(|| "SET".to_owned())],
            file: "inputs.txt".to_owned(),
            sample: String::new(),
        }
    }

    /// The built-in suite's words, what the `bitbench` binary has always
    /// shown: a board of `components`, a density of it and `cephalopod`'s
    /// official tests.
    #[cfg(feature = "suite")]
    fn bitbench(program: String, description: &str) -> Words {
        let about = match description {
            "" => "Differential testing and benchmarking of bitboard kernels",
            description => description,
        };
        let board =
            "#...../#...../##..#./....../....../....../....../....../....../....../....../......";
        Words {
            about: about.to_owned(),
            program,
            workload: "components".to_owned(),
            input: board.to_owned(),
            sets: vec!["density:0.125".to_owned(), "official".to_owned()],
            file: "boards.txt".to_owned(),
            sample: " (4096 boards for components)".to_owned(),
        }
    }

    /// `command`, its arguments and its subcommands, all the way down,
    /// with the placeholders in their help written in; a text without
    /// any is left as it is.
    pub(crate) fn fill(&self, command: Command) -> Command {
        let command = command
            .mut_args(|arg| self.fill_texts(arg, &ARG_TEXTS))
            .mut_subcommands(|sub| self.fill(sub));
        self.fill_texts(command, &COMMAND_TEXTS)
    }

    /// `item` with each of its `texts` that has a placeholder written in.
    fn fill_texts<T>(&self, mut item: T, texts: &[Text<T>]) -> T {
        for (get, set) in texts {
            if let Some(text) = get(&item).and_then(|text| self.written(&text.to_string())) {
                item = set(item, text);
            }
        }
        item
    }

    /// `text` with every placeholder replaced by its word; `None` when it
    /// has none.
    fn written(&self, text: &str) -> Option<String> {
        let mut written = text.to_owned();
        for (placeholder, word) in self.placeholders() {
            written = written.replace(placeholder, &word);
        }
        (written != text).then_some(written)
    }

    /// Each placeholder and its word.
    fn placeholders(&self) -> [(&'static str, String); 8] {
        let quoted: Vec<String> = self.sets.iter().map(|s| format!("`{s}`")).collect();
        [
            ("{about}", self.about.clone()),
            ("{program}", self.program.clone()),
            ("{workload}", self.workload.clone()),
            ("{input}", shell_quote(&self.input)),
            ("{sets}", quoted.join(" or ")),
            ("{set}", self.sets[0].clone()),
            ("{file}", self.file.clone()),
            ("{sample}", self.sample.clone()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words {
            about: "Counts bits".into(),
            program: "toy".into(),
            workload: "ones".into(),
            input: "it's".into(),
            sets: vec!["p:0.5".into(), "all".into()],
            file: "inputs.txt".into(),
            sample: String::new(),
        }
    }

    #[test]
    fn placeholders_are_written_in_and_other_braces_kept() {
        let w = words();
        assert_eq!(
            w.written("{about}. Example: {program} solve {workload} {input}")
                .as_deref(),
            Some(r"Counts bits. Example: toy solve ones 'it'\''s'")
        );
        assert_eq!(
            w.written("e.g. {sets}; {program} inputs {workload} {set} > {file}, holds{sample}.")
                .as_deref(),
            Some("e.g. `p:0.5` or `all`; toy inputs ones p:0.5 > inputs.txt, holds.")
        );
        assert_eq!(w.written("a JSON array of {workload, variant}"), None);
    }

    #[test]
    fn help_texts_are_filled_down_to_the_arguments_of_subcommands() {
        let command = Command::new("x").about("{about}").subcommand(
            Command::new("sub")
                .long_about("run {program} sub")
                .arg(Arg::new("it").help("see `{program} list`")),
        );
        let mut filled = words().fill(command);
        assert_eq!(filled.get_about().unwrap().to_string(), "Counts bits");
        let sub = filled.find_subcommand_mut("sub").unwrap();
        assert_eq!(sub.get_long_about().unwrap().to_string(), "run toy sub");
        let arg = sub.get_arguments().next().unwrap();
        assert_eq!(arg.get_help().unwrap().to_string(), "see `toy list`");
    }
}
