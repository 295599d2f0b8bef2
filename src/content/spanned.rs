//! A raw value with where it was written, in eight bytes of span rather than `toml::Spanned`'s
//! sixteen: a million definitions hold several million of them while they are resolved. It
//! reads itself through `toml::Spanned` (so `toml`'s and the quick reader's deserializers, and
//! the probe of a type's keys, see the type they know) and offers the same methods.

use serde::{Deserialize, Deserializer};
use std::ops::Range;

/// A value and the bytes it was written at (a data file is at most 16 MiB: `u32` holds any
/// offset in it).
#[derive(Clone)]
pub(crate) struct Spanned<T> {
    start: u32,
    end: u32,
    value: T,
}

impl<T> Spanned<T> {
    pub(crate) fn new(range: Range<usize>, value: T) -> Self {
        Spanned {
            start: range.start as u32,
            end: range.end as u32,
            value,
        }
    }

    pub(crate) fn span(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub(crate) fn into_inner(self) -> T {
        self.value
    }

    pub(crate) fn get_ref(&self) -> &T {
        &self.value
    }

    pub(crate) fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> From<toml::Spanned<T>> for Spanned<T> {
    fn from(spanned: toml::Spanned<T>) -> Self {
        let span = spanned.span();
        Spanned::new(span, spanned.into_inner())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        toml::Spanned::<T>::deserialize(d).map(Spanned::from)
    }
}

// As `toml::Spanned`'s: shown with its span, compared by its value.
impl<T: std::fmt::Debug> std::fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spanned")
            .field("span", &self.span())
            .field("value", &self.value)
            .finish()
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

#[cfg(test)]
mod tests {
    use super::Spanned;

    /// It reads what `toml::Spanned` reads, at the same span, and is half its span's size.
    #[test]
    fn reads_as_tomls_spanned_in_less_room() {
        #[derive(serde::Deserialize)]
        struct Entry {
            id: Spanned<String>,
            count: Option<Spanned<i64>>,
        }
        let text = "id = \"lamp\"\ncount = 3\n";
        let entry: Entry = toml::from_str(text).unwrap();
        assert_eq!(&text[entry.id.span()], "\"lamp\"");
        assert_eq!(entry.id.get_ref(), "lamp");
        let count = entry.count.unwrap();
        assert_eq!((&text[count.span()], *count.get_ref()), ("3", 3));
        assert_eq!(
            format!("{:?}", Spanned::new(1..2, 7)),
            format!("{:?}", toml::Spanned::new(1..2, 7))
        );
        assert!(
            std::mem::size_of::<Spanned<String>>() < std::mem::size_of::<toml::Spanned<String>>()
        );
    }
}
