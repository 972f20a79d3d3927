//! Tests of the analyser against planted ground truth (synthetic logs), chunking, merging,
//! caps and edge cases.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::synth::{generate, SynthFormat, SynthSpec, SynthTruth};
use crate::{analyze_bytes, analyze_file, AnalyzeError, AnalyzeMode, FileAnalysis, MAX_TEMPLATE};

fn all_templates() -> AnalyzeOptions {
    AnalyzeOptions {
        top_templates: usize::MAX,
        ..AnalyzeOptions::default()
    }
}

fn synth(spec: &SynthSpec) -> (Vec<u8>, SynthTruth) {
    let mut buf = Vec::new();
    let truth = generate(spec, &mut buf).expect("generate");
    assert_eq!(truth.bytes, buf.len() as u64);
    (buf, truth)
}

/// Every figure of `r` against the planted truth (templates: all of them).
fn check(r: &LogReport, t: &SynthTruth) {
    assert_eq!(r.lines, t.lines, "lines");
    assert_eq!(r.ts_lines, t.ts_lines, "ts_lines");
    assert_eq!((&r.first_ts, &r.last_ts), (&t.first_ts, &t.last_ts));
    let levels: Vec<Level> = r.levels.iter().map(|l| l.level).collect();
    let want: Vec<Level> = t.levels.keys().copied().collect();
    assert_eq!(levels, want, "levels present, most severe first");
    for l in &r.levels {
        let w = &t.levels[&l.level];
        assert_eq!(
            (l.count, l.first_line, &l.first_ts, &l.last_ts),
            (w.count, w.first_line, &w.first_ts, &w.last_ts),
            "{:?}",
            l.level
        );
    }
    assert_eq!(r.distinct_templates, t.templates.len() as u64);
    assert!(!r.templates_capped);
    assert_eq!(r.templates.len(), t.templates.len());
    for tpl in &r.templates {
        let w = t
            .templates
            .get(&(tpl.level, tpl.template.clone()))
            .unwrap_or_else(|| panic!("unexpected template {:?} {:?}", tpl.level, tpl.template));
        assert_eq!(
            (tpl.count, tpl.first_line, &tpl.first_ts, &tpl.last_ts),
            (w.count, w.first_line, &w.first_ts, &w.last_ts),
            "{}",
            tpl.template
        );
    }
    let sorted = r.templates.windows(2).all(|w| {
        (w[0].count, std::cmp::Reverse(w[0].first_line))
            >= (w[1].count, std::cmp::Reverse(w[1].first_line))
    });
    assert!(sorted, "templates by count, ties by first line");
}

/// The histogram's non-empty buckets against the truth's minutes folded to the bucket.
fn check_histogram(r: &LogReport, t: &SynthTruth, size: BucketSize) {
    let h = r.histogram.as_ref().expect("histogram");
    assert_eq!(h.bucket, size);
    let mut want: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
    for (minute, c) in &t.minutes {
        let key = match size {
            BucketSize::Minute => minute.clone(),
            BucketSize::Hour => format!("{}:00", &minute[..minute.len() - 3]),
            BucketSize::Day => minute[..10].to_string(),
        };
        let e = want.entry(key).or_default();
        e.0 += c.0;
        e.1 += c.1;
        e.2 += c.2;
    }
    let got: BTreeMap<String, (u64, u64, u64)> = h
        .buckets
        .iter()
        .filter(|b| b.total > 0)
        .map(|b| (b.start.clone(), (b.total, b.errors, b.warns)))
        .collect();
    assert_eq!(got, want);
    let total: u64 = h.buckets.iter().map(|b| b.total).sum();
    assert_eq!(total, t.ts_lines);
    let mut starts: Vec<&String> = h.buckets.iter().map(|b| &b.start).collect();
    starts.dedup();
    assert_eq!(starts.len(), h.buckets.len(), "one bucket per start");
}

