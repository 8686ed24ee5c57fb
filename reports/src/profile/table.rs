//! A [`Delta`] as people read it: an aligned text table for a terminal, a
//! Markdown table for a job summary or a pull-request comment, JSON for
//! scripts.
//!
//! Numbers are per element with three significant digits, like every
//! other table; very long generic function names lose their middle in text
//! and Markdown (never in JSON), so that rows stay one line.

use super::delta::{Change, Delta, Rest};
use crate::compare::Format;
use crate::numbers::sig3;
use std::fmt::Write;

/// Function names longer than this lose their middle.
const NAME_WIDTH: usize = 72;

impl Delta {
    /// The table in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Json => serde_json::to_string_pretty(self).expect("a delta serializes") + "\n",
        }
    }

    fn headline(&self) -> String {
        format!(
            "{} per element: {} → {} ({})",
            self.metric,
            sig3(self.total.before),
            sig3(self.total.after),
            percent(&self.total)
        )
    }

    /// The function grid, then the line grid (with its function) when
    /// there is one.
    fn grids(&self) -> Vec<(Option<String>, Grid)> {
        let mut functions = Grid::new(["function", "self", "Δ self", "change", "inclusive"]);
        for row in &self.rows {
            let mut cells = change_cells(&row.self_cost);
            cells.push(before_after(&row.inclusive));
            functions.push(shorten(&row.function), cells);
        }
        functions.push_rest(&self.rest, "function");
        let mut grids = vec![(None, functions)];
        if let Some(lines) = &self.lines {
            let mut grid = Grid::new(["line", "self", "Δ self", "change"]);
            for row in &lines.rows {
                let line = match row.source.line {
                    0 => "?".to_owned(),
                    n => n.to_string(),
                };
                let label = format!("{}:{line}", row.source.file);
                grid.push(label, change_cells(&row.cost));
            }
            grid.push_rest(&lines.rest, "line");
            grids.push((Some(shorten(&lines.function)), grid));
        }
        grids
    }

    fn text(&self) -> String {
        let mut out = self.headline() + "\n";
        for (function, grid) in self.grids() {
            if let Some(function) = function {
                let _ = writeln!(out, "\nlines of {function}:");
            }
            out += &grid.text();
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("**{}**\n", self.headline());
        for (function, grid) in self.grids() {
            if let Some(function) = function {
                let _ = writeln!(out, "\nlines of `{function}`:");
            }
            out += "\n";
            out += &grid.markdown();
        }
        out
    }
}

/// Rows of cells under a header, the rest row last; the first column is a
/// name, the others are numbers (right-aligned).
struct Grid {
    rows: Vec<Vec<String>>,
}

impl Grid {
    fn new<const N: usize>(header: [&str; N]) -> Grid {
        Grid {
            rows: vec![header.map(str::to_owned).to_vec()],
        }
    }

    fn push(&mut self, name: String, cells: Vec<String>) {
        self.rows.push([vec![name], cells].concat());
    }

    fn push_rest(&mut self, rest: &Rest, what: &str) {
        let plural = if rest.count == 1 { "" } else { "s" };
        let mut cells = change_cells(&rest.cost);
        cells.resize(self.rows[0].len() - 1, String::new());
        self.push(format!("({} other {what}{plural})", rest.count), cells);
    }

