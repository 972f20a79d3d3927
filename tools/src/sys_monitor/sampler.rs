//! The one background sampler: refreshes the machine's figures off the runtime (on the
//! blocking pool) and publishes each `Snapshot` on a watch channel, with the full process
//! table and the recent history on two more, so the tool and every client's gauge stream
//! read the same sample and nothing samples twice.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sysinfo::{Disks, System, MINIMUM_CPU_UPDATE_INTERVAL};
use tokio::sync::{watch, Notify};

use super::history::{History, HistoryPoint, HISTORY_POINTS};
use super::io::{self, IoMeter};
use super::procs::{self, ProcessTable, SNAPSHOT_TOP};
use super::{sample as figures, CpuStats, MemoryStats, Snapshot};

/// What the sampler keeps between refreshes.
struct Machine {
    sys: System,
    disks: Disks,
    procs: procs::ProcScanner,
    io: IoMeter,
    history: History,
}

fn one_decimal(x: f32) -> f32 {
    (x * 10.0).round() / 10.0
}

fn memory() -> MemoryStats {
    figures::read_meminfo().unwrap_or_else(|e| {
        tracing::debug!("cannot read /proc/meminfo ({e}); using sysinfo");
        let mut sys = System::new();
        sys.refresh_memory();
        let total = sys.total_memory();
        let available = sys.available_memory().min(total);
        MemoryStats {
            total_bytes: total,
            used_bytes: total - available,
            available_bytes: available,
            usage_percent: figures::percent(total - available, total),
            ..MemoryStats::default()
        }
    })
}

fn sample(m: &mut Machine, seq: u64, relist_disks: bool) -> (Snapshot, ProcessTable) {
    let sys = &mut m.sys;
    sys.refresh_cpu_all();
    if relist_disks {
        m.disks.refresh_list();
        m.io.relist(Path::new("/sys/block"));
    }
    let cpus = sys.cpus();
    let cores = cpus.len();
    let freq = if cpus.is_empty() {
        0
    } else {
        cpus.iter().map(|c| c.frequency()).sum::<u64>() / cores as u64
    };
    let per_core: Vec<f32> = cpus.iter().map(|c| one_decimal(c.cpu_usage())).collect();
    let cpu_usage = one_decimal(sys.global_cpu_usage());
    let load = System::load_average();
    let memory = memory();
    let (net_counters, disk_counters) = io::read_counters();
    let (net, disk_io) = m.io.sample(Instant::now(), &net_counters, &disk_counters);
    let table = m.procs.scan(seq, memory.total_bytes);
    let now = chrono::Local::now();
    let snap = Snapshot {
        seq,
        taken_at: now.to_rfc3339(),
        cpu: CpuStats {
            usage_percent: cpu_usage,
            cores,
            frequency_mhz: freq,
            load_avg: [load.one, load.five, load.fifteen],
            per_core,
        },
        memory,
        disks: figures::collect_disks(&m.disks),
        process_count: table.processes.len(),
        top_processes: procs::top_union(&table.processes, SNAPSHOT_TOP),
        net,
        disk_io,
        interval_ms: table.interval_ms,
    };
    // The first sample has no interval to measure CPU or rates over: not a point.
    if seq >= 1 {
        m.history.push(HistoryPoint {
            ts_ms: u64::try_from(now.timestamp_millis()).unwrap_or(0),
            cpu_percent: snap.cpu.usage_percent,
            mem_percent: snap.memory.usage_percent as f32,
            net_rx_bytes_per_sec: snap.net.rx_bytes_per_sec,
            net_tx_bytes_per_sec: snap.net.tx_bytes_per_sec,
            disk_read_bytes_per_sec: snap.disk_io.read_bytes_per_sec,
            disk_write_bytes_per_sec: snap.disk_io.write_bytes_per_sec,
        });
    }
    (snap, table)
}

/// Starts the background sampler.
pub struct Sampler;

