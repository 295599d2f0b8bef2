//! lantern: the Lua sources are compiled by mlua-sys's build script, which cargo reruns only when
//! this crate changes; this makes an edit to a C file a change of this crate.
fn main() {
    println!("cargo::rerun-if-changed=lua-5.4.8");
}
