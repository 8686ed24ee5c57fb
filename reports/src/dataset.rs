//! Several results files seen as one table of labelled records.
//!
//! Each file becomes a [`Source`] with a short label (its file name, plus
//! a record's own `source` field where a merged file holds two records of
//! one identity at one target-cpu level), and every chart groups records by workload,
//! variant, input set and *series group*: the (source, target-cpu) pair
//! that one measured binary produced. Files from different machines are
//! never grouped together: they are split into [`Facet`]s first, one per
//! machine name, and each facet gets views of its own.

use crate::results::{
    Machine, Metric, Parameter, Record, RecordKey, ResultsError, ResultsFile, Status,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One results file and the label its series carry in charts.
#[derive(Clone, Debug)]
pub struct Source {
    /// Short name shown in legends, e.g. `before` for `before.json`.
    pub label: String,
    /// Where the file was read from.
    pub path: PathBuf,
    /// Its contents.
    pub file: ResultsFile,
}

impl Source {
    /// Reads results files, labelling each by its file stem (made unique by
    /// appending `#2`, `#3`, ... when two files share a stem).
    pub fn load(paths: &[PathBuf]) -> Result<Vec<Source>, ResultsError> {
        let mut sources: Vec<Source> = Vec::new();
        for path in paths {
            let file = ResultsFile::read(path)?;
            let stem = path.file_stem().map_or_else(
                || path.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            let mut label = stem.clone();
            let mut n = 1;
            while sources.iter().any(|s| s.label == label) {
                n += 1;
                label = format!("{stem}#{n}");
            }
            sources.push(Source {
                label,
                path: path.clone(),
                file,
            });
        }
        Ok(sources)
    }

    /// A source from an in-memory file (tests, the main job).
    pub fn new(label: impl Into<String>, path: impl AsRef<Path>, file: ResultsFile) -> Source {
        Source {
            label: label.into(),
            path: path.as_ref().to_owned(),
            file,
        }
    }
}

/// The sources of one machine: a report holding several machines draws
/// each one's charts and summary apart (never averaging across them).
#[derive(Debug)]
pub(crate) struct Facet<'a> {
    /// The machine's name; `None` when every source shares one machine,
    /// so that labels name only what differs.
    pub machine: Option<&'a str>,
    pub sources: Vec<&'a Source>,
}

impl<'a> Facet<'a> {
    /// `sources` split by machine name, in first-seen order.
    pub fn all(sources: &'a [Source]) -> Vec<Facet<'a>> {
        let mut facets: Vec<Facet<'a>> = Vec::new();
        for s in sources {
            let name = s.file.machine.name.as_str();
            match facets.iter_mut().find(|f| f.machine == Some(name)) {
                Some(f) => f.sources.push(s),
                None => facets.push(Facet {
                    machine: Some(name),
                    sources: vec![s],
                }),
            }
        }
        if let [only] = facets.as_mut_slice() {
            only.machine = None;
        }
        facets
    }

    /// The facet's workloads, titled with the machine when it has one.
    pub fn views(&self) -> Vec<WorkloadView<'a>> {
        let mut views = WorkloadView::of(self.sources.iter().copied());
        if let Some(m) = self.machine {
            for v in &mut views {
                v.title = format!("{} on {m}", v.name);
                v.machine = Some(m);
            }
        }
        views
    }
}

/// The (source, target-cpu) pair whose records form one series.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Group {
    pub source: String,
    pub target_cpu: String,
}

/// A record with the label of the series group it belongs to.
#[derive(Clone, Debug)]
pub(crate) struct Entry<'a> {
    pub group: usize,
    pub record: &'a Record,
}

/// Where a record's input set sits, by its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SetKind<'r> {
    /// One parameter: a point of a line chart over it.
    Sweep(&'r Parameter),
    /// Two parameters: a cell of a heatmap (rows by the first).
    Grid(&'r Parameter, &'r Parameter),
    /// None (or more than two): shown in the per-set bar charts.
    Headline,
}

