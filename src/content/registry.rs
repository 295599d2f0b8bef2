//! A registry of definitions by ID, read as a `BTreeMap<Id, Arc<T>>` reads, whose copies share
//! their entries in chunks: copying one is a pointer, and changing a definition in a copy copies
//! only the chunk it is in and the list of chunks. A reload that changed one file makes the new
//! content from the running one's at the cost of what changed, not of the whole mod set.

use crate::id::Id;
use std::borrow::Borrow;
use std::sync::Arc;

/// Entries a chunk holds when it is made from a list; a chunk is split in two past twice this.
const CHUNK: usize = 64;

type Chunk<T> = Vec<(Id, Arc<T>)>;

/// One chunk's entries, in order.
type Entries<'a, T> = std::slice::Iter<'a, (Id, Arc<T>)>;

/// How a chunk gives its entries.
type EntriesOf<'a, T> = fn(&'a Arc<Chunk<T>>) -> Entries<'a, T>;

/// Definitions of one kind by ID, in ID order, each behind an `Arc`.
///
/// It reads as a `BTreeMap<Id, Arc<T>>` does (`get`, `contains_key`, `iter`, `keys`, `values`,
/// `len`) and iterates in the same order. A clone is cheap and shares every definition; a change
/// to a clone copies the chunk of entries it falls in (at most 128) and leaves the original as
/// it was.
///
/// ```
/// use lantern::content::Registry;
/// use lantern::id::Id;
/// use std::sync::Arc;
///
/// let gold = Id::parse("core:gold", "core").unwrap();
/// let mut items: Registry<u32> = [(gold.clone(), Arc::new(99))].into_iter().collect();
/// let before = items.clone(); // a pointer, sharing every definition
/// items.insert(gold.clone(), Arc::new(50));
/// assert_eq!(items.get(&gold).map(|n| **n), Some(50));
/// assert_eq!(*before["core:gold"], 99); // by its text too, as a map by `Id` is read
/// assert_eq!(items.keys().map(Id::as_str).collect::<Vec<_>>(), ["core:gold"]);
/// ```
pub struct Registry<T> {
    /// Sorted, disjoint, none empty, none longer than `2 * CHUNK`.
    chunks: Arc<Vec<Arc<Chunk<T>>>>,
    len: usize,
}

impl<T> Registry<T> {
    /// An empty registry.
    pub fn new() -> Registry<T> {
        Registry {
            chunks: Arc::new(Vec::new()),
            len: 0,
        }
    }

