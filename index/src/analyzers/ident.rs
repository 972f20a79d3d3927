//! Identifier analysis: snake_case, camelCase, kebab-case, dotted keys, paths, hostnames,
//! IPs and ports are indexed whole (and by multi-word segment: `host:port`, path
//! components) in an identifier field, and split into words: the English field already
//! splits on `. - / :`, so the identifier field adds the words it keeps glued
//! (`proxy_read_timeout`, `readTimeout`). Either form then finds the other, and the exact
//! identifier still matches its whole token.

use tantivy::tokenizer::{LowerCaser, RemoveLongFilter, TextAnalyzer, Token, Tokenizer};

use super::VecStream;
use crate::chunker::is_cjk;

/// Characters that join the words of one identifier.
const JOINERS: &[char] = &['_', '.', '-', '/', ':'];
/// Joiners that separate segments (path components, host and port); the rest join words.
const SEGMENT: &[char] = &['/', ':'];

/// One identifier found in a text: the whole, its segments and its words, as written
/// (callers lower-case them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compound<'a> {
    /// Byte offset of `whole` in the text.
    pub offset: usize,
    pub whole: &'a str,
    /// Looks like a name rather than prose: has `_` or `.` or `:`, starts with `/`, is
    /// lowerCamel, or joins three words or more. Prose compounds (`write-ahead`,
    /// `encode/decode`) and brand names (`PostgreSQL`) are not: their whole would only
    /// add weight to words the English field already matches (measured: English man-page
    /// recall fell when they were indexed whole).
    pub strong: bool,
    /// Multi-word path components / host and port (`error.log`, `10.0.0.5`), when the
    /// whole has `/` or `:`.
    pub segments: Vec<&'a str>,
    /// Words: split on `_ . - / :` and camelCase humps (`HTTPServer` -> `HTTP`, `Server`).
    pub words: Vec<&'a str>,
    /// The words the English field keeps glued: those of snake_case and camelCase pieces.
    pub hidden: Vec<&'a str>,
}

/// `a.b.c.d` or `a.b.c.d:port`, every part a number.
fn is_ipv4(s: &str) -> bool {
    let host = s.split(':').next().unwrap_or(s);
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
        && s[host.len()..]
            .strip_prefix(':')
            .is_none_or(|port| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
}

fn is_joiner(b: u8) -> bool {
    matches!(b, b'_' | b'.' | b'-' | b'/' | b':')
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Byte offsets in a joiner-free word where a camelCase hump starts a new word:
/// lower/digit -> upper, and the last upper of an upper run followed by a lower
/// (`HTTPServer`). Digits never split. No allocation: `compounds` asks this of every piece
/// of every identifier, on the indexing path.
fn humps(w: &str) -> impl Iterator<Item = usize> + '_ {
    let mut it = w.char_indices().peekable();
    let mut prev: Option<char> = None;
    std::iter::from_fn(move || loop {
        let (o, c) = it.next()?;
        let p = prev.replace(c);
        let Some(p) = p else { continue };
        let next_lower = it.peek().is_some_and(|x| x.1.is_lowercase());
        if c.is_uppercase()
            && (p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next_lower))
        {
            return Some(o);
        }
    })
}

/// Pushes the pieces of one joiner-free word between its camelCase humps (`humps`), in
/// order (a loop, not an iterator chain: this runs on every identifier indexed, and the
/// chain measured 17% slower).
fn push_hump_pieces<'a>(w: &'a str, out: &mut Vec<&'a str>) {
    let mut start = 0;
    for o in humps(w) {
        out.push(&w[start..o]);
        start = o;
    }
    out.push(&w[start..]);
}

/// Splits one joiner-free word on camelCase humps (`humps`).
pub fn camel_words(w: &str) -> Vec<&str> {
    let mut out = Vec::new();
    push_hump_pieces(w, &mut out);
    out.retain(|s| !s.is_empty());
    out
}

/// `readTimeout`: starts lower-case and has a hump (two camel words or more).
fn is_lower_camel(p: &str) -> bool {
    p.starts_with(char::is_lowercase) && humps(p).next().is_some()
}

/// The words of a letters/digits/underscore piece that the English field keeps glued:
/// snake_case (`DPKG_ROOT` too) and lowerCamel (`readTimeout`). PascalCase (`PostgreSQL`,
/// `OpenSSL`) is left alone: mostly product names, whose split words only added noise
/// to English queries (measured on man pages).
fn glued_words(piece: &str) -> Vec<&str> {
    if piece.contains('_') {
        piece
            .split('_')
            .filter(|x| !x.is_empty())
            .flat_map(|p| {
                if is_lower_camel(p) {
                    camel_words(p)
                } else {
                    vec![p]
                }
            })
            .collect()
    } else if is_lower_camel(piece) {
        camel_words(piece)
    } else {
        Vec::new()
    }
}