impl Sampler {
    /// Spawns the sampling task (needs a tokio runtime). It refreshes every `interval`
    /// (at least `MINIMUM_CPU_UPDATE_INTERVAL`) and stops when every handle is dropped.
    pub fn spawn(interval: Duration) -> SamplerHandle {
        let interval = interval.max(MINIMUM_CPU_UPDATE_INTERVAL);
        let (tx, rx) = watch::channel(Snapshot::default());
        let (ptx, prx) = watch::channel(Arc::new(ProcessTable::default()));
        let (htx, hrx) = watch::channel(Arc::new(Vec::new()));
        let wake = Arc::new(Notify::new());
        let woken = wake.clone();
        tokio::spawn(async move {
            let mut state = Some(Machine {
                sys: System::new(),
                disks: Disks::new(),
                procs: procs::ProcScanner::new(),
                io: IoMeter::default(),
                history: History::new(HISTORY_POINTS),
            });
            let mut seq = 0u64;
            loop {
                let Some(mut machine) = state.take() else {
                    break;
                };
                // The disk list changes rarely; re-list every 30 samples.
                let relist = seq.checked_rem(30) == Some(0);
                let joined = tokio::task::spawn_blocking(move || {
                    let (snap, table) = sample(&mut machine, seq, relist);
                    let history = machine.history.to_vec();
                    (machine, snap, table, history)
                })
                .await;
                let Ok((machine, snap, table, history)) = joined else {
                    tracing::error!("system sampler panicked; gauges stop updating");
                    break;
                };
                state = Some(machine);
                // The table and history first: whoever sees snapshot N finds them (or newer).
                ptx.send_replace(Arc::new(table));
                htx.send_replace(Arc::new(history));
                if tx.send(snap).is_err() {
                    break;
                }
                seq += 1;
                let sampled = Instant::now();
                tokio::select! {
                    () = tx.closed() => break,
                    () = tokio::time::sleep(interval) => {}
                    // A query wants the table as it is now: sample early, but not sooner
                    // than CPU shares can be measured.
                    () = woken.notified() => {
                        let early = sampled + MINIMUM_CPU_UPDATE_INTERVAL;
                        tokio::time::sleep_until(early.into()).await;
                    }
                }
            }
        });
        SamplerHandle {
            rx,
            procs: prx,
            history: hrx,
            wake,
        }
    }
}

/// Read side of the sampler. Cheap to clone.
#[derive(Debug, Clone)]
pub struct SamplerHandle {
    pub(super) rx: watch::Receiver<Snapshot>,
    pub(super) procs: watch::Receiver<Arc<ProcessTable>>,
    history: watch::Receiver<Arc<Vec<HistoryPoint>>>,
    /// Asks the sampling task for a sample now.
    wake: Arc<Notify>,
}

impl SamplerHandle {
    /// A handle that always reports `snapshot` and no processes (tests, or platforms
    /// without sysinfo).
    pub fn fixed(snapshot: Snapshot) -> SamplerHandle {
        SamplerHandle::fixed_with_processes(snapshot, ProcessTable::default())
    }

    /// A handle that always reports `snapshot` and `table` (tests).
    pub fn fixed_with_processes(snapshot: Snapshot, table: ProcessTable) -> SamplerHandle {
        SamplerHandle::fixed_with_history(snapshot, table, Vec::new())
    }

    /// A handle that always reports `snapshot`, `table` and `history` (tests).
    pub fn fixed_with_history(
        snapshot: Snapshot,
        table: ProcessTable,
        history: Vec<HistoryPoint>,
    ) -> SamplerHandle {
        let (_tx, rx) = watch::channel(snapshot);
        let (_ptx, procs) = watch::channel(Arc::new(table));
        let (_htx, history) = watch::channel(Arc::new(history));
        SamplerHandle {
            rx,
            procs,
            history,
            wake: Arc::new(Notify::new()),
        }
    }

    /// A handle over channels a test drives.
    #[cfg(test)]
    pub(super) fn from_channels(
        rx: watch::Receiver<Snapshot>,
        procs: watch::Receiver<Arc<ProcessTable>>,
    ) -> SamplerHandle {
        let (_htx, history) = watch::channel(Arc::new(Vec::new()));
        SamplerHandle {
            rx,
            procs,
            history,
            wake: Arc::new(Notify::new()),
        }
    }

    /// The most recent snapshot.
    pub fn latest(&self) -> Snapshot {
        self.rx.borrow().clone()
    }

    /// The most recent full process table.
    pub fn processes(&self) -> Arc<ProcessTable> {
        self.procs.borrow().clone()
    }

    /// The recent samples (oldest first), as the sparklines draw them.
    pub fn history(&self) -> Arc<Vec<HistoryPoint>> {
        self.history.borrow().clone()
    }

    /// A receiver to stream snapshots (the gauge feed).
    pub fn subscribe(&self) -> watch::Receiver<Snapshot> {
        self.rx.clone()
    }

    /// A sample taken after this call (the process table as it is now, with processes
    /// started a moment ago), or the latest when the sampler is gone or slower than 3 s.
    pub async fn fresh(&self) -> Snapshot {
        let mut rx = self.rx.clone();
        let seen = rx.borrow_and_update().seq;
        self.wake.notify_one();
        let newer = async {
            while rx.changed().await.is_ok() {
                if rx.borrow_and_update().seq > seen {
                    break;
                }
            }
        };
        if tokio::time::timeout(Duration::from_secs(3), newer)
            .await
            .is_err()
        {
            tracing::debug!("no fresh system sample within 3 s; using the latest");
        }
        let snap = rx.borrow().clone();
        snap
    }

    /// Waits until a snapshot with a real CPU measurement (seq >= 1) exists, or the
    /// sampler is gone, and returns the latest.
    pub async fn ready(&self) -> Snapshot {
        let mut rx = self.rx.clone();
        loop {
            if rx.borrow_and_update().seq >= 1 {
                break;
            }
            if rx.changed().await.is_err() {
                break;
            }
        }
        let snap = rx.borrow().clone();
        snap
    }
}
