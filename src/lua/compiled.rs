//! Each mod's `main.lua` compiled once per mod set, and its bytecode run by every game of the set.
//!
//! A test over a pack of 200 mods makes a game of its own: a new Lua state running every mod's
//! `main.lua`. Reading and compiling the text was a quarter of that game's cost, the same work in
//! every game. So a load compiles each `main.lua` once, in a small state of its own ([`compile`]),
//! and every game of the mod set (the load's own, each test's) runs the bytecode: played and
//! tested games run their scripts the same way, and see the same state. The compile is charged
//! to the script wherever its bytecode runs: lantern's Lua charges reading a chunk as the lexer
//! goes (a token, the bytes it spans, the parser's searches), the small state counts what its
//! compile was charged (`lua_gethookleft`), and a game charges that to the mod's budget before it
//! runs the chunk. A text that does not compile, or not within the mod's memory, is kept as text:
//! a game compiles it itself and fails the way it always did, with the same message.
//!
//! Only lantern's own load makes bytecode; a script's `load` still refuses binary chunks.

use mlua::ffi;
use std::ffi::{c_int, c_void, CString};
use std::sync::Arc;

extern "C-unwind" {
    fn lua_gethookleft(state: *mut ffi::lua_State) -> c_int;
    fn lua_setowner(state: *mut ffi::lua_State, owner: c_int) -> c_int;
    fn lua_setownerlimit(state: *mut ffi::lua_State, owner: c_int, limit: usize);
    fn lua_stop(state: *mut ffi::lua_State, msg: *const std::ffi::c_char);
}

/// A mod's `main.lua`: its text, and its bytecode when it compiled.
#[derive(Debug)]
pub(crate) struct Script {
    text: Arc<str>,
    chunk: Option<Chunk>,
}

/// A compiled chunk and the work its compile was charged.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// `lua_dump` of the chunk, with its debug information (an error's `file:line`).
    pub(crate) bytecode: Box<[u8]>,
    /// The count units reading the text cost, charged again wherever the bytecode runs.
    pub(crate) units: u64,
}

impl Script {
    /// `text`, compiled as the chunk `name` (`@core/scripts/main.lua`) within `memory` bytes.
    pub(crate) fn compile(text: Arc<str>, name: &str, memory: usize) -> Script {
        let chunk = compile(&text, name, memory);
        Script { text, chunk }
    }

    /// The text, as the load read it.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The bytecode, unless the text did not compile.
    pub(crate) fn chunk(&self) -> Option<&Chunk> {
        self.chunk.as_ref()
    }
}

/// lantern's own chunk `source`, named `name`, as a function of `lua`: compiled once per process
/// and loaded from its bytecode in every state after (each test game's state makes the same few).
pub(crate) fn own_chunk(lua: &mlua::Lua, source: &str, name: &str) -> mlua::Result<mlua::Function> {
    type Made = Vec<(String, Arc<Chunk>)>;
    static MADE: std::sync::Mutex<Made> = std::sync::Mutex::new(Vec::new());
    let known = MADE.lock().ok().and_then(|made| {
        made.iter()
            .find(|(text, _)| text == source)
            .map(|(_, chunk)| chunk.clone())
    });
    let chunk = match known {
        Some(chunk) => Some(chunk),
        None => compile(source, name, usize::MAX).map(|chunk| {
            let chunk = Arc::new(chunk);
            if let Ok(mut made) = MADE.lock() {
                made.push((source.to_string(), chunk.clone()));
            }
            chunk
        }),
    };
    match chunk {
        Some(chunk) => lua
            .load(&chunk.bytecode[..])
            .set_mode(mlua::ChunkMode::Binary)
            .set_name(name)
            .into_function(),
        // It does not compile: loading the text says why.
        None => lua.load(source).set_name(name).into_function(),
    }
}

/// A Lua state of its own, closed when dropped.
struct Scratch(*mut ffi::lua_State);

impl Drop for Scratch {
    fn drop(&mut self) {
        // SAFETY: the state was made by `luaL_newstate`, is closed once, here, and nothing of it
        // outlives this (the bytecode is copied out).
        unsafe { ffi::lua_close(self.0) }
    }
}

/// The count given the scratch state's hook: no compile of a file lantern reads reaches it.
const NEVER: c_int = c_int::MAX;

