//! Small pieces the panes and views share: a percentage bar, a compact size, and the rows
//! of a long list that keep its selection in view.

use crate::app::human_size;

/// A horizontal bar of `w` cells for `pct` (0..=100).
pub fn bar(pct: f64, w: usize, ascii: bool) -> String {
    let pct = pct.clamp(0.0, 100.0);
    let (full, empty) = if ascii { ('#', '-') } else { ('█', '░') };
    let n = ((pct / 100.0) * w as f64).round() as usize;
    let mut s: String = std::iter::repeat_n(full, n.min(w)).collect();
    s.extend(std::iter::repeat_n(empty, w - n.min(w)));
    s
}

/// Short sizes for gauges: `828M`, `23.5G`.
pub(crate) fn compact(n: u64) -> String {
    let s = human_size(n);
    match s.split_once(' ') {
        Some((v, u)) => format!("{v}{}", &u[..1]),
        None => s,
    }
}

/// Rows `[first, first+h)` of `n` that keep `sel` visible.
pub(crate) fn window(n: usize, sel: usize, h: usize) -> (usize, usize) {
    if h == 0 || n <= h {
        return (0, n);
    }
    let first = sel.saturating_sub(h - 1).min(n - h);
    (first, first + h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_have_exact_widths() {
        assert_eq!(bar(50.0, 10, false), "█████░░░░░");
        assert_eq!(bar(150.0, 4, true), "####");
    }
}
