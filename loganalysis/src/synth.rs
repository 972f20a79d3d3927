//! Synthetic logs with planted ground truth (seeded, deterministic), for tests, the benchmark
//! and end-to-end scenarios: every line's level, template and time is chosen here and
//! recorded independently of the analyser's parsing.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::Level;

/// Line layout of a synthetic log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SynthFormat {
    /// `2024-05-01 10:00:00.123 [http-nio-8080-exec-3] ERROR c.e.Service - msg`
    Logback,
    /// `2024-05-01 10:00:00,123 - app - ERROR - msg`
    Python,
    /// `2024/05/01 10:00:00 [error] 1234#0: *5 msg`
    NginxError,
    /// `May  1 10:00:00 web01 app[1234]: ERROR msg` (no year)
    Syslog,
    /// `{"ts":"2024-05-01T10:00:00.123Z","level":"error","logger":"app","msg":"msg"}`
    Json,
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct SynthSpec {
    pub seed: u64,
    pub format: SynthFormat,
    /// Stop after this many lines...
    pub lines: u64,
    /// ...or once this many bytes are written (0: no byte target).
    pub min_bytes: u64,
    /// First timestamp: (year, month, day, hour, minute, second).
    pub start: (u32, u32, u32, u32, u32, u32),
    /// Each timestamped line is 0..=step_ms later than the previous one.
    pub step_ms: u64,
    /// Stack-trace lines (no timestamp, no level) after some ERROR lines.
    pub stack_traces: bool,
    pub crlf: bool,
    /// End the last line with a newline.
    pub trailing_newline: bool,
}

impl SynthSpec {
    pub fn new(seed: u64, format: SynthFormat, lines: u64) -> Self {
        SynthSpec {
            seed,
            format,
            lines,
            min_bytes: 0,
            start: (2024, 5, 1, 10, 0, 0),
            step_ms: 500,
            stack_traces: true,
            crlf: false,
            trailing_newline: true,
        }
    }
}

/// Planted truth of one template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TruthTemplate {
    pub template: String,
    pub level: Level,
    pub count: u64,
    pub first_line: u64,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
}

/// Planted truth of one level.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TruthLevel {
    pub count: u64,
    pub first_line: u64,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
}

/// Everything a correct analysis must report about the generated log.
#[derive(Debug, Clone, Default)]
pub struct SynthTruth {
    pub lines: u64,
    pub bytes: u64,
    pub levels: BTreeMap<Level, TruthLevel>,
    /// Keyed by (level, template).
    pub templates: BTreeMap<(Level, String), TruthTemplate>,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    pub ts_lines: u64,
    /// Per minute (`2024-05-01T10:00`, or `May  1 10:00` without a year): (total, errors, warns).
    pub minutes: BTreeMap<String, (u64, u64, u64)>,
}

/// xorshift64*: small, seeded, good enough for test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

fn ipv4(r: &mut Rng) -> String {
    format!("10.{}.{}.{}", r.below(256), r.below(256), 1 + r.below(254))
}

fn hex(r: &mut Rng, n: usize) -> String {
    // A digit and a letter are always present (the masking rule needs both).
    let mut s = String::from("a1");
    while s.len() < n {
        s.push(char::from(b"0123456789abcdef"[r.below(16) as usize]));
    }
    s
}

