//! What a worker's pieces cost, learned from the pieces it ran (seconds ≈ overhead +
//! per-point cost × points), and the split of the points left that lets the workers
//! finish together: the adaptive [`Strategy::Dynamic`](super::Strategy::Dynamic).

/// Predicted seconds of a piece of work on one worker: `overhead_s + per_point_s *
/// points`, fitted to the worker's timed pieces.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CostModel {
    /// Seconds a piece costs whatever its size (launches, transfers' start, readback).
    pub overhead_s: f64,
    /// Seconds each point adds.
    pub per_point_s: f64,
}

impl CostModel {
    /// Predicted seconds of a piece of `points` points.
    pub fn seconds(&self, points: usize) -> f64 {
        self.overhead_s + self.per_point_s * points as f64
    }
}

/// Timed pieces of one worker: the smallest, and a large one that follows the sizes
/// the worker now gets and how fast it now runs them. A piece that ran faster than the
/// model predicted, or twice the size of the large one, replaces it; a slower one
/// within a factor of two is averaged into it, a much smaller slower one leaves it. (A
/// device's first MSM of a new size also allocates its buffers, which can take longer
/// than the MSM: a model that took such a time whole would keep the device's share
/// down, and one that followed every piece would make the shares swing from call to
/// call.)
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Samples {
    small: Option<(usize, f64)>,
    large: Option<(usize, f64)>,
}

impl Samples {
    /// Records a piece of `points` points that took `secs` seconds.
    pub(crate) fn add(&mut self, points: usize, secs: f64) {
        if points == 0 || !secs.is_finite() {
            return;
        }
        let s = (points, secs.max(1e-9));
        let faster = self.model().is_some_and(|m| s.1 < m.seconds(points));
        if self.small.is_none_or(|(n, _)| points <= n) {
            self.small = Some(s);
        }
        self.large = match self.large {
            None => Some(s),
            Some((n, _)) if faster || points >= 2 * n => Some(s),
            Some((n, t)) if 2 * points > n => Some(((n + points) / 2, (t + s.1) / 2.0)),
            kept => kept,
        };
    }

    /// The line through the small and the large sample; with one size only (or times
    /// that fell with size), the large piece's cost spread over its points, which
    /// overstates what larger pieces cost per point (the cautious reading: such a
    /// worker is given less).
    pub(crate) fn model(&self) -> Option<CostModel> {
        let (nl, tl) = self.large?;
        if let Some((ns, ts)) = self.small {
            if nl > ns {
                let per_point_s = (tl - ts) / (nl - ns) as f64;
                if per_point_s > 0.0 {
                    return Some(CostModel {
                        overhead_s: (ts - per_point_s * ns as f64).max(0.0),
                        per_point_s,
                    });
                }
            }
        }
        Some(CostModel {
            overhead_s: 0.0,
            per_point_s: tl / nl as f64,
        })
    }
}

/// Smallest share of an MSM's points a worker takes part with. A worker worth less than
/// this saves less than this fraction of the time, while what it costs the others is
/// not in any model: a CPU worker taking a sliver of the points takes the host cores
/// that feed the GPUs' uploads, which slows the whole MSM (see docs/).
pub(crate) const MIN_SHARE: f64 = 0.05;

/// Splits `points` among workers so that all finish together as early as their models
/// allow. Worker `i` is `Some((model, free_in))` when it takes part (`free_in`: seconds
/// until it is done with the piece it holds, 0 when idle), `None` otherwise. Returns
/// each worker's points (summing to `points`); a worker that could not finish even one
/// point before the others finish everything gets 0, and so does one whose share would
/// be under `min_points` (the smallest such share goes first, then the rest are split
/// again; the whole MSM's [`MIN_SHARE`], so that a worker is not let in on the last
/// part of an MSM it was kept out of).
pub(crate) fn finish_together(
    points: usize,
    min_points: usize,
    workers: &[Option<(CostModel, f64)>],
) -> Vec<usize> {
    let mut taking: Vec<Option<(CostModel, f64)>> = workers.to_vec();
    loop {
        let out = split(points, &taking);
        let part = |&(i, &s): &(usize, &usize)| taking[i].is_some() && s > 0;
        let shares: Vec<(usize, &usize)> = out.iter().enumerate().filter(part).collect();
        let smallest = shares.iter().min_by_key(|(_, &s)| s).map(|&(i, &s)| (i, s));
        match smallest {
            Some((i, s)) if shares.len() > 1 && s < min_points => {
                taking[i] = None;
            }
            _ => return out,
        }
    }
}

