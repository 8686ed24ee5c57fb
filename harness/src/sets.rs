//! Input sets as data. A workload declares each family of sets once (a name
//! pattern such as `density:P`, the parameters its records carry, the
//! sweeps over it), and everything else follows from that declaration:
//! expanding a sweep into its members, parsing a member's name into values
//! for `generate`, the parameters of every record, the help texts. Every
//! command expands names here, so a set named twice is measured once.

use reports::{Meaning, Parameter};
use std::fmt;
use std::str::FromStr;

/// A family of input sets, declared once in [`Workload::input_sets`].
///
/// The pattern is literal text with placeholders, upper-case words after a
/// `:` (`size:N`, `rank:R depth:D`); a pattern without one is a single set
/// (`seed`). A member's name is the pattern with each placeholder replaced
/// by a value, and [`Workload::generate`] receives it parsed, as a
/// [`Member`].
///
/// ```
/// use bitbench::InputSet;
///
/// // Members `p:0.1` … `p:0.9`; each record carries the parameter `density`
/// // (a line chart over it); `p-sweep` names all five.
/// let sets = [
///     InputSet::new("p:P", "bits set with probability P")
///         .parameters(&["density"])
///         .sweep("p-sweep", [0.1, 0.3, 0.5, 0.7, 0.9]),
///     InputSet::new("sparse", "one bit in 64"),
/// ];
/// assert_eq!(sets[0].pattern(), "p:P");
/// ```
///
/// [`Workload::input_sets`]: crate::Workload::input_sets
/// [`Workload::generate`]: crate::Workload::generate
#[derive(Clone, Debug, PartialEq)]
pub struct InputSet {
    pattern: &'static str,
    description: &'static str,
    parameters: Vec<&'static str>,
    meanings: Vec<Meaning>,
    text: bool,
    sweeps: Vec<Sweep>,
}

/// A named list of members, measured one record each.
#[derive(Clone, Debug, PartialEq)]
struct Sweep {
    name: &'static str,
    full: Vec<Vec<f64>>,
    /// The members `--quick` measures.
    quick: Vec<Vec<f64>>,
}

impl InputSet {
    /// A family of sets named by `pattern`, described in one line.
    pub fn new(pattern: &'static str, description: &'static str) -> InputSet {
        InputSet {
            pattern,
            description,
            parameters: Vec::new(),
            meanings: Vec::new(),
            text: false,
            sweeps: Vec::new(),
        }
    }

    /// A family whose names have a grammar of their own: every name no
    /// other set of the workload matches is handed to `generate` whole
    /// ([`Member::name`]), which parses it and rejects what it cannot read.
    /// `pattern` is only shown in help texts.
    pub fn text(pattern: &'static str, description: &'static str) -> InputSet {
        InputSet {
            text: true,
            ..InputSet::new(pattern, description)
        }
    }

