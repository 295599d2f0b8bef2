//! One kind of raw definition as the data files gave it: a list a file, in the files' order, read
//! as one list. A load of a million definitions parsed each file into lists of its own; joining
//! them into one list a kind copied every definition into memory the system had to give and
//! clear, while the files' lists still held theirs (a third of a check's peak memory). Kept as
//! the files gave them, nothing is copied, and a reload puts one file's list in place of its old
//! one without moving any other.

use crate::diag::FileId;

/// Something read from one data file.
pub(crate) trait InFile {
    /// The file it was read from.
    fn file(&self) -> FileId;
}

/// A list of things read from data files, kept a list a file (see the module's words). Files
/// come in load order and each has one list; an index counts across all of them.
pub(crate) struct ByFile<T> {
    /// Each file's list, never empty, in the files' order.
    parts: Vec<Vec<T>>,
    /// Where each part starts in the whole list.
    starts: Vec<usize>,
    len: usize,
}

impl<T> Default for ByFile<T> {
    fn default() -> Self {
        ByFile {
            parts: Vec::new(),
            starts: Vec::new(),
            len: 0,
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for ByFile<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T> ByFile<T> {
    /// How many entries all files hold.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every entry, in the files' order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + Clone {
        self.parts.iter().flatten()
    }

    /// Every entry, in the files' order, to change.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.parts.iter_mut().flatten()
    }

    /// The `index`th entry across all files.
    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        if index >= self.len {
            return None;
        }
        let part = self.starts.partition_point(|&s| s <= index) - 1;
        self.parts[part].get(index - self.starts[part])
    }

    /// Each file's list with the index of its first entry in the whole list.
    pub(crate) fn parts_at(&self) -> impl Iterator<Item = (usize, &[T])> {
        self.starts
            .iter()
            .copied()
            .zip(self.parts.iter().map(Vec::as_slice))
    }

    /// [`ByFile::parts_at`], each list given away: freed as soon as its taker is done with it.
    pub(crate) fn into_parts_at(self) -> impl Iterator<Item = (usize, Vec<T>)> {
        self.starts.into_iter().zip(self.parts)
    }

    /// Adds the lists of `other`'s files after this one's, moving no entry.
    pub(crate) fn append(&mut self, other: ByFile<T>) {
        for part in other.parts {
            self.push_part(part);
        }
    }

    fn push_part(&mut self, part: Vec<T>) {
        if part.is_empty() {
            return;
        }
        self.starts.push(self.len);
        self.len += part.len();
        self.parts.push(part);
    }
}

impl<T: InFile> ByFile<T> {
    /// Adds an entry after the last: to the last file's list when it was read from that file.
    pub(crate) fn push(&mut self, entry: T) {
        match self.parts.last_mut() {
            Some(last) if last[0].file() == entry.file() => last.push(entry),
            _ => {
                self.starts.push(self.len);
                self.parts.push(vec![entry]);
            }
        }
        self.len += 1;
    }

    /// The place of `file`'s list among the parts, or where it would go.
    fn place(&self, file: FileId) -> Result<usize, usize> {
        self.parts.binary_search_by(|p| p[0].file().cmp(&file))
    }

    /// The entries read from `file`.
    pub(crate) fn of_file(&self, file: FileId) -> &[T] {
        match self.place(file) {
            Ok(i) => &self.parts[i],
            Err(_) => &[],
        }
    }

    /// The entries read from `file`, each with its index in the whole list.
    pub(crate) fn enumerate_file(&self, file: FileId) -> impl Iterator<Item = (usize, &T)> {
        let (start, part): (usize, &[T]) = match self.place(file) {
            Ok(i) => (self.starts[i], &self.parts[i]),
            Err(_) => (0, &[]),
        };
        part.iter().enumerate().map(move |(i, e)| (start + i, e))
    }