#[test]
fn every_format_matches_its_planted_truth() {
    for (i, format) in [
        SynthFormat::Logback,
        SynthFormat::Python,
        SynthFormat::NginxError,
        SynthFormat::Syslog,
        SynthFormat::Json,
    ]
    .into_iter()
    .enumerate()
    {
        let (log, truth) = synth(&SynthSpec::new(40 + i as u64, format, 6000));
        let r = analyze_bytes(&log, all_templates());
        check(&r, &truth);
        check_histogram(&r, &truth, BucketSize::Minute);
        assert!(truth.levels.len() >= 8, "{format:?}: all levels planted");
        let minutes = r.histogram.as_ref().map_or(0, |h| h.buckets.len());
        assert!(minutes > 10 && minutes <= 181, "{minutes}");
    }
}

#[test]
fn hour_and_day_histograms() {
    let mut spec = SynthSpec::new(7, SynthFormat::Logback, 3000);
    spec.step_ms = 20_000; // about 8 h
    let (log, truth) = synth(&spec);
    let r = analyze_bytes(&log, all_templates());
    check(&r, &truth);
    check_histogram(&r, &truth, BucketSize::Hour);
    spec.step_ms = 3_600_000; // about 60 days, across a month end
    let (log, truth) = synth(&spec);
    let r = analyze_bytes(&log, all_templates());
    check(&r, &truth);
    check_histogram(&r, &truth, BucketSize::Day);
    let h = r.histogram.as_ref().expect("histogram");
    let span_days = r.span_seconds.unwrap_or(0) / 86_400;
    assert!(h.buckets.len() as u64 >= span_days, "zero-filled days");
}

#[test]
fn chunking_never_changes_the_result() {
    let mut spec = SynthSpec::new(3, SynthFormat::Python, 400);
    spec.crlf = true;
    spec.trailing_newline = false;
    let (log, truth) = synth(&spec);
    let whole = analyze_bytes(&log, all_templates());
    check(&whole, &truth);
    let mut a = LogAnalyzer::new(all_templates());
    for b in &log {
        a.feed(std::slice::from_ref(b));
    }
    assert_eq!(a.finish(), whole, "byte by byte");
    let mut rng = crate::synth::Rng::new(9);
    let mut a = LogAnalyzer::new(all_templates());
    let mut rest = &log[..];
    while !rest.is_empty() {
        let n = (1 + rng.below(300) as usize).min(rest.len());
        a.feed(&rest[..n]);
        rest = &rest[n..];
    }
    assert_eq!(a.finish(), whole, "random chunks");
}

#[test]
fn merging_parts_is_exact() {
    let (log, truth) = synth(&SynthSpec::new(5, SynthFormat::NginxError, 3000));
    let whole = analyze_bytes(&log, all_templates());
    check(&whole, &truth);
    for cut_at in [1usize, log.len() / 3, log.len() / 2, log.len() - 2] {
        let cut = memchr::memchr(b'\n', &log[cut_at..]).map_or(log.len(), |p| cut_at + p + 1);
        let mut a = LogAnalyzer::new(all_templates());
        a.feed(&log[..cut]);
        let mut b = LogAnalyzer::new(all_templates());
        b.feed(&log[cut..]);
        a.merge(b);
        assert_eq!(a.finish(), whole, "cut at {cut}");
    }
}

