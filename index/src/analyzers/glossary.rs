//! Query translation for the lexical side: a bilingual operations glossary
//! (`data/glossary.tsv`, compiled into the binary, parsed on first use in about 3 ms in
//! release, half of it stemming the English terms)
//! turns the Chinese terms of a query into English ones and the English words into Chinese
//! ones, so BM25 sees both languages (`数据库端口` also searches `database port`). Queries
//! only: documents are indexed as written.

use std::collections::HashMap;
use std::sync::OnceLock;

use llmops_common::is_cjk;

const GLOSSARY: &str = include_str!("../../data/glossary.tsv");

/// Function words and question words of a Chinese query that carry no topic, separated
/// by spaces: a query's untranslated rest is what remains once they are gone (removed in
/// this order, so a word goes before the words inside it).
const ZH_FILLER: &str = concat!(
    "是多少 多少 怎么 怎样 如何 什么 哪些 哪个 哪里 是否 一下 一个 这个 那个 可以 能否 ",
    "需要 我们 我的 请问 的 了 吗 呢 是 把 用 在 和 与 及 或 中 里 我 要 想 能 请 将 从 ",
    "给 对 被 让 所 有 个 些 下 上 来 去",
);

fn zh_fillers() -> impl Iterator<Item = &'static str> {
    ZH_FILLER.split_whitespace()
}

/// A Chinese function or question word (a query word that says nothing about the topic).
pub fn is_zh_filler(word: &str) -> bool {
    zh_fillers().any(|f| f == word)
}

/// English words that are not worth a Chinese term.
const EN_FILLER: &[&str] = &[
    "the", "a", "an", "of", "to", "in", "on", "for", "and", "or", "is", "are", "how", "what",
    "which", "with", "by", "from", "at", "as", "do", "does", "my", "i", "it", "its", "this",
    "that", "be", "can", "show", "me",
];

/// Weight of an English question word's siblings in the glossary (the other English
/// terms of the Chinese terms it translates to: `ram` -> 内存 -> `memory`, `mem`): a
/// question says `RAM`, `backend`, `reboot` where a config says `memory`, `upstream`,
/// `restart`. One disjunction-max clause per typed word, at this share of a translated term's
/// weight (BM25 then scales it by `RankParams::translated`): high enough that a sibling
/// finds the config that says it, low enough that the typed word's own matches lead.
pub const SIBLING_WEIGHT: f32 = 0.3;

pub struct Glossary {
    zh_en: HashMap<String, Vec<String>>,
    en_zh: HashMap<String, Vec<String>>,
    /// `en_zh` keyed by each English term's words stemmed (`stems`): a question says
    /// `backups`, `alerted`, `sessions` where the glossary has `backup`, `alert`, `session`.
    en_stems: HashMap<String, Vec<String>>,
    /// Longest Chinese term, in characters (the greedy match window).
    max_zh: usize,
    /// Longest English term, in words.
    max_en: usize,
}

/// What a query means in the other language.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Translation {
    /// Terms in the other language, each once, in query order.
    pub terms: Vec<String>,
    /// The query as the other language would say it (terms plus the untranslated words
    /// that still matter), for coverage and snippets.
    pub text: String,
    /// Weight of each of `terms` in (0, 1] (same order): 1 for glossary terms, less for
    /// dictionary senses (`analyzers/translate.rs`). Empty means all 1.
    pub weights: Vec<f32>,
    /// The alternatives of each translated query word (indices into `terms`): BM25 scores
    /// a word once, by its best-matching alternative, so a word with many synonyms does not
    /// outweigh the others. A term in no group is a clause on its own (the glossary's
    /// Chinese terms of an English question; its English siblings are grouped per word).
    pub groups: Vec<Vec<usize>>,
    /// Consecutive translated words of the query (indices into `groups`, two or more,
    /// nothing untranslated or a function word between): `最大内存` -> max, memory. Their
    /// senses joined are searched like a typed question's adjacent words (`maxmemory`).
    pub runs: Vec<Vec<usize>>,
}

