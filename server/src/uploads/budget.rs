//! Temp space of uploads in progress: each upload reserves its announced size at its start
//! (UPLOAD_START, UPLOAD_RDT_START, FILE_METADATA) against a total budget and a budget per
//! client (a remote address, all loopback TCP clients together, or one local user), and is
//! refused while the data directory's filesystem would keep less than the free-space floor,
//! so half-finished uploads can neither fill the disk nor put history writes at risk. The
//! reservation is given back when the upload is saved, refused or dropped.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::UploadError;
use crate::config::UploadGuard;
use crate::peer::PeerKey;

/// Free and total bytes of the filesystem holding a path.
pub trait FreeSpace: Send + Sync {
    fn space(&self, path: &Path) -> std::io::Result<(u64, u64)>;
}

/// The real filesystem (`statvfs`): bytes available to unprivileged users, and its size.
pub struct StatVfs;

impl FreeSpace for StatVfs {
    fn space(&self, path: &Path) -> std::io::Result<(u64, u64)> {
        let st = nix::sys::statvfs::statvfs(path).map_err(std::io::Error::from)?;
        let frag = st.fragment_size();
        Ok((
            st.blocks_available().saturating_mul(frag),
            st.blocks().saturating_mul(frag),
        ))
    }
}

#[derive(Default)]
struct Used {
    total: u64,
    per: HashMap<PeerKey, u64>,
}

/// The temp-space budget (cheap to clone).
#[derive(Clone)]
pub struct TempBudget {
    inner: Arc<Inner>,
}

struct Inner {
    guard: UploadGuard,
    dir: PathBuf,
    space: Box<dyn FreeSpace>,
    used: Mutex<Used>,
}

/// One upload's reservation; dropping it gives the space back.
pub struct TempHold {
    inner: Arc<Inner>,
    key: PeerKey,
    bytes: u64,
}

impl std::fmt::Debug for TempHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TempHold")
            .field("key", &self.key)
            .field("bytes", &self.bytes)
            .finish()
    }
}

fn lock(m: &Mutex<Used>) -> MutexGuard<'_, Used> {
    // A poisoned lock only means a panic elsewhere mid-update of plain counters.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl TempBudget {
    /// The budget of `guard` for uploads whose temp files live on `dir`'s filesystem.
    pub fn new(guard: UploadGuard, dir: &Path) -> TempBudget {
        Self::with_space(guard, dir, Box::new(StatVfs))
    }

    pub fn with_space(guard: UploadGuard, dir: &Path, space: Box<dyn FreeSpace>) -> TempBudget {
        TempBudget {
            inner: Arc::new(Inner {
                guard,
                dir: dir.to_path_buf(),
                space,
                used: Mutex::default(),
            }),
        }
    }

    /// Reserves `bytes` for an upload of `key`, or says which limit refuses it.
    pub fn reserve(&self, key: PeerKey, bytes: u64) -> Result<TempHold, UploadError> {
        let g = &self.inner.guard;
        let mut used = lock(&self.inner.used);
        let mine = used.per.get(&key).copied().unwrap_or(0);
        if mine.saturating_add(bytes) > g.temp_per_client {
            return Err(UploadError::TempBudget {
                client: true,
                used: mine,
                limit: g.temp_per_client,
            });
        }
        if used.total.saturating_add(bytes) > g.temp_total {
            return Err(UploadError::TempBudget {
                client: false,
                used: used.total,
                limit: g.temp_total,
            });
        }
        match self.inner.space.space(&self.inner.dir) {
            Ok((free, size)) => {
                // A tenth of a small filesystem at most, so a test tmpfs can still be used.
                let floor = g.free_floor.min(size / 10);
                if free < floor.saturating_add(bytes) {
                    return Err(UploadError::DiskLow { free, floor });
                }
            }
            // Unknown free space: the budgets still bound what uploads can take.
            Err(e) => tracing::warn!(dir = %self.inner.dir.display(), "free space unknown: {e}"),
        }
        used.total += bytes;
        *used.per.entry(key).or_insert(0) += bytes;
        Ok(TempHold {
            inner: self.inner.clone(),
            key,
            bytes,
        })
    }

    /// Bytes now reserved, in all and for `key`.
    pub fn used(&self, key: PeerKey) -> (u64, u64) {
        let used = lock(&self.inner.used);
        (used.total, used.per.get(&key).copied().unwrap_or(0))
    }
}

impl Drop for TempHold {
    fn drop(&mut self) {
        let mut used = lock(&self.inner.used);
        used.total = used.total.saturating_sub(self.bytes);
        if let Some(n) = used.per.get_mut(&self.key) {
            *n = n.saturating_sub(self.bytes);
            if *n == 0 {
                used.per.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A filesystem with fixed free space and size.
    struct Fixed(u64, u64);

    impl FreeSpace for Fixed {
        fn space(&self, _: &Path) -> std::io::Result<(u64, u64)> {
            Ok((self.0, self.1))
        }
    }

    const MIB: u64 = 1 << 20;

    fn budget(free: u64, size: u64) -> TempBudget {
        let guard = UploadGuard {
            stall: std::time::Duration::from_secs(60),
            temp_total: 100 * MIB,
            temp_per_client: 40 * MIB,
            free_floor: 256 * MIB,
        };
        TempBudget::with_space(guard, Path::new("/"), Box::new(Fixed(free, size)))
    }

    #[test]
    fn one_client_cannot_take_more_than_its_share_nor_all_together_the_total() {
        let b = budget(100_000 * MIB, 1_000_000 * MIB);
        let alice = PeerKey::User(1001);
        let holds: Vec<TempHold> = (0..4)
            .map(|_| b.reserve(alice, 10 * MIB).expect("within the share"))
            .collect();
        match b.reserve(alice, MIB) {
            Err(e @ UploadError::TempBudget { client: true, .. }) => {
                assert_eq!(e.code(), "temp_budget");
                assert!(e.message().contains("40.0 MiB"), "{}", e.message());
            }
            other => panic!("expected the client budget, got {other:?}"),
        }
        // Others still have room, up to the total.
        let _b1 = b.reserve(PeerKey::User(1002), 40 * MIB).expect("bob");
        let _b2 = b.reserve(PeerKey::Loopback, 20 * MIB).expect("loopback");
        assert!(matches!(
            b.reserve(PeerKey::User(1003), MIB),
            Err(UploadError::TempBudget { client: false, .. })
        ));
        // A finished upload gives its space back.
        drop(holds);
        assert_eq!(b.used(alice), (60 * MIB, 0));
        b.reserve(alice, 10 * MIB).expect("room again");
    }

    #[test]
    fn the_free_space_floor_refuses_before_the_disk_is_full() {
        // 290 MiB free on a large disk: a 36 MiB upload would leave 254 < 256.
        let b = budget(290 * MIB, 1_000_000 * MIB);
        match b.reserve(PeerKey::Loopback, 36 * MIB) {
            Err(e @ UploadError::DiskLow { .. }) => {
                assert_eq!(e.code(), "disk_low");
                assert!(e.message().contains("256.0 MiB"), "{}", e.message());
            }
            other => panic!("expected DiskLow, got {other:?}"),
        }
        b.reserve(PeerKey::Loopback, 30 * MIB)
            .expect("leaves 260 MiB");
        // On a 24 MiB filesystem the floor is a tenth of it (2.4 MiB), not 256 MiB.
        let small = budget(10 * MIB, 24 * MIB);
        small
            .reserve(PeerKey::Loopback, 5 * MIB)
            .expect("small disk");
        assert!(small.reserve(PeerKey::Loopback, 8 * MIB).is_err());
    }
}
