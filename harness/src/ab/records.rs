//! The records the results file keeps: each labelled with the build it
//! measured, and counted records' profiles copied beside the file.

use crate::revision::Side;
use reports::{Record, ResultsFile};
use std::path::Path;

/// Appends `file`'s records, each labelled with the side it measured.
pub fn labelled(records: &mut Vec<Record>, file: &ResultsFile, side: &Side) {
    records.extend(file.records.iter().cloned().map(|r| Record {
        source: Some(format!("{} {}", side.label, side.name)),
        ..r
    }));
}

/// The records as the results file keeps them: each counted record's
/// profile (relative to `files`, where the builds' counts wrote them)
/// copied beside the results file, under the build's label, and the
/// record pointed there.
pub fn keep_profiles(records: Vec<Record>, files: &Path, beside: &Path) -> Vec<Record> {
    let name = beside
        .file_name()
        .map_or_else(|| "ab".into(), |n| n.to_string_lossy().into_owned());
    records
        .into_iter()
        .map(|mut r| {
            let label = r
                .source
                .as_deref()
                .and_then(|s| s.split(' ').next())
                .unwrap_or("profile")
                .to_owned();
            r.profile = r.profile.take().and_then(|rel| {
                let from = files.join(&rel);
                let file = from.file_name()?.to_string_lossy().into_owned();
                let to = beside.join(&label).join(&file);
                std::fs::create_dir_all(to.parent()?).ok()?;
                std::fs::copy(&from, &to).ok()?;
                Some(format!("{name}/{label}/{file}"))
            });
            r
        })
        .collect()
}
