//! The reader for callgrind's output format.
//!
//! The format is line based: headers (`events:`, `positions:`, `totals:`),
//! context lines that set the current file, function or callee (`fl=`,
//! `fi=`, `fe=`, `fn=`, `cfn=`, …, each with optional name compression
//! `(id) name`), cost lines (positions, then one count per event, with
//! positions optionally relative to the previous line) and `calls=` lines,
//! whose next cost line is the inclusive cost of that call. Everything is
//! folded into one [`Function`] per identity (see [`super::symbol`]).

use super::measure::{Measure, MetricError};
use super::symbol;
use crate::Metric;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::{fmt, fs, io};

/// A source line as callgrind attributes costs to it: the file after any
/// `fi=`/`fe=` switch (so code inlined from `core` keeps its own file) and
/// the line number, 0 where the code has no line table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SourceLine {
    /// The path as callgrind prints it.
    pub file: String,
    /// The line, 1-based; 0 when unknown.
    pub line: u64,
}

/// One function's costs, each a count per event column of the profile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    self_cost: Vec<u64>,
    calls: BTreeMap<String, Vec<u64>>,
    lines: BTreeMap<SourceLine, Vec<u64>>,
}

impl Function {
    fn new(events: usize) -> Function {
        Function {
            self_cost: vec![0; events],
            ..Function::default()
        }
    }

    /// What the function's own instructions cost (not its calls').
    pub fn self_cost(&self) -> &[u64] {
        &self.self_cost
    }

    /// The inclusive cost of its calls into each other function, summed
    /// over call sites; calls into itself are left out.
    pub fn calls(&self) -> impl Iterator<Item = (&str, &[u64])> {
        self.calls.iter().map(|(f, c)| (f.as_str(), c.as_slice()))
    }

    /// Its self cost split by source line (the lines sum to the self cost).
    pub fn lines(&self) -> impl Iterator<Item = (&SourceLine, &[u64])> {
        self.lines.iter().map(|(l, c)| (l, c.as_slice()))
    }

    /// Self cost plus the inclusive cost of its calls, under `measure`.
    pub fn inclusive(&self, measure: &Measure) -> u64 {
        measure.of(&self.self_cost) + self.calls.values().map(|c| measure.of(c)).sum::<u64>()
    }
}

/// One callgrind profile: its event columns, its functions by identity and
/// its totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    events: Vec<String>,
    functions: BTreeMap<String, Function>,
    totals: Vec<u64>,
}

impl Profile {
    /// Reads a callgrind output file, plain or gzip-compressed (told apart
    /// by gzip's magic bytes, whatever the file is named).
    pub fn read(path: &Path) -> Result<Profile, ReadError> {
        let io = |e| ReadError::Io(path.to_owned(), e);
        let bytes = fs::read(path).map_err(io)?;
        let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut plain = Vec::new();
            flate2::read::MultiGzDecoder::new(bytes.as_slice())
                .read_to_end(&mut plain)
                .map_err(io)?;
            plain
        } else {
            bytes
        };
        Profile::parse(&String::from_utf8_lossy(&bytes))
            .map_err(|e| ReadError::Format(path.to_owned(), e))
    }

    /// Parses the text of a callgrind output file.
    pub fn parse(text: &str) -> Result<Profile, FormatError> {
        let mut parser = Parser::default();
        for (i, line) in text.lines().enumerate() {
            parser
                .line(line.trim_end())
                .map_err(|message| FormatError {
                    line: i + 1,
                    message,
                })?;
        }
        Ok(parser.finish())
    }

    /// The event columns (`Ir`, `Dr`, …) in the order costs list them.
    pub fn events(&self) -> &[String] {
        &self.events
    }

    /// How `metric` sums this profile's events.
    pub fn measure(&self, metric: Metric) -> Result<Measure, MetricError> {
        Measure::new(metric, &self.events)
    }

    /// Every function by identity, in name order.
    pub fn functions(&self) -> impl Iterator<Item = (&str, &Function)> {
        self.functions.iter().map(|(n, f)| (n.as_str(), f))
    }

    /// The function of identity `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// The profile's totals per event: its `totals:` line (or `summary:`),
    /// which is the sum of every function's self cost.
    pub fn totals(&self) -> &[u64] {
        &self.totals
    }
}

