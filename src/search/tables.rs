//! The exact search's tables as data, for an engine that runs them itself
//! (spark/simdup_spark.py joins fingerprints on their table keys): the
//! same plan `search` would choose for n distinct fingerprints and k, or a
//! given number of blocks.

use super::blocks::Layout;
use super::plan::{self, Plan};

/// What the exact search does for n distinct fingerprints at distance k.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablePlan {
    /// No search: k = 0 or fewer than two fingerprints (only identical
    /// fingerprints pair up).
    Nothing,
    /// All pairs are compared: one table whose key is empty.
    Brute,
    /// Permuted block tables.
    Blocks {
        /// The bits of each block, block 0 (the most significant bits)
        /// first.
        block_masks: Vec<u64>,
        /// Each table's key blocks, ascending, tables in the search's
        /// order. A pair within k belongs to the table whose key blocks
        /// are the first m - k blocks on which the pair agrees.
        tables: Vec<Vec<u32>>,
    },
}

/// The plan for `n` distinct fingerprints at distance `k`: the cost
/// model's choice, or `blocks` blocks when given.
///
/// # Errors
/// `Error::Usage` if `k` exceeds [`super::MAX_DISTANCE`], or if `blocks`
/// is not in `k + 1..=64` or would make more than 10^6 tables.
pub fn table_plan(n: usize, k: u32, blocks: Option<u32>) -> crate::Result<TablePlan> {
    if k > super::MAX_DISTANCE {
        return Err(crate::Error::Usage(format!(
            "distance {k} is out of range: k must be between 0 and {}",
            super::MAX_DISTANCE
        )));
    }
    let chosen = match blocks {
        _ if k == 0 || n < 2 => Plan::Nothing,
        Some(m) if m <= k || m > 64 => {
            return Err(crate::Error::Usage(format!(
                "{m} blocks cannot hold a distance of {k}: give between {} and 64",
                k + 1
            )));
        }
        Some(m) if plan::binomial(m, k) > plan::MAX_TABLES => {
            return Err(crate::Error::Usage(format!(
                "{m} blocks at k = {k} make {} tables, more than {}",
                plan::binomial(m, k),
                plan::MAX_TABLES
            )));
        }
        Some(m) => Plan::Blocks(m),
        None => plan::choose(n, k),
    };
    Ok(match chosen {
        Plan::Nothing => TablePlan::Nothing,
        Plan::Brute => TablePlan::Brute,
        Plan::Blocks(m) => {
            let layout = Layout::new(m, k);
            let tables = layout
                .key_block_sets()
                .into_iter()
                .map(|set| (0..m).filter(|&j| set >> j & 1 == 1).collect())
                .collect();
            TablePlan::Blocks {
                block_masks: layout.masks().to_vec(),
                tables,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the plan's owner rule gives exactly one table to `x ^ y`.
    fn owners(block_masks: &[u64], tables: &[Vec<u32>], k: u32, difference: u64) -> usize {
        let agree: Vec<u32> = (0..block_masks.len() as u32)
            .filter(|&j| difference & block_masks[j as usize] == 0)
            .collect();
        let first = &agree[..block_masks.len() - k as usize];
        tables
            .iter()
            .filter(|table| table.as_slice() == first)
            .count()
    }

    #[test]
    fn blocks_cover_the_64_bits_once() {
        let TablePlan::Blocks {
            block_masks,
            tables,
        } = table_plan(1000, 3, Some(7)).unwrap()
        else {
            panic!("blocks were asked for");
        };
        assert_eq!(block_masks.len(), 7);
        assert_eq!(block_masks.iter().fold(0, |all, mask| all | mask), u64::MAX);
        assert_eq!(block_masks.iter().map(|m| m.count_ones()).sum::<u32>(), 64);
        assert!(block_masks[0] >> 63 == 1, "block 0 holds the top bits");
        assert_eq!(tables.len(), 35, "C(7, 3)");
        assert!(tables.iter().all(|table| table.len() == 4));
    }

    #[test]
    fn every_pair_within_k_has_one_owner_table() {
        let k = 4;
        let TablePlan::Blocks {
            block_masks,
            tables,
        } = table_plan(10, k, Some(9)).unwrap()
        else {
            panic!("blocks were asked for");
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut difference = 0u64;
            for bit in 0..(state >> 60) as u32 % (k + 1) {
                difference |= 1 << ((state >> (bit * 6)) % 64);
            }
            assert_eq!(owners(&block_masks, &tables, k, difference), 1);
        }
    }

    #[test]
    fn the_cost_model_chooses_when_no_blocks_are_given() {
        assert_eq!(table_plan(1, 3, None).unwrap(), TablePlan::Nothing);
        assert_eq!(table_plan(1000, 0, None).unwrap(), TablePlan::Nothing);
        assert_eq!(table_plan(20, 3, None).unwrap(), TablePlan::Brute);
        match (
            table_plan(1_000_000, 6, None).unwrap(),
            plan::choose(1_000_000, 6),
        ) {
            (TablePlan::Blocks { block_masks, .. }, Plan::Blocks(m)) => {
                assert_eq!(block_masks.len() as u32, m)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn impossible_layouts_are_refused() {
        assert!(table_plan(100, 5, Some(5)).is_err());
        assert!(table_plan(100, 5, Some(65)).is_err());
        assert!(table_plan(100, 33, None).is_err());
        assert!(table_plan(100, 12, Some(64)).is_err(), "C(64, 12) tables");
    }
}