    /// Puts what `file` holds now (`fresh`, read from it alone) in place of what it held.
    pub(crate) fn replace_file(&mut self, file: FileId, fresh: ByFile<T>) {
        let fresh: Vec<T> = fresh.parts.into_iter().flatten().collect();
        debug_assert!(fresh.iter().all(|e| e.file() == file));
        match (self.place(file), fresh.is_empty()) {
            (Ok(i), false) => self.parts[i] = fresh,
            (Ok(i), true) => drop(self.parts.remove(i)),
            (Err(i), false) => self.parts.insert(i, fresh),
            (Err(_), true) => return,
        }
        self.starts.clear();
        self.len = 0;
        for part in &self.parts {
            self.starts.push(self.len);
            self.len += part.len();
        }
    }
}

impl<T: InFile> Extend<T> for ByFile<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, entries: I) {
        for entry in entries {
            self.push(entry);
        }
    }
}

impl<T> std::ops::Index<usize> for ByFile<T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(entry) => entry,
            None => panic!("index {index} out of a list of {}", self.len),
        }
    }
}

impl<'a, T> IntoIterator for &'a ByFile<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Vec<T>>>;
    fn into_iter(self) -> Self::IntoIter {
        self.parts.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Clone, Copy)]
    struct E(u32, u32);
    impl InFile for E {
        fn file(&self) -> FileId {
            FileId(self.0)
        }
    }

    fn of(entries: &[E]) -> ByFile<E> {
        let mut list = ByFile::default();
        list.extend(entries.iter().copied());
        list
    }

    /// Read by index, by iteration and file by file, a `ByFile` is the list it was made from.
    #[test]
    fn reads_as_one_list() {
        let entries = [E(1, 0), E(1, 1), E(3, 2), E(4, 3), E(4, 4), E(4, 5)];
        let list = of(&entries);
        assert_eq!(list.len(), 6);
        assert_eq!(list.parts.len(), 3);
        for (i, e) in entries.iter().enumerate() {
            assert_eq!(&list[i], e);
        }
        assert_eq!(list.get(6), None);
        assert_eq!(list.iter().copied().collect::<Vec<_>>(), entries);
        assert_eq!(list.of_file(FileId(4)), &entries[3..]);
        assert_eq!(list.of_file(FileId(2)), &[]);
        let found: Vec<(usize, E)> = list
            .enumerate_file(FileId(3))
            .map(|(i, e)| (i, *e))
            .collect();
        assert_eq!(found, [(2, E(3, 2))]);
        assert_eq!(format!("{list:?}"), format!("{:?}", entries.to_vec()));
        let starts: Vec<usize> = list.parts_at().map(|(at, _)| at).collect();
        assert_eq!(starts, [0, 2, 3]);
        let owned: Vec<(usize, Vec<E>)> = of(&entries).into_parts_at().collect();
        assert_eq!(owned[2], (3, entries[3..].to_vec()));
    }

    /// Appending moves files' lists; empty ones are no part.
    #[test]
    fn append_keeps_the_files_order() {
        let mut all = of(&[E(1, 0)]);
        all.append(ByFile::default());
        all.append(of(&[E(2, 1), E(2, 2)]));
        assert_eq!(all.len(), 3);
        assert_eq!(all.parts.len(), 2);
        assert_eq!(all[2], E(2, 2));
    }

    /// A file's entries are put in place of its old ones, whether either is empty, and every
    /// index after them moves as a spliced list's would.
    #[test]
    fn replacing_a_file_is_splicing_its_run() {
        let start = [E(1, 0), E(3, 1), E(3, 2), E(5, 3)];
        let cases: [(u32, &[E]); 5] = [
            (3, &[E(3, 9)]),
            (3, &[]),
            (2, &[E(2, 7), E(2, 8)]),
            (6, &[E(6, 1)]),
            (4, &[]),
        ];
        for (file, fresh) in cases {
            let mut list = of(&start);
            list.replace_file(FileId(file), of(fresh));
            let mut spliced = start.to_vec();
            let from = spliced.partition_point(|e| e.0 < file);
            let to = from + spliced[from..].partition_point(|e| e.0 == file);
            spliced.splice(from..to, fresh.iter().copied());
            assert_eq!(list.iter().copied().collect::<Vec<_>>(), spliced);
            assert_eq!(list.len(), spliced.len());
            for (i, e) in spliced.iter().enumerate() {
                assert_eq!(&list[i], e);
            }
        }
    }
}
