//! What the sandbox leaves out, said in lantern's words. Lua reports a missing library as
//! "attempt to index a nil value (global 'os')", which reads like a bug in the mod; a script
//! that reaches for `os`, `io`, `debug`, `package`, `dofile`, a Lua 5.1 name, or yields where
//! it cannot, is told what mods do not have and what to use instead. Only the message changes:
//! the place and the traceback are the error's own.

/// What a mod reaching for a global that the sandbox does not give it is told.
const GLOBALS: &[(&str, &str)] = &[
    (
        "os",
        "`os` is not available to mods: nothing reads the clock or the system, so the game is \
         the same for every player; for chance use `math.random` (your mod's seeded stream), \
         for time count the game's turns (`lantern.on(\"turn_started\", ...)`)",
    ),
    (
        "io",
        "`io` is not available to mods: a mod reads and writes no files; put data in `data/` \
         files, code in modules (`require(\"name\")`), what the game must remember in \
         `lantern.storage`, and output through `print`",
    ),
    (
        "debug",
        "`debug` is not available to mods: it reaches into other mods and into lantern; an \
         error you raise is reported with its traceback, and `pcall` or `xpcall` catch one",
    ),
    (
        "package",
        "`package` is not available to mods: `require(\"name\")` loads `scripts/name.lua` of \
         your own mod, and finds nothing else",
    ),
    (
        "dofile",
        "`dofile` is not available to mods: `require(\"name\")` loads `scripts/name.lua` of \
         your own mod",
    ),
    (
        "loadfile",
        "`loadfile` is not available to mods: `require(\"name\")` loads `scripts/name.lua` of \
         your own mod",
    ),
    (
        "loadstring",
        "`loadstring` is Lua 5.1's and lantern runs Lua 5.4: use `load(text)`",
    ),
    (
        "unpack",
        "`unpack` is Lua 5.1's and lantern runs Lua 5.4: use `table.unpack`",
    ),
    (
        "setfenv",
        "`setfenv` is Lua 5.1's and lantern runs Lua 5.4: give `load` its environment \
         (`load(text, name, \"t\", env)`)",
    ),
    (
        "getfenv",
        "`getfenv` is Lua 5.1's and lantern runs Lua 5.4: a chunk's environment is its `_ENV`",
    ),
];

/// Lua's own messages for a coroutine used where it cannot be, and what is said instead.
const MESSAGES: &[(&str, &str)] = &[
    (
        "attempt to yield across a C-call boundary",
        "a coroutine cannot yield from inside a call that lantern or a library function makes \
         (a handler run by `lantern.apply`, a `table.sort` comparator, a `string.gsub` \
         replacement, a metamethod): yield only from Lua functions the coroutine calls itself",
    ),
    (
        "attempt to yield from outside a coroutine",
        "`coroutine.yield` outside a coroutine: a script, handler, action or check is not one; \
         run the code that yields inside `coroutine.wrap(function() ... end)`",
    ),
];

/// `message` in lantern's words when it is Lua's for something the sandbox leaves out (its
/// `file:line:` prefix kept), else `None`.
pub(super) fn explained(message: &str) -> Option<String> {
    let (prefix, said) = split_place(message);
    let words = MESSAGES
        .iter()
        .find(|(lua, _)| said == *lua)
        .map(|(_, words)| *words)
        .or_else(|| {
            let name = said
                .strip_prefix("attempt to index a nil value (global '")
                .or_else(|| said.strip_prefix("attempt to call a nil value (global '"))?
                .strip_suffix("')")?;
            GLOBALS.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
        })?;
    Some(format!("{prefix}{words}"))
}

/// A message's `file:line: ` prefix and the rest.
fn split_place(message: &str) -> (&str, &str) {
    let place = message.find(": ").filter(|&at| {
        message[..at]
            .rsplit_once(':')
            .is_some_and(|(_, line)| !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
    });
    match place {
        Some(at) => message.split_at(at + 2),
        None => ("", message),
    }
}

#[cfg(test)]
mod tests {
    use super::explained;

    #[test]
    fn a_missing_library_is_said_in_lanterns_words_at_its_place() {
        let said = explained("rats/scripts/main.lua:3: attempt to index a nil value (global 'os')")
            .unwrap();
        assert!(
            said.starts_with("rats/scripts/main.lua:3: `os` is not available to mods"),
            "{said}"
        );
        assert_eq!(
            explained("attempt to call a nil value (global 'unpack')").as_deref(),
            Some("`unpack` is Lua 5.1's and lantern runs Lua 5.4: use `table.unpack`")
        );
    }

    #[test]
    fn a_mods_own_nil_is_left_as_lua_says_it() {
        assert_eq!(
            explained("x.lua:1: attempt to index a nil value (global 'config')"),
            None
        );
        assert_eq!(
            explained("x.lua:1: attempt to index a nil value (field 'os')"),
            None
        );
    }
}
