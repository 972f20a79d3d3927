//! A config's or script's title: the comment it opens with to say what the file is for
//! (`# Redis 7.2 — manifest-cache (playback manifests + player session cache)`), and its
//! place in a chunk's context. Every line of such a file is about that subject although
//! few repeat it: `port 6391` answers "manifest-cache redis 的端口" only with the title
//! read as its context, as the file's name is.

use super::syntax;

/// Longest line of a title kept: a title names, it does not explain.
const MAX_CHARS: usize = 160;
/// Non-blank lines looked at for the title (shebangs and separators included).
const LOOK_LINES: usize = 6;
/// Comment lines of the header block that make the title: a header's first line is often
/// the file's path, its second what the file is for.
const TITLE_LINES: usize = 2;
/// Marks the title's line in a chunk's context; key paths never start with it.
const MARK: &str = "# ";

/// Files whose first comment is not a title: prose (`#` is a heading), C sources (`#` is
/// a directive, the first comment a license), logs, tables, JSON and compressed pages.
fn no_title(lower: &str) -> bool {
    syntax::prose(lower)
        || syntax::c_family(lower)
        || [".log", ".gz", ".csv", ".tsv", ".json"]
            .iter()
            .any(|e| lower.ends_with(e))
}

/// Whether a file of this name may have a title (the backfill reads only those).
pub fn may_have(filename: &str) -> bool {
    !no_title(&filename.to_lowercase())
}

/// Whether a comment says what the file is for: two words of letters at least (not a
/// rule of `#####`, not `vim: set ts=2`, not a license).
fn says_something(text: &str) -> bool {
    let lower = text.to_lowercase();
    let boilerplate = ["copyright", "(c)", "licensed", "license", "spdx", "vim:"];
    if boilerplate.iter().any(|b| lower.starts_with(b)) {
        return false;
    }
    let words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    words >= 2 || lower.chars().filter(|c| crate::chunker::is_cjk(*c)).count() >= 2
}

/// The file's title, lower-cased: the first `TITLE_LINES` comment lines that say
/// something in the comment block the file opens with (after a shebang, `---` or
/// `<?xml ...?>`; a blank line ends the block). `None` for prose, sources, logs and files
/// that open with a setting.
pub fn file_title(filename: &str, text: &str) -> Option<String> {
    if !may_have(filename) {
        return None;
    }
    let lower = filename.to_lowercase();
    let dashes = lower.ends_with(".sql") || lower.ends_with(".lua");
    let mut found: Vec<String> = Vec::new();
    let mut seen = 0;
    for t in text.lines().map(str::trim) {
        if t.is_empty() {
            // The header block ends at a blank line: the comment after it is a key's.
            if found.is_empty() {
                continue;
            }
            break;
        }
        seen += 1;
        if seen > LOOK_LINES {
            break;
        }
        if t.starts_with("#!") || t == "---" || t.starts_with("<?xml") {
            continue;
        }
        let Some(raw) = syntax::comment_text(t, dashes) else {
            break;
        };
        let c = raw.trim_matches(|ch: char| ch.is_whitespace() || "#;/-=*<>!~".contains(ch));
        // `-*- coding: utf-8 -*-` is for the editor.
        if !raw.contains("-*-") && says_something(c) {
            found.push(c.chars().take(MAX_CHARS).collect::<String>().to_lowercase());
            if found.len() == TITLE_LINES {
                break;
            }
        }
    }
    (!found.is_empty()).then(|| found.join(" "))
}

/// A chunk's context (its key paths, `keypath::chunk_context`) with its file's title.
pub fn with_title(mut context: String, title: Option<&str>) -> String {
    if let Some(t) = title {
        if !context.is_empty() {
            context.push('\n');
        }
        context.push_str(MARK);
        context.push_str(t);
    }
    context
}

/// The title in a chunk's context, `""` without one.
pub fn of(context: &str) -> &str {
    context
        .lines()
        .find_map(|l| l.strip_prefix(MARK))
        .unwrap_or("")
}

