//! `lantern.emit_event` over real scripts. A common call (a name and a payload of plain values)
//! takes a C fast path, anything else the mlua function behind it; these tests hold the two to the
//! same events and the same errors.

mod common;

use common::world::{problems, turn, TestMods};

const PING: &str = "[[event_types]]\nid = \"ping\"\n\
                    payload = { power = \"int\", weight = \"float\", lit = \"bool\", altar = \"string\" }\n";

/// Logs every `ping` with each field and its Lua type.
const SHOW: &str = "local function show(v) return tostring(v) .. ':' .. (math.type(v) or type(v)) end\n\
                    lantern.on('ping', function(ev)\n\
                      lantern.log(table.concat({ show(ev.power), show(ev.weight), show(ev.lit), show(ev.altar), ev.source.ref }, ' '))\n\
                    end)\n";

/// Runs `body` as a `turn_started` handler once and returns what was logged and the problems.
fn run(body: &str) -> (Vec<String>, Vec<String>) {
    let (said, problems, _) = run_with_causes(body);
    (said, problems)
}

/// As [`run`], with the cause the event log gives each event after the first.
fn run_with_causes(body: &str) -> (Vec<String>, Vec<String>, Vec<Option<String>>) {
    let lua = format!("{SHOW}lantern.on('turn_started', function()\n{body}\nend)\n");
    let mods = TestMods::new(&[("data/events.toml", PING), ("scripts/main.lua", &lua)]);
    let (mut g, world) = mods.game(1);
    g.take_messages();
    turn(&mut g);
    let problems = problems(&mut g, &world);
    let causes = g
        .log()
        .skip(1)
        .map(|h| h.cause.as_deref().map(str::to_string))
        .collect();
    (g.take_messages(), problems, causes)
}

/// Each payload as Lua text; every one is emitted through both paths.
const PAYLOADS: &[&str] = &[
    "{ power = 3, weight = 1.5, lit = true, altar = 'stone' }",
    "{ power = -7 }",
    "{ weight = 2 }",
    "{ lit = false, altar = '' }",
    "{}",
    "nil",
    "{ altar = 'a long altar name that is not a short string in Lua, being over forty bytes' }",
];

#[test]
fn the_fast_path_queues_what_the_mlua_function_queues() {
    for payload in PAYLOADS {
        // `opts` (even empty) sends the call to the mlua function.
        let (fast, fast_problems, fast_causes) =
            run_with_causes(&format!("lantern.emit_event('ping', {payload})"));
        let (slow, slow_problems, slow_causes) =
            run_with_causes(&format!("lantern.emit_event('ping', {payload}, {{}})"));
        assert!(fast_problems.is_empty(), "{payload}: {fast_problems:#?}");
        assert!(slow_problems.is_empty(), "{payload}: {slow_problems:#?}");
        assert_eq!(fast.len(), 1, "{payload}: {fast:?}");
        assert_eq!(fast, slow, "{payload}");
        assert_eq!(fast_causes, vec![Some("lua:test".to_string())], "{payload}");
        assert_eq!(fast_causes, slow_causes, "{payload}");
    }
    let (said, _) =
        run("lantern.emit_event('ping', { power = 3, weight = 1.5, lit = true, altar = 'stone' })");
    assert_eq!(
        said,
        vec!["[test] 3:integer 1.5:float true:boolean stone:string player"]
    );
    // An integer given for a float field stays an integer, on both paths.
    let (said, _) = run("lantern.emit_event('ping', { weight = 2 })");
    assert_eq!(
        said,
        vec!["[test] nil:nil 2:integer nil:nil nil:nil player"]
    );
}

#[test]
fn a_qualified_name_and_a_bare_one_are_the_same_event() {
    let (bare, _) = run("lantern.emit_event('ping', { power = 1 })");
    let (qualified, problems) = run("lantern.emit_event('test:ping', { power = 1 })");
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(bare, qualified);
}

/// Bad calls written with literals, and what both the runtime and `lantern check` say of them.
const LITERAL_BAD_CALLS: &[(&str, &str)] = &[
    (
        "lantern.emit_event('pong', { power = 1 })",
        "lantern.emit_event: unknown event `pong`; did you mean `test:ping`?",
    ),
    (
        "lantern.emit_event('ping', { power = 'high' })",
        "`power` of `test:ping` must be of type `int`, not `string`",
    ),
    (
        "lantern.emit_event('ping', { power = 1.5 })",
        "`power` of `test:ping` must be of type `int`, not `number`",
    ),
    (
        "lantern.emit_event('ping', { powr = 3 })",
        "event `test:ping` has no payload field `powr`; did you mean `power`?",
    ),
];

