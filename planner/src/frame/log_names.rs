//! Which of the session's logs a question names: by file name, path, kind, role or a
//! whole part of the name, and the spans that name them (which are no cues).

use super::scan::{Lit, Spanned};
use super::{is_log_upload, FrameCtx};
use crate::lexicon::{find, lexicon, Hit};
use crate::slots::{best_upload, typed_file_names, typed_paths};
use crate::text::normalize;

/// Whether the text names one of the session's logs (by file name, path, kind or a part
/// of its name): "supervisord 的日志" is that upload, not the host's journal.
pub(crate) fn names_a_session_log(text: &str, uploads: &[crate::UploadRef]) -> bool {
    let ctx = FrameCtx::of_uploads(uploads);
    !named_files(text, &ctx).files.is_empty()
}

/// The paths of the session's logs a text names, by file name, kind or a part of the name.
pub(crate) fn session_logs_named(text: &str, uploads: &[crate::UploadRef]) -> Vec<String> {
    let ctx = FrameCtx::of_uploads(uploads);
    named_files(&normalize(text), &ctx).files
}

/// The session's logs a clause names ("haproxy + the ride-api container log", "redis 和
/// dispatcher 的日志") and how many words are left once the names, joining words and
/// function words are taken out; `None` when it names none.
pub(crate) fn logs_named(text: &str, uploads: &[crate::UploadRef]) -> Option<(usize, usize)> {
    let ctx = FrameCtx::of_uploads(uploads);
    let text = normalize(text);
    let Named { files, spans, .. } = named_files(&text, &ctx);
    if files.is_empty() {
        return None;
    }
    let mut rest = text.to_lowercase().into_bytes();
    for &(s, e) in &spans {
        rest[s..e].fill(b' ');
    }
    let mut rest = String::from_utf8(rest).unwrap_or_default();
    const JOINING: [&str; 10] = [
        "以及", "和", "跟", "与", "及", "还有", "也", "都", "的", "里",
    ];
    let stop = &lexicon().grammar.stop;
    for w in stop.zh.iter().map(String::as_str).chain(JOINING) {
        rest = rest.replace(w, " ");
    }
    const JOINING_EN: [&str; 6] = ["log", "logs", "too", "both", "plus", "file"];
    let unknown = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .filter(|w| !(JOINING_EN.contains(w) || stop.en.iter().any(|s| s == w)))
        .count();
    Some((files.len(), unknown))
}

/// Log files named in a question, where it names them, and the paths on the host it names
/// that are no log (as literals).
#[derive(Default)]
pub(super) struct Named {
    /// The logs' paths, each once.
    pub(super) files: Vec<String>,
    /// Where the question names them (and the host paths).
    pub(super) spans: Vec<(usize, usize)>,
    /// The host paths that are no log, as literals.
    pub(super) host: Vec<Spanned>,
}

impl Named {
    /// A log by its path, once.
    fn file(&mut self, path: String) {
        if !self.files.contains(&path) {
            self.files.push(path);
        }
    }

    /// An upload named at `at`.
    fn upload(&mut self, u: &crate::UploadRef, at: &[(usize, usize)]) {
        self.file(u.path.to_string_lossy().into_owned());
        self.spans.extend_from_slice(at);
    }

    /// An upload named by a word of `lower` at `at` (its kind, its program): "the last
    /// thing sshd logged" over a syslog read as sshd's names the log, and the word, one
    /// program among the log's, stays a word of the question.
    fn upload_by_word(&mut self, u: &crate::UploadRef, at: (usize, usize), lower: &str) {
        // Right before a word for a log ("heroku 日志", "the sshd log") it names the log.
        let log_word = log_word_in(lower[at.1..].trim_start()) == Some(0);
        // Its file's name saying the word names it by name ("pgbouncer" of `pgbouncer.log`).
        let word = &lower[at.0..at.1];
        let in_its_name = u.filename.to_lowercase().contains(word);
        if !log_word && !in_its_name && one_value_among_several(u, word) {
            self.file(u.path.to_string_lossy().into_owned());
        } else {
            self.upload(u, &[at]);
        }
    }
}

