//! Links lantern's own Lua: Lua 5.4.8 with lantern's patches, compiled by `lantern-lua-src`.
//!
//! mlua-sys is used with its `external` feature, so it declares Lua's functions and links none;
//! this script compiles the patched sources and links them into lantern itself. A game that
//! depends on lantern therefore gets this Lua with nothing in its own manifest.

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let lib_dir = lantern_lua_src::build(&target, std::path::Path::new(&out_dir));
    println!("cargo::rerun-if-changed=build.rs");
    println!(
        "cargo::rerun-if-changed={}",
        lantern_lua_src::source_dir().display()
    );
    println!("cargo::rustc-link-search=native={}", lib_dir.display());
    println!("cargo::rustc-link-lib=static={}", lantern_lua_src::LIB_NAME);
}
