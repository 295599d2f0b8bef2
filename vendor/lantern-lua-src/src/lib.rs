//! Builds lantern's Lua: Lua 5.4.8 with lantern's patches (see `README.md`), compiled from the
//! sources in this crate into a static library, for a build script to link.
//!
//! lantern's build script calls [`build`] and prints what it returns; mlua-sys is used with its
//! `external` feature, so it links no Lua of its own and this one is the only Lua in the binary.
//! The crate knows nothing of lantern: it only compiles C.

use std::path::{Path, PathBuf};

/// The folder that holds the Lua sources, so a build script can ask to be rerun when they change.
pub fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lua-5.4.8")
}

/// The name of the static library [`build`] writes (`liblua5.4.a`, or `lua5.4.lib`).
pub const LIB_NAME: &str = "lua5.4";

/// Compiles the Lua sources into `out_dir/lib` for `target`, with the defines Lua's own makefile
/// uses for that platform, and returns the folder that holds the library.
///
/// Called from a build script: `target` is its `TARGET`, `out_dir` its `OUT_DIR`. Panics with the
/// compiler's message when the C does not compile, which is how a build script reports failure.
pub fn build(target: &str, out_dir: &Path) -> PathBuf {
    let source = source_dir();
    let lib_dir = out_dir.join("lib");
    let mut cc = cc::Build::new();
    cc.warnings(false)
        .cargo_metadata(false)
        .target(target)
        .out_dir(&lib_dir)
        .include(&source)
        .flag_if_supported("-fno-common")
        .define("LUA_COMPAT_5_3", None);
    // The interpreter is the scripts' hot path: optimised even in a debug build (whose tests run
    // many scripts), and as the profile asks otherwise.
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        cc.opt_level(2);
    }
    if let Some(define) = platform_define(target) {
        cc.define(define, None);
    }
    if std::env::var("PROFILE").as_deref() == Ok("debug") {
        // The C API checks its arguments in lantern's debug builds, so a misuse fails loudly in tests.
        cc.define("LUA_USE_APICHECK", None).debug(true);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&source)
        .unwrap_or_else(|e| panic!("cannot read the Lua sources in {}: {e}", source.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    // Sorted, so the library is the same whatever order the file system lists them in.
    files.sort();
    cc.files(files).compile(LIB_NAME);
    lib_dir
}

/// The `LUA_USE_*` define for a target, as Lua's makefile picks it.
fn platform_define(target: &str) -> Option<&'static str> {
    if target.contains("linux") || target.ends_with("bsd") || target.contains("android") {
        Some("LUA_USE_LINUX")
    } else if target.contains("apple-darwin") {
        Some("LUA_USE_MACOSX")
    } else if target.contains("apple-ios") {
        Some("LUA_USE_IOS")
    } else if target.contains("windows") {
        Some("LUA_USE_WINDOWS")
    } else if target.contains("wasi") || target.contains("emscripten") {
        Some("LUA_USE_POSIX")
    } else {
        None
    }
}
