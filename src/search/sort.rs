//! Sorting by the top bits of a 64-bit key: one counting pass, one scatter
//! pass, then small sorts that stay in cache.
//!
//! This is the inner loop of every block table and rotation, so it avoids the
//! full comparison sort of n values: the scatter does the first ~log2(n) - 4
//! bits in linear time and `sort_unstable` finishes buckets of about 16.

use rayon::prelude::*;

/// The widest scatter: 2^16 counters (256 KiB) still sit in L2 cache.
const MAX_SCATTER_BITS: u32 = 16;

/// The widest scatter past `LARGE` values: 2^16 write streams into a buffer
/// of tens of MB thrash the TLB, and a second scatter in cache is cheaper
/// (measured: 16 bits is 15% faster at 10^6 values, 12 bits 12% faster at
/// 10^7).
const MAX_SCATTER_BITS_LARGE: u32 = 12;

/// See `MAX_SCATTER_BITS_LARGE`.
const LARGE: usize = 1 << 22;

/// Top bits to scatter `len` values on so that buckets hold about 16,
/// never more than `max_bits` (the bits that are meaningful to the caller).
pub(crate) fn scatter_bits(len: usize, max_bits: u32) -> u32 {
    let buckets = len / 16;
    let bits = usize::BITS - buckets.leading_zeros();
    let cap = if len > LARGE {
        MAX_SCATTER_BITS_LARGE
    } else {
        MAX_SCATTER_BITS
    };
    bits.min(cap).min(max_bits)
}

/// Reusable buffers of one sorting worker, so a thread that sorts many
/// tables allocates once.
#[derive(Default)]
pub(crate) struct SortBuffers<T> {
    /// The sorted output of the last call.
    pub(crate) values: Vec<T>,
    counts: Vec<u32>,
}

impl<T: Copy + Ord + Default + Send> SortBuffers<T> {
    /// Fills `self.values` with `map(x)` for every `x` in `src`, sorted in
    /// ascending order, scattering on the top `bits` of `key(map(x))`.
    ///
    /// `key` must be monotone with the order of `T` (a larger top-bit value
    /// never sorts before a smaller one). With `parallel`, the bucket sorts
    /// run on the rayon pool.
    pub(crate) fn sort_mapped<S: Sync>(
        &mut self,
        src: &[S],
        map: impl Fn(&S) -> T + Sync,
        key: impl Fn(&T) -> u64 + Sync,
        bits: u32,
        parallel: bool,
    ) {
        let n = src.len();
        // Reuses the previous allocation; every slot is overwritten below.
        self.values.resize(n, T::default());
        if bits == 0 {
            for (slot, x) in self.values.iter_mut().zip(src) {
                *slot = map(x);
            }
            sort_slice(&mut self.values, parallel);
            return;
        }
        self.scatter(src, &map, &key, bits);
        sort_buckets(&mut self.values, &self.counts, &key, bits, parallel);
    }

    /// Fills `self.values` with `map(x)` for every `x` in `src`, grouped by
    /// the top `bits` (1 to 32) of `key(map(x))`: values with equal top bits are
    /// contiguous, groups in ascending order, and within a group in the
    /// order of `src`. Cheaper than `sort_mapped` when only the top bits
    /// matter (a block table's key): no sorting inside the groups.
    pub(crate) fn group_mapped<S>(
        &mut self,
        src: &[S],
        map: impl Fn(&S) -> T,
        key: impl Fn(&T) -> u64,
        bits: u32,
    ) {
        debug_assert!((1..=32).contains(&bits));
        self.values.resize(src.len(), T::default());
        self.scatter(src, &map, &key, bits);
    }

    /// After [`group_mapped`](Self::group_mapped): where each group ends
    /// in `values`, group by group (2^bits of them, empty ones included).
    pub(crate) fn group_ends(&self) -> &[u32] {
        &self.counts
    }

    /// One counting pass and one scatter pass on the top `bits` of the key:
    /// `self.values` grouped, `self.counts[b]` the end of group b.
    fn scatter<S>(
        &mut self,
        src: &[S],
        map: &impl Fn(&S) -> T,
        key: &impl Fn(&T) -> u64,
        bits: u32,
    ) {
        let shift = 64 - bits;
        self.counts.clear();
        self.counts.resize(1 << bits, 0);
        for x in src {
            self.counts[(key(&map(x)) >> shift) as usize] += 1;
        }
        let mut next = 0u32;
        for c in self.counts.iter_mut() {
            let here = *c;
            *c = next;
            next += here;
        }
        // `counts[b]` is now where bucket b starts; the scatter advances it
        // to where bucket b ends.
        for x in src {
            let v = map(x);
            let slot = &mut self.counts[(key(&v) >> shift) as usize];
            self.values[*slot as usize] = v;
            *slot += 1;
        }
    }
}

