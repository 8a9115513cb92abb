//! A small pool of idle device buffers of one kind (working sets, input arenas), so a
//! second MSM of the same shape allocates nothing, and the lease that hands them back.

use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Something kept in a [`Pool`], found again by its key (the shape it was sized for).
pub(crate) trait Pooled {
    /// What a later job must ask for to reuse it.
    type Key: PartialEq;
    /// This item's key.
    fn key(&self) -> Self::Key;
    /// Whether the item may serve another job (else it is dropped, not kept).
    fn reusable(&self) -> bool {
        true
    }
}

/// Idle items of one kind, the most recent few.
pub(crate) struct Pool<T> {
    idle: Mutex<Vec<T>>,
    keep: AtomicUsize,
}

impl<T: Pooled> Pool<T> {
    /// A pool keeping at most `keep` idle items.
    pub(crate) fn new(keep: usize) -> Pool<T> {
        Pool {
            idle: Mutex::new(Vec::new()),
            keep: AtomicUsize::new(keep),
        }
    }

    /// Keeps at most `keep` idle items from now on.
    pub(crate) fn set_keep(&self, keep: usize) {
        self.keep.store(keep, Ordering::Relaxed);
    }

    /// Drops every idle item (their device memory is freed once the device is done
    /// with them).
    pub(crate) fn clear(&self) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// An idle item with `key`, when there is one; else one made by `make`. Either way
    /// it comes back to the pool when the lease drops, however the job ends.
    pub(crate) fn lease<E>(
        &self,
        key: &T::Key,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<Lease<'_, T>, E> {
        let found = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.iter()
                .position(|t| t.key() == *key)
                .map(|i| idle.swap_remove(i))
        };
        let item = match found {
            Some(t) => t,
            None => {
                let t = crate::time::Instant::now();
                let item = make()?;
                log::debug!(
                    "pool: new {} in {:.2?} ({:?}, {} idle)",
                    std::any::type_name::<T>(),
                    t.elapsed(),
                    std::thread::current().id(),
                    self.idle.lock().map_or(0, |i| i.len()),
                );
                item
            }
        };
        Ok(Lease {
            pool: self,
            item: ManuallyDrop::new(item),
        })
    }

    fn put(&self, item: T) {
        if !item.reusable() {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        idle.push(item);
        if idle.len() > self.keep.load(Ordering::Relaxed) {
            idle.remove(0);
        }
    }
}

/// An item out of its pool for the length of one job.
pub(crate) struct Lease<'a, T: Pooled> {
    pool: &'a Pool<T>,
    item: ManuallyDrop<T>,
}

impl<T: Pooled> Deref for Lease<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.item
    }
}

impl<T: Pooled> Drop for Lease<'_, T> {
    fn drop(&mut self) {
        // SAFETY: `item` is taken once, here, and the lease is never used again.
        let item = unsafe { ManuallyDrop::take(&mut self.item) };
        self.pool.put(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Item(u32, u32);
    impl Pooled for Item {
        type Key = u32;
        fn key(&self) -> u32 {
            self.0
        }
    }

    #[test]
    fn leases_come_back_and_match_by_key() {
        let pool: Pool<Item> = Pool::new(2);
        let make = |k, id| move || Ok::<_, ()>(Item(k, id));
        drop(pool.lease(&1, make(1, 10)).unwrap());
        assert_eq!(pool.lease(&1, make(1, 11)).unwrap().1, 10, "reused");
        assert_eq!(
            pool.lease(&2, make(2, 20)).unwrap().1,
            20,
            "new key, new item"
        );
        drop(pool.lease(&3, make(3, 30)).unwrap());
        // Keeps the two most recent: 1 (back after its second lease) went first.
        assert_eq!(pool.lease(&1, make(1, 12)).unwrap().1, 12);
        assert!(pool.lease(&4, || Err(())).is_err());
        // Cleared: nothing to reuse.
        pool.clear();
        assert_eq!(pool.lease(&3, make(3, 31)).unwrap().1, 31);
    }
}