/// Extensions besides a config file's that make a dotted name a file's.
const FILE_EXTS: [&str; 15] = [
    "log", "txt", "out", "err", "xml", "csv", "tsv", "md", "gz", "zip", "sh", "py", "sql", "html",
    "env",
];

/// Whether a typed dotted name is a host's or a service's (`db.svc.cluster.local`,
/// `shop.corp.example`: three labels or more, the last no file extension) and no upload
/// is called so: a value looked for in the events, not a file.
fn host_name_not_file(name: &str, ctx: &FrameCtx) -> bool {
    let lower = name.to_ascii_lowercase();
    let whole = super::scan::dotted_names()
        .find(&lower)
        .is_some_and(|m| m.start() == 0 && m.end() == lower.len());
    let ext = lower.rsplit('.').next().unwrap_or_default();
    whole
        && !FILE_EXTS.contains(&ext)
        && !crate::slots::CONFIG_EXTS.contains(&ext)
        && !crate::incident::is_log_name(&lower)
        && !ctx
            .uploads
            .iter()
            .any(|u| u.filename.to_ascii_lowercase().starts_with(&lower))
}

/// Log files named in the question (upload names, kinds, parts of names, absolute paths)
/// with their spans, and the paths on the host it names that are no log.
pub(super) fn named_files(text: &str, ctx: &FrameCtx) -> Named {
    let mut n = Named::default();
    // The host names written in the text: a part of one (`.corp` of `.corp.example`) is
    // no file's name either.
    let lower = text.to_ascii_lowercase();
    let hosts: Vec<&str> = super::scan::dotted_names()
        .find_iter(&lower)
        .map(|m| m.as_str())
        .filter(|h| host_name_not_file(h, ctx))
        .collect();
    for name in typed_file_names(text) {
        let part_of_a_host = || {
            let name = name.to_ascii_lowercase();
            hosts.iter().any(|h| h.contains(name.as_str()))
        };
        if host_name_not_file(&name, ctx) || part_of_a_host() {
            continue;
        }
        let upload = best_upload(&name, ctx.uploads);
        if let Some(u) = upload.filter(|u| is_log_upload(u)) {
            n.file(u.path.to_string_lossy().into_owned());
        }
        // A name that is no upload and no log ("reindex.py") stays a literal: a script
        // or a process name.
        let a_file = upload.is_some() || crate::incident::is_log_name(&name);
        if let (true, Some(i)) = (a_file, text.find(&name)) {
            n.spans.push((i, i + name.len()));
        }
    }
    // ASCII lower case: the spans index the text as typed.
    let lower = text.to_ascii_lowercase();
    uploads_named_whole(&lower, ctx, &mut n);
    // "the chat-db-a mongod log": the kind's word is the log the name picks, not the
    // newest log of that kind.
    let (by_name, cued) = logs_named_by_a_name_part(&lower, ctx);
    let named_otherwise = !n.files.is_empty();
    let mut named_at: Vec<(usize, usize)> = Vec::new();
    for (u, at) in logs_named_by_kind(&lower, ctx, named_otherwise) {
        let named = by_name
            .iter()
            .map(|(n, _)| *n)
            .find(|n| lexicon().kinds.iter().any(|k| k.is(n) && k.is(u)));
        n.upload_by_word(named.unwrap_or(u), at, &lower);
        named_at.push(at);
    }
    for (u, at) in by_name {
        n.upload_by_word(u, at, &lower);
        named_at.push(at);
    }
    // "gunicorn 的 error 和 access 日志": a cue word joined by "和"/"and" to a word that
    // names a log names the log its name part picks too.
    for (u, at) in cued {
        if named_at.iter().any(|&o| coordinated(&lower, at, o)) {
            n.upload(u, &[at]);
        }
    }
    paths_named(text, ctx, &mut n);
    n
}

/// Whether `word` is one value, among others, of a column of the log's sample: a name of
/// one program of a log many write to, not the whole log's.
fn one_value_among_several(u: &crate::UploadRef, word: &str) -> bool {
    u.columns.iter().any(|c| {
        !c.numeric && c.values.len() > 1 && c.values.iter().any(|v| v.eq_ignore_ascii_case(word))
    })
}

