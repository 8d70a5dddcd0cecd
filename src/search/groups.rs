//! Groups: the connected components of the pair graph, computed over
//! distinct fingerprints (never over expanded document pairs) and then
//! filled in with their documents.

use std::collections::BTreeMap;

use super::collapse::Collapsed;
use super::{DocId, Pair};

/// Union-find over distinct fingerprint numbers, with path halving and the
/// smaller number as root (no size array: 4 bytes per fingerprint, and
/// halving alone keeps finds logarithmic amortized). The components do not
/// depend on the order of unions.
#[derive(Debug)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// `n` singletons.
    pub(crate) fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }

    /// The representative of `x`'s component.
    pub(crate) fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    /// Joins the components of `x` and `y`.
    pub(crate) fn union(&mut self, x: u32, y: u32) {
        let (x, y) = (self.find(x), self.find(y));
        self.parent[x.max(y) as usize] = x.min(y);
    }
}

/// The groups of documents: every component with two or more documents
/// (a repeated fingerprint alone makes one), members ascending, groups
/// ordered by their first member.
pub(crate) fn groups(collapsed: &Collapsed, mut union_find: UnionFind) -> Vec<Vec<DocId>> {
    let n = collapsed.len();
    // Documents per component, counted at its root.
    let mut count = vec![0u32; n];
    for x in 0..n as u32 {
        let root = union_find.find(x) as usize;
        count[root] += collapsed.ids(x).len() as u32;
    }
    // Only components of two or more documents get a group (and memory).
    let mut slot = vec![u32::MAX; n];
    let mut groups: Vec<Vec<DocId>> = Vec::new();
    for x in 0..n as u32 {
        let root = union_find.find(x) as usize;
        if count[root] < 2 {
            continue;
        }
        if slot[root] == u32::MAX {
            slot[root] = groups.len() as u32;
            groups.push(Vec::with_capacity(count[root] as usize));
        }
        groups[slot[root] as usize].extend_from_slice(collapsed.ids(x));
    }
    for group in groups.iter_mut() {
        group.sort_unstable();
    }
    groups.sort_unstable_by_key(|g| g[0]);
    groups
}

/// The groups formed by a list of pairs, in the same order as [`groups`]:
/// for pairs filtered after the search (by `--min-jaccard`), where the
/// components must be those of the pairs that remain.
pub fn groups_of_pairs(pairs: &[Pair]) -> Vec<Vec<DocId>> {
    let mut ids: Vec<DocId> = pairs.iter().flat_map(|pair| [pair.a, pair.b]).collect();
    ids.sort_unstable();
    ids.dedup();
    let index = |id: DocId| ids.partition_point(|&other| other < id) as u32;
    let mut union_find = UnionFind::new(ids.len());
    for pair in pairs {
        union_find.union(index(pair.a), index(pair.b));
    }
    let mut components: BTreeMap<u32, Vec<DocId>> = BTreeMap::new();
    for (position, &id) in ids.iter().enumerate() {
        let root = union_find.find(position as u32);
        components.entry(root).or_default().push(id);
    }
    let mut groups: Vec<Vec<DocId>> = components.into_values().collect();
    groups.sort_unstable_by_key(|group| group[0]);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_of_pairs_are_their_components() {
        let pair = |a, b| Pair { distance: 1, a, b };
        let pairs = [pair(7, 9), pair(2, 30), pair(9, 12), pair(30, 31)];
        assert_eq!(
            groups_of_pairs(&pairs),
            vec![vec![2, 30, 31], vec![7, 9, 12]]
        );
        assert!(groups_of_pairs(&[]).is_empty());
    }

    #[test]
    fn union_find_joins_transitively() {
        let mut uf = UnionFind::new(6);
        uf.union(0, 1);
        uf.union(4, 5);
        uf.union(1, 5);
        assert_eq!(uf.find(0), uf.find(4));
        assert_ne!(uf.find(0), uf.find(2));
        assert_ne!(uf.find(2), uf.find(3));
    }

    #[test]
    fn groups_hold_repeats_and_components() {
        // Fingerprints 10, 20, 30, 40; 20 is held by two documents.
        let input = [(7, 10), (3, 20), (1, 20), (0, 30), (9, 40), (2, 50)];
        let collapsed = Collapsed::new(&input).unwrap();
        let mut uf = UnionFind::new(collapsed.len());
        uf.union(collapsed.index_of(40), collapsed.index_of(10));
        let found = groups(&collapsed, uf);
        assert_eq!(found, vec![vec![1, 3], vec![7, 9]]);
    }
}
