//! The random-stream stubs a test sets (`g:stub_rng`), with where each was set: a stub no roll
//! used fails its test at that line, since what the test checked was the seed's luck.

use mlua::Lua;

/// The running test's stubs (`g:stub_rng`), with where each was set and whether a roll used it.
#[derive(Default)]
struct Stubs(Vec<(std::sync::Arc<std::sync::atomic::AtomicBool>, String)>);

/// Notes a stub the running test set at the line calling this, to ask at its end whether a roll
/// used it.
pub(super) fn stub_set(lua: &Lua, used: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    let at = crate::lua::report::call_site(lua)
        .map(|(f, l)| format!("{f}:{l}: "))
        .unwrap_or_default();
    if lua.app_data_ref::<Stubs>().is_none() {
        lua.set_app_data(Stubs::default());
    }
    if let Some(mut s) = lua.app_data_mut::<Stubs>() {
        s.0.push((used, at));
    }
}

/// The first stub of the test that no roll used, as its failure: the rolls it was meant for came
/// before it (or on another stream), so what the test checked was the seed's luck.
pub(super) fn unrolled_failure(lua: &Lua) -> Option<mlua::Error> {
    let s = lua.app_data_ref::<Stubs>()?;
    let (_, at) =
        s.0.iter()
            .find(|(used, _)| !used.load(std::sync::atomic::Ordering::Relaxed))?;
    Some(mlua::Error::runtime(format!(
        "{at}g:stub_rng was never rolled: the rolls it was meant for came before it, or on \
         another stream, so the test passed on the seed's luck"
    )))
}

/// Forgets the stubs of the test before.
pub(super) fn forget(lua: &Lua) {
    if let Some(mut s) = lua.app_data_mut::<Stubs>() {
        s.0.clear();
    }
}