impl<'r> SetKind<'r> {
    /// Classifies a record's set by its parameters.
    pub fn of(record: &'r Record) -> SetKind<'r> {
        match record.parameters.as_slice() {
            [p] => SetKind::Sweep(p),
            [row, col] => SetKind::Grid(row, col),
            _ => SetKind::Headline,
        }
    }
}

/// Everything one workload's charts draw from.
#[derive(Debug)]
pub(crate) struct WorkloadView<'a> {
    pub name: String,
    /// How titles, notes and file names name the view: the workload, and
    /// the machine when the report holds several.
    pub title: String,
    /// The machine, when the report holds several (see [`Facet`]).
    pub machine: Option<&'a str>,
    /// Variants in file order (bitbench writes the oracle first). Index =
    /// colour.
    pub variants: Vec<String>,
    /// Series groups in first-seen order.
    pub groups: Vec<Group>,
    /// Whether groups differ in target-cpu (so the level view is drawn).
    pub several_levels: bool,
    pub entries: Vec<Entry<'a>>,
    /// The machine of each results file with records here, in file order
    /// (one per file, so a machine repeats): charts name them and their
    /// load in a footer.
    pub runs: Vec<&'a Machine>,
}

impl<'a> WorkloadView<'a> {
    /// Workloads in first-seen order across the sources (of one machine:
    /// see [`Facet`]).
    pub fn of(sources: impl IntoIterator<Item = &'a Source>) -> Vec<WorkloadView<'a>> {
        let mut views: Vec<WorkloadView<'a>> = Vec::new();
        for source in sources {
            let ambiguous = ambiguous_levels(&source.file.records);
            for record in &source.file.records {
                // A merged file (`matrix`) names each record's origin; that
                // name only matters when it tells apart records of one level.
                let label = match &record.source {
                    Some(inner) if ambiguous.contains(&record.target_cpu.as_str()) => {
                        format!("{}/{inner}", source.label)
                    }
                    _ => source.label.clone(),
                };
                let view = match views.iter_mut().position(|v| v.name == record.workload) {
                    Some(i) => &mut views[i],
                    None => {
                        views.push(WorkloadView {
                            name: record.workload.clone(),
                            title: record.workload.clone(),
                            machine: None,
                            variants: Vec::new(),
                            groups: Vec::new(),
                            several_levels: false,
                            entries: Vec::new(),
                            runs: Vec::new(),
                        });
                        views.last_mut().expect("just pushed")
                    }
                };
                if !view.variants.contains(&record.variant) {
                    view.variants.push(record.variant.clone());
                }
                let group = Group {
                    source: label,
                    target_cpu: record.target_cpu.clone(),
                };
                let g = match view.groups.iter().position(|g| *g == group) {
                    Some(g) => g,
                    None => {
                        view.groups.push(group);
                        view.groups.len() - 1
                    }
                };
                view.entries.push(Entry { group: g, record });
                let machine = &source.file.machine;
                if !view.runs.last().is_some_and(|m| std::ptr::eq(*m, machine)) {
                    view.runs.push(machine);
                }
            }
        }
        for v in &mut views {
            v.several_levels = v
                .groups
                .iter()
                .any(|g| g.target_cpu != v.groups[0].target_cpu);
        }
        views
    }

    /// The workload's oracle as its records name it, if they do.
    pub fn oracle(&self) -> Option<&'a str> {
        self.entries.iter().find_map(|e| e.record.oracle.as_deref())
    }

    /// Whether the view holds an A/B's paired records (an `ab` file): its
    /// builds are compared by their pairs, not by bars side by side.
    pub fn paired(&self) -> bool {
        self.entries.iter().any(|e| e.record.paired.is_some())
    }

    /// Index of a variant (its colour).
    pub fn variant_index(&self, name: &str) -> usize {
        self.variants.iter().position(|v| v == name).unwrap_or(0)
    }

    /// The series groups holding a record that `keep`s, in view order:
    /// the groups one chart draws.
    pub fn groups_with(&self, keep: impl Fn(&Record) -> bool) -> Vec<usize> {
        let mut groups: Vec<usize> = self
            .entries
            .iter()
            .filter(|e| keep(e.record))
            .map(|e| e.group)
            .collect();
        groups.sort_unstable();
        groups.dedup();
        groups
    }

