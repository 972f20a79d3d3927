//! The format registry: definitions compiled in from `formats/*.toml` plus an optional
//! directory of extra ones, and detection by content (the format that parses the largest
//! share of the first lines).

use std::path::Path;

use llmops_common::query::{FieldKind, Unit};

use super::assemble::{for_each_line, Assembler, EventRef};
use super::def::{compile, FieldSpec, Format, Origin};
use super::error::QueryError;
use super::event::{parse_time, Extractor, Schema};
use super::schema::looks_numeric;

/// Formats at or below this priority are chosen only when no other parses a line.
const FALLBACK_PRIORITY: i32 = -100;

/// Formats at or below this priority parse any line (`generic`): they win only when no
/// specific format parses nine lines in ten of what they do.
const CATCH_ALL_PRIORITY: i32 = -10;

/// Formats at or below this priority wrap any program's message (syslog's `host
/// program[pid]: message`): a specific format that parses nine lines in ten of what they do
/// reads the same lines with their own fields (HAProxy's request lines with a reload notice
/// between them).
const WRAPPER_PRIORITY: i32 = -5;

/// Lines sampled for detection and the schema.
pub const SAMPLE_LINES: usize = 200;

const BUILTIN: &[(&str, &str)] = &[
    (
        "nginx_combined.toml",
        include_str!("../../formats/nginx_combined.toml"),
    ),
    (
        "nginx_ingress.toml",
        include_str!("../../formats/nginx_ingress.toml"),
    ),
    (
        "nginx_timed.toml",
        include_str!("../../formats/nginx_timed.toml"),
    ),
    (
        "nginx_common.toml",
        include_str!("../../formats/nginx_common.toml"),
    ),
    (
        "json_lines.toml",
        include_str!("../../formats/json_lines.toml"),
    ),
    (
        "journal_json.toml",
        include_str!("../../formats/journal_json.toml"),
    ),
    ("lograge.toml", include_str!("../../formats/lograge.toml")),
    ("monolog.toml", include_str!("../../formats/monolog.toml")),
    ("uvicorn.toml", include_str!("../../formats/uvicorn.toml")),
    ("postfix.toml", include_str!("../../formats/postfix.toml")),
    ("jvm_gc.toml", include_str!("../../formats/jvm_gc.toml")),
    ("pm2.toml", include_str!("../../formats/pm2.toml")),
    ("heroku.toml", include_str!("../../formats/heroku.toml")),
    (
        "elixir_logger.toml",
        include_str!("../../formats/elixir_logger.toml"),
    ),
    (
        "istio_proxy.toml",
        include_str!("../../formats/istio_proxy.toml"),
    ),
    ("openvpn.toml", include_str!("../../formats/openvpn.toml")),
    (
        "mosquitto.toml",
        include_str!("../../formats/mosquitto.toml"),
    ),
    (
        "clickhouse.toml",
        include_str!("../../formats/clickhouse.toml"),
    ),
    (
        "haproxy_tcp.toml",
        include_str!("../../formats/haproxy_tcp.toml"),
    ),
    ("logfmt.toml", include_str!("../../formats/logfmt.toml")),
    (
        "syslog_rfc3164.toml",
        include_str!("../../formats/syslog_rfc3164.toml"),
    ),
    (
        "syslog_rfc5424.toml",
        include_str!("../../formats/syslog_rfc5424.toml"),
    ),
    ("sshd.toml", include_str!("../../formats/sshd.toml")),
    ("kernel.toml", include_str!("../../formats/kernel.toml")),
    (
        "java_logback.toml",
        include_str!("../../formats/java_logback.toml"),
    ),
    (
        "java_log4j.toml",
        include_str!("../../formats/java_log4j.toml"),
    ),
    (
        "spring_boot.toml",
        include_str!("../../formats/spring_boot.toml"),
    ),
    (
        "haproxy_http.toml",
        include_str!("../../formats/haproxy_http.toml"),
    ),
    (
        "postgresql.toml",
        include_str!("../../formats/postgresql.toml"),
    ),
    (
        "mysql_slow.toml",
        include_str!("../../formats/mysql_slow.toml"),
    ),
    (
        "mariadb_slow.toml",
        include_str!("../../formats/mariadb_slow.toml"),
    ),
    (
        "apache_vhost.toml",
        include_str!("../../formats/apache_vhost.toml"),
    ),
    (
        "syslog_iso.toml",
        include_str!("../../formats/syslog_iso.toml"),
    ),
    ("cri.toml", include_str!("../../formats/cri.toml")),
    (
        "nginx_error.toml",
        include_str!("../../formats/nginx_error.toml"),
    ),
    (
        "apache_error.toml",
        include_str!("../../formats/apache_error.toml"),
    ),
    ("redis.toml", include_str!("../../formats/redis.toml")),
    ("mongodb.toml", include_str!("../../formats/mongodb.toml")),
    ("tomcat.toml", include_str!("../../formats/tomcat.toml")),
    ("jenkins.toml", include_str!("../../formats/jenkins.toml")),
    ("airflow.toml", include_str!("../../formats/airflow.toml")),
    ("php_fpm.toml", include_str!("../../formats/php_fpm.toml")),
    (
        "java_util_logging.toml",
        include_str!("../../formats/java_util_logging.toml"),
    ),
    ("klog.toml", include_str!("../../formats/klog.toml")),
    (
        "dotnet_console.toml",
        include_str!("../../formats/dotnet_console.toml"),
    ),
    (
        "python_logging.toml",
        include_str!("../../formats/python_logging.toml"),
    ),
    ("envoy.toml", include_str!("../../formats/envoy.toml")),
    ("gin.toml", include_str!("../../formats/gin.toml")),
    (
        "aws_lambda.toml",
        include_str!("../../formats/aws_lambda.toml"),
    ),
    ("traefik.toml", include_str!("../../formats/traefik.toml")),
    ("celery.toml", include_str!("../../formats/celery.toml")),
    ("rails.toml", include_str!("../../formats/rails.toml")),
    ("coredns.toml", include_str!("../../formats/coredns.toml")),
    ("fail2ban.toml", include_str!("../../formats/fail2ban.toml")),
    (
        "es_slowlog.toml",
        include_str!("../../formats/es_slowlog.toml"),
    ),
    ("exim.toml", include_str!("../../formats/exim.toml")),
    ("auditd.toml", include_str!("../../formats/auditd.toml")),
    ("kafka.toml", include_str!("../../formats/kafka.toml")),
    ("jboss.toml", include_str!("../../formats/jboss.toml")),
    (
        "cassandra.toml",
        include_str!("../../formats/cassandra.toml"),
    ),
    ("squid.toml", include_str!("../../formats/squid.toml")),
    ("w3c.toml", include_str!("../../formats/w3c.toml")),
    ("aws_alb.toml", include_str!("../../formats/aws_alb.toml")),
    ("aws_elb.toml", include_str!("../../formats/aws_elb.toml")),
    ("aws_s3.toml", include_str!("../../formats/aws_s3.toml")),
    (
        "cloudfront.toml",
        include_str!("../../formats/cloudfront.toml"),
    ),
    ("uwsgi.toml", include_str!("../../formats/uwsgi.toml")),
    ("gunicorn.toml", include_str!("../../formats/gunicorn.toml")),
    (
        "jetty_stderr.toml",
        include_str!("../../formats/jetty_stderr.toml"),
    ),
    ("nagios.toml", include_str!("../../formats/nagios.toml")),
    ("dpkg.toml", include_str!("../../formats/dpkg.toml")),
    (
        "apt_history.toml",
        include_str!("../../formats/apt_history.toml"),
    ),
    (
        "couchbase.toml",
        include_str!("../../formats/couchbase.toml"),
    ),
    (
        "postgresql_csv.toml",
        include_str!("../../formats/postgresql_csv.toml"),
    ),
    (
        "supervisord.toml",
        include_str!("../../formats/supervisord.toml"),
    ),
    ("zeek.toml", include_str!("../../formats/zeek.toml")),
    (
        "docker_json.toml",
        include_str!("../../formats/docker_json.toml"),
    ),
    ("generic.toml", include_str!("../../formats/generic.toml")),
    ("dmesg.toml", include_str!("../../formats/dmesg.toml")),
    ("plain.toml", include_str!("../../formats/plain.toml")),
];

