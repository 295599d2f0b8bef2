//! Which IDs each data file names: what a reload that removes a definition asks. A full
//! resolution that a reload may patch notes every reference it resolves, with the file it is
//! written in; a removal is patched only when no file the edit left as it was names the removed
//! ID (that file's reference would be unknown now, and only resolving it says so).

use crate::diag::FileId;
use crate::id::Id;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a resolution notes the references it resolves, as it resolves them: each with its file.
pub(crate) type Naming = RefCell<Vec<(FileId, Id)>>;

/// The IDs each file names, by file; shared by the versions a reload patches from one another
/// (a patch replaces the lists of the files it resolved again, and copies no other).
#[derive(Clone, Default)]
pub(crate) struct Named {
    by_file: Arc<BTreeMap<FileId, Arc<[Id]>>>,
}

impl Named {
    /// The references a resolution noted, by file.
    pub(crate) fn of(noted: Vec<(FileId, Id)>) -> Named {
        Named {
            by_file: Arc::new(by_file(noted)),
        }
    }

    /// These lists with the files `changed` naming what `noted` says (their references as
    /// resolved again) and nothing else.
    pub(crate) fn with_files(&self, changed: &[FileId], noted: Vec<(FileId, Id)>) -> Named {
        let mut by_file = (*self.by_file).clone();
        for file in changed {
            by_file.remove(file);
        }
        by_file.extend(self::by_file(noted));
        Named {
            by_file: Arc::new(by_file),
        }
    }

    /// Whether a file other than the `changed` ones (sorted) names one of `ids`.
    pub(crate) fn named_elsewhere(&self, ids: &[Id], changed: &[FileId]) -> bool {
        self.by_file
            .iter()
            .filter(|(file, _)| changed.binary_search(file).is_err())
            .any(|(_, named)| named.iter().any(|id| ids.contains(id)))
    }
}

/// References grouped by file (file IDs are small and dense: a list each, by number; each
/// reference moved, not copied).
fn by_file(noted: Vec<(FileId, Id)>) -> BTreeMap<FileId, Arc<[Id]>> {
    let mut lists: Vec<Vec<Id>> = Vec::new();
    for (file, id) in noted {
        let at = file.0 as usize;
        if lists.len() <= at {
            lists.resize_with(at + 1, Vec::new);
        }
        lists[at].push(id);
    }
    let files = lists.into_iter().enumerate();
    let named = files.filter(|(_, ids)| !ids.is_empty());
    named
        .map(|(at, ids)| (FileId(at as u32), Arc::from(ids)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> Id {
        Id::qualified(s).unwrap()
    }

    #[test]
    fn a_file_resolved_again_names_only_what_it_names_now() {
        let named = Named::of(vec![
            (FileId(2), id("a:gold")),
            (FileId(1), id("a:metal")),
            (FileId(2), id("a:metal")),
        ]);
        assert!(named.named_elsewhere(&[id("a:gold")], &[]));
        assert!(!named.named_elsewhere(&[id("a:gold")], &[FileId(2)]));
        assert!(named.named_elsewhere(&[id("a:metal")], &[FileId(2)]));
        let after = named.with_files(&[FileId(1)], vec![(FileId(1), id("a:gold"))]);
        assert!(!after.named_elsewhere(&[id("a:metal")], &[FileId(2)]));
        assert!(after.named_elsewhere(&[id("a:gold")], &[FileId(2)]));
        // The list it was made from is as it was.
        assert!(named.named_elsewhere(&[id("a:metal")], &[FileId(2)]));
    }
}
