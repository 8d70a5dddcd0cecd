//! The joins find exactly the pairs brute force finds.

use super::*;
use proptest::prelude::*;

/// Sorted, distinct sets from a small universe, with near-copies.
fn sets() -> impl Strategy<Value = Vec<Vec<u64>>> {
    proptest::collection::vec(proptest::collection::btree_set(0u64..30, 0..20), 1..40)
        .prop_flat_map(|sets| {
            let n = sets.len();
            (
                Just(sets),
                proptest::collection::vec((0..n, 0u64..30, any::<bool>()), 0..20),
            )
        })
        .prop_map(|(mut sets, edits)| {
            // Copies of earlier sets with one token added or removed.
            for (from, token, add) in edits {
                let mut copy = sets[from].clone();
                if add {
                    copy.insert(token);
                } else {
                    copy.remove(&token);
                }
                sets.push(copy);
            }
            // Hash-like values, sorted, as feature sets are.
            sets.into_iter()
                .map(|set| {
                    let mut set: Vec<u64> = set
                        .into_iter()
                        .map(|t| t.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                        .collect();
                    set.sort_unstable();
                    set
                })
                .collect()
        })
}

fn brute_force(sets: &[Vec<u64>], t: f64) -> Vec<Joined> {
    let mut pairs = Vec::new();
    for a in 0..sets.len() {
        for b in a + 1..sets.len() {
            if sets[a].is_empty() || sets[b].is_empty() {
                continue;
            }
            let jaccard = crate::fingerprint::jaccard(&sets[a], &sets[b]);
            if jaccard >= t {
                pairs.push(Joined {
                    a: a as u32,
                    b: b as u32,
                    jaccard,
                });
            }
        }
    }
    pairs
}

fn ranked(sets: &[Vec<u64>]) -> RankedSets {
    RankedSets::of(sets)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_join_finds_exactly_the_pairs_brute_force_finds(
        sets in sets(),
        t in prop_oneof![Just(0.8), Just(0.5), Just(1.0), Just(0.6), 0.05f64..1.0],
    ) {
        let joined = SelfJoin::new(&ranked(&sets), t).run(u64::MAX).unwrap();
        prop_assert_eq!(joined.pairs, brute_force(&sets, t));
    }

    #[test]
    fn the_incremental_join_proposes_every_earlier_match(
        sets in sets(),
        t in prop_oneof![Just(0.8), Just(0.5), Just(1.0), 0.05f64..1.0],
    ) {
        // Two postings on one order, as dedup keeps them: sets go to
        // the second until every third, then all move to the first;
        // every seventh, the order is rebuilt by rarity.
        let mut order = TokenOrder::new(t);
        let (mut main, mut recent) = (Postings::new(t), Postings::new(t));
        let mut moving: Vec<usize> = Vec::new();
        let mut scratch = JoinScratch::default();
        for (number, set) in sets.iter().enumerate() {
            let ranked = order.ranked(set);
            let mut proposed = main.candidates(set, &ranked, &mut scratch);
            proposed.extend(recent.candidates(set, &ranked, &mut scratch));
            // The sets met are decided the same way by either path.
            for sweep in [false, true] {
                let mut forced = JoinScratch::default();
                forced.sweep = Some(sweep);
                let mut again = main.candidates(set, &ranked, &mut forced);
                again.extend(recent.candidates(set, &ranked, &mut forced));
                prop_assert_eq!(&again, &proposed);
            }
            for (earlier, other) in sets[..number].iter().enumerate() {
                if !set.is_empty() && !other.is_empty()
                    && crate::fingerprint::jaccard(set, other) >= t
                {
                    prop_assert!(proposed.contains(&(earlier as u32)), "{} missed", earlier);
                }
            }
            prop_assert!(proposed.iter().all(|&earlier| (earlier as usize) < number));
            order.learn(set);
            recent.add(set, &order, number as u32);
            moving.push(number);
            if number % 3 == 2 {
                for moved in moving.drain(..) {
                    main.add(&sets[moved], &order, moved as u32);
                }
                recent = Postings::new(t);
            }
            if number % 7 == 6 {
                // Reordered by rarity: every set is indexed again.
                order.reorder();
                moving.clear();
                recent = Postings::new(t);
                main = Postings::new(t);
                for (again, set) in sets[..=number].iter().enumerate() {
                    order.count_prefix(set);
                    main.add(set, &order, again as u32);
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn the_first_tokens_ranked_are_the_first_of_the_whole_ranking(
        sets in sets(),
        limit in 0usize..14,
    ) {
        // Half the sets learnt: the others have tokens never seen.
        let mut order = TokenOrder::new(0.8);
        for set in &sets[..sets.len() / 2] {
            order.learn(set);
        }
        for set in &sets {
            let (unknown, mut known) = order.ranked(set);
            known.truncate(limit);
            prop_assert_eq!(order.first_ranked(set, limit), (unknown, known));
        }
    }

    #[test]
    fn a_capped_join_proposes_the_matches_whose_first_common_token_is_within_the_cap(
        sets in sets(),
        t in prop_oneof![Just(0.8), Just(0.5), 0.05f64..1.0],
        cap in 1usize..4,
    ) {
        let mut order = TokenOrder::new(t);
        order.cap_prefixes(cap);
        let mut postings = Postings::new(t);
        let mut scratch = JoinScratch::default();
        for (number, set) in sets.iter().enumerate() {
            let ranked = order.probed(set);
            prop_assert!(ranked.1.len() <= cap);
            let proposed = postings.candidates(set, &ranked, &mut scratch);
            // Capped, the order ranks the tokens of its last reorder.
            let ranked = |of: &[u64]| order.first_ranked(of, usize::MAX).1;
            for (earlier, other) in sets[..number].iter().enumerate() {
                // Their first common token ranked, and whether it lies
                // within the cap in both.
                let first_common = ranked(set)
                    .into_iter()
                    .position(|(_, token)| other.binary_search(&token).is_ok());
                let meets = first_common.is_some_and(|at| {
                    let token = ranked(set)[at];
                    at < cap && ranked(other).iter().take(cap).any(|&t| t == token)
                });
                let near = !set.is_empty() && !other.is_empty()
                    && crate::fingerprint::jaccard(set, other) >= t;
                let found = proposed.contains(&(earlier as u32));
                prop_assert!(!(meets && near) || found, "{} missed", earlier);
                prop_assert!(meets || !found, "{} proposed without meeting", earlier);
            }
            order.learn(set);
            postings.add(set, &order, number as u32);
            if number % 7 == 6 {
                order.reorder();
                postings = Postings::new(t);
                for (again, set) in sets[..=number].iter().enumerate() {
                    order.count_prefix(set);
                    postings.add(set, &order, again as u32);
                }
            }
        }
    }
}

#[test]
fn sets_rank_rarest_first() {
    let sets = ranked(&[vec![1, 2, 3], vec![2, 3], vec![3]]);
    // 1 is in one set, 2 in two, 3 in three.
    assert_eq!(sets.get(0), &[0, 1, 2]);
    assert_eq!(sets.get(1), &[1, 2]);
    assert_eq!(sets.get(2), &[2]);
}

#[test]
fn too_many_pairs_give_up() {
    let same: Vec<Vec<u64>> = (0..50).map(|i| vec![1, 2, 3, 4, 100 + i]).collect();
    let sets = ranked(&same);
    let join = SelfJoin::new(&sets, 0.5);
    assert!(join.run(10).is_none());
    let all = join.run(u64::MAX).unwrap();
    assert_eq!(all.pairs.len(), 50 * 49 / 2);
    assert_eq!(all.candidates, 50 * 49 / 2);
    // Every set is a candidate of every one before it: the estimate from
    // every fifth is near the whole.
    let estimate = join.estimate_candidates_within(5, u64::MAX).unwrap();
    assert!((900..=1500).contains(&estimate), "{estimate}");
    // Given up past a limit, exactly when the whole estimate passes it.
    assert_eq!(join.estimate_candidates_within(5, estimate), Some(estimate));
    assert_eq!(join.estimate_candidates_within(5, estimate - 1), None);
    assert_eq!(join.estimate_candidates_within(5, 0), None);
    assert!(
        all.pairs
            .iter()
            .all(|pair| (pair.jaccard - 4.0 / 6.0).abs() < 1e-12)
    );
}

#[test]
fn prefixes_are_as_short_as_the_threshold_allows() {
    // 10 tokens at t = 0.8: a match shares 8, so 3 must be probed.
    assert_eq!(probe_prefix(10, 0.8), 3);
    // Against sets no larger: o = 0.8 * 20 / 1.8 = 8.9, so 9 shared.
    assert_eq!(index_prefix(10, 0.8), 2);
    assert_eq!(probe_prefix(10, 1.0), 1);
    assert_eq!(probe_prefix(3, 0.01), 3);
}

proptest! {
    /// A ranked set's hashes are the set it was made from, so the MinHash
    /// bands of a scan's short texts taken from a declined join's sets are
    /// those of the texts read again.
    #[test]
    fn ranked_sets_give_back_their_hashes(sets in sets()) {
        let ranked = ranked(&sets);
        for (index, set) in sets.iter().enumerate() {
            let mut hashes: Vec<u64> = ranked.hashes(index).collect();
            prop_assert_eq!(
                crate::verify::bands::band_keys(&hashes),
                crate::verify::bands::band_keys(set)
            );
            hashes.sort_unstable();
            prop_assert_eq!(&hashes, set);
        }
    }
}
