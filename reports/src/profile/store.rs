//! Keeping a profile beside the results that point at it.
//!
//! A callgrind file of a small kernel is a few kilobytes, one of a large
//! program hundreds: large ones are stored gzip-compressed (which
//! [`Profile::read`](super::Profile::read) reads as they are), small ones
//! plain so they stay readable with any text tool. Written to a temporary
//! name and renamed, like results files, so a crash leaves no half profile.

use flate2::Compression;
use flate2::write::GzEncoder;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Profiles larger than this many bytes are stored compressed.
pub const COMPRESS_ABOVE: u64 = 64 * 1024;

/// Copies the callgrind profile `src` to `dest` plus `.callgrind`, or plus
/// `.callgrind.gz` when it is larger than [`COMPRESS_ABOVE`] (or already
/// compressed), and returns the path written. `dest` may hold dots
/// (`density:0.5`); nothing of it is taken for an extension. Its directory
/// must exist.
pub fn store(src: &Path, dest: &Path) -> io::Result<PathBuf> {
    let bytes = fs::read(src)?;
    let gzipped = bytes.starts_with(&[0x1f, 0x8b]);
    let compress = !gzipped && bytes.len() as u64 > COMPRESS_ABOVE;
    let ext = if gzipped || compress {
        ".callgrind.gz"
    } else {
        ".callgrind"
    };
    let path = with_suffix(dest, ext);
    let bytes = if compress {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&bytes)?;
        gz.finish()?
    } else {
        bytes
    };
    let tmp = with_suffix(&path, ".tmp");
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, &path)?;
    Ok(path)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path);
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bitbench-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn data(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/callgrind")
            .join(name)
    }

    #[test]
    fn small_profiles_stay_plain_and_large_ones_are_compressed() {
        let dir = scratch("sizes");
        let small = data("components-swar-density_0.5.callgrind");
        let stored = store(&small, &dir.join("components-swar-density:0.5-x86-64")).unwrap();
        assert_eq!(
            stored.file_name().unwrap(),
            "components-swar-density:0.5-x86-64.callgrind"
        );
        assert_eq!(fs::read(&stored).unwrap(), fs::read(&small).unwrap());
        assert_eq!(
            Profile::read(&stored).unwrap(),
            Profile::read(&small).unwrap()
        );

        // A large profile: the small one's functions repeated under other
        // names.
        let text = fs::read_to_string(&small).unwrap();
        let body = text.find("\nob=").unwrap()..text.find("\ntotals:").unwrap();
        let mut large = text[..body.end].to_owned();
        for i in 0..8 {
            large += &text[body.clone()].replace("fn=", &format!("fn=copy{i}::"));
        }
        assert!(large.len() as u64 > COMPRESS_ABOVE);
        let src = dir.join("large.out");
        fs::write(&src, &large).unwrap();
        let stored = store(&src, &dir.join("large")).unwrap();
        assert_eq!(stored.file_name().unwrap(), "large.callgrind.gz");
        assert!(fs::metadata(&stored).unwrap().len() < large.len() as u64 / 4);
        assert_eq!(
            Profile::read(&stored).unwrap(),
            Profile::parse(&large).unwrap()
        );

        // Storing a stored profile keeps it compressed.
        let again = store(&stored, &dir.join("again")).unwrap();
        assert_eq!(again.file_name().unwrap(), "again.callgrind.gz");
        assert_eq!(fs::read(&again).unwrap(), fs::read(&stored).unwrap());
        assert!(
            fs::read_dir(&dir).unwrap().all(|e| !e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp"))
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_source_is_an_error() {
        let dir = scratch("missing");
        let err = store(&dir.join("gone.out"), &dir.join("kept")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        fs::remove_dir_all(&dir).unwrap();
    }
}