/// The words of an identifier: split on joiners, then on camel humps.
fn words_of(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for piece in s.split(JOINERS).filter(|x| !x.is_empty()) {
        push_hump_pieces(piece, &mut out);
    }
    out
}

/// `words_of(s).len()`, without collecting them.
fn word_count(s: &str) -> usize {
    s.split(JOINERS)
        .filter(|x| !x.is_empty())
        .map(|p| 1 + humps(p).count())
        .sum()
}

/// The other grammatical number of an English word (`buffer` <-> `buffers`, `policy` <->
/// `policies`, `process` <-> `processes`), for the identifier fields, which keep words as
/// written: a question says `buffer cache` or `max connection`, the key `shared_buffers`
/// or `max_connections` (the English field stems, so prose needs none of this). English
/// is irregular, so a plural gives each plausible singular (`caches` -> `cache`, `cach`):
/// a form no identifier holds matches nothing. Empty for short or non-alphabetic words.
pub fn number_variants(w: &str) -> Vec<String> {
    if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if w.ends_with('s') && !w.ends_with("ss") {
        out.push(w[..w.len() - 1].to_string());
        if let Some(stem) = w.strip_suffix("es") {
            out.push(stem.to_string());
        }
        if let Some(stem) = w.strip_suffix("ies") {
            out.push(format!("{stem}y"));
        }
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|e| w.ends_with(e)) {
        out.push(format!("{w}es"));
    } else if w.ends_with('y') && !w[..w.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']) {
        out.push(format!("{}ies", &w[..w.len() - 1]));
    } else {
        out.push(format!("{w}s"));
    }
    out.retain(|v| v.len() >= 2);
    out
}

/// Most consecutive words an identifier's joined forms (`joined`) take.
const JOIN_MAX: usize = 4;
/// Most joined forms one identifier (or one run of query words) adds.
const JOIN_LIMIT: usize = 12;

/// The joined forms of consecutive words (2 to `JOIN_MAX` of them, lower-cased, no
/// separator): `proxy_read_timeout` -> `proxyread`, `readtimeout`, `proxyreadtimeout`.
/// Queries join their adjacent words the same way, so `read timeout` meets
/// `proxy_read_timeout`, `read-timeout` and `readTimeout` (whose lower-cased whole is
/// already `readtimeout`) alike, and `datasource url` meets `spring.datasource.url`:
/// identifiers hold exactly those words side by side, which a chunk with the words
/// scattered in prose does not. Windows with a number (IP parts, ports, versions) or a
/// one-letter word are left out.
pub fn joined(words: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in 2..=JOIN_MAX.min(words.len()) {
        for w in words.windows(n) {
            if w.iter()
                .any(|x| x.chars().count() < 2 || x.bytes().all(|b| b.is_ascii_digit()))
            {
                continue;
            }
            let j: String = w.iter().map(|x| x.to_lowercase()).collect();
            if !out.contains(&j) && out.len() < JOIN_LIMIT {
                out.push(j);
            }
        }
    }
    out
}

/// The identifiers of `text`: maximal runs of letters/digits joined by `_ . - / :`
/// (leading `. - : _` and trailing joiners trimmed, so sentence punctuation is not part of
/// a name) that split into two words or more. Plain words are not identifiers.
pub fn compounds(text: &str) -> Vec<Compound<'_>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut push = |s: usize, e: usize| out.extend(compound_at(text, s, e));
    // Byte by byte, decoding only non-ASCII characters: this runs over every uploaded
    // byte twice (identifier and joined fields).
    let bytes = text.as_bytes();
    let mut o = 0;
    while o < bytes.len() {
        let b = bytes[o];
        let (part, len) = if b.is_ascii() {
            (b.is_ascii_alphanumeric() || is_joiner(b), 1)
        } else {
            let c = text[o..].chars().next().expect("o is a char boundary");
            (is_word_char(c), c.len_utf8())
        };
        match (part, start) {
            (true, None) => start = Some(o),
            (false, Some(s)) => {
                push(s, o);
                start = None;
            }
            _ => {}
        }
        o += len;
    }
    if let Some(s) = start {
        push(s, text.len());
    }
    out
}