#[test]
fn edge_cases() {
    let r = analyze_bytes(b"", AnalyzeOptions::default());
    assert_eq!((r.lines, r.levels.len(), r.ts_lines), (0, 0, 0));
    assert!(r.histogram.is_none() && r.first_ts.is_none());

    let r = analyze_bytes(b"\n\n\n", AnalyzeOptions::default());
    assert_eq!(r.lines, 3);
    assert_eq!(r.count(Level::None), 3);
    assert_eq!(r.templates[0].template, "");

    // No trailing newline: the last line still counts (grep -c '').
    let r = analyze_bytes(b"ERROR a\nERROR b", AnalyzeOptions::default());
    assert_eq!((r.lines, r.count(Level::Error)), (2, 2));

    // CRLF: the \r is not part of the message.
    let r = analyze_bytes(
        b"2024-05-01 10:00:00 WARN x 1\r\n",
        AnalyzeOptions::default(),
    );
    assert_eq!(r.templates[0].template, "x <num>");
    assert_eq!(r.templates[0].example, "2024-05-01 10:00:00 WARN x 1");

    // Invalid UTF-8 and a UTF-8 BOM.
    let r = analyze_bytes(
        b"\xEF\xBB\xBF2024-05-01 10:00:00 ERROR caf\xE9 42\n2024-05-01 10:00:01 ERROR caf\xE9 43\n",
        AnalyzeOptions::default(),
    );
    assert_eq!(r.count(Level::Error), 2);
    assert_eq!(r.templates[0].template, "caf\u{FFFD} <num>");
    assert_eq!(r.templates[0].count, 2);
    assert_eq!(r.first_ts.as_deref(), Some("2024-05-01T10:00:00"));

    // A 300 KB line: counted once, examined up to MAX_LINE, example and template cut.
    let mut long = b"2024-05-01 10:00:00 ERROR ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 300_000));
    long.extend_from_slice(b"\nINFO short\n");
    let r = analyze_bytes(&long, AnalyzeOptions::default());
    assert_eq!(
        (r.lines, r.count(Level::Error), r.count(Level::Info)),
        (2, 1, 1)
    );
    let t = r
        .templates
        .iter()
        .find(|t| t.level == Level::Error)
        .expect("error template");
    assert!(t.template.ends_with('…') && t.template.len() <= MAX_TEMPLATE + 3);
    assert!(t.example.ends_with('…') && t.example.len() <= MAX_EXAMPLE + 3);
    let mut a = LogAnalyzer::new(AnalyzeOptions::default());
    for chunk in long.chunks(7000) {
        a.feed(chunk);
    }
    assert_eq!(a.finish(), r, "long line across chunks");
}

#[test]
fn template_cap_is_reported() {
    let log: String = (0..100)
        .map(|i| format!("INFO word{} x\nINFO k{}z\n", "a".repeat(i % 7), i % 3))
        .collect();
    let opts = AnalyzeOptions {
        max_templates: 4,
        ..AnalyzeOptions::default()
    };
    let r = analyze_bytes(log.as_bytes(), opts);
    assert_eq!(r.lines, 200);
    assert_eq!(r.count(Level::Info), 200);
    assert!(r.templates_capped);
    assert_eq!(r.distinct_templates, 4);
    let counted: u64 = r.templates.iter().map(|t| t.count).sum();
    assert_eq!(counted + r.untemplated_lines, 200);
}

#[test]
fn top_templates_keep_the_leading_errors() {
    let mut log = String::new();
    for i in 0..30 {
        for _ in 0..(100 - i) {
            log.push_str(&format!("INFO event {}\n", "x".repeat(i + 1)));
        }
    }
    log.push_str("ERROR rare failure 1\nERROR rare failure 2\nWARN odd thing\n");
    let r = analyze_bytes(log.as_bytes(), AnalyzeOptions::default());
    assert_eq!(
        r.templates.len(),
        22,
        "20 by count plus the ERROR and the WARN"
    );
    assert_eq!(r.templates[0].count, 100);
    let e = r
        .templates
        .iter()
        .find(|t| t.level == Level::Error)
        .expect("error kept");
    assert_eq!((e.template.as_str(), e.count), ("rare failure <num>", 2));
    assert_eq!(r.distinct_templates, 32);
}

