//! CPU time this process has used, for the throughput figures of the index bench: rates
//! per CPU-second stay comparable on a busy machine, where wall-clock rates do not.

/// CPU seconds (user + system) this process has used, from /proc/self/stat; 0 where that
/// cannot be read.
pub fn process_cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at ") ".
    let rest = stat.rsplit_once(") ").map(|(_, r)| r).unwrap_or("");
    let f: Vec<f64> = rest.split(' ').filter_map(|x| x.parse().ok()).collect();
    // utime and stime are fields 14 and 15 of the line: the 11th and 12th numbers after
    // the name (the state field in between is not a number).
    match (f.get(10), f.get(11)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_of_this_process_grows_with_work() {
        let before = super::process_cpu_secs();
        let guard = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let mut x = 0u64;
        // Busy until the kernel has counted some of it (ticks are 10 ms); hang guard only.
        while super::process_cpu_secs() <= before && std::time::Instant::now() < guard {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        assert!(super::process_cpu_secs() > before, "{x}");
    }
}