    /// Records of these sets carry their values as parameters with these
    /// names, one per placeholder: the report draws one parameter as a line
    /// chart over it and two as a heatmap. Without this, records carry
    /// none and the sets are drawn as bars.
    pub fn parameters(mut self, names: &[&'static str]) -> InputSet {
        self.parameters = names.to_vec();
        self
    }

    /// What each parameter is, in the order of [`parameters`](Self::parameters),
    /// where its name does not say: a parameter `len` holding a buffer's
    /// length is [`Meaning::Bytes`], and its chart's axis ticks `8 B`, `64 B`
    /// … `1 MiB`. Without this the report infers it from the name
    /// (`bytes`, `size` are bytes; `density` a fraction; `depth`, `rank`
    /// depths; `n`, `elements` counts).
    ///
    /// ```
    /// use bitbench::{InputSet, Meaning};
    ///
    /// let set = InputSet::new("len:N", "N random bytes")
    ///     .parameters(&["len"])
    ///     .meanings(&[Meaning::Bytes]);
    /// # let _ = set;
    /// ```
    pub fn meanings(mut self, meanings: &[Meaning]) -> InputSet {
        self.meanings = meanings.to_vec();
        self
    }

    /// A sweep named `name` over a one-placeholder pattern: one member
    /// per value, each measured as its own record.
    pub fn sweep(mut self, name: &'static str, values: impl IntoIterator<Item = f64>) -> InputSet {
        let points: Vec<Vec<f64>> = values.into_iter().map(|v| vec![v]).collect();
        self.sweeps.push(Sweep {
            name,
            quick: points.clone(),
            full: points,
        });
        self
    }

    /// A sweep named `name` over a two-placeholder pattern: every pair of
    /// `(first, second)` values, and a coarser grid for `--quick`.
    pub fn grid(
        mut self,
        name: &'static str,
        full: (&[f64], &[f64]),
        quick: (&[f64], &[f64]),
    ) -> InputSet {
        let pairs = |(a, b): (&[f64], &[f64])| {
            a.iter()
                .flat_map(|&x| b.iter().map(move |&y| vec![x, y]))
                .collect()
        };
        self.sweeps.push(Sweep {
            name,
            full: pairs(full),
            quick: pairs(quick),
        });
        self
    }

    /// The name pattern, e.g. `density:P`.
    pub fn pattern(&self) -> &'static str {
        self.pattern
    }

    /// The one-line description.
    pub fn description(&self) -> &'static str {
        self.description
    }

    /// The help lines of this family: its pattern, then each sweep with
    /// the members it stands for.
    pub(crate) fn help(&self) -> Vec<(String, String)> {
        let mut lines = vec![(self.pattern.to_owned(), self.description.to_owned())];
        for s in &self.sweeps {
            let (Some(first), Some(last)) = (s.full.first(), s.full.last()) else {
                lines.push((s.name.to_owned(), "no sets".to_owned()));
                continue;
            };
            let (first, last) = (self.member_name(first), self.member_name(last));
            let mut text = format!("{first} … {last}, {} sets", s.full.len());
            if s.quick != s.full {
                text += &format!(" (--quick: {})", s.quick.len());
            }
            lines.push((s.name.to_owned(), text));
        }
        lines
    }

    /// The literal pieces of the pattern around its placeholders: one more
    /// than there are placeholders.
    fn literals(&self) -> Vec<&'static str> {
        let mut literals = Vec::new();
        let mut rest = self.pattern;
        let mut start = 0;
        while let Some(i) = rest[start..].find(':') {
            let at = start + i + 1;
            let len = rest[at..]
                .find(|c: char| !c.is_ascii_uppercase())
                .unwrap_or(rest.len() - at);
            if len == 0 {
                start = at;
                continue;
            }
            literals.push(&rest[..at]);
            rest = &rest[at + len..];
            start = 0;
        }
        literals.push(rest);
        literals
    }

    fn member_name(&self, values: &[f64]) -> String {
        let literals = self.literals();
        let mut name = literals[0].to_owned();
        for (v, lit) in values.iter().zip(&literals[1..]) {
            name += &format!("{v}{lit}");
        }
        name
    }

    /// Reads `name` as a member of this family: `None` when it does not
    /// have the pattern's shape, `Err` when a recorded parameter is not a
    /// number.
    fn parse(&self, name: &str) -> Option<Result<Member, String>> {
        let literals = self.literals();
        let mut rest = name.strip_prefix(literals[0])?;
        let mut texts = Vec::new();
        for (k, lit) in literals[1..].iter().enumerate() {
            let last = k + 2 == literals.len();
            let end = if last && lit.is_empty() {
                rest.len()
            } else if last {
                rest.strip_suffix(lit).map(str::len)?
            } else {
                rest.find(lit)?
            };
            if end == 0 {
                return None;
            }
            texts.push(rest[..end].to_owned());
            rest = &rest[end + lit.len()..];
        }
        if !rest.is_empty() {
            return None;
        }
        let member = Member {
            name: name.to_owned(),
            pattern: self.pattern,
            values: texts,
        };
        for i in 0..self.parameters.len().min(member.values.len()) {
            if let Err(e) = member.get::<f64>(i) {
                return Some(Err(e));
            }
        }
        Some(Ok(member))
    }
}

