//! From near-duplicate classes to the pairs and groups of documents the
//! report lists.
//!
//! The search and verification work on classes (documents with the same
//! features); here every near pair of classes stands for all the document
//! pairs between them, and every class of two or more documents for the
//! pairs within it (Jaccard 1, distance 0). They are counted without being
//! enumerated, and only the first `max_pairs` in the report's order are
//! built, so a class of a million copies costs a million ids, not 5·10^11
//! pairs.

use super::documents::{ClassId, Members};
use crate::report::ReportPair;
use crate::search::DocId;

/// Two classes found near each other (verified, or within k in raw mode).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassPair {
    /// The first class.
    pub a: ClassId,
    /// The second class.
    pub b: ClassId,
    /// Hamming distance of their fingerprints.
    pub distance: u32,
    /// Exact Jaccard, when verified.
    pub jaccard: Option<f64>,
    /// Compared as short texts: the pair stands for its document pairs of
    /// two short texts only; otherwise for those of at most one.
    pub short_texts: bool,
}

/// The pairs to list, how many there are in all, and the groups.
#[derive(Debug, Default)]
pub struct Listing {
    /// The first `max_pairs` pairs in the report's order.
    pub pairs: Vec<ReportPair>,
    /// Every pair, counted.
    pub total: u64,
    /// Groups of two or more documents, members ascending, in order of
    /// first member.
    pub groups: Vec<Vec<DocId>>,
    /// For each group, whether a member is not a near-duplicate of its
    /// first (verified connected components only; false otherwise).
    pub chained: Vec<bool>,
}

/// The first `max_pairs` document pairs of near classes and of classes
/// with several members, and how many there are in all. When `verified`,
/// pairs carry their Jaccard (1 within a class) and are ordered by it,
/// highest first; else by distance. Ties go by the documents' input order.
pub fn pairs(
    near: &[ClassPair],
    classes: usize,
    members: &Members,
    short_members: &[u32],
    is_short_text: impl Fn(DocId) -> bool,
    max_pairs: u64,
    verified: bool,
) -> (Vec<ReportPair>, u64) {
    let within = verified.then_some(1.0);
    let mut top = Top::new(max_pairs);
    let mut total = 0u64;
    let key = order_key(0, within);
    for class in 0..classes as ClassId {
        let ids = members.of(class);
        let c = ids.len() as u64;
        if c < 2 {
            continue;
        }
        total = total.saturating_add(c * (c - 1) / 2);
        'rows: for (i, &a) in ids.iter().enumerate() {
            for (j, &b) in ids[i + 1..].iter().enumerate() {
                if !top.offer((key, a, b, WITHIN)) {
                    if j == 0 {
                        break 'rows;
                    }
                    break;
                }
            }
        }
    }
    for (index, pair) in near.iter().enumerate() {
        let (xs, ys) = (members.of(pair.a), members.of(pair.b));
        let all = xs.len() as u64 * ys.len() as u64;
        let shorts =
            u64::from(short_members[pair.a as usize]) * u64::from(short_members[pair.b as usize]);
        total = total.saturating_add(if pair.short_texts {
            shorts
        } else {
            all - shorts
        });
        let key = order_key(pair.distance, pair.jaccard);
        for &x in xs {
            for &y in ys {
                // Pairs of two short texts belong to their own search.
                if (is_short_text(x) && is_short_text(y)) != pair.short_texts {
                    continue;
                }
                let (a, b) = if x < y { (x, y) } else { (y, x) };
                // For a fixed x the pairs grow with y: stop the row at
                // the first refusal.
                if !top.offer((key, a, b, index as u32)) {
                    break;
                }
            }
        }
    }
    let pairs = top
        .into_sorted()
        .into_iter()
        .map(|(_, a, b, source)| match source {
            WITHIN => ReportPair {
                a,
                b,
                distance: 0,
                jaccard: within,
                short_texts: false,
            },
            index => ReportPair {
                a,
                b,
                distance: near[index as usize].distance,
                jaccard: near[index as usize].jaccard,
                short_texts: near[index as usize].short_texts,
            },
        })
        .collect();
    (pairs, total)
}

