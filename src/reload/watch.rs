//! The file watcher: notify's events on the mods' folders, bursts debounced into one callback,
//! editor swap and backup files left out. Only `reload` touches the watcher (invariant 5).

#[cfg(feature = "watch")]
use notify::{RecursiveMode, Watcher as _};
use std::path::Path;
#[cfg(feature = "watch")]
use std::path::PathBuf;
use std::sync::atomic::Ordering;
#[cfg(feature = "watch")]
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How long a burst of file events must stay quiet before one reload starts. Editors write a file
/// in a few events within milliseconds and `git checkout` of many files within tens of them; 50 ms
/// covers both while staying well under what a person notices.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Whether a changed path matters: data, scripts, manifests and folders do; editor swap and backup files do not.
pub fn relevant(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if name.is_empty()
        || name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || name == "4913"
    {
        return false;
    }
    if path.components().any(|c| c.as_os_str() == ".git") {
        return false;
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml" | "lua") => true,
        Some("swp" | "swx" | "swo" | "tmp" | "bak" | "orig") => false,
        // A folder (created, removed or renamed) has no extension; other files do not matter.
        None => true,
        Some(_) => false,
    }
}

/// A running watcher; dropping it stops watching. (Feature `watch`.)
#[cfg(feature = "watch")]
pub struct Watch {
    _watcher: notify::RecommendedWatcher,
}

/// Watches `dir` recursively and calls `on_change` once per quiet burst of relevant changes.
#[cfg(feature = "watch")]
pub fn watch(dir: &Path, on_change: impl Fn() + Send + 'static) -> notify::Result<Watch> {
    watch_all(&[dir.to_path_buf()], on_change)
}

/// Watches every mods directory; a burst of changes across them is one call.
#[cfg(feature = "watch")]
pub fn watch_all(dirs: &[PathBuf], on_change: impl Fn() + Send + 'static) -> notify::Result<Watch> {
    let (tx, rx) = mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(event) = res {
            if !event.kind.is_access() && event.paths.iter().any(|p| relevant(p)) {
                let _ = tx.send(());
            }
        }
    })?;
    for dir in dirs {
        watcher.watch(dir, RecursiveMode::Recursive)?;
    }
    std::thread::spawn(move || {
        while rx.recv().is_ok() {
            // Wait until the burst has been quiet for DEBOUNCE.
            loop {
                match rx.recv_timeout(DEBOUNCE) {
                    Ok(()) => continue,
                    Err(mpsc::RecvTimeoutError::Timeout) => break,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
            }
            on_change();
        }
    });
    Ok(Watch { _watcher: watcher })
}

/// A reload asked for and not started yet. The watcher calls back once per quiet burst of
/// changes; when reloading takes longer than the bursts come (a big mod set, an editor saving
/// in a loop), each call queued a reload of its own (120 changes left 100 reloads queued, and the
/// commands typed meanwhile waited behind them). Asked through this, any number of bursts before
/// the reload starts make one reload.
#[derive(Clone, Default, Debug)]
pub struct Pending(Arc<std::sync::atomic::AtomicBool>);

impl Pending {
    /// Asks for a reload; `true` when none was pending yet, so the caller sends one signal.
    pub fn raise(&self) -> bool {
        !self.0.swap(true, Ordering::AcqRel)
    }

    /// Takes the request as the reload starts: changes from now on ask for another.
    pub fn take(&self) -> bool {
        self.0.swap(false, Ordering::AcqRel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_before_a_reload_starts_make_one_reload() {
        let pending = Pending::default();
        let (tx, rx) = std::sync::mpsc::channel();
        // The watcher's thread, calling back 120 times while a reload is under way.
        let watcher = pending.clone();
        std::thread::spawn(move || {
            for _ in 0..120 {
                if watcher.raise() {
                    tx.send(()).unwrap();
                }
            }
        })
        .join()
        .unwrap();
        assert_eq!(rx.try_iter().count(), 1, "one signal for 120 bursts");
        assert!(pending.take(), "the reload takes the request");
        assert!(!pending.take());
        assert!(
            pending.raise(),
            "a change after the reload started asks again"
        );
    }

    #[test]
    fn editor_files_are_not_relevant() {
        for path in [
            "a/.main.lua.swp",
            "a/main.lua~",
            "a/#items.toml#",
            "a/.#items.toml",
            "a/4913",
            "a/items.toml.tmp",
            "a/notes.txt",
            "a/.git/HEAD",
        ] {
            assert!(!relevant(Path::new(path)), "{path}");
        }
        for path in [
            "a/items.toml",
            "a/scripts/main.lua",
            "a/newmod",
            "rats/mod.toml",
        ] {
            assert!(relevant(Path::new(path)), "{path}");
        }
    }
}
