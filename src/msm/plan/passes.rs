//! The passes an MSM runs in: how many points each holds, growing from a small first
//! one so that each pass's upload hides behind the compute of the passes before it.

use crate::config::MsmConfig;

/// Smallest pass an overlapped MSM is cut into (each pass adds a reduction).
const OVERLAP_MIN_PASS: usize = 1 << 20;
/// Largest pass an overlapped MSM is cut into: bounds the host's upload buffers (two
/// chunks of 96 bytes a point: 768 MiB) on the largest inputs.
const OVERLAP_MAX_PASS: usize = 1 << 22;

/// `cfg` with passes of about n / `divisor` points (2^20 to 2^22) when `n` is at least
/// `min` and the caller chose no chunk size; `None` otherwise. A large MSM is cut so
/// even when one pass would fit (and the first passes smaller still, see
/// [`pass_sizes`]), so that the upload of each pass's inputs hides behind the compute
/// of the pass before.
pub(crate) fn overlapped(
    n: usize,
    cfg: &MsmConfig,
    min: usize,
    divisor: usize,
) -> Option<MsmConfig> {
    (cfg.chunk_size.is_none() && n >= min).then(|| MsmConfig {
        chunk_size: Some((n / divisor.max(1)).clamp(OVERLAP_MIN_PASS, OVERLAP_MAX_PASS)),
        ..cfg.clone()
    })
}

/// Smallest first pass of a streamed MSM (smaller ones cost more in per-pass work than
/// their upload saves).
const MIN_FIRST_PASS: usize = 1 << 10;

/// The sizes of the passes an MSM of `n` points runs in, at most `cap` points each: a
/// first pass of `cap / 2^first_shift` points (at least [`MIN_FIRST_PASS`]), each later
/// one `growth_pct` percent of the one before (at least one point more) up to `cap`,
/// then passes of `cap`; what is left over (less than `cap`) runs first, so no small
/// pass trails at the end. The device starts once a small first pass is uploaded, and
/// each later upload hides behind the passes before it while `growth_pct` is at most
/// the ratio of the host's upload speed to the device's compute speed (in points per
/// second); the bucket totals carry over, so a pass costs little beyond its points,
/// but each pass more still costs more than the short waits a slower growth would
/// save (see docs/).
pub(crate) fn pass_sizes(n: usize, cap: usize, first_shift: u32, growth_pct: u32) -> Vec<usize> {
    if n <= cap.max(1) {
        return if n == 0 { Vec::new() } else { vec![n] };
    }
    growing_passes(n, cap, first_shift, growth_pct)
}

