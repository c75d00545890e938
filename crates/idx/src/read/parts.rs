//! Where the parallel reader's parts start in the destination.

/// The most parts `read_array_at` splits a payload into: parts of
/// `MIN_BYTES_PER_THREAD` up to 1 GiB, larger beyond.
pub(super) const MAX_PARTS: usize = 256;

/// The size of a transparent huge page on x86-64 and arm64 (4 KiB base
/// pages): `read_array_at`'s parts start on multiples of it.
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// How many parts a destination of `len` bytes is split into: one per
/// `min_part` bytes (a `min_part` of 0 counts as 1), at least one, at most
/// [`MAX_PARTS`].
pub(super) fn part_count(len: usize, min_part: usize) -> usize {
    (len / min_part.max(1)).clamp(1, MAX_PARTS)
}

/// Where each of `parts` parts of a destination of `len` bytes at address
/// `addr` starts (the first at 0): near equal parts, each later start moved
/// up to a multiple of `align` in the address space (a huge page, so that
/// no two threads fault in the same page) and to a whole element of `size`
/// bytes; parts that would be empty are dropped.
pub(super) fn part_starts(
    addr: usize,
    len: usize,
    parts: usize,
    size: usize,
    align: usize,
) -> Vec<usize> {
    let mut starts = vec![0];
    for i in 1..parts {
        let even = len / parts * i;
        let aligned = (addr + even)
            .checked_next_multiple_of(align.max(1))
            .map_or(even, |a| a - addr);
        let at = aligned - aligned % size;
        if at < len && starts.last().is_some_and(|&l| at > l) {
            starts.push(at);
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::{part_count, part_starts, MAX_PARTS};

    #[test]
    fn a_part_per_min_part_bytes_at_least_one_at_most_max_parts() {
        assert_eq!(part_count(0, 100), 1);
        assert_eq!(part_count(99, 100), 1);
        assert_eq!(part_count(250, 100), 2);
        assert_eq!(part_count(1000, 100), 10);
        assert_eq!(part_count(100 * MAX_PARTS + 99, 100), MAX_PARTS);
        assert_eq!(part_count(usize::MAX, 100), MAX_PARTS);
        assert_eq!(part_count(7, 0), 7);
        assert_eq!(part_count(7, 1), 7);
    }

    #[test]
    fn parts_start_on_huge_pages_and_whole_elements() {
        const HUGE: usize = 2 << 20;
        for addr in [0usize, 16, 4096 + 16, HUGE - 3, 7 * HUGE + 1] {
            // (4 MiB: a start that would fall on the end is dropped)
            for len in [0usize, 5, 4 << 20, 9 << 20, 45 << 20, (1 << 30) + 12] {
                for parts in 1..=4 {
                    for size in [1usize, 2, 4, 8] {
                        let s = part_starts(addr, len, parts, size, HUGE);
                        assert_eq!(s[0], 0);
                        assert!(s.len() <= parts);
                        assert!(s.windows(2).all(|w| w[0] < w[1]), "{s:?}");
                        for &at in &s[1..] {
                            assert!(at < len && at % size == 0, "{addr} {len} {size}: {s:?}");
                            if addr % size == 0 {
                                assert_eq!((addr + at) % HUGE, 0, "{addr} {len} {size}: {s:?}");
                            }
                        }
                        // as many parts as asked when each gets several huge pages
                        if len >= parts * 4 * HUGE {
                            assert_eq!(s.len(), parts, "{addr} {len}: {s:?}");
                        }
                    }
                }
            }
        }
    }
}