impl SortBuffers<u64> {
    /// Like `sort_mapped` with the identity key, for a `map` whose output is
    /// already in order on its top `sorted_bits` bits when `src` is taken
    /// in order: one sequential pass, then only runs of equal top bits are
    /// sorted, in cache. Block tables keyed on the leading blocks use this.
    pub(crate) fn sort_presorted(
        &mut self,
        src: &[u64],
        map: impl Fn(u64) -> u64,
        sorted_bits: u32,
    ) {
        self.values.clear();
        self.values.extend(src.iter().map(|&x| map(x)));
        if sorted_bits >= 64 {
            return;
        }
        let shift = 64 - sorted_bits;
        let mut small = SmallSort::default();
        let mut start = 0;
        while start < self.values.len() {
            let top = self.values[start].checked_shr(shift).unwrap_or(0);
            let len = self.values[start..]
                .iter()
                .position(|v| v.checked_shr(shift).unwrap_or(0) != top)
                .unwrap_or(self.values.len() - start);
            small.sort(&mut self.values[start..start + len], |&v| v, sorted_bits);
            start += len;
        }
    }
}

/// Sorts a whole slice, on the pool if asked.
fn sort_slice<T: Ord + Send>(values: &mut [T], parallel: bool) {
    if parallel {
        values.par_sort_unstable();
    } else {
        values.sort_unstable();
    }
}

/// Sorts each bucket; `ends[b]` is the end of bucket b, buckets are
/// contiguous from 0 and agree on the top `bits` of `key`.
fn sort_buckets<T: Copy + Ord + Default + Send>(
    values: &mut [T],
    ends: &[u32],
    key: &(impl Fn(&T) -> u64 + Sync),
    bits: u32,
    parallel: bool,
) {
    let sort_run = |chunk: &mut [T], chunk_ends: &[u32], base: usize| {
        let mut small = SmallSort::default();
        let mut start = 0;
        for &end in chunk_ends {
            let end = end as usize - base;
            small.sort(&mut chunk[start..end], key, bits);
            start = end;
        }
    };
    if !parallel {
        sort_run(values, ends, 0);
        return;
    }
    // Cut into chunks of whole buckets, a few per thread, and sort those.
    let target = (values.len() / (8 * rayon::current_num_threads())).max(1);
    let mut chunks: Vec<(&mut [T], &[u32], usize)> = Vec::new();
    let mut rest = values;
    let mut offset = 0usize;
    let mut first = 0usize;
    for (b, &end) in ends.iter().enumerate() {
        let end = end as usize;
        if end - offset >= target || b + 1 == ends.len() {
            let (chunk, tail) = rest.split_at_mut(end - offset);
            chunks.push((chunk, &ends[first..=b], offset));
            rest = tail;
            offset = end;
            first = b + 1;
        }
    }
    chunks
        .into_par_iter()
        .for_each(|(chunk, chunk_ends, base)| sort_run(chunk, chunk_ends, base));
}

/// Sorts one bucket: large ones get a second scatter on the next bits in
/// a cache-sized scratch buffer, which beats a comparison sort there.
#[derive(Default)]
struct SmallSort<T> {
    scratch: Vec<T>,
    counts: Vec<u32>,
}

impl<T: Copy + Ord + Default> SmallSort<T> {
    /// Sorts `bucket`, whose values agree on the top `done` bits of `key`.
    fn sort(&mut self, bucket: &mut [T], key: impl Fn(&T) -> u64, done: u32) {
        let len = bucket.len();
        let free = 64 - done;
        if len <= 64 || free == 0 {
            bucket.sort_unstable();
            return;
        }
        // About 4 values per sub-bucket, at most 2^11 counters.
        let bits = (usize::BITS - (len / 4).leading_zeros()).min(11).min(free);
        let shift = 64 - bits;
        let digit = |v: &T| ((key(v) << done) >> shift) as usize;
        self.counts.clear();
        self.counts.resize(1 << bits, 0);
        for v in bucket.iter() {
            self.counts[digit(v)] += 1;
        }
        let mut next = 0u32;
        for c in self.counts.iter_mut() {
            let here = *c;
            *c = next;
            next += here;
        }
        self.scratch.clear();
        self.scratch.resize(len, T::default());
        for v in bucket.iter() {
            let slot = &mut self.counts[digit(v)];
            self.scratch[*slot as usize] = *v;
            *slot += 1;
        }
        let mut start = 0;
        for &end in &self.counts {
            let end = end as usize;
            let part = &mut bucket[start..end];
            part.copy_from_slice(&self.scratch[start..end]);
            sort_tiny(part);
            start = end;
        }
    }
}

