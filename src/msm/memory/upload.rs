//! Host-to-device uploads of bases and scalars, converted straight into mapped memory
//! by several threads of rayon's pool with no intermediate copy: `fill_*` write into
//! any mapped view (the reusable upload buffers of `memory/staging.rs`, used by every MSM);
//! `write_bases` and `write_scalars` go through wgpu's per-write staging (resident
//! bases and scalars, uploaded once).

use crate::curve::Group;
use crate::error::{Error, Result};
use crate::msm::encode;
use crate::msm::plan::tuning::Tuning;
use ark_ec::short_weierstrass::Affine;
use ark_ec::AffineRepr as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use wgpu::WriteOnly;

/// A part of the staging view handed to one thread.
struct Part<'a>(WriteOnly<'a, [u8]>);

// SAFETY: a `WriteOnly<[u8]>` is an exclusive, write-only reference to bytes (like
// `&mut [u8]`, which is Send); wgpu implements Send for it only for sized `T`, which
// leaves out slices. Each `Part` comes from `split_at`, so parts never overlap.
unsafe impl Send for Part<'_> {}

/// The pool of a device's upload threads: rayon's natively; in a browser (no threads)
/// a type with no values, so every `Option<&ThreadPool>` there is `None`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type ThreadPool = rayon::ThreadPool;
/// The pool of a device's upload threads: rayon's natively; in a browser (no threads)
/// a type with no values, so every `Option<&ThreadPool>` there is `None`.
#[cfg(target_arch = "wasm32")]
pub(crate) enum ThreadPool {}

/// Runs `fill(dst)` on `pool`'s threads (its `rayon::scope` then spawns there), else on
/// the calling thread (and rayon's global pool).
pub(crate) fn on_pool<F>(pool: Option<&ThreadPool>, dst: WriteOnly<'_, [u8]>, fill: F)
where
    F: FnOnce(WriteOnly<'_, [u8]>) + Send,
{
    match pool {
        #[cfg(target_arch = "wasm32")]
        Some(p) => match *p {},
        #[cfg(not(target_arch = "wasm32"))]
        Some(p) => {
            let part = Part(dst);
            p.install(move || {
                let part = part;
                fill(part.0);
            });
        }
        None => fill(dst),
    }
}

/// Runs `here` on this thread while `there` runs on `pool` (a device's upload threads),
/// or one after the other when the device has none; returns both results.
pub(crate) fn beside<H, T, RH, RT>(pool: Option<&ThreadPool>, here: H, there: T) -> (RH, Option<RT>)
where
    H: FnOnce() -> RH,
    T: FnOnce() -> RT + Send,
    RT: Send,
{
    let Some(p) = pool else {
        return (here(), Some(there()));
    };
    #[cfg(target_arch = "wasm32")]
    match *p {}
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut out = None;
        let r = p.in_place_scope(|s| {
            s.spawn(|_| out = Some(there()));
            here()
        });
        (r, out)
    }
}

/// Converts items into device words.
type Convert<T> = dyn Fn(&mut [u32], &[T]) + Sync;

/// Writes the items of a range into a part of mapped memory, with a scratch buffer that
/// the task keeps from piece to piece.
type WritePiece<'f> =
    dyn Fn(&mut Vec<u32>, WriteOnly<'_, [u8]>, std::ops::Range<usize>) + Sync + 'f;

/// Items converted per step of one thread (bounds its scratch buffer).
const STEP: usize = 4096;

/// Where a device's uploads run: its upload threads (`None`: rayon's global pool),
/// and how an upload spreads over them (`DeviceState::uploads`). While it lives the
/// device counts among the devices uploading from the host ([`HostUploads`]).
pub(crate) struct Uploads<'a> {
    pub(crate) pool: Option<std::sync::Arc<ThreadPool>>,
    pub(crate) spread: Spread,
    /// This device's place among the devices uploading, held as long as this is.
    pub(crate) _uploading: Uploading<'a>,
}

/// The devices of this process that upload from the host now, each counted once however
/// many of its MSMs run: while `k` of them do, one upload takes at most
/// `Tuning::host_upload_threads` / `k` threads (`Spread::threads_for`).
pub(crate) struct HostUploads {
    devices: AtomicUsize,
}

/// Every device's uploads in this process.
pub(crate) static HOST_UPLOADS: HostUploads = HostUploads {
    devices: AtomicUsize::new(0),
};

impl HostUploads {
    /// Marks one of a device's host-fed MSMs (or resident uploads) as running until the
    /// returned guard drops; `mine` counts the device's own, so that the device counts
    /// once among the uploading devices.
    pub(crate) fn begin<'a>(&'a self, mine: &'a AtomicUsize) -> Uploading<'a> {
        if mine.fetch_add(1, Ordering::AcqRel) == 0 {
            self.devices.fetch_add(1, Ordering::AcqRel);
        }
        Uploading { host: self, mine }
    }

    /// Most threads one upload takes now: `host` threads shared evenly by the devices
    /// uploading (at least one).
    fn share(&self, host: usize) -> usize {
        (host / self.devices.load(Ordering::Acquire).max(1)).max(1)
    }
}

/// A device's upload in progress (see [`HostUploads::begin`]).
pub(crate) struct Uploading<'a> {
    host: &'a HostUploads,
    mine: &'a AtomicUsize,
}