/// Known formats.
#[derive(Debug, Clone)]
pub struct Registry {
    formats: Vec<Format>,
}

/// What detection chose for a file.
#[derive(Debug, Clone)]
pub struct Detection {
    pub format: usize,
    /// A layout learned from the sample, chosen over `format` (a catch-all) when it reads
    /// the sample as well and finds more in it.
    pub learned: Option<Format>,
    /// Sample lines the chosen format parsed, and sample lines.
    pub parsed: u64,
    pub lines: u64,
}

impl Registry {
    /// The definitions shipped in `formats/`.
    pub fn builtin() -> Registry {
        let formats = BUILTIN
            .iter()
            .map(|(file, text)| {
                // Shipped definitions are checked by the tests; one that fails to compile is
                // a build defect, not an input error.
                compile(file, text).unwrap_or_else(|e| panic!("builtin format {file}: {e}"))
            })
            .collect();
        Registry { formats }
    }

    /// The shipped definitions plus every `*.toml` in `dir` (one with a shipped name
    /// replaces it).
    pub fn with_dir(dir: &Path) -> Result<Registry, QueryError> {
        let mut reg = Registry::builtin();
        let entries = std::fs::read_dir(dir).map_err(|e| QueryError::io(dir, &e))?;
        let mut paths: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).map_err(|e| QueryError::io(&p, &e))?;
            let f = compile(&p.display().to_string(), &text)?;
            reg.add(f);
        }
        Ok(reg)
    }

    /// Adds a format, replacing one of the same name.
    pub fn add(&mut self, f: Format) {
        match self.formats.iter().position(|x| x.name == f.name) {
            Some(i) => self.formats[i] = f,
            None => self.formats.push(f),
        }
    }

    pub fn formats(&self) -> &[Format] {
        &self.formats
    }

    pub fn get(&self, name: &str) -> Option<&Format> {
        self.formats.iter().find(|f| f.name == name)
    }

    /// Picks the format that parses the most of the first [`SAMPLE_LINES`] non-empty
    /// lines of `head`; ties go to the format that extracts more fields, then to the
    /// higher priority.
    pub fn detect(&self, head: &[u8]) -> Detection {
        let sample = sample_lines(head);
        let lines = sample.len() as u64;
        let scored: Vec<Scored> = self
            .formats
            .iter()
            .enumerate()
            .filter(|(_, f)| f.priority > FALLBACK_PRIORITY)
            .map(|(i, f)| {
                let sc = score(f, &sample);
                (sc.parsed, sc.hits, f.priority, i, sc.timed)
            })
            .filter(|s| s.0 > 0)
            .collect();
        let best = |among: &dyn Fn(&Scored) -> bool| {
            scored
                .iter()
                .filter(|s| among(s))
                .max_by_key(|(p, h, pr, i, _)| (*p, *h, *pr, std::cmp::Reverse(*i)))
                .copied()
        };
        let Some(top) = best(&|_| true) else {
            let fallback = self
                .formats
                .iter()
                .position(|f| f.priority <= FALLBACK_PRIORITY)
                .unwrap_or(0);
            // `plain` was not scored above; the layout must read as many lines as it does.
            let caught = self
                .formats
                .get(fallback)
                .map_or(Score::default(), |f| score(f, &sample));
            return self.or_learned(
                Detection {
                    format: fallback,
                    learned: None,
                    parsed: 0,
                    lines,
                },
                &sample,
                caught,
            );
        };
        // A catch-all format (priority -10 or lower) parses everything, a wrapper (-5 or
        // lower) any program's lines; a more specific one that parses nine lines in ten of
        // the same sample is the log's format, with its odd lines left unparsed and said so.
        let above = if top.2 <= CATCH_ALL_PRIORITY {
            CATCH_ALL_PRIORITY
        } else {
            WRAPPER_PRIORITY
        };
        let chosen = if top.2 <= WRAPPER_PRIORITY {
            best(&|s| s.2 > above && s.0 * 10 >= top.0 * 9).unwrap_or(top)
        } else {
            top
        };
        let det = Detection {
            format: chosen.3,
            learned: None,
            parsed: chosen.0,
            lines,
        };
        if chosen.2 <= CATCH_ALL_PRIORITY {
            let caught = Score {
                parsed: chosen.0,
                hits: chosen.1,
                timed: chosen.4,
            };
            self.or_learned(det, &sample, caught)
        } else {
            det
        }
    }

    /// `det` (a catch-all's reading, which scored `caught` on `sample`), or a layout
    /// learned from `sample` (a table under a header row, else a layout of timed lines) when
    /// that reads more of its lines (a stack trace joined to its event), or as many with more
    /// fields.
    fn or_learned(&self, det: Detection, sample: &[&[u8]], caught: Score) -> Detection {
        // A layout of time, level and message alone is `generic`'s own reading; over `plain`
        // (no time at all), or a catch-all that finds a time on under half the lines, the
        // time is gain enough.
        let plain = self.formats.get(det.format).is_none_or(|f| {
            f.priority <= FALLBACK_PRIORITY || caught.timed * 2 < sample.len() as u64
        });
        // A table whose quoted values run over lines joins them into its records.
        let table = super::learn_table::learn_table(sample).map(|t| {
            let joined = t.multiline.is_some();
            (t, joined)
        });
        let layout = std::iter::once_with(|| super::learn::learn(sample)).flatten();
        for (learned, spans_seen) in table.into_iter().chain(layout) {
            let Score { parsed, hits, .. } = score(&learned, sample);
            let own_columns = plain
                || learned.fields.iter().any(|f| {
                    !matches!(f.name.as_str(), "time" | "level" | "message" | "exception")
                });
            // Lines joined to events count as read only where the sample shows such events;
            // over a reading without times, the times are the gain.
            let better = (spans_seen && (parsed > caught.parsed || plain))
                || (own_columns && hits > caught.hits);
            if parsed * 10 >= caught.parsed * 9 && parsed > 0 && better {
                return Detection {
                    learned: Some(learned),
                    parsed,
                    ..det
                };
            }
        }
        det
    }
}

