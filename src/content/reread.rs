//! An entry of a data file read again from the file's text, to report every mistake in it when
//! the first reading stopped at one; and why a definition could not be read, as a reference to
//! it says.

use crate::diag::FileId;

/// Why a definition could not be read, as a reference to it says.
pub(super) const HAS_ERRORS: &str = "has errors, see above";
pub(super) const UNPARSED: &str = "is in a file that does not parse, see above";
pub(super) const IN_UNKNOWN_TABLE: &str = "is in a table lantern does not know, see above";

/// The entry of `[[table]]` at `span`, parsed again from the text.
pub(super) fn entry_again<'a>(
    text: &'a str,
    table: &str,
    span: std::ops::Range<usize>,
) -> Option<toml::Spanned<toml::de::DeValue<'a>>> {
    let doc = crate::toml_file::parse_document(text, FileId(0))
        .ok()?
        .into_inner();
    let (_, list) = doc.into_iter().find(|(k, _)| k.get_ref() == table)?;
    let toml::de::DeValue::Array(entries) = list.into_inner() else {
        return None;
    };
    entries.into_iter().find(|e| e.span() == span)
}

/// The `id` an entry gives itself, if it is a string.
pub(super) fn id_of(entry: &toml::Spanned<toml::de::DeValue<'_>>) -> Option<String> {
    let id = entry.get_ref().as_table()?.get("id")?;
    id.get_ref().as_str().map(str::to_string)
}
