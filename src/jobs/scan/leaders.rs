//! Groups led by their first member (`--group-by first`): documents are
//! taken in input order, and each joins the group of the earliest document
//! that leads a group and is its near-duplicate; one with no such document
//! leads a new group. So every member is a near-duplicate of its group's
//! first member, and no two first members are near-duplicates: the
//! records `simdup dedup` keeps are the first members (and the documents
//! in no group), and each record it drops is in the group of the kept
//! record it names. Connected components (the default, src/jobs/scan/
//! listing.rs) chain instead: releases of one project join one group,
//! though the first and the last share little.
//!
//! The near relation is the listing's: two documents of one class are
//! near (the same features), and a near pair of classes stands for its
//! document pairs of two short texts when it was found as short texts,
//! else for those with at most one short text. So a document's neighbours
//! depend only on its class and whether it is a short text: the work is
//! done on those halves of classes, each decided by its first document
//! (a later one meets the same leaders, and those that lead from between
//! them come after the first).

use super::documents::ClassId;
use super::listing::ClassPair;
use crate::search::DocId;

/// No document (a half-class with no listed member).
const NONE: DocId = DocId::MAX;

/// The groups led by their first member, of two or more documents,
/// members ascending, groups in order of their first member (as
/// [`super::listing::groups`] orders components). `class_of` gives each
/// document's class, `is_short` whether it is a short text; documents
/// `listed` rejects are members of nothing.
pub fn first_groups(
    near: &[ClassPair],
    class_of: &[ClassId],
    classes: usize,
    is_short: impl Fn(DocId) -> bool,
    listed: impl Fn(DocId) -> bool,
) -> Vec<Vec<DocId>> {
    // Half-class `2c + 1` holds class c's short texts, `2c` the rest.
    let half = |id: DocId| 2 * class_of[id as usize] as usize + usize::from(is_short(id));
    let halves = 2 * classes;
    let NearHalves { first, neighbours } = NearHalves::new(near, class_of, halves, &half, &listed);
    // The half-classes in order of their first document.
    let mut order: Vec<usize> = (0..halves).filter(|&h| first[h] != NONE).collect();
    order.sort_unstable_by_key(|&h| first[h]);
    // The half-class whose first document leads the group each joins.
    let mut leader = vec![usize::MAX; halves];
    for &h in &order {
        // The other half of its class: the same features.
        let twin = h ^ 1;
        let earliest = neighbours
            .of(h)
            .iter()
            .map(|&n| n as usize)
            .chain(std::iter::once(twin))
            .filter(|&n| first[n] < first[h] && leader[n] == n)
            .min_by_key(|&n| first[n]);
        leader[h] = earliest.unwrap_or(h);
    }
    // Documents per group, counted at its leader; only groups of two or
    // more get one.
    let mut count = vec![0u32; halves];
    for id in (0..class_of.len() as DocId).filter(|&id| listed(id)) {
        count[leader[half(id)]] += 1;
    }
    let mut slot = vec![u32::MAX; halves];
    let mut groups: Vec<Vec<DocId>> = Vec::new();
    for id in (0..class_of.len() as DocId).filter(|&id| listed(id)) {
        let lead = leader[half(id)];
        if count[lead] < 2 {
            continue;
        }
        // Documents come in input order and a group's first member is its
        // leader's first document: groups are made in order of it.
        if slot[lead] == u32::MAX {
            slot[lead] = groups.len() as u32;
            groups.push(Vec::with_capacity(count[lead] as usize));
        }
        groups[slot[lead] as usize].push(id);
    }
    groups
}

/// For each group, whether it holds a document that is not a near-duplicate
/// of its first member (one joined to the group through others): the
/// chains of connected components ([`super::listing::groups`]). Arguments
/// as for [`first_groups`].
pub fn chained(
    groups: &[Vec<DocId>],
    near: &[ClassPair],
    class_of: &[ClassId],
    classes: usize,
    is_short: impl Fn(DocId) -> bool,
    listed: impl Fn(DocId) -> bool,
) -> Vec<bool> {
    let half = |id: DocId| 2 * class_of[id as usize] as usize + usize::from(is_short(id));
    let halves = 2 * classes;
    let NearHalves { neighbours, .. } = NearHalves::new(near, class_of, halves, &half, &listed);
    // The half-classes near the current group's first member, marked with
    // the group's number.
    let mut near_first = vec![usize::MAX; halves];
    groups
        .iter()
        .enumerate()
        .map(|(number, members)| {
            let Some(&first) = members.first() else {
                return false;
            };
            let lead = half(first);
            // Itself and the other half of its class: the same features.
            near_first[lead] = number;
            near_first[lead ^ 1] = number;
            for &other in neighbours.of(lead) {
                near_first[other as usize] = number;
            }
            members
                .iter()
                .any(|&member| near_first[half(member)] != number)
        })
        .collect()
}