impl Detection {
    /// The format chosen: the learned layout, else the registry's.
    pub fn chosen<'a>(&'a self, reg: &'a Registry) -> &'a Format {
        self.learned
            .as_ref()
            .unwrap_or_else(|| &reg.formats()[self.format])
    }
}

/// A format's score on a sample, computed once: (lines parsed, fields found, priority,
/// index in the registry).
/// (lines parsed, fields found, priority, index, events timed): a format's score.
type Scored = (u64, u64, i32, usize, u64);

/// How a format reads a sample: lines parsed with every typed field valid, field values
/// found, and events with a time.
#[derive(Debug, Clone, Copy, Default)]
struct Score {
    parsed: u64,
    hits: u64,
    timed: u64,
}

/// The first non-empty lines of `head` (a last line cut by the read is dropped).
pub fn sample_lines(head: &[u8]) -> Vec<&[u8]> {
    let complete = match memchr::memrchr(b'\n', head) {
        Some(p) if p + 1 < head.len() && head.len() >= 64 * 1024 => &head[..p + 1],
        _ => head,
    };
    let mut out = Vec::new();
    for_each_line(complete, |l| {
        if out.len() < SAMPLE_LINES && !l.iter().all(u8::is_ascii_whitespace) {
            out.push(l);
        }
    });
    out
}

