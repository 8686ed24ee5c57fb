//! Writes the seed corpus, `corpus/TARGET/seed-LABEL`, from the spec's and
//! the impls crates' edge cases, checking that each file decodes back to the
//! input it was written for. Run from `fuzz/`: `cargo run --example seeds`.
//! With `--check` it writes nothing and warns when the committed seeds differ
//! from what it would write (after a decoder or edge-case change); a warning,
//! not a failure, so a new edge case elsewhere never breaks CI.

use arbitrary::{Arbitrary, Unstructured};
use bitbench_fuzz::{cephalopod, components, connectx, meteor};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::Path;

/// A file name from a label: lowercase letters, digits and dashes.
fn slug(label: &str) -> String {
    let mut s = String::new();
    for ch in label.chars() {
        if ch.is_ascii_alphanumeric() {
            s.push(ch.to_ascii_lowercase());
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_matches('-').to_owned()
}

/// The seed files in `dir`, by name.
fn existing(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.expect("corpus entry").path())
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            name.starts_with("seed-")
                .then(|| (name, std::fs::read(&p).expect("read a seed")))
        })
        .collect()
}

/// Writes (or with `check`, compares) one target's seeds, each given as its
/// label, the case and the bytes meant to decode to it; returns whether the
/// committed seeds were already these.
fn write<T>(target: &str, seeds: Vec<(String, T, Vec<u8>)>, check: bool) -> bool
where
    T: for<'a> Arbitrary<'a> + Debug + PartialEq,
{
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut wanted = BTreeMap::new();
    for (label, case, bytes) in seeds {
        let back = T::arbitrary_take_rest(Unstructured::new(&bytes)).expect("decodes");
        assert_eq!(
            back, case,
            "seed {target}/{label} does not decode to its input"
        );
        wanted.insert(format!("seed-{}", slug(&label)), bytes);
    }
    let have = existing(&dir);
    if check {
        if have != wanted {
            eprintln!(
                "warning: {target}: the committed seeds are stale: \
                 run `cargo run --example seeds` in fuzz/"
            );
        }
        return have == wanted;
    }
    std::fs::create_dir_all(&dir).expect("create the corpus folder");
    for name in have.keys() {
        std::fs::remove_file(dir.join(name)).expect("remove an old seed");
    }
    for (name, bytes) in &wanted {
        std::fs::write(dir.join(name), bytes).expect("write a seed");
    }
    println!("{target}: {} seeds", wanted.len());
    true
}

/// Pairs each case with its encoding; `None` encodings are a bug in `seeds()`.
fn encoded<T>(
    cases: Vec<(String, T)>,
    encode: impl Fn(&T) -> Option<Vec<u8>>,
) -> Vec<(String, T, Vec<u8>)> {
    cases
        .into_iter()
        .map(|(label, case)| {
            let bytes = encode(&case).unwrap_or_else(|| panic!("seed {label} does not encode"));
            (label, case, bytes)
        })
        .collect()
}

fn main() {
    let check = std::env::args().any(|a| a == "--check");
    let fresh = [
        write(
            "components",
            encoded(components::seeds(), |c| Some(c.encode())),
            check,
        ),
        write(
            "meteor",
            encoded(meteor::seeds(), meteor::Case::encode),
            check,
        ),
        write(
            "cephalopod",
            encoded(cephalopod::seeds(), cephalopod::Case::encode),
            check,
        ),
        write(
            "connectx",
            encoded(connectx::win_seeds(), |c| Some(c.encode())),
            check,
        ),
        write(
            "connectx-perft",
            encoded(connectx::perft_seeds(), connectx::PerftCase::encode),
            check,
        ),
    ];
    if check && fresh.iter().all(|&ok| ok) {
        println!("seeds: up to date");
    }
}