/// Where a callgrind file is not what the reader understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The line, 1-based.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for FormatError {}

/// Why a profile file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read or decompressed.
    Io(PathBuf, io::Error),
    /// The file is not a callgrind profile this reader understands.
    Format(PathBuf, FormatError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            ReadError::Format(path, e) => write!(f, "{}, {e}", path.display()),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(_, e) => Some(e),
            ReadError::Format(_, e) => Some(e),
        }
    }
}

/// What the next cost line means.
#[derive(Debug, Default)]
enum Next {
    /// A cost of the current function.
    #[default]
    Cost,
    /// The inclusive cost of a call into this function.
    Call(String),
    /// The source position of a jump (`jump=`/`jcnd=`), no cost.
    Jump,
}

/// The reader's state while it walks the lines.
#[derive(Debug)]
struct Parser {
    events: Vec<String>,
    /// Names of the position columns (`line`, `instr`).
    positions: Vec<String>,
    /// The previous cost line's positions, for relative ones.
    last: Vec<u64>,
    /// Compressed names: files (`fl`, `fi`, `fe`, `cfi`, `cfl`, `jfi`) and
    /// functions (`fn`, `cfn`, `jfn`), by id.
    files: HashMap<u64, String>,
    names: HashMap<u64, String>,
    file: String,
    function: Option<String>,
    callee: Option<String>,
    next: Next,
    functions: BTreeMap<String, Function>,
    totals: Option<Vec<u64>>,
    summary: Option<Vec<u64>>,
}

impl Default for Parser {
    fn default() -> Parser {
        Parser {
            events: Vec::new(),
            positions: vec!["line".to_owned()],
            last: vec![0],
            files: HashMap::new(),
            names: HashMap::new(),
            file: "???".to_owned(),
            function: None,
            callee: None,
            next: Next::Cost,
            functions: BTreeMap::new(),
            totals: None,
            summary: None,
        }
    }
}

impl Parser {
    fn line(&mut self, line: &str) -> Result<(), String> {
        match line.bytes().next() {
            None | Some(b'#') => Ok(()),
            Some(b'0'..=b'9' | b'+' | b'-' | b'*') => self.cost(line),
            Some(_) => {
                // `key=value` (a context line) or `key: value` (a header),
                // whichever separator comes first: values may hold both.
                let split = line.find(['=', ':']).ok_or("neither `=` nor `:`")?;
                let (key, value) = (&line[..split], line[split + 1..].trim());
                if line.as_bytes()[split] == b'=' {
                    self.context(key, value)
                } else {
                    self.header(key, value)
                }
            }
        }
    }

