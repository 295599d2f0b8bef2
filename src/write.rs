//! Writing lantern's own files (saves, editor support files): whole or not at all, and never
//! through a link.
//!
//! A file lantern writes goes into a new temporary file beside its target (named uniquely for this
//! process and write, so one killed half way is never clobbered by the next), then is renamed over
//! it: a reader sees the old file or the new one, never half of one. A target that exists must be
//! a plain file: a symlink (which would make lantern write wherever it points) or a device is
//! refused, never replaced. A missing parent folder is made.

use std::path::Path;

/// Writes `bytes` to `path` as described above; `what` names what lantern writes, for messages
/// (`saves`: "lantern writes saves only to plain files").
pub(crate) fn replacing(path: &Path, bytes: &[u8], what: &str) -> Result<(), String> {
    use std::io::Write;
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let shown = crate::diag::visible(&path.display().to_string()).into_owned();
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(format!(
                "`{shown}` is a symlink; lantern writes {what} only to plain files"
            ))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "`{shown}` is not a plain file; lantern writes {what} only to plain files"
            ))
        }
        _ => {}
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("`{shown}` names no file"))?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot make the folder of `{shown}`: {e}"))?;
    }
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write `{shown}`: {e}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_and_a_symlink_or_a_folder_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        replacing(&path, b"one", "saves").unwrap();
        replacing(&path, b"two", "saves").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        // No temporary file is left beside it.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(replacing(dir.path(), b"x", "saves")
            .unwrap_err()
            .contains("not a plain file"));
        #[cfg(unix)]
        {
            let target = dir.path().join("target.txt");
            std::fs::write(&target, "keep").unwrap();
            let link = dir.path().join("link.json");
            std::os::unix::fs::symlink(&target, &link).unwrap();
            assert_eq!(
                replacing(&link, b"x", "saves").unwrap_err(),
                format!(
                    "`{}` is a symlink; lantern writes saves only to plain files",
                    link.display()
                )
            );
            assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        }
    }

    #[test]
    fn a_leftover_temporary_file_is_not_clobbered_and_a_missing_folder_is_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        // What an older lantern killed half way left behind.
        std::fs::write(dir.path().join("run.tmp"), "half").unwrap();
        replacing(&path, b"whole", "saves").unwrap();
        assert_eq!(std::fs::read(dir.path().join("run.tmp")).unwrap(), b"half");
        let nested = dir.path().join("a/b/defs.lua");
        replacing(&nested, b"--", "editor files").unwrap();
        assert_eq!(std::fs::read(&nested).unwrap(), b"--");
    }
}
