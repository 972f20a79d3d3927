//! The words of a question about a config and the words of its keys, in one form: a key's
//! name split where it joins words (`proxy_read_timeout`, `readTimeoutMs`, `LimitNOFILE`),
//! a question's English words and its Chinese read through the vocabulary
//! (`assets/planner/config_keys.toml`, then the index's operations glossary), stop words
//! left out, each word with the forms that name the same thing in a key.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde::Deserialize;

use crate::lexicon::Words;
use crate::text::{is_cjk, normalize};

const DATA: &str = include_str!("../../../assets/planner/config_keys.toml");
const GLOSSARY: &str = include_str!("../../../index/data/glossary.tsv");
/// CC-CEDICT as the index compiles it (sorted `headword<TAB>gloss|gloss` lines after a `#`
/// header): the last resort for a Chinese word neither list has (`支付`, `库存`).
const CEDICT: &str = include_str!("../../../index/data/cedict.tsv");
/// Longest CEDICT headword tried, in characters.
const CEDICT_WORD: usize = 6;

#[derive(Debug, Deserialize)]
struct DataFile {
    stop: Words,
    count: Words,
    list: Words,
    same: Vec<Group>,
    qualifiers: Words,
    duration: Duration,
}

/// A length of time asked for, and the key words that hold one.
#[derive(Debug, Deserialize)]
struct Duration {
    #[serde(flatten)]
    cue: Words,
    keys: Vec<String>,
}

/// Words that name the same thing in a key.
#[derive(Debug, Deserialize)]
struct Group {
    /// The words name what holds settings (a container, a service) or a kind of setting
    /// loosely (a policy): missing from a key, they make it no other setting.
    #[serde(default)]
    loose: bool,
    #[serde(flatten)]
    words: Words,
}

/// The vocabulary, parsed once.
#[derive(Debug)]
pub struct Vocab {
    /// English stop phrases as word lists, longest first.
    stop_en: Vec<Vec<String>>,
    count: Words,
    list: Words,
    /// English words of each group of words that name the same thing.
    groups: Vec<Vec<String>>,
    group_of: HashMap<String, Vec<usize>>,
    /// Chinese words: their English senses, each a list of words (`None` for a stop word).
    zh: HashMap<String, Option<Vec<Vec<String>>>>,
    zh_longest: usize,
    /// Words that make a key what it is (the groups' and the qualifiers').
    keyish: HashSet<String>,
    duration: Words,
    duration_keys: HashSet<String>,
}

