//! Phrases a log writes word for word, read as that text over planted logs, with their
//! figures checked: a phrase holding cue words ("no live upstreams", "DB saved on disk"),
//! a grouped field kept out of a phrase, a grouping word never taken into one, and words
//! left out beside a grouping that the log writes.

use llmops_common::query::QueryValue;

use super::tests_answers::Planted;

/// An nginx error log: upstream timeouts per upstream, refused connections, "no live
/// upstreams" lines (the last of them planted) and health checks that say "live".
fn nginx_error() -> (String, [u64; 3], String) {
    let mut text = String::new();
    // Timed out per upstream (a, b), and refused at upstream b.
    let mut counts = [0u64; 3];
    let mut last_no_live = String::new();
    for i in 0..240u32 {
        let ts = format!("2026/11/30 02:{:02}:{:02}", i / 60, i % 60);
        let up = if i % 5 < 3 {
            "10.0.0.7:9000"
        } else {
            "10.0.0.8:9000"
        };
        let line = match i % 4 {
            0 | 1 => {
                counts[usize::from(up.ends_with("8:9000"))] += 1;
                format!("{ts} [error] 9#9: *{i} upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.1.0.{}, server: shop, request: \"GET /a HTTP/1.1\", upstream: \"fastcgi://{up}\", host: \"shop\"", i % 9)
            }
            // Another line saying "live", the log's last but one.
            2 if i % 3 == 1 => {
                format!("{ts} [notice] 9#9: health check: upstream 10.0.0.7:9000 is live")
            }
            2 if i % 3 == 0 => {
                last_no_live = ts.clone();
                format!("{ts} [error] 9#9: *{i} no live upstreams while connecting to upstream, client: 10.1.0.1, server: shop, request: \"GET / HTTP/1.1\", upstream: \"fastcgi://php\", host: \"shop\"")
            }
            _ => {
                // Refused mostly by the second upstream.
                let up = if i % 5 == 0 {
                    "10.0.0.7:9000"
                } else {
                    "10.0.0.8:9000"
                };
                counts[2] += u64::from(up.ends_with("8:9000"));
                format!("{ts} [error] 9#9: *{i} connect() failed (111: Connection refused) while connecting to upstream, client: 10.1.0.2, server: shop, request: \"POST /c HTTP/1.1\", upstream: \"fastcgi://{up}\", host: \"shop\"")
            }
        };
        text.push_str(&line);
        text.push('\n');
    }
    (text, counts, last_no_live)
}

#[test]
fn a_phrase_the_log_writes_is_that_text() {
    let (text, counts, last) = nginx_error();
    let p = Planted::new("error.log", &text);
    for q in [
        "when was the last no live upstreams",
        "最后一次 no live upstreams 是什么时候",
    ] {
        match p.answer(q).value {
            QueryValue::Rows { rows, .. } => {
                assert!(rows[0].text.starts_with(&last), "{q}: {rows:?}");
                assert!(rows[0].text.contains("no live upstreams"), "{q}: {rows:?}");
            }
            other => panic!("{q}: not rows: {other:?}"),
        }
    }
    let no_live = text.matches("no live upstreams").count() as u64;
    let r = p.answer("how many no live upstreams errors");
    assert!(
        matches!(r.value, QueryValue::Count { count } if count == no_live),
        "{:?} (planted {no_live})",
        r.value
    );
    // "upstream" right after "which" is the grouped field, not a word of a phrase.
    for q in [
        "which upstream timed out most often",
        "which upstream was it mostly timing out on",
    ] {
        let top = p.top_group(q);
        assert!(top.key[0].contains("10.0.0.7:9000"), "{q}: {top:?}");
        assert_eq!(top.count, counts[0], "{q}: {top:?}");
    }
    // Words left out beside a grouping ("refused") are its condition where the log
    // writes them.
    let top = p.top_group("which upstream refused connections the most");
    assert!(top.key[0].contains("10.0.0.8:9000"), "{top:?}");
    assert_eq!(top.count, counts[2], "{top:?}");
}

