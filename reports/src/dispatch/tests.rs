//! The rules of [`decide`], [`shifts`] and [`table_text`], each on
//! synthetic results files built here.

use super::boundary::significant;
use super::*;
use crate::interval::Interval;
use crate::results::{Machine, Metric, Parameter, Record, ResultsFile, Status};

/// An ok time record of workload `w`: `median ± half` ns per byte, on
/// set `set` with `bytes` = `x` when given.
fn timed(variant: &str, set: &str, x: Option<f64>, median: f64, half: f64) -> Record {
    Record {
        workload: "w".into(),
        variant: variant.into(),
        input_set: set.into(),
        target_cpu: "default".into(),
        metric: Metric::Time,
        unit: "ns/byte".into(),
        median,
        interval: Some(Interval {
            low: median - half,
            high: median + half,
        }),
        parameters: x
            .map(|value| Parameter {
                name: "bytes".into(),
                value,
                meaning: None,
            })
            .into_iter()
            .collect(),
        ..Record::default()
    }
}

/// A file of `records` measured on machine `name`.
fn file(name: &str, records: Vec<Record>) -> ResultsFile {
    ResultsFile {
        date: "2026-11-22T10:00:00Z".into(),
        machine: Machine {
            name: name.into(),
            cpu_model: format!("{name} CPU"),
            ..Machine::default()
        },
        records,
        ..ResultsFile::default()
    }
}

/// A spec of workload `w` with `variants` (name, features) by `parameter`.
fn spec(variants: &[(&str, &[&str])], parameter: Option<&str>) -> Spec {
    Spec {
        workload: "w".into(),
        parameter: parameter.map(str::to_owned),
        variants: variants
            .iter()
            .map(|(name, features)| VariantSpec {
                name: (*name).to_owned(),
                features: features.iter().map(|f| (*f).to_owned()).collect(),
            })
            .collect(),
        ..Spec::default()
    }
}

/// `decide` over `files`, labelled by machine.
fn decided(spec: &Spec, files: &[ResultsFile]) -> Decision {
    let labelled: Vec<(String, &ResultsFile)> = files
        .iter()
        .map(|f| (format!("{}.json", f.machine.name), f))
        .collect();
    decide(spec, &labelled).unwrap()
}

/// The one level's tiers.
fn tiers(d: &Decision) -> &[TierDecision] {
    assert_eq!(d.levels.len(), 1);
    &d.levels[0].tiers
}

/// The variant a table made from `d` runs for a CPU with `features`: the
/// first tier it qualifies for, the range holding `regime`.
fn runs(
    d: &Decision,
    target_cpu: &str,
    features: &[String],
    regime: Option<f64>,
) -> Option<String> {
    let level = d.levels.iter().find(|l| l.target_cpu == target_cpu)?;
    let tier = level
        .tiers
        .iter()
        .find(|t| t.features.iter().all(|f| features.contains(f)))?;
    let x = regime.unwrap_or(0.0);
    let range = tier.ranges.iter().find(|(below, _)| x < *below)?;
    Some(range.1.clone())
}

const SCALAR: (&str, &[&str]) = ("scalar", &[]);
const AVX2: (&str, &[&str]) = ("avx2", &["avx2"]);

#[test]
fn within_the_intervals_the_simpler_variant_wins_beyond_them_the_faster() {
    let s = spec(&[SCALAR, AVX2], None);
    let overlapping = file(
        "lab",
        vec![
            timed("scalar", "a", None, 10.0, 1.0),
            timed("avx2", "a", None, 9.5, 1.0),
        ],
    );
    let d = decided(&s, &[overlapping]);
    let top = &tiers(&d)[0];
    assert_eq!(top.features, ["avx2"]);
    assert_eq!(
        top.cells[0].chosen, "scalar",
        "slower, but within the noise"
    );
    assert!(top.cells[0].candidate("avx2").unwrap().tied);

    let apart = file(
        "lab",
        vec![
            timed("scalar", "a", None, 10.0, 0.5),
            timed("avx2", "a", None, 8.0, 0.5),
        ],
    );
    let d = decided(&s, &[apart]);
    let [top, any] = tiers(&d) else {
        panic!("two tiers")
    };
    assert_eq!(top.cells[0].chosen, "avx2");
    assert_eq!(top.cells[0].loss, 0.0);
    let (runner_up, margin) = top.cells[0].margin.clone().unwrap();
    assert_eq!(runner_up, "scalar");
    assert!((margin - 1.25).abs() < 1e-12, "{margin}");
    assert!(any.features.is_empty());
    assert_eq!(any.cells[0].chosen, "scalar");
    assert_eq!(any.ranges, [(f64::INFINITY, "scalar".to_owned())]);
}

