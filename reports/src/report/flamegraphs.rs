//! The report's flame graphs: one per counted record that kept its
//! callgrind profile, so a reader of the page can see where each kernel
//! spends its instructions, not only how many it spends.
//!
//! A profile is found relative to the directory of the results file that
//! names it (that is how `count` writes the path). A profile that is gone
//! or unreadable costs its record the graph, said in one skipped line,
//! never the report.

use super::error::ReportError;
use crate::dataset::Source;
use crate::plan::slug;
use crate::profile::{Flame, Profile, flamegraph_svg};
use crate::results::{Metric, Status};
use std::path::Path;

/// The report directory's folder of flame graphs.
const DIR: &str = "flamegraphs";

/// One flame graph written to the report directory.
#[derive(Clone, Debug, PartialEq)]
pub struct FlameGraphFile {
    /// What it draws: `components swar on density:0.5 (x86-64)`, with the
    /// results file's label first when the report reads several.
    pub label: String,
    /// The SVG, relative to the report directory.
    pub svg: String,
}

/// Draws a flame graph, rooted at functions named like `root`, for every
/// counted instruction record of `sources` that names a profile; says in
/// `skipped` which profiles could not be read or drawn.
pub(crate) fn draw(
    sources: &[Source],
    out: &Path,
    root: &str,
    skipped: &mut Vec<String>,
) -> Result<Vec<FlameGraphFile>, ReportError> {
    let mut files: Vec<FlameGraphFile> = Vec::new();
    let records = sources
        .iter()
        .flat_map(|s| s.file.records.iter().map(move |r| (s, r)));
    for (source, r) in records {
        let Some(rel) = &r.profile else { continue };
        if r.metric != Metric::Instructions || r.status != Status::Ok {
            continue;
        }
        let what = format!(
            "{} {} on {} ({})",
            r.workload, r.variant, r.input_set, r.target_cpu
        );
        let label = if sources.len() > 1 {
            format!("{}: {what}", source.label)
        } else {
            what
        };
        let path = source.path.parent().unwrap_or(Path::new("")).join(rel);
        let title = format!(
            "{label}: instructions per batch of {} {}",
            r.elements_per_sample,
            r.unit_plural.as_deref().unwrap_or("elements")
        );
        let flame = Flame {
            metric: Metric::Instructions,
            root: Some(root),
            title: &title,
        };
        let svg = match Profile::read(&path) {
            Ok(profile) => flamegraph_svg(&profile, &flame).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let svg = match svg {
            Ok(svg) => svg,
            Err(e) => {
                skipped.push(format!("{label}: no flame graph: {e}"));
                continue;
            }
        };
        let stem = [&r.workload, &r.variant, &r.input_set, &r.target_cpu]
            .map(|s| slug(s))
            .join("-");
        let mut name = format!("{DIR}/{stem}.svg");
        let mut n = 1;
        while files.iter().any(|f| f.svg == name) {
            n += 1;
            name = format!("{DIR}/{stem}-{n}.svg");
        }
        let dest = out.join(&name);
        let dir = out.join(DIR);
        std::fs::create_dir_all(&dir).map_err(|e| ReportError::Io(dir, e))?;
        std::fs::write(&dest, svg).map_err(|e| ReportError::Io(dest, e))?;
        files.push(FlameGraphFile { label, svg: name });
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use crate::results::{Record, ResultsFile};
    use crate::{ReportOptions, Source, render};
    use std::fs;

    /// A profile of one batch: the counted region calls a kernel that
    /// calls a helper.
    const PROFILE: &str = "\
events: Ir
fl=/work/harness/src/counting/mod.rs
fn=bitbench::counting::counted_region
116 4
cfn=kernel::label
calls=1 10
117 96
fl=/work/kernel/src/lib.rs
fn=kernel::label
10 60
cfn=kernel::helper
calls=3 20
11 36
fn=kernel::helper
20 36
totals: 100
";

    fn record(variant: &str, metric: crate::Metric, profile: Option<&str>) -> Record {
        Record {
            workload: "kernel".into(),
            variant: variant.into(),
            input_set: "density:0.5".into(),
            target_cpu: "x86-64".into(),
            metric,
            unit: "instructions/board".into(),
            median: 100.0,
            samples: 1,
            elements_per_sample: 1,
            profile: profile.map(str::to_owned),
            ..Record::default()
        }
    }

    #[test]
    fn counted_records_with_profiles_get_a_linked_flame_graph() {
        let dir = std::env::temp_dir().join(format!("bitbench-flames-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("run/profiles")).unwrap();
        fs::write(dir.join("run/profiles/kernel-swar.callgrind"), PROFILE).unwrap();
        let file = ResultsFile {
            records: vec![
                record(
                    "swar",
                    crate::Metric::Instructions,
                    Some("profiles/kernel-swar.callgrind"),
                ),
                record(
                    "flood",
                    crate::Metric::Instructions,
                    Some("profiles/gone.callgrind"),
                ),
                record("naive", crate::Metric::Instructions, None),
                record(
                    "swar",
                    crate::Metric::Time,
                    Some("profiles/kernel-swar.callgrind"),
                ),
            ],
            ..ResultsFile::default()
        };
        // The profile path is relative to the results file's directory.
        let sources = [Source::new("count", dir.join("run/count.json"), file)];
        let out = dir.join("report");
        let options = ReportOptions {
            flamegraphs: Some("counting::counted_region".into()),
            ..ReportOptions::default()
        };
        let report = render(&sources, &out, &options).unwrap();

        let svg = "flamegraphs/kernel-swar-density-0-5-x86-64.svg";
        assert_eq!(report.flamegraphs.len(), 1, "{:?}", report.flamegraphs);
        assert_eq!(report.flamegraphs[0].svg, svg);
        assert_eq!(
            report.flamegraphs[0].label,
            "kernel swar on density:0.5 (x86-64)"
        );
        let drawn = fs::read_to_string(out.join(svg)).unwrap();
        assert!(drawn.starts_with("<?xml"));
        assert!(
            drawn.contains("kernel::helper (36 instructions, 36.00%)"),
            "{drawn}"
        );
        let missing = dir.join("run/profiles/gone.callgrind");
        let line = report
            .skipped
            .iter()
            .find(|l| l.starts_with("kernel flood on density:0.5 (x86-64): no flame graph: "))
            .unwrap();
        assert!(line.contains(&missing.display().to_string()), "{line}");

        let html = fs::read_to_string(&report.index).unwrap();
        assert!(html.contains("<h2 id=\"flame-graphs\">Flame graphs</h2>"));
        assert!(html.contains(&format!(
            "<li><a href=\"{svg}\">kernel swar on density:0.5 (x86-64)</a></li>"
        )));
        let md = fs::read_to_string(&report.markdown).unwrap();
        assert!(md.contains("\n## Flame graphs\n"));
        assert!(md.contains(&format!("- [kernel swar on density:0.5 (x86-64)]({svg})")));

        // Without the option: no graphs, no section.
        let plain = render(&sources, &dir.join("plain"), &ReportOptions::default()).unwrap();
        assert!(plain.flamegraphs.is_empty() && !dir.join("plain/flamegraphs").exists());
        assert!(
            !fs::read_to_string(&plain.index)
                .unwrap()
                .contains("Flame graphs")
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
