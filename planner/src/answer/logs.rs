//! Log summaries: line counts by level, the most frequent error messages and the time span.
//! Works on plain text; knows nothing about tools.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

use super::super::text::Lang;

/// What a log contains, in numbers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LogSummary {
    pub lines: usize,
    /// Level -> count, most severe first.
    pub levels: Vec<(String, usize)>,
    /// (example message, count) of ERROR/FATAL lines, most frequent first.
    pub top_errors: Vec<(String, usize)>,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
}

fn level_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"(?:\b|\[)(FATAL|CRITICAL|CRIT|ERROR|ERR|WARNING|WARN|NOTICE|INFO|DEBUG|TRACE)(?:\b|\])|level=(fatal|critical|error|warning|warn|info|debug|trace)\b")
            .expect("log level regex literal is valid")
    })
}

fn ts_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}|\d{2}/[A-Za-z]{3}/\d{4}:\d{2}:\d{2}:\d{2}",
        )
        .expect("timestamp regex literal is valid")
    })
}

fn canonical(level: &str) -> &'static str {
    match level.to_ascii_uppercase().as_str() {
        "FATAL" => "FATAL",
        "CRITICAL" | "CRIT" => "CRITICAL",
        "ERROR" | "ERR" => "ERROR",
        "WARNING" | "WARN" => "WARN",
        "NOTICE" => "NOTICE",
        "INFO" => "INFO",
        "DEBUG" => "DEBUG",
        _ => "TRACE",
    }
}

const ORDER: [&str; 8] = [
    "FATAL", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG", "TRACE",
];

/// True when most non-empty lines carry a level or a timestamp.
pub fn looks_like_log(content: &str) -> bool {
    let lines: Vec<&str> = content.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return false;
    }
    let hits = lines
        .iter()
        .filter(|l| level_re().is_match(l) || ts_re().is_match(l))
        .count();
    hits * 2 >= lines.len()
}

pub fn summarize(content: &str) -> LogSummary {
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    // Masked message -> (first example, count, first position) so numbers do not split groups.
    let mut errors: BTreeMap<String, (String, usize, usize)> = BTreeMap::new();
    let mut first_ts: Option<String> = None;
    let mut last_ts: Option<String> = None;
    let mut lines = 0;
    for (i, line) in content.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        lines += 1;
        if let Some(m) = ts_re().find(line) {
            let ts = m.as_str().to_string();
            if !matches!(&first_ts, Some(f) if ts >= *f) {
                first_ts = Some(ts.clone());
            }
            if !matches!(&last_ts, Some(l) if ts <= *l) {
                last_ts = Some(ts);
            }
        }
        let Some(c) = level_re().captures(line) else {
            continue;
        };
        let (Some(whole), Some(lv)) = (c.get(0), c.get(1).or(c.get(2))) else {
            continue;
        };
        let level = canonical(lv.as_str());
        *counts.entry(level).or_insert(0) += 1;
        if matches!(level, "ERROR" | "FATAL" | "CRITICAL") {
            let msg = line[whole.end()..]
                .trim_start_matches(|c: char| c == ']' || c == ':' || c == '-' || c.is_whitespace())
                .trim()
                .to_string();
            let key: String = msg
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .collect();
            let e = errors.entry(key).or_insert((msg, 0, i));
            e.1 += 1;
        }
    }
    let levels = ORDER
        .iter()
        .filter_map(|l| counts.get(l).map(|c| (l.to_string(), *c)))
        .collect();
    let mut top: Vec<(String, usize, usize)> = errors.into_values().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
    LogSummary {
        lines,
        levels,
        top_errors: top.into_iter().take(5).map(|(m, c, _)| (m, c)).collect(),
        first_ts,
        last_ts,
    }
}

/// Which lines a summary covers when it is not the whole file: `(first, last, file_lines)`.
pub type Page = Option<(u64, u64, u64)>;