/// One input set, as [`Workload::generate`](crate::Workload::generate)
/// receives it: its name and the values of its pattern's placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    name: String,
    pattern: &'static str,
    values: Vec<String>,
}

impl Member {
    /// The set's name, e.g. `density:0.5`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The pattern of the family it belongs to, e.g. `density:P`: what a
    /// workload with several families matches on.
    pub fn pattern(&self) -> &'static str {
        self.pattern
    }

    /// The value of placeholder `i` (counted from 0) as a `T`, or a
    /// one-line reason naming the set.
    pub fn get<T: FromStr>(&self, i: usize) -> Result<T, String> {
        let text = self.values.get(i).ok_or_else(|| {
            format!(
                "{}: the pattern {} has no value {i}",
                self.name, self.pattern
            )
        })?;
        text.parse()
            .map_err(|_| format!("{}: '{text}' is not {}", self.name, kind::<T>()))
    }
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// What a value of type `T` is, in words: "a number", "an integer".
fn kind<T>() -> String {
    let name = std::any::type_name::<T>();
    let name = name.rsplit("::").next().unwrap_or(name);
    let digits =
        |rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) || rest == "size";
    match name.split_at(1) {
        ("u", rest) if digits(rest) => "a non-negative integer".to_owned(),
        ("i", rest) if digits(rest) => "an integer".to_owned(),
        ("f", rest) if digits(rest) => "a number".to_owned(),
        _ => format!("a {name}"),
    }
}

/// Reads one set name (not a sweep) against `sets`.
pub(crate) fn parse(sets: &[InputSet], name: &str) -> Result<Member, String> {
    let exact = sets.iter().filter(|s| !s.text).find_map(|s| s.parse(name));
    match exact {
        Some(member) => member,
        None => match sets.iter().find(|s| s.text) {
            Some(s) => Ok(Member {
                name: name.to_owned(),
                pattern: s.pattern,
                values: Vec::new(),
            }),
            None => Err(unknown(sets, name)),
        },
    }
}

/// Expands `names` (sweeps into their members, `quick`'s where that
/// differs) and parses each; a set named twice, alone or in a sweep, is
/// kept once, where it first appears.
pub(crate) fn expand(
    sets: &[InputSet],
    names: &[String],
    quick: bool,
) -> Result<Vec<Member>, String> {
    let mut members: Vec<Member> = Vec::new();
    for name in names {
        let swept = sets.iter().find_map(|s| {
            let sweep = s.sweeps.iter().find(|w| w.name == name)?;
            let points = if quick { &sweep.quick } else { &sweep.full };
            Some(
                points
                    .iter()
                    .map(|p| parse(sets, &s.member_name(p)))
                    .collect(),
            )
        });
        let found: Vec<Result<Member, String>> = swept.unwrap_or_else(|| vec![parse(sets, name)]);
        for member in found {
            let member = member?;
            if !members.iter().any(|m| m.name == member.name) {
                members.push(member);
            }
        }
    }
    Ok(members)
}

/// The parameters a record of set `name` carries, in the declared order,
/// each with its declared meaning.
pub(crate) fn parameters(sets: &[InputSet], name: &str) -> Vec<Parameter> {
    let Some((set, member)) = sets
        .iter()
        .filter(|s| !s.text)
        .find_map(|s| Some((s, s.parse(name)?.ok()?)))
    else {
        return Vec::new();
    };
    let value = |(i, p): (usize, &&'static str)| {
        Some(Parameter {
            name: (*p).to_owned(),
            value: member.get(i).ok()?,
            meaning: set.meanings.get(i).copied(),
        })
    };
    set.parameters
        .iter()
        .enumerate()
        .filter_map(value)
        .collect()
}

