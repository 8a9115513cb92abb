//! Cutting `0..n` into the ranges each strategy hands out: equal blocks, blocks in
//! proportion to weights, and fixed-size chunks.

use std::ops::Range;

/// `parts` contiguous blocks covering `0..n`, sizes differing by at most one (the first
/// `n % parts` blocks are one longer). Blocks are empty when `n < parts`.
pub fn even_blocks(n: usize, parts: usize) -> Vec<Range<usize>> {
    let parts = parts.max(1);
    let (q, r) = (n / parts, n % parts);
    let mut at = 0;
    (0..parts)
        .map(|i| {
            let len = q + usize::from(i < r);
            let b = at..at + len;
            at += len;
            b
        })
        .collect()
}

/// Contiguous blocks covering `0..n`, block `i` about `n * w[i] / sum(w)` long (largest
/// remainders get the leftover points). Weights that are not finite and positive count
/// as 0 and get empty blocks; when no weight is positive the split is even.
pub fn weighted_blocks(n: usize, weights: &[f64]) -> Vec<Range<usize>> {
    let w: Vec<f64> = weights
        .iter()
        .map(|&x| if x.is_finite() && x > 0.0 { x } else { 0.0 })
        .collect();
    let total: f64 = w.iter().sum();
    if w.is_empty() || total <= 0.0 {
        return even_blocks(n, weights.len());
    }
    let exact: Vec<f64> = w.iter().map(|x| n as f64 * x / total).collect();
    let mut len: Vec<usize> = exact.iter().map(|e| (e.floor() as usize).min(n)).collect();
    let assigned: usize = len.iter().sum();
    let mut left = n.saturating_sub(assigned);
    let mut order: Vec<usize> = (0..w.len()).filter(|&i| w[i] > 0.0).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        len[i] += 1;
        left -= 1;
    }
    // Floating-point rounding can only over-assign by a point or so; trim from the end.
    let mut over = len.iter().sum::<usize>().saturating_sub(n);
    for l in len.iter_mut().rev() {
        let cut = over.min(*l);
        *l -= cut;
        over -= cut;
    }
    let mut at = 0;
    len.iter()
        .map(|&l| {
            let b = at..at + l;
            at += l;
            b
        })
        .collect()
}

/// `0..n` in consecutive chunks of `chunk` points (the last may be shorter).
pub fn chunks(n: usize, chunk: usize) -> Vec<Range<usize>> {
    let chunk = chunk.max(1);
    (0..n)
        .step_by(chunk)
        .map(|s| s..(s + chunk).min(n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covers(n: usize, v: &[Range<usize>]) -> bool {
        let mut at = 0;
        for r in v {
            if r.start != at || r.end < r.start {
                return false;
            }
            at = r.end;
        }
        at == n
    }

    #[test]
    fn partitions_cover_exactly() {
        for n in [0usize, 1, 2, 3, 7, 1000, 65536] {
            for k in 1..6 {
                let e = even_blocks(n, k);
                assert_eq!(e.len(), k);
                assert!(covers(n, &e), "even n={n} k={k}");
                let lens: Vec<usize> = e.iter().map(|r| r.len()).collect();
                assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1);
                let w: Vec<f64> = (0..k).map(|i| (i * i + 1) as f64).collect();
                let b = weighted_blocks(n, &w);
                assert!(covers(n, &b), "weighted n={n} k={k}: {b:?}");
                assert!(covers(n, &chunks(n, k)), "chunks n={n} k={k}");
            }
        }
        let b = weighted_blocks(1000, &[3.0, 1.0, 0.0, f64::NAN]);
        assert_eq!(
            b.iter().map(|r| r.len()).collect::<Vec<_>>(),
            vec![750, 250, 0, 0]
        );
        assert!(covers(10, &weighted_blocks(10, &[0.0, 0.0])));
    }
}
