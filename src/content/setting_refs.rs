//! `{ setting = "rats:rat_health" }` where a data file writes a number: the value of a `startup`
//! setting, fixed for a run, read when the data is. A file holding such references is read as if
//! each were the number itself, written in its place and padded to its length, so every span of
//! the file stays where it was and every reader (the quick one, `toml`, the memo) reads it alike.

use crate::content::{Scope, SettingKind, SettingValue};
use crate::diag::Code;
use crate::diag::{did_you_mean_suffix, Diagnostic, FileId, Span};
use crate::id::Id;
use std::borrow::Cow;
use std::collections::BTreeMap;
use toml::de::DeValue;
use toml::Spanned;

/// The settings a load's data may read, with the values it reads them as: every declared
/// setting's default, or what was chosen for the run.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct DataSettings {
    settings: BTreeMap<Id, (SettingKind, Scope, SettingValue)>,
}

/// How deep a walk of a data file's values goes looking for references: far deeper than data
/// nests, and a bound on a crafted file.
const DEEPEST: usize = 64;

impl DataSettings {
    /// The settings the mods declare, at their defaults unless `chosen` gives another value.
    pub(crate) fn of(
        mods: &[crate::mods::ModFolder],
        chosen: &BTreeMap<Id, SettingValue>,
    ) -> DataSettings {
        let mut settings = BTreeMap::new();
        for m in mods {
            for s in &m.manifest.settings {
                let id = Id::new(m.id(), &s.name);
                let value = chosen
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| s.default.clone());
                settings.insert(id, (s.kind.clone(), s.scope, value));
            }
        }
        DataSettings { settings }
    }

    /// What a load whose memo remembers `other` must parse again: the values changed.
    pub(crate) fn same_as(&self, other: &DataSettings) -> bool {
        self == other
    }

    /// `text` with every reference replaced by its value (`Borrowed` when it holds none); each
    /// reference read is pushed to `read` and each mistake to `diags`.
    pub(crate) fn substitute<'t>(
        &self,
        text: &'t str,
        file: FileId,
        ns: &str,
        read: &mut Vec<Id>,
        diags: &mut Vec<Diagnostic>,
    ) -> Cow<'t, str> {
        if self.settings.is_empty() || !text.contains("setting") {
            return Cow::Borrowed(text);
        }
        // Found in the parsed file, never in its text: a comment or a string that reads like a
        // reference is none.
        let Ok(doc) = crate::toml_file::parse_document(text, file) else {
            return Cow::Borrowed(text);
        };
        let mut found = Vec::new();
        for (_, v) in doc.get_ref().iter() {
            references(v, text, 0, &mut found);
        }
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = text.to_string();
        for (span, name) in found {
            let at = Span::new(file, span.clone());
            let (written, id) = self.value_of(&name, ns);
            match id {
                Ok(id) => read.push(id),
                Err(d) => diags.push(d.at(at)),
            }
            // The value on the reference's first line, then spaces: line breaks stay, so every
            // line and span of the file is where it was.
            let original = &text.as_bytes()[span.clone()];
            let room = original
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(original.len());
            if written.len() > room {
                diags.push(
                    Diagnostic::error(
                        Code::ContentRule,
                        format!("the value of `{}`, {written}, is longer than the reference written for it", crate::diag::shown(&name)),
                    )
                    .at(at)
                    .with_help("write the reference on one line with spaces inside its braces: `{ setting = \"...\" }`"),
                );
                continue;
            }
            let mut bytes: Vec<u8> = (original.iter())
                .map(|&b| if b == b'\n' || b == b'\r' { b } else { b' ' })
                .collect();
            bytes[..written.len()].copy_from_slice(written.as_bytes());
            // Only ASCII replaced ASCII and whole characters: still UTF-8.
            let padded = String::from_utf8(bytes).unwrap_or_default();
            out.replace_range(span, &padded);
        }
        Cow::Owned(out)
    }

    /// The text a reference to `name` is read as, and the setting it reads or what is wrong
    /// with it: then the text stands in for it (the setting's default, when it has a numeric
    /// one), so what the field reads is not a second mistake.
    fn value_of(&self, name: &str, ns: &str) -> (String, Result<Id, Diagnostic>) {
        match self.checked(name, ns) {
            Ok((id, text)) => (text, Ok(id)),
            Err(d) => {
                let full = if name.contains(':') {
                    name.to_string()
                } else {
                    format!("{ns}:{name}")
                };
                let stand_in = match self.settings.iter().find(|(id, _)| id.as_str() == full) {
                    Some((_, (_, _, SettingValue::Int(n)))) => n.to_string(),
                    Some((_, (_, _, SettingValue::Float(x)))) => format!("{x:?}"),
                    _ => "1".to_string(),
                };
                (stand_in, Err(d))
            }
        }
    }

    /// The setting a reference to `name` (in the data of mod `ns`) reads and its value as TOML
    /// writes it, or why it may not.
    fn checked(&self, name: &str, ns: &str) -> Result<(Id, String), Diagnostic> {
        let full = if name.contains(':') {
            name.to_string()
        } else {
            format!("{ns}:{name}")
        };
        let shown = crate::diag::shown(&full);
        let Some((id, (kind, scope, value))) =
            self.settings.iter().find(|(id, _)| id.as_str() == full)
        else {
            let help = did_you_mean_suffix(&full, self.settings.keys().map(Id::as_str));
            return Err(Diagnostic::error(
                Code::UnknownReference,
                format!("there is no setting `{shown}`{help}"),
            ));
        };
        if *scope != Scope::Startup {
            return Err(Diagnostic::error(
                Code::ContentRule,
                format!("`{id}` is a `{}` setting, which may change during play: data reads only `startup` settings", scope.name()),
            )
            .with_help(format!("compare it in a condition instead: `{{ check = \"setting\", setting = \"{id}\", at_least = 1 }}`")));
        }
        let text = match (kind, value) {
            (SettingKind::Int { .. }, SettingValue::Int(n)) => n.to_string(),
            (SettingKind::Float { .. }, SettingValue::Float(x)) => format!("{x:?}"),
            _ => {
                return Err(Diagnostic::error(
                    Code::ContentRule,
                    format!("`{id}` is {} setting: data reads number settings (`int`, `float`) where a number is written", kind.a_type()),
                ))
            }
        };
        Ok((id.clone(), text))
    }
}

/// Every `{ setting = "..." }` in `v`: where it is written and the name it gives.
fn references(
    v: &Spanned<DeValue<'_>>,
    text: &str,
    depth: usize,
    found: &mut Vec<(std::ops::Range<usize>, String)>,
) {
    if depth > DEEPEST {
        return;
    }
    match v.get_ref() {
        DeValue::Table(t) => {
            let mut pairs = t.iter();
            if let (Some((k, name)), None) = (pairs.next(), pairs.next()) {
                // Written inline (`{ setting = "..." }`), not as a `[table]` of its own.
                let inline = text.get(v.span()).is_some_and(|t| t.starts_with('{'));
                if k.get_ref() == "setting" && inline {
                    if let Some(name) = name.get_ref().as_str() {
                        found.push((v.span(), name.to_string()));
                        return;
                    }
                }
            }
            for (_, item) in t.iter() {
                references(item, text, depth + 1, found);
            }
        }
        DeValue::Array(a) => {
            for item in a.iter() {
                references(item, text, depth + 1, found);
            }
        }
        _ => {}
    }
}
