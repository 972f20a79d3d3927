//! Dense recall on a planted log: a seeded synthetic service log of routine
//! lines (requests, jobs, cache and login noise with changing ids, latencies and
//! addresses) with twelve incidents planted at known places, and questions about them in
//! English and Chinese written for this bench. A question is answered when one of the
//! top-3 chunks (dense similarity alone) holds its incident's line. It measures what the
//! dense text of log chunks (the normalisation the server embeds) does to finding a rare
//! event among repetitive lines, next to e5 on the raw chunks.

use super::*;
use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::embed::{CachedPassages, E5};

/// (incident line, marker identifying it, questions).
const INCIDENTS: &[(&str, &str, &[&str])] = &[
    (
        "ERROR postgres[2211]: FATAL: remaining connection slots are reserved for non-replication superuser connections",
        "remaining connection slots",
        &["the database ran out of client connections", "数据库连接数用完了"],
    ),
    (
        "WARN kernel: Out of memory: Killed process 4412 (java) total-vm:8123456kB, anon-rss:6120044kB",
        "Out of memory: Killed process",
        &["which process did the OOM killer terminate", "内存不足时哪个进程被杀掉了"],
    ),
    (
        "ERROR nginx[1310]: SSL_CTX_use_certificate: certificate /etc/ssl/api.pem has expired",
        "has expired",
        &["TLS certificate expiry on the web server", "证书过期"],
    ),
    (
        "WARN disk-monitor[77]: filesystem /var is 97% full (1.2G left)",
        "filesystem /var is 97% full",
        &["disk almost out of space", "磁盘空间快满了"],
    ),
    (
        "ERROR backup[901]: rsync to backup-host:/srv/backups failed: Connection timed out",
        "rsync to backup-host",
        &["nightly backup job failed", "备份任务失败"],
    ),
    (
        "INFO systemd[1]: Stopped redis-server.service - Advanced key-value store.",
        "Stopped redis-server",
        &["redis service was stopped", "Redis 服务停止了"],
    ),
    (
        "ERROR payments[512]: charge declined by issuer: insufficient funds (code 51)",
        "insufficient funds",
        &["a card payment was rejected for lack of money"],
    ),
    (
        "CRIT mdadm[640]: DegradedArray event on /dev/md0: disk /dev/sdb1 marked faulty",
        "DegradedArray",
        &["RAID array degraded after a disk failure", "磁盘阵列降级"],
    ),
    (
        "WARN chronyd[455]: System clock wrong by 2.513 seconds, adjustment started",
        "System clock wrong",
        &["system time drifted", "系统时钟偏差"],
    ),
    (
        "INFO deploy[3001]: release v2.14.0 rolled out to production (12 hosts)",
        "rolled out to production",
        &["when was the new version deployed", "新版本什么时候上线的"],
    ),
    (
        "ERROR kafka[2718]: partition orders-3 has no leader, producer retrying",
        "has no leader",
        &["message queue partition without a leader"],
    ),
    (
        "ERROR dns[53]: lookup api.payments.internal failed: SERVFAIL",
        "SERVFAIL",
        &["name resolution failure for an internal service", "域名解析失败"],
    ),
];

/// The planted log: `lines` routine lines with the incidents spread evenly (each at a
/// seeded place in its stretch), timestamps one to three seconds apart.
pub fn planted_log(lines: usize) -> String {
    let mut seed = 0x5eed_1096u64;
    let mut out = String::new();
    let mut t = 8 * 3600u64;
    let stretch = lines / INCIDENTS.len();
    let at: Vec<usize> = (0..INCIDENTS.len())
        .map(|i| i * stretch + 1 + lcg(&mut seed) as usize % (stretch - 2))
        .collect();
    for n in 0..lines {
        t += 1 + lcg(&mut seed) % 3;
        let stamp = format!(
            "2026-03-02T{:02}:{:02}:{:02}.{:03}Z",
            t / 3600 % 24,
            t / 60 % 60,
            t % 60,
            lcg(&mut seed) % 1000
        );
        if let Some(i) = at.iter().position(|&a| a == n) {
            out.push_str(&format!("{stamp} {}\n", INCIDENTS[i].0));
            continue;
        }
        let r = lcg(&mut seed);
        let id = lcg(&mut seed);
        let line = match r % 8 {
            0 | 1 => format!(
                "INFO api-gateway[1200]: GET /api/v1/orders/{} 200 {}ms req={:08x}-{:04x}-4a1b-9c2d-{:012x}",
                100_000 + id % 900_000,
                3 + id % 90,
                id as u32,
                id % 0xffff,
                id
            ),
            2 => format!(
                "INFO api-gateway[1200]: POST /api/v1/cart 201 {}ms user={}",
                10 + id % 200,
                1_000_000 + id % 9_000_000
            ),
            3 => format!(
                "DEBUG cache[77]: hit ratio 0.9{} keys={} evicted={}",
                id % 10,
                200_000 + id % 50_000,
                id % 40
            ),
            4 => format!(
                "INFO scheduler[88]: job cleanup-tmp finished in {} ms",
                100 + id % 900
            ),
            5 => format!(
                "INFO sshd[811]: Accepted publickey for deploy from 10.0.{}.{} port {} ssh2",
                id % 4,
                id % 250,
                30_000 + id % 30_000
            ),
            6 => "INFO healthcheck[66]: all upstreams healthy".to_string(),
            _ => format!(
                "INFO worker[{}]: processed batch of {} events",
                300 + id % 4,
                50 + id % 200
            ),
        };
        out.push_str(&format!("{stamp} {line}\n"));
    }
    out
}

/// Dense-only recall@3 on the planted log: e5 on the raw chunks, and behind the log
/// normalisation and embed cache (what the server runs).
pub fn bench_planted_log_recall(out: &mut String, m: &Arc<E5>) {
    let text = planted_log(6000);
    let chunks: Vec<String> = chunk(&text, &ChunkerConfig::default())
        .into_iter()
        .map(|c| c.text)
        .collect();
    let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
    let sides: Vec<(&str, Arc<dyn Embedder>)> = vec![
        ("e5 on the raw chunks", m.clone()),
        (
            "e5 on the dense text (the server's)",
            Arc::new(CachedPassages::new(m.clone())),
        ),
    ];
    let questions: Vec<(&str, &str)> = INCIDENTS
        .iter()
        .flat_map(|(_, marker, qs)| qs.iter().map(move |q| (*q, *marker)))
        .collect();
    let mut cells = vec![];
    for (label, emb) in &sides {
        let ranked = super::DenseRank::new(emb.as_ref(), &refs);
        let mut hits = 0usize;
        let mut rr = 0.0f64;
        for (q, marker) in &questions {
            let order = ranked.order(emb.as_ref(), q);
            if let Some(r) = order.iter().position(|&i| chunks[i].contains(marker)) {
                if r < 3 {
                    hits += 1;
                }
                rr += 1.0 / (r + 1) as f64;
            }
        }
        cells.push(format!(
            "{label} {:.3} / {:.3}",
            hits as f64 / questions.len() as f64,
            rr / questions.len() as f64
        ));
        eprint!(".");
    }
    out.push_str(&format!(
        "\nPlanted-log recall (dense only; a seeded service log of {} lines, {} KB, {} chunks, with {} incidents planted among routine request, job, cache and login lines; {} questions in English and Chinese written for the bench; a hit is a top-3 chunk holding the incident's line), recall@3 / MRR: {}.\n",
        text.lines().count(),
        text.len() / 1024,
        chunks.len(),
        INCIDENTS.len(),
        questions.len(),
        cells.join("; ")
    ));
}
