//! Plays two turns of the `order` mod with lantern as a plain dependency and prints what shows
//! which Lua was linked: whether it is lantern's, the order `pairs` gave, how far a runaway loop
//! got under a budget of 100,000 instructions, and the state hash.

use lantern::game::CreatureRef;
use lantern::lua::Limits;

fn main() {
    let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mods");
    let limits = Limits::default().with_instructions(100_000);
    let mut world = lantern::load::load_game(&[mods], &lantern::roguelike::rules(), limits);
    for d in &world.diagnostics {
        eprintln!("{}", lantern::diag::render(d, &world.sources));
    }
    let mut game = world.start(8);
    for event in ["turn_started", "combat_started"] {
        let kind = game.content().events.lookup(event).expect("an engine event");
        game.begin_turn();
        game.emit(kind, CreatureRef::Player, None, &[], None)
            .expect("the event has no payload");
        game.drain();
    }
    let storage = &game.state().storage["order"];
    println!("lantern's Lua: {}", lantern::lua::patched_lua());
    println!("pairs order: {}", storage["order"]);
    println!("roll: {}", storage["roll"]);
    println!("loop stopped at: {}", storage["n"]);
    println!("state hash: {}", game.state_hash());
}