/// Sorts a slice that is almost always a handful of values: inline
/// insertion sort, since a call to `sort_unstable` per sub-bucket costs more
/// than the sorting.
fn sort_tiny<T: Copy + Ord>(part: &mut [T]) {
    if part.len() > 16 {
        part.sort_unstable();
        return;
    }
    for i in 1..part.len() {
        let v = part[i];
        let mut j = i;
        while j > 0 && part[j - 1] > v {
            part[j] = part[j - 1];
            j -= 1;
        }
        part[j] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn groups_by_top_bits_in_order_and_stably(
            mut values in proptest::collection::vec(any::<u64>(), 0..2000),
            bits in 1u32..=16,
            spread in 0u32..64,
        ) {
            for v in values.iter_mut() {
                *v >>= spread;
            }
            let mut buffers = SortBuffers::default();
            buffers.group_mapped(&values, |&v| v ^ 1, |&v| v, bits);
            // The reference: a stable sort on the top bits alone.
            let mut expected: Vec<u64> = values.iter().map(|v| v ^ 1).collect();
            expected.sort_by_key(|v| v >> (64 - bits));
            prop_assert_eq!(&buffers.values, &expected);
        }

        #[test]
        fn sorts_like_sort_unstable(
            mut values in proptest::collection::vec(any::<u64>(), 0..2000),
            bits in 0u32..=16,
            parallel in any::<bool>(),
            spread in 0u32..64,
        ) {
            // `spread` squeezes values into few top-bit buckets sometimes.
            for v in values.iter_mut() {
                *v >>= spread;
            }
            let mut buffers = SortBuffers::default();
            buffers.sort_mapped(&values, |&v| v.rotate_left(7), |&v| v, bits, parallel);
            let mut expected: Vec<u64> = values.iter().map(|v| v.rotate_left(7)).collect();
            expected.sort_unstable();
            prop_assert_eq!(&buffers.values, &expected);
            // A second call reuses the buffers and must not keep stale values.
            values.truncate(values.len() / 2);
            buffers.sort_mapped(&values, |&v| v, |&v| v, bits, parallel);
            let mut expected = values.clone();
            expected.sort_unstable();
            prop_assert_eq!(&buffers.values, &expected);
        }

        #[test]
        fn sorts_pairs_by_their_first_field(
            values in proptest::collection::vec((0u64..8, any::<u32>()), 0..500),
        ) {
            let mut buffers = SortBuffers::default();
            buffers.sort_mapped(&values, |&(f, i)| (f << 61, i), |&(f, _)| f, 3, true);
            let mut expected: Vec<(u64, u32)> = values.iter().map(|&(f, i)| (f << 61, i)).collect();
            expected.sort_unstable();
            prop_assert_eq!(&buffers.values, &expected);
        }
    }

    proptest! {
        #[test]
        fn presorted_runs_sort_like_sort_unstable(
            mut values in proptest::collection::vec(any::<u64>(), 0..3000),
            sorted_bits in 0u32..=64,
            spread in 0u32..64,
        ) {
            for v in values.iter_mut() {
                *v >>= spread;
            }
            values.sort_unstable();
            // Keeps the top `sorted_bits` in place and scrambles the rest.
            let low = u64::MAX.checked_shr(sorted_bits).unwrap_or(0);
            let map = |v: u64| (v & !low) | (v.rotate_left(17) & low);
            let mut buffers = SortBuffers::default();
            buffers.sort_presorted(&values, map, sorted_bits);
            let mut expected: Vec<u64> = values.iter().map(|&v| map(v)).collect();
            expected.sort_unstable();
            prop_assert_eq!(&buffers.values, &expected);
        }
    }

    #[test]
    fn scatter_bits_grow_with_len_and_respect_caps() {
        assert_eq!(scatter_bits(0, 64), 0);
        assert_eq!(scatter_bits(15, 64), 0);
        assert_eq!(scatter_bits(16, 64), 1);
        assert_eq!(scatter_bits(16 << 10, 64), 11);
        assert_eq!(scatter_bits(LARGE, 64), MAX_SCATTER_BITS);
        assert_eq!(scatter_bits(usize::MAX, 64), MAX_SCATTER_BITS_LARGE);
        assert_eq!(scatter_bits(1 << 20, 5), 5);
    }
}
