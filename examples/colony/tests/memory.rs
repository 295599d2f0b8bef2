//! Memory stays flat while a real-time game runs many small mods: every byte the process holds
//! (the game's, the engine's, lantern's and Lua's, which allocates through Rust) is counted by
//! this test binary's allocator, and the most held over a late stretch of ticks may not pass the
//! most held over an early one by more than a small margin. A leak of a few bytes a tick, a queue
//! that grows, a log kept, or a cache that never forgets, would pass it by far.

#[global_allocator]
static COUNTING: held::Counting = held::Counting;

/// The most bytes held over `ticks` ticks, sampled after each.
fn most_held(app: &mut bevy_app::App, ticks: u32) -> usize {
    let mut most = 0;
    for _ in 0..ticks {
        app.update();
        most = most.max(held::held());
    }
    most
}

#[test]
fn fifty_small_mods_hold_no_more_memory_after_ten_thousand_ticks() {
    let dir = tempfile::tempdir().unwrap();
    colony::write_small_mods(dir.path(), 50).unwrap();
    // The small mods alone (the settlement would bring newcomers, each an entity: the colony's
    // growth, not lantern's), over a hundred colonists.
    let mut app = colony::app(&[dir.path().to_path_buf()], 7, 100).unwrap();
    // Every handler ran and stored, and the allocator's pools settled.
    most_held(&mut app, 500);
    let early = most_held(&mut app, 1_000);
    most_held(&mut app, 7_500);
    let late = most_held(&mut app, 1_000);
    eprintln!("held at most {early} bytes over ticks 500-1,500, {late} over ticks 9,000-10,000");
    let out = colony::take_output(&mut app);
    assert!(
        out.errors.is_empty() && out.problems.is_empty(),
        "{:?} {:?}",
        out.errors,
        out.problems
    );
    assert_eq!(out.turns, 10_000);
    // Lua's collector lets garbage build up to a multiple of what is live before a cycle, and
    // the peaks of two stretches differ by where their cycles fall: 64 KiB holds that, and a
    // leak of 8 bytes a tick (a byte a mod every seventh tick) passes it.
    let margin = 64 * 1024;
    assert!(
        late <= early + margin,
        "held {early} bytes at most over ticks 500-1,500 and {late} over ticks 9,000-10,000: \
         {} more",
        late - early
    );
}