    fn header(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "events" => {
                self.events = value.split_whitespace().map(str::to_owned).collect();
                if !self.functions.is_empty() {
                    return Err("`events:` after the first cost".to_owned());
                }
            }
            "positions" => {
                self.positions = value.split_whitespace().map(str::to_owned).collect();
                self.last = vec![0; self.positions.len()];
            }
            "totals" => {
                let costs = self.counts(value.split_whitespace())?;
                let totals = self.totals.get_or_insert_with(|| vec![0; costs.len()]);
                // Several parts in one file: their totals add up.
                totals.iter_mut().zip(&costs).for_each(|(t, c)| *t += c);
            }
            "summary" => self.summary = Some(self.counts(value.split_whitespace())?),
            // version, creator, pid, cmd, part, thread, desc, event, …
            _ => {}
        }
        Ok(())
    }

    fn context(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "fl" | "fi" | "fe" => self.file = expand(&mut self.files, value, str::to_owned)?,
            "fn" => {
                let name = expand(&mut self.names, value, symbol::identity)?;
                self.function = Some(name);
            }
            "cfn" => self.callee = Some(expand(&mut self.names, value, symbol::identity)?),
            // Only their compressed names matter: later lines may use them.
            "cfi" | "cfl" | "jfi" => {
                expand(&mut self.files, value, str::to_owned)?;
            }
            "jfn" => {
                expand(&mut self.names, value, symbol::identity)?;
            }
            "calls" => {
                let callee = self.callee.clone().ok_or("`calls=` before any `cfn=`")?;
                self.next = Next::Call(callee);
            }
            "jump" | "jcnd" => self.next = Next::Jump,
            // ob, cob: objects do not make a function's identity.
            _ => {}
        }
        Ok(())
    }

    fn cost(&mut self, line: &str) -> Result<(), String> {
        let mut fields = line.split_ascii_whitespace();
        let mut line_number = 0;
        for (name, last) in self.positions.iter().zip(&mut self.last) {
            let field = fields.next().ok_or("a cost line without its position")?;
            *last = position(field, *last)?;
            if name == "line" {
                line_number = *last;
            }
        }
        let next = std::mem::take(&mut self.next);
        if matches!(next, Next::Jump) {
            return Ok(());
        }
        let costs = self.counts(fields)?;
        let name = self.function.as_ref().ok_or("a cost before any `fn=`")?;
        let events = self.events.len();
        let function = self
            .functions
            .entry(name.clone())
            .or_insert_with(|| Function::new(events));
        match next {
            Next::Call(callee) if &callee == name => {}
            Next::Call(callee) => add(function.calls.entry(callee).or_default(), &costs),
            _ => {
                add(&mut function.self_cost, &costs);
                let key = SourceLine {
                    file: self.file.clone(),
                    line: line_number,
                };
                add(function.lines.entry(key).or_default(), &costs);
            }
        }
        Ok(())
    }

    /// One count per event; trailing zeros may be left out.
    fn counts<'a>(&self, fields: impl Iterator<Item = &'a str>) -> Result<Vec<u64>, String> {
        let mut costs = vec![0; self.events.len()];
        for (i, field) in fields.enumerate() {
            let slot = costs
                .get_mut(i)
                .ok_or_else(|| format!("more counts than the {} events", self.events.len()))?;
            *slot = field
                .parse()
                .map_err(|_| format!("`{field}` is not a count"))?;
        }
        Ok(costs)
    }

    fn finish(self) -> Profile {
        let events = self.events.len();
        let totals = self.totals.or(self.summary).unwrap_or_else(|| {
            let mut sum = vec![0; events];
            for f in self.functions.values() {
                add(&mut sum, &f.self_cost);
            }
            sum
        });
        Profile {
            events: self.events,
            functions: self.functions,
            totals,
        }
    }
}

/// Adds `costs` into `sum`, growing it to fit.
fn add(sum: &mut Vec<u64>, costs: &[u64]) {
    if sum.len() < costs.len() {
        sum.resize(costs.len(), 0);
    }
    sum.iter_mut().zip(costs).for_each(|(s, c)| *s += c);
}

/// A name, with callgrind's name compression: `(12) name` defines id 12,
/// a bare `(12)` uses it. `(below main)` is a plain name, not an id.
fn expand(
    table: &mut HashMap<u64, String>,
    value: &str,
    convert: impl Fn(&str) -> String,
) -> Result<String, String> {
    let compressed = value.strip_prefix('(').and_then(|rest| {
        let (id, name) = rest.split_once(')')?;
        Some((id.parse::<u64>().ok()?, name.trim()))
    });
    match compressed {
        None => Ok(convert(value)),
        Some((id, "")) => table
            .get(&id)
            .cloned()
            .ok_or_else(|| format!("name ({id}) used before it was defined")),
        Some((id, name)) => {
            let name = convert(name);
            table.insert(id, name.clone());
            Ok(name)
        }
    }
}