/// A Redis log whose "DB saved on disk" lines are fewer than its other saving lines: the
/// phrase, cue words ("DB", "disk") and all, counts only its own lines; a grouping word the
/// log also writes ("by user") stays the grouping.
#[test]
fn cue_words_inside_a_written_phrase_and_a_grouping_kept() {
    let mut text = String::new();
    let mut saved = 0u64;
    for i in 0..200u32 {
        let ts = format!("30 Nov 2026 02:{:02}:{:02}.000", i / 60 % 60, i % 60);
        let msg = match i % 4 {
            0 => {
                saved += 1;
                "DB saved on disk".to_string()
            }
            1 => "Background saving started by pid 77".to_string(),
            2 => "Background saving terminated with success".to_string(),
            _ => format!("{} changes in 60 seconds. Saving...", 100 + i),
        };
        text.push_str(&format!("1:M {ts} * {msg}\n"));
    }
    let p = Planted::new("redis-server.log", &text);
    for q in [
        "how many DB saved on disk in redis-server.log",
        "redis-server.log 里 DB saved on disk 有几次",
    ] {
        let r = p.answer(q);
        assert!(
            matches!(r.value, QueryValue::Count { count } if count == saved),
            "{q}: {:?} (planted {saved})",
            r.value
        );
    }
    let mut app = String::new();
    let mut errors = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..120u32 {
        let user = format!("u{}", i % 3);
        // u0 fails every time, the others every other time.
        let level = if i % 3 == 0 || i % 2 == 0 {
            "error"
        } else {
            "info"
        };
        if level == "error" {
            *errors.entry(user.clone()).or_default() += 1;
        }
        app.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}.000Z level={level} user={user} msg=\"job cancelled by user\"\n",
            i / 60,
            i % 60
        ));
    }
    let p = Planted::new("jobs.log", &app);
    let (top, n) = errors.iter().max_by_key(|(_, n)| **n).expect("errors");
    let got = p.top_group("errors by user in jobs.log");
    assert_eq!((&got.key[0], got.count), (top, *n), "{got:?}");
}

/// A PHP-FPM log and an nginx error log of one session, none sent with the question:
/// "php-fpm" names the PHP-FPM log (its format, as the program writes its name); a phrase
/// with a number and a plural the log writes otherwise ("children exited on signal 9",
/// "PHP Fatal errors") counts the lines that say it; nginx's "limiting requests" lines are
/// rate limiting, grouped by client.
#[test]
fn a_php_fpm_log_and_nginxs_rate_limiting() {
    let mut fpm = String::new();
    let (mut max_children, mut sigkill, mut fatal) = (0u64, 0u64, 0u64);
    for i in 0..300u32 {
        let ts = format!("30-Nov-2026 02:{:02}:{:02}", i / 60, i % 60);
        let pool = ["www", "api"][(i % 2) as usize];
        let line = match i % 6 {
            0 => {
                max_children += 1;
                format!("[{ts}] WARNING: [pool {pool}] server reached pm.max_children setting (50), consider raising it")
            }
            1 => {
                sigkill += 1;
                format!("[{ts}] WARNING: [pool {pool}] child {} exited on signal 9 (SIGKILL) after 12.5 seconds from start", 1000 + i)
            }
            2 => format!("[{ts}] NOTICE: [pool {pool}] child {} exited with code 0 after 3600.1 seconds from start", 1000 + i),
            3 => {
                fatal += 1;
                format!("[{ts}] WARNING: [pool {pool}] child {} said into stderr: \"PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted\"", 1000 + i)
            }
            _ => format!("[{ts}] NOTICE: [pool {pool}] child {} started", 1000 + i),
        };
        fpm.push_str(&line);
        fpm.push('\n');
    }
    let mut ngx = String::new();
    let mut limited = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..200u32 {
        let ts = format!("2026/11/30 02:{:02}:{:02}", i / 60, i % 60);
        let client = format!("192.0.2.{}", if i % 3 == 0 { 9 } else { i % 7 });
        if i % 2 == 0 {
            *limited.entry(client.clone()).or_default() += 1;
            ngx.push_str(&format!("{ts} [warn] 9#9: *{i} limiting requests, excess: 5.120 by zone \"perip\", client: {client}, server: shop, request: \"GET /search HTTP/1.1\", host: \"shop\"\n"));
        } else {
            ngx.push_str(&format!("{ts} [error] 9#9: *{i} open() \"/var/www/favicon.ico\" failed (2: No such file or directory), client: {client}, server: shop, request: \"GET /favicon.ico HTTP/1.1\", host: \"shop\"\n"));
        }
    }
    let p = Planted::many(&[("php8.2-fpm.log", &fpm), ("error.log", &ngx)]);
    let count = |q: &str, planted: u64, log: &str| {
        let r = p.answer(q);
        assert_eq!(r.sources[0].name, log, "{q}");
        assert!(
            matches!(r.value, QueryValue::Count { count } if count == planted),
            "{q}: {:?} (planted {planted})",
            r.value
        );
    };
    count(
        "php-fpm 里 max_children 报了多少次",
        max_children,
        "php8.2-fpm.log",
    );
    count(
        "how many children exited on signal 9",
        sigkill,
        "php8.2-fpm.log",
    );
    count("how many PHP Fatal errors", fatal, "php8.2-fpm.log");
    let (top, n) = limited.iter().max_by_key(|(_, n)| **n).expect("limited");
    let got = p.top_group("which client got rate limited the most in error.log");
    assert_eq!((&got.key[0], got.count), (top, *n), "{got:?}");
}

