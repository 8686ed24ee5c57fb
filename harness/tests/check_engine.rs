//! The generic check engine on a toy workload with a planted bug: it must
//! find the disagreement, minimise it (or say it did not), use a verified
//! stand-in where the oracle's cost model refuses, and leave correct
//! variants alone.

use bitbench::check::{self, CheckOptions};
use bitbench::{InputSet, Member, Shrink, Solve, VariantInfo, Workload};

/// Toy kernel: the number of set bits of a u32. `naive` counts bit by bit
/// (and "costs too much" above 2^20), `builtin` is correct, `buggy` is
/// wrong whenever bits 3 and 9 are both set. With `shrinks`, inputs shrink
/// through [`Shrink`], the one line an adapter writes.
struct Popcount {
    shrinks: bool,
}

const OPTIONS: CheckOptions = CheckOptions::new(4000, 3);

struct Solver(&'static str);

impl Solve<u32, u32> for Solver {
    fn solve_batch(&mut self, inputs: &[u32], out: &mut [u32]) {
        for (x, o) in inputs.iter().zip(out) {
            *o = match self.0 {
                "naive" => (0..32).map(|i| x >> i & 1).sum(),
                "builtin" => x.count_ones(),
                _ => x.count_ones() + u32::from(x & 0x208 == 0x208),
            };
        }
    }
}

/// The toy's inputs: half are small enough for the oracle, half are not.
fn words(seed: u64, n: usize) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|i| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let word = (x >> 32) as u32;
            if i % 2 == 0 {
                word & 0xf_ffff
            } else {
                word | 1 << 31
            }
        })
        .collect()
}

impl Workload for Popcount {
    type Input = u32;
    type Output = u32;
    fn name(&self) -> &'static str {
        "popcount"
    }
    fn description(&self) -> &'static str {
        "toy"
    }
    fn unit(&self) -> &'static str {
        "words"
    }
    fn variants(&self) -> Vec<VariantInfo> {
        ["naive", "builtin", "buggy"]
            .map(|n| VariantInfo::new(n, "toy", &[]))
            .to_vec()
    }
    fn default_variant(&self) -> &'static str {
        "builtin"
    }
    fn solver(&self, variant: &str) -> Option<Box<dyn Solve<u32, u32>>> {
        let name = ["naive", "builtin", "buggy"]
            .into_iter()
            .find(|n| *n == variant)?;
        Some(Box::new(Solver(name)))
    }
    fn input_sets(&self) -> Vec<InputSet> {
        vec![InputSet::new("all", "small and large words")]
    }
    fn bench_sets(&self, _quick: bool) -> Vec<String> {
        vec!["all".into()]
    }
    fn generate(&self, _set: &Member, seed: u64, n: usize) -> Result<Vec<u32>, String> {
        Ok(words(seed, n))
    }
    fn parse_input(&self, text: &str) -> Result<u32, String> {
        text.parse().map_err(|_| "not a number".into())
    }
    fn format_input(&self, input: &u32) -> String {
        input.to_string()
    }
    fn format_output(&self, output: &u32) -> String {
        output.to_string()
    }
    fn same(&self, a: &u32, b: &u32) -> bool {
        a == b
    }
    fn skip(&self, variant: &str, input: &u32) -> Option<String> {
        (variant == "naive" && *input >= 1 << 20).then(|| "input above 2^20".into())
    }
    fn shrink(&self, input: &u32) -> Vec<u32> {
        if self.shrinks {
            input.shrink()
        } else {
            Vec::new()
        }
    }
}

#[test]
fn finds_and_minimises_the_planted_bug() {
    let report = check::run(&Popcount { shrinks: true }, &OPTIONS).unwrap();
    assert_eq!(report.failures.len(), 1, "{report:?}");
    let f = &report.failures[0];
    assert_eq!(f.variant, "buggy");
    // Minimal: exactly the two bits that trigger the bug.
    assert!(f.minimised);
    assert_eq!(f.input, (0x208u32).to_string());
    assert_eq!((f.expected.as_str(), f.got.as_str()), ("2", "3"));
    assert!(report.summary[0].starts_with("builtin: agreed with naive on"));
    assert!(!report.summary[0].contains("DISAGREES"));
    assert!(report.summary[1].contains("DISAGREES"));
}

/// The numbers of a summary line, in order: `buggy: agreed with naive on
/// 10 inputs, with builtin on 9, disagreed on 3 — DISAGREES` gives 10, 9, 3.
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect()
}

#[test]
fn the_verdict_says_how_many_inputs_disagreed() {
    let report = check::run(&Popcount { shrinks: true }, &OPTIONS).unwrap();
    let (builtin, buggy) = (&report.summary[0], &report.summary[1]);
    assert!(!builtin.contains("disagreed"), "{builtin}");
    let [naive, stand_in, disagreed] = numbers(buggy)[..] else {
        panic!("{buggy}")
    };
    assert_eq!(
        buggy,
        &format!(
            "buggy: agreed with naive on {naive} inputs, with builtin on {stand_in}, \
             disagreed on {disagreed} — DISAGREES"
        )
    );
    // buggy is wrong exactly where bits 3 and 9 are both set.
    let inputs = words(OPTIONS.seed, OPTIONS.cases);
    let wrong = inputs.iter().filter(|&&x| x & 0x208 == 0x208).count();
    assert_eq!(disagreed, wrong as u64, "{buggy}");
    assert_eq!(naive + stand_in + disagreed, inputs.len() as u64, "{buggy}");
}

#[test]
fn a_verified_stand_in_covers_inputs_the_oracle_skips() {
    let report = check::run(&Popcount { shrinks: true }, &OPTIONS).unwrap();
    let note = report.notes.join("\n");
    assert!(note.contains("naive skipped on"), "{note}");
    assert!(note.contains("reference there: builtin"), "{note}");
    assert!(report.summary[1].contains("with builtin on"), "{report:?}");
}

#[test]
fn without_a_shrinker_the_input_is_reported_as_drawn() {
    let report = check::run(&Popcount { shrinks: false }, &OPTIONS).unwrap();
    let f = &report.failures[0];
    assert!(!f.minimised);
    let drawn: u32 = f.input.parse().unwrap();
    assert_eq!(drawn & 0x208, 0x208);
    assert_ne!(drawn, 0x208, "a drawn input has more bits than the two");
}
