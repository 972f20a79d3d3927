//! Planted ground truth for end-to-end checks: a generated log whose exact counts are
//! known (counted while writing it, the way `grep -c` would count them).

use rand::{Rng, SeedableRng};

/// A generated log and its true figures.
pub struct PlantedLog {
    pub text: String,
    pub lines: usize,
    pub errors: usize,
    pub warns: usize,
    pub infos: usize,
    /// Lines of the most frequent error message (a template with a masked number).
    pub top_error: usize,
}

/// `lines` log lines with timestamps one to three seconds apart, levels drawn with a seeded
/// RNG (about 2% ERROR, 5% WARN); ERROR lines use three templates, the first most often.
pub fn planted_log(lines: usize, seed: u64) -> PlantedLog {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut text = String::with_capacity(lines * 80);
    let (mut errors, mut warns, mut infos, mut top_error) = (0, 0, 0, 0);
    let mut secs: u64 = 0;
    for i in 0..lines {
        secs += rng.gen_range(1..=3);
        let (h, m, s) = (secs / 3600 % 24, secs / 60 % 60, secs % 60);
        let ts = format!("2026-11-20 {h:02}:{m:02}:{s:02}");
        let r: f64 = rng.gen();
        if r < 0.02 {
            errors += 1;
            let pick: f64 = rng.gen();
            if pick < 0.6 {
                top_error += 1;
                let ms = rng.gen_range(1000..9000);
                text.push_str(&format!(
                    "{ts} ERROR [orders] inventory call timed out after {ms}ms\n"
                ));
            } else if pick < 0.8 {
                text.push_str(&format!(
                    "{ts} ERROR [orders] order {} rejected: card declined\n",
                    100_000 + i
                ));
            } else {
                text.push_str(&format!(
                    "{ts} ERROR [orders] lost connection to 10.2.0.{}:5432\n",
                    rng.gen_range(1..250)
                ));
            }
        } else if r < 0.07 {
            warns += 1;
            text.push_str(&format!(
                "{ts} WARN  [orders] queue depth {} above threshold\n",
                rng.gen_range(500..5000)
            ));
        } else {
            infos += 1;
            text.push_str(&format!(
                "{ts} INFO  [orders] order {} shipped in {}ms\n",
                200_000 + i,
                rng.gen_range(5..900)
            ));
        }
    }
    PlantedLog {
        text,
        lines,
        errors,
        warns,
        infos,
        top_error,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_match_the_text() {
        let log = super::planted_log(5_000, 3);
        let count = |needle: &str| log.text.lines().filter(|l| l.contains(needle)).count();
        assert_eq!(log.text.lines().count(), 5_000);
        assert_eq!(count(" ERROR "), log.errors);
        assert_eq!(count(" WARN "), log.warns);
        assert_eq!(count(" INFO "), log.infos);
        assert_eq!(count("inventory call timed out"), log.top_error);
        assert!(log.errors > 50 && log.top_error > 20, "{}", log.errors);
    }
}
