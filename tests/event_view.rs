//! The event as handlers see it, over real scripts: every kind of field reads as declared, the view
//! is read-only and shared by an event's handlers, and a view kept past its handlers reads as an
//! error that says so, never as a later event's fields.

mod common;

use common::world::{problems, turn, TestMods};

const PING: &str = "[[event_types]]\nid = \"ping\"\n\
                    payload = { power = \"int\", weight = \"float\", lit = \"bool\", altar = \"string\", note = \"string\" }\n";

fn run(lua: &str, turns: usize) -> (Vec<String>, Vec<String>) {
    let mods = TestMods::new(&[("data/events.toml", PING), ("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    g.take_messages();
    for _ in 0..turns {
        turn(&mut g);
    }
    (g.take_messages(), problems(&mut g, &world))
}

#[test]
fn every_kind_of_field_reads_as_declared() {
    let lua = "lantern.on('turn_started', function()\n\
                 lantern.emit_event('ping', { power = 3, weight = 1.5, lit = true, altar = 'stone' })\n\
               end)\n\
               lantern.on('ping', function(ev)\n\
                 lantern.log(ev.name .. ' ' .. ev.power .. ' ' .. ev.weight .. ' ' .. tostring(ev.lit) .. ' ' .. ev.altar .. ' ' .. tostring(ev.note))\n\
                 lantern.log(ev.source.ref .. ' ' .. tostring(ev.target) .. ' ' .. math.type(ev.power) .. ' ' .. math.type(ev.weight))\n\
               end)\n";
    let (said, problems) = run(lua, 1);
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(
        said,
        vec![
            "[test] test:ping 3 1.5 true stone nil",
            "[test] player nil integer float"
        ]
    );
}

#[test]
fn a_view_is_shared_by_the_events_handlers_and_keeps_its_metatable() {
    let lua = "local first\n\
               lantern.on('turn_started', function(ev)\n\
                 first = ev\n\
                 lantern.log(tostring(ev) .. ', ' .. type(ev) .. ', metatable ' .. tostring(getmetatable(ev)))\n\
               end)\n\
               lantern.on('turn_started', function(ev) lantern.log('same: ' .. tostring(ev == first)) end)\n";
    let (said, problems) = run(lua, 1);
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(
        said,
        vec![
            "[test] event turn_started, userdata, metatable false",
            "[test] same: true"
        ]
    );
}

#[test]
fn writing_to_a_view_or_reading_it_by_number_is_an_error_at_its_line() {
    let lua = "lantern.on('turn_started', function(ev)\n\
                 ev.power = 3\n\
               end)\n\
               lantern.on('turn_started', function(ev)\n\
                 return ev[1]\n\
               end)\n";
    let (_, problems) = run(lua, 1);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems[0].contains("an event is read-only (tried to set `power`); to tell other handlers something, emit an event of your own"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("/test/scripts/main.lua:2:"),
        "{}",
        problems[0]
    );
    assert!(
        problems[1].contains(
            "an event's fields are read by name (`ev.power`), not by a key of type `integer`"
        ),
        "{}",
        problems[1]
    );
    assert!(
        problems[1].contains("/test/scripts/main.lua:5:"),
        "{}",
        problems[1]
    );
}

#[test]
fn a_view_kept_past_its_handlers_reads_as_an_error_that_says_so() {
    // Views cost no allocation because a view names a delivery, not an event: one kept for later
    // must fail, at the line that reads it, rather than show the later event's fields.
    let lua = "local kept, later\n\
               lantern.on('turn_started', function(ev)\n\
                 if kept == nil then\n\
                   kept = ev\n\
                   later = coroutine.create(function() coroutine.yield() return ev.name end)\n\
                   coroutine.resume(later)\n\
                   return\n\
                 end\n\
                 lantern.log(tostring(kept))\n\
                 local ok, err = coroutine.resume(later)\n\
                 lantern.log(tostring(ok) .. ' ' .. tostring(err))\n\
                 lantern.log('turn ' .. kept.name)\n\
               end)\n";
    let (said, problems) = run(lua, 2);
    let gone = "this event's handlers have returned: `ev` is readable only inside its handler; \
                keep the fields you need (`local power = ev.power`), not `ev`";
    assert_eq!(said.len(), 2, "{said:#?}");
    assert_eq!(said[0], "[test] event (its handlers have returned)");
    assert!(said[1].starts_with("[test] false "), "{}", said[1]);
    assert!(said[1].contains(gone), "{}", said[1]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].contains(gone), "{}", problems[0]);
    assert!(
        problems[0].contains("/test/scripts/main.lua:12:"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_creature_handle_is_made_once_and_kept() {
    let lua = "local first\n\
               lantern.on('turn_started', function(ev)\n\
                 local s = ev.source\n\
                 lantern.log(tostring(rawequal(s, ev.source)) .. ' ' .. tostring(first == nil or rawequal(first, s)) .. ' ' .. s.ref .. ' ' .. tostring(ev.target) .. ' ' .. ev.name)\n\
                 first = s\n\
               end)\n";
    let (said, problems) = run(lua, 2);
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(
        said,
        vec![
            "[test] true true player nil turn_started",
            "[test] true true player nil turn_started"
        ]
    );
}

#[test]
fn source_and_target_are_the_events_creatures() {
    let lua = "lantern.on('damage_taken', function(ev)\n\
                 lantern.log(ev.source.ref .. ' ' .. ev.target.ref .. ' ' .. ev.target.name)\n\
               end)\n";
    let mods = TestMods::new(&[("scripts/main.lua", lua)]);
    let (mut g, world) = mods.game(1);
    g.spawn(&lantern::id::Id::qualified("core:rat").unwrap())
        .unwrap();
    g.take_messages();
    g.verb("attack", &[]).unwrap();
    assert!(problems(&mut g, &world).is_empty());
    let said = g.take_messages();
    let first = said
        .iter()
        .find(|l| l.starts_with("[test] "))
        .unwrap_or_else(|| panic!("{said:?}"));
    assert_eq!(first, "[test] enemy:1 player Hero", "{said:?}");
}
