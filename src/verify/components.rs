//! The connected components of the candidate graph: the unit of
//! verification, since a component's sets are needed by its pairs only.

/// Components of a list of pairs over items `0..n`, with each component's
/// items and pairs.
#[derive(Debug)]
pub(crate) struct Components {
    pairs: Vec<(u32, u32)>,
    /// Items ordered by component, and where each component starts.
    items: Vec<u32>,
    item_starts: Vec<usize>,
    /// Pair indices ordered by component, and where each component starts.
    pair_order: Vec<usize>,
    pair_starts: Vec<usize>,
}

impl Components {
    /// The components of `pairs`; items in no pair belong to none.
    pub(crate) fn new(pairs: &[(u32, u32)], n: usize) -> Components {
        let mut parent: Vec<u32> = (0..n as u32).collect();
        let find = |parent: &mut Vec<u32>, mut x: u32| {
            while parent[x as usize] != x {
                let grandparent = parent[parent[x as usize] as usize];
                parent[x as usize] = grandparent;
                x = grandparent;
            }
            x
        };
        let mut touched = vec![false; n];
        for &(a, b) in pairs {
            touched[a as usize] = true;
            touched[b as usize] = true;
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
        // Number the components by their smallest item.
        let mut number = vec![u32::MAX; n];
        let mut count = 0usize;
        let mut component_of = vec![u32::MAX; n];
        for item in 0..n as u32 {
            if !touched[item as usize] {
                continue;
            }
            let root = find(&mut parent, item) as usize;
            if number[root] == u32::MAX {
                number[root] = count as u32;
                count += 1;
            }
            component_of[item as usize] = number[root];
        }
        let (items, item_starts) = bucket(
            (0..n as u32).filter(|&item| touched[item as usize]),
            count,
            |&item| component_of[item as usize] as usize,
        );
        let (pair_order, pair_starts) = bucket(0..pairs.len(), count, |&index| {
            component_of[pairs[index].0 as usize] as usize
        });
        Components {
            pairs: pairs.to_vec(),
            items,
            item_starts,
            pair_order,
            pair_starts,
        }
    }

    /// How many components.
    pub(crate) fn len(&self) -> usize {
        self.item_starts.len() - 1
    }

    /// The items of a component, ascending.
    pub(crate) fn items(&self, component: usize) -> &[u32] {
        &self.items[self.item_starts[component]..self.item_starts[component + 1]]
    }

    /// The indices of a component's pairs, ascending.
    pub(crate) fn pairs(&self, component: usize) -> &[usize] {
        &self.pair_order[self.pair_starts[component]..self.pair_starts[component + 1]]
    }

    /// The pair at `index`.
    pub(crate) fn pair(&self, index: usize) -> (u32, u32) {
        self.pairs[index]
    }
}

/// Orders `values` by `key` (stably) and returns them with the start of
/// each of the `count` buckets (plus the end).
fn bucket<T: Copy>(
    values: impl Iterator<Item = T>,
    count: usize,
    key: impl Fn(&T) -> usize,
) -> (Vec<T>, Vec<usize>) {
    let mut ordered: Vec<T> = values.collect();
    ordered.sort_by_key(|value| key(value));
    let mut starts = vec![0usize; count + 1];
    for value in &ordered {
        starts[key(value) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    (ordered, starts)
}
