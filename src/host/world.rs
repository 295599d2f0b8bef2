//! A world the game keeps outside lantern (an engine's ECS world, or any type of its own), as the
//! game declares it: how lantern saves, reads back, hashes and reconciles it
//! ([`Vocabulary::world`]). The world itself is lent to a game for a while with
//! [`Game::with_world`](crate::game::Game::with_world).

use super::{GameState, Vocabulary};
use crate::content::Content;
use crate::game::code::{Code, ErasedFresh, ErasedReconcile, WorldCode};
use std::any::Any;
use std::sync::Arc;

type SaveFn<W> = dyn Fn(&W) -> serde_json::Value + Send + Sync;
type LoadFn<W> =
    dyn Fn(&mut W, serde_json::Value, &Content) -> Result<Vec<String>, String> + Send + Sync;
type ReconcileFn<W> = dyn Fn(&mut W, &Content) -> Vec<String> + Send + Sync;
type FreshFn<W> = dyn Fn(Arc<Content>) -> W + Send + Sync;

/// How a game's own world joins the save, the state hash and a reload, for
/// [`Vocabulary::world`]. What it saves is what the hash covers, so it is the part of the world
/// that the game's outcome depends on, in a stable order (a `BTreeMap`, entities by a stable ID
/// of the game's, not by the engine's handles).
pub struct WorldHooks<W> {
    save: Arc<SaveFn<W>>,
    load: Arc<LoadFn<W>>,
    reconcile: Option<Arc<ReconcileFn<W>>>,
    fresh: Option<Arc<FreshFn<W>>>,
}

impl<W: Any + Send> WorldHooks<W> {
    /// `save` writes the world as JSON (into the save file and the state hash); `load` puts a
    /// saved world back into the lent world, over the content the game runs now, and returns a
    /// line for everything it dropped or changed (each becomes a warning), or refuses the save's
    /// world with a reason.
    pub fn new(
        save: impl Fn(&W) -> serde_json::Value + Send + Sync + 'static,
        load: impl Fn(&mut W, serde_json::Value, &Content) -> Result<Vec<String>, String>
            + Send
            + Sync
            + 'static,
    ) -> WorldHooks<W> {
        WorldHooks {
            save: Arc::new(save),
            load: Arc::new(load),
            reconcile: None,
            fresh: None,
        }
    }

    /// How a new world is made over the mods' content (shared, not copied), for a game the test
    /// harness makes: each test game gets its own, lent to it around every call the test makes
    /// (`g:verb`, `g:emit`, ...), so a test drives the game's real systems (a verb that runs
    /// them on the world) and reads the world back with `g:world()` (as `save` writes it).
    pub fn fresh(mut self, f: impl Fn(Arc<Content>) -> W + Send + Sync + 'static) -> WorldHooks<W> {
        self.fresh = Some(Arc::new(f));
        self
    }

    /// How the world is brought in line with content that changed under it (a reload that
    /// removed a job its workers name): `f` gets the world and the new content and returns a line
    /// for everything it dropped or changed; each becomes a warning of the reload.
    pub fn reconcile(
        mut self,
        f: impl Fn(&mut W, &Content) -> Vec<String> + Send + Sync + 'static,
    ) -> WorldHooks<W> {
        self.reconcile = Some(Arc::new(f));
        self
    }
}

impl<S: GameState> Vocabulary<S> {
    /// Declares the world the game keeps outside lantern (its ECS world, or a type of its own),
    /// which it lends to a game with [`Game::with_world`](crate::game::Game::with_world): with the
    /// world lent, the state hash and a save cover it too, a loaded save puts it back, and a
    /// reload reconciles it with the new content. Its actions and checks read it and defer
    /// changes to it ([`Effects::defer`](super::Effects::defer)) whether or not it is declared;
    /// declaring it is what makes it part of the game's saves and hash.
    pub fn world<W: Any + Send>(mut self, hooks: WorldHooks<W>) -> Self {
        let WorldHooks {
            save,
            load,
            reconcile,
            fresh,
        } = hooks;
        self.code.world = Some(WorldCode {
            type_name: std::any::type_name::<W>(),
            save: Arc::new(move |w: &dyn Any| w.downcast_ref::<W>().map(|w| save(w))),
            load: Arc::new(move |w: &mut dyn Any, saved, content: &Content| {
                w.downcast_mut::<W>().map(|w| load(w, saved, content))
            }),
            reconcile: reconcile.map(|f| {
                Arc::new(move |w: &mut dyn Any, content: &Content| {
                    w.downcast_mut::<W>().map(|w| f(w, content))
                }) as Arc<ErasedReconcile>
            }),
            fresh: fresh.map(|f| {
                Arc::new(move |content: Arc<Content>| Box::new(f(content)) as Box<dyn Any + Send>)
                    as Arc<ErasedFresh>
            }),
        });
        self
    }
}

impl Code {
    /// The game's declared world, if any.
    pub(crate) fn world(&self) -> Option<&WorldCode> {
        self.world.as_ref()
    }
}