/// Uploads named without an extension ("messages", "syslog") by their whole name.
fn uploads_named_whole(lower: &str, ctx: &FrameCtx, n: &mut Named) {
    for u in ctx.uploads.iter().filter(|u| !u.filename.contains('.')) {
        let name = u.filename.to_lowercase();
        // Inside a path ("/var/log/messages") the path decides, in `paths_named`.
        let at: Vec<(usize, usize)> = crate::lexicon::occurrences(lower, &name)
            .into_iter()
            .filter(|&(s, _)| !lower[..s].ends_with('/'))
            .collect();
        if name.len() < 4 || at.is_empty() || !is_log_upload(u) {
            continue;
        }
        n.upload(u, &at);
    }
}

/// Absolute paths: a log's path is that log (the session's upload of that name, which the
/// operator brought from there); a URL path ("/v2/search") is a literal; any other path on
/// the host is not a condition, but is where a filesystem question asks about.
fn paths_named(text: &str, ctx: &FrameCtx, n: &mut Named) {
    // A log of requests makes "/reports/q3.pdf" a request's path, not a file on the host.
    let requests_logged = ctx.uploads.iter().any(|u| {
        u.columns
            .iter()
            .any(|c| c.roles.iter().any(|r| r == "path"))
    });
    for p in typed_paths(text) {
        let log = p.starts_with('/') && crate::incident::is_log_name(&p);
        let requested = requests_logged && !on_the_host(&p);
        let base = p.rsplit('/').next().unwrap_or("");
        let uploaded = ctx
            .uploads
            .iter()
            .rev()
            .find(|u| u.filename == base && is_log_upload(u))
            .map(|u| u.path.to_string_lossy().into_owned());
        if log {
            n.file(uploaded.unwrap_or_else(|| p.clone()));
        }
        if let (false, Some(i)) = ((url_path(&p) || requested) && !log, text.find(&p)) {
            n.spans.push((i, i + p.len()));
            if !log {
                n.host.push(Spanned {
                    start: i,
                    end: i + p.len(),
                    lit: Lit::HostPath(p.clone()),
                });
            }
        }
    }
}

/// Logs named by their kind ("the nginx log", "数据库慢日志", "the journal export"): the
/// lexicon's `[[kind]]` words, longest first and never inside a longer one, each bound to
/// the session's log of that kind whose name holds the word, else the newest. A kind no
/// upload has leaves its word alone ("nginx 的重启次数" over a syslog).
fn logs_named_by_kind<'a>(
    lower: &str,
    ctx: &FrameCtx<'a>,
    named_otherwise: bool,
) -> Vec<(&'a crate::UploadRef, (usize, usize))> {
    let lex = lexicon();
    let mut found: Vec<((usize, usize), &crate::lexicon::LogKind, &str)> = Vec::new();
    for kind in lex.kinds.iter().filter(|k| !(k.role && named_otherwise)) {
        for w in kind.words.all() {
            let w_lower = w.to_lowercase();
            // "the supervisor logs" names what "supervisor log" does.
            let plural = w_lower.ends_with(" log").then(|| format!("{w_lower}s"));
            for form in std::iter::once(&w_lower).chain(plural.as_ref()) {
                for at in crate::lexicon::occurrences(lower, form) {
                    if !numbered_name(lower, at.1) {
                        found.push((at, kind, w));
                    }
                }
            }
        }
    }
    found.sort_by_key(|((s, e), _, _)| (std::cmp::Reverse(e - s), *s));
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut out = Vec::new();
    for ((s, e), kind, w) in found {
        if taken.iter().any(|&(ts, te)| s < te && ts < e) {
            continue;
        }
        let logs: Vec<&crate::UploadRef> = ctx
            .uploads
            .iter()
            .filter(|u| is_log_upload(u) && kind.is(u))
            .collect();
        let head = w.split_whitespace().next().unwrap_or(w).to_lowercase();
        let Some(u) = logs
            .iter()
            .rev()
            .find(|u| u.filename.to_lowercase().contains(&head))
            .or(logs.last())
        else {
            continue;
        };
        taken.push((s, e));
        out.push((*u, (s, e)));
    }
    out
}

