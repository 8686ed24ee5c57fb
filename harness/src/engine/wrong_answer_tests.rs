//! A wrong answer on a megabyte input stays a few KB: in the record
//! `bench` writes, the results file and `report.md`, shrunk where the
//! workload can shrink and cut around the first difference where it
//! cannot, always naming the set, seed and index that regenerate it.

use crate::engine::bench::{self, BenchOptions};
use crate::sets::{InputSet, Member};
use crate::workload::{Solve, VariantInfo, Workload};
use reports::{Metric, Record, ResultsFile, Source, Status};

/// A hex encoder whose `planted` variant writes the byte `ab` as `ba`;
/// its inputs are buffers of `size:N` random bytes, written in hex.
struct Hex {
    /// Whether the workload shrinks its inputs (as `Vec<u8>` does).
    shrinks: bool,
}

fn encode(bytes: &[u8], planted: bool) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0xab if planted => "ba".to_owned(),
            b => format!("{b:02x}"),
        })
        .collect()
}

impl Workload for Hex {
    type Input = Vec<u8>;
    type Output = String;
    fn name(&self) -> &'static str {
        "hex"
    }
    fn description(&self) -> &'static str {
        "bytes to hex"
    }
    fn unit(&self) -> &'static str {
        "bytes"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        ["table", "planted"]
            .map(|n| VariantInfo::new(n, "toy", &[]))
            .to_vec()
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<Vec<u8>, String>>> {
        let planted = match variant {
            "table" => false,
            "planted" => true,
            _ => return None,
        };
        Some(Box::new(move |b: &Vec<u8>| encode(b, planted)))
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("size:N", "N random bytes").parameters(&["bytes"])]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["size:1048576".into()]
    }
    fn bench_batch(&self, _quick: bool) -> usize {
        2
    }
    fn generate(&self, set: &Member, seed: u64, n: usize) -> Result<Vec<Vec<u8>>, String> {
        let size: usize = set.get(0)?;
        let mut x = seed;
        let mut byte = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        };
        Ok((0..n)
            .map(|_| (0..size).map(|_| byte()).collect())
            .collect())
    }
    fn parse_input(&self, text: &str) -> Result<Vec<u8>, String> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|e| e.to_string()))
            .collect()
    }
    fn format_input(&self, input: &Vec<u8>) -> String {
        encode(input, false)
    }
    fn format_output(&self, output: &String) -> String {
        output.clone()
    }
    fn shrink(&self, input: &Vec<u8>) -> Vec<Vec<u8>> {
        if self.shrinks {
            crate::Shrink::shrink(input)
        } else {
            Vec::new()
        }
    }
}

/// `bench --quick --variant planted --inputs size:1048576 --seed 7`: the
/// planted variant's time record, and the sizes of the results file and
/// of `report.md` holding it.
fn bench_planted(w: &Hex, name: &str) -> (Record, usize, usize) {
    let options = BenchOptions {
        variants: vec!["planted".into()],
        sets: vec!["size:1048576".into()],
        quick: true,
        seed: 7,
        rounds: Some(1),
        ..BenchOptions::default()
    };
    let records = bench::run(w, &options).unwrap();
    let time = records
        .iter()
        .find(|r| r.metric == Metric::Time)
        .unwrap()
        .clone();
    let dir = std::env::temp_dir().join(format!("bitbench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = ResultsFile {
        records,
        ..ResultsFile::default()
    };
    let path = dir.join("results.json");
    file.write(&path).unwrap();
    let json = std::fs::metadata(&path).unwrap().len() as usize;
    let sources = [Source::new("results", &path, file)];
    let options = reports::ReportOptions::default();
    reports::render(&sources, &dir.join("report"), &options).unwrap();
    let markdown = std::fs::metadata(dir.join("report/report.md"))
        .unwrap()
        .len() as usize;
    let html = std::fs::metadata(dir.join("report/index.html"))
        .unwrap()
        .len() as usize;
    std::fs::remove_dir_all(&dir).unwrap();
    // Each holds one finding; a few KB each, against 6 MB of values.
    for (what, bytes) in [
        ("results file", json),
        ("report.md", markdown),
        ("index.html", html),
    ] {
        assert!(bytes < 8_000, "{what}: {bytes} bytes");
    }
    (time, json, markdown)
}

/// The position of the first `ab` byte of input 0 of `size:1048576`,
/// seed 7: where the planted variant first goes wrong.
fn first_planted_byte(w: &Hex) -> usize {
    let member = crate::sets::parse(&w.input_sets(), "size:1048576").unwrap();
    let inputs = w.generate(&member, 7, 2).unwrap();
    inputs[0].iter().position(|&b| b == 0xab).unwrap()
}

#[test]
fn a_megabyte_wrong_answer_is_shrunk_to_the_byte_that_does_it() {
    let w = Hex { shrinks: true };
    let (time, ..) = bench_planted(&w, "shrunk");
    assert_eq!(time.status, Status::Error);
    let reason = time.reason.unwrap();
    assert!(reason.len() < 2_000, "{} bytes: {reason}", reason.len());
    assert!(
        reason.contains("(input 0 of set 'size:1048576' (seed 7), shrunk in "),
        "{reason}"
    );
    // The input the reason shows still disagrees.
    let shown = reason
        .strip_prefix("wrong answer, not measured: on ")
        .and_then(|rest| rest.split(" expected ").next())
        .unwrap();
    let input = w.parse_input(shown).unwrap();
    assert_ne!(encode(&input, false), encode(&input, true), "{reason}");
    assert_eq!(shown, "ab", "{reason}");
    assert!(
        reason.contains("expected ab (table) but got ba"),
        "{reason}"
    );
    assert!(
        reason.ends_with(" solve hex --variant planted 'ab'"),
        "{reason}"
    );
}

#[test]
fn a_megabyte_wrong_answer_that_cannot_shrink_is_cut_at_its_first_difference() {
    let w = Hex { shrinks: false };
    let (time, ..) = bench_planted(&w, "unshrunk");
    let reason = time.reason.unwrap();
    assert!(reason.len() < 2_000, "{} bytes: {reason}", reason.len());
    let at = 2 * first_planted_byte(&w);
    assert!(
        reason.contains(&format!("; the answers first differ at char {at} (")),
        "{at}: {reason}"
    );
    // Lengths: 1 MiB written as 2 MiB of hex, each side.
    let length = format!(" of {}]", 2 << 20);
    assert_eq!(reason.matches(&length).count(), 3, "{reason}");
    assert!(
        reason.contains(
            "(input 0 of set 'size:1048576' (seed 7), not shrunk: the workload's shrink \
             offers no smaller input)"
        ),
        "{reason}"
    );
    assert!(
        reason.contains(
            " inputs hex 'size:1048576' --seed 7 --count 2 | sed -n '1p' > input.txt && "
        ),
        "{reason}"
    );
}