/// The identifier in the run `text[s..e]`, if it is one (see `compounds`).
fn compound_at(text: &str, s: usize, e: usize) -> Option<Compound<'_>> {
    // Joiners are ASCII, so trimming them byte by byte keeps char boundaries; the
    // checks below are byte loops because every word of an upload passes here twice.
    let raw = &text[s..e];
    let lead = raw
        .bytes()
        .take_while(|b| matches!(b, b'_' | b'.' | b'-' | b':'))
        .count();
    let mut end = raw.len();
    while end > lead && is_joiner(raw.as_bytes()[end - 1]) {
        end -= 1;
    }
    let whole = &raw[lead..end];
    // Most runs are plain words: no joiner and no lower -> upper hump, no work.
    let b = whole.as_bytes();
    let hump = b
        .windows(2)
        .any(|w| (w[0].is_ascii_lowercase() || w[0].is_ascii_digit()) && w[1].is_ascii_uppercase());
    if whole.is_empty() || !(hump || b.iter().any(|&c| is_joiner(c)) || !whole.is_ascii()) {
        return None;
    }
    // A name has two letters at least: a timestamp or a version is turned away here,
    // before its words are split out (every log line starts with one).
    if whole
        .bytes()
        .filter(u8::is_ascii_alphabetic)
        .take(2)
        .count()
        < 2
        && whole.is_ascii()
        && !is_ipv4(whole)
    {
        return None;
    }
    let words = words_of(whole);
    // Two words at least, and a name: some word of 2+ letters, or an IPv4 address
    // (timestamps, numbers and versions would each add a term nobody searches for).
    if words.len() < 2
        || !(words
            .iter()
            .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
            || is_ipv4(whole))
    {
        return None;
    }
    let segments: Vec<&str> = if whole.contains(SEGMENT) {
        whole
            .split(SEGMENT)
            .filter(|x| word_count(x) >= 2)
            .collect()
    } else {
        Vec::new()
    };
    let hidden: Vec<&str> = whole
        .split(|c: char| !(is_word_char(c) || c == '_'))
        .flat_map(glued_words)
        .collect();
    let lower_camel = whole.split(JOINERS).any(is_lower_camel);
    let strong = whole.contains(['_', '.', ':'])
        || whole.starts_with('/')
        || lower_camel
        || words.len() >= 3;
    Some(Compound {
        offset: s + lead,
        whole,
        strong,
        segments,
        words,
        hidden,
    })
}

/// Tokens of the identifier field: for each identifier its whole and multi-word segments
/// (strong ones only) and its hidden words (the analyzer lower-cases them); nothing for
/// plain words or for words the English field already splits out.
#[derive(Clone, Default)]
pub struct IdentTokenizer;

impl Tokenizer for IdentTokenizer {
    type TokenStream<'a> = VecStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecStream {
        let mut out: Vec<Token> = Vec::new();
        for c in compounds(text) {
            let end = c.offset + c.whole.len();
            let mut seen: Vec<&str> = Vec::new();
            let named = if c.strong {
                std::iter::once(c.whole)
                    .chain(c.segments.iter().copied())
                    .collect()
            } else {
                Vec::new()
            };
            for t in named.into_iter().chain(c.hidden.iter().copied()) {
                if seen.contains(&t) {
                    continue;
                }
                seen.push(t);
                let p = out.len();
                out.push(super::token(t.to_string(), c.offset, end, p));
            }
        }
        VecStream::new(out)
    }
}

/// Tokens of the joined-identifier field: the joined forms of each identifier's words
/// (`joined`), weak compounds too (`read-timeout` is a config key as often as
/// `write-ahead` is prose, and either way a query only meets it with the same words side
/// by side). A field of its own: in the identifier field they would lengthen every chunk's
/// identifier text and so move the BM25 scores of its other terms.
#[derive(Clone, Default)]
pub struct JoinTokenizer;

impl Tokenizer for JoinTokenizer {
    type TokenStream<'a> = VecStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecStream {
        let mut out: Vec<Token> = Vec::new();
        for c in compounds(text) {
            let end = c.offset + c.whole.len();
            for j in joined(&c.words) {
                let p = out.len();
                out.push(super::token(j, c.offset, end, p));
            }
        }
        VecStream::new(out)
    }
}

pub fn join_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(JoinTokenizer)
        .filter(RemoveLongFilter::limit(100))
        .build()
}

pub fn ident_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(IdentTokenizer)
        .filter(RemoveLongFilter::limit(100))
        .filter(LowerCaser)
        .build()
}

