//! The environment a results file says its kernels ran with
//! ([`ResultsFile::environment`]): one line for a report, and where two
//! runs differ.
//!
//! `RUSTFLAGS` changes the code measured and `RUST_BACKTRACE` what every
//! error value built with `std::backtrace` costs, so two files measured
//! under different values may differ for that reason alone; `compare`
//! and `ab` say so beside their verdicts.

use crate::results::{ENVIRONMENT, ResultsFile};
use std::collections::BTreeMap;

/// A recorded environment as one line, `NAME=VALUE` for each variable set
/// (`none of …` when none is, `not recorded` for files before schema 7).
pub fn describe(environment: Option<&BTreeMap<String, String>>) -> String {
    match environment {
        None => "not recorded".to_owned(),
        Some(env) if env.is_empty() => format!("none of {} set", ENVIRONMENT.join(", ")),
        Some(env) => env
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// One line naming the variables two recorded environments disagree on,
/// `NAME A vs B` (`unset` where a side has none), or `None` when they
/// agree or either is not recorded.
pub fn differences(
    a: Option<&BTreeMap<String, String>>,
    b: Option<&BTreeMap<String, String>>,
) -> Option<String> {
    let (a, b) = (a?, b?);
    let value = |env: &BTreeMap<String, String>, name: &str| {
        env.get(name)
            .map_or("unset".to_owned(), |v| format!("{v:?}"))
    };
    let differ: Vec<String> = ENVIRONMENT
        .iter()
        .filter(|name| a.get(**name) != b.get(**name))
        .map(|name| format!("{name} {} vs {}", value(a, name), value(b, name)))
        .collect();
    (!differ.is_empty()).then(|| differ.join(", "))
}

/// [`differences`] between two results files.
pub fn between(base: &ResultsFile, new: &ResultsFile) -> Option<String> {
    differences(base.environment.as_ref(), new.environment.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn differences_name_each_variable_and_both_values() {
        let a = env(&[("RUST_BACKTRACE", "1"), ("RUST_LIB_BACKTRACE", "0")]);
        let b = env(&[
            ("RUST_LIB_BACKTRACE", "0"),
            ("RUSTFLAGS", "-C target-cpu=native"),
        ]);
        assert_eq!(
            differences(Some(&a), Some(&b)).as_deref(),
            Some("RUSTFLAGS unset vs \"-C target-cpu=native\", RUST_BACKTRACE \"1\" vs unset")
        );
        assert_eq!(differences(Some(&a), Some(&a)), None);
        assert_eq!(
            differences(None, Some(&a)),
            None,
            "not recorded is no difference"
        );
    }

    #[test]
    fn a_description_lists_what_is_set_and_says_when_nothing_is_known() {
        let a = env(&[("RUST_BACKTRACE", "1"), ("RUST_LIB_BACKTRACE", "0")]);
        assert_eq!(describe(Some(&a)), "RUST_BACKTRACE=1 RUST_LIB_BACKTRACE=0");
        assert_eq!(describe(None), "not recorded");
        assert!(describe(Some(&BTreeMap::new())).starts_with("none of RUSTFLAGS"));
    }
}
