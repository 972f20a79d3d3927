//! Network and disk I/O rates from the kernel's cumulative counters: `/proc/net/dev` (bytes
//! received and sent per interface) and `/proc/diskstats` (sectors read and written per
//! block device, 512 bytes each whatever the device's block size). A rate is the counter's
//! delta over the wall time between two samples, as `sar -n DEV` and `iostat` compute it.
//! Totals leave out what would count the same bytes twice: the loopback interface (traffic
//! that never leaves the machine), and loop, ram and zram devices and stacked devices
//! (device-mapper, md) whose I/O is already counted on the disks below them.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use protocol::{DiskDevice, DiskIo, NetInterface, NetIo};

/// Bytes per `/proc/diskstats` sector (fixed by the kernel, not the device's sector size).
pub const DISKSTATS_SECTOR: u64 = 512;

/// One interface's cumulative counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NetCounters {
    pub name: String,
    pub rx_bytes: u64,
    pub tx_bytes: u64,
}

/// One block device's cumulative counters, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DiskCounters {
    pub name: String,
    pub read_bytes: u64,
    pub written_bytes: u64,
}

/// Parses `/proc/net/dev`: after two header lines, `name: rx_bytes rx_packets ... (8
/// receive fields) tx_bytes ...`.
pub(super) fn parse_net_dev(text: &str) -> Vec<NetCounters> {
    text.lines()
        .filter_map(|line| {
            let (name, rest) = line.split_once(':')?;
            let f: Vec<u64> = rest
                .split_whitespace()
                .map(|x| x.parse().ok())
                .collect::<Option<Vec<u64>>>()?;
            Some(NetCounters {
                name: name.trim().to_string(),
                rx_bytes: *f.first()?,
                tx_bytes: *f.get(8)?,
            })
        })
        .collect()
}

/// Parses `/proc/diskstats`: `major minor name reads merged sectors_read ms writes merged
/// sectors_written ...` (proc(5), iostats.rst).
pub(super) fn parse_diskstats(text: &str) -> Vec<DiskCounters> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let num = |i: usize| f.get(i).and_then(|s| s.parse::<u64>().ok());
            Some(DiskCounters {
                name: (*f.get(2)?).to_string(),
                read_bytes: num(5)?.saturating_mul(DISKSTATS_SECTOR),
                written_bytes: num(9)?.saturating_mul(DISKSTATS_SECTOR),
            })
        })
        .collect()
}

/// Whether a block device's I/O counts in the totals: a whole disk (listed in
/// `/sys/block`, not a partition) that is not a loop, ram or zram device and does not sit
/// on other devices (its `slaves` folder is empty).
pub(super) fn counted_disk(sys_block: &Path, name: &str) -> bool {
    const VIRTUAL: [&str; 3] = ["loop", "ram", "zram"];
    if VIRTUAL.iter().any(|p| name.starts_with(p)) {
        return false;
    }
    let dir = sys_block.join(name);
    if !dir.exists() {
        return false;
    }
    std::fs::read_dir(dir.join("slaves")).map_or(true, |mut d| d.next().is_none())
}

/// `delta / secs`, 0 when the counter went backwards (a reset or a new device).
fn rate(now: u64, before: u64, secs: f64) -> u64 {
    if secs <= 0.0 || now < before {
        return 0;
    }
    ((now - before) as f64 / secs).round() as u64
}

/// Keeps the previous sample of each counter to turn the next one into rates.
#[derive(Debug, Default)]
pub(super) struct IoMeter {
    last: Option<Instant>,
    net: HashMap<String, (u64, u64)>,
    disk: HashMap<String, (u64, u64)>,
    /// Devices the disk totals count, re-read with the disk list.
    counted: Vec<String>,
}

impl IoMeter {
    /// Re-reads which block devices count (`/sys/block`); the list changes rarely.
    pub fn relist(&mut self, sys_block: &Path) {
        let Ok(dir) = std::fs::read_dir(sys_block) else {
            self.counted.clear();
            return;
        };
        let mut names: Vec<String> = dir
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| counted_disk(sys_block, n))
            .collect();
        names.sort();
        self.counted = names;
    }

    /// Rates since the previous call from counters read `now` (all zero the first time).
    pub fn sample(
        &mut self,
        now: Instant,
        net: &[NetCounters],
        disks: &[DiskCounters],
    ) -> (NetIo, DiskIo) {
        let secs = self
            .last
            .map_or(0.0, |t| now.saturating_duration_since(t).as_secs_f64());
        let mut ns = NetIo::default();
        let mut next_net = HashMap::with_capacity(net.len());
        for c in net {
            let (rx0, tx0) = self
                .net
                .get(&c.name)
                .copied()
                .unwrap_or((c.rx_bytes, c.tx_bytes));
            let iface = NetInterface {
                name: c.name.clone(),
                rx_bytes: c.rx_bytes,
                tx_bytes: c.tx_bytes,
                rx_bytes_per_sec: rate(c.rx_bytes, rx0, secs),
                tx_bytes_per_sec: rate(c.tx_bytes, tx0, secs),
                loopback: c.name == "lo",
            };
            if !iface.loopback {
                ns.rx_bytes_per_sec += iface.rx_bytes_per_sec;
                ns.tx_bytes_per_sec += iface.tx_bytes_per_sec;
            }
            next_net.insert(c.name.clone(), (c.rx_bytes, c.tx_bytes));
            ns.interfaces.push(iface);
        }
        let mut ds = DiskIo::default();
        let mut next_disk = HashMap::with_capacity(self.counted.len());
        for c in disks.iter().filter(|c| self.counted.contains(&c.name)) {
            let (r0, w0) = self
                .disk
                .get(&c.name)
                .copied()
                .unwrap_or((c.read_bytes, c.written_bytes));
            let dev = DiskDevice {
                name: c.name.clone(),
                read_bytes: c.read_bytes,
                written_bytes: c.written_bytes,
                read_bytes_per_sec: rate(c.read_bytes, r0, secs),
                write_bytes_per_sec: rate(c.written_bytes, w0, secs),
            };
            ds.read_bytes_per_sec += dev.read_bytes_per_sec;
            ds.write_bytes_per_sec += dev.write_bytes_per_sec;
            next_disk.insert(c.name.clone(), (c.read_bytes, c.written_bytes));
            ds.devices.push(dev);
        }
        self.net = next_net;
        self.disk = next_disk;
        self.last = Some(now);
        (ns, ds)
    }
}

