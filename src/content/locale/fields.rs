//! Every player-facing text of the data, with the key it has without being given one:
//! `<table>.<name>.<field>` in the namespace of the definition's ID (`creatures.rat.name` of
//! `rats`), options and their requirements numbered from 1 as a player sees them
//! (`encounters.horse_race.options.1.text`, `...options.1.requirements.1.reason`).

use crate::content::Content;
use crate::diag::Span;
use crate::id::Id;

/// One text of the data: its namespace, its key, where its definition is, and the text itself.
pub(crate) struct Field<'a> {
    pub ns: &'a str,
    pub key: String,
    pub at: Span,
    pub text: &'a mut String,
}

/// Calls `f` with every text of the content's definitions, in a stable order.
pub(crate) fn each_text(content: &mut Content, mut f: impl FnMut(Field<'_>)) {
    let mut def = |table: &str, id: &Id, at: Span, fields: Vec<(&str, &mut String)>| {
        for (name, text) in fields {
            f(Field {
                ns: id.namespace(),
                key: format!("{table}.{}.{name}", id.name()),
                at,
                text,
            });
        }
    };
    for (id, t) in &mut content.tags {
        def(
            "tags",
            id,
            t.span,
            vec![("name", &mut t.name), ("description", &mut t.description)],
        );
    }
    for (id, i) in &mut content.items {
        def(
            "items",
            id,
            i.span,
            vec![("name", &mut i.name), ("description", &mut i.description)],
        );
    }
    for (id, c) in &mut content.creatures {
        def(
            "creatures",
            id,
            c.span,
            vec![("name", &mut c.name), ("description", &mut c.description)],
        );
    }
    for (id, q) in &mut content.quests {
        def(
            "quests",
            id,
            q.span,
            vec![("name", &mut q.name), ("description", &mut q.description)],
        );
    }
    for (id, p) in &mut content.progress_types {
        def("progress_types", id, p.span, vec![("name", &mut p.name)]);
    }
    for (id, h) in &mut content.hazards {
        def(
            "hazards",
            id,
            h.span,
            vec![("name", &mut h.name), ("text", &mut h.text)],
        );
    }
    for (id, c) in &mut content.cards {
        def(
            "cards",
            id,
            c.span,
            vec![("name", &mut c.name), ("text", &mut c.text)],
        );
    }
    for (id, e) in &mut content.encounters {
        let mut fields: Vec<(String, &mut String)> = vec![
            ("title".into(), &mut e.title),
            ("description".into(), &mut e.description),
        ];
        for (n, o) in e.options.iter_mut().enumerate() {
            fields.push((format!("options.{}.text", n + 1), &mut o.text));
            for (m, r) in o.requirements.iter_mut().enumerate() {
                if let Some(reason) = r.reason.as_mut() {
                    fields.push((
                        format!("options.{}.requirements.{}.reason", n + 1, m + 1),
                        reason,
                    ));
                }
            }
        }
        for (name, text) in fields {
            def("encounters", id, e.span, vec![(name.as_str(), text)]);
        }
    }
    // Dispatch reads quests from a dense copy: it shows what the registry shows.
    for q in &mut content.quest_defs {
        if let Some(def) = content.quests.get(&q.id) {
            q.name.clone_from(&def.name);
            q.description.clone_from(&def.description);
        }
    }
}