impl Drop for Uploading<'_> {
    fn drop(&mut self) {
        if self.mine.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.host.devices.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// How an upload spreads over threads, from the device's tuning.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spread {
    /// Most threads one upload uses (`Tuning::upload_threads`, at most one a core;
    /// also the size of the device's upload pool, `DeviceState::upload_pool`).
    threads: usize,
    /// Pieces per thread (`Tuning::upload_split`).
    split: usize,
    /// Threads shared by the devices uploading at once (`Tuning::host_upload_threads`).
    host: usize,
}

impl Spread {
    /// The spread `tuning` asks for on this host.
    pub(crate) fn of(tuning: &Tuning) -> Spread {
        Spread {
            threads: tuning.upload_threads_on_host().max(1),
            split: tuning.upload_split.max(1),
            host: tuning.host_upload_threads.max(1),
        }
    }

    /// Threads for copying `bytes` into mapped memory: one per 512 KiB (writes into
    /// host-visible memory run at a few GB/s per thread), at most `self.threads` and
    /// at most this device's share of `self.host` ([`HostUploads::share`]).
    fn threads_for(self, bytes: usize) -> usize {
        let most = self.threads.min(HOST_UPLOADS.share(self.host));
        bytes.div_ceil(512 << 10).clamp(1, most)
    }
}

/// The bytes of `items` as the device wants them, when arkworks' in-memory layout
/// already is that layout: `T` is exactly `words` u32 words, and each probe's memory is
/// what `conv` writes for it. (BN254 scalars are four little-endian u64 Montgomery
/// limbs; BN254 G1 affine points carry no infinity flag in arkworks 0.6, infinity being
/// (0, 0), so each is its x and y limbs.)
fn layout_bytes<'a, T>(
    items: &'a [T],
    probes: &[T],
    words: usize,
    conv: fn(&mut [u32], &[T]),
) -> Option<&'a [u8]> {
    let bytes = 4 * words;
    if cfg!(target_endian = "big") || std::mem::size_of::<T>() != bytes {
        return None;
    }
    let mut want = vec![0u32; words];
    for probe in probes {
        conv(&mut want, std::slice::from_ref(probe));
        // SAFETY: `probe` is a live value of `bytes` bytes (checked above), all
        // initialised: the types used here are u64 limbs and zero-sized markers, with
        // no padding (a size of exactly `words` words leaves no room for any).
        let pb = unsafe { std::slice::from_raw_parts((probe as *const T).cast::<u8>(), bytes) };
        if pb != bytemuck::cast_slice::<u32, u8>(&want) {
            return None;
        }
    }
    // SAFETY: as for the probes: each element is `bytes` initialised bytes in the
    // device's order, and the slice covers exactly `items`.
    Some(unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<u8>(), items.len() * bytes) })
}

