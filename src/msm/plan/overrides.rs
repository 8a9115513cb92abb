//! The environment's overrides of a device's [`Tuning`], parsed in one place: each
//! `WGPU_MSM_*` variable below, when set, replaces its field of the device's default
//! tuning (the list is on [`Tuning::with_env`]), and a value that does not parse is an
//! [`Error::BadEnv`] naming the variable.

use super::tuning::Tuning;
use crate::error::{Error, Result};
use crate::shader::{unroll::Unroll, Fq32};

/// One environment override: its variable, and how it parses into a field.
struct EnvVar {
    var: &'static str,
    expected: &'static str,
    /// Sets the field from the value; false when the value does not parse.
    set: fn(&mut Tuning, &str) -> bool,
}

/// Stores `v` in `field`; false when there is nothing to store.
fn put<T>(field: &mut T, v: Option<T>) -> bool {
    match v {
        Some(v) => {
            *field = v;
            true
        }
        None => false,
    }
}

/// `v` as a number of at least `min`.
fn at_least<T: std::str::FromStr + PartialOrd>(v: &str, min: T) -> Option<T> {
    v.trim().parse().ok().filter(|x| *x >= min)
}

/// `v` as a switch: `0` off, `1` on.
fn flag(v: &str) -> Option<bool> {
    match v.trim() {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// Every variable [`Tuning::with_env`] reads.
const ENV: [EnvVar; 21] = [
    EnvVar {
        var: "WGPU_MSM_UNROLL",
        expected: "full, compact or rolled",
        set: |t, v| {
            let u = match v.trim() {
                "full" => Some(Unroll::Full),
                "compact" => Some(Unroll::Compact),
                "rolled" => Some(Unroll::Rolled),
                _ => None,
            };
            // Every group's kernels, G2's included.
            put(&mut t.g2_unroll, u) && put(&mut t.unroll, u)
        },
    },
    EnvVar {
        var: "WGPU_MSM_FQ32",
        expected: "small or words",
        set: |t, v| {
            let f = match v.trim() {
                "small" => Some(Fq32::Small),
                "words" => Some(Fq32::Words),
                _ => None,
            };
            put(&mut t.fq32, f)
        },
    },
    EnvVar {
        var: "WGPU_MSM_UPLOAD_THREADS",
        expected: "a whole number >= 1",
        set: |t, v| put(&mut t.upload_threads, at_least(v, 1)),
    },
    EnvVar {
        var: "WGPU_MSM_HOST_UPLOAD_THREADS",
        expected: "a whole number >= 1",
        set: |t, v| put(&mut t.host_upload_threads, at_least(v, 1)),
    },
    EnvVar {
        var: "WGPU_MSM_UPLOAD_SPLIT",
        expected: "a whole number >= 1",
        set: |t, v| put(&mut t.upload_split, at_least(v, 1)),
    },
    EnvVar {
        var: "WGPU_MSM_FIRST_PASS_SHIFT",
        expected: "a whole number 0..=20",
        set: |t, v| put(&mut t.first_pass_shift, at_least(v, 0).filter(|&s| s <= 20)),
    },
    EnvVar {
        var: "WGPU_MSM_PASS_GROWTH",
        expected: "a percentage > 100",
        set: |t, v| put(&mut t.pass_growth_pct, at_least(v, 101)),
    },
    EnvVar {
        var: "WGPU_MSM_WIDEST_PASS_GROWTH",
        expected: "a percentage > 100",
        set: |t, v| put(&mut t.widest_pass_growth_pct, at_least(v, 101)),
    },
    EnvVar {
        var: "WGPU_MSM_OVERLAP_DIVISOR",
        expected: "a whole number >= 1",
        set: |t, v| put(&mut t.overlap_divisor, at_least(v, 1)),
    },
    EnvVar {
        var: "WGPU_MSM_STREAM_OVERLAP_LOG2",
        expected: "a whole number 0..=40",
        set: |t, v| {
            put(
                &mut t.stream_overlap_log2,
                at_least(v, 0).filter(|&s| s <= 40),
            )
        },
    },
    EnvVar {
        var: "WGPU_MSM_RESIDENT_PASS_GROWTH",
        expected: "a percentage > 100",
        set: |t, v| put(&mut t.resident_pass_growth_pct, at_least(v, 101)),
    },
    EnvVar {
        var: "WGPU_MSM_RESIDENT_FIRST_PASS_SHIFT",
        expected: "a whole number 0..=20",
        set: |t, v| {
            put(
                &mut t.resident_first_pass_shift,
                at_least(v, 0).filter(|&s| s <= 20),
            )
        },
    },
    EnvVar {
        var: "WGPU_MSM_RESIDENT_OVERLAP_LOG2",
        expected: "a whole number 0..=40",
        set: |t, v| {
            put(
                &mut t.resident_overlap_log2,
                at_least(v, 0).filter(|&s| s <= 40),
            )
        },
    },
    EnvVar {
        var: "WGPU_MSM_ACCUMULATE_THREADS_LOG2",
        expected: "a whole number 6..=24",
        set: |t, v| {
            let l = at_least(v, 6).filter(|&l| l <= 24);
            put(&mut t.accumulate_threads_log2, l.map(Some))
        },
    },
    EnvVar {
        var: "WGPU_MSM_WHOLE_WAVES",
        expected: "0 or 1",
        set: |t, v| put(&mut t.whole_waves, flag(v)),
    },
    EnvVar {
        var: "WGPU_MSM_SCATTER_BINS",
        expected: "0 or 1",
        set: |t, v| put(&mut t.scatter_bins, flag(v)),
    },
    EnvVar {
        var: "WGPU_MSM_SEED_PER_BUCKET",
        expected: "a whole number",
        set: |t, v| put(&mut t.seed_points_per_bucket, at_least(v, 0)),
    },
    EnvVar {
        var: "WGPU_MSM_DEAR_SEED_PER_BUCKET",
        expected: "a whole number",
        set: |t, v| put(&mut t.dear_seed_points_per_bucket, at_least(v, 0)),
    },
    EnvVar {
        var: "WGPU_MSM_POOL_KEEP",
        expected: "a whole number >= 1",
        set: |t, v| put(&mut t.pool_keep, at_least(v, 1)),
    },
    EnvVar {
        var: "WGPU_MSM_MEMORY_BUDGET_MIB",
        expected: "a whole number of MiB >= 1, or none",
        set: |t, v| {
            let b = match v.trim() {
                "none" => Some(None),
                v => at_least::<u64>(v, 1).map(|m| Some(m.saturating_mul(1 << 20))),
            };
            put(&mut t.memory_budget, b)
        },
    },
    EnvVar {
        var: "WGPU_MSM_KERNEL_BUILD_LIMIT_S",
        expected: "seconds > 0, or none",
        set: |t, v| {
            let d = match v.trim() {
                "none" => Some(None),
                v => v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .map(|s| Some(std::time::Duration::from_secs_f64(s))),
            };
            put(&mut t.kernel_build_limit, d)
        },
    },
];

impl Tuning {
    /// `self` with the `WGPU_MSM_*` overrides of the process's environment applied:
    ///
    /// | variable | field |
    /// |---|---|
    /// | `WGPU_MSM_UPLOAD_THREADS` | [`Tuning::upload_threads`] |
    /// | `WGPU_MSM_HOST_UPLOAD_THREADS` | [`Tuning::host_upload_threads`] |
    /// | `WGPU_MSM_UPLOAD_SPLIT` | [`Tuning::upload_split`] |
    /// | `WGPU_MSM_FIRST_PASS_SHIFT` | [`Tuning::first_pass_shift`] |
    /// | `WGPU_MSM_PASS_GROWTH` | [`Tuning::pass_growth_pct`] |
    /// | `WGPU_MSM_WIDEST_PASS_GROWTH` | [`Tuning::widest_pass_growth_pct`] |
    /// | `WGPU_MSM_OVERLAP_DIVISOR` | [`Tuning::overlap_divisor`] |
    /// | `WGPU_MSM_STREAM_OVERLAP_LOG2` | [`Tuning::stream_overlap_log2`] |
    /// | `WGPU_MSM_RESIDENT_PASS_GROWTH` | [`Tuning::resident_pass_growth_pct`] |
    /// | `WGPU_MSM_RESIDENT_FIRST_PASS_SHIFT` | [`Tuning::resident_first_pass_shift`] |
    /// | `WGPU_MSM_RESIDENT_OVERLAP_LOG2` | [`Tuning::resident_overlap_log2`] |
    /// | `WGPU_MSM_ACCUMULATE_THREADS_LOG2` | [`Tuning::accumulate_threads_log2`] |
    /// | `WGPU_MSM_WHOLE_WAVES` (`0`, `1`) | [`Tuning::whole_waves`] |
    /// | `WGPU_MSM_SCATTER_BINS` (`0`, `1`) | [`Tuning::scatter_bins`] |
    /// | `WGPU_MSM_SEED_PER_BUCKET` | [`Tuning::seed_points_per_bucket`] |
    /// | `WGPU_MSM_DEAR_SEED_PER_BUCKET` | [`Tuning::dear_seed_points_per_bucket`] |
    /// | `WGPU_MSM_POOL_KEEP` | [`Tuning::pool_keep`] |
    /// | `WGPU_MSM_UNROLL` (`full`, `compact`, `rolled`) | [`Tuning::unroll`] |
    /// | `WGPU_MSM_FQ32` (`small`, `words`) | [`Tuning::fq32`] |
    /// | `WGPU_MSM_MEMORY_BUDGET_MIB` (MiB, or `none`) | [`Tuning::memory_budget`] |
    /// | `WGPU_MSM_KERNEL_BUILD_LIMIT_S` (seconds, or `none`) | [`Tuning::kernel_build_limit`] |
    ///
    /// # Errors
    /// [`Error::BadEnv`] naming the first variable whose value does not parse.
    /// In a browser (no environment) this is `self`.
    pub fn with_env(self) -> Result<Tuning> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.with_vars(|var| std::env::var(var).ok());
        #[cfg(target_arch = "wasm32")]
        self.with_vars(|_| None)
    }

    /// `self` with the overrides `get` returns (a variable's value, or `None` when it
    /// is unset) applied.
    fn with_vars(mut self, get: impl Fn(&str) -> Option<String>) -> Result<Tuning> {
        for e in &ENV {
            if let Some(value) = get(e.var) {
                if !(e.set)(&mut self, &value) {
                    return Err(Error::BadEnv {
                        var: e.var,
                        value,
                        expected: e.expected,
                    });
                }
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_value_names_its_variable() {
        let env = |var: &str| (var == "WGPU_MSM_PASS_GROWTH").then(|| "fast".to_string());
        match Tuning::default().with_vars(env) {
            Err(Error::BadEnv { var, value, .. }) => {
                assert_eq!(var, "WGPU_MSM_PASS_GROWTH");
                assert_eq!(value, "fast");
            }
            other => panic!("expected BadEnv, got {other:?}"),
        }
        let zero = |var: &str| (var == "WGPU_MSM_UPLOAD_THREADS").then(|| "0".to_string());
        let e = Tuning::default().with_vars(zero).unwrap_err();
        assert!(e.to_string().contains("WGPU_MSM_UPLOAD_THREADS"), "{e}");
    }

    #[test]
    fn overrides_layer_over_the_device_defaults() {
        let env = |var: &str| match var {
            "WGPU_MSM_UPLOAD_THREADS" => Some("3".to_string()),
            "WGPU_MSM_HOST_UPLOAD_THREADS" => Some("48".to_string()),
            "WGPU_MSM_ACCUMULATE_THREADS_LOG2" => Some("17".to_string()),
            _ => None,
        };
        let base = Tuning {
            retire_on_poller: false,
            ..Tuning::default()
        };
        let t = base.clone().with_vars(env).unwrap();
        assert_eq!(t.upload_threads, 3);
        assert_eq!(t.host_upload_threads, 48);
        assert_eq!(t.accumulate_threads_log2, Some(17));
        assert_eq!(
            t.retire_on_poller, base.retire_on_poller,
            "untouched fields stay"
        );
        assert_eq!(
            Tuning::default().with_vars(|_| None).unwrap(),
            Tuning::default()
        );
    }

    #[test]
    fn shader_builds_are_overrides_too() {
        let env = |var: &str| match var {
            "WGPU_MSM_FQ32" => Some("small".to_string()),
            "WGPU_MSM_UNROLL" => Some("full".to_string()),
            _ => None,
        };
        let t = Tuning::default().with_vars(env).unwrap();
        assert_eq!((t.fq32, t.unroll), (Fq32::Small, Unroll::Full));
        let bad = |var: &str| (var == "WGPU_MSM_FQ32").then(|| "tiny".to_string());
        let e = Tuning::default().with_vars(bad).unwrap_err();
        assert!(e.to_string().contains("WGPU_MSM_FQ32"), "{e}");
    }
}
