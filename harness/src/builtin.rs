//! The built-in suite: our six workloads over the kernel crates in
//! `impls/`, registered through the same public entry an outside crate
//! uses (the `bitbench` binary is `cli::main(WORKLOADS, origin!())`).
//!
//! Adding a built-in workload is one adapter module here and one line in
//! [`WORKLOADS`].

pub mod cephalopod;
pub mod components;
pub mod connectx;
pub mod meteor;

use crate::dyn_workload::DynWorkload;

/// The suite's workloads, one line each.
pub static WORKLOADS: &[&dyn DynWorkload] = &[
    &components::ALL,
    &components::GROUPS4,
    &connectx::WIN,
    &connectx::PERFT,
    &meteor::METEOR,
    &cephalopod::CEPHALOPOD,
    // new workloads: one line above this comment
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::Suite;

    /// Availability is read from each variant's declared CPU features, not
    /// by building it: the declaration must say exactly when it builds.
    #[test]
    fn every_workload_is_registered_soundly() {
        for w in WORKLOADS {
            assert_eq!(Suite::check(*w), Ok(()), "{}", w.name());
        }
    }

    /// The committed seed corpus decodes through the built-in decoders and
    /// passes: the decoders still read the bytes they were written for.
    #[cfg(feature = "fuzz")]
    #[test]
    fn the_seed_corpus_passes() {
        use crate::fuzz::check;
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
        let each = |target: &str, f: &dyn Fn(&[u8])| {
            let dir = corpus.join(target);
            let mut n = 0;
            // Only the committed seeds: fuzzing adds its finds beside them.
            for entry in std::fs::read_dir(&dir).expect("the corpus folder") {
                let path = entry.expect("an entry").path();
                if path
                    .file_name()
                    .is_some_and(|f| f.to_string_lossy().starts_with("seed-"))
                {
                    f(&std::fs::read(path).expect("a seed"));
                    n += 1;
                }
            }
            assert!(n > 0, "{} is empty", dir.display());
        };
        each("components", &|b| {
            check(&components::ALL, b);
            check(&components::GROUPS4, b);
        });
        each("connectx", &|b| check(&connectx::WIN, b));
        each("connectx-perft", &|b| check(&connectx::PERFT, b));
        each("meteor", &|b| check(&meteor::METEOR, b));
        each("cephalopod", &|b| check(&cephalopod::CEPHALOPOD, b));
    }
}