/// Whether a word is too short to name a log: three letters do when they are no function
/// word ("bff" for `storefront-bff.log`; not "all" or "log"), two only right before a
/// word for a log (`after`: "ox 日志", "the ox log").
fn too_short(word: &str, after: &str) -> bool {
    let after = after.trim_start();
    let before_log = after.starts_with("日志") || after.starts_with("log");
    (word.len() < 3 && !(word.len() == 2 && before_log))
        || (word.len() == 3 && lexicon().grammar.stop.en.iter().any(|w| w == word))
}

/// "broker-7": a kind's word numbered is a host's or an instance's name, which narrows
/// the events, not the logs.
fn numbered_name(lower: &str, end: usize) -> bool {
    let mut after = lower[end..].chars();
    after.next() == Some('-') && after.next().is_some_and(|c| c.is_ascii_digit())
}

/// Logs and the span of the word that names each.
type NamedAt<'a> = Vec<(&'a crate::UploadRef, (usize, usize))>;

/// Whether only a side-by-side word ("和", "and", "、", "/") stands between two spans.
fn coordinated(lower: &str, a: (usize, usize), b: (usize, usize)) -> bool {
    let (first, second) = if a.0 < b.0 { (a, b) } else { (b, a) };
    let Some(gap) = lower.get(first.1..second.0) else {
        return false;
    };
    // "ELB 日志和 lab-router.log", "the ELB log and …": the word for a log after the
    // first name is part of it.
    let gap = gap.trim();
    let gap = ["的日志", "日志", "logs", "log"]
        .iter()
        .find_map(|w| gap.strip_prefix(w))
        .unwrap_or(gap)
        .trim();
    let words = &lexicon().grammar.side_by_side;
    ["、", "/", "&", "+", ","].contains(&gap) || words.all().any(|w| w == gap)
}

/// Logs named by a whole part of their file name ("booking-api" for `booking-api.jsonl`,
/// "tidefeed" for `tidefeed-7c9d…_ferry.log`): a word of three letters or more that names
/// exactly one of the session's logs, by its file name or by the program its format is
/// named after. Apart, those named by a word the lexicon reads as a cue (`error` of
/// `gunicorn-error.log`; a hyphenated word may hold cues), which name a log only beside
/// another log's name.
fn logs_named_by_a_name_part<'a>(lower: &str, ctx: &FrameCtx<'a>) -> (NamedAt<'a>, NamedAt<'a>) {
    // The lexicon's cues, read only when some word names one log (most questions name
    // none this way; `Parsed::new` reads them again on the text without file names).
    let hits = std::cell::OnceCell::new();
    let mut out = Vec::new();
    let mut cued = Vec::new();
    let values: Vec<(usize, usize)> = super::scan::at_names()
        .find_iter(lower)
        .chain(super::scan::dotted_names().find_iter(lower))
        .filter(|m| {
            !ctx.uploads
                .iter()
                .any(|u| u.filename.to_lowercase().contains(m.as_str()))
        })
        .map(|m| (m.start(), m.end()))
        .collect();
    let bytes = lower.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
        if !is_word(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_word(bytes[i]) {
            i += 1;
        }
        // A word inside a name joined by `@` or dots is part of a value (`orders@docker`, a
        // router; `ops@example.org`; `web.svc.local`) unless a file's name holds that name
        // whole (`rabbit@mq-01`).
        if values.iter().any(|&(s, e)| s <= start && i <= e) {
            continue;
        }
        let word = lower[start..i].trim_matches(['-', '_']);
        // "es" for elasticsearch: a program's short name stands for its name; "mysql"
        // names its daemon's log (`mysqld.err`, `dockerd.log`).
        let daemon = format!("{word}d");
        let forms: Vec<&str> = std::iter::once(word)
            .chain(lexicon().programs_named(word))
            .chain((word.len() >= 4 && !word.ends_with('d')).then_some(daemon.as_str()))
            .collect();
        let short = forms.len() > 1;
        if (too_short(word, &lower[i..]) && !short) || word.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let named: Vec<&crate::UploadRef> = ctx
            .uploads
            .iter()
            .filter(|u| {
                let file = name_parts(&u.filename.to_lowercase());
                is_log_upload(u)
                    && forms
                        .iter()
                        .any(|w| file.contains(&name_parts(w)) || format_named(u, w))
            })
            .collect();
        let [u] = named.as_slice() else {
            continue;
        };
        // Cue words inside a hyphenated name are part of the name ("orders-svc").
        let cue = !word.contains(['-', '_'])
            && hits
                .get_or_init(|| find(lexicon(), lower))
                .iter()
                .any(|h: &Hit| h.start < i && start < h.end);
        // So is the log's own field's name ("vhosts" of `other_vhosts_access.log`, whose
        // `vhost` is a field).
        let field = u.columns.iter().any(|c| {
            let n = c.name.to_ascii_lowercase();
            n == word || format!("{n}s") == word
        });
        if cue || field {
            cued.push((*u, (start, i)));
        } else {
            out.push((*u, (start, i)));
        }
    }
    (out, cued)
}