    /// How many definitions it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The chunk `key` is in or would go in: the first whose last ID is not below it (the last
    /// chunk for a key past every ID).
    #[inline]
    fn chunk_of<Q>(&self, key: &Q) -> Option<usize>
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let chunks = &self.chunks;
        match chunks.len() {
            0 => None,
            // A registry of at most 128 definitions (a game's usual) is one chunk: no search.
            1 => Some(0),
            n => Some(
                chunks
                    .partition_point(|chunk| chunk[chunk.len() - 1].0.borrow() < key)
                    .min(n - 1),
            ),
        }
    }

    /// Where `key` is or would go in a chunk.
    #[inline]
    fn place<Q>(chunk: &Chunk<T>, key: &Q) -> Result<usize, usize>
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        if chunk.len() > 8 {
            return chunk.binary_search_by(|(k, _)| k.borrow().cmp(key));
        }
        // A few entries: looked at in order, as a map's node is.
        for (i, (k, _)) in chunk.iter().enumerate() {
            match k.borrow().cmp(key) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => return Ok(i),
                std::cmp::Ordering::Greater => return Err(i),
            }
        }
        Err(chunk.len())
    }

    /// The chunk `key` is in or would go in, and where in it.
    fn find<Q>(&self, key: &Q) -> Option<(usize, Result<usize, usize>)>
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let c = self.chunk_of(key)?;
        Some((c, Self::place(&self.chunks[c], key)))
    }

    /// The definition of `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&Arc<T>>
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.get_key_value(key).map(|(_, v)| v)
    }

    /// The ID and definition of `key`.
    #[inline]
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&Id, &Arc<T>)>
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let chunk = &self.chunks[self.chunk_of(key)?];
        let (k, v) = chunk.get(Self::place(chunk, key).ok()?)?;
        Some((k, v))
    }

    /// Whether it holds `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        matches!(self.find(key), Some((_, Ok(_))))
    }

    /// Every ID and definition, in ID order.
    pub fn iter(&self) -> Iter<'_, T> {
        Iter {
            inner: self.chunks.iter().flat_map(|c| c.iter()),
            left: self.len,
        }
    }

    /// Its entries but those of the chunks it shares with `other` at the same place, in ID
    /// order. What both give this way is what tells them apart: each chunk left out holds the
    /// same definitions in both. (Two registries a reload's patch made from each other share
    /// every chunk but those of the definitions it changed.)
    pub(crate) fn apart_from<'a>(
        &'a self,
        other: &'a Registry<T>,
    ) -> impl Iterator<Item = (&'a Id, &'a Arc<T>)> {
        let shared = move |c: usize| {
            other
                .chunks
                .get(c)
                .is_some_and(|o| Arc::ptr_eq(o, &self.chunks[c]))
        };
        (0..self.chunks.len())
            .filter(move |&c| !shared(c))
            .flat_map(move |c| self.chunks[c].iter().map(|(k, v)| (k, v)))
    }

    /// Every ID, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Id> + ExactSizeIterator {
        self.iter().map(|(k, _)| k)
    }

    /// Every definition, in ID order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Arc<T>> + ExactSizeIterator {
        self.iter().map(|(_, v)| v)
    }

    /// Puts `value` at `key`, giving back the definition it replaces. Only the chunk it falls in
    /// is copied, when a clone shares it.
    pub fn insert(&mut self, key: Id, value: Arc<T>) -> Option<Arc<T>> {
        let Some((c, at)) = self.find(&key) else {
            self.len = 1;
            self.chunks = Arc::new(vec![Arc::new(vec![(key, value)])]);
            return None;
        };
        let chunks = Arc::make_mut(&mut self.chunks);
        let chunk = Arc::make_mut(&mut chunks[c]);
        match at {
            Ok(i) => Some(std::mem::replace(&mut chunk[i].1, value)),
            Err(i) => {
                chunk.insert(i, (key, value));
                self.len += 1;
                if chunk.len() > 2 * CHUNK {
                    let rest = chunk.split_off(CHUNK);
                    chunks.insert(c + 1, Arc::new(rest));
                }
                None
            }
        }
    }

    /// Takes `key`'s definition out.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<Arc<T>>
    where
        Id: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let (c, Ok(i)) = self.find(key)? else {
            return None;
        };
        let chunks = Arc::make_mut(&mut self.chunks);
        let chunk = Arc::make_mut(&mut chunks[c]);
        let (_, value) = chunk.remove(i);
        if chunk.is_empty() {
            chunks.remove(c);
        }
        self.len -= 1;
        Some(value)
    }

    /// Keeps only the definitions `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&Id, &Arc<T>) -> bool) {
        let kept: Vec<(Id, Arc<T>)> = self
            .iter()
            .filter(|(k, v)| keep(k, v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if kept.len() != self.len {
            *self = kept.into_iter().collect();
        }
    }

    /// Every ID and definition, in ID order, the definitions to change (each chunk a clone
    /// shares is copied first).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Id, &mut Arc<T>)> {
        Arc::make_mut(&mut self.chunks)
            .iter_mut()
            .flat_map(|c| Arc::make_mut(c).iter_mut())
            .map(|(k, v)| (&*k, v))
    }

    /// Every definition, in ID order, to change (each chunk a clone shares is copied first).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Arc<T>> {
        self.iter_mut().map(|(_, v)| v)
    }
}

