//! The line of a hit's chunk that answers the question: the line holding most of the
//! question's words, a config key's words counting with the blocks it sits in and the
//! comment written above it. `memory: 2Gi` under `limits:` answers "容器的内存限制", not
//! `memory: 1Gi` under `requests:` two lines up; the agent quotes this line (and its key)
//! instead of a chunk's first line.

pub use llmops_common::AnswerLine;

use crate::analyzers::syntax::{c_family, is_comment, prose};
use crate::analyzers::{keypath, title};
use crate::lexical::ChunkDoc;
use crate::rank::{self, ChunkWords};

/// A quoted line is cut here: a minified JSON line must not fill the answer.
const MAX_CHARS: usize = 240;

/// The name a `key = value`, `key: value` (`keypath::ini_key`) or `key value` line
/// (redis.conf, sshd_config) starts with.
fn leading_key(line: &str) -> Option<&str> {
    keypath::ini_key(line).or_else(|| {
        let (key, value) = line.trim().split_once([' ', '\t'])?;
        let name = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
        (name && !value.trim().is_empty()).then_some(key)
    })
}

/// Most words of a line read as `key value` (a directive, not a sentence of prose that
/// starts with the word).
const KEY_LINE_WORDS: usize = 6;

/// Whether a line of `text` sets a key one of `typed` names whole (`timeout 275` for
/// `timeout`; `repl-timeout 90` only holds it).
pub(super) fn names_key(text: &str, typed: &[String]) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        !is_comment(t)
            && t.split_whitespace().nth(KEY_LINE_WORDS).is_none()
            && leading_key(t).is_some_and(|k| typed.iter().any(|w| k.eq_ignore_ascii_case(w)))
    })
}

/// The full path of a key found inside the chunk (`limits.memory`, its blocks above the
/// chunk's first line unknown): the one path of the chunk's context that ends with it, else
/// the path as found.
fn full_path(relative: String, context: &str) -> String {
    let tail = format!(".{relative}");
    let mut found: Option<&str> = None;
    for p in title::key_paths(context).filter(|p| p.ends_with(&tail)) {
        match found {
            Some(f) if f != p => return relative,
            _ => found = Some(p),
        }
    }
    found.map_or(relative, str::to_string)
}

/// A chunk's lines (from its first line) and the keys they set.
struct KeyedLines<'a> {
    ch: &'a ChunkDoc,
    lines: Vec<&'a str>,
    paths: Option<Vec<Option<keypath::KeyPath>>>,
}