/// The bytes of `scalars` as the device wants them, where the layouts agree (a probe
/// whose limbs differ shows their order).
fn scalar_bytes<C: Group>(scalars: &[C::ScalarField]) -> Option<&[u8]> {
    let probe = [C::ScalarField::from(0x0102_0304_0506_0708u64)];
    layout_bytes(scalars, &probe, C::SCALAR_WORDS, encode::write_scalars::<C>)
}

/// The bytes of `bases` as the device wants them, where the layouts agree (probed with
/// the generator and with infinity).
fn base_bytes<C: Group>(bases: &[Affine<C>]) -> Option<&[u8]> {
    let probes = [Affine::<C>::generator(), Affine::<C>::identity()];
    layout_bytes(
        bases,
        &probes,
        2 * C::ELEMENT_WORDS,
        encode::write_bases::<C>,
    )
}

/// Copies `bytes` (`len` items of `item_bytes`) into `dst` on several threads.
fn fill_raw(dst: WriteOnly<'_, [u8]>, bytes: &[u8], len: usize, item_bytes: usize, spread: Spread) {
    let write = |_: &mut Vec<u32>, mut mine: WriteOnly<'_, [u8]>, range: std::ops::Range<usize>| {
        mine.copy_from_slice(&bytes[item_bytes * range.start..item_bytes * range.end]);
    };
    for_pieces(
        dst,
        len,
        item_bytes,
        spread.threads_for(bytes.len()),
        spread.split,
        &write,
    );
}