    /// How a chart that draws `shown` (group indices) names them.
    pub fn naming(&self, shown: &[usize]) -> Naming<'_> {
        let differ = |part: fn(&Group) -> &str| {
            shown
                .iter()
                .any(|&g| part(&self.groups[g]) != part(&self.groups[shown[0]]))
        };
        Naming {
            groups: &self.groups,
            levels: differ(|g| &g.target_cpu),
            sources: differ(|g| &g.source),
        }
    }

    /// Records of one metric.
    pub fn metric(&self, metric: Metric) -> impl Iterator<Item = &Entry<'a>> + '_ {
        self.entries
            .iter()
            .filter(move |e| e.record.metric == metric)
    }

    /// Headline input sets (not part of a sweep), in first-seen order.
    pub fn headline_sets(&self, metric: Metric, unit: Option<&str>) -> Vec<&'a str> {
        self.sets(metric, |r| {
            unit.is_none_or(|u| u == r.unit) && SetKind::of(r) == SetKind::Headline
        })
    }

    /// The sets a summary rests on: the headline ones, or every set when
    /// the workload has only sweeps.
    pub fn summary_sets(&self) -> Vec<&'a str> {
        let headline = self.headline_sets(Metric::Time, None);
        if headline.is_empty() {
            self.sets(Metric::Time, |_| true)
        } else {
            headline
        }
    }

    /// Input sets of `metric`'s records that pass `keep`, in first-seen
    /// order.
    fn sets(&self, metric: Metric, keep: impl Fn(&Record) -> bool) -> Vec<&'a str> {
        let mut sets: Vec<&'a str> = Vec::new();
        for e in self.metric(metric) {
            let r = e.record;
            if keep(r) && !sets.contains(&r.input_set.as_str()) {
                sets.push(&r.input_set);
            }
        }
        sets
    }

    /// The record of (variant, set, group, metric), if any.
    pub fn find(
        &self,
        variant: &str,
        set: &str,
        group: usize,
        metric: Metric,
    ) -> Option<&'a Record> {
        self.entries
            .iter()
            .find(|e| {
                e.group == group
                    && e.record.metric == metric
                    && e.record.variant == variant
                    && e.record.input_set == set
            })
            .map(|e| e.record)
    }
}

/// How one chart names the series groups it draws: by the parts
/// (target-cpu, results file) that differ among *those* groups, so a
/// chart drawn from one file's records never names the file, however many
/// others the report holds (a count file beside the bench file of one
/// build shares no chart with it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Naming<'v> {
    groups: &'v [Group],
    levels: bool,
    sources: bool,
}

impl Naming<'_> {
    /// Whether the groups differ at all, so that labels must name them.
    pub fn any(&self) -> bool {
        self.levels || self.sources
    }

    /// The parts naming group `g`: its target-cpu (unless only the files
    /// differ) and its file (where files differ).
    pub fn parts(&self, g: usize) -> Vec<String> {
        let group = &self.groups[g];
        let mut parts = Vec::new();
        if self.levels || !self.sources {
            parts.push(group.target_cpu.clone());
        }
        if self.sources {
            parts.push(group.source.clone());
        }
        parts
    }

    /// Group `g`'s label: its [`Naming::parts`], `·`-separated.
    pub fn label(&self, g: usize) -> String {
        self.parts(g).join(" · ")
    }

    /// A line's name: its variant, and its group where groups differ.
    pub fn line(&self, variant: &str, g: usize) -> String {
        if self.any() {
            format!("{variant} · {}", self.label(g))
        } else {
            variant.to_owned()
        }
    }

    /// What the parts of a label are, for an axis or a legend heading.
    pub fn heading(&self) -> &'static str {
        match (self.levels, self.sources) {
            (true, true) => "target-cpu · results file",
            (false, true) => "results file",
            _ => "target-cpu",
        }
    }
}

/// Target-cpu levels where one file holds records of the same identity
/// with different `source` names: only there does the source tell series
/// apart (a level's bench and count records are one series, not two).
fn ambiguous_levels(records: &[Record]) -> Vec<&str> {
    let mut seen: HashMap<RecordKey<'_>, Option<&str>> = HashMap::new();
    let mut ambiguous = Vec::new();
    for r in records {
        let (key, inner) = (r.key(), r.source.as_deref());
        let first = *seen.entry(key).or_insert(inner);
        if first != inner && !ambiguous.contains(&key.target_cpu) {
            ambiguous.push(key.target_cpu);
        }
    }
    ambiguous
}

/// The measured value of a record, when it holds one.
pub(crate) fn ok_median(r: &Record) -> Option<f64> {
    (r.status == Status::Ok && r.median.is_finite() && r.median > 0.0).then_some(r.median)
}