/// Why the vocabulary file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("配置词表无法解析 (config_keys.toml does not parse): {0}")]
pub struct VocabError(#[from] toml::de::Error);

impl Vocab {
    pub fn load() -> Result<Vocab, VocabError> {
        let d: DataFile = toml::from_str(DATA)?;
        let mut stop_en: Vec<Vec<String>> = d.stop.en.iter().map(|p| split_plain(p)).collect();
        stop_en.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let mut zh: HashMap<String, Option<Vec<Vec<String>>>> = HashMap::new();
        // Cue words are no content: "几个" asks for a count, it names nothing.
        for w in d
            .stop
            .zh
            .iter()
            .chain(&d.count.zh)
            .chain(&d.list.zh)
            .chain(&d.duration.cue.zh)
        {
            zh.insert(w.clone(), None);
        }
        let mut group_of: HashMap<String, Vec<usize>> = HashMap::new();
        let mut keyish: HashSet<String> = d.qualifiers.en.iter().cloned().collect();
        let mut groups = Vec::new();
        for (g, group) in d.same.iter().enumerate() {
            let words = &group.words;
            for w in &words.en {
                group_of.entry(w.clone()).or_default().push(g);
                if !group.loose {
                    keyish.insert(w.clone());
                }
            }
            for z in &words.zh {
                let senses = zh.entry(z.clone()).or_insert_with(|| Some(Vec::new()));
                if let Some(s) = senses {
                    s.extend(words.en.iter().map(|w| vec![w.clone()]));
                }
            }
            groups.push(words.en.clone());
        }
        for line in GLOSSARY.lines().filter(|l| !l.starts_with('#')) {
            let Some((z, senses)) = line.split_once('\t') else {
                continue;
            };
            zh.entry(z.trim().to_string()).or_insert_with(|| {
                Some(
                    senses
                        .split('|')
                        .map(key_words)
                        .filter(|w| !w.is_empty())
                        .collect(),
                )
            });
        }
        let zh_longest = zh.keys().map(|k| k.chars().count()).max().unwrap_or(1);
        Ok(Vocab {
            stop_en,
            count: d.count,
            list: d.list,
            groups,
            group_of,
            zh,
            zh_longest,
            keyish,
            duration_keys: d.duration.keys.into_iter().collect(),
            duration: d.duration.cue,
        })
    }

    /// Whether a key's word (lower case) says it holds a length of time (`sec`, `delay`).
    pub fn duration_key(&self, w: &str) -> bool {
        self.duration_keys.contains(w)
    }

    /// Whether a word (lower case) is one that makes a key what it is (`max`, `read`).
    pub fn keyish(&self, w: &str) -> bool {
        self.keyish.contains(w)
    }

    /// The forms of an English word: itself, its other grammatical number, and the words
    /// of every group it (or one of those) belongs to.
    fn forms(&self, w: &str) -> Vec<String> {
        let mut out = variants(w);
        let groups: Vec<usize> = out
            .iter()
            .filter_map(|v| self.group_of.get(v))
            .flatten()
            .copied()
            .collect();
        for g in groups {
            for x in &self.groups[g] {
                out.extend(variants(x));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// The embedded vocabulary.
pub fn vocab() -> &'static Vocab {
    static V: OnceLock<Vocab> = OnceLock::new();
    // Embedded data, parsed by a unit test: a failure is a broken build, not input.
    V.get_or_init(|| Vocab::load().expect("config_keys.toml parses (tested)"))
}

/// A word in its other grammatical number, with the word itself (`timeouts` ->
/// `timeouts`, `timeout`; `policy` -> `policy`, `policies`). English is irregular, so a
/// plural gives each plausible singular; a form no key holds matches nothing.
pub fn variants(w: &str) -> Vec<String> {
    let mut out = vec![w.to_string()];
    if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return out;
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
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

/// Lower-case words of a plain phrase.
fn split_plain(p: &str) -> Vec<String> {
    p.split_whitespace().map(str::to_lowercase).collect()
}

/// The words a key or a name is made of, lower-cased: split at anything not a letter or
/// digit and where case changes inside a word (`readTimeoutMs` -> `read`, `timeout`,
/// `ms`; `HTTPServer` -> `http`, `server`; `LimitNOFILE` -> `limit`, `nofile`).
pub fn key_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in s.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut cur = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1);
            let boundary = c.is_uppercase()
                && prev.is_some_and(|p| {
                    p.is_lowercase() || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
                });
            if boundary && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            cur.extend(c.to_lowercase());
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

/// What a question asks of a config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The value of a key.
    Value,
    /// How many children of a kind a block has.
    Count,
    /// Which children of a kind a block has.
    List,
}

/// One content word of a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// As typed.
    pub text: String,
    /// Lower-case forms that name the same thing in a key.
    pub forms: Vec<String>,
    /// One of the words that make a key what it is (`read`, `max`, `超时`).
    pub keyish: bool,
    /// Byte span in the normalised question.
    pub span: (usize, usize),
    /// Read from the general dictionary: an English word it starts (or that starts it)
    /// counts too (`支付` is "pay", the key says `payment`).
    pub loose: bool,
    /// The English word as typed, in both numbers (empty for a Chinese word): a key's
    /// word that is this, not a synonym, matches it directly.
    pub own: Vec<String>,
}

impl Term {
    /// Whether a key's word (lower case) is this term in one of its forms.
    pub fn names(&self, word: &str) -> bool {
        variants(word)
            .iter()
            .any(|v| self.forms.binary_search(v).is_ok())
            || (self.loose
                && word.len() >= 3
                && self
                    .forms
                    .iter()
                    .any(|f| f.len() >= 3 && (word.starts_with(f.as_str()) || f.starts_with(word))))
    }
}

impl Term {
    /// Whether a word names this term as typed: the word itself (either number) for an
    /// English term; any of its forms for a Chinese one, whose forms are all translations.
    pub fn names_directly(&self, word: &str) -> bool {
        if self.own.is_empty() {
            return self.names(word);
        }
        variants(word).iter().any(|v| self.own.contains(v))
    }
}

/// The glosses of a CEDICT headword (binary search over the sorted lines).
fn cedict(word: &str) -> Option<&'static str> {
    static START: OnceLock<usize> = OnceLock::new();
    let body = CEDICT;
    // The first line after the `#` header.
    let start = *START.get_or_init(|| {
        body.match_indices('\n')
            .map(|(i, _)| i + 1)
            .find(|&i| !body[i..].starts_with('#'))
            .unwrap_or(0)
    });
    let b = body.as_bytes();
    let (mut lo, mut hi) = (start, b.len());
    // `lo` and `hi` stay line starts (or the end); the word, if present, is in [lo, hi).
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let s = b[lo..mid]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(lo, |p| lo + p + 1);
        let e = b[s..hi]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(hi, |p| s + p);
        let line = &body[s..e];
        let (head, gloss) = line.split_once('\t').unwrap_or((line, ""));
        match head.cmp(word) {
            std::cmp::Ordering::Equal => return Some(gloss),
            std::cmp::Ordering::Less => lo = (e + 1).min(hi),
            std::cmp::Ordering::Greater => hi = s,
        }
    }
    None
}

