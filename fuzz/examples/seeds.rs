//! Writes the seed corpus, `corpus/TARGET/seed-LABEL`, from the spec's and
//! the impls crates' edge cases, checking that each file decodes back to the
//! input it was written for. Run from `fuzz/`: `cargo run --example seeds`.

use arbitrary::{Arbitrary, Unstructured};
use bitbench_fuzz::{cephalopod, components, connectx, meteor};
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

fn write<T>(target: &str, seeds: Vec<(String, T, Vec<u8>)>)
where
    T: for<'a> Arbitrary<'a> + Debug + PartialEq,
{
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    std::fs::create_dir_all(&dir).expect("create the corpus folder");
    for old in std::fs::read_dir(&dir).expect("read the corpus folder") {
        let old = old.expect("corpus entry").path();
        if old
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
        {
            std::fs::remove_file(old).expect("remove an old seed");
        }
    }
    let count = seeds.len();
    for (label, case, bytes) in seeds {
        let back = T::arbitrary_take_rest(Unstructured::new(&bytes)).expect("decodes");
        assert_eq!(
            back, case,
            "seed {target}/{label} does not decode to its input"
        );
        std::fs::write(dir.join(format!("seed-{}", slug(&label))), &bytes).expect("write seed");
    }
    println!("{target}: {count} seeds");
}

fn main() {
    write(
        "components",
        components::seeds()
            .into_iter()
            .map(|(l, c)| {
                let b = c.encode();
                (l, c, b)
            })
            .collect(),
    );
    write(
        "meteor",
        meteor::seeds()
            .into_iter()
            .map(|(l, c)| {
                let b = c.encode().expect("seeds encode");
                (l, c, b)
            })
            .collect(),
    );
    write(
        "cephalopod",
        cephalopod::seeds()
            .into_iter()
            .map(|(l, c)| {
                let b = c.encode().expect("seeds encode");
                (l, c, b)
            })
            .collect(),
    );
    write(
        "connectx",
        connectx::win_seeds()
            .into_iter()
            .map(|(l, c)| {
                let b = c.encode();
                (l, c, b)
            })
            .collect(),
    );
    write(
        "connectx-perft",
        connectx::perft_seeds()
            .into_iter()
            .map(|(l, c)| {
                let b = c.encode().expect("seeds encode");
                (l, c, b)
            })
            .collect(),
    );
}