/// Runs `f` over the events of `lines` with `fmt`'s multi-line rules (a `w3c` format's
/// directive lines are handed over too: they set the columns of the lines after them).
pub fn each_event(fmt: &Format, lines: &[&[u8]], f: &mut dyn FnMut(EventRef<'_>)) {
    match &fmt.multiline {
        Some(ml) => {
            let mut asm = Assembler::new(ml);
            for (n, l) in lines.iter().enumerate() {
                asm.push(l, n as u64, f);
            }
            asm.flush(f);
        }
        None => {
            for (n, l) in lines.iter().enumerate() {
                f(EventRef {
                    text: l,
                    line: n as u64,
                    nlines: 1,
                });
            }
        }
    }
}

/// The lines of a parsed event that the format read: all of them, but for a JSON object
/// read from its first line only, whose other lines are another writer's (a trace under a
/// panic), or no JSON at all (a text log with a few JSON lines in it).
fn read_lines(fmt: &Format, ev: EventRef<'_>) -> u64 {
    let json_head_only = fmt.kind == super::def::ParseKind::Json
        && ev.nlines > 1
        && serde_json::from_slice::<serde::de::IgnoredAny>(ev.text.trim_ascii()).is_err();
    if json_head_only {
        1
    } else {
        ev.nlines
    }
}

/// How `fmt` reads `lines` (see [`Score`]).
fn score(fmt: &Format, lines: &[&[u8]]) -> Score {
    if let Some(sig) = &fmt.signature {
        let marked = lines
            .iter()
            .any(|l| std::str::from_utf8(l).is_ok_and(|s| sig.is_match(s)));
        if !marked {
            return Score::default();
        }
    }
    let mut schema = Schema::of(fmt);
    super::columns::add_columns(fmt, lines, &mut schema);
    let mut ex = Extractor::new(fmt, &schema);
    let directives = super::columns::directive_lines(fmt, lines);
    let (mut parsed, mut hits, mut timed) = (directives, directives, 0);
    // The lines of the last event when it did not parse: a table's record the sample's end
    // cuts (a CSV value over dozens of lines) is no evidence against the table.
    let mut cut = 0u64;
    each_event(fmt, lines, &mut |ev| {
        ex.reset();
        cut = 0;
        if !ex.parses(ev.text) {
            // A table's notes and header are its own lines, read as such.
            parsed += u64::from(fmt.only_rows);
            cut = ev.nlines.saturating_sub(u64::from(fmt.only_rows));
            return;
        }
        let (mut found, mut has_time) = (0u64, false);
        for (fid, spec) in schema.fields.iter().enumerate() {
            let Some(v) = ex.value(ev.text, fid) else {
                continue;
            };
            let b = v.as_bytes();
            let valid = match spec.kind {
                _ if b.is_empty() || b == b"-" => true,
                FieldKind::Integer | FieldKind::Number => super::event::parse_number(b).is_some(),
                FieldKind::Time => parse_time(b, fmt.time_format).is_some(),
                FieldKind::Text | FieldKind::Ip => true,
            };
            let strict = matches!(
                spec.origin,
                Origin::Capture(_) | Origin::Column(_) | Origin::ColumnTime(_)
            );
            if !valid && strict {
                return;
            }
            found += u64::from(valid && !b.is_empty());
            has_time |= schema.time == Some(fid) && valid && !b.is_empty();
        }
        found += ex.keys(ev.text).len() as u64;
        parsed += read_lines(fmt, ev);
        hits += found;
        timed += u64::from(has_time);
    });
    if fmt.only_rows && fmt.multiline.is_some() && lines.len() >= SAMPLE_LINES {
        parsed += cut;
    }
    Score {
        parsed,
        hits,
        timed,
    }
}

/// The format a file whose first bytes are `head` is read in, and its schema: `fmt`, plus
/// fields read out of the text for roles it has no field for (`ip`, `took`), those the
/// sample shows and those a question asks for (`wanted`, names or roles).
pub fn reading(reg: &Registry, fmt: Format, head: &[u8], wanted: &[&str]) -> (Format, Schema) {
    let schema = schema_in(reg, &fmt, head);
    let lines = sample_lines(head);
    let (fmt, mut schema) =
        match super::text_fields::with_text_fields(&fmt, &schema, &lines, each_event, wanted) {
            Some(more) => {
                let schema = schema_in(reg, &more, head);
                (more, schema)
            }
            None => (fmt, schema),
        };
    // Pairs in messages of the whole head, past the sampled lines: a batch's lines that
    // start a few hundred lines in (`duration=`) are the key a question names.
    let mut all = Vec::new();
    for_each_line(head, |l| all.push(l));
    if all.len() > lines.len() {
        add_message_keys(&fmt, &all, &mut schema, Keys::Measures);
    }
    (fmt, schema)
}

/// The schema of a file in `fmt`: the format's fields, keys found in the sample, an
/// example value of each, and the fields of an envelope's inner lines in formats of `reg`.
pub fn schema_in(reg: &Registry, fmt: &Format, head: &[u8]) -> Schema {
    let mut schema = schema_parts(fmt, head);
    let detect = |inner: &[u8]| {
        let det = reg.detect(inner);
        reg.formats().get(det.format).filter(|_| det.parsed > 0)
    };
    super::envelope::add_inner(&detect, schema_parts, fmt, &sample_lines(head), &mut schema);
    schema.add_template();
    schema
}

/// [`schema_in`] without an envelope's inner fields and the message template.
pub fn schema_parts(fmt: &Format, head: &[u8]) -> Schema {
    let lines = sample_lines(head);
    let mut schema = Schema::of(fmt);
    super::columns::add_columns(fmt, &lines, &mut schema);
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut templates: Vec<String> = Vec::new();
    let mut examples: Vec<Option<String>> = vec![None; schema.fields.len()];
    {
        let base = schema.clone();
        let mut ex = Extractor::new(fmt, &base);
        each_event(fmt, &lines, &mut |ev| {
            ex.reset();
            if !ex.parses(ev.text) {
                return;
            }
            for (fid, slot) in examples.iter_mut().enumerate() {
                if slot.is_none() {
                    *slot = ex
                        .value(ev.text, fid)
                        .map(|v| v.to_text())
                        .filter(|s| !s.is_empty() && s != "-");
                }
            }
            for (k, v) in ex.keys(ev.text) {
                if TEMPLATE_KEYS.contains(&k.as_str()) && !templates.contains(&v) {
                    templates.push(v.clone());
                }
                if let Some(slot) = keys.iter_mut().find(|(kk, _)| *kk == k) {
                    if slot.1.is_empty() {
                        slot.1 = v;
                    }
                } else {
                    keys.push((k, v));
                }
            }
        });
    }
    for (slot, ex) in schema.examples.iter_mut().zip(examples) {
        *slot = ex.map(|s| llmops_common::truncate_chars(&s, 80));
    }
    give_shared_roles_to_written_fields(&mut schema);
    for (k, v) in keys {
        schema.add_key(&k, &llmops_common::truncate_chars(&v, 80));
    }
    units_stated_in_templates(&templates, &mut schema);
    add_message_keys(fmt, &lines, &mut schema, Keys::All);
    add_record_keys(fmt, &lines, &mut schema);
    schema
}

/// Keys holding a structured logger's message template (Serilog's CLEF `@mt`, its JSON
/// formatter's `MessageTemplate`).
const TEMPLATE_KEYS: [&str; 2] = ["@mt", "MessageTemplate"];

/// A property's unit as its message template states it (`in {Elapsed:0.0000} ms`,
/// `({elapsed}ms)`): the number under that key is in that unit, whatever its name says.
fn units_stated_in_templates(templates: &[String], schema: &mut Schema) {
    for t in templates {
        let b = t.as_bytes();
        let mut at = 0;
        while let Some(open) = t[at..].find('{').map(|i| at + i) {
            let Some(close) = t[open..].find('}').map(|i| open + i) else {
                break;
            };
            let name = t[open + 1..close].split([':', ',']).next().unwrap_or("");
            let after = b.get(close + 1..).unwrap_or_default();
            let after = after.strip_prefix(b" ").unwrap_or(after);
            let unit = super::inline_pairs::unit_word(after);
            let field = schema.fields.iter_mut().find(|f| f.name == name);
            if let (Some(unit), Some(f)) = (unit, field) {
                if matches!(f.kind, FieldKind::Integer | FieldKind::Number) {
                    f.unit = unit;
                }
            }
            at = close + 1;
        }
    }
}

/// A role two fields of the line answer for (uWSGI's `msecs` and, with `log-micros`,
/// `usecs`: both `duration`) belongs to the ones the sample holds values of: a field the
/// file never writes does not answer for it.
fn give_shared_roles_to_written_fields(schema: &mut Schema) {
    let of_line = |f: &FieldSpec| matches!(f.origin, Origin::Capture(_) | Origin::Derived(_));
    let n = schema.fields.len().min(schema.examples.len());
    // Roles of the line's fields that hold a value in the sample.
    let written_roles: Vec<(usize, String)> = (0..n)
        .filter(|&j| schema.examples[j].is_some() && of_line(&schema.fields[j]))
        .flat_map(|j| schema.fields[j].roles.iter().map(move |r| (j, r.clone())))
        .collect();
    for i in 0..n {
        if schema.examples[i].is_some() || !of_line(&schema.fields[i]) {
            continue;
        }
        schema.fields[i]
            .roles
            .retain(|r| !written_roles.iter().any(|(j, w)| *j != i && w == r));
    }
}

/// Which keys of messages become fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keys {
    All,
    /// Only keys of numbers: past the sampled lines, a measure (`duration=`, `rows=`) is
    /// what a question asks of a later batch; a word's key (`code=killed`) would make the
    /// question's words conditions on events the sample never showed.
    Measures,
}