/// A tag's own words keep the tag: a journal whose systemd line says "killed by the OOM
/// killer" after the kernel's first kill, which says "Out of memory: Killed process": the
/// first OOM kill is the kernel's line.
#[test]
fn a_tags_words_keep_the_tag() {
    let text = "\
2033-01-09T04:10:00+0000 cache-3 redis[700]: 1:M * Background saving started
2033-01-09T04:12:41+0000 cache-3 kernel: Out of memory: Killed process 7311 (redis-server) total-vm:4012345kB
2033-01-09T04:12:42+0000 cache-3 systemd[1]: worker@2.service: A process of this unit has been killed by the OOM killer.
2033-01-09T04:15:00+0000 cache-3 redis[701]: 1:M * Ready to accept connections
";
    let p = Planted::new("cache-3-journal.txt", text);
    match p.answer("when did the OOM killer first strike").value {
        QueryValue::Rows { rows, .. } => assert!(rows[0].text.contains("7311"), "{rows:?}"),
        other => panic!("not rows: {other:?}"),
    }
}

/// A phrase holding the measured field's word stays words: "the lowest payload size" of a
/// log that also writes "payload size" measures `size`.
#[test]
fn a_phrase_with_the_measured_fields_word_stays_words() {
    let mut text = String::new();
    let mut sizes = Vec::new();
    for i in 0..60u32 {
        let size = 900 + i * 37 % 500;
        sizes.push(f64::from(size));
        text.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}Z level=info msg=\"payload size checked\" size={size}\n",
            i / 60,
            i % 60
        ));
    }
    let p = Planted::new("upload.log", &text);
    let min = sizes.iter().copied().fold(f64::MAX, f64::min);
    let (q, got) = super::tests_named_events::figure(&p, "the lowest payload size in upload.log");
    assert_eq!(got, min, "{q:?}");
}

/// A written phrase right after a field of text's name is no value of it: "按 tenant 看
/// exported report 的平均 export_ms" groups by tenant over the lines that say "exported
/// report".
#[test]
fn a_phrase_after_a_text_fields_name_is_no_value_of_it() {
    let mut text = String::new();
    let mut by_tenant = std::collections::BTreeMap::<&str, Vec<f64>>::new();
    for i in 0..90u32 {
        let tenant = ["acme", "initech", "globex"][(i % 3) as usize];
        let ms = 100 + i * 7 % 50 + if tenant == "initech" { 400 } else { 0 };
        let msg = if i % 2 == 0 {
            "exported report"
        } else {
            "queued export"
        };
        if msg == "exported report" {
            by_tenant.entry(tenant).or_default().push(f64::from(ms));
        }
        text.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}Z level=info tenant={tenant} export_ms={ms} msg=\"{msg}\"\n",
            i / 60,
            i % 60
        ));
    }
    let p = Planted::new("exports.log", &text);
    let top =
        p.top_group("exports.log 按 tenant 看 exported report 的平均 export_ms，最高的是谁？");
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert_eq!(top.key[0], "initech", "{top:?}");
    let planted = mean(&by_tenant["initech"]);
    assert!(
        top.value.is_some_and(|v| (v - planted).abs() < 1e-9),
        "{top:?} vs {planted}"
    );
}
