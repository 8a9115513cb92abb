//! Per-stage timings of the last profiled MSM on a device (timestamp queries on the
//! device, wall-clock on the host).

/// Milliseconds spent in each stage, summed over the passes of one MSM.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct StageProfile {
    /// Host: converting inputs into upload buffers (bases excluded when resident).
    pub upload_ms: f64,
    /// Host: waiting for an upload buffer to come back from the device.
    pub upload_wait_ms: f64,
    /// Bytes the host wrote into upload buffers.
    pub upload_bytes: u64,
    /// Device: scalars to signed digits, bucket counts.
    pub decompose_ms: f64,
    /// Device: prefix sums of bucket counts.
    pub scan_ms: f64,
    /// Device: placing points in bucket order.
    pub scatter_ms: f64,
    /// Device: bucket accumulation (mixed additions).
    pub accumulate_ms: f64,
    /// Device: folding each bucket's chunk partials in a tree (hot buckets).
    pub fold_ms: f64,
    /// Device: adding each pass's bucket pieces into the MSM's bucket totals.
    pub collect_ms: f64,
    /// Device: bucket reduction (the bit trees of msm_reduce.wgsl), last pass only.
    pub reduce_ms: f64,
    /// Device: from the first stage's start to the last stage's end (the stages plus
    /// copies, the on-curve check, and any time the device waited for the host).
    pub span_ms: f64,
    /// Host: from the call's start to its first submission.
    pub lead_ms: f64,
    /// Host: from the last submission until the results were read back.
    pub drain_ms: f64,
    /// Host: reading back and combining windows.
    pub combine_ms: f64,
    /// Host: the whole call, end to end.
    pub total_ms: f64,
    /// Passes the MSM was split into.
    pub passes: usize,
    /// The most accumulation workgroups (of 64 threads) the last pass saw running at
    /// once: the wave size later passes are shaped to (`Tuning::whole_waves`).
    pub running: u32,
    /// What happened when, in milliseconds from the call's start: the host's uploads,
    /// submissions and readback, and each pass's device stages (device times are
    /// placed so that the first stage starts at the first submission: the device clock
    /// has no common origin with the host's, so they are as early as they can be).
    pub timeline: Vec<TimelineEvent>,
}

/// One interval of an MSM's [`StageProfile::timeline`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct TimelineEvent {
    /// Where it ran: `"host"` or `"device"`.
    pub on: &'static str,
    /// What it was: on the host `"fill 8.4 MB"`, `"finish"`, `"submit"`, `"readback"`,
    /// `"combine"`; on the device a stage and its pass (`"accumulate 2"`).
    pub what: String,
    /// Start, milliseconds from the call's start.
    pub start_ms: f64,
    /// End, milliseconds from the call's start.
    pub end_ms: f64,
}

impl StageProfile {
    /// Milliseconds of device stages, summed.
    pub fn device_ms(&self) -> f64 {
        self.decompose_ms
            + self.scan_ms
            + self.scatter_ms
            + self.accumulate_ms
            + self.fold_ms
            + self.collect_ms
            + self.reduce_ms
    }

    /// Adds pass `pass`'s device stages to the timeline: `ticks` as in
    /// [`StageProfile::add_pass`], placed `offset_ms` after tick `origin`.
    pub(crate) fn add_pass_timeline(
        &mut self,
        pass: usize,
        ticks: &[u64],
        period_ns: f32,
        origin: u64,
        offset_ms: f64,
    ) {
        let at = |t: u64| offset_ms + t.saturating_sub(origin) as f64 * f64::from(period_ns) / 1e6;
        for (s, name) in crate::shader::stages::STAGES.iter().enumerate() {
            let (b, e) = (ticks[2 * s], ticks[2 * s + 1]);
            if b != 0 && e > b {
                self.timeline.push(TimelineEvent {
                    on: "device",
                    what: format!("{name} {pass}"),
                    start_ms: at(b),
                    end_ms: at(e),
                });
            }
        }
    }

    /// Adds one pass's device timestamps (ticks: begin/end per stage, in STAGES order).
    pub(crate) fn add_pass(&mut self, ticks: &[u64], period_ns: f32) {
        let ms = |s: usize| {
            let (b, e) = (ticks[2 * s], ticks[2 * s + 1]);
            e.saturating_sub(b) as f64 * f64::from(period_ns) / 1e6
        };
        self.decompose_ms += ms(0);
        self.scan_ms += ms(1);
        self.scatter_ms += ms(2);
        self.accumulate_ms += ms(3);
        self.fold_ms += ms(4);
        self.collect_ms += ms(5);
        self.reduce_ms += ms(6);
        self.passes += 1;
    }
}