/// [`pass_sizes`] that also cuts an `n` of at most `cap` into growing passes (the first
/// of `cap / 2^first_shift`), where [`pass_sizes`] would run it whole.
pub(crate) fn growing_passes(
    n: usize,
    cap: usize,
    first_shift: u32,
    growth_pct: u32,
) -> Vec<usize> {
    let cap = cap.max(1);
    if n == 0 {
        return Vec::new();
    }
    let first = (cap >> first_shift.min(usize::BITS - 1))
        .max(MIN_FIRST_PASS)
        .min(cap);
    let mut out = Vec::new();
    let mut left = n;
    let mut size = first;
    while size < cap && left > 0 {
        let s = size.min(left);
        out.push(s);
        left -= s;
        size = (size * growth_pct as usize / 100).max(size + 1);
    }
    out.extend(std::iter::repeat_n(cap, left / cap));
    if !left.is_multiple_of(cap) {
        out.push(left % cap);
    }
    if first < cap {
        // Ascending: the leftover (of the growing passes or after the full ones) runs
        // early, where a small pass is what the growing passes want; none trails.
        out.sort_unstable();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_sizes_grow_from_a_small_first_pass() {
        let m = MIN_FIRST_PASS;
        assert_eq!(pass_sizes(0, 8 * m, 3, 200), Vec::<usize>::new());
        assert_eq!(
            pass_sizes(5 * m, 8 * m, 3, 200),
            vec![5 * m],
            "fits: one pass"
        );
        assert_eq!(
            pass_sizes(20 * m, 8 * m, 3, 200),
            vec![m, 2 * m, 4 * m, 5 * m, 8 * m]
        );
        assert_eq!(
            pass_sizes(16 * m, 8 * m, 3, 200),
            vec![m, m, 2 * m, 4 * m, 8 * m]
        );
        assert_eq!(pass_sizes(20 * m, 8 * m, 0, 200), vec![8 * m, 8 * m, 4 * m]);
        // The first pass is never below the minimum, nor above the capacity.
        assert_eq!(pass_sizes(3 * m, 2 * m, 5, 200), vec![m, 2 * m]);
        assert_eq!(
            pass_sizes(10, 4, 1, 200),
            vec![4, 4, 2],
            "below the smallest first pass"
        );
        let mb = 1 << 20;
        assert_eq!(
            pass_sizes(1 << 24, 1 << 22, 3, 200),
            vec![mb / 2, mb / 2, mb, 2 * mb, 4 * mb, 4 * mb, 4 * mb]
        );
        assert_eq!(
            pass_sizes(1 << 23, 1 << 22, 3, 200),
            vec![mb / 2, mb / 2, mb, 2 * mb, 4 * mb]
        );
        for (n, cap, shift) in [(1000, 64, 2), (1 << 24, 1 << 22, 3), (12345, 4096, 9)] {
            let p = pass_sizes(n, cap, shift, 200);
            assert_eq!(p.iter().sum::<usize>(), n);
            assert!(p.iter().all(|&s| s > 0 && s <= cap));
        }
        // Slower growth: more, gentler passes; the sum and bounds hold for any growth.
        assert_eq!(
            pass_sizes(20 * m, 8 * m, 3, 150),
            vec![m, 1536, 2304, 3456, 5184, 6976]
        );
        for growth in [101, 150, 170, 300] {
            for (n, cap, shift) in [(1000, 64, 2), (1 << 24, 1 << 22, 3), (12345, 4096, 9)] {
                let p = pass_sizes(n, cap, shift, growth);
                assert_eq!(p.iter().sum::<usize>(), n, "growth {growth}");
                assert!(p.iter().all(|&s| s > 0 && s <= cap));
                if cap >> shift > MIN_FIRST_PASS {
                    assert!(p.windows(2).all(|w| w[0] <= w[1]), "ascending: {p:?}");
                }
            }
        }
    }

    #[test]
    fn growing_passes_cut_an_msm_that_fits() {
        let mb = 1 << 20;
        // The resident plan at 2^22 and 2^21 (capacity the whole MSM): three passes.
        assert_eq!(
            growing_passes(4 * mb, 4 * mb, 4, 400),
            vec![mb / 4, mb, 4 * mb - mb - mb / 4]
        );
        assert_eq!(
            growing_passes(2 * mb, 2 * mb, 4, 400),
            vec![mb / 8, mb / 2, 2 * mb - mb / 2 - mb / 8]
        );
        // 2^24 in passes of at most 2^23 (the device's limit): the growing ones, then full.
        assert_eq!(
            growing_passes(16 * mb, 8 * mb, 4, 400),
            vec![mb / 2, 2 * mb, 16 * mb - 8 * mb - 2 * mb - mb / 2, 8 * mb]
        );
        // Where the whole MSM is smaller than the first pass: one pass.
        assert_eq!(growing_passes(100, 1 << 20, 4, 400), vec![100]);
        assert_eq!(growing_passes(0, 1 << 20, 4, 400), Vec::<usize>::new());
        for (n, cap) in [(3 * mb + 7, 4 * mb), (5000, 8192), (1 << 24, 1 << 23)] {
            let p = growing_passes(n, cap, 4, 400);
            assert_eq!(p.iter().sum::<usize>(), n);
            assert!(p.iter().all(|&s| s > 0 && s <= cap));
            assert!(p.windows(2).all(|w| w[0] <= w[1]), "ascending: {p:?}");
        }
    }
}
