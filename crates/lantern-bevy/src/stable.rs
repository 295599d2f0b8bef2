//! Stable numbers for the game's entities: what its saves, its hash, its Lua functions and its
//! tests name an entity by, since Bevy's `Entity` handles are reused and differ from one run (or
//! one load) to the next.
//!
//! [`StableId`] is an immutable component; its hooks keep [`StableIds`], the resource that hands
//! out the next number and finds an entity by its number, true through every spawn, insert,
//! removal and despawn. A save lists its entities by number ([`StableIds::rows`]) and keeps
//! [`StableIds::next`]; a load spawns them with their numbers again and [`StableIds::resume`]s
//! the count, so a game restored from a save numbers its next entity as the one that went on.

use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::prelude::*;
use bevy_ecs::world::DeferredWorld;
use std::collections::HashMap;

/// An entity's stable number, given by [`StableIds::spawn`] (or put back by a load).
///
/// Immutable: a number changes only by inserting another, which the index sees.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[component(immutable, on_insert = index, on_discard = unindex)]
pub struct StableId(pub u64);

/// The numbered entities: the next number to give and each number's entity.
#[derive(Resource, Debug, Default)]
pub struct StableIds {
    next: u64,
    entities: HashMap<u64, Entity>,
}

impl StableIds {
    /// Spawns `bundle` with the next number; its number and entity.
    pub fn spawn(world: &mut World, bundle: impl Bundle) -> (StableId, Entity) {
        let id = StableId(world.get_resource_or_init::<StableIds>().next);
        let entity = world.spawn((id, bundle)).id();
        (id, entity)
    }

    /// The entity numbered `id`, if it is alive.
    pub fn get(&self, id: u64) -> Option<Entity> {
        self.entities.get(&id).copied()
    }

    /// The entity a mod named by `id` (an action's or a function's argument), or the message a
    /// modder sees at the line that named it.
    pub fn find(world: &World, id: i64) -> Result<Entity, String> {
        u64::try_from(id)
            .ok()
            .and_then(|id| world.get_resource::<StableIds>()?.get(id))
            .ok_or_else(|| format!("there is no entity numbered {id} (gone, or never given)"))
    }

    /// How many numbered entities are alive.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether no numbered entity is alive.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The number the next entity gets: what a save keeps.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// After a load: the next entity gets the saved `next` (or a number past every live one, if
    /// that is higher), whatever the world counted to before the load, so the game goes on as
    /// the saved one would have and no number is given twice.
    pub fn resume(world: &mut World, next: u64) {
        let mut ids = world.get_resource_or_init::<StableIds>();
        let past_live = ids
            .entities
            .keys()
            .max()
            .map_or(0, |id| id.saturating_add(1));
        ids.next = next.max(past_live);
    }

    /// Every numbered entity's `C`, in the order of their numbers: what a save writes and the
    /// hash reads, the same in every run whatever order the engine keeps its entities in.
    pub fn rows<C: Component + Clone>(world: &World) -> Vec<(u64, C)> {
        let mut rows: Vec<(u64, C)> = world
            .try_query::<(&StableId, &C)>()
            .map(|q| {
                q.iter_manual(world)
                    .map(|(id, c)| (id.0, c.clone()))
                    .collect()
            })
            .unwrap_or_default();
        rows.sort_by_key(|(id, _)| *id);
        rows
    }
}

/// Indexes a number as it is inserted, and counts past it.
fn index(mut world: DeferredWorld, context: HookContext) {
    let Some(&StableId(id)) = world.get::<StableId>(context.entity) else {
        return;
    };
    let entity = context.entity;
    match world.get_resource_mut::<StableIds>() {
        Some(mut ids) => ids.note(id, entity),
        // The first number in a world without the index: it is made once the hook is done.
        None => world.commands().queue(move |world: &mut World| {
            world.get_resource_or_init::<StableIds>().note(id, entity);
        }),
    }
}

/// Forgets a number as it is removed, replaced or despawned.
fn unindex(mut world: DeferredWorld, context: HookContext) {
    let Some(&StableId(id)) = world.get::<StableId>(context.entity) else {
        return;
    };
    if let Some(mut ids) = world.get_resource_mut::<StableIds>() {
        if ids.entities.get(&id) == Some(&context.entity) {
            ids.entities.remove(&id);
        }
    }
}

impl StableIds {
    fn note(&mut self, id: u64, entity: Entity) {
        self.entities.insert(id, entity);
        self.next = self.next.max(id.saturating_add(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Component, Clone, Debug, PartialEq)]
    struct Name(&'static str);

    #[test]
    fn numbers_follow_spawns_despawns_and_loads() {
        let mut world = World::new();
        let (a, ea) = StableIds::spawn(&mut world, Name("a"));
        let (b, eb) = StableIds::spawn(&mut world, Name("b"));
        assert_eq!((a, b), (StableId(0), StableId(1)));
        assert_eq!(StableIds::find(&world, 1), Ok(eb));
        world.despawn(eb);
        assert!(StableIds::find(&world, 1)
            .unwrap_err()
            .contains("no entity numbered 1"));
        assert!(StableIds::find(&world, -3).is_err());
        // A number is never given twice, even once its entity is gone.
        let (c, _) = StableIds::spawn(&mut world, Name("c"));
        assert_eq!(c, StableId(2));
        assert_eq!(
            StableIds::rows::<Name>(&world),
            vec![(0, Name("a")), (2, Name("c"))]
        );
        // Renumbering is an insert the index sees.
        world.entity_mut(ea).insert(StableId(7));
        assert_eq!(StableIds::find(&world, 7), Ok(ea));
        assert!(StableIds::find(&world, 0).is_err());
        assert_eq!(world.resource::<StableIds>().next(), 8);
    }

    #[test]
    fn a_load_keeps_numbers_and_resumes_the_count() {
        let mut world = World::new();
        for (id, name) in [(4, "d"), (2, "b")] {
            world.spawn((StableId(id), Name(name)));
        }
        StableIds::resume(&mut world, 9);
        assert_eq!(world.resource::<StableIds>().next(), 9);
        // A load into a world that had counted further counts from the save's number.
        let mut later = World::new();
        for _ in 0..20 {
            StableIds::spawn(&mut later, Name("x"));
        }
        let gone: Vec<Entity> = later
            .query_filtered::<Entity, With<Name>>()
            .iter(&later)
            .collect();
        for e in gone {
            later.despawn(e);
        }
        later.spawn((StableId(3), Name("c")));
        StableIds::resume(&mut later, 5);
        assert_eq!(later.resource::<StableIds>().next(), 5);
        assert_eq!(world.resource::<StableIds>().len(), 2);
        assert_eq!(
            StableIds::rows::<Name>(&world),
            vec![(2, Name("b")), (4, Name("d"))]
        );
        assert_eq!(StableIds::spawn(&mut world, Name("i")).0, StableId(9));
    }
}
