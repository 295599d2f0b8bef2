//! [`Rules`]: a game's vocabulary with its state type erased, as the loader, the harness and a
//! reload take it: the declarations (data, which content holds) beside the code.

#[cfg(doc)]
use super::Vocabulary;
use crate::content::declare::{Declarations, Param};
use crate::diag::Diagnostic;
use crate::game::code::Code;
use crate::id::Id;
use std::sync::Arc;

/// A game's vocabulary with its state type erased: what the loader, the test harness and reload
/// take. Cheap to clone. Content made with it carries its declarations, as data; the game's code
/// stays here, and a game gets it from the rules that loaded its mods (a [`World`](crate::load::World),
/// a [`ModSet`](crate::mod_set::ModSet)), never from the content.
#[derive(Clone)]
pub struct Rules {
    decls: Arc<Declarations>,
    code: Arc<Code>,
}

/// The empty vocabulary ([`Rules::empty`]), whatever features are on.
impl Default for Rules {
    fn default() -> Rules {
        Rules::empty()
    }
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({:?})", self.decls.namespace)
    }
}

impl Rules {
    /// The empty vocabulary: lantern's own, with no game's world beside it.
    pub fn empty() -> Rules {
        Rules::from_parts(Declarations::default(), Code::default())
    }

    pub(super) fn from_parts(decl: Declarations, code: Code) -> Rules {
        Rules {
            decls: Arc::new(decl),
            code: Arc::new(code),
        }
    }

    /// The game's namespace (`farm`, `roguelike`); empty for the empty vocabulary.
    pub fn namespace(&self) -> &str {
        &self.decls.namespace
    }

    /// The game's version, when it declares one ([`Vocabulary::version`]).
    pub fn version(&self) -> Option<&semver::Version> {
        self.decls.version.as_ref()
    }

    /// Mistakes in the vocabulary itself, in words; each is an error when mods load with it.
    pub fn problems(&self) -> &[String] {
        &self.decls.problems
    }

    /// Whether the game leaves out the creature-and-inventory vocabulary
    /// ([`Vocabulary::without_creatures`]).
    pub fn without_creatures(&self) -> bool {
        self.decls.without_creatures
    }

    /// The game's verbs and what each does, in name order.
    pub fn verbs(&self) -> impl Iterator<Item = (&str, &'static str)> {
        self.decls.verbs.iter().map(|(n, v)| (n.as_str(), v.doc))
    }

    /// The game's actions mods may write, with their parameters and documentation, in ID order
    /// (its internal ones are left out).
    pub fn actions(&self) -> impl Iterator<Item = (&Id, &[Param], &'static str)> {
        self.decls
            .public_actions()
            .map(|(id, d)| (id, d.params.as_slice(), d.doc))
    }

    /// The game's checks with their parameters and documentation, in ID order.
    pub fn checks(&self) -> impl Iterator<Item = (&Id, &[Param], &'static str)> {
        self.decls
            .checks
            .iter()
            .map(|(id, d)| (id, d.params.as_slice(), d.doc))
    }

    /// What [`content::load`](crate::content::load) takes to read mods with these rules (no
    /// script registers anything yet; add what scripts register to its sets).
    pub fn extensions(&self) -> crate::content::Extensions {
        crate::content::Extensions {
            declared: self.decls.clone(),
            ..Default::default()
        }
    }

    /// The declarations, as content holds them.
    pub(crate) fn defs(&self) -> &Arc<Declarations> {
        &self.decls
    }

    /// The vocabulary's own mistakes as diagnostics.
    pub(crate) fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.decls.diagnostics()
    }

    /// The game's code over its declarations, shared: what a game keeps beside its content.
    pub(crate) fn code(&self) -> &Arc<Code> {
        &self.code
    }
}