/// [`finish_together`] without the smallest share.
fn split(points: usize, workers: &[Option<(CostModel, f64)>]) -> Vec<usize> {
    let mut out = vec![0usize; workers.len()];
    // (start: seconds before the worker's first point is done, seconds per point, index)
    let mut by_start: Vec<(f64, f64, usize)> = workers
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            w.map(|(m, free)| (free.max(0.0) + m.overhead_s, m.per_point_s.max(1e-15), i))
        })
        .collect();
    if points == 0 || by_start.is_empty() {
        return out;
    }
    by_start.sort_by(|a, b| a.0.total_cmp(&b.0));
    // With the k earliest starters taking part, all finish at
    //   T = (points + sum start/per) / sum 1/per;
    // add workers while the next one would start before that.
    let (mut num, mut den, mut k) = (points as f64, 0.0, 0);
    let mut t = 0.0;
    while k < by_start.len() {
        let (start, per, _) = by_start[k];
        if k > 0 && start >= t {
            break;
        }
        num += start / per;
        den += 1.0 / per;
        t = num / den;
        k += 1;
    }
    let mut given = 0;
    for &(start, per, i) in &by_start[..k] {
        out[i] = (((t - start) / per).max(0.0).round() as usize).min(points - given);
        given += out[i];
    }
    // Rounding leaves a few points: to the earliest starter (the one that takes most
    // per second it has left, or the only one).
    out[by_start[0].2] += points - given;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(overhead_s: f64, per_point_s: f64) -> CostModel {
        CostModel {
            overhead_s,
            per_point_s,
        }
    }

    #[test]
    fn samples_fit_overhead_and_rate() {
        let mut s = Samples::default();
        assert_eq!(s.model(), None);
        s.add(1000, 0.002);
        // One size: all per point.
        assert_eq!(s.model(), Some(m(0.0, 2e-6)));
        s.add(4000, 0.005);
        let got = s.model().unwrap();
        assert!((got.per_point_s - 1e-6).abs() < 1e-12, "{got:?}");
        assert!((got.overhead_s - 0.001).abs() < 1e-9, "{got:?}");
        // A slower piece: much smaller, it leaves the large sample (100 points in 1.1
        // ms against 1.1 predicted); comparable, it is averaged in ((4000, 5 ms) and
        // (3000, 5.1 ms): (3500, 5.05 ms)); one faster than predicted, or twice the
        // size, replaces it.
        s.add(100, 0.0011);
        s.add(3000, 0.0051);
        let got = s.model().unwrap();
        assert!(
            (got.per_point_s - 0.00395 / 3400.0).abs() < 1e-12,
            "{got:?}"
        );
        s.add(3000, 0.003);
        let got = s.model().unwrap();
        assert!((got.per_point_s - 0.0019 / 2900.0).abs() < 1e-12, "{got:?}");
        s.add(8000, 0.01);
        let got = s.model().unwrap();
        assert!((got.per_point_s - 0.0089 / 7900.0).abs() < 1e-12, "{got:?}");
        // A much smaller piece faster than the model said (a large sample that had
        // paid for an allocation): it replaces the large one.
        s.add(2000, 0.002);
        let got = s.model().unwrap();
        assert!((got.per_point_s - 0.0009 / 1900.0).abs() < 1e-12, "{got:?}");
        // Times that fall with size: the cautious reading.
        let mut odd = Samples::default();
        odd.add(1000, 0.003);
        odd.add(4000, 0.002);
        assert_eq!(odd.model(), Some(m(0.0, 0.002 / 4000.0)));
        odd.add(0, 1.0);
        odd.add(10, f64::NAN);
        assert_eq!(odd.model(), Some(m(0.0, 0.002 / 4000.0)), "ignored");
    }

    #[test]
    fn equal_workers_share_evenly() {
        let w = [Some((m(0.001, 1e-6), 0.0)); 3];
        let s = finish_together(3000, 150, &w);
        assert_eq!(s.iter().sum::<usize>(), 3000);
        assert!(s.iter().all(|&x| (999..=1002).contains(&x)), "{s:?}");
        assert_eq!(finish_together(0, 0, &w), vec![0, 0, 0]);
        assert_eq!(finish_together(5, 0, &[None, None]), vec![0, 0]);
    }

    #[test]
    fn shares_follow_rates_and_starts() {
        // Worker 1 is 3x slower: a quarter of the points.
        let s = finish_together(
            4000,
            200,
            &[Some((m(0.0, 1e-6), 0.0)), Some((m(0.0, 3e-6), 0.0))],
        );
        assert_eq!(s.iter().sum::<usize>(), 4000);
        assert!((2995..=3005).contains(&s[0]), "{s:?}");
        // A worker 1000x slower would do 4 points in the time, under the smallest
        // share: none; nor one whose overhead alone outlasts the job, nor none taking
        // part.
        let s = finish_together(
            4000,
            200,
            &[
                Some((m(0.0, 1e-6), 0.0)),
                Some((m(0.0, 1e-3), 0.0)),
                Some((m(1.0, 1e-9), 0.0)),
                None,
            ],
        );
        assert!(
            s[1] <= 4 && s[0] + s[1] == 4000 && s[2] + s[3] == 0,
            "{s:?}"
        );
        // A busy worker starts later and takes less.
        let s = finish_together(
            2000,
            100,
            &[Some((m(0.0, 1e-6), 0.0)), Some((m(0.0, 1e-6), 0.001))],
        );
        assert_eq!(s, vec![1500, 500]);
        // Nobody but a busy worker: it takes all.
        assert_eq!(finish_together(7, 7, &[Some((m(0.0, 1.0), 5.0))]), vec![7]);
    }
}
