//! `bitbench history add`: file results files in a store, all or none.

use super::usage;
use crate::error::Error;
use crate::outln;
use reports::ResultsFile;
use reports::history::{Added, Store, admit};
use std::path::PathBuf;

/// `bitbench history add`'s command line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results files written by `bench`, `count`, `matrix` or `ab`.
    #[arg(required = true, value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// The store directory; created if absent.
    #[arg(long, value_name = "DIR")]
    store: PathBuf,
    /// File runs measured on a tree with uncommitted changes too (they
    /// are kept but left out of the trend charts).
    #[arg(long)]
    allow_dirty: bool,
}

/// Runs `bitbench history add`: reads and checks every file before the
/// store is touched, then files them; should a write fail, the runs this
/// call filed are removed again.
pub fn run(args: Args) -> Result<(), Error> {
    let mut runs = Vec::new();
    for path in &args.results {
        let file = ResultsFile::read(path)?;
        admit(&file, args.allow_dirty).map_err(|e| usage(format!("{}: {e}", path.display())))?;
        runs.push((path, file));
    }
    let store = Store::open(&args.store).map_err(usage)?;
    let mut filed = Vec::new();
    let mut present = 0;
    for (path, file) in &runs {
        match store.add(file, path.parent(), args.allow_dirty) {
            Ok(Added::New(at)) => {
                outln!("{}: filed as {}", path.display(), at.display());
                filed.push(at);
            }
            Ok(Added::Present(at)) => {
                outln!("{}: already filed as {}", path.display(), at.display());
                present += 1;
            }
            Err(e) => {
                for at in &filed {
                    let _ = std::fs::remove_file(at);
                }
                return Err(usage(format!("{}: {e}", path.display())));
            }
        }
    }
    outln!(
        "{}: {} run(s) filed, {present} already present",
        args.store.display(),
        filed.len()
    );
    Ok(())
}