fn uuid(r: &mut Rng) -> String {
    let h = hex(r, 32);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// A message of `level`: (raw text, its template).
fn message(r: &mut Rng, level: Level) -> (String, &'static str) {
    let kind = r.below(3);
    match level {
        Level::Fatal => (
            format!("worker {} crashed: out of memory", r.below(64)),
            "worker <num> crashed: out of memory",
        ),
        Level::Critical => (
            format!(
                "database primary {} unreachable for {}s",
                ipv4(r),
                1 + r.below(90)
            ),
            "database primary <ip> unreachable for <dur>",
        ),
        Level::Error => error_message(r, kind),
        Level::Warn => warn_message(r, kind),
        Level::Notice => (
            format!("config reloaded, {} keys", r.below(500)),
            "config reloaded, <num> keys",
        ),
        Level::Info => info_message(r, kind),
        Level::Debug => debug_message(r, kind),
        Level::Trace => (
            format!("enter handler ptr=0x{}", hex(r, 12)),
            "enter handler ptr=<hex>",
        ),
        Level::None => (String::new(), ""),
    }
}

/// An ERROR message of variant `kind` (0..3).
fn error_message(r: &mut Rng, kind: u64) -> (String, &'static str) {
    match kind {
        0 => (
            format!(
                "connect to {}:{} failed after {}ms",
                ipv4(r),
                1024 + r.below(60000),
                r.below(30000)
            ),
            "connect to <ip>:<num> failed after <dur>",
        ),
        1 => (
            format!("payment {} declined: code={}", uuid(r), r.below(1000)),
            "payment <uuid> declined: code=<num>",
        ),
        _ => (
            format!(
                "upstream [2001:db8::{:x}]:{} reset by peer",
                1 + r.below(0xfff),
                r.below(65536)
            ),
            "upstream [<ip>]:<num> reset by peer",
        ),
    }
}

/// A WARN message of variant `kind` (0..3).
fn warn_message(r: &mut Rng, kind: u64) -> (String, &'static str) {
    match kind {
        0 => (
            format!("disk usage {}% on /dev/sda{}", 80 + r.below(20), r.below(4)),
            "disk usage <num>% on /dev/sda<num>",
        ),
        1 => (
            format!(
                "GC pause {}.{}s, heap {}MB",
                r.below(5),
                r.below(1000),
                r.below(8192)
            ),
            "GC pause <dur>, heap <num>MB",
        ),
        _ => (
            format!(
                "slow query took {}ms: SELECT * FROM orders WHERE id = {}",
                500 + r.below(5000),
                r.below(1_000_000)
            ),
            "slow query took <dur>: SELECT * FROM orders WHERE id = <num>",
        ),
    }
}

/// An INFO message of variant `kind` (0..3).
fn info_message(r: &mut Rng, kind: u64) -> (String, &'static str) {
    match kind {
        0 => (
            format!("user {} logged in from {}", r.below(100_000), ipv4(r)),
            "user <num> logged in from <ip>",
        ),
        1 => (
            format!(
                "request {} completed in {}.{:03}s status={}",
                uuid(r),
                r.below(3),
                r.below(1000),
                [200, 201, 204, 304][r.below(4) as usize]
            ),
            "request <uuid> completed in <dur> status=<num>",
        ),
        _ => (
            format!("cache hit ratio 0.{}", r.below(1000)),
            "cache hit ratio <num>",
        ),
    }
}

/// A DEBUG message of variant `kind` (0, or anything else for the second).
fn debug_message(r: &mut Rng, kind: u64) -> (String, &'static str) {
    match kind {
        0 => (
            format!("session {} refreshed", hex(r, 16)),
            "session <hex> refreshed",
        ),
        _ => (
            format!("pool stats: active={} idle={}", r.below(50), r.below(50)),
            "pool stats: active=<num> idle=<num>",
        ),
    }
}

/// Level mix (per mille): INFO 700, DEBUG 100, WARN 80, ERROR 50, TRACE 30, NOTICE 25,
/// CRITICAL 10, FATAL 5.
fn pick_level(r: &mut Rng) -> Level {
    match r.below(1000) {
        0..=699 => Level::Info,
        700..=799 => Level::Debug,
        800..=879 => Level::Warn,
        880..=929 => Level::Error,
        930..=959 => Level::Trace,
        960..=984 => Level::Notice,
        985..=994 => Level::Critical,
        _ => Level::Fatal,
    }
}

const DAYS_IN_MONTH: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Calendar time with a millisecond clock that only moves forward.
#[derive(Debug, Clone, Copy)]
struct Clock {
    y: u32,
    mo: u32,
    d: u32,
    h: u32,
    mi: u32,
    s: u32,
    ms: u32,
}

impl Clock {
    fn advance(&mut self, mut ms: u64) {
        while ms > 0 {
            let step = ms.min(1000 - u64::from(self.ms));
            self.ms += step as u32;
            ms -= step;
            if self.ms < 1000 {
                continue;
            }
            self.ms = 0;
            self.s += 1;
            if self.s < 60 {
                continue;
            }
            self.s = 0;
            self.mi += 1;
            if self.mi < 60 {
                continue;
            }
            self.mi = 0;
            self.h += 1;
            if self.h < 24 {
                continue;
            }
            self.h = 0;
            self.d += 1;
            let leap = self.y.is_multiple_of(4)
                && (!self.y.is_multiple_of(100) || self.y.is_multiple_of(400));
            let dim = DAYS_IN_MONTH[(self.mo - 1) as usize] + u32::from(leap && self.mo == 2);
            if self.d <= dim {
                continue;
            }
            self.d = 1;
            self.mo += 1;
            if self.mo > 12 {
                self.mo = 1;
                self.y += 1;
            }
        }
    }

    fn syslog_day(&self) -> String {
        format!("{} {:>2}", MONTH_NAMES[(self.mo - 1) as usize], self.d)
    }

    /// (as written in the log, as the analyser reports it, minute bucket).
    fn render(&self, f: SynthFormat) -> (String, String, String) {
        let (y, mo, d, h, mi, s, ms) = (self.y, self.mo, self.d, self.h, self.mi, self.s, self.ms);
        let iso_min = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}");
        match f {
            SynthFormat::Logback => (
                format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{ms:03}"),
                format!("{iso_min}:{s:02}.{ms:03}"),
                iso_min,
            ),
            SynthFormat::Python => (
                format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02},{ms:03}"),
                format!("{iso_min}:{s:02}.{ms:03}"),
                iso_min,
            ),
            SynthFormat::NginxError => (
                format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"),
                format!("{iso_min}:{s:02}"),
                iso_min,
            ),
            SynthFormat::Syslog => {
                let day = self.syslog_day();
                (
                    format!("{day} {h:02}:{mi:02}:{s:02}"),
                    format!("{day} {h:02}:{mi:02}:{s:02}"),
                    format!("{day} {h:02}:{mi:02}"),
                )
            }
            SynthFormat::Json => (
                format!("{iso_min}:{s:02}.{ms:03}Z"),
                format!("{iso_min}:{s:02}.{ms:03}Z"),
                iso_min,
            ),
        }
    }
}