/// Compiles `text` in a state of its own: its bytecode and what reading it was charged, or
/// `None` when it does not compile (a syntax error, past `memory`).
fn compile(text: &str, name: &str, memory: usize) -> Option<Chunk> {
    let name = CString::new(name).ok()?;
    // SAFETY: a new state, used only here and closed by `Scratch`. Loading is a protected call
    // that returns its status (a syntax or memory error included); `lua_dump` calls `write` with
    // blocks valid for the call and `out` as its data, and raises nothing.
    unsafe {
        let state = ffi::luaL_newstate();
        if state.is_null() {
            return None;
        }
        let _close = Scratch(state);
        // The compile within the mod's memory, as it would be in the mod's own account.
        lua_setownerlimit(state, 1, memory);
        lua_setowner(state, 1);
        // A count hook that never fires in practice: the count only goes down, by what the lexer
        // and the parser charge. Should one ever reach it, the compile stops and the text stays text.
        ffi::lua_sethook(state, Some(stop), ffi::LUA_MASKCOUNT, NEVER);
        let status = ffi::luaL_loadbufferx(
            state,
            text.as_ptr().cast(),
            text.len(),
            name.as_ptr(),
            c"t".as_ptr(),
        );
        if status != ffi::LUA_OK {
            return None;
        }
        let units = u64::try_from(NEVER - lua_gethookleft(state)).ok()?;
        let mut out: Vec<u8> = Vec::with_capacity(text.len());
        if ffi::lua_dump(state, write, (&mut out as *mut Vec<u8>).cast(), 0) != 0 {
            return None;
        }
        Some(Chunk {
            bytecode: out.into_boxed_slice(),
            units,
        })
    }
}

/// The scratch state's hook: a compile this long is not made into bytecode.
unsafe extern "C-unwind" fn stop(state: *mut ffi::lua_State, _: *mut ffi::lua_Debug) {
    // SAFETY: called by Lua with its running state; `lua_stop` copies the message.
    unsafe { lua_stop(state, c"too long to compile ahead".as_ptr()) }
}

/// `lua_dump`'s writer: appends the block to the `Vec<u8>` at `out`.
unsafe extern "C-unwind" fn write(
    _: *mut ffi::lua_State,
    block: *const c_void,
    size: usize,
    out: *mut c_void,
) -> c_int {
    if size == 0 {
        return 0;
    }
    // SAFETY: `out` is the `Vec<u8>` `compile` handed `lua_dump`, alive and borrowed by nothing
    // else for the call; `block` holds `size` bytes for the length of this call.
    unsafe {
        let out = &mut *out.cast::<Vec<u8>>();
        out.extend_from_slice(std::slice::from_raw_parts(block.cast::<u8>(), size));
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compile_counts_its_tokens_and_a_broken_text_stays_text() {
        let one = Script::compile("return 1".into(), "@a/scripts/main.lua", 1 << 20);
        let many = Script::compile(
            "return 1 + 1 + 1 + 1 + 1 + 1".into(),
            "@a/scripts/main.lua",
            1 << 20,
        );
        let (one, many) = (
            one.chunk().expect("compiles"),
            many.chunk().expect("compiles"),
        );
        // Eight a token: ten more tokens cost eighty units more.
        assert_eq!(
            many.units - one.units,
            80,
            "{} -> {}",
            one.units,
            many.units
        );
        let broken = Script::compile("if true then".into(), "@a/scripts/main.lua", 1 << 20);
        assert!(broken.chunk().is_none());
        assert_eq!(broken.text(), "if true then");
        // A compile past the mod's memory is left to the game, which says so as it always did.
        let big: String = (0..20_000).map(|i| format!("local _ = 'k{i}'\n")).collect();
        let big = format!("do\n{}end", big.replace("local _ =", "_ ="));
        assert!(Script::compile(big.into(), "@a/scripts/main.lua", 4096)
            .chunk()
            .is_none());
    }

    #[test]
    fn lanterns_own_chunk_runs_from_its_bytecode_in_every_state() {
        for _ in 0..2 {
            let lua = mlua::Lua::new();
            let f = own_chunk(&lua, "local a, b = ... return a * b", "=lantern").unwrap();
            assert_eq!(f.call::<i64>((6, 7)).unwrap(), 42);
        }
    }
}
