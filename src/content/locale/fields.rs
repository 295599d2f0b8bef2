//! Every player-facing text of the data, with the key it has without being given one:
//! `<table>.<name>.<field>` in the namespace of the definition's ID (`creatures.rat.name` of
//! `rats`), options and their requirements numbered from 1 as a player sees them
//! (`encounters.horse_race.options.1.text`, `...options.1.requirements.1.reason`). The key is
//! made only when asked for: loading walks every text and looks at its first byte alone.

use crate::content::{Content, Name};
use crate::diag::Span;
use std::borrow::Cow;

/// A definition's text as the walk reads or changes it, alike whether it is a [`Name`] (one
/// line, shown escaped) or a longer text.
pub(crate) trait Slot {
    /// The text as written.
    fn read(&self) -> &str;
    /// The text, to change.
    fn write(&mut self) -> &mut String;
}

impl Slot for String {
    fn read(&self) -> &str {
        self
    }
    fn write(&mut self) -> &mut String {
        self
    }
}

impl Slot for Name {
    fn read(&self) -> &str {
        self.unescaped()
    }
    fn write(&mut self) -> &mut String {
        self.written_mut()
    }
}

/// A field's text as a [`Slot`]: read, or (`mut`) to change.
macro_rules! slot {
    ($e:expr) => {
        Slot::read(&$e)
    };
    ($e:expr, mut) => {
        Slot::write(&mut $e)
    };
}

/// One text of the data: whose it is, what its key is made of, where its definition is, and the
/// text itself (`&mut String` to change it, `&str` to read it).
pub(crate) struct Field<'a, T> {
    whose: Whose<'a>,
    table: &'static str,
    field: Cow<'static, str>,
    pub at: Span,
    pub text: T,
}

/// Whose a text is: a definition's ID, split only when asked (a load walks every text of the
/// data and splits the IDs of the few that name a key), or a rarity's namespace and name.
#[derive(Clone, Copy)]
enum Whose<'a> {
    Id(&'a crate::id::Id),
    Parts(&'a str, &'a str),
}

impl<'a, T> Field<'a, T> {
    /// The namespace the text's key is in: its definition's.
    pub(crate) fn ns(&self) -> &'a str {
        match self.whose {
            Whose::Id(id) => id.namespace(),
            Whose::Parts(ns, _) => ns,
        }
    }

    /// The name of its definition (`rat`).
    pub(crate) fn name(&self) -> &'a str {
        match self.whose {
            Whose::Id(id) => id.name(),
            Whose::Parts(_, name) => name,
        }
    }

    /// The table its key starts with, its definition's (`creatures`).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn table(&self) -> &'static str {
        self.table
    }

    /// `creatures.rat.name`.
    pub(crate) fn key(&self) -> String {
        format!("{}.{}.{}", self.table, self.name(), self.field)
    }
}

/// The texts of one registry, each of its definitions' `fields`.
macro_rules! named {
    ($content:ident, $emit:ident, $map:ident, $table:literal, [$($field:ident),+] $(, $m:tt)?) => {
        for (id, d) in & $($m)? $content.$map {
            let d = def!(d $(, $m)?);
            fields_of!($emit, id, d, $table, [$($field),+] $(, $m)?);
        }
    };
}

/// A registry's definition, made its own to change its texts (`mut`): a definition another
/// content shares is copied first.
macro_rules! def {
    ($d:ident) => {
        $d
    };
    ($d:ident, mut) => {
        std::sync::Arc::make_mut($d)
    };
}

/// One definition's `fields`, one at a time (so the optional `mut` is not inside a repetition).
macro_rules! fields_of {
    ($emit:ident, $id:ident, $d:ident, $table:literal, [] $(, $m:tt)?) => {};
    ($emit:ident, $id:ident, $d:ident, $table:literal, [$field:ident $(, $rest:ident)*] $(, $m:tt)?) => {
        $emit(Field {
            whose: Whose::Id($id),
            table: $table,
            field: Cow::Borrowed(stringify!($field)),
            at: $d.span,
            text: slot!($d.$field $(, $m)?),
        });
        fields_of!($emit, $id, $d, $table, [$($rest),*] $(, $m)?);
    };
}