fn lower(level: Level) -> &'static str {
    match level {
        Level::Fatal => "emerg",
        Level::Critical => "crit",
        Level::Error => "error",
        Level::Warn => "warn",
        Level::Notice => "notice",
        Level::Info => "info",
        Level::Debug => "debug",
        Level::Trace => "trace",
        Level::None => "",
    }
}

const STACK: [(&str, &str); 3] = [
    (
        "\tat com.example.Db.query(Db.java:{})",
        "at com.example.Db.query(Db.java:<num>)",
    ),
    (
        "\tat com.example.Api.handle(Api.java:{})",
        "at com.example.Api.handle(Api.java:<num>)",
    ),
    (
        "Caused by: java.net.ConnectException: Connection refused",
        "Caused by: java.net.ConnectException: Connection refused",
    ),
];

impl SynthTruth {
    fn record(&mut self, level: Level, template: &str, ts: Option<(&str, &str)>) {
        self.lines += 1;
        let n = self.lines;
        let lv = self.levels.entry(level).or_default();
        lv.count += 1;
        if lv.count == 1 {
            lv.first_line = n;
        }
        let t = self
            .templates
            .entry((level, template.to_string()))
            .or_insert_with(|| TruthTemplate {
                template: template.to_string(),
                level,
                count: 0,
                first_line: n,
                first_ts: None,
                last_ts: None,
            });
        t.count += 1;
        if let Some((shown, minute)) = ts {
            let shown = Some(shown.to_string());
            t.first_ts = t.first_ts.clone().or_else(|| shown.clone());
            t.last_ts = shown.clone();
            lv.first_ts = lv.first_ts.clone().or_else(|| shown.clone());
            lv.last_ts = shown.clone();
            self.first_ts = self.first_ts.clone().or_else(|| shown.clone());
            self.last_ts = shown;
            self.ts_lines += 1;
            let m = self.minutes.entry(minute.to_string()).or_default();
            m.0 += 1;
            m.1 += u64::from(level.is_error());
            m.2 += u64::from(level == Level::Warn);
        }
    }
}

/// A line waiting to be written: (text, level, template, (shown time, minute)).
type Pending = (String, Level, String, Option<(String, String)>);

