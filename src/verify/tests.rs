//! Verification gives brute force's verdicts whatever the memory budget.

use proptest::prelude::*;

use super::*;

/// Sorted, distinct sets drawn from a small universe, so pairs overlap.
fn sets() -> impl Strategy<Value = Vec<Vec<u64>>> {
    proptest::collection::vec(proptest::collection::btree_set(0u64..40, 0..25), 1..30).prop_map(
        |sets| {
            sets.into_iter()
                .map(|set| set.into_iter().collect())
                .collect()
        },
    )
}

fn expected(
    sets: &[Vec<u64>],
    pairs: &[(u32, u32)],
    threshold: f64,
    broken: &[u32],
) -> Vec<Verdict> {
    pairs
        .iter()
        .map(|&(a, b)| {
            if broken.contains(&a) || broken.contains(&b) {
                return Verdict::Unverified;
            }
            let jaccard = crate::fingerprint::jaccard(&sets[a as usize], &sets[b as usize]);
            if jaccard >= threshold {
                Verdict::Near(jaccard)
            } else {
                Verdict::Below
            }
        })
        .collect()
}

proptest! {
    #[test]
    fn verdicts_equal_brute_force(
        sets in sets(),
        raw_pairs in proptest::collection::vec((0u32..30, 0u32..30), 0..60),
        threshold in prop_oneof![Just(0.0), Just(0.5), Just(0.8), 0.0f64..=1.0],
        budget in prop_oneof![Just(0u64), Just(10), Just(60), Just(u64::MAX)],
        broken in proptest::collection::vec(0u32..30, 0..3),
    ) {
        let n = sets.len() as u32;
        let pairs: Vec<(u32, u32)> = raw_pairs
            .into_iter()
            .map(|(a, b)| (a % n, b % n))
            .filter(|(a, b)| a != b)
            .collect();
        let loads = std::sync::atomic::AtomicU64::new(0);
        let verified = verify(
            &pairs,
            sets.len(),
            |item| sets[item as usize].len() as u64,
            |item| {
                loads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if broken.contains(&item) {
                    Err(crate::Error::data(format!("item {item}"), "unreadable"))
                } else {
                    Ok(sets[item as usize].clone())
                }
            },
            threshold,
            budget,
        );
        prop_assert_eq!(&verified.verdicts, &expected(&sets, &pairs, threshold, &broken));
        // Every item of a pair is read exactly once.
        let mut touched: Vec<u32> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        touched.sort_unstable();
        touched.dedup();
        prop_assert_eq!(loads.load(std::sync::atomic::Ordering::Relaxed), touched.len() as u64);
        prop_assert_eq!(verified.items_read, touched.len() as u64);
        let failed: Vec<u32> = verified.failures.iter().map(|&(item, _)| item).collect();
        let mut expected_failed: Vec<u32> =
            touched.iter().copied().filter(|item| broken.contains(item)).collect();
        expected_failed.sort_unstable();
        prop_assert_eq!(failed, expected_failed);
    }
}

proptest! {
    /// The merge that stops early decides exactly as the full Jaccard.
    #[test]
    fn early_stop_decides_like_the_full_jaccard(
        a in proptest::collection::btree_set(0u64..300, 0..120),
        b in proptest::collection::btree_set(0u64..300, 0..120),
        threshold in prop_oneof![Just(0.0), Just(0.5), Just(0.8), Just(1.0), 0.0f64..=1.0],
    ) {
        let (a, b): (Vec<u64>, Vec<u64>) = (a.into_iter().collect(), b.into_iter().collect());
        let jaccard = crate::fingerprint::jaccard(&a, &b);
        let expected = if jaccard >= threshold { Verdict::Near(jaccard) } else { Verdict::Below };
        prop_assert_eq!(decide(&a, &b, threshold), expected);
    }
}

#[test]
fn a_pair_exactly_at_the_threshold_is_near() {
    // |A| = |B| = 9, |A ∩ B| = 8: J = 8 / 10 = 0.8.
    let a: Vec<u64> = (0..9).collect();
    let b: Vec<u64> = (1..10).collect();
    assert_eq!(decide(&a, &b, 0.8), Verdict::Near(0.8));
}

#[test]
fn sizes_too_different_are_below_without_a_merge() {
    let small: Vec<u64> = (0..10).collect();
    let large: Vec<u64> = (0..100).collect();
    assert_eq!(decide(&small, &large, 0.5), Verdict::Below);
    assert_eq!(decide(&small, &large, 0.1), Verdict::Near(0.1));
    assert_eq!(decide::<u64>(&[], &[], 0.8), Verdict::Near(1.0));
}
