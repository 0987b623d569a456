//! A hint to start loading a table slot into the cache before the search reads it.

/// Starts fetching the cache line holding `slot` (x86-64 only; elsewhere it does nothing).
/// The search's tables are larger than the caches, and a child's key is known before the
/// move is made, so the load can overlap making the move.
#[inline]
pub(crate) fn prefetch<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let pointer: *const T = slot;
        // SAFETY: SSE is part of every x86-64 processor, and a prefetch only hints the
        // cache: it reads nothing and cannot fault (the pointer is valid anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(pointer.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}
