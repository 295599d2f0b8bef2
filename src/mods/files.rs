//! Reading a mod's files, and nothing outside its folder.
//!
//! Every file lantern reads for a mod (its manifest, data files, scripts, tests and what `require`
//! loads) goes through here. A path is resolved with every symlink followed and must land inside
//! the mod folder's own real path; what it lands on must be a regular file (not a FIFO, a device
//! or a folder), and at most [`MOST_BYTES`] of it are read, however large the file says it is.
//! Walking a folder visits each real folder once (so symlink loops end) and stops at
//! [`MOST_FILES`] files. What is refused is never read, and becomes a diagnostic at the path.
//!
//! An editor's unsaved buffers stand in for the files they edit while [`with_unsaved`] runs (the
//! language server checks what the modder sees, not what was last saved): the same path checks
//! and limits apply, and only the text read is the buffer's.

use crate::diag::Code;
use crate::diag::Diagnostic;
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes lantern reads from one file of a mod: far more than any data file or script
/// needs, and little enough that a file linked to `/dev/zero` cannot exhaust memory.
pub(crate) const MOST_BYTES: u64 = 16 * 1024 * 1024;

/// The most files lantern takes from one walk of a mod's folder (its `data/` or `tests/`).
pub(crate) const MOST_FILES: usize = 10_000;

/// The most folders deep a walk goes below the folder it walks: far more than any mod needs
/// (`data/items/weapons/swords` is 3), and few enough that resolving each path, which costs a
/// system call per folder on the way, stays cheap (600 levels took seconds).
pub(crate) const MOST_DEPTH: usize = 16;