/// Whether a word is the program part of the log's detected format (`squid` for `squid`,
/// `kafka` for `kafka`, `nginx` for `nginx_error`): a log is named by the software that
/// wrote it even when its file name does not say so (`access.log`). The catch-all formats
/// name no software.
fn format_named(u: &crate::UploadRef, word: &str) -> bool {
    const NO_PROGRAM: [&str; 3] = ["generic", "plain", "json"];
    let Some(format) = u.format.as_deref() else {
        return false;
    };
    let head = format.split('_').next().unwrap_or(format);
    // Or the whole name, as its program writes it ("php-fpm" for `php_fpm`).
    let whole = format.contains('_') && format.replace('_', "-") == word.replace('_', "-");
    (head == word && !NO_PROGRAM.contains(&head)) || whole
}

/// A name's parts between `.`, `-`, `_` and `@`, as `-a-b-c-`: a word names a file when its parts
/// stand whole among the file's ("orders-api" in `orders-api.jsonl`, not "orders" in
/// `ordersync.log`).
pub(super) fn name_parts(s: &str) -> String {
    let joined: Vec<&str> = s
        .split(['.', '-', '_', '@'])
        .filter(|x| !x.is_empty())
        .collect();
    format!("-{}-", joined.join("-"))
}

/// Whether a typed path reads as a URL path rather than a file on the host: its first
/// segment is no top-level directory of a Linux system and its last has no extension, or
/// one that a web server runs (`/installers/api/jobs.aspx`, `/cart.php`).
fn url_path(p: &str) -> bool {
    const WEB: [&str; 9] = [
        ".aspx", ".asp", ".php", ".jsp", ".do", ".action", ".cgi", ".asmx", ".ashx",
    ];
    let last = p.rsplit('/').next().unwrap_or("");
    let web = WEB.iter().any(|e| last.to_ascii_lowercase().ends_with(e));
    p.starts_with('/') && !on_the_host(p) && (!last.contains('.') || web)
}

/// Whether an absolute path starts at one of the host's own top directories (`/etc`,
/// `/var`, ...).
fn on_the_host(p: &str) -> bool {
    const ROOTS: [&str; 16] = [
        "etc", "var", "srv", "opt", "home", "usr", "tmp", "proc", "sys", "root", "data", "run",
        "dev", "boot", "mnt", "lib",
    ];
    let first = p.trim_start_matches('/').split('/').next().unwrap_or("");
    !p.starts_with('/') || ROOTS.contains(&first)
}

/// Where the first word for a log stands in `text` (lower case): "log" or "logs" as a word
/// of its own ("gateway log", "app logs", not the start of "login"), or "日志".
pub(super) fn log_word_in(text: &str) -> Option<usize> {
    let log = text.match_indices("log").map(|(i, _)| i).find(|&i| {
        let rest = text[i + 3..].strip_prefix('s').unwrap_or(&text[i + 3..]);
        !rest.starts_with(|c: char| c.is_alphanumeric())
    });
    [log, text.find("日志")].into_iter().flatten().min()
}