/// Where a listed pair comes from: the index of its near class pair, or
/// this for two members of one class (a plain number keeps the collector's
/// items at 24 bytes).
const WITHIN: u32 = u32::MAX;

/// Sorts verified pairs by Jaccard, highest first (the bits of 1 - J keep
/// the order of non-negative floats), raw pairs by distance.
fn order_key(distance: u32, jaccard: Option<f64>) -> u64 {
    match jaccard {
        Some(jaccard) => (1.0 - jaccard).max(0.0).to_bits(),
        None => u64::from(distance),
    }
}

/// The components of the near class pairs, plus every class of two or
/// more documents, as groups of documents: members ascending, groups in
/// order of their first member. `class_of` gives each document's class;
/// documents `listed` rejects are members of nothing (as in [`Members`]).
pub fn groups(
    near: &[ClassPair],
    class_of: &[ClassId],
    classes: usize,
    listed: impl Fn(DocId) -> bool,
) -> Vec<Vec<DocId>> {
    let mut parent: Vec<ClassId> = (0..classes as ClassId).collect();
    fn find(parent: &mut [ClassId], mut x: ClassId) -> ClassId {
        while parent[x as usize] != x {
            let grandparent = parent[parent[x as usize] as usize];
            parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }
    for pair in near {
        let (a, b) = (find(&mut parent, pair.a), find(&mut parent, pair.b));
        parent[a.max(b) as usize] = a.min(b);
    }
    // Documents per component, counted at its root; only components of
    // two or more documents get a group (and memory).
    let mut count = vec![0u32; classes];
    for (id, &class) in class_of.iter().enumerate() {
        if listed(id as DocId) {
            count[find(&mut parent, class) as usize] += 1;
        }
    }
    // Documents come in input order, so members are ascending and groups
    // are made in order of their first member.
    let mut slot = vec![u32::MAX; classes];
    let mut groups: Vec<Vec<DocId>> = Vec::new();
    for (id, &class) in class_of.iter().enumerate() {
        let root = find(&mut parent, class) as usize;
        if count[root] < 2 || !listed(id as DocId) {
            continue;
        }
        if slot[root] == u32::MAX {
            slot[root] = groups.len() as u32;
            groups.push(Vec::with_capacity(count[root] as usize));
        }
        groups[slot[root] as usize].push(id as DocId);
    }
    groups
}

/// The smallest `cap` items offered, in any order until `into_sorted`:
/// keeps at most one and a half times `cap`, dropping the largest third
/// when full, and then refuses anything not below the largest kept.
struct Top<T> {
    cap: usize,
    kept: Vec<T>,
    limit: Option<T>,
}

impl<T: Ord + Copy> Top<T> {
    fn new(cap: u64) -> Top<T> {
        Top {
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            kept: Vec::new(),
            limit: None,
        }
    }

    /// Offers an item; false if refused.
    fn offer(&mut self, item: T) -> bool {
        if self.cap == 0 || self.limit.is_some_and(|limit| item >= limit) {
            return false;
        }
        self.kept.push(item);
        if self.kept.len() >= self.cap.saturating_add(self.cap / 2) {
            self.prune();
        }
        true
    }

    fn prune(&mut self) {
        if self.kept.len() > self.cap {
            self.kept.select_nth_unstable(self.cap - 1);
            self.kept.truncate(self.cap);
            self.limit = self.kept.iter().max().copied();
        }
    }

    fn into_sorted(mut self) -> Vec<T> {
        self.prune();
        // The slack goes before the caller builds its rows beside these
        // (10^6 pairs listed: 12 MB of 36).
        self.kept.shrink_to_fit();
        self.kept.sort_unstable();
        self.kept
    }
}
