//! Machine-wide figures computed the way the standard tools compute them: memory from
//! `/proc/meminfo` like procps-ng 4 `free`, disks from `statvfs(3)` like GNU `df`, CPU and
//! load from sysinfo. Pure parsers are separate from the reads so they test on planted text.

use std::collections::HashSet;
use std::ffi::CString;
use std::io;
use std::mem::MaybeUninit;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use sysinfo::Disks;

use super::{DiskStats, MemoryStats};

/// Pseudo and virtual file systems that are not storage the user cares about.
pub(super) const PSEUDO_FS: &[&str] = &[
    "tmpfs",
    "devtmpfs",
    "overlay",
    "overlayfs",
    "proc",
    "sysfs",
    "cgroup",
    "cgroup2",
    "devpts",
    "mqueue",
    "squashfs",
    "autofs",
    "debugfs",
    "tracefs",
    "securityfs",
    "pstore",
    "bpf",
    "configfs",
    "fusectl",
    "hugetlbfs",
    "nsfs",
    "ramfs",
    "rpc_pipefs",
    "binfmt_misc",
    "efivarfs",
    "selinuxfs",
    "fuse.lxcfs",
    "shm",
    "none",
    "nfsd",
    "aufs",
    "iso9660",
];

/// `part / total` in percent, rounded to one decimal (stable in JSON, enough for gauges).
pub(super) fn percent(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        ((part as f64 / total as f64) * 1000.0).round() / 10.0
    }
}

/// Memory as procps-ng 4 `free` computes it from `/proc/meminfo` (values there are KiB):
/// used = MemTotal - MemAvailable; buff/cache = Buffers + Cached + SReclaimable;
/// shared = Shmem; swap used = SwapTotal - SwapFree. Kernels without MemAvailable (< 3.14)
/// fall back to MemFree + buff/cache as the available estimate.
pub(super) fn parse_meminfo(text: &str) -> MemoryStats {
    let mut total = 0u64;
    let mut free = 0u64;
    let mut available: Option<u64> = None;
    let mut buffers = 0u64;
    let mut cached = 0u64;
    let mut reclaimable = 0u64;
    let mut shmem = 0u64;
    let mut swap_total = 0u64;
    let mut swap_free = 0u64;
    for line in text.lines() {
        let Some((key, rest)) = line.split_once(':') else {
            continue;
        };
        let mut parts = rest.split_whitespace();
        let Some(Ok(value)) = parts.next().map(str::parse::<u64>) else {
            continue;
        };
        // Every size line is in kB (really KiB); a line without the unit is a count.
        let bytes = match parts.next() {
            Some("kB") => value.saturating_mul(1024),
            _ => continue,
        };
        match key.trim() {
            "MemTotal" => total = bytes,
            "MemFree" => free = bytes,
            "MemAvailable" => available = Some(bytes),
            "Buffers" => buffers = bytes,
            "Cached" => cached = bytes,
            "SReclaimable" => reclaimable = bytes,
            "Shmem" => shmem = bytes,
            "SwapTotal" => swap_total = bytes,
            "SwapFree" => swap_free = bytes,
            _ => {}
        }
    }
    let buff_cache = buffers + cached + reclaimable;
    let available = available.unwrap_or(free + buff_cache).min(total);
    let used = total - available;
    let swap_free = swap_free.min(swap_total);
    MemoryStats {
        total_bytes: total,
        used_bytes: used,
        available_bytes: available,
        usage_percent: percent(used, total),
        free_bytes: free,
        shared_bytes: shmem,
        buff_cache_bytes: buff_cache,
        swap_total_bytes: swap_total,
        swap_used_bytes: swap_total - swap_free,
        swap_free_bytes: swap_free,
    }
}

/// Reads and parses `/proc/meminfo`.
pub(super) fn read_meminfo() -> io::Result<MemoryStats> {
    std::fs::read_to_string("/proc/meminfo").map(|t| parse_meminfo(&t))
}

/// The `statvfs(3)` fields `df` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FsBlocks {
    /// Fragment size (`f_frsize`): the unit of the block counts.
    pub frsize: u64,
    pub blocks: u64,
    /// Free blocks, including those reserved for root.
    pub bfree: u64,
    /// Blocks available to unprivileged users.
    pub bavail: u64,
}