/// A summary of log text. For a page of a longer file (`page`), the first sentence says
/// which lines were counted, so no figure reads as a total for the file.
pub fn render(s: &LogSummary, name: &str, page: Page, lang: Lang) -> String {
    let mut out = String::new();
    let levels = s
        .levels
        .iter()
        .map(|(l, c)| format!("{l} {c}"))
        .collect::<Vec<_>>()
        .join(lang.pick("，", ", "));
    match lang {
        Lang::Zh => {
            out.push_str(&match page {
                Some((a, b, total)) => format!(
                    "{name} 只读取了第 {a}–{b} 行（全文 {total} 行），以下统计只针对这 {} 行，不是全文总数",
                    s.lines
                ),
                None => format!("{name} 共 {} 行日志", s.lines),
            });
            if let (Some(a), Some(b)) = (&s.first_ts, &s.last_ts) {
                out.push_str(&format!("，时间范围 {a} 至 {b}"));
            }
            out.push('。');
            if !levels.is_empty() {
                out.push_str(&format!("\n级别统计：{levels}。"));
            }
            if s.top_errors.is_empty() {
                out.push_str("\n没有发现 ERROR 级别的日志。");
            } else {
                out.push_str("\n主要错误：");
                for (m, c) in &s.top_errors {
                    out.push_str(&format!("\n- {m}（{c} 次）"));
                }
            }
        }
        Lang::En => {
            out.push_str(&match page {
                Some((a, b, total)) => format!(
                    "{name}: only lines {a}-{b} of {total} were read; the figures below cover those {} lines, not the whole file",
                    s.lines
                ),
                None => format!("{name}: {} log lines", s.lines),
            });
            if let (Some(a), Some(b)) = (&s.first_ts, &s.last_ts) {
                out.push_str(&format!(" from {a} to {b}"));
            }
            out.push('.');
            if !levels.is_empty() {
                out.push_str(&format!("\nBy level: {levels}."));
            }
            if s.top_errors.is_empty() {
                out.push_str("\nNo ERROR lines.");
            } else {
                out.push_str("\nTop errors:");
                for (m, c) in &s.top_errors {
                    out.push_str(&format!("\n- {m} (x{c})"));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "2026-10-01 10:00:00 INFO billing started\n\
2026-10-01 10:05:12 WARN queue latency 1200ms\n\
2026-10-01 10:06:40 ERROR payment gateway timeout after 30s\n\
2026-10-01 10:07:02 ERROR payment gateway timeout after 30s\n\
2026-10-01 11:00:00 INFO nightly invoice job finished: 1832 invoices\n";

    #[test]
    fn counts_levels_and_errors() {
        let s = summarize(LOG);
        assert_eq!(s.lines, 5);
        assert_eq!(
            s.levels,
            vec![
                ("ERROR".to_string(), 2),
                ("WARN".to_string(), 1),
                ("INFO".to_string(), 2)
            ]
        );
        assert_eq!(
            s.top_errors,
            vec![("payment gateway timeout after 30s".to_string(), 2)]
        );
        assert_eq!(s.first_ts.as_deref(), Some("2026-10-01 10:00:00"));
        assert_eq!(s.last_ts.as_deref(), Some("2026-10-01 11:00:00"));
        assert!(looks_like_log(LOG));
        let text = render(&s, "server.log", None, Lang::Zh);
        assert!(
            text.contains("ERROR 2") && text.contains("（2 次）"),
            "{text}"
        );
    }

    #[test]
    fn bracketed_and_keyvalue_levels() {
        let s = summarize("[ERROR] db down\n[error] lower is not a level\nlevel=error msg=x\n[WARNING] disk 91%\n");
        assert_eq!(s.levels[0], ("ERROR".to_string(), 2));
        assert_eq!(s.levels[1], ("WARN".to_string(), 1));
        assert!(!looks_like_log("# title\nplain text\nmore text\n"));
    }
}
