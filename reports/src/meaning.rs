//! What a swept parameter is: a size in bytes, a count, a fraction or a
//! depth.
//!
//! A chart's axis follows from it (bytes tick in binary units at powers of
//! two, counts and depths as plain numbers, a fraction on a linear axis),
//! and so, later, does whether a sweep is a size that a growth law can be
//! fitted to. A workload may declare it with its input sets; where it does
//! not, [`Meaning::infer`] reads it from the parameter's name, so records
//! written before meanings existed still get the right axis.

use serde::{Deserialize, Serialize};

/// What a parameter's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Meaning {
    /// A size in bytes (a buffer's length): binary units, powers of two.
    Bytes,
    /// A number of things (elements, nodes, items): plain numbers.
    Count,
    /// A share from 0 to 1 (a density, a probability): a linear axis.
    Fraction,
    /// A depth or a rank (a search's plies, a tree's levels): a linear
    /// axis of whole numbers, where cost may grow exponentially.
    Depth,
}

/// Names read as each meaning: a whole name, or its last `_`-separated word
/// (`buffer_bytes`, `max_depth`).
const NAMES: [(Meaning, &[&str]); 4] = [
    (
        Meaning::Bytes,
        &["bytes", "size", "len", "length", "buffer", "kib", "mib"],
    ),
    (
        Meaning::Count,
        &[
            "n", "count", "elements", "items", "nodes", "keys", "entries", "rows", "words",
        ],
    ),
    (
        Meaning::Fraction,
        &[
            "density",
            "fraction",
            "probability",
            "p",
            "share",
            "ratio",
            "load",
        ],
    ),
    (Meaning::Depth, &["depth", "rank", "level", "plies", "ply"]),
];

impl Meaning {
    /// The meaning a parameter's name suggests, if any: `bytes` and
    /// `size` are bytes, `density` a fraction, `depth` and `rank` depths,
    /// `n` and `elements` counts.
    pub fn infer(name: &str) -> Option<Meaning> {
        let name = name.to_ascii_lowercase();
        let last = name.rsplit(['_', '-', ' ']).next().unwrap_or(&name);
        NAMES
            .iter()
            .find(|(_, words)| words.contains(&name.as_str()) || words.contains(&last))
            .map(|(m, _)| *m)
    }

    /// Its name in results files and texts: `bytes`, `count`, `fraction`,
    /// `depth`.
    pub fn as_str(self) -> &'static str {
        match self {
            Meaning::Bytes => "bytes",
            Meaning::Count => "count",
            Meaning::Fraction => "fraction",
            Meaning::Depth => "depth",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_a_parameter_is() {
        let cases = [
            ("bytes", Some(Meaning::Bytes)),
            ("Size", Some(Meaning::Bytes)),
            ("buffer_bytes", Some(Meaning::Bytes)),
            ("density", Some(Meaning::Fraction)),
            ("depth", Some(Meaning::Depth)),
            ("max-depth", Some(Meaning::Depth)),
            ("rank", Some(Meaning::Depth)),
            ("n", Some(Meaning::Count)),
            ("elements", Some(Meaning::Count)),
            ("seed", None),
            ("temperature", None),
        ];
        for (name, meaning) in cases {
            assert_eq!(Meaning::infer(name), meaning, "{name}");
        }
    }
}