/// A query's identifier view: `wholes` (each strong identifier and its segments,
/// lower-cased: weighted up, so the exact identifier ranks first) and `words` (every plain
/// word and every identifier word, lower-cased, stop words dropped: matched against the
/// hidden words of indexed identifiers, so `proxy read timeout` finds
/// `proxy_read_timeout`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryIdents {
    pub wholes: Vec<String>,
    pub words: Vec<String>,
    /// The identifiers' words joined by spaces (for the English analyzer: `readTimeout`
    /// must also find the prose `read timeout`).
    pub split_text: String,
    /// Adjacent words of the query joined (`joined`): against the joined forms of indexed
    /// identifiers, so `read timeout` finds `readTimeout` and `proxy_read_timeout` over
    /// prose that merely has both words.
    pub joined: Vec<String>,
}

pub fn query_idents(query: &str, limit: usize) -> QueryIdents {
    let mut q = QueryIdents::default();
    let push = |v: &mut Vec<String>, t: &str| {
        let t = t.to_lowercase();
        if !t.is_empty() && t.chars().count() <= 100 && !v.contains(&t) && v.len() < limit {
            v.push(t);
        }
    };
    let found = compounds(query);
    for c in &found {
        if c.strong {
            push(&mut q.wholes, c.whole);
            for s in &c.segments {
                push(&mut q.wholes, s);
            }
        }
        for w in &c.hidden {
            q.split_text.push_str(w);
            q.split_text.push(' ');
        }
    }
    // Plain words and identifier words alike, in query order.
    for w in query
        .split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
        .flat_map(|w| match glued_words(w) {
            v if v.is_empty() => vec![w],
            v => v,
        })
    {
        let lw = w.to_lowercase();
        if !super::STOPWORDS.contains(&lw.as_str()) {
            push(&mut q.words, &lw);
        }
    }
    // Runs of words separated by spaces or joiners only (punctuation and CJK end a run; a
    // stop word breaks it: `path of the file` is not `pathfile`).
    for run in
        query.split(|c: char| !(is_word_char(c) || c.is_whitespace() || JOINERS.contains(&c)))
    {
        let words: Vec<&str> = run
            .split(|c: char| c.is_whitespace() || JOINERS.contains(&c))
            .filter(|w| !w.is_empty())
            .flat_map(camel_words)
            .collect();
        for seq in words.split(|w| super::STOPWORDS.contains(&w.to_lowercase().as_str())) {
            for j in joined(seq) {
                push(&mut q.joined, &j);
            }
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::analyzers::tokens;

    #[test]
    fn index_ident_number_variants_both_ways() {
        assert_eq!(number_variants("buffer"), ["buffers"]);
        assert_eq!(number_variants("buffers"), ["buffer"]);
        assert_eq!(number_variants("connections"), ["connection"]);
        assert_eq!(number_variants("process"), ["processes"]);
        assert!(number_variants("processes").contains(&"process".to_string()));
        assert!(number_variants("caches").contains(&"cache".to_string()));
        assert_eq!(number_variants("policy"), ["policies"]);
        assert!(number_variants("policies").contains(&"policy".to_string()));
        assert_eq!(number_variants("key"), ["keys"]);
        assert!(number_variants("db").is_empty() && number_variants("port_80").is_empty());
    }

    fn idents(text: &str) -> Vec<String> {
        tokens(&mut ident_analyzer(), text, 100)
    }

    #[test]
    fn index_ident_splits_every_identifier_kind() {
        assert_eq!(
            idents("set proxy_read_timeout 60s;"),
            ["proxy_read_timeout", "proxy", "read", "timeout"]
        );
        // lowerCamel is a name; PascalCase is left to the English field (brand names).
        assert_eq!(
            idents("readTimeout and HTTPServer PostgreSQL"),
            ["readtimeout", "read", "timeout"]
        );
        // The English field splits these; the identifier field keeps them whole.
        assert_eq!(idents("--proxy-read-timeout."), ["proxy-read-timeout"]);
        assert_eq!(
            idents("spring.datasource.url=jdbc"),
            ["spring.datasource.url"]
        );
        assert_eq!(
            idents("see /var/log/nginx/error.log:"),
            ["/var/log/nginx/error.log", "error.log"]
        );
        assert_eq!(
            idents("connect 10.0.0.5:8080 failed"),
            ["10.0.0.5:8080", "10.0.0.5"]
        );
        assert_eq!(
            idents("host db-01.prod.example.com"),
            ["db-01.prod.example.com"]
        );
        assert_eq!(idents("DPKG_ROOT=/srv"), ["dpkg_root", "dpkg", "root"]);
        // Timestamps, numbers and versions are not names.
        assert!(idents("2024-05-01T10:00:00.022 took 1.5 s, v1.0.8 rc-1").is_empty());
        // Plain words, sentence punctuation, YAML keys, prose compounds and CJK are not.
        assert!(idents("The timeout. database: port 5432 write-ahead and/or 数据库").is_empty());
    }

    fn en(text: &str) -> Vec<String> {
        tokens(&mut crate::analyzers::en_analyzer(), text, 100)
    }

    /// Every word of the query matches the text in some field: as a hidden identifier word
    /// (identifier field) or as an English word.
    fn found(query: &str, text: &str) -> bool {
        let (id, en_text) = (idents(text), en(text));
        query_idents(query, 48)
            .words
            .iter()
            .all(|w| id.contains(w) || en(w).iter().all(|t| en_text.contains(t)))
    }

    #[test]
    fn index_ident_query_view_both_directions() {
        // Split query -> words that match an indexed identifier's words.
        let q = query_idents("proxy read timeout", 48);
        assert!(q.wholes.is_empty());
        assert_eq!(q.words, ["proxy", "read", "timeout"]);
        // Identifier query -> its whole (weighted up), its words, and prose words for the
        // English field.
        let q = query_idents("proxy_read_timeout", 48);
        assert_eq!(q.wholes, ["proxy_read_timeout"]);
        assert_eq!(q.words, ["proxy", "read", "timeout"]);
        assert_eq!(q.split_text.trim(), "proxy read timeout");
        let q = query_idents("readTimeout", 48);
        assert_eq!(q.wholes, ["readtimeout"]);
        assert_eq!(q.words, ["read", "timeout"]);
        let q = query_idents("what is at 10.0.0.5:8080", 48);
        assert_eq!(q.wholes, ["10.0.0.5:8080", "10.0.0.5"]);
        for (a, b) in [
            ("proxy read timeout", "proxy_read_timeout"),
            ("read timeout", "readTimeout"),
            ("proxy read timeout", "--proxy-read-timeout"),
        ] {
            assert!(found(a, b), "{a} -> {b}");
            assert!(found(b, a), "{b} -> {a}");
        }
        // One way: the identifier says more than the query.
        assert!(found("datasource url", "spring.datasource.url"));
        assert!(found("nginx error log", "/var/log/nginx/error.log"));
        assert!(!found("proxy write timeout", "proxy_read_timeout"));
        // The whole is an indexed token: the exact identifier matches it.
        assert!(idents("x proxy_read_timeout y").contains(&"proxy_read_timeout".into()));
        assert!(!idents("the proxy read timeout").contains(&"proxy_read_timeout".into()));
    }

    #[test]
    fn index_ident_joined_forms_meet_from_either_side() {
        assert_eq!(
            joined(&["proxy", "read", "timeout"]),
            ["proxyread", "readtimeout", "proxyreadtimeout"]
        );
        // Numbers and one-letter words make no joined form (IP parts, ports, versions).
        assert!(joined(&["10", "0", "0", "5"]).is_empty());
        assert_eq!(joined(&["db", "01", "prod"]), Vec::<String>::new());
        let join = |text: &str| tokens(&mut join_analyzer(), text, 100);
        // Every spelling of the same words gives the same joined form.
        for text in [
            "proxy_read_timeout 60s;",
            "readTimeout: 3000",
            "--read-timeout=5 -x",
            "http.client.read.timeout=5",
        ] {
            assert!(join(text).contains(&"readtimeout".into()), "{text}");
        }
        // Prose gives none.
        assert!(join("the read timeout; the write ahead log").is_empty());
        // Queries: adjacent words, in order, a stop word breaking the run.
        assert_eq!(query_idents("read timeout", 48).joined, ["readtimeout"]);
        assert_eq!(
            query_idents("datasource url?", 48).joined,
            ["datasourceurl"]
        );
        assert!(query_idents("path of the file", 48).joined.is_empty());
        assert!(query_idents("timeout read", 48)
            .joined
            .iter()
            .all(|j| j != "readtimeout"));
        // An identifier typed in another spelling joins to the same form.
        assert!(query_idents("read_timeout", 48)
            .joined
            .contains(&"readtimeout".into()));
        // CJK ends a run: `nginx 超时` has one English word.
        assert!(query_idents("nginx 超时 设置", 48).joined.is_empty());
    }

    #[test]
    fn index_ident_camel_words() {
        assert_eq!(camel_words("readTimeout"), ["read", "Timeout"]);
        assert_eq!(camel_words("HTTPServer"), ["HTTP", "Server"]);
        assert_eq!(camel_words("ipv4Addr"), ["ipv4", "Addr"]);
        assert_eq!(camel_words("ALLCAPS"), ["ALLCAPS"]);
        assert_eq!(camel_words("x"), ["x"]);
    }
}