fn unknown(sets: &[InputSet], name: &str) -> String {
    let known: Vec<String> = sets
        .iter()
        .flat_map(|s| s.help().into_iter().map(|(name, _)| name))
        .collect();
    format!("unknown input set '{name}' (known: {})", known.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets() -> Vec<InputSet> {
        vec![
            InputSet::new("density:P", "cells set with probability P")
                .parameters(&["density"])
                .sweep("density-sweep", (1..=3).map(|i| f64::from(i) / 4.0)),
            InputSet::new("rank:R depth:D", "boards of rank R at depth D")
                .parameters(&["rank", "depth"])
                .meanings(&[Meaning::Count, Meaning::Depth])
                .grid("rank-depth", (&[0.0, 3.0], &[6.0, 12.0]), (&[0.0], &[6.0])),
            InputSet::new("official:K", "test K").sweep("official", [1.0, 2.0]),
            InputSet::new("seed", "the seed set"),
        ]
    }

    fn names(members: &[Member]) -> Vec<&str> {
        members.iter().map(Member::name).collect()
    }

    #[test]
    fn sweeps_expand_and_duplicates_are_kept_once() {
        let sets = sets();
        let named: Vec<String> = ["density:0.5", "density-sweep", "seed", "seed"]
            .map(String::from)
            .to_vec();
        let members = expand(&sets, &named, false).unwrap();
        assert_eq!(
            names(&members),
            ["density:0.5", "density:0.25", "density:0.75", "seed"]
        );
        let grid = expand(&sets, &["rank-depth".to_owned()], false).unwrap();
        assert_eq!(
            names(&grid),
            [
                "rank:0 depth:6",
                "rank:0 depth:12",
                "rank:3 depth:6",
                "rank:3 depth:12"
            ]
        );
        let quick = expand(&sets, &["rank-depth".to_owned()], true).unwrap();
        assert_eq!(names(&quick), ["rank:0 depth:6"]);
    }

    #[test]
    fn members_parse_into_values_and_parameters() {
        let sets = sets();
        let m = parse(&sets, "rank:3 depth:20").unwrap();
        assert_eq!(m.pattern(), "rank:R depth:D");
        assert_eq!((m.get::<u32>(0), m.get::<u32>(1)), (Ok(3), Ok(20)));
        let found: Vec<_> = parameters(&sets, "rank:3 depth:20")
            .into_iter()
            .map(|p| (p.name, p.value, p.meaning))
            .collect();
        assert_eq!(
            found,
            [
                ("rank".to_owned(), 3.0, Some(Meaning::Count)),
                ("depth".to_owned(), 20.0, Some(Meaning::Depth))
            ]
        );
        assert_eq!(parameters(&sets, "official:3"), []);
        assert_eq!(parameters(&sets, "seed"), []);
        let k = parse(&sets, "official:x").unwrap();
        assert_eq!(
            k.get::<usize>(0).unwrap_err(),
            "official:x: 'x' is not a non-negative integer"
        );
        assert!(
            parse(&sets, "density:x")
                .unwrap_err()
                .contains("'x' is not")
        );
        let e = parse(&sets, "densty:0.5").unwrap_err();
        assert!(
            e.starts_with("unknown input set 'densty:0.5' (known: density:P, density-sweep"),
            "{e}"
        );
        assert!(parse(&sets, "density:").is_err());
    }

    #[test]
    fn text_sets_take_every_other_name() {
        let sets = [
            InputSet::new("seed", "the seed set"),
            InputSet::text("CONFIG/random:PLIES", "positions"),
        ];
        assert_eq!(parse(&sets, "seed").unwrap().pattern(), "seed");
        let m = parse(&sets, "7x6k4/random:20").unwrap();
        assert_eq!(
            (m.name(), m.pattern()),
            ("7x6k4/random:20", "CONFIG/random:PLIES")
        );
    }

    #[test]
    fn help_names_each_sweep_with_its_ends() {
        let help = sets()[1].help();
        assert_eq!(help[1].0, "rank-depth");
        assert_eq!(
            help[1].1,
            "rank:0 depth:6 … rank:3 depth:12, 4 sets (--quick: 1)"
        );
    }
}