#[test]
fn report_json_uses_the_contract_field_names() {
    let r = analyze_bytes(
        b"2024-05-01T10:00:00Z ERROR connect to 10.0.0.1:5432 failed after 3ms\n",
        AnalyzeOptions::default(),
    );
    let fa = FileAnalysis {
        mode: AnalyzeMode::Analyze,
        path: "/abs/app.log".into(),
        file: "app.log".into(),
        report: r,
    };
    let v = serde_json::to_value(&fa).expect("json");
    for key in [
        "mode",
        "path",
        "file",
        "bytes",
        "bytes_read",
        "complete",
        "lines",
        "levels",
        "templates",
        "distinct_templates",
        "templates_capped",
        "first_ts",
        "last_ts",
        "ts_lines",
        "histogram",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(v["mode"], "analyze");
    assert_eq!(
        v["levels"][0],
        serde_json::json!({"level": "ERROR", "count": 1, "first_ts": "2024-05-01T10:00:00Z",
                           "last_ts": "2024-05-01T10:00:00Z", "first_line": 1})
    );
    assert_eq!(
        v["templates"][0]["template"],
        "connect to <ip>:<num> failed after <dur>"
    );
    assert_eq!(v["histogram"]["bucket"], "minute");
    assert_eq!(
        v["histogram"]["buckets"][0],
        serde_json::json!({"start": "2024-05-01T10:00", "total": 1, "errors": 1, "warns": 0})
    );
    let back: FileAnalysis = serde_json::from_value(v).expect("round trip");
    assert_eq!(back, fa);
}

fn write_synth(dir: &std::path::Path, spec: &SynthSpec) -> (std::path::PathBuf, SynthTruth) {
    let path = dir.join("app.log");
    let file = std::fs::File::create(&path).expect("create");
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let truth = generate(spec, &mut w).expect("generate");
    std::io::Write::flush(&mut w).expect("flush");
    (path, truth)
}

#[test]
fn hundred_megabytes_exact_on_worker_threads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut spec = SynthSpec::new(2024, SynthFormat::Logback, 0);
    spec.min_bytes = 100 * 1000 * 1000;
    spec.step_ms = 30; // about 6 h of log
    let (path, truth) = write_synth(dir.path(), &spec);
    let opts = AnalyzeOptions {
        threads: 3,
        ..all_templates()
    };
    let mut calls = Vec::new();
    let r = analyze_file(&path, &opts, &AtomicBool::new(false), &mut |d, t| {
        calls.push((d, t))
    })
    .expect("analyze");
    assert!(r.complete);
    assert_eq!((r.bytes, r.bytes_read), (truth.bytes, truth.bytes));
    check(&r, &truth);
    check_histogram(&r, &truth, BucketSize::Hour);
    assert_eq!(
        calls.last(),
        Some(&(truth.bytes, truth.bytes)),
        "progress ends at 100%"
    );
    assert!(
        calls.windows(2).all(|w| w[0].0 <= w[1].0),
        "progress never goes back"
    );
}

#[test]
fn size_cap_stops_at_a_line_end_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, truth) = write_synth(dir.path(), &SynthSpec::new(11, SynthFormat::Json, 5000));
    let log = std::fs::read(&path).expect("read");
    let cap = log.len() as u64 / 3;
    let opts = AnalyzeOptions {
        max_bytes: cap,
        ..AnalyzeOptions::default()
    };
    let r = analyze_file(&path, &opts, &AtomicBool::new(false), &mut |_, _| {}).expect("analyze");
    assert!(!r.complete);
    assert_eq!(r.bytes, truth.bytes);
    assert!(r.bytes_read <= cap && r.bytes_read > cap - 300);
    assert_eq!(log[r.bytes_read as usize - 1], b'\n');
    let prefix = analyze_bytes(&log[..r.bytes_read as usize], AnalyzeOptions::default());
    assert_eq!(r.lines, prefix.lines);
    assert_eq!(r.levels, prefix.levels);
    let newlines = log[..r.bytes_read as usize]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    assert_eq!(r.lines, newlines as u64);
}

#[test]
fn file_errors_and_cancel() {
    let dir = tempfile::tempdir().expect("tempdir");
    let no = AtomicBool::new(false);
    let opts = AnalyzeOptions::default();
    let missing = dir.path().join("missing.log");
    assert_eq!(
        analyze_file(&missing, &opts, &no, &mut |_, _| {}),
        Err(AnalyzeError::NotFound(missing.clone()))
    );
    assert_eq!(
        analyze_file(dir.path(), &opts, &no, &mut |_, _| {}),
        Err(AnalyzeError::IsDir(dir.path().to_path_buf()))
    );
    let bin = dir.path().join("a.bin");
    std::fs::write(&bin, b"abc\0def").expect("write");
    assert_eq!(
        analyze_file(&bin, &opts, &no, &mut |_, _| {}),
        Err(AnalyzeError::Binary(bin.clone()))
    );
    let empty = dir.path().join("empty.log");
    std::fs::write(&empty, b"").expect("write");
    let r = analyze_file(&empty, &opts, &no, &mut |_, _| {}).expect("empty");
    assert_eq!((r.lines, r.bytes, r.complete), (0, 0, true));
    let (path, _) = write_synth(dir.path(), &SynthSpec::new(1, SynthFormat::Syslog, 100));
    let yes = AtomicBool::new(true);
    assert_eq!(
        analyze_file(&path, &opts, &yes, &mut |_, _| {}),
        Err(AnalyzeError::Cancelled)
    );
}