#[test]
fn machines_that_disagree_get_the_least_worst_case_loss_and_are_named() {
    let s = spec(&[("a", &[]), ("b", &[]), ("slow", &[])], None);
    // lab-2 benched fewer variants (not `slow`): it still weighs in, and
    // `slow` is left out instead. Weighing lab-1 alone would choose a and
    // hide that lab-2 loses 33 % with it.
    let one = file(
        "lab-1",
        vec![
            timed("a", "s", None, 10.0, 0.1),
            timed("b", "s", None, 12.0, 0.1),
            timed("slow", "s", None, 50.0, 0.1),
        ],
    );
    let two = file(
        "lab-2",
        vec![
            timed("a", "s", None, 20.0, 0.1),
            timed("b", "s", None, 15.0, 0.1),
        ],
    );
    let d = decided(&s, &[one, two]);
    let cell = &tiers(&d)[0].cells[0];
    // a loses 20/15 - 1 = 33 % on lab-2; b loses 12/10 - 1 = 20 % on lab-1.
    assert_eq!(cell.chosen, "b");
    assert!((cell.loss - 0.2).abs() < 1e-12);
    assert!((cell.candidate("a").unwrap().worst_loss - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(cell.disagree, [("lab-1".to_owned(), "a".to_owned())]);
    assert_eq!(cell.scenarios.len(), 2, "{cell:?}");
    assert!(cell.candidate("slow").is_none(), "{cell:?}");
    assert_eq!(
        cell.unweighed,
        [("slow".to_owned(), vec!["lab-2".to_owned()])]
    );
    assert!(
        table_text(&d).contains("    not weighed: slow (not measured on lab-2)\n"),
        "{}",
        table_text(&d)
    );
    assert_eq!(d.sources.len(), 2);
    assert_eq!(d.sources[1].machine, "lab-2");
}

#[test]
fn a_variant_is_chosen_only_in_tiers_with_its_features() {
    let s = spec(
        &[
            SCALAR,
            ("avx512", &["avx512f", "avx512vpopcntdq"]),
            AVX2,
            ("popcnt", &["popcnt"]),
        ],
        None,
    );
    // lab-1 has AVX-512; lab-2 has not, so it measured no avx512 records.
    let one = file(
        "lab-1",
        vec![
            timed("scalar", "s", None, 40.0, 0.1),
            timed("avx512", "s", None, 5.0, 0.1),
            timed("avx2", "s", None, 10.0, 0.1),
            timed("popcnt", "s", None, 20.0, 0.1),
        ],
    );
    let two = file(
        "lab-2",
        vec![
            timed("scalar", "s", None, 40.0, 0.1),
            timed("avx2", "s", None, 11.0, 0.1),
            timed("popcnt", "s", None, 20.0, 0.1),
        ],
    );
    let d = decided(&s, &[one, two]);
    let got: Vec<(Vec<&str>, &str, usize)> = tiers(&d)
        .iter()
        .map(|t| {
            let features = t.features.iter().map(String::as_str).collect();
            (
                features,
                t.cells[0].chosen.as_str(),
                t.cells[0].scenarios.len(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                vec!["popcnt", "avx2", "avx512f", "avx512vpopcntdq"],
                "avx512",
                1
            ),
            (vec!["popcnt", "avx2"], "avx2", 2),
            (vec!["popcnt"], "popcnt", 2),
            (vec![], "scalar", 2),
        ]
    );
    for t in tiers(&d) {
        let chosen = &t.cells[0].chosen;
        let needs = &s
            .variants
            .iter()
            .find(|v| v.name == *chosen)
            .unwrap()
            .features;
        assert!(needs.iter().all(|f| t.features.contains(f)), "{chosen}");
        for c in &t.cells[0].candidates {
            let needs = &s
                .variants
                .iter()
                .find(|v| v.name == c.variant)
                .unwrap()
                .features;
            assert!(
                needs.iter().all(|f| t.features.contains(f)),
                "{}",
                c.variant
            );
        }
    }
}

#[test]
fn a_tier_that_adds_no_measured_variant_is_left_out() {
    // avx2 is listed but never measured: no tier of its own.
    let s = spec(&[SCALAR, AVX2, ("popcnt", &["popcnt"])], None);
    let f = file(
        "lab",
        vec![
            timed("scalar", "s", None, 10.0, 0.1),
            timed("popcnt", "s", None, 5.0, 0.1),
        ],
    );
    let d = decided(&s, &[f]);
    let features: Vec<&[String]> = tiers(&d).iter().map(|t| t.features.as_slice()).collect();
    assert_eq!(features, [&["popcnt".to_owned()][..], &[]]);
}

#[test]
fn a_variant_ruled_out_on_a_set_is_never_chosen_at_its_regime() {
    let mut s = spec(&[("a", &[]), ("b", &[])], Some("bytes"));
    s.ruled_out.push(RuledOut {
        variant: "b".into(),
        input_set: "small".into(),
        reason: "impractical below 1 KiB".into(),
    });
    let f = file(
        "lab",
        vec![
            timed("a", "small", Some(64.0), 10.0, 0.1),
            timed("b", "small", Some(64.0), 5.0, 0.1),
            timed("a", "large", Some(4096.0), 10.0, 0.1),
            timed("b", "large", Some(4096.0), 5.0, 0.1),
        ],
    );
    let d = decided(&s, &[f]);
    let cells = &tiers(&d)[0].cells;
    assert_eq!(cells[0].regime, Some(64.0));
    assert_eq!(cells[0].chosen, "a");
    assert!(cells[0].candidate("b").is_none());
    assert_eq!(cells[0].margin, None, "the only candidate");
    assert_eq!(cells[1].chosen, "b");
}

#[test]
fn a_variant_that_failed_in_any_file_is_never_chosen() {
    let s = spec(&[("a", &[]), ("b", &[])], None);
    let good = file(
        "lab-1",
        vec![
            timed("a", "s", None, 10.0, 0.1),
            timed("b", "s", None, 5.0, 0.1),
        ],
    );
    let mut wrong = timed("b", "t", None, 0.0, 0.0);
    wrong.status = Status::Error;
    let bad = file("lab-2", vec![timed("a", "t", None, 10.0, 0.1), wrong]);
    let d = decided(&s, &[good, bad]);
    let cell = &tiers(&d)[0].cells[0];
    assert_eq!(cell.chosen, "a");
    assert!(cell.candidate("b").is_none());
}

#[test]
fn a_boundary_lies_where_the_interpolated_log_ratio_crosses_zero() {
    let s = spec(&[("a", &[]), ("b", &[])], Some("bytes"));
    let f = file(
        "lab",
        vec![
            timed("a", "64", Some(64.0), 1.0, 0.01),
            timed("b", "64", Some(64.0), 2.0, 0.01),
            timed("a", "1k", Some(1024.0), 3.0, 0.01),
            timed("b", "1k", Some(1024.0), 1.0, 0.01),
        ],
    );
    let d = decided(&s, &[f]);
    let (r1, r2) = ((1.0f64 / 2.0).ln(), 3.0f64.ln());
    let t = r1 / (r1 - r2);
    let x = (64f64.ln() + t * (1024f64.ln() - 64f64.ln())).exp();
    let expected = format!("{x:.2e}").parse::<f64>().unwrap();
    assert!(expected > 64.0 && expected < 1024.0, "{expected}");
    assert_eq!(
        tiers(&d)[0].ranges,
        [(expected, "a".to_owned()), (f64::INFINITY, "b".to_owned())]
    );
}

#[test]
fn without_a_crossing_the_boundary_is_the_geometric_mean() {
    // At 64 B the two tie and the simpler a wins though slower: the log
    // ratio is positive on both sides, so it never crosses.
    let s = spec(&[("a", &[]), ("b", &["avx2"])], Some("bytes"));
    let f = file(
        "lab",
        vec![
            timed("a", "64", Some(64.0), 1.05, 0.1),
            timed("b", "64", Some(64.0), 1.0, 0.1),
            timed("a", "1k", Some(1024.0), 3.0, 0.01),
            timed("b", "1k", Some(1024.0), 1.0, 0.01),
        ],
    );
    let d = decided(&s, &[f]);
    assert_eq!(tiers(&d)[0].ranges[0], (256.0, "a".to_owned()));
    assert_eq!(significant(3143.68, 3), 3140.0);
}

#[test]
fn one_cell_per_regime_and_the_best_fixed_variant_per_tier() {
    let s = spec(&[("a", &[]), ("b", &[]), ("c", &[])], Some("bytes"));
    let mut records = Vec::new();
    // a wins small, c wins large, b is never far off: b is the best fixed.
    for (x, a, b, c) in [
        (8.0, 1.0, 1.3, 3.0),
        (512.0, 2.0, 1.2, 1.5),
        (65536.0, 4.0, 1.5, 1.0),
    ] {
        let set = format!("{x}");
        records.push(timed("a", &set, Some(x), a, 0.01));
        records.push(timed("b", &set, Some(x), b, 0.01));
        records.push(timed("c", &set, Some(x), c, 0.01));
    }
    records.push(timed("a", "plain", None, 1.0, 0.01));
    let d = decided(&s, &[file("lab", records)]);
    let tier = &tiers(&d)[0];
    let chosen: Vec<(Option<f64>, &str)> = tier
        .cells
        .iter()
        .map(|c| (c.regime, c.chosen.as_str()))
        .collect();
    assert_eq!(
        chosen,
        [(Some(8.0), "a"), (Some(512.0), "b"), (Some(65536.0), "c")]
    );
    assert_eq!(tier.fixed.0, "b");
    assert!((tier.fixed.1 - 0.5).abs() < 1e-12, "{:?}", tier.fixed);
    assert!((tier.cells[0].fixed_loss - 0.3).abs() < 1e-12);
    assert_eq!(tier.cells[1].fixed_loss, 0.0);
    assert_eq!(tier.ranges.len(), 3);
}

#[test]
fn without_time_records_there_is_no_decision() {
    let s = spec(&[("a", &[])], None);
    let mut counted = timed("a", "s", None, 10.0, 0.1);
    counted.metric = Metric::Instructions;
    let f = file("lab", vec![counted]);
    let err = decide(&s, &[("lab.json".into(), &f)]).unwrap_err();
    assert!(err.contains("no results file has time records"), "{err}");
    let other = file("lab", vec![timed("z", "s", None, 10.0, 0.1)]);
    let err = decide(&s, &[("lab.json".into(), &other)]).unwrap_err();
    assert!(err.contains("for its variants (a)"), "{err}");
    assert!(!err.contains('\n'));
}

/// Results where a wins small inputs and b large ones, b's time at 1 KiB
/// being `b_large`.
fn crossover(b_large: f64, half: f64) -> ResultsFile {
    file(
        "lab",
        vec![
            timed("a", "64", Some(64.0), 1.0, 0.01),
            timed("b", "64", Some(64.0), 2.0, 0.01),
            timed("a", "1k", Some(1024.0), 1.0, half),
            timed("b", "1k", Some(1024.0), b_large, half),
        ],
    )
}

#[test]
fn shifts_are_where_new_results_choose_otherwise_beyond_the_intervals() {
    let s = spec(&[("a", &[]), ("b", &[])], Some("bytes"));
    // The old table: a everywhere (b was slower at 1 KiB too).
    let old = decided(&s, &[crossover(1.5, 0.01)]);
    assert_eq!(tiers(&old)[0].ranges, [(f64::INFINITY, "a".to_owned())]);
    let was = |cpu: &str, features: &[String], x: Option<f64>| runs(&old, cpu, features, x);

    let new = decided(&s, &[crossover(0.5, 0.01)]);
    let found = shifts(&new, was);
    assert_eq!(
        found,
        [Shift {
            target_cpu: "default".into(),
            features: Vec::new(),
            regime: Some(1024.0),
            old: "a".into(),
            new: "b".into(),
            margin: 2.0,
        }]
    );

    assert_eq!(shifts(&old, was), [], "the results the table came from");

    // b 2 % faster than a, within the intervals: a (listed first) stays.
    let noisy = decided(&s, &[crossover(0.98, 0.05)]);
    assert_eq!(tiers(&noisy)[0].cells[1].chosen, "a");
    let old_b = decided(&s, &[crossover(0.5, 0.01)]);
    let was_b = |cpu: &str, features: &[String], x: Option<f64>| runs(&old_b, cpu, features, x);
    assert_eq!(shifts(&noisy, was_b), [], "b is tied with a there");
}

#[test]
fn a_variant_no_longer_a_candidate_is_a_shift_of_infinite_margin() {
    let s = spec(&[("a", &[]), ("b", &[])], None);
    let f = file("lab", vec![timed("a", "s", None, 1.0, 0.01)]);
    let d = decided(&s, &[f]);
    let found = shifts(&d, |_, _, _| Some("b".to_owned()));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].margin, f64::INFINITY);
    assert_eq!(shifts(&d, |_, _, _| None), []);
}

#[test]
fn the_table_names_rows_ranges_and_the_fixed_variant() {
    let s = spec(&[("a", &[]), ("b", &[])], Some("bytes"));
    let d = decided(&s, &[crossover(0.5, 0.01)]);
    let text = table_text(&d);
    assert!(text.starts_with("w: which variant to run, by CPU features and bytes\n"));
    assert!(text.contains("from lab.json · machine \"lab\" (lab CPU) · 2026-11-22T10:00:00Z"));
    assert!(text.contains("target-cpu default"));
    assert!(text.contains("  any CPU\n"));
    let row = |regime: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(regime))
            .unwrap_or_else(|| panic!("{regime} in\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("64 B"), "64 B a 0 % 2.00× over b 0 %");
    assert_eq!(row("1 KiB"), "1 KiB b 0 % 2.00× over a +100 %");
    assert!(
        text.contains("ranges: [.., 256 B) a · [256 B, ..) b"),
        "{text}"
    );
    assert!(
        text.contains("dispatcher worst case 0 % · best fixed variant (a) worst case +100 %"),
        "{text}"
    );
    // Columns line up: each row's chosen variant starts where the header's does.
    let header = text.lines().find(|l| l.contains("chosen")).unwrap();
    let at = header.find("chosen").unwrap();
    assert_eq!(&row_line(&text, "64 B")[at..at + 2], "a ");
}

/// The raw line of the row for `regime`.
fn row_line<'t>(text: &'t str, regime: &str) -> &'t str {
    text.lines()
        .find(|l| l.trim_start().starts_with(regime))
        .unwrap()
}