/// A position field: absolute (decimal or `0x` hex), relative to the
/// previous line's (`+3`, `-2`), or the same (`*`).
fn position(field: &str, last: u64) -> Result<u64, String> {
    let bad = || format!("`{field}` is not a position");
    let number = |s: &str| match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).map_err(|_| bad()),
        None => s.parse::<u64>().map_err(|_| bad()),
    };
    match field.as_bytes()[0] {
        b'*' if field.len() == 1 => Ok(last),
        b'+' => last.checked_add(number(&field[1..])?).ok_or_else(bad),
        b'-' => last.checked_sub(number(&field[1..])?).ok_or_else(bad),
        _ => number(field),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A profile from `reports/tests/data/callgrind/`.
    pub(crate) fn sample(name: &str) -> Profile {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/callgrind")
            .join(name);
        Profile::read(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Every profile in `reports/tests/data/callgrind/`.
    pub(crate) const SAMPLES: [&str; 6] = [
        "components-swar-density_0.5.callgrind",
        "components-swar-density_0.3.callgrind",
        "cache-components-swar-density_0.5.callgrind",
        "cache-components-swar-density_0.3.callgrind",
        "cephalopod-naive-official_1.callgrind",
        "cephalopod-naive-official_2.callgrind",
    ];

    fn sum<'a>(costs: impl Iterator<Item = &'a [u64]>, events: usize) -> Vec<u64> {
        let mut total = vec![0; events];
        costs.for_each(|c| add(&mut total, c));
        total
    }

    #[test]
    fn self_costs_add_up_to_the_totals_line_in_real_profiles() {
        for name in SAMPLES {
            let p = sample(name);
            let events = p.events().len();
            let selfs = sum(p.functions().map(|(_, f)| f.self_cost()), events);
            assert_eq!(selfs, p.totals(), "{name}");
            for (f, function) in p.functions() {
                let lines = sum(function.lines().map(|(_, c)| c), events);
                assert_eq!(lines, function.self_cost(), "{name}: {f}");
            }
        }
    }

    #[test]
    fn real_profile_functions_calls_and_lines() {
        let p = sample("components-swar-density_0.5.callgrind");
        assert_eq!(p.events(), ["Ir"]);
        assert_eq!(p.totals(), [858949]);
        let ir = p.measure(Metric::Instructions).unwrap();
        // The counted region holds everything the profile counted.
        let region = p.function("bitbench::counting::counted_region").unwrap();
        assert_eq!(region.inclusive(&ir), 858949);
        // `label_batch` calls `batch_fast` once, for 858891 instructions.
        let label = p
            .function("<components::swar::Swar as components::Labeler>::label_batch")
            .unwrap();
        let calls: Vec<_> = label.calls().collect();
        assert_eq!(calls, [("components::swar::batch_fast", &[858891][..])]);
        assert_eq!(ir.of(label.self_cost()), 9 + 1 + 2 + 2 + 2 + 2 + 10);
        // Code inlined from core keeps its own file.
        let grow = p.function("components::swar::grow").unwrap();
        let uint = grow
            .lines()
            .find(|(l, _)| l.file.ends_with("core/src/num/uint_macros.rs") && l.line == 85)
            .unwrap();
        assert_eq!(uint.1, [50500]);
    }

    #[test]
    fn recursion_levels_merge_and_do_not_count_twice() {
        let p = sample("cephalopod-naive-official_2.callgrind");
        assert!(p.functions().all(|(name, _)| !name.contains('\'')));
        let ir = p.measure(Metric::Instructions).unwrap();
        let walk = p.function("cephalopod::naive::sum_paths").unwrap();
        assert!(
            walk.calls()
                .all(|(callee, _)| callee != "cephalopod::naive::sum_paths")
        );
        let solve = p
            .function("<cephalopod::naive::Naive as cephalopod::Solver>::solve")
            .unwrap();
        let into_walk = solve
            .calls()
            .find(|(c, _)| *c == "cephalopod::naive::sum_paths")
            .map(|(_, c)| ir.of(c))
            .unwrap();
        // What `solve` paid for its one call is all that the recursion did.
        assert_eq!(walk.inclusive(&ir), into_walk);
    }

    #[test]
    fn compressed_names_positions_and_events() {
        let text = "\
# callgrind format
version: 1
positions: line
events: Ir Dr
fl=(1) /src/a.rs
fn=(1) outer
10 5 1
+2 3
cfi=(1)
cfn=(2) inner
calls=2 20
* 40 4
fn=(2)
fi=(2) /rustc/x/library/core/src/num.rs
20 30 3
fe=(1)
-1 10 1
fn=(3) (below main)
0 0
totals: 48 5
";
        let p = Profile::parse(text).unwrap();
        assert_eq!(p.events(), ["Ir", "Dr"]);
        assert_eq!(p.totals(), [48, 5]);
        let outer = p.function("outer").unwrap();
        assert_eq!(outer.self_cost(), [8, 1]);
        let lines: Vec<_> = outer.lines().map(|(l, c)| (l.line, c.to_vec())).collect();
        assert_eq!(lines, [(10, vec![5, 1]), (12, vec![3, 0])]);
        assert_eq!(outer.calls().collect::<Vec<_>>(), [("inner", &[40, 4][..])]);
        let inner = p.function("inner").unwrap();
        let lines: Vec<_> = inner.lines().map(|(l, c)| (l.clone(), c[0])).collect();
        let line = |file: &str, line| SourceLine {
            file: file.to_owned(),
            line,
        };
        assert_eq!(
            lines,
            [
                (line("/rustc/x/library/core/src/num.rs", 20), 30),
                (line("/src/a.rs", 19), 10)
            ]
        );
        assert!(p.function("(below main)").is_some());
    }

    #[test]
    fn instruction_and_line_positions_both_compress() {
        let text = "positions: instr line\nevents: Ir\nfn=f\n0x10 3 5\n+4 +2 1\n* -1 2\n";
        let p = Profile::parse(text).unwrap();
        let f = p.function("f").unwrap();
        let lines: Vec<_> = f.lines().map(|(l, c)| (l.line, c[0])).collect();
        assert_eq!(lines, [(3, 5), (4, 2), (5, 1)]);
    }

    #[test]
    fn jumps_carry_no_cost_and_missing_totals_are_summed() {
        let text = "events: Ir\nfn=f\n3 7\njump=1 9\n5\n6 1\n";
        let p = Profile::parse(text).unwrap();
        assert_eq!(p.totals(), [8]);
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let err = Profile::parse("events: Ir\nfn=f\n3 x\n").unwrap_err();
        assert_eq!(err.to_string(), "line 3: `x` is not a count");
        let err = Profile::parse("events: Ir\n3 1\n").unwrap_err();
        assert_eq!(err.line, 2);
        let err = Profile::parse("events: Ir\nfn=(4)\n").unwrap_err();
        assert!(err.message.contains("(4) used before"), "{err}");
        let err = Profile::parse("events: Ir\nfn=f\n3 1 2\n").unwrap_err();
        assert!(err.message.contains("more counts"), "{err}");
    }

    #[test]
    fn gzip_is_read_by_its_magic_bytes() {
        use std::io::Write;
        let plain = fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/callgrind/components-swar-density_0.3.callgrind"),
        )
        .unwrap();
        let dir = std::env::temp_dir().join(format!("bitbench-gz-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("profile.callgrind");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&plain).unwrap();
        fs::write(&path, gz.finish().unwrap()).unwrap();
        let read = Profile::read(&path).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            read,
            Profile::parse(&String::from_utf8(plain).unwrap()).unwrap()
        );
        let missing = Profile::read(&dir.join("gone")).unwrap_err();
        assert!(missing.to_string().contains("gone"), "{missing}");
    }
}