/// Walks every text of `$content` (`mut` to change them), calling `$f` with each [`Field`].
macro_rules! walk {
    ($content:expr, $f:ident $(, $m:tt)?) => {{
        let content = $content;
        for r in & $($m)? content.rarities {
            $f(Field {
                whose: Whose::Parts(&r.ns, &r.id),
                table: "rarities",
                field: Cow::Borrowed("name"),
                at: r.span,
                text: slot!(r.name $(, $m)?),
            });
        }
        for m in & $($m)? content.mods {
            for s in & $($m)? m.settings {
                $f(Field {
                    whose: Whose::Id(&s.id),
                    table: "settings",
                    field: Cow::Borrowed("name"),
                    at: s.span,
                    text: slot!(s.name $(, $m)?),
                });
                if !s.description.is_empty() {
                    $f(Field {
                        whose: Whose::Id(&s.id),
                        table: "settings",
                        field: Cow::Borrowed("description"),
                        at: s.span,
                        text: slot!(s.description $(, $m)?),
                    });
                }
            }
        }
        named!(content, $f, tags, "tags", [name, description] $(, $m)?);
        named!(content, $f, items, "items", [name, description] $(, $m)?);
        named!(content, $f, creatures, "creatures", [name, description] $(, $m)?);
        named!(content, $f, quests, "quests", [name, description] $(, $m)?);
        named!(content, $f, progress_types, "progress_types", [name] $(, $m)?);
        named!(content, $f, hazards, "hazards", [name, text] $(, $m)?);
        named!(content, $f, cards, "cards", [name, text] $(, $m)?);
        named!(content, $f, encounters, "encounters", [title, description] $(, $m)?);
        for (id, e) in & $($m)? content.encounters {
            let e = def!(e $(, $m)?);
            for (n, o) in (& $($m)? e.options).into_iter().enumerate() {
                let field = Cow::Owned(format!("options.{}.text", n + 1));
                $f(Field {
                    whose: Whose::Id(id),
                    table: "encounters",
                    field,
                    at: e.span,
                    text: slot!(o.text $(, $m)?),
                });
                for (r, req) in (& $($m)? o.requirements).into_iter().enumerate() {
                    if let Some(reason) = & $($m)? req.reason {
                        let field = Cow::Owned(format!("options.{}.requirements.{}.reason", n + 1, r + 1));
                        $f(Field {
                            whose: Whose::Id(id),
                            table: "encounters",
                            field,
                            at: e.span,
                            text: slot!(*reason $(, $m)?),
                        });
                    }
                }
            }
        }
    }};
}

/// Calls `f` with every text of the content's definitions, to change it, in a stable order.
pub(crate) fn each_text(content: &mut Content, mut f: impl FnMut(Field<'_, &mut String>)) {
    // Dispatch's list of the quests shares their definitions: let go while their texts change
    // (a definition shared is copied to be changed), then shared again.
    content.quest_defs.clear();
    walk!(&mut *content, f, mut);
    content.quest_defs = content.quests.values().cloned().collect();
}

/// Calls `f` with every text of the content's definitions, to read it, in a stable order.
pub(crate) fn each_text_read(content: &Content, mut f: impl FnMut(Field<'_, &str>)) {
    walk!(content, f);
    // The game's tables' texts (`Vocabulary::texts`), shown through `Content::text_of`.
    let decls = &content.declared.tables;
    content.tables.each_text(decls, |id, table, key, at, text| {
        // A text naming a key (`@cellar_name`) is that key's; `@@` is a text starting with `@`.
        let text = match text.strip_prefix('@') {
            Some(rest) if rest.starts_with('@') => rest,
            Some(_) => return,
            None => text,
        };
        f(Field {
            whose: Whose::Id(id),
            table,
            field: Cow::Borrowed(key),
            at,
            text,
        });
    });
}