/// Each half-class's first listed document, and the half-classes near
/// each.
struct NearHalves {
    first: Vec<DocId>,
    neighbours: Neighbours,
}

impl NearHalves {
    fn new(
        near: &[ClassPair],
        class_of: &[ClassId],
        halves: usize,
        half: &impl Fn(DocId) -> usize,
        listed: &impl Fn(DocId) -> bool,
    ) -> NearHalves {
        let mut first = vec![NONE; halves];
        for id in 0..class_of.len() as DocId {
            if listed(id) && first[half(id)] == NONE {
                first[half(id)] = id;
            }
        }
        let neighbours = Neighbours::new(near, halves, |half| first[half] != NONE);
        NearHalves { first, neighbours }
    }
}

/// The half-classes near each half-class, in one array (compressed rows).
struct Neighbours {
    starts: Vec<usize>,
    ends: Vec<u32>,
}

impl Neighbours {
    /// The edges `near` stands for between the half-classes `present`
    /// accepts (those with a listed document): short texts' with short
    /// texts' for a pair found as short texts; every other combination for
    /// the rest.
    fn new(near: &[ClassPair], halves: usize, present: impl Fn(usize) -> bool) -> Neighbours {
        let present = &present;
        let edges = |pair: &ClassPair| {
            let (a, b) = (2 * pair.a as usize, 2 * pair.b as usize);
            let all = [(a, b), (a + 1, b), (a, b + 1), (a + 1, b + 1)];
            // As the listing expands a pair (src/jobs/scan/listing.rs).
            let short_texts = pair.short_texts;
            all.into_iter().filter(move |&(x, y)| {
                (x % 2 == 1 && y % 2 == 1) == short_texts && present(x) && present(y)
            })
        };
        let mut degree = vec![0usize; halves + 1];
        for (x, y) in near.iter().flat_map(edges) {
            degree[x] += 1;
            degree[y] += 1;
        }
        let mut starts = vec![0usize; halves + 1];
        for h in 0..halves {
            starts[h + 1] = starts[h] + degree[h];
        }
        let mut next = starts.clone();
        let mut ends = vec![0u32; starts[halves]];
        for (x, y) in near.iter().flat_map(edges) {
            ends[next[x]] = y as u32;
            next[x] += 1;
            ends[next[y]] = x as u32;
            next[y] += 1;
        }
        Neighbours { starts, ends }
    }

