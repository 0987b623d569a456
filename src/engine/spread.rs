//! Which iterations a Lazy SMP helper thread leaves out.
//!
//! Threads that all search every depth in turn spend most of their time on the same iteration,
//! each repeating the others' work through the shared table. A helper that searches only some
//! depths runs ahead of the main thread and fills the table with deeper results for it to
//! use. The first helper searches every other depth; later ones skip runs of two, three or four
//! depths at different phases, so that between them the depths stay covered: the skip-block
//! schedule that Stockfish's Lazy SMP once used.

/// How many depths a helper searches, then leaves out, in turn, by helper number.
const RUN: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// Where in that cycle each helper starts.
const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True when helper `helper` (numbered from 1; 0 is the main thread, which searches every
/// depth) leaves iteration `depth` out.
pub(crate) fn skips(helper: usize, depth: i32) -> bool {
    if helper == 0 {
        return false;
    }
    let k = (helper - 1) % RUN.len();
    ((depth + PHASE[k]) / RUN[k]) % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::skips;

    fn searched(helper: usize) -> Vec<i32> {
        (1..=12).filter(|&d| !skips(helper, d)).collect()
    }

    #[test]
    fn the_main_thread_searches_every_depth() {
        assert_eq!(searched(0), (1..=12).collect::<Vec<_>>());
    }

    #[test]
    fn helpers_search_different_depths() {
        assert_eq!(searched(1), [2, 4, 6, 8, 10, 12]);
        assert_eq!(searched(2), [1, 3, 5, 7, 9, 11]);
        assert_eq!(searched(3), [1, 4, 5, 8, 9, 12]);
        assert_eq!(searched(4), [3, 4, 7, 8, 11, 12]);
    }

    #[test]
    fn every_helper_searches_half_the_depths_and_any_number_of_helpers_is_served() {
        for helper in 1..=64 {
            let n = searched(helper).len();
            assert!((4..=8).contains(&n), "helper {helper}: {n} of 12");
        }
    }
}