    fn text(&self) -> String {
        let columns = self.rows[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            for (c, (cell, w)) in row.iter().zip(&widths).enumerate() {
                if c == 0 {
                    let _ = write!(out, "{cell:<w$}");
                } else {
                    let _ = write!(out, "  {cell:>w$}");
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out
    }

    fn markdown(&self) -> String {
        let columns = self.rows[0].len();
        let mut out = format!(
            "| {} |\n|---|{}\n",
            self.rows[0].join(" | "),
            "--:|".repeat(columns - 1)
        );
        let rest = self.rows.len() - 1;
        for (i, row) in self.rows.iter().enumerate().skip(1) {
            let name = row[0].replace('|', "\\|");
            let name = if i == rest {
                format!("*{name}*")
            } else {
                format!("`{name}`")
            };
            let _ = writeln!(out, "| {name} | {} |", row[1..].join(" | "));
        }
        out
    }
}

/// `before → after`, `Δ`, and the change in percent.
fn change_cells(change: &Change) -> Vec<String> {
    let delta = match sig3(change.delta) {
        d if change.delta > 0.0 => format!("+{d}"),
        d => d,
    };
    vec![before_after(change), delta, percent(change)]
}

fn before_after(change: &Change) -> String {
    format!("{} → {}", sig3(change.before), sig3(change.after))
}

/// `+4.2 %`, `new`, `gone`, or `0.0 %` when nothing changed.
fn percent(change: &Change) -> String {
    match change.percent {
        Some(p) => format!("{p:+.1} %"),
        None if change.before == 0.0 && change.after != 0.0 => "new".to_owned(),
        None if change.after == 0.0 && change.before != 0.0 => "gone".to_owned(),
        None => "0.0 %".to_owned(),
    }
}

/// `name` if short enough, else its start and end around `…`.
fn shorten(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= NAME_WIDTH {
        return name.to_owned();
    }
    let keep = NAME_WIDTH - 1;
    let head: String = chars[..keep / 2].iter().collect();
    let tail: String = chars[chars.len() - (keep - keep / 2)..].iter().collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Metric;
    use crate::profile::callgrind::tests::{SAMPLES, sample};

    fn delta(a: usize, b: usize, top: usize) -> Delta {
        Delta::between(
            &sample(SAMPLES[a]),
            &sample(SAMPLES[b]),
            Metric::Instructions,
            [1024, 1024],
            top,
            &[],
        )
        .unwrap()
    }

    #[test]
    fn text_is_aligned_and_ends_with_the_rest() {
        let d = delta(0, 1, 3);
        let text = d.render(Format::Text);
        // The function grid, up to the line grid (`grow` holds the change).
        let lines: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        assert!(
            text.contains("\nlines of components::swar::grow:\nline "),
            "{text}"
        );
        assert_eq!(lines[0], "instructions per element: 839 → 592 (-29.4 %)");
        assert!(lines[1].starts_with("function") && lines[1].ends_with("inclusive"));
        assert_eq!(lines.len(), 2 + d.rows.len() + 1, "{text}");
        assert!(lines[2].starts_with(&d.rows[0].function), "{text}");
        assert!(lines[lines.len() - 1].starts_with(&format!("({} other functions)", d.rest.count)));
        // Right-aligned numbers: every row's change column ends where the
        // header's does.
        let chars = |s: &str| s.chars().count();
        let end = chars(&lines[1][..lines[1].find("change").unwrap()]) + "change".len();
        for line in &lines[2..] {
            let cell: String = line.chars().take(end).collect();
            assert!(
                cell.ends_with('%') || cell.ends_with("new") || cell.ends_with("gone"),
                "{line}"
            );
        }
    }

    #[test]
    fn markdown_has_one_table_row_per_row() {
        let d = delta(4, 5, 3);
        let md = d.render(Format::Markdown);
        assert!(md.starts_with("**instructions per element: "), "{md}");
        assert!(md.contains(
            "| function | self | Δ self | change | inclusive |\n|---|--:|--:|--:|--:|\n"
        ));
        assert!(md.contains("| `cephalopod::naive::sum_paths` | "), "{md}");
        assert!(
            md.contains("lines of `cephalopod::naive::sum_paths`:"),
            "{md}"
        );
        assert!(md.contains("| `cephalopod/src/naive.rs:"), "{md}");
        let rows = md
            .lines()
            .filter(|l| l.starts_with("| `") || l.starts_with("| *"))
            .count();
        let lines = d.lines.as_ref().unwrap();
        assert_eq!(rows, d.rows.len() + 1 + lines.rows.len() + 1, "{md}");
    }

    #[test]
    fn json_keeps_full_names_and_every_figure() {
        let d = delta(0, 5, 100);
        let json: serde_json::Value = serde_json::from_str(&d.render(Format::Json)).unwrap();
        let long = d
            .rows
            .iter()
            .map(|r| &r.function)
            .find(|f| f.chars().count() > NAME_WIDTH)
            .unwrap();
        assert!(
            json["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["function"] == **long)
        );
        assert_eq!(json["metric"], "instructions");
        assert!(json["rows"][0]["self_cost"]["delta"].is_number());
        assert!(!d.render(Format::Text).contains(long.as_str()));
    }

    #[test]
    fn names_are_shortened_for_reading() {
        let long = "<bitbench::builtin::components::Batch as bitbench::workload::Solve<components::Board,components::Components>>::solve_batch";
        let short = shorten(long);
        assert_eq!(short.chars().count(), NAME_WIDTH);
        assert!(short.starts_with("<bitbench::builtin") && short.ends_with(">>::solve_batch"));
        assert!(short.contains('…'));
        assert_eq!(shorten("a::b"), "a::b");
    }

    #[test]
    fn changes_read_as_percentages_or_words() {
        let p = |before, after| percent(&Change::new(before, after));
        assert_eq!(p(100.0, 104.24), "+4.2 %");
        assert_eq!(p(100.0, 90.0), "-10.0 %");
        assert_eq!(p(0.0, 3.0), "new");
        assert_eq!(p(3.0, 0.0), "gone");
        assert_eq!(p(0.0, 0.0), "0.0 %");
    }
}