/// `registry[id]`: the definition of an ID that must be there.
impl<T, Q> std::ops::Index<&Q> for Registry<T>
where
    Id: Borrow<Q>,
    Q: Ord + ?Sized,
{
    type Output = Arc<T>;

    fn index(&self, key: &Q) -> &Arc<T> {
        self.get(key).expect("no entry of that ID in the registry")
    }
}

impl<T> Clone for Registry<T> {
    fn clone(&self) -> Registry<T> {
        Registry {
            chunks: self.chunks.clone(),
            len: self.len,
        }
    }
}

impl<T> Default for Registry<T> {
    fn default() -> Registry<T> {
        Registry::new()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Registry<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Made at once from entries in any order; of two entries with one ID, the later stays (as
/// `BTreeMap::from_iter` keeps it).
impl<T> FromIterator<(Id, Arc<T>)> for Registry<T> {
    fn from_iter<I: IntoIterator<Item = (Id, Arc<T>)>>(entries: I) -> Registry<T> {
        let mut all: Vec<(Id, Arc<T>)> = entries.into_iter().collect();
        if !all.is_sorted_by(|a, b| a.0 < b.0) {
            // Stable: of equal IDs, the later stays last, and is the one kept below.
            all.sort_by(|a, b| a.0.cmp(&b.0));
            let mut kept: Vec<(Id, Arc<T>)> = Vec::with_capacity(all.len());
            for entry in all {
                match kept.last_mut() {
                    Some(last) if last.0 == entry.0 => *last = entry,
                    _ => kept.push(entry),
                }
            }
            all = kept;
        }
        let len = all.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        let mut entries = all.into_iter();
        loop {
            let chunk: Chunk<T> = entries.by_ref().take(CHUNK).collect();
            if chunk.is_empty() {
                break;
            }
            chunks.push(Arc::new(chunk));
        }
        Registry {
            chunks: Arc::new(chunks),
            len,
        }
    }
}

impl<T> Extend<(Id, Arc<T>)> for Registry<T> {
    fn extend<I: IntoIterator<Item = (Id, Arc<T>)>>(&mut self, entries: I) {
        for (k, v) in entries {
            self.insert(k, v);
        }
    }
}

impl<'a, T> IntoIterator for &'a Registry<T> {
    type Item = (&'a Id, &'a Arc<T>);
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Registry<T> {
    type Item = (&'a Id, &'a mut Arc<T>);
    type IntoIter = Box<dyn Iterator<Item = (&'a Id, &'a mut Arc<T>)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter_mut())
    }
}

/// A registry's IDs and definitions, in ID order ([`Registry::iter`]).
pub struct Iter<'a, T> {
    inner:
        std::iter::FlatMap<std::slice::Iter<'a, Arc<Chunk<T>>>, Entries<'a, T>, EntriesOf<'a, T>>,
    left: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = (&'a Id, &'a Arc<T>);

    fn next(&mut self) -> Option<Self::Item> {
        let (k, v) = self.inner.next()?;
        self.left -= 1;
        Some((k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let (k, v) = self.inner.next_back()?;
        self.left -= 1;
        Some((k, v))
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn id(n: u32) -> Id {
        Id::parse(&format!("m:{n:05}"), "m").unwrap()
    }

    /// A registry and a `BTreeMap` given the same inserts and removes read the same, and a
    /// clone taken on the way is left as it was.
    #[test]
    fn reads_as_a_btreemap_through_inserts_removes_and_clones() {
        let mut reg: Registry<u32> = Registry::new();
        let mut map: BTreeMap<Id, Arc<u32>> = BTreeMap::new();
        let mut snapshots = Vec::new();
        // A fixed walk over 600 keys: inserts in a scattered order, replaces, removes.
        let mut x = 7u32;
        for step in 0..5_000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let k = id((x >> 8) % 600);
            if step % 7 == 3 {
                assert_eq!(reg.remove(&k), map.remove(&k));
            } else {
                assert_eq!(
                    reg.insert(k.clone(), Arc::new(step)),
                    map.insert(k, Arc::new(step))
                );
            }
            if step % 1_000 == 0 {
                snapshots.push((reg.clone(), map.clone()));
            }
        }
        snapshots.push((reg, map));
        for (reg, map) in &snapshots {
            assert_eq!(reg.len(), map.len());
            assert!(reg.iter().eq(map.iter()));
            assert!(reg.iter().rev().eq(map.iter().rev()));
            assert_eq!(reg.iter().len(), map.len());
            for n in 0..610 {
                assert_eq!(reg.get(&id(n)), map.get(&id(n)));
                assert_eq!(reg.contains_key(id(n).as_str()), map.contains_key(&id(n)));
            }
            let chunks = &reg.chunks;
            assert!(chunks.iter().all(|c| !c.is_empty() && c.len() <= 2 * CHUNK));
        }
    }

    /// What two registries give apart from each other walks as they do whole.
    #[test]
    fn apart_from_leaves_out_only_shared_chunks() {
        let old: Registry<u32> = (0..1_000).map(|n| (id(n), Arc::new(n))).collect();
        let mut new = old.clone();
        new.insert(id(10), Arc::new(7));
        new.insert(id(1_500), Arc::new(7));
        new.remove(&id(600));
        let apart = |a: &Registry<u32>, b: &Registry<u32>| -> BTreeMap<Id, Arc<u32>> {
            a.apart_from(b)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        };
        let (o, n) = (apart(&old, &new), apart(&new, &old));
        assert!(o.len() < 200 && n.len() < 200);
        for k in (0..1_600).map(id) {
            // A key both have outside what is left out is the same definition in both.
            match (o.get(&k), n.get(&k)) {
                (Some(a), Some(b)) => assert_eq!(a == b, old.get(&k) == new.get(&k)),
                (None, None) => assert_eq!(old.get(&k), new.get(&k)),
                _ => assert_ne!(old.get(&k), new.get(&k)),
            }
        }
    }

    #[test]
    fn made_from_entries_keeps_the_last_of_one_id() {
        let entries = [(id(3), 1), (id(1), 2), (id(3), 3), (id(2), 4)];
        let reg: Registry<u32> = entries
            .iter()
            .map(|(k, v)| (k.clone(), Arc::new(*v)))
            .collect();
        let map: BTreeMap<Id, Arc<u32>> = entries
            .iter()
            .map(|(k, v)| (k.clone(), Arc::new(*v)))
            .collect();
        assert!(reg.iter().eq(map.iter()));
        let many: Registry<u32> = (0..1_000).map(|n| (id(n), Arc::new(n))).collect();
        assert_eq!(many.len(), 1_000);
        assert_eq!(many.get(&id(999)).map(|v| **v), Some(999));
        assert!(many
            .keys()
            .eq((0..1_000).map(id).collect::<Vec<_>>().iter()));
    }

    /// A clone shares every chunk; a change to it copies one chunk and the list of chunks.
    #[test]
    fn a_change_to_a_clone_copies_one_chunk() {
        let reg: Registry<u32> = (0..1_000).map(|n| (id(n), Arc::new(n))).collect();
        let mut copy = reg.clone();
        assert!(Arc::ptr_eq(&reg.chunks, &copy.chunks));
        copy.insert(id(500), Arc::new(0));
        let shared = reg
            .chunks
            .iter()
            .zip(copy.chunks.iter())
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        assert_eq!(shared, reg.chunks.len() - 1);
        assert_eq!(reg.get(&id(500)).map(|v| **v), Some(500));
        assert_eq!(copy.get(&id(500)).map(|v| **v), Some(0));
        for v in copy.values_mut() {
            *Arc::make_mut(v) += 1;
        }
        assert_eq!(reg.get(&id(0)).map(|v| **v), Some(0));
        assert_eq!(copy.get(&id(0)).map(|v| **v), Some(1));
    }
}