/// Reads both counter files (a missing one reads as no devices).
pub(super) fn read_counters() -> (Vec<NetCounters>, Vec<DiskCounters>) {
    let net = std::fs::read_to_string("/proc/net/dev")
        .map(|t| parse_net_dev(&t))
        .unwrap_or_else(|e| {
            tracing::debug!("cannot read /proc/net/dev: {e}");
            Vec::new()
        });
    let disks = std::fs::read_to_string("/proc/diskstats")
        .map(|t| parse_diskstats(&t))
        .unwrap_or_else(|e| {
            tracing::debug!("cannot read /proc/diskstats: {e}");
            Vec::new()
        });
    (net, disks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const NET_DEV: &str = "\
Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
  eth0: 5000000   4000    0    0    0     0          0         0  2000000    3000    0    0    0     0       0          0
";

    const DISKSTATS: &str = "\
   7       0 loop0 10 0 80 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 253       0 vda 9000 10 200000 3000 5000 20 400000 9000 0 9000 12000 0 0 0 0 0 0
 253       1 vda1 8000 10 190000 3000 4000 20 390000 9000 0 9000 12000 0 0 0 0 0 0
 252       0 dm-0 100 0 2000 10 100 0 2000 10 0 20 20 0 0 0 0
";

    #[test]
    fn tools_sys_monitor_parses_net_dev_and_diskstats() {
        let n = parse_net_dev(NET_DEV);
        assert_eq!(n.len(), 2, "headers are skipped: {n:?}");
        assert_eq!(
            n[1],
            NetCounters {
                name: "eth0".into(),
                rx_bytes: 5_000_000,
                tx_bytes: 2_000_000
            }
        );
        let d = parse_diskstats(DISKSTATS);
        assert_eq!(d.len(), 4);
        assert_eq!(d[1].name, "vda");
        assert_eq!(d[1].read_bytes, 200_000 * 512);
        assert_eq!(d[1].written_bytes, 400_000 * 512);
        assert!(parse_diskstats("8 0 sda x").is_empty());
    }

    #[test]
    fn tools_sys_monitor_rates_are_deltas_over_the_interval_without_double_counting() {
        let mut m = IoMeter {
            counted: vec!["vda".into()],
            ..IoMeter::default()
        };
        let t0 = Instant::now();
        let net0 = parse_net_dev(NET_DEV);
        let disk0 = parse_diskstats(DISKSTATS);
        let (n, d) = m.sample(t0, &net0, &disk0);
        assert_eq!((n.rx_bytes_per_sec, d.write_bytes_per_sec), (0, 0), "first");
        // Two seconds later: eth0 got 1 MB and sent 200 kB, lo 4 kB; vda wrote 2048 sectors.
        let mut net1 = net0.clone();
        net1[0].rx_bytes += 4000;
        net1[1].rx_bytes += 1_000_000;
        net1[1].tx_bytes += 200_000;
        let mut disk1 = disk0.clone();
        disk1[1].written_bytes += 2048 * 512;
        disk1[2].written_bytes += 2048 * 512; // the partition: not counted again
        disk1[0].read_bytes += 1 << 20; // a loop device: not counted
        let (n, d) = m.sample(t0 + Duration::from_secs(2), &net1, &disk1);
        assert_eq!(n.rx_bytes_per_sec, 500_000, "lo is not in the total");
        assert_eq!(n.tx_bytes_per_sec, 100_000);
        let lo = n.interfaces.iter().find(|i| i.name == "lo").expect("lo");
        assert!(lo.loopback);
        assert_eq!(lo.rx_bytes_per_sec, 2000, "lo is listed with its own rate");
        assert_eq!(d.devices.len(), 1);
        assert_eq!(d.write_bytes_per_sec, 2048 * 512 / 2);
        assert_eq!(d.read_bytes_per_sec, 0);
        // A counter that goes backwards (a reset) is a zero rate, not a huge one.
        let (n, _) = m.sample(t0 + Duration::from_secs(3), &net0, &disk1);
        assert_eq!(n.rx_bytes_per_sec, 0);
    }

    #[test]
    fn tools_sys_monitor_counts_whole_disks_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let b = dir.path();
        for (name, slave) in [("vda", None), ("dm-0", Some("vda2")), ("loop0", None)] {
            std::fs::create_dir_all(b.join(name).join("slaves")).expect("mkdir");
            if let Some(s) = slave {
                std::fs::create_dir_all(b.join(name).join("slaves").join(s)).expect("mkdir");
            }
        }
        assert!(counted_disk(b, "vda"));
        assert!(!counted_disk(b, "dm-0"), "stacked on vda2");
        assert!(!counted_disk(b, "loop0"));
        assert!(!counted_disk(b, "vda1"), "a partition is not in /sys/block");
        let mut m = IoMeter::default();
        m.relist(b);
        assert_eq!(m.counted, vec!["vda".to_string()]);
    }
}