/// The English words the general dictionary gives a Chinese word (a single character
/// included), at most three.
pub fn dictionary_words(word: &str) -> Vec<String> {
    cedict(word).map(cedict_words).unwrap_or_default()
}

/// A CEDICT word's English forms: its one-word glosses (at most 3), else the head of its
/// first gloss (`shopping cart` -> `cart`).
fn cedict_words(glosses: &str) -> Vec<String> {
    let single: Vec<String> = glosses
        .split('|')
        .filter(|g| !g.trim().contains(' '))
        .flat_map(key_words)
        .take(3)
        .collect();
    if !single.is_empty() {
        return single;
    }
    glosses
        .split('|')
        .next()
        .and_then(|g| key_words(g).pop())
        .into_iter()
        .collect()
}

/// A question read for a config lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub shape: Shape,
    /// A length of time is asked for ("how long", "多久").
    pub duration: bool,
    pub terms: Vec<Term>,
    /// The normalised text the spans point into.
    pub text: String,
}

impl Question {
    /// The part of the question its terms span ("read timeout of the payment gateway").
    pub fn asked(&self) -> &str {
        match (self.terms.first(), self.terms.last()) {
            (Some(a), Some(b)) => self.text.get(a.span.0..b.span.1).unwrap_or(""),
            _ => "",
        }
    }
}

/// Reads a question: its shape and its content words.
pub fn question(text: &str) -> Question {
    let v = vocab();
    let text = normalize(text);
    let lower = text.to_lowercase();
    let duration = v.duration.occur_in(&lower);
    let shape = if duration {
        Shape::Value
    } else if v.count.occur_in(&lower) {
        Shape::Count
    } else if v.list.occur_in(&lower) {
        Shape::List
    } else {
        Shape::Value
    };
    let mut terms = Vec::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < text.len() {
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        if c.is_ascii_alphanumeric() {
            let end = text[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_-./:'@$".contains(c)))
                .map_or(text.len(), |e| i + e);
            let end = trim_word_end(bytes, i, end);
            english(&text, i, end, &mut terms);
            i = end.max(i + 1);
        } else if is_cjk(c) {
            let end = text[i..]
                .find(|c: char| !is_cjk(c))
                .map_or(text.len(), |e| i + e);
            chinese(&text, i, end, &mut terms);
            i = end;
        } else {
            i += c.len_utf8();
        }
    }
    drop_english_stops(&mut terms, v);
    let cue_words: Vec<Vec<String>> = v
        .count
        .en
        .iter()
        .chain(&v.list.en)
        .map(|p| split_plain(p))
        .collect();
    drop_phrases(&mut terms, &cue_words);
    terms.retain(|t| !t.forms.is_empty() && !t.text.chars().all(|c| c.is_ascii_digit()));
    Question {
        shape,
        duration,
        terms,
        text,
    }
}

/// An identifier typed in a question ends before trailing punctuation (`timeout?`).
fn trim_word_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start + 1 && b"-./:'@$".contains(&bytes[end - 1]) {
        end -= 1;
    }
    end
}