#[test]
fn regimes_read_in_binary_units_for_bytes() {
    let bytes = Some("bytes");
    assert_eq!(regime_label(bytes, 8.0), "8 B");
    assert_eq!(regime_label(bytes, 1000.0), "1000 B");
    assert_eq!(regime_label(bytes, 1024.0), "1 KiB");
    assert_eq!(regime_label(bytes, 3143.68), "3.07 KiB");
    assert_eq!(regime_label(bytes, 1048576.0), "1 MiB");
    assert_eq!(regime_label(Some("density"), 0.125), "0.125");
    assert_eq!(regime_label(Some("density"), 0.5), "0.5");
    assert_eq!(regime_label(None, 48.0), "48");
}

#[test]
fn a_spec_from_records_lists_the_oracle_first_with_features_and_one_parameter() {
    let mut fast = timed("avx2", "s", Some(8.0), 1.0, 0.1);
    fast.features = vec!["avx2".into()];
    fast.oracle = Some("scalar".into());
    let plain = timed("scalar", "s", Some(8.0), 2.0, 0.1);
    let headline = timed("scalar", "mixed", None, 2.0, 0.1);
    let f = file("lab", vec![fast, plain, headline]);
    let s = Spec::from_records("w", &[&f]);
    assert_eq!(s.parameter.as_deref(), Some("bytes"));
    let got: Vec<(&str, &[String])> = s
        .variants
        .iter()
        .map(|v| (v.name.as_str(), v.features.as_slice()))
        .collect();
    assert_eq!(
        got,
        [("scalar", &[][..]), ("avx2", &["avx2".to_owned()][..])]
    );
}

#[test]
fn a_dispatchers_records_never_make_it_a_candidate() {
    let plain = timed("scalar", "s", Some(8.0), 2.0, 0.1);
    let mut timed_dispatch = timed("dispatch", "s", Some(8.0), 1.0, 0.1);
    timed_dispatch.dispatcher = true;
    // Its setup record is not marked: the time record's mark is enough.
    let mut setup = timed("dispatch", "s", None, 5.0, 0.1);
    setup.metric = crate::Metric::Setup;
    let f = file("lab", vec![plain, timed_dispatch, setup]);
    let s = Spec::from_records("w", &[&f]);
    let names: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["scalar"]);
}
