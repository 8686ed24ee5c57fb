//! How long each file and each function is.
//!
//! A file's length is its number of lines, tests included. A function's is
//! counted from the line of its `fn` keyword (its doc comment and
//! attributes left out) to the line of its closing brace, both included:
//! free functions, methods and trait methods with a body, nested ones
//! counted on their own as well as in the function around them. Functions
//! in a `#[cfg(test)]` module and `#[test]` functions are not counted: a
//! test reads top to bottom as one story.

use super::imports::rust_files;
use std::path::Path;
use syn::spanned::Spanned;
use syn::visit::Visit;

/// A unit over its limit: where (`FILE` or `FILE: Type::function`) and its
/// length in lines.
pub type Long = (String, usize);

/// The files under `src` longer than `limit` lines, named relative to
/// `root`.
pub fn long_files(root: &Path, src: &Path, limit: usize) -> Vec<Long> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut long: Vec<Long> = files
        .iter()
        .map(|f| {
            (
                name(root, f),
                std::fs::read_to_string(f).unwrap().lines().count(),
            )
        })
        .filter(|(_, lines)| *lines > limit)
        .collect();
    long.sort();
    long
}

/// The functions under `src`, outside tests, longer than `limit` lines,
/// each named `FILE: Type::function` with the file relative to `root`.
pub fn long_functions(root: &Path, src: &Path, limit: usize) -> Vec<Long> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut long = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let parsed = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{}: does not parse: {e}", file.display()));
        let mut lengths = Lengths::default();
        lengths.visit_file(&parsed);
        let file = name(root, file);
        long.extend(
            lengths
                .found
                .into_iter()
                .filter(|(_, lines)| *lines > limit)
                .map(|(f, lines)| (format!("{file}: {f}"), lines)),
        );
    }
    long.sort();
    long
}

fn name(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .to_string_lossy()
        .into_owned()
}

/// Every function's length, with the type whose `impl` holds it.
#[derive(Default)]
struct Lengths {
    found: Vec<(String, usize)>,
    within: Option<String>,
}

impl Lengths {
    /// Records a function with a body unless it is a test; whether it was
    /// (so its body is visited for nested functions).
    fn function(
        &mut self,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
        body: &syn::Block,
    ) -> bool {
        if is_test(attrs) {
            return false;
        }
        self.record(
            &sig.ident,
            sig.fn_token.span(),
            body.brace_token.span.close(),
        );
        true
    }

    fn record(&mut self, name: &syn::Ident, from: proc_macro2::Span, to: proc_macro2::Span) {
        let name = match &self.within {
            Some(ty) => format!("{ty}::{name}"),
            None => name.to_string(),
        };
        self.found
            .push((name, to.end().line + 1 - from.start().line));
    }
}

/// `#[test]`, or `#[cfg(test)]` (also inside `all(…)`, but not `not(test)`).
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg")
                && a.meta.require_list().is_ok_and(|l| {
                    let words: Vec<String> = l
                        .tokens
                        .to_string()
                        .split(|c: char| !c.is_alphanumeric())
                        .map(str::to_owned)
                        .collect();
                    words.iter().any(|w| w == "test") && !words.iter().any(|w| w == "not")
                }))
    })
}

impl<'ast> Visit<'ast> for Lengths {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if self.function(&f.attrs, &f.sig, &f.block) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if is_test(&i.attrs) {
            return;
        }
        let outer = self.within.replace(match &*i.self_ty {
            syn::Type::Path(p) => p
                .path
                .segments
                .last()
                .map_or_else(String::new, |s| s.ident.to_string()),
            other => quote_free(other),
        });
        syn::visit::visit_item_impl(self, i);
        self.within = outer;
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if self.function(&f.attrs, &f.sig, &f.block) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        let outer = self.within.replace(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
        self.within = outer;
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.record(
                &f.sig.ident,
                f.sig.fn_token.span(),
                body.brace_token.span.close(),
            );
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

/// A type that is no plain path (`[T; 3]`, `&str`), named by its kind.
fn quote_free(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Reference(_) => "&_".to_owned(),
        syn::Type::Array(_) | syn::Type::Slice(_) => "[_]".to_owned(),
        syn::Type::Tuple(_) => "(_)".to_owned(),
        _ => "_".to_owned(),
    }
}