/// `statvfs(3)` on a mount point.
pub(super) fn statvfs(path: &Path) -> io::Result<FsBlocks> {
    let c = CString::new(path.as_os_str().as_bytes())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let mut out = MaybeUninit::<libc::statvfs>::zeroed();
    // SAFETY: `c` is a valid NUL-terminated string and `out` points to writable memory of
    // the right type; statvfs only writes into it and we read it only on success.
    let rc = unsafe { libc::statvfs(c.as_ptr(), out.as_mut_ptr()) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: statvfs returned 0, so it filled the whole struct (and it was zeroed anyway).
    let st = unsafe { out.assume_init() };
    #[allow(clippy::unnecessary_cast)] // the field widths differ between libc targets
    Ok(FsBlocks {
        frsize: st.f_frsize as u64,
        blocks: st.f_blocks as u64,
        bfree: st.f_bfree as u64,
        bavail: st.f_bavail as u64,
    })
}

/// Size, used, available and Use% exactly as GNU `df` shows them: used = blocks - bfree,
/// available = bavail, Use% = ceil(used * 100 / (used + available)) (0 when both are 0).
pub(super) fn df_figures(b: FsBlocks) -> (u64, u64, u64, f64) {
    let used_blocks = b.blocks.saturating_sub(b.bfree);
    let total = b.blocks.saturating_mul(b.frsize);
    let used = used_blocks.saturating_mul(b.frsize);
    let avail = b.bavail.saturating_mul(b.frsize);
    let denom = u128::from(used_blocks) + u128::from(b.bavail);
    let pct = if denom == 0 {
        0
    } else {
        (u128::from(used_blocks) * 100).div_ceil(denom)
    };
    (total, used, avail, pct as f64)
}

/// One `DiskStats` per real file system sysinfo lists, with df's figures from statvfs.
pub(super) fn collect_disks(disks: &Disks) -> Vec<DiskStats> {
    let mut seen = HashSet::new();
    let mut all: Vec<DiskStats> = Vec::new();
    let mut root_fallback = None;
    for d in disks.list() {
        let fs = d.file_system().to_string_lossy().to_string();
        let mount = d.mount_point().display().to_string();
        let blocks = match statvfs(d.mount_point()) {
            Ok(b) => b,
            Err(e) => {
                tracing::debug!(mount = %mount, "statvfs failed: {e}");
                continue;
            }
        };
        let (total, used, avail, pct) = df_figures(blocks);
        let stats = DiskStats {
            mount: mount.clone(),
            fs: fs.clone(),
            total_bytes: total,
            used_bytes: used,
            available_bytes: avail,
            usage_percent: pct,
        };
        if mount == "/" {
            root_fallback = Some(stats.clone());
        }
        if total == 0 || PSEUDO_FS.contains(&fs.as_str()) {
            continue;
        }
        // Bind mounts show the same device several times: keep the first (shortest path
        // sorts first below).
        let key = d.name().to_string_lossy().to_string();
        let key = if key.is_empty() { mount.clone() } else { key };
        if seen.insert(key) {
            all.push(stats);
        }
    }
    // In a container `/` is often overlay: still report it rather than nothing.
    if all.is_empty() {
        all.extend(root_fallback);
    }
    all.sort_by(|a, b| {
        a.mount
            .len()
            .cmp(&b.mount.len())
            .then(a.mount.cmp(&b.mount))
    });
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    const MEMINFO: &str = "\
MemTotal:       16000000 kB
MemFree:         2000000 kB
MemAvailable:    9000000 kB
Buffers:          100000 kB
Cached:          5000000 kB
SwapCached:            0 kB
Shmem:            300000 kB
SReclaimable:     400000 kB
SUnreclaim:        50000 kB
SwapTotal:       4000000 kB
SwapFree:        3000000 kB
HugePages_Total:       0
";

    #[test]
    fn tools_sys_monitor_meminfo_parsed_like_free() {
        let m = parse_meminfo(MEMINFO);
        assert_eq!(m.total_bytes, 16_000_000 * 1024);
        assert_eq!(m.available_bytes, 9_000_000 * 1024);
        assert_eq!(m.used_bytes, 7_000_000 * 1024);
        assert_eq!(m.free_bytes, 2_000_000 * 1024);
        assert_eq!(m.shared_bytes, 300_000 * 1024);
        assert_eq!(m.buff_cache_bytes, 5_500_000 * 1024);
        assert_eq!(m.swap_total_bytes, 4_000_000 * 1024);
        assert_eq!(m.swap_used_bytes, 1_000_000 * 1024);
        assert_eq!(m.swap_free_bytes, 3_000_000 * 1024);
        assert_eq!(m.usage_percent, 43.8);
        // Without MemAvailable (old kernels): free + buff/cache.
        let old: String = MEMINFO
            .lines()
            .filter(|l| !l.starts_with("MemAvailable"))
            .map(|l| format!("{l}\n"))
            .collect();
        let m = parse_meminfo(&old);
        assert_eq!(m.available_bytes, 7_500_000 * 1024);
        assert_eq!(m.used_bytes, 8_500_000 * 1024);
    }

    /// `free -b` columns of the Mem: and Swap: lines.
    fn free_b() -> (Vec<u64>, Vec<u64>) {
        let out = Command::new("free").arg("-b").output().expect("free runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let nums = |prefix: &str| -> Vec<u64> {
            text.lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("{prefix} in {text}"))
                .split_whitespace()
                .skip(1)
                .map(|n| n.parse().expect("number"))
                .collect()
        };
        (nums("Mem:"), nums("Swap:"))
    }

    #[test]
    fn tools_sys_monitor_memory_matches_free() {
        let version = Command::new("free").arg("-V").output().expect("free -V");
        let version = String::from_utf8_lossy(&version.stdout).to_string();
        // procps-ng 4 computes used = total - available, which is what we report.
        assert!(version.contains("procps-ng 4"), "{version}");
        let (mem, swap) = free_b();
        let m = read_meminfo().expect("meminfo");
        let (mem2, _) = free_b();
        // The machine moves between the reads: compare within 64 MiB.
        let tol = 64 << 20;
        let close = |ours: u64, a: u64, b: u64, what: &str| {
            let lo = a.min(b).saturating_sub(tol);
            let hi = a.max(b) + tol;
            assert!(
                (lo..=hi).contains(&ours),
                "{what}: ours {ours}, free {a}/{b}"
            );
        };
        assert_eq!(m.total_bytes, mem[0], "total is exact");
        close(m.used_bytes, mem[1], mem2[1], "used");
        close(m.free_bytes, mem[2], mem2[2], "free");
        close(m.shared_bytes, mem[3], mem2[3], "shared");
        close(m.buff_cache_bytes, mem[4], mem2[4], "buff/cache");
        close(m.available_bytes, mem[5], mem2[5], "available");
        assert_eq!(m.swap_total_bytes, swap[0]);
        close(m.swap_used_bytes, swap[1], swap[1], "swap used");
    }

    #[test]
    fn tools_sys_monitor_df_rounding() {
        // 1000 blocks, 300 free, 250 available to users: used 700, Use% ceil(700/950) = 74.
        let b = FsBlocks {
            frsize: 4096,
            blocks: 1000,
            bfree: 300,
            bavail: 250,
        };
        assert_eq!(df_figures(b), (4_096_000, 2_867_200, 1_024_000, 74.0));
        // Exact percentages are not rounded up.
        let b = FsBlocks {
            frsize: 1,
            blocks: 100,
            bfree: 50,
            bavail: 50,
        };
        assert_eq!(df_figures(b).3, 50.0);
        let empty = FsBlocks {
            frsize: 4096,
            blocks: 0,
            bfree: 0,
            bavail: 0,
        };
        assert_eq!(df_figures(empty), (0, 0, 0, 0.0));
    }

    /// `df -B1 --output=size,used,avail,pcent PATH` as numbers (pcent without `%`).
    fn df(path: &str) -> [u64; 4] {
        let out = Command::new("df")
            .args(["-B1", "--output=size,used,avail,pcent", path])
            .output()
            .expect("df runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text.lines().nth(1).unwrap_or_else(|| panic!("df: {text}"));
        let v: Vec<u64> = line
            .split_whitespace()
            .map(|n| n.trim_end_matches('%').parse().expect("number"))
            .collect();
        [v[0], v[1], v[2], v[3]]
    }

    #[test]
    fn tools_sys_monitor_root_disk_matches_df() {
        let before = df("/");
        let (total, used, avail, pct) = df_figures(statvfs(Path::new("/")).expect("statvfs"));
        let after = df("/");
        assert_eq!(total, before[0], "size is exact");
        // Other processes write between the calls: allow 8 MiB of movement.
        let tol = 8 << 20;
        let within = |ours: u64, a: u64, b: u64| {
            a.min(b).saturating_sub(tol) <= ours && ours <= a.max(b) + tol
        };
        assert!(
            within(used, before[1], after[1]),
            "used {used} vs {before:?}"
        );
        assert!(
            within(avail, before[2], after[2]),
            "avail {avail} vs {before:?}"
        );
        let p = pct as u64;
        assert!(
            (before[3].min(after[3]).saturating_sub(1)..=before[3].max(after[3]) + 1).contains(&p),
            "use% {p} vs {before:?}"
        );
        // The sampler's list carries the same figures for `/` (or the disk holding it).
        let disks = collect_disks(&Disks::new_with_refreshed_list());
        if let Some(root) = disks.iter().find(|d| d.mount == "/") {
            assert_eq!(root.total_bytes, before[0]);
            assert!(within(root.used_bytes, before[1], after[1]), "{root:?}");
        }
    }
}