/// Keys written as `key=value` inside the message of a free-text format, seen in at least
/// [`inline_pairs::MIN_EVENTS`] sampled events (or in every event of a smaller sample), as
/// fields read out of the message.
pub(super) fn add_message_keys(fmt: &Format, lines: &[&[u8]], schema: &mut Schema, which: Keys) {
    use super::inline_pairs;
    let message = schema.fields.iter().position(|f| {
        f.roles.iter().any(|r| r == "message")
            && matches!(
                f.origin,
                Origin::Capture(_)
                    | Origin::Derived(_)
                    | Origin::Analyser(super::def::AnalyserPart::Message)
            )
    });
    let Some(message) = message else {
        return;
    };
    // Key, events it is in, an example value, and the unit written after a number.
    let mut seen: Vec<(String, usize, String, Option<Unit>)> = Vec::new();
    let mut events = 0usize;
    let base = schema.clone();
    let mut ex = Extractor::new(fmt, &base);
    // The analyser's message starts after the level; pairs may stand before it.
    let analyser = matches!(fmt.kind, super::def::ParseKind::Analyser);
    each_event(fmt, lines, &mut |ev| {
        ex.reset();
        let Some(text) = ex.value(ev.text, message).map(|v| v.to_text()) else {
            return;
        };
        let text = if analyser {
            String::from_utf8_lossy(super::event::first_line(ev.text)).into_owned()
        } else {
            text
        };
        events += 1;
        let b = text.as_bytes();
        let mut keys: Vec<(&str, &str, Option<Unit>)> = inline_pairs::pairs(b)
            .into_iter()
            .map(|(ks, ke, vs, ve)| {
                let unit = inline_pairs::unit_word_after(b, ve);
                (&text[ks..ke], &text[vs..ve], unit)
            })
            .collect();
        keys.dedup_by(|a, b| a.0 == b.0);
        for (k, v, unit) in keys {
            match seen.iter_mut().find(|(kk, ..)| kk == k) {
                Some(slot) => {
                    slot.1 += 1;
                    if slot.2.is_empty() {
                        slot.2 = v.to_string();
                    }
                    slot.3 = slot.3.or(unit);
                }
                None => seen.push((k.to_string(), 1, v.to_string(), unit)),
            }
        }
    });
    let need = inline_pairs::MIN_EVENTS.min(events.max(1));
    for (k, n, v, unit) in seen {
        let wanted = which == Keys::All || looks_numeric(&v);
        if n >= need && wanted && schema.index(&k).is_none() {
            let v = llmops_common::truncate_chars(&v, 80);
            if analyser {
                schema.add_line_key(&k, &v);
            } else {
                schema.add_message_key(message, &k, &v);
            }
            // `duration=8455 ms`: the unit written after the number is the field's.
            if let Some(f) = schema.fields.last_mut().filter(|f| f.name == k) {
                if f.unit == Unit::None && unit.is_some() && looks_numeric(&v) {
                    f.unit = unit.unwrap_or(Unit::None);
                    f.kind = FieldKind::Number;
                }
            }
        }
    }
}