impl<'a> KeyedLines<'a> {
    fn new(ch: &'a ChunkDoc, filename: &str) -> KeyedLines<'a> {
        let body = rank::from_first_line(&ch.text);
        let paths = keypath::nesting_of(filename, body).map(|n| keypath::line_paths(body, n));
        KeyedLines {
            ch,
            lines: body.lines().collect(),
            paths,
        }
    }

    /// Line `i`'s key: its path inside the chunk, else (a chunk below its file's
    /// `[Service]` shows no section) its leading name when the chunk's context has one
    /// path ending so.
    fn key_of(&self, i: usize) -> Option<String> {
        let ctx = &self.ch.context;
        match self
            .paths
            .as_ref()
            .and_then(|p| p.get(i).cloned().flatten())
        {
            Some(p) => Some(full_path(p.full(), ctx)),
            // `- "15672:15672"` under `ports:`: the list's key.
            None if self.lines[i].trim_start().starts_with("- ") => {
                list_key(&self.lines, i, &self.paths).map(|p| full_path(p, ctx))
            }
            None => {
                let k = leading_key(self.lines[i].trim())?;
                let full = full_path(k.to_string(), ctx);
                (full.len() > k.len()).then_some(full)
            }
        }
    }
}

/// The best coverage of the question (`covered`) by one line of a config chunk read with
/// the full path of the key it sets, 0 for a chunk whose lines set no key
/// (`name_lower`: the file's lower-cased name, for its format). The file's name does not
/// count: it is every chunk's of the file, and it made the sidecar's `memory: 64Mi`
/// (under `containers.log-shipper`) hold `playback-api` as much as the main container's
/// `memory: 896Mi` under `containers.playback-api.resources.requests` does.
pub(super) fn key_line_coverage(
    ch: &ChunkDoc,
    name_lower: &str,
    covered: &dyn Fn(&ChunkWords) -> f32,
) -> f32 {
    let keyed = KeyedLines::new(ch, name_lower);
    if keyed.paths.is_none() {
        return 0.0;
    }
    let mut best = 0.0f32;
    for (i, raw) in keyed.lines.iter().enumerate() {
        let t = raw.trim();
        if t.is_empty() || is_comment(t) {
            continue;
        }
        let Some(path) = keyed.key_of(i) else {
            continue;
        };
        let words = format!("{} {}", t.to_lowercase(), path.to_lowercase());
        best = best.max(covered(&ChunkWords::new(&words, "")));
    }
    best
}

/// How well a line answers, compared in order: coverage of the question, its key named
/// whole, it sets a value, the question's tokens in its own text.
type Rank = (f32, bool, bool, usize);

/// The chunk's line that holds most of the question (`covered`, the search's coverage of
/// the question's words in either language), `None` when no line holds any. Ties go to a
/// key the question names whole, then to a line that sets a value, then to the one whose
/// own text holds more of `tokens`, then to the first. Outside prose a comment is read
/// with the line below it and never answers itself while another line can.
pub(crate) fn answer_line(
    ch: &ChunkDoc,
    filename: &str,
    tokens: &[String],
    covered: &dyn Fn(&ChunkWords) -> f32,
) -> Option<AnswerLine> {
    let name_lower = filename.to_lowercase();
    let keyed = KeyedLines::new(ch, filename);
    // Flat configs (`.properties`, `.env`, `gunicorn.conf.py`) and scripts comment the
    // same way: their header comment says what the file is for, the line below it sets
    // the value ("invoice API 开了几个 worker" is `workers = 6`, not `# ... invoice API`).
    // Not C sources, where `#` starts a directive.
    let comments = !prose(&name_lower) && !c_family(&name_lower);
    // The file's title counts in every line, as its name does.
    let title = title::of(&ch.context);
    let words = |w: &str| covered(&ChunkWords::new(w, &name_lower).with_context(title));
    let (best, best_comment) = best_lines(&keyed, comments, tokens, &words);
    let (i, key, comment) = match (best, best_comment) {
        (Some((i, key, rank)), _) if rank.0 > 0.0 => (i, key, false),
        (_, Some((i, cov))) if cov > 0.0 => (i, None, true),
        _ => return None,
    };
    Some(AnswerLine {
        line: ch.first_line + i as u32,
        text: quoted(&keyed.lines, i, key.as_deref()),
        key,
        comment,
    })
}

/// A line that sets something: its index, its key and its rank.
type Setting = (usize, Option<String>, Rank);
/// A comment line: its index and its coverage of the question.
type CommentLine = (usize, f32);

/// The best line that is not a comment (`comments`: whether comment lines are read apart)
/// and the best comment line; `words` is the coverage of the question by some words.
fn best_lines(
    keyed: &KeyedLines<'_>,
    comments: bool,
    tokens: &[String],
    words: &dyn Fn(&str) -> f32,
) -> (Option<Setting>, Option<CommentLine>) {
    let mut best: Option<Setting> = None;
    let mut best_comment: Option<CommentLine> = None;
    let mut above = String::new();
    for (i, raw) in keyed.lines.iter().enumerate() {
        let t = raw.trim();
        if t.is_empty() {
            above.clear();
            continue;
        }
        let low = t.to_lowercase();
        if comments && is_comment(t) {
            let cov = words(&low);
            if best_comment.is_none_or(|b| cov > b.1) {
                best_comment = Some((i, cov));
            }
            above.push(' ');
            above.push_str(&low);
            continue;
        }
        let (key, rank) = rank_line(keyed, i, &low, &above, tokens, words);
        above.clear();
        if best.as_ref().is_none_or(|b| rank > b.2) {
            best = Some((i, key, rank));
        }
    }
    (best, best_comment)
}

/// Line `i`'s key and rank (`low`: its lower-cased text; `above`: the comments just above
/// it, lower-cased).
fn rank_line(
    keyed: &KeyedLines<'_>,
    i: usize,
    low: &str,
    above: &str,
    tokens: &[String],
    words: &dyn Fn(&str) -> f32,
) -> (Option<String>, Rank) {
    let key = keyed.key_of(i);
    let path = key.as_deref().map(str::to_lowercase);
    let own_words = format!("{low} {}", path.as_deref().unwrap_or(""));
    // The comment above counts at half: the line's own words and key say more about
    // what it sets (`replicas: 14` against the `apiVersion:` under a header comment
    // that happens to say `prod` and `runbook`).
    let cov = if above.is_empty() {
        words(&own_words)
    } else {
        let all = format!("{own_words} {above}");
        0.5 * (words(&own_words) + words(&all))
    };
    // A key the question names whole (`timeout`, not `repl-timeout`).
    let last = path
        .as_deref()
        .and_then(|p| p.rsplit('.').next())
        .or_else(|| leading_key(low));
    let exact = last.is_some_and(|k| tokens.iter().any(|t| t == k));
    // `limits:` or `server {` opens a block; `memory: 2Gi` sets a value.
    let valued = path.is_some() && !low.ends_with(':') && !low.ends_with('{');
    let own = tokens.iter().filter(|t| low.contains(t.as_str())).count();
    (key, (cov, exact, valued, own))
}

/// The text quoted for line `i` (setting `key`), cut to [`MAX_CHARS`].
fn quoted(lines: &[&str], i: usize, key: Option<&str>) -> String {
    let mut text = lines[i].trim().to_string();
    // `- name: DRM_TIMEOUT_MS` says what, the `value:` line below it how much.
    if key.is_some_and(|k| k == "name" || k.ends_with(".name")) {
        if let Some(next) = lines.get(i + 1).map(|l| l.trim()) {
            if next.starts_with("value:") {
                text = format!("{text} {next}");
            }
        }
    }
    text.chars().take(MAX_CHARS).collect()
}

/// The key of the YAML list a `- item` line belongs to: the nearest line above, no deeper
/// than the item, that opens a block (`ports:`).
fn list_key(
    lines: &[&str],
    i: usize,
    paths: &Option<Vec<Option<keypath::KeyPath>>>,
) -> Option<String> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(lines[i]);
    for j in (0..i).rev() {
        let l = lines[j];
        if l.trim().is_empty()
            || (indent(l) > own)
            || (indent(l) == own && l.trim_start().starts_with("- "))
        {
            continue;
        }
        return (l.trim_end().ends_with(':'))
            .then(|| paths.as_ref()?.get(j).cloned().flatten().map(|p| p.full()))
            .flatten();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::TypedWords;

    fn chunk(text: &str, first_line: u32, context: &str) -> ChunkDoc {
        ChunkDoc {
            chunk_id: 1,
            doc_key: "k".into(),
            tag: "sys".into(),
            ord: 0,
            first_line,
            last_line: first_line + text.lines().count() as u32,
            text: text.into(),
            context: context.into(),
        }
    }

    fn answer(ch: &ChunkDoc, filename: &str, words: &[&str]) -> Option<AnswerLine> {
        let tokens: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let typed = TypedWords::new(&tokens);
        answer_line(ch, filename, &tokens, &|w| typed.coverage_in(w))
    }

    #[test]
    fn a_limit_is_the_line_under_limits_not_the_request_above() {
        let ch = chunk(
            "        resources:\n          requests:\n            cpu: 500m\n            memory: 1Gi\n          limits:\n            cpu: \"2\"\n            memory: 2Gi\n",
            40,
            "spec.template.spec.containers.resources.requests.cpu spec.template.spec.containers.resources.requests.memory spec.template.spec.containers.resources.limits.cpu spec.template.spec.containers.resources.limits.memory spec",
        );
        let a = answer(&ch, "gateway.yaml", &["container", "memory", "limit"]).expect("a line");
        assert_eq!(a.line, 46);
        assert_eq!(a.text, "memory: 2Gi");
        assert_eq!(
            a.key.as_deref(),
            Some("spec.template.spec.containers.resources.limits.memory")
        );
        // The request is the answer when the question says so.
        let a = answer(&ch, "gateway.yaml", &["memory", "requests"]).expect("a line");
        assert_eq!((a.line, a.text.as_str()), (43, "memory: 1Gi"));
    }

    #[test]
    fn a_comment_leads_to_the_key_below_it() {
        let ch = chunk(
            "# close idle client connections after this many seconds\ntimeout 275\ntcp-keepalive 60\n",
            10,
            "",
        );
        let a = answer(&ch, "redis.conf", &["idle", "connections"]).expect("a line");
        assert_eq!((a.line, a.text.as_str(), a.key), (11, "timeout 275", None));
        // A header comment that shares words with the question by chance counts at half
        // for the key under it: the key the question names, in the line's own words, wins.
        let head = chunk(
            "# Owner: team-web   Runbook: wiki/web/runbook\napiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 14\n",
            1,
            "",
        );
        let a = answer(&head, "web-deploy.yaml", &["replicas", "web", "run"]).expect("a line");
        assert_eq!((a.line, a.text.as_str()), (5, "replicas: 14"));
        // In markdown `#` is a heading, a line like any other.
        let md = chunk("# Idle connections\nSee the runbook.\n", 1, "");
        let a = answer(&md, "notes.md", &["idle", "connections"]).expect("a line");
        assert_eq!((a.line, a.comment), (1, false));
        // A config whose only line with the question is a comment says so.
        let only = chunk(
            "# idle connections are closed by the proxy\n\nport 6379\n",
            1,
            "",
        );
        let a = answer(&only, "redis.conf", &["idle", "connections"]).expect("a line");
        assert_eq!((a.line, a.comment), (1, true));
        // Flat configs and scripts too: the header comment names the service, the line
        // that sets the value answers.
        let flat = chunk(
            "# gunicorn settings for the invoice API\nbind = \"0.0.0.0:8040\"\nworkers = 6\n",
            1,
            "",
        );
        let a = answer(&flat, "gunicorn.conf.py", &["invoice", "api", "worker"]).expect("a line");
        assert_eq!(
            (a.line, a.text.as_str(), a.comment),
            (3, "workers = 6", false)
        );
        let props = chunk(
            "# consumers of the billing pipeline\nmax.poll.records=250\n",
            1,
            "",
        );
        let a = answer(&props, "consumer.properties", &["billing", "max"]).expect("a line");
        assert_eq!(a.line, 2);
        // In a C header `#` starts a directive: the `#define` answers.
        let header = chunk(
            "#define MAX_CONN 512\nstatic int conns_in_use; /* up to MAX_CONN */\n",
            1,
            "",
        );
        let a = answer(&header, "limits.h", &["max_conn"]).expect("a line");
        assert_eq!((a.line, a.comment), (1, false));
    }

    #[test]
    fn a_unit_key_gets_its_section_from_the_context() {
        // The chunk starts below `[Service]`: the section comes from the chunk's context.
        let ch = chunk(
            "User=orders\nRestart=on-failure\nRestartSec=7\n",
            12,
            "Service.User Service.Restart Service.RestartSec",
        );
        let a = answer(&ch, "orders.service", &["restartsec"]).expect("a line");
        assert_eq!(a.line, 14);
        assert_eq!(a.key.as_deref(), Some("Service.RestartSec"));
    }

    #[test]
    fn the_key_a_question_names_whole_wins_a_tie() {
        let ch = chunk("repl-timeout 60\ntimeout 275\n", 30, "");
        let a = answer(&ch, "redis.conf", &["timeout"]).expect("a line");
        assert_eq!((a.line, a.text.as_str()), (31, "timeout 275"));
    }

    #[test]
    fn list_items_and_env_values_say_what_they_set() {
        let ch = chunk(
            "  rabbitmq:\n    image: rabbitmq:3\n    ports:\n      - \"5672:5672\"\n    environment:\n      RABBITMQ_VHOST: media\n",
            60,
            "services.rabbitmq.image services.rabbitmq.ports services.rabbitmq.environment.RABBITMQ_VHOST services",
        );
        let a = answer(&ch, "docker-compose.yml", &["rabbitmq", "ports"]).expect("a line");
        assert_eq!(a.line, 63);
        assert_eq!(a.key.as_deref(), Some("services.rabbitmq.ports"));
        let env = chunk(
            "        env:\n          - name: LICENSE_TIMEOUT_MS\n            value: \"2650\"\n          - name: LOG_LEVEL\n            value: info\n",
            20,
            "",
        );
        let a = answer(&env, "app.yaml", &["license", "timeout"]).expect("a line");
        assert_eq!(a.text, "- name: LICENSE_TIMEOUT_MS value: \"2650\"");
    }

    #[test]
    fn no_line_without_the_question_and_never_a_panic() {
        let ch = chunk("alpha\nbeta\n", 1, "");
        assert_eq!(answer(&ch, "a.log", &["gamma"]), None);
        for text in ["", "\n\n", "  \n:\n{\n}}}\n<a><b>", "a: b: c:\n  - - -\n"] {
            let ch = chunk(text, 1, "x.y");
            let _ = answer(&ch, "odd.yaml", &["a", "b"]);
            let _ = answer(&ch, "odd.conf", &["a"]);
        }
        let long = format!("key: {}\n", "v".repeat(1000));
        let a = answer(&chunk(&long, 1, ""), "big.yaml", &["key"]).expect("a line");
        assert_eq!(a.text.chars().count(), MAX_CHARS);
    }
}