/// The key paths of a chunk's context, without its title.
pub fn key_paths(context: &str) -> impl Iterator<Item = &str> {
    context
        .lines()
        .filter(|l| !l.starts_with(MARK))
        .flat_map(str::split_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_blocks_first_two_comments_that_say_something_are_the_title() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            (
                "redis.conf",
                "# Redis 7.2 — manifest-cache (playback cache)\n# hosts: cache-mf-01\n# owner: team-playback\n\nport 6391\n",
                Some("redis 7.2 — manifest-cache (playback cache) hosts: cache-mf-01"),
            ),
            // The block ends at a blank line: the comment below it is a key's.
            (
                "gw.conf",
                "# /etc/gw/gw.conf\n\n# close idle connections after N seconds\ntimeout 30\n",
                Some("etc/gw/gw.conf"),
            ),
            // Shebangs, document markers, rules and modelines are passed over.
            (
                "backup.sh",
                "#!/bin/bash\n\n# -*- coding: utf-8 -*-\n########\n# Nightly pg_dump of the orders DB\nset -e\n",
                Some("nightly pg_dump of the orders db"),
            ),
            (
                "orders.yaml",
                "---\n# 订单服务的部署\napiVersion: apps/v1\n",
                Some("订单服务的部署"),
            ),
            (
                "logback.xml",
                "<?xml version=\"1.0\"?>\n<!-- logging for the orders API -->\n<configuration/>\n",
                Some("logging for the orders api"),
            ),
            // `--` is a comment in SQL, a flag elsewhere.
            (
                "orders.sql",
                "-- schema of the orders database\nCREATE TABLE t (id int);\n",
                Some("schema of the orders database"),
            ),
            ("server.flags", "--port=8080\n--log_dir=/var/log\n", None),
            // A license is no title; the comment after it can be.
            (
                "gw.ini",
                "# Copyright 2024 Example Corp\n# Gateway timeouts\n# ##\nx = 1\n",
                Some("gateway timeouts"),
            ),
        ];
        for (name, text, want) in cases {
            assert_eq!(file_title(name, text).as_deref(), *want, "{name}");
        }
    }

    #[test]
    fn no_title_without_a_leading_comment_or_in_prose_and_sources() {
        assert_eq!(file_title("redis.conf", "port 6379\n# Redis cache\n"), None);
        assert_eq!(file_title("notes.md", "# Incident notes\ntext\n"), None);
        assert_eq!(file_title("limits.h", "// connection limits here\n"), None);
        assert_eq!(file_title("app.log", "# started the server now\n"), None);
        assert_eq!(file_title("a.conf", "#####\n#\n"), None);
        assert_eq!(file_title("a.conf", ""), None);
        let long = format!("# {}\n# {0}\n# {0}\n", "word ".repeat(100));
        let t = file_title("a.conf", &long).expect("a title");
        assert_eq!(t.chars().count(), 2 * MAX_CHARS + 1);
    }

    #[test]
    fn the_title_rides_in_the_context_apart_from_the_key_paths() {
        let ctx = with_title(
            "spring.redis.timeout\nspring_redis".into(),
            Some("orders api"),
        );
        assert_eq!(of(&ctx), "orders api");
        assert_eq!(
            key_paths(&ctx).collect::<Vec<_>>(),
            ["spring.redis.timeout", "spring_redis"]
        );
        assert_eq!(
            with_title(String::new(), Some("orders api")),
            "# orders api"
        );
        assert_eq!(with_title("a.b".into(), None), "a.b");
        assert_eq!(of("a.b"), "");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Any text after a header comment of two words or more (so a title exists and
        /// the checks always run), and any text alone: no panic, a title of at most two
        /// cut lines on one line, and it rides in a context and comes back out apart from
        /// the key paths.
        #[test]
        fn index_title_any_text(
            head in "[#;] [a-z数据]{2,9} [a-z]{2,9}[a-z端口é ]{0,300}",
            s in "[ a-z0-9#;/!*<>?=\\-\r\n\t数据库端口é]{0,400}",
        ) {
            let headed = format!("{head}\n{s}");
            proptest::prop_assert!(file_title("a.conf", &headed).is_some(), "{headed:?}");
            for (name, text) in [("a.conf", &headed), ("a.conf", &s), ("run.sql", &s), ("x.yaml", &s), ("notes.md", &s)] {
                let Some(t) = file_title(name, text) else { continue };
                proptest::prop_assert!(!t.contains('\n'), "{t:?}");
                proptest::prop_assert!(t.chars().count() <= 2 * MAX_CHARS + 1);
                let ctx = with_title("a.b c_d".into(), Some(&t));
                proptest::prop_assert_eq!(of(&ctx), t.as_str());
                proptest::prop_assert_eq!(key_paths(&ctx).collect::<Vec<_>>(), ["a.b", "c_d"]);
            }
        }
    }
}
