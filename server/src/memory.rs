//! Returning memory to the OS after bursts: glibc malloc tuning at start-up, so large
//! buffers (fragment reassembly, upload and read buffers) are mapped on their own and
//! unmapped when freed instead of staying in an arena after a hostile peer is gone.

/// Allocations of at least this many bytes get their own mapping, returned on free.
pub const MMAP_THRESHOLD: usize = 256 * 1024;

/// glibc malloc arenas at most. By default up to 8 per core, one per busy thread: the
/// blocking pool's threads (file writes, indexing) each filled and kept their own, so
/// freed upload memory stayed spread over many partly used arenas (issue 16, finding 3).
/// (2 measured the same as 4 on 30 concurrent uploads; mimalloc instead of glibc raised
/// the idle level from 54 to 71-97 MB and kept more after the load.)
pub const ARENA_MAX: usize = 4;

/// Fixes glibc's mmap threshold (setting it also turns off the dynamic threshold, which
/// otherwise climbs to 32 MiB after the first large free and keeps later buffers in arenas
/// for good). Call once, before threads start. A no-op on other C libraries.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only changes malloc parameters; called before other threads run.
        let ok = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD as libc::c_int) };
        if ok != 1 {
            eprintln!("llmops-server: mallopt(M_MMAP_THRESHOLD) refused; large buffers may be kept after bursts");
        }
        // SAFETY: as above.
        let ok = unsafe { libc::mallopt(libc::M_ARENA_MAX, ARENA_MAX as libc::c_int) };
        if ok != 1 {
            eprintln!(
                "llmops-server: mallopt(M_ARENA_MAX) refused; freed memory may stay in many arenas"
            );
        }
    }
}

/// Gives free arena memory back to the OS (after a burst of large frees). Cheap when
/// there is nothing to give back.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks malloc's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Trims at most once per period after connections that may have held large buffers
/// closed, so a burst of closes costs one trim, not one per connection.
#[derive(Debug, Default)]
pub struct Trimmer {
    wanted: std::sync::atomic::AtomicBool,
}

impl Trimmer {
    /// Asks for a trim at the next tick.
    pub fn request(&self) {
        self.wanted
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Trims once per `period` when asked to, until `shutdown`.
    pub async fn run(
        self: std::sync::Arc<Self>,
        period: std::time::Duration,
        shutdown: tokio_util::sync::CancellationToken,
    ) {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = tick.tick() => {}
            }
            if self
                .wanted
                .swap(false, std::sync::atomic::Ordering::Relaxed)
            {
                if let Err(e) = tokio::task::spawn_blocking(trim).await {
                    tracing::warn!("malloc_trim task failed: {e}");
                }
            }
        }
    }
}