/// Why a file of a mod was not read.
#[derive(Debug)]
pub(crate) enum Refused {
    /// It resolves outside the mod folder (a symlink that leads out). Where to is not kept:
    /// lantern's messages do not show it (the path is the player's).
    Outside,
    /// It is not a regular file.
    NotAFile(&'static str),
    /// It is larger than [`MOST_BYTES`].
    TooLarge,
    /// Its symlinks loop.
    Loop,
    /// It is a folder more than [`MOST_DEPTH`] deep.
    TooDeep,
    /// The system would not read it.
    Unreadable(std::io::Error),
}

impl Refused {
    /// The diagnostic for a refused file, shown as `display` (its path relative to the mods).
    pub(crate) fn diagnostic(&self, display: &str) -> Diagnostic {
        match self {
            Refused::Outside => Diagnostic::error(Code::FileRefused, format!(
                "`{display}` leads outside its mod's folder and is not read"
            ))
            .with_help("a mod reads only files inside its own folder; copy the file in instead of linking to it"),
            Refused::NotAFile(kind) => Diagnostic::error(Code::FileRefused, format!(
                "`{display}` is {kind}, not a file, and is not read"
            )),
            Refused::TooLarge => Diagnostic::error(Code::FileRefused, format!(
                "`{display}` is larger than {} and is not read",
                crate::diag::bytes(MOST_BYTES as usize)
            ))
            .with_help("split it into smaller files"),
            Refused::Loop => Diagnostic::error(Code::FileRefused, format!(
                "`{display}` is a symlink that leads back to itself and is not read"
            )),
            Refused::TooDeep => Diagnostic::error(Code::FileRefused, format!(
                "`{display}` is a folder more than {MOST_DEPTH} deep, and nothing in it is read"
            ))
            .with_help("keep a mod's folders shallower"),
            Refused::Unreadable(e) => Diagnostic::error(Code::FileRefused, format!("cannot read `{display}`: {e}")),
        }
    }
}

/// Texts that stand in for files on disk, by the files' real paths.
pub(crate) type Unsaved = std::collections::HashMap<PathBuf, std::sync::Arc<str>>;

thread_local! {
    /// The unsaved texts [`with_unsaved`] put in place on this thread, if any.
    static UNSAVED: std::cell::RefCell<Option<std::sync::Arc<Unsaved>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `unsaved` read in place of the files at those real paths (which must exist on
/// disk: a buffer of a file never saved is not part of any mod yet), then puts the files back.
pub(crate) fn with_unsaved<R>(unsaved: std::sync::Arc<Unsaved>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<std::sync::Arc<Unsaved>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            UNSAVED.with(|u| *u.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(UNSAVED.with(|u| u.borrow_mut().replace(unsaved)));
    f()
}

/// The unsaved texts standing in for files on this thread, if any: what another thread reading
/// for this one puts in place ([`with_unsaved_of`]).
pub(crate) fn unsaved_now() -> Option<std::sync::Arc<Unsaved>> {
    UNSAVED.with(|u| u.borrow().clone())
}

/// Runs `f` with the unsaved texts another thread had ([`unsaved_now`]) in place, if any.
pub(crate) fn with_unsaved_of<R>(
    unsaved: Option<std::sync::Arc<Unsaved>>,
    f: impl FnOnce() -> R,
) -> R {
    match unsaved {
        Some(unsaved) => with_unsaved(unsaved, f),
        None => f(),
    }
}

/// The unsaved text standing in for the file at the real path `real`, if any.
fn unsaved(real: &Path) -> Option<std::sync::Arc<str>> {
    UNSAVED.with(|u| u.borrow().as_ref().and_then(|m| m.get(real).cloned()))
}

/// A folder as it was given (`mods/rats`) and its real path, which every file of the mod must
/// resolve inside.
#[derive(Debug, Clone)]
pub(crate) struct ModRoot {
    given: PathBuf,
    real: PathBuf,
}

impl ModRoot {
    /// The real path of the folder `dir`, resolved from the file system's root.
    pub(crate) fn of(dir: &Path) -> ModRoot {
        ModRoot {
            given: dir.to_path_buf(),
            real: std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
        }
    }

    /// The folder `dir` inside this one (a mod in its mods directory), its real path found
    /// from this one's where it can be ([`ModRoot::plain`]).
    pub(crate) fn within(&self, dir: &Path) -> ModRoot {
        match self.plain(dir) {
            Plain::Found(real, _) => ModRoot {
                given: dir.to_path_buf(),
                real,
            },
            Plain::Missing(_) | Plain::Unsure => ModRoot::of(dir),
        }
    }

    /// The real path.
    #[cfg(test)]
    fn real(&self) -> &Path {
        &self.real
    }

    /// The real path of `path` when it lies under the folder as given and no part of it below
    /// the folder is a symlink, `.` or `..`: the folder's real path and the same parts, each
    /// looked at with one `lstat` (resolving a path from the root reads every part of it, a
    /// tenth of a reload at a hundred thousand definitions), with what the last part's `lstat`
    /// said, which (no part being a symlink) is what a `stat` of the real path would say. A path
    /// one of whose parts is not there at all is missing (a full resolution would find so too);
    /// anything else is left to that resolution.
    fn plain(&self, path: &Path) -> Plain {
        let Ok(rel) = path.strip_prefix(&self.given) else {
            return Plain::Unsure;
        };
        let mut real = self.real.clone();
        let mut last = None;
        for part in rel.components() {
            let std::path::Component::Normal(name) = part else {
                return Plain::Unsure;
            };
            real.push(name);
            let meta = match std::fs::symlink_metadata(&real) {
                Ok(meta) => meta,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Plain::Missing(e),
                Err(_) => return Plain::Unsure,
            };
            if meta.file_type().is_symlink() {
                return Plain::Unsure;
            }
            last = Some(meta);
        }
        Plain::Found(real, last)
    }
}

/// What [`ModRoot::plain`] found of a path.
enum Plain {
    /// Its real path, and what `stat` would say of it (`None` for the folder itself).
    Found(PathBuf, Option<std::fs::Metadata>),
    /// A part of it is not there.
    Missing(std::io::Error),
    /// A symlink, a `.` or `..` part, a path given otherwise, an error: the full resolution decides.
    Unsure,
}

/// Reads `rel` (a `/`-separated path) of the mod folder `root`: `Ok(None)` when there is no such
/// file, an error when there is one that may not be read.
pub(crate) fn read_mod_file(root: &ModRoot, rel: &str) -> Result<Option<Vec<u8>>, Refused> {
    let path = root.given.join(rel);
    // Plainly inside: read at once. Otherwise a file that is not there at all is no file, and
    // anything else (a link, a link out) is for the full resolution to judge.
    match root.plain(&path) {
        Plain::Found(real, known) => return read_resolved(&real, known).map(Some),
        Plain::Missing(_) => return Ok(None),
        Plain::Unsure => {}
    }
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    read_inside(root, &path).map(Some)
}

/// Reads the file `path`, which must resolve inside the folder `root`.
pub(crate) fn read_inside(root: &ModRoot, path: &Path) -> Result<Vec<u8>, Refused> {
    let (real, known) = resolve(root, path)?;
    read_resolved(&real, known)
}

/// Reads the file at the real path `real`, resolved inside its mod; `known`: what `stat` says
/// of it, when its resolution already looked.
fn read_resolved(real: &Path, known: Option<std::fs::Metadata>) -> Result<Vec<u8>, Refused> {
    if let Some(text) = unsaved(real) {
        if text.len() as u64 > MOST_BYTES {
            return Err(Refused::TooLarge);
        }
        return Ok(text.as_bytes().to_vec());
    }
    let kind = metadata(real, known).map_err(Refused::Unreadable)?;
    if !kind.is_file() {
        return Err(Refused::NotAFile(kind_of(&kind)));
    }
    let file = std::fs::File::open(real).map_err(Refused::Unreadable)?;
    // Room for what the file held when looked at, and a byte to see it ended: read in one go,
    // not from 32 bytes up by doubling (a bounded read has no size to go by).
    let mut bytes = Vec::with_capacity(kind.len().min(MOST_BYTES) as usize + 1);
    file.take(MOST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Refused::Unreadable)?;
    if bytes.len() as u64 > MOST_BYTES {
        return Err(Refused::TooLarge);
    }
    Ok(bytes)
}

/// What a file's metadata says of its contents: its length and when it was last written, and
/// whether that can be trusted to change with its next edit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Stamp {
    len: u64,
    modified: std::time::SystemTime,
    /// Written at least [`RACY`] before it was read: an edit after the read shows a later time.
    /// One written just before could be written again within the file system's clock step
    /// (a second or two on some) and keep its time, so it is read again (as git does).
    settled: bool,
}

/// How long before its reading a file must have been written for its stamp to be trusted.
const RACY: std::time::Duration = std::time::Duration::from_secs(3);

impl Stamp {
    /// Whether a file with stamp `now` holds what it held when this stamp was taken.
    pub(crate) fn unchanged(&self, now: &Stamp) -> bool {
        self.settled && self.len == now.len && self.modified == now.modified
    }
}

/// The stamp of the regular file `path`, which must resolve inside the folder `root`, taken now;
/// `None` when the file must be read to know (an editor's unsaved buffer stands in for it, or
/// anything [`read_inside`] would refuse, which reading then reports).
pub(crate) fn stamp_inside(root: &ModRoot, path: &Path) -> Option<Stamp> {
    let (real, known) = resolve(root, path).ok()?;
    if unsaved(&real).is_some() {
        return None;
    }
    let meta = metadata(&real, known).ok()?;
    if !meta.is_file() || meta.len() > MOST_BYTES {
        return None;
    }
    let modified = meta.modified().ok()?;
    let settled = std::time::SystemTime::now()
        .duration_since(modified)
        .is_ok_and(|age| age >= RACY);
    Some(Stamp {
        len: meta.len(),
        modified,
        settled,
    })
}

/// The real path of `path`, which must be inside `root`, and what its plain resolution's `lstat`
/// said of it, when that is what a `stat` would say ([`ModRoot::plain`]).
fn resolve(root: &ModRoot, path: &Path) -> Result<(PathBuf, Option<std::fs::Metadata>), Refused> {
    match root.plain(path) {
        Plain::Found(real, known) => return Ok((real, known)),
        Plain::Missing(e) => return Err(Refused::Unreadable(e)),
        Plain::Unsure => {}
    }
    let real = std::fs::canonicalize(path).map_err(|e| {
        // ELOOP: the message is the portable way to tell it (there is no `ErrorKind` for it).
        // ELOOP is 40 on Linux and 62 on the BSDs and macOS.
        if matches!(e.raw_os_error(), Some(40 | 62)) || e.to_string().contains("symbolic links") {
            Refused::Loop
        } else {
            Refused::Unreadable(e)
        }
    })?;
    if real.starts_with(&root.real) {
        Ok((real, None))
    } else {
        Err(Refused::Outside)
    }
}

/// What `stat` says of the real path `real`: `known` when its resolution already looked.
fn metadata(real: &Path, known: Option<std::fs::Metadata>) -> std::io::Result<std::fs::Metadata> {
    match known {
        Some(meta) => Ok(meta),
        None => std::fs::metadata(real),
    }
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "something else"
    }
}

/// What a walk found: a file inside the mod, or an entry refused, with its path as found.
pub(crate) enum Found {
    File(PathBuf),
    Refused(PathBuf, Refused),
    /// The walk stopped at [`MOST_FILES`].
    TooMany,
}

/// Every file under `dir` (at any depth) of the mod folder `root`, in a stable order (sorted by
/// path within each folder), skipping hidden entries (`.git`, `.swp`).
/// Symlinks are followed only inside the mod; each real folder is visited once.
pub(crate) fn walk(root: &ModRoot, dir: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut files = 0;
    walk_into(root, dir, 0, &mut seen, &mut files, &mut out);
    out
}

fn walk_into(
    root: &ModRoot,
    dir: &Path,
    depth: usize,
    seen: &mut BTreeSet<PathBuf>,
    files: &mut usize,
    out: &mut Vec<Found>,
) {
    if depth > MOST_DEPTH {
        out.push(Found::Refused(dir.to_path_buf(), Refused::TooDeep));
        return;
    }
    let real = match resolve(root, dir) {
        Ok((real, _)) => real,
        Err(Refused::Unreadable(_)) => return, // no such folder: nothing to walk
        Err(refused) => {
            out.push(Found::Refused(dir.to_path_buf(), refused));
            return;
        }
    };
    if !seen.insert(real) {
        return; // a folder reached again through a symlink
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if *files >= MOST_FILES {
            if !matches!(out.last(), Some(Found::TooMany)) {
                out.push(Found::TooMany);
            }
            return;
        }
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        // Where it leads first: what lies outside the mod is not looked at, not even its kind.
        let (real, known) = match resolve(root, &path) {
            Ok(found) => found,
            Err(refused) => {
                out.push(Found::Refused(path, refused));
                continue;
            }
        };
        match metadata(&real, known) {
            Ok(meta) if meta.is_dir() => walk_into(root, &path, depth + 1, seen, files, out),
            Ok(meta) if meta.is_file() => {
                *files += 1;
                out.push(Found::File(path));
            }
            Ok(meta) => out.push(Found::Refused(path, Refused::NotAFile(kind_of(&meta)))),
            Err(e) => out.push(Found::Refused(path, Refused::Unreadable(e))),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn mod_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("m/data")).unwrap();
        std::fs::write(dir.path().join("m/data/a.toml"), "x = 1").unwrap();
        std::fs::write(dir.path().join("secret"), "token").unwrap();
        dir
    }

    #[test]
    fn a_file_inside_is_read_and_a_link_out_is_refused() {
        let dir = mod_dir();
        let m = dir.path().join("m");
        let root = ModRoot::of(&m);
        assert_eq!(
            read_mod_file(&root, "data/a.toml").unwrap().unwrap(),
            b"x = 1"
        );
        assert!(read_mod_file(&root, "data/none.toml").unwrap().is_none());
        symlink(dir.path().join("secret"), m.join("data/env.toml")).unwrap();
        assert!(matches!(
            read_mod_file(&root, "data/env.toml"),
            Err(Refused::Outside)
        ));
        // A link that stays inside the mod is fine.
        symlink(m.join("data/a.toml"), m.join("data/b.toml")).unwrap();
        assert!(read_mod_file(&root, "data/b.toml").unwrap().is_some());
    }

    #[test]
    fn devices_loops_and_folders_are_refused() {
        let dir = mod_dir();
        let m = dir.path().join("m");
        let root = ModRoot::of(&m);
        assert!(matches!(
            read_mod_file(&root, "data"),
            Err(Refused::NotAFile("a folder"))
        ));
        symlink(m.join("data/loop.toml"), m.join("data/loop.toml")).unwrap();
        assert!(matches!(
            read_mod_file(&root, "data/loop.toml"),
            Err(Refused::Loop)
        ));
    }

    #[test]
    fn a_walk_visits_each_folder_once_and_names_what_it_refused() {
        let dir = mod_dir();
        let root = dir.path().join("m");
        // Two links back to the folder itself: walked naively, 2^depth paths.
        symlink(root.join("data"), root.join("data/a")).unwrap();
        symlink(root.join("data"), root.join("data/b")).unwrap();
        symlink(dir.path(), root.join("data/out")).unwrap();
        let found = walk(&ModRoot::of(&root), &root.join("data"));
        let files: Vec<_> = found
            .iter()
            .filter_map(|f| match f {
                Found::File(p) => Some(p.file_name().unwrap().to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(files, ["a.toml"]);
        let refused: Vec<_> = found
            .iter()
            .filter_map(|f| match f {
                Found::Refused(p, Refused::Outside) => {
                    Some(p.file_name().unwrap().to_string_lossy().into_owned())
                }
                _ => None,
            })
            .collect();
        assert_eq!(refused, ["out"]);
    }
}

#[cfg(all(test, unix))]
mod root_tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_mod_found_from_its_mods_directory_resolves_as_from_the_root() {
        // The mods directory is reached through a link, one mod folder is a link to a folder
        // elsewhere: each mod's real path, found from the directory's, is the one resolving it
        // from the file system's root gives, and what it refuses is the same.
        let dir = tempfile::tempdir().unwrap();
        let real_mods = dir.path().join("real_mods");
        std::fs::create_dir_all(real_mods.join("m/data")).unwrap();
        std::fs::write(real_mods.join("m/data/a.toml"), "x = 1").unwrap();
        std::fs::create_dir_all(dir.path().join("elsewhere/data")).unwrap();
        std::fs::write(dir.path().join("secret"), "token").unwrap();
        symlink(&real_mods, dir.path().join("mods")).unwrap();
        symlink(dir.path().join("elsewhere"), real_mods.join("linked")).unwrap();
        symlink(dir.path().join("secret"), real_mods.join("m/data/env.toml")).unwrap();
        let mods = ModRoot::of(&dir.path().join("mods"));
        for name in ["m", "linked"] {
            let given = dir.path().join("mods").join(name);
            let found = mods.within(&given);
            assert_eq!(found.real(), ModRoot::of(&given).real(), "{name}");
        }
        let m = mods.within(&dir.path().join("mods/m"));
        assert_eq!(read_mod_file(&m, "data/a.toml").unwrap().unwrap(), b"x = 1");
        assert!(matches!(
            read_mod_file(&m, "data/env.toml"),
            Err(Refused::Outside)
        ));
        // `..` leaves the plain path to the full resolution, which refuses it.
        let up = dir.path().join("mods/m/data/../../../secret");
        assert!(matches!(read_inside(&m, &up), Err(Refused::Outside)));
    }
}

/// The path relative to the mods directory with `/` separators: `rats/data/items.toml`.
pub(crate) fn display_path(path: &Path, mods_root: &Path) -> String {
    let rel = path.strip_prefix(mods_root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(all(test, feature = "cli"))]
mod unsaved_tests {
    use super::*;

    #[test]
    fn an_unsaved_text_is_read_in_place_of_its_file_only_while_it_stands_in() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.toml");
        std::fs::write(&file, "on disk").unwrap();
        let root = ModRoot::of(dir.path());
        let unsaved: Unsaved = [(
            std::fs::canonicalize(&file).unwrap(),
            "in the editor".into(),
        )]
        .into();
        let read = with_unsaved(std::sync::Arc::new(unsaved), || {
            read_inside(&root, &file).unwrap()
        });
        assert_eq!(read, b"in the editor");
        assert_eq!(read_inside(&root, &file).unwrap(), b"on disk");
        // A symlink out of the mod is refused whatever stands in for its target.
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "x").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&secret, dir.path().join("link.toml")).unwrap();
            let unsaved: Unsaved = [(std::fs::canonicalize(&secret).unwrap(), "y".into())].into();
            let read = with_unsaved(std::sync::Arc::new(unsaved), || {
                read_inside(&root, &dir.path().join("link.toml"))
            });
            assert!(matches!(read, Err(Refused::Outside)));
        }
    }
}