/// The layout of `spec.format` around `msg`, drawing the format's own random fields.
fn render_line(
    r: &mut Rng,
    format: SynthFormat,
    written: &str,
    level: Level,
    msg: &str,
    pid: u64,
) -> String {
    match format {
        SynthFormat::Logback => {
            let thread = format!("http-nio-8080-exec-{}", 1 + r.below(20));
            format!(
                "{written} [{thread}] {:<5} c.e.Service - {msg}",
                level.name()
            )
        }
        SynthFormat::Python => format!("{written} - app - {} - {msg}", level.name()),
        SynthFormat::NginxError => format!(
            "{written} [{}] {pid}#0: *{} {msg}",
            lower(level),
            r.below(100_000)
        ),
        SynthFormat::Syslog => format!("{written} web01 app[{pid}]: {} {msg}", level.name()),
        SynthFormat::Json => format!(
            "{{\"ts\":\"{written}\",\"level\":\"{}\",\"logger\":\"app\",\"msg\":\"{msg}\"}}",
            lower(level)
        ),
    }
}

/// The template the analyser derives for a line of `format` carrying message template `tpl`.
fn line_template(format: SynthFormat, tpl: &str) -> String {
    match format {
        SynthFormat::Logback => format!("c.e.Service - {tpl}"),
        SynthFormat::NginxError => format!("<num>#<num>: *<num> {tpl}"),
        _ => tpl.to_string(),
    }
}

/// Plans the next event: one timestamped line, then maybe a stack trace or a blank line.
/// `pending` is left in pop order.
fn plan_event(spec: &SynthSpec, r: &mut Rng, clock: &mut Clock, pending: &mut Vec<Pending>) {
    clock.advance(r.below(spec.step_ms + 1));
    let level = pick_level(r);
    let (msg, tpl) = message(r, level);
    let (written, shown, minute) = clock.render(spec.format);
    let pid = 1000 + r.below(9000);
    let line = render_line(r, spec.format, &written, level, &msg, pid);
    let tpl = line_template(spec.format, tpl);
    pending.push((line, level, tpl, Some((shown, minute))));
    if level == Level::Error && spec.stack_traces && r.below(4) == 0 {
        let depth = r.below(3) as usize + 1;
        for &(raw, tpl) in STACK.iter().take(depth) {
            let raw = raw.replace("{}", &(10 + r.below(400)).to_string());
            pending.push((raw, Level::None, tpl.to_string(), None));
        }
    } else if r.below(1000) == 0 {
        pending.push((String::new(), Level::None, String::new(), None));
    }
    pending.reverse();
}

/// Writes the log described by `spec` and returns its truth.
pub fn generate(spec: &SynthSpec, out: &mut dyn Write) -> io::Result<SynthTruth> {
    let mut r = Rng::new(spec.seed);
    let mut truth = SynthTruth::default();
    let (y, mo, d, h, mi, s) = spec.start;
    let mut clock = Clock {
        y,
        mo,
        d,
        h,
        mi,
        s,
        ms: 0,
    };
    let eol = if spec.crlf { "\r\n" } else { "\n" };
    let mut pending: Vec<Pending> = Vec::new();
    loop {
        let done_lines = spec.lines > 0 && truth.lines >= spec.lines;
        let done_bytes = spec.min_bytes > 0 && truth.bytes >= spec.min_bytes;
        if (spec.min_bytes > 0 && done_bytes) || (spec.min_bytes == 0 && done_lines) {
            break;
        }
        if pending.is_empty() {
            plan_event(spec, &mut r, &mut clock, &mut pending);
        }
        let Some((text, level, tpl, ts)) = pending.pop() else {
            continue;
        };
        let last = (spec.min_bytes == 0 && truth.lines + 1 == spec.lines)
            || (spec.min_bytes > 0
                && pending.is_empty()
                && truth.bytes + text.len() as u64 >= spec.min_bytes);
        out.write_all(text.as_bytes())?;
        truth.bytes += text.len() as u64;
        if !last || spec.trailing_newline {
            out.write_all(eol.as_bytes())?;
            truth.bytes += eol.len() as u64;
        }
        truth.record(
            level,
            &tpl,
            ts.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
        );
        if last {
            break;
        }
    }
    Ok(truth)
}