/// The words of an ASCII run (`proxy_read_timeout`, `what's`, `redis.conf`).
fn english(text: &str, start: usize, end: usize, out: &mut Vec<Term>) {
    let v = vocab();
    let run = &text[start..end];
    // A stop word with an apostrophe (`what's`) stays whole so the stop list takes it;
    // another word loses its `'s` (`nginx's`).
    let lower = run.to_lowercase();
    if run.contains('\'') && v.stop_en.iter().any(|p| p.len() == 1 && p[0] == lower) {
        out.push(Term {
            forms: v.forms(&lower),
            keyish: false,
            own: variants(&lower),
            text: lower,
            span: (start, end),
            loose: false,
        });
        return;
    }
    let end = if run.ends_with("'s") { end - 2 } else { end };
    let run = &text[start..end];
    let mut pos = start;
    for part in run.split(|c: char| !c.is_ascii_alphanumeric()) {
        let at = text[pos..end].find(part).map_or(pos, |o| pos + o);
        pos = at + part.len();
        if part.is_empty() {
            continue;
        }
        for w in key_words(part) {
            let keyish = variants(&w).iter().any(|x| v.keyish.contains(x));
            out.push(Term {
                forms: v.forms(&w),
                keyish,
                own: variants(&w),
                text: w.clone(),
                span: (at, at + part.len()),
                loose: false,
            });
        }
    }
}

/// The words of a Chinese run, longest match first; characters no word covers are skipped.
fn chinese(text: &str, start: usize, end: usize, out: &mut Vec<Term>) {
    let v = vocab();
    let chars: Vec<(usize, char)> = text[start..end].char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let mut found = None;
        for len in (1..=v.zh_longest.min(chars.len() - k)).rev() {
            let a = start + chars[k].0;
            let b = chars.get(k + len).map_or(end, |(o, _)| start + o);
            if let Some(senses) = v.zh.get(&text[a..b]) {
                found = Some((len, a, b, senses));
                break;
            }
        }
        let Some((len, a, b, senses)) = found else {
            k += general_word(text, start, end, &chars, k, out);
            continue;
        };
        k += len;
        let Some(senses) = senses else {
            continue;
        };
        let term = |words: &[String]| {
            let mut forms: Vec<String> = words.iter().flat_map(|s| v.forms(s)).collect();
            forms.sort();
            forms.dedup();
            Term {
                text: text[a..b].to_string(),
                forms,
                keyish: words.iter().any(|s| v.keyish.contains(s)),
                span: (a, b),
                loose: false,
                own: Vec::new(),
            }
        };
        // A compound read as several English words (`读超时`: read timeout) is those words;
        // otherwise the senses are alternatives of one word.
        match senses.iter().find(|s| s.len() > 1) {
            Some(words) => out.extend(words.iter().map(|w| term(std::slice::from_ref(w)))),
            None => out.push(term(&senses.concat())),
        }
    }
}

/// A word of 2+ characters at `chars[k]` from the general dictionary (longest first), as a
/// loose term; the number of characters used (1 when none is a word).
fn general_word(
    text: &str,
    start: usize,
    end: usize,
    chars: &[(usize, char)],
    k: usize,
    out: &mut Vec<Term>,
) -> usize {
    let v = vocab();
    for len in (2..=CEDICT_WORD.min(chars.len() - k)).rev() {
        let a = start + chars[k].0;
        let b = chars.get(k + len).map_or(end, |(o, _)| start + o);
        let Some(glosses) = cedict(&text[a..b]) else {
            continue;
        };
        let words = cedict_words(glosses);
        if words.is_empty() {
            continue;
        }
        let mut forms: Vec<String> = words.iter().flat_map(|w| v.forms(w)).collect();
        forms.sort();
        forms.dedup();
        out.push(Term {
            text: text[a..b].to_string(),
            keyish: words.iter().any(|w| v.keyish.contains(w)),
            forms,
            span: (a, b),
            loose: true,
            own: Vec::new(),
        });
        return len;
    }
    1
}

/// Drops English stop words and phrases (the longest phrase at each position).
fn drop_english_stops(terms: &mut Vec<Term>, v: &Vocab) {
    drop_phrases(terms, &v.stop_en);
}

fn drop_phrases(terms: &mut Vec<Term>, phrases: &[Vec<String>]) {
    let mut keep = vec![true; terms.len()];
    let mut i = 0;
    while i < terms.len() {
        let hit = phrases.iter().find(|p| {
            !p.is_empty()
                && p.iter().enumerate().all(|(k, w)| {
                    terms
                        .get(i + k)
                        .is_some_and(|t| t.text.eq_ignore_ascii_case(w) && t.text.is_ascii())
                })
        });
        match hit {
            Some(p) => {
                keep[i..i + p.len()].iter_mut().for_each(|k| *k = false);
                i += p.len();
            }
            None => i += 1,
        }
    }
    let mut it = keep.into_iter();
    terms.retain(|_| it.next().unwrap_or(true));
}