impl Translation {
    /// Adds `term` at weight `w` (or raises its weight to `w`) and returns its index.
    pub fn add(&mut self, term: &str, w: f32) -> usize {
        // Weights are implicit 1 until the first one is given.
        self.weights.resize(self.terms.len(), 1.0);
        match self.terms.iter().position(|x| x == term) {
            Some(i) => {
                self.weights[i] = self.weights[i].max(w);
                i
            }
            None => {
                self.terms.push(term.to_string());
                self.weights.push(w);
                self.terms.len() - 1
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The weight of `terms[i]` (1 when none was given).
    pub fn weight(&self, i: usize) -> f32 {
        self.weights.get(i).copied().unwrap_or(1.0)
    }
}

/// The glossary compiled into the binary.
pub fn glossary() -> &'static Glossary {
    static G: OnceLock<Glossary> = OnceLock::new();
    G.get_or_init(|| Glossary::parse(GLOSSARY))
}

/// Each English word stemmed (Porter, as the lexical index stems them); a phrase's key in
/// `en_stems` is its words' stems joined by spaces.
fn stems(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| super::english_stem(w)).collect()
}

fn push_unique(v: &mut Vec<String>, t: &str) {
    if !v.iter().any(|x| x == t) {
        v.push(t.to_string());
    }
}

impl Glossary {
    /// Parses `zh<TAB>en|en...` lines; `#` lines and malformed lines are skipped.
    pub fn parse(text: &str) -> Glossary {
        let mut g = Glossary {
            zh_en: HashMap::new(),
            en_zh: HashMap::new(),
            en_stems: HashMap::new(),
            max_zh: 1,
            max_en: 1,
        };
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((zh, en)) = line.split_once('\t') else {
                continue;
            };
            let zh = zh.trim().to_lowercase();
            if zh.is_empty() {
                continue;
            }
            for e in en.split('|').map(|e| e.trim().to_lowercase()) {
                if e.is_empty() {
                    continue;
                }
                push_unique(g.zh_en.entry(zh.clone()).or_default(), &e);
                g.max_en = g.max_en.max(e.split_whitespace().count());
                let words: Vec<&str> = e.split_whitespace().collect();
                push_unique(g.en_stems.entry(stems(&words).join(" ")).or_default(), &zh);
                push_unique(g.en_zh.entry(e).or_default(), &zh);
            }
            g.max_zh = g.max_zh.max(zh.chars().count());
        }
        g
    }

    pub fn len(&self) -> usize {
        self.zh_en.len()
    }

    /// The English terms of one Chinese glossary term (lower-cased), as written.
    pub fn zh_terms(&self, zh: &str) -> Option<&[String]> {
        self.zh_en.get(zh).map(Vec::as_slice)
    }

    pub fn is_empty(&self) -> bool {
        self.zh_en.is_empty()
    }

    /// The query in the other language: Chinese terms (longest match first) to English
    /// when the query has CJK, else English words and word pairs to Chinese.
    pub fn translate(&self, query: &str) -> Translation {
        if query.chars().any(is_cjk) {
            self.zh_to_en(query)
        } else {
            self.en_to_zh(query)
        }
    }

    fn zh_to_en(&self, query: &str) -> Translation {
        let chars: Vec<char> = query.to_lowercase().chars().collect();
        let mut t = Translation::default();
        let mut rest: Vec<String> = Vec::new();
        let mut run = String::new();
        let mut i = 0;
        let flush = |run: &mut String, rest: &mut Vec<String>| {
            let mut r = std::mem::take(run);
            for f in zh_fillers() {
                r = r.replace(f, " ");
            }
            rest.extend(
                r.split_whitespace()
                    .filter(|w| w.chars().count() >= 2)
                    .map(str::to_string),
            );
        };
        while i < chars.len() {
            if !is_cjk(chars[i]) {
                flush(&mut run, &mut rest);
                // ASCII words (`nginx`, `bz2`) stay as they are.
                let s = i;
                while i < chars.len() && !is_cjk(chars[i]) {
                    i += 1;
                }
                let w: String = chars[s..i].iter().collect();
                rest.extend(w.split_whitespace().map(str::to_string));
                continue;
            }
            let mut matched = 0;
            for n in (1..=self.max_zh.min(chars.len() - i)).rev() {
                if !chars[i..i + n].iter().all(|c| is_cjk(*c)) {
                    continue;
                }
                let cand: String = chars[i..i + n].iter().collect();
                // One-character terms only alone: inside a word they are usually part of it.
                if n == 1
                    && (i > 0 && is_cjk(chars[i - 1])
                        || chars.get(i + 1).is_some_and(|c| is_cjk(*c)))
                {
                    continue;
                }
                if let Some(en) = self.zh_en.get(&cand) {
                    flush(&mut run, &mut rest);
                    for e in en {
                        push_unique(&mut t.terms, e);
                    }
                    rest.push(en[0].clone());
                    matched = n;
                    break;
                }
            }
            if matched == 0 {
                run.push(chars[i]);
                i += 1;
            } else {
                i += matched;
            }
        }
        flush(&mut run, &mut rest);
        if !t.terms.is_empty() {
            t.text = rest.join(" ");
        }
        t
    }