    fn of(&self, half: usize) -> &[u32] {
        &self.ends[self.starts[half]..self.starts[half + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pair(a: ClassId, b: ClassId, short_texts: bool) -> ClassPair {
        ClassPair {
            a,
            b,
            distance: 0,
            jaccard: Some(0.9),
            short_texts,
        }
    }

    #[test]
    fn a_chain_is_cut_where_a_document_is_not_near_the_first() {
        // 0 ~ 1 ~ 2 ~ 3, and nothing else: 2 is not near 0, so it leads.
        let near = [pair(0, 1, false), pair(1, 2, false), pair(2, 3, false)];
        let groups = first_groups(&near, &[0, 1, 2, 3], 4, |_| false, |_| true);
        assert_eq!(groups, vec![vec![0, 1], vec![2, 3]]);
        let components = super::super::listing::groups(&near, &[0, 1, 2, 3], 4, |_| true);
        assert_eq!(components, vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn components_are_chained_where_a_member_is_not_near_the_first() {
        // 0 ~ 1 ~ 2: 2 is not near 0. 3 and 4 are one class; 5 ~ 6.
        let near = [pair(0, 1, false), pair(1, 2, false), pair(4, 5, false)];
        let class_of = [0, 1, 2, 3, 3, 4, 5];
        let groups = super::super::listing::groups(&near, &class_of, 6, |_| true);
        assert_eq!(groups, vec![vec![0, 1, 2], vec![3, 4], vec![5, 6]]);
        let marks = chained(&groups, &near, &class_of, 6, |_| false, |_| true);
        assert_eq!(marks, vec![true, false, false]);
        let led = first_groups(&near, &class_of, 6, |_| false, |_| true);
        let marks = chained(&led, &near, &class_of, 6, |_| false, |_| true);
        assert_eq!(marks, vec![false; led.len()]);
    }

    #[test]
    fn a_document_joins_the_earliest_leader_near_it() {
        // 0 and 1 lead (not near each other); 2 is near both: it joins 0.
        let near = [pair(1, 2, false), pair(0, 2, false)];
        let groups = first_groups(&near, &[0, 1, 2], 3, |_| false, |_| true);
        assert_eq!(groups, vec![vec![0, 2]]);
    }

    #[test]
    fn copies_follow_the_first_of_their_class() {
        // Documents 0 and 3 are one class, 1 and 2 another near it.
        let near = [pair(0, 1, false)];
        let groups = first_groups(&near, &[0, 1, 1, 0], 2, |_| false, |_| true);
        assert_eq!(groups, vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn a_pair_of_short_texts_stands_for_short_texts_only() {
        // Class 0: a short text (0) and a long one (2); class 1: a short
        // text (1) and a long one (3). Their pair was found as short texts.
        let near = [pair(0, 1, true)];
        let short = |id: DocId| id < 2;
        let groups = first_groups(&near, &[0, 1, 0, 1], 2, short, |_| true);
        // 1 joins 0 (two short texts), 2 joins 0 (one class). 3 is near
        // 1 only (one class), which leads nothing: 3 leads, alone.
        assert_eq!(groups, vec![vec![0, 1, 2]]);
    }

    #[test]
    fn unlisted_documents_are_in_no_group_and_lead_none() {
        let near = [pair(0, 1, false), pair(1, 2, false)];
        let groups = first_groups(&near, &[0, 1, 2], 3, |_| false, |id| id != 0);
        assert_eq!(groups, vec![vec![1, 2]]);
    }

    /// The rule itself, document by document: the earliest leader near
    /// each document, by the near relation of every document pair.
    fn reference(
        near: &[ClassPair],
        class_of: &[ClassId],
        short: &[bool],
        listed: &[bool],
    ) -> Vec<Vec<DocId>> {
        let is_near = |x: usize, y: usize| {
            class_of[x] == class_of[y]
                || near.iter().any(|p| {
                    let classes = (p.a == class_of[x] && p.b == class_of[y])
                        || (p.b == class_of[x] && p.a == class_of[y]);
                    classes && (short[x] && short[y]) == p.short_texts
                })
        };
        let mut leaders: Vec<usize> = Vec::new();
        let mut groups: Vec<Vec<DocId>> = Vec::new();
        for doc in (0..class_of.len()).filter(|&d| listed[d]) {
            match leaders.iter().position(|&leader| is_near(leader, doc)) {
                Some(at) => groups[at].push(doc as DocId),
                None => {
                    leaders.push(doc);
                    groups.push(vec![doc as DocId]);
                }
            }
        }
        groups.retain(|group| group.len() >= 2);
        groups
    }

    proptest! {
        #[test]
        fn the_groups_are_the_rule_applied_document_by_document(
            classes in 1usize..7,
            docs in proptest::collection::vec((0u32..7, any::<bool>(), 0u8..8), 1..16),
            pairs in proptest::collection::vec((0u32..7, 0u32..7, any::<bool>()), 0..12),
        ) {
            let class_of: Vec<ClassId> = docs.iter().map(|d| d.0 % classes as u32).collect();
            let short: Vec<bool> = docs.iter().map(|d| d.1).collect();
            let listed: Vec<bool> = docs.iter().map(|d| d.2 != 0).collect();
            let near: Vec<ClassPair> = pairs
                .iter()
                .map(|&(a, b, s)| (a % classes as u32, b % classes as u32, s))
                .filter(|&(a, b, _)| a != b)
                .map(|(a, b, s)| pair(a.min(b), a.max(b), s))
                .collect();
            let groups = first_groups(
                &near,
                &class_of,
                classes,
                |id| short[id as usize],
                |id| listed[id as usize],
            );
            prop_assert_eq!(groups, reference(&near, &class_of, &short, &listed));
        }
    }
}