/// Keys written in a record's own syntax (`KEY : value`, `Key(value)`) anywhere in the
/// events of a free-text format, seen in a tenth of the sampled events and at least
/// [`inline_pairs::MIN_EVENTS`], as fields read out of the event; none that names a field
/// the schema has in any case.
fn add_record_keys(fmt: &Format, lines: &[&[u8]], schema: &mut Schema) {
    use super::inline_pairs;
    if matches!(fmt.kind, super::def::ParseKind::Json) {
        return;
    }
    let mut seen: Vec<(String, usize, String)> = Vec::new();
    let mut events = 0usize;
    each_event(fmt, lines, &mut |ev| {
        events += 1;
        let mut keys: Vec<(&[u8], &[u8])> = inline_pairs::record_pairs(ev.text)
            .into_iter()
            .map(|(ks, ke, vs, ve)| (&ev.text[ks..ke], &ev.text[vs..ve]))
            .collect();
        keys.sort_by_key(|k| k.0);
        keys.dedup_by(|a, b| a.0 == b.0);
        for (k, v) in keys {
            let k = String::from_utf8_lossy(k);
            match seen.iter_mut().find(|(kk, _, _)| *kk == k) {
                Some(slot) => slot.1 += 1,
                None => seen.push((k.into_owned(), 1, String::from_utf8_lossy(v).into_owned())),
            }
        }
    });
    let need = inline_pairs::MIN_EVENTS.max(events / 10);
    for (k, n, v) in seen {
        let taken = schema
            .fields
            .iter()
            .any(|f| f.name.eq_ignore_ascii_case(&k));
        if n >= need && !taken {
            schema.add_record_key(&k, &llmops_common::truncate_chars(&v, 80));
        }
    }
}
