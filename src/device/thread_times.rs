//! Where a thread's time went, to tell a slow host step that computed from one that
//! waited for a CPU (a run queue) or slept (a lock, the driver): CPU time from the
//! thread's CPU clock, its user / system split and minor page faults from `getrusage`,
//! run-queue time and sleeps from Linux's per-thread scheduler statistics. Used only
//! for debug logs (slow submissions, the poller's polls); `None` off Linux.

use std::time::Duration;

/// The calling thread's CPU time, run-queue time and voluntary context switches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ThreadTimes {
    on_cpu: Duration,
    runnable: Duration,
    sleeps: u64,
    /// User and system CPU time (`getrusage`, tick-scaled) and minor page faults.
    user: Duration,
    system: Duration,
    faults: u64,
}

impl ThreadTimes {
    /// The calling thread's times now.
    #[cfg(target_os = "linux")]
    pub(crate) fn now() -> Option<ThreadTimes> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec the call writes into.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if r != 0 {
            return None;
        }
        let on_cpu = Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        // schedstat: time on a CPU, time waiting on a run queue, timeslices (ns).
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let runnable = Duration::from_nanos(stat.split_whitespace().nth(1)?.parse().ok()?);
        let status = std::fs::read_to_string("/proc/thread-self/status").ok()?;
        let sleeps = status
            .lines()
            .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))?
            .trim()
            .parse()
            .ok()?;
        // SAFETY: `ru` is a valid rusage the call writes into.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) } != 0 {
            return None;
        }
        let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        Some(ThreadTimes {
            on_cpu,
            runnable,
            sleeps,
            user: tv(ru.ru_utime),
            system: tv(ru.ru_stime),
            faults: ru.ru_minflt as u64,
        })
    }

    /// [`ThreadTimes::now`] when debug logging is on (the only use of the times).
    pub(crate) fn for_debug() -> Option<ThreadTimes> {
        log::log_enabled!(log::Level::Debug)
            .then(ThreadTimes::now)
            .flatten()
    }

    /// The calling thread's times now (not available off Linux).
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn now() -> Option<ThreadTimes> {
        None
    }

    /// What `wall` since `self` was taken was made of, as a log line: on a CPU,
    /// waiting for one, and asleep (the rest), with the number of times it slept.
    pub(crate) fn describe_since(self, wall: Duration) -> String {
        let Some(now) = ThreadTimes::now() else {
            return format!("{:.2} ms", ms(wall));
        };
        let cpu = now.on_cpu.saturating_sub(self.on_cpu);
        let queued = now.runnable.saturating_sub(self.runnable);
        let asleep = wall.saturating_sub(cpu + queued);
        format!(
            "{:.2} ms: {:.2} on a CPU (user {:.1}, system {:.1}; {} page faults), {:.2} waiting for one, {:.2} asleep ({} sleeps)",
            ms(wall),
            ms(cpu),
            ms(now.user.saturating_sub(self.user)),
            ms(now.system.saturating_sub(self.system)),
            now.faults.saturating_sub(self.faults),
            ms(queued),
            ms(asleep),
            now.sleeps.saturating_sub(self.sleeps)
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