#[test]
fn every_bad_call_gets_the_mlua_functions_message_at_its_line() {
    let others: &[(&str, &str)] = &[
        (
            "lantern.emit_event('ping', { [1] = 3 })",
            "lantern.emit_event",
        ),
        (
            "lantern.emit_event('ping', { altar = {} })",
            "`altar` of `test:ping` must be of type `string`, not `table`",
        ),
        (
            "lantern.emit_event('ping', { altar = '\\255' })",
            "`altar` of `test:ping` must be of type `string`, not text that is not UTF-8",
        ),
        ("lantern.emit_event(42)", "lantern.emit_event"),
        ("lantern.emit_event('ping', 42)", "lantern.emit_event"),
    ];
    let literal = LITERAL_BAD_CALLS.iter().map(|c| (c, true));
    for ((call, message), is_literal) in literal.chain(others.iter().map(|c| (c, false))) {
        // A literal call is written `lantern['emit_event'](...)`, the same function, so the check
        // `lantern check` makes (which reads `lantern.emit_event(...)`, see the next test) leaves
        // it to the runtime. The others keep their form, which mlua's argument message names.
        let hidden = if is_literal {
            call.replace("lantern.emit_event(", "lantern['emit_event'](")
        } else {
            call.to_string()
        };
        let (said, problems) = run(&hidden);
        assert!(said.is_empty(), "{call}: {said:?}");
        assert_eq!(problems.len(), 1, "{call}: {problems:#?}");
        assert!(problems[0].contains(message), "{call}: {}", problems[0]);
        assert!(
            problems[0].contains("/test/scripts/main.lua:6:"),
            "{call}: {}",
            problems[0]
        );
    }
}

/// The same calls written with literals are reported by `lantern check`, with the runtime's
/// message, at the call's line, before any handler runs.
#[test]
fn lantern_check_reports_a_literal_bad_call_at_its_line() {
    let apply = [(
        "lantern.apply({ action = 'give_item', item = 'core:glod' })",
        "lantern.apply: unknown item `core:glod` (did you mean `core:gold`?)",
    )];
    for (call, message) in LITERAL_BAD_CALLS.iter().chain(&apply) {
        let lua = format!("{SHOW}lantern.on('turn_started', function()\n{call}\nend)\n");
        let mods = TestMods::new(&[("data/events.toml", PING), ("scripts/main.lua", &lua)]);
        let world = lantern::load::check_game(
            &[mods.path()],
            &lantern::roguelike::rules(),
            lantern::lua::Limits::default(),
        );
        let rendered = lantern::diag::render_all(&world.diagnostics, &world.sources);
        assert_eq!(
            world.diagnostics.iter().filter(|d| d.is_error()).count(),
            1,
            "{call}: {rendered}"
        );
        assert!(rendered.contains(message), "{call}: {rendered}");
        assert!(
            rendered.contains("/test/scripts/main.lua:6:"),
            "{call}: {rendered}"
        );
    }
}

#[test]
fn a_check_cannot_emit() {
    let data = format!(
        "{PING}\n[[triggers]]\nid = \"t\"\non = \"turn_started\"\ncondition = [ {{ check = \"test:sneaky\" }} ]\nactions = [ {{ action = \"heal\", amount = 1 }} ]\n"
    );
    let lua = "lantern.register_check('sneaky', function()\n\
                 lantern.emit_event('ping', { power = 1 })\n\
                 return true\n\
               end)\n";
    let mods = TestMods::new(&[("data/events.toml", &data), ("scripts/main.lua", lua)]);
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    let why = g.why_text("test:t").unwrap();
    assert!(why.contains("a check cannot change the game"), "{why}");
    let ping = g.content().events.lookup("test:ping").unwrap();
    assert!(
        !g.log().any(|h| h.event.kind == ping),
        "a check emitted an event"
    );
}

#[test]
fn emitting_while_the_mod_loads_says_when_it_can() {
    let lua = "lantern.emit_event('ping', { power = 1 })\n";
    let mods = TestMods::new(&[("data/events.toml", PING), ("scripts/main.lua", lua)]);
    let world = mods.world(lantern::lua::Limits::default());
    let text = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        text.contains("lantern.emit_event works only while the game runs"),
        "{text}"
    );
    assert!(text.contains("/test/scripts/main.lua:1:"), "{text}");
}
