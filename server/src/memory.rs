//! Returning memory to the OS after bursts: glibc malloc tuning at start-up, so large
//! buffers (fragment reassembly, upload and read buffers) are mapped on their own and
//! unmapped when freed instead of staying in an arena after a hostile peer is gone.

/// Allocations of at least this many bytes get their own mapping, returned on free.
pub const MMAP_THRESHOLD: usize = 256 * 1024;

/// glibc malloc arenas at most. By default up to 8 per core, one per busy thread: the
/// blocking pool's threads (file writes, indexing) each filled and kept their own, so
/// freed upload memory stayed spread over many partly used arenas.
/// (2 measured the same as 4 on 30 concurrent uploads; mimalloc instead of glibc raised
/// the idle level from 54 to 71-97 MB and kept more after the load; jemalloc with a
/// background purge after 1 s raised idle heap from 40 to 44 MB and kept 24 MB, not 13,
/// after the load.)
pub const ARENA_MAX: usize = 4;

/// glibc tunable set for the server process: no per-thread cache of freed small blocks.
/// Each thread's cache keeps up to 7 freed blocks per size class (24 B to 1 KiB) as "in
/// use", out of reach of `malloc_trim`, scattered over the arenas' pages; after 30
/// concurrent 9 MB uploads and their deletion those pinned about 10 MB of pages (heap 52 MB
/// against 40 MB idle; with the cache off, 42 MB).
pub const TCACHE_TUNABLE: &str = "glibc.malloc.tcache_count=0";

/// Re-executes this binary with [`TCACHE_TUNABLE`] in `GLIBC_TUNABLES` unless it is there
/// already: glibc reads tunables only when a process starts (`mallopt` has no tcache
/// option). `exec` keeps the pid, arguments and the rest of the environment. Call first in
/// `main`, before any thread starts. Returns when nothing was to do, or when the exec
/// failed (said on stderr; the server then runs with the cache).
pub fn reexec_without_tcache() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        let current = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
        let Some(tunables) = with_tcache_off(&current) else {
            return;
        };
        let mut args = std::env::args_os();
        let argv0 = args.next().unwrap_or_else(|| "llmops-server".into());
        // The binary's own path, so the process keeps its name (`ps`, `pgrep
        // llmops-server`); /proc/self/exe (this very file, even if its path was replaced
        // since) only when that path is gone, at the cost of the name `exe`.
        let exe = std::env::current_exe()
            .ok()
            .filter(|p| p.is_file())
            .unwrap_or_else(|| "/proc/self/exe".into());
        let err = std::process::Command::new(exe)
            .arg0(argv0)
            .args(args)
            .env("GLIBC_TUNABLES", tunables)
            .exec();
        eprintln!(
            "llmops-server: cannot restart with {TCACHE_TUNABLE} ({err}); freed memory may stay in per-thread caches"
        );
    }
}

/// `GLIBC_TUNABLES` with the cache off, keeping the operator's own tunables; `None` when
/// it is off already.
fn with_tcache_off(current: &str) -> Option<String> {
    if current.split(':').any(|t| t == TCACHE_TUNABLE) {
        return None;
    }
    Some(if current.is_empty() {
        TCACHE_TUNABLE.to_string()
    } else {
        format!("{current}:{TCACHE_TUNABLE}")
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tcache_tunable_is_added_once_and_keeps_the_operators_own() {
        assert_eq!(with_tcache_off("").as_deref(), Some(TCACHE_TUNABLE));
        assert_eq!(
            with_tcache_off("glibc.malloc.trim_threshold=131072").as_deref(),
            Some("glibc.malloc.trim_threshold=131072:glibc.malloc.tcache_count=0")
        );
        assert_eq!(with_tcache_off(TCACHE_TUNABLE), None);
        assert_eq!(
            with_tcache_off("glibc.malloc.tcache_count=0:glibc.malloc.mxfast=0"),
            None
        );
        // A different count is the operator's choice to override: ours comes last and wins.
        assert_eq!(
            with_tcache_off("glibc.malloc.tcache_count=3").as_deref(),
            Some("glibc.malloc.tcache_count=3:glibc.malloc.tcache_count=0")
        );
    }
}
