//! Which cargo features a revision is built with, so that it is built like
//! the running program: the user's `--features`, and whatever turns on
//! bitbench's `count` when this program has it, so that every revision can
//! be counted and its changes attributed without a separate build.
//!
//! The way is read off the revision's own manifest, its package's entry in
//! `cargo metadata --no-deps`. Nothing is needed when its bitbench
//! dependency lists `count`, when its default features turn on
//! `bitbench/count` or `bitbench?/count` (through other features too, and
//! under the dependency's own name when it is renamed), or when the
//! package is bitbench itself with `count` among its defaults. Otherwise the
//! first of the package's features that lists one of those is passed with
//! `--features`; when none does, the build goes without and says so.

use serde_json::Value;

/// `--features`: what the revision builds get besides the feature that
/// turns on bitbench's `count`.
#[derive(clap::Args, Debug, Default)]
pub struct FeaturesArg {
    /// Cargo features to build each revision with (comma-separated), as
    /// `cargo build --features` takes them; the one that turns on
    /// bitbench's `count` is found in the revision's manifest when this
    /// program has it.
    #[arg(long = "features", value_name = "LIST", value_delimiter = ',')]
    pub list: Vec<String>,
}

/// How a revision's package gets bitbench's `count`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Its default build has it.
    Default,
    /// Its feature of this name turns it on.
    Feature(String),
    /// Nothing in its manifest turns it on.
    Nowhere,
}

/// How `package`, its entry in `cargo metadata`, gets bitbench's `count`.
pub fn count(package: &Value) -> Count {
    if package["name"] == "bitbench" {
        return through_features(package, &["count".to_owned()]);
    }
    let dependency = package["dependencies"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["name"] == "bitbench" && d["kind"].is_null());
    dependency.map_or(Count::Nowhere, |d| count_through(package, d))
}

/// How `package` gets bitbench's `count` through `dependency`, its entry
/// for bitbench: bitbench's own default features hold `count`, so a
/// dependency that keeps them has it, as one that lists it does.
pub fn count_through(package: &Value, dependency: &Value) -> Count {
    let listed = dependency["features"].as_array().into_iter().flatten();
    if dependency["uses_default_features"] == true || listed.into_iter().any(|f| f == "count") {
        return Count::Default;
    }
    let name = dependency["rename"].as_str().unwrap_or("bitbench");
    through_features(
        package,
        &[format!("{name}/count"), format!("{name}?/count")],
    )
}

/// Whether the package's default features turn on one of `on`, else the
/// first of its features that does.
fn through_features(package: &Value, on: &[String]) -> Count {
    let features = Features(package["features"].as_object());
    if features.turn_on("default", on, &mut Vec::new()) {
        return Count::Default;
    }
    features
        .names()
        .find(|f| on.iter().any(|o| o == f) || features.entries(f).any(|e| on.contains(&e)))
        .map_or(Count::Nowhere, |f| Count::Feature(f.to_owned()))
}

/// A package's `[features]` table, as `cargo metadata` gives it.
struct Features<'a>(Option<&'a serde_json::Map<String, Value>>);

impl Features<'_> {
    fn names(&self) -> impl Iterator<Item = &str> {
        self.0
            .into_iter()
            .flat_map(|m| m.keys().map(String::as_str))
    }

    fn entries(&self, feature: &str) -> impl Iterator<Item = String> {
        self.0
            .and_then(|m| m.get(feature))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.as_str().map(str::to_owned))
    }

    /// Whether `feature` is one of `on` or turns one on, directly or
    /// through the package's other features (`seen`: those on the way).
    fn turn_on(&self, feature: &str, on: &[String], seen: &mut Vec<String>) -> bool {
        if on.iter().any(|o| o == feature) {
            return true;
        }
        if seen.iter().any(|s| s == feature) {
            return false;
        }
        seen.push(feature.to_owned());
        let entries: Vec<String> = self.entries(feature).collect();
        entries.iter().any(|e| self.turn_on(e, on, seen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A package `name` depending on bitbench as `dependency` describes,
    /// with `features`.
    fn package(name: &str, dependency: Value, features: Value) -> Value {
        let mut dependencies = vec![json!({"name": "serde", "kind": null, "features": []})];
        if !dependency.is_null() {
            dependencies.push(dependency);
        }
        json!({"name": name, "dependencies": dependencies, "features": features})
    }

    fn bitbench(features: &[&str]) -> Value {
        json!({"name": "bitbench", "kind": null, "rename": null, "features": features})
    }

    #[test]
    fn count_is_found_where_the_manifest_turns_it_on() {
        let none = json!({});
        assert_eq!(
            count(&package("k", bitbench(&["count"]), none.clone())),
            Count::Default
        );
        assert_eq!(
            count(&package("k", bitbench(&[]), none.clone())),
            Count::Nowhere
        );
        assert_eq!(count(&package("k", Value::Null, none)), Count::Nowhere);
        let own = json!({"counting": ["bitbench/count"], "fast": []});
        assert_eq!(
            count(&package("k", bitbench(&[]), own)),
            Count::Feature("counting".into())
        );
        // Optional, renamed, and on through another feature by default.
        let renamed = json!({"name": "bitbench", "kind": null, "rename": "bb", "features": []});
        let optional = json!({"a": ["bb?/count"], "b": ["bitbench/count"]});
        assert_eq!(
            count(&package("k", renamed.clone(), optional)),
            Count::Feature("a".into())
        );
        let defaults = json!({"default": ["gate"], "gate": ["counts"], "counts": ["bb/count"]});
        assert_eq!(count(&package("k", renamed, defaults)), Count::Default);
        // A dev-dependency on bitbench does not build the program.
        let dev = json!({"name": "bitbench", "kind": "dev", "rename": null, "features": ["count"]});
        assert_eq!(count(&package("k", dev, json!({}))), Count::Nowhere);
    }

    #[test]
    fn bitbench_itself_has_count_as_its_own_feature() {
        let features = |default: &[&str]| json!({"default": default, "count": ["dep:gungraun"]});
        let own = |default| package("bitbench", Value::Null, features(default));
        assert_eq!(count(&own(&["suite", "count"])), Count::Default);
        assert_eq!(count(&own(&["suite"])), Count::Feature("count".into()));
    }
}