/// Runs `write(part, range)` over `len` items whose bytes fill `dst` (`item_bytes`
/// each), on `threads` tasks of rayon's pool. The items are cut into `threads *
/// split` pieces that the tasks take in turn, so that a task held up (its thread
/// descheduled, or slower memory) leaves its remaining pieces to the others.
fn for_pieces(
    dst: WriteOnly<'_, [u8]>,
    len: usize,
    item_bytes: usize,
    threads: usize,
    split: usize,
    write: &WritePiece<'_>,
) {
    if len == 0 {
        return;
    }
    let per = len.div_ceil(threads * split).max(1);
    let mut pieces = Vec::with_capacity(len.div_ceil(per));
    let mut rest = dst;
    for first in (0..len).step_by(per) {
        let n = per.min(len - first);
        let (mine, tail) = rest.split_at(n * item_bytes);
        rest = tail;
        pieces.push(std::sync::Mutex::new(Some((Part(mine), first..first + n))));
    }
    // In a browser (no threads) the pieces are written in turn.
    #[cfg(target_arch = "wasm32")]
    {
        let _ = threads;
        let mut scratch = Vec::new();
        for slot in pieces {
            if let Some((part, range)) = slot.into_inner().ok().flatten() {
                write(&mut scratch, part.0, range);
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let next = std::sync::atomic::AtomicUsize::new(0);
    // On the current rayon pool (a device's upload threads for streamed MSMs, see
    // `on_pool`; else the global one, which arkworks keeps warm): no thread is started
    // per upload.
    #[cfg(not(target_arch = "wasm32"))]
    rayon::scope(|s| {
        for _ in 0..threads.min(pieces.len()) {
            s.spawn(|_| {
                let mut scratch = Vec::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(slot) = pieces.get(i) else { break };
                    let taken = slot.lock().map(|mut p| p.take()).ok().flatten();
                    if let Some((part, range)) = taken {
                        write(&mut scratch, part.0, range);
                    }
                }
            });
        }
    });
}

/// Writes `items` into `dst` (exactly `items.len() * words * 4` bytes), `words` u32
/// words per item, converting with `conv` on several threads.
fn fill_converted<T: Sync>(
    dst: WriteOnly<'_, [u8]>,
    items: &[T],
    words: usize,
    conv: &Convert<T>,
    spread: Spread,
) {
    let bytes = items.len() * words * 4;
    if bytes == 0 {
        return;
    }
    let write =
        |scratch: &mut Vec<u32>, mut mine: WriteOnly<'_, [u8]>, range: std::ops::Range<usize>| {
            scratch.resize(STEP * words, 0);
            for step in items[range].chunks(STEP) {
                let w = &mut scratch[..step.len() * words];
                conv(w, step);
                let (mut head, tail) = mine.split_at(w.len() * 4);
                head.copy_from_slice(bytemuck::cast_slice(w));
                mine = tail;
            }
        };
    let threads = spread.threads_for(bytes);
    for_pieces(dst, items.len(), words * 4, threads, spread.split, &write);
}

/// Writes bases into `dst` (`2 * C::ELEMENT_WORDS` words each, infinity as (0, 0)), a
/// plain copy when the layout allows.
pub(crate) fn fill_bases<C: Group>(dst: WriteOnly<'_, [u8]>, bases: &[Affine<C>], spread: Spread) {
    let words = 2 * C::ELEMENT_WORDS;
    match base_bytes(bases) {
        Some(bytes) => fill_raw(dst, bytes, bases.len(), 4 * words, spread),
        None => fill_converted(dst, bases, words, &encode::write_bases::<C>, spread),
    }
}

/// Writes scalars into `dst` (`C::SCALAR_WORDS` words each, Montgomery form), a plain
/// copy when the layout allows.
pub(crate) fn fill_scalars<C: Group>(
    dst: WriteOnly<'_, [u8]>,
    scalars: &[C::ScalarField],
    spread: Spread,
) {
    let words = C::SCALAR_WORDS;
    match scalar_bytes::<C>(scalars) {
        Some(bytes) => fill_raw(dst, bytes, scalars.len(), 4 * words, spread),
        None => fill_converted(dst, scalars, words, &encode::write_scalars::<C>, spread),
    }
}

/// Uploads bases into `buf` at byte `offset` through wgpu's per-write staging memory
/// (for one-time uploads: resident bases).
pub(crate) fn write_bases<C: Group>(
    queue: &wgpu::Queue,
    buf: &wgpu::Buffer,
    offset: u64,
    bases: &[Affine<C>],
    spread: Spread,
) -> Result<()> {
    let bytes = C::ID.base_bytes() * bases.len() as u64;
    write_with(queue, buf, offset, bytes, |dst| {
        fill_bases(dst, bases, spread)
    })
}

/// Uploads scalars into `buf` at byte `offset` as [`write_bases`] does bases (for
/// resident scalars).
pub(crate) fn write_scalars<C: Group>(
    queue: &wgpu::Queue,
    buf: &wgpu::Buffer,
    offset: u64,
    scalars: &[C::ScalarField],
    spread: Spread,
) -> Result<()> {
    let bytes = C::ID.scalar_bytes() * scalars.len() as u64;
    write_with(queue, buf, offset, bytes, |dst| {
        fill_scalars::<C>(dst, scalars, spread)
    })
}

/// Writes `bytes` bytes into `buf` at `offset` with `fill`, through wgpu's per-write
/// staging memory.
fn write_with(
    queue: &wgpu::Queue,
    buf: &wgpu::Buffer,
    offset: u64,
    bytes: u64,
    fill: impl FnOnce(WriteOnly<'_, [u8]>),
) -> Result<()> {
    let Some(size) = wgpu::BufferSize::new(bytes) else {
        return Ok(());
    };
    let mut view = queue
        .write_buffer_with(buf, offset, size)
        .ok_or_else(|| Error::Gpu {
            context: "upload".into(),
            message: "write_buffer_with refused".into(),
        })?;
    fill(view.slice(..));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msm::encode::{BASE_WORDS, SCALAR_WORDS};
    use ark_bn254::{Fr, G1Affine};
    type Bn = ark_bn254::g1::Config;
    use ark_std::UniformRand;

    /// `fill` of `items` writes exactly what `conv` gives, every byte once.
    fn fills_as_converted<T>(
        items: &[T],
        words: usize,
        conv: fn(&mut [u32], &[T]),
        fill: fn(WriteOnly<'_, [u8]>, &[T], Spread),
    ) -> bool {
        let mut want = vec![0u32; items.len() * words];
        conv(&mut want, items);
        let mut out = vec![0xA5u8; items.len() * words * 4];
        fill(
            WriteOnly::from(out.as_mut_slice()),
            items,
            Spread::of(&Tuning::default()),
        );
        out == bytemuck::cast_slice::<u32, u8>(&want)
    }

    #[test]
    fn pieces_fill_every_byte_once() {
        let mut rng = ark_std::test_rng();
        for n in [1usize, 7, 4096, 10_000] {
            let mut bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
            // Infinity among them: zeros either way.
            bases[n / 2] = G1Affine::identity();
            let scalars: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            assert!(
                fills_as_converted(&bases, BASE_WORDS, encode::write_bases, fill_bases),
                "bases, n = {n}"
            );
            assert!(
                fills_as_converted(
                    &scalars,
                    SCALAR_WORDS,
                    encode::write_scalars::<Bn>,
                    fill_scalars::<Bn>
                ),
                "scalars, n = {n}"
            );
        }
    }

    #[test]
    fn base_fast_path_matches_conversion() {
        let mut rng = ark_std::test_rng();
        let mut b: Vec<G1Affine> = (0..100).map(|_| G1Affine::rand(&mut rng)).collect();
        b[3] = G1Affine::identity();
        let mut words = vec![0u32; 100 * BASE_WORDS];
        encode::write_bases(&mut words, &b);
        let bytes = base_bytes(&b).expect("BN254 G1 affine points are their limbs");
        assert_eq!(bytes, bytemuck::cast_slice::<u32, u8>(&words));
    }

    #[test]
    fn scalar_fast_path_matches_conversion() {
        let mut rng = ark_std::test_rng();
        let s: Vec<Fr> = (0..100).map(|_| Fr::rand(&mut rng)).collect();
        let mut words = vec![0u32; 800];
        encode::write_scalars::<Bn>(&mut words, &s);
        if let Some(bytes) = scalar_bytes::<Bn>(&s) {
            assert_eq!(bytes, bytemuck::cast_slice::<u32, u8>(&words));
        }
    }

    #[test]
    fn devices_uploading_at_once_share_the_host_threads() {
        const H: usize = 24;
        let host = HostUploads {
            devices: AtomicUsize::new(0),
        };
        let devs: Vec<AtomicUsize> = (0..8).map(|_| AtomicUsize::new(0)).collect();
        assert_eq!(host.share(H), H);
        let a = host.begin(&devs[0]);
        // A device's second MSM does not count it twice.
        let a2 = host.begin(&devs[0]);
        assert_eq!(host.share(H), H);
        let b = host.begin(&devs[1]);
        assert_eq!(host.share(H), H / 2);
        let more: Vec<_> = devs[2..4].iter().map(|d| host.begin(d)).collect();
        assert_eq!(host.share(H), H / 4);
        // Another host total shares the same way.
        assert_eq!(host.share(8), 2);
        drop((a, b));
        // Device 0 still has an MSM running.
        assert_eq!(host.share(H), H / 3);
        drop(a2);
        assert_eq!(host.share(H), H / 2);
        let many: Vec<_> = devs.iter().map(|d| host.begin(d)).collect();
        assert_eq!(host.share(H), H / 8);
        drop((more, many));
        assert_eq!(host.devices.load(Ordering::Acquire), 0);
        // More devices than threads: each still gets one.
        let big: Vec<AtomicUsize> = (0..H + 5).map(|_| AtomicUsize::new(0)).collect();
        let all: Vec<_> = big.iter().map(|d| host.begin(d)).collect();
        assert_eq!(host.share(H), 1);
        drop(all);
    }
}