    fn en_to_zh(&self, query: &str) -> Translation {
        let lower = query.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        // Once per word, not per window tried.
        let word_stems = stems(&words);
        let mut t = Translation::default();
        let mut rest: Vec<String> = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let mut matched = 0;
            for n in (1..=self.max_en.min(words.len() - i)).rev() {
                let cand = words[i..i + n].join(" ");
                if n == 1 && EN_FILLER.contains(&cand.as_str()) {
                    break;
                }
                // The words as typed first, then their stems (an inflected form).
                let found = self
                    .en_zh
                    .get(&cand)
                    .or_else(|| self.en_stems.get(&word_stems[i..i + n].join(" ")));
                if let Some(zh) = found {
                    for z in zh {
                        t.add(z, 1.0);
                    }
                    // The typed word's English siblings: the other English terms of its
                    // Chinese terms (`backend` -> 后端 -> `upstream`), one group.
                    let typed = &word_stems[i..i + n];
                    let mut group: Vec<usize> = Vec::new();
                    for e in zh.iter().filter_map(|z| self.zh_en.get(z)).flatten() {
                        let words: Vec<&str> = e.split_whitespace().collect();
                        if *e == cand || stems(&words) == typed {
                            continue;
                        }
                        let k = t.add(e, SIBLING_WEIGHT);
                        if !group.contains(&k) {
                            group.push(k);
                        }
                    }
                    if !group.is_empty() {
                        t.groups.push(group);
                    }
                    rest.push(zh[0].clone());
                    matched = n;
                    break;
                }
            }
            if matched == 0 {
                if !EN_FILLER.contains(&words[i]) {
                    rest.push(words[i].to_string());
                }
                i += 1;
            } else {
                i += matched;
            }
        }
        if !t.terms.is_empty() {
            t.text = rest.join(" ");
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_glossary_loads_fast_and_whole() {
        let t0 = std::time::Instant::now();
        let g = Glossary::parse(GLOSSARY);
        // Not a timing assertion: the size says the whole file was read.
        assert!(g.len() > 300, "{}", g.len());
        eprintln!("glossary: {} terms parsed in {:?}", g.len(), t0.elapsed());
        assert!(!glossary().is_empty());
    }

    #[test]
    fn index_glossary_chinese_query_to_english() {
        let g = glossary();
        let t = g.translate("数据库端口是多少");
        assert!(t.terms.contains(&"database".to_string()), "{t:?}");
        assert!(t.terms.contains(&"port".to_string()), "{t:?}");
        // Question words are not left over as untranslated topic words.
        assert_eq!(t.text, "database port");
        let t = g.translate("nginx 超时设置");
        assert!(t.terms.contains(&"timeout".to_string()), "{t:?}");
        assert!(t.text.starts_with("nginx timeout"), "{t:?}");
        // Longest match first: 文件系统 is one term, not 文件 + 系统.
        let t = g.translate("文件系统");
        assert_eq!(t.terms[0], "filesystem");
        // Nothing known: no translation.
        assert!(g.translate("天气很好").is_empty());
    }

    #[test]
    fn index_glossary_english_query_to_chinese() {
        let g = glossary();
        let t = g.translate("disk usage of the database");
        assert!(t.terms.iter().any(|x| x.contains("磁盘")), "{t:?}");
        assert!(t.terms.contains(&"数据库".to_string()), "{t:?}");
        // Two-word terms are matched whole.
        let t = g.translate("show the load average");
        assert!(t.terms.contains(&"负载".to_string()), "{t:?}");
        assert!(g.translate("the of and").is_empty());
        // Inflected forms find the glossary's base forms (the words as typed first).
        for (typed, zh) in [
            ("failed backups", "备份"),
            ("alerted", "告警"),
            ("sessions", "会话"),
        ] {
            let t = g.translate(typed);
            assert!(t.terms.contains(&zh.to_string()), "{typed}: {t:?}");
        }
        // A word's English siblings, grouped, at their weight; never the word itself.
        let t = g.translate("ram usage");
        let mem = t.terms.iter().position(|x| x == "memory").expect("memory");
        assert_eq!(t.weight(mem), SIBLING_WEIGHT);
        assert!(t.groups.iter().any(|grp| grp.contains(&mem)), "{t:?}");
        assert!(!t.terms.contains(&"ram".to_string()), "{t:?}");
        assert!(t.text.starts_with("内存"), "{t:?}");
        // Words without a glossary stem stay untranslated.
        assert!(g.translate("weather forecasts").is_empty());
    }
}
