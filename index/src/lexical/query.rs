//! Query-side tokens of the lexical index: a query's analyzer tokens per field, and those
//! of its translation (weighted, one group per translated word), which `Lexical` turns
//! into the BM25 query.

use std::collections::HashMap;

use super::{Lexical, MAX_QUERY_TOKENS};
use tantivy::tokenizer::TextAnalyzer;

use crate::analyzers::{self, glossary::Translation};

/// Query tokens per analyzer, kept for coverage computations.
#[derive(Debug, Clone, Default)]
pub struct QueryTokens {
    pub zh: Vec<String>,
    pub bigram: Vec<String>,
    pub en: Vec<String>,
    /// Whole identifiers of the query (and their segments), against indexed identifiers.
    pub ident: Vec<String>,
    /// The query's words, plain and split from identifiers, against the words of indexed
    /// identifiers.
    pub ident_words: Vec<String>,
    /// The query's adjacent words joined (`ident::joined`), then its translation's
    /// (`translated_joins`).
    pub ident_joined: Vec<JoinedForm>,
    /// The glossary's translation of the query (`analyzers/glossary.rs`), analysed like the
    /// query's own words: English terms of a Chinese query (English field and identifier
    /// words), Chinese terms of an English one (jieba and bigram fields). Weighted below
    /// the query's own words.
    pub tr_en: Vec<String>,
    pub tr_ident_words: Vec<String>,
    pub tr_zh: Vec<String>,
    pub tr_bigram: Vec<String>,
    /// Weight in (0, 1] of each translated token (any `tr_` field; 1 when absent): the
    /// glossary's terms 1, dictionary senses by their rank.
    pub tr_weights: HashMap<String, f32>,
    /// The translated tokens of each translated query word, with their weights
    /// (`Translation::groups`): each group is one disjunction-max clause; a `tr_` token
    /// in no group is a plain clause.
    pub tr_groups: Vec<Vec<(TrField, String, f32)>>,
}

/// One joined form of a query's adjacent words, for two fields.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinedForm {
    /// Against the joined forms of indexed identifiers (`read timeout` -> `readtimeout`).
    pub joined: String,
    /// As the English field indexes a word (`stop wait secs` -> `stopwaitsec`): configs
    /// write many keys as one lower-case word (`stopwaitsecs`, `maxmemory`), prose writes
    /// `timestamp`, `hostname`; `None` when the analyzer drops it.
    pub en_word: Option<String>,
    /// 1 for the typed words; a translation's (`translated_joins`) weigh as its terms do.
    pub weight: f32,
}

/// Most senses of each translated word a translated joined form tries.
const JOIN_SENSES: usize = 3;
/// Most joined forms a query's translation adds.
const TR_JOIN_LIMIT: usize = 24;

/// The joined forms of a translation's consecutive words (`Translation::runs`), two or
/// three at a time, each word by one of its first `JOIN_SENSES` one-word senses:
/// `最大内存` -> `maxmemory` (and `maximummemory`, ...), as `max memory` typed joins. Each
/// weighs `translated` (`RankParams::translated`) times its weakest sense's weight,
/// strongest first.
fn translated_joins(tr: &Translation, translated: f32) -> Vec<(String, f32)> {
    let senses = |g: usize| -> Vec<(&str, f32)> {
        tr.groups
            .get(g)
            .map(|terms| {
                terms
                    .iter()
                    .filter_map(|&i| Some((tr.terms.get(i)?.as_str(), tr.weight(i))))
                    .filter(|(t, _)| t.len() >= 2 && t.chars().all(|c| c.is_ascii_alphabetic()))
                    .take(JOIN_SENSES)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out: Vec<(String, f32)> = Vec::new();
    for run in &tr.runs {
        for n in 2..=3 {
            for window in run.windows(n) {
                let mut forms: Vec<(String, f32)> = vec![(String::new(), f32::INFINITY)];
                for &g in window {
                    forms = forms
                        .iter()
                        .flat_map(|(j, w)| {
                            senses(g)
                                .into_iter()
                                .map(move |(t, tw)| (format!("{j}{}", t.to_lowercase()), w.min(tw)))
                        })
                        .collect();
                }
                for (j, w) in forms {
                    match out.iter_mut().find(|x| x.0 == j) {
                        Some(x) => x.1 = x.1.max(w),
                        None => out.push((j, w)),
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.truncate(TR_JOIN_LIMIT);
    out.into_iter().map(|(j, w)| (j, translated * w)).collect()
}

/// The index field a translated token is searched in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrField {
    En,
    IdentWord,
    Zh,
    Bigram,
}

impl QueryTokens {
    pub fn is_empty(&self) -> bool {
        self.zh.is_empty()
            && self.bigram.is_empty()
            && self.en.is_empty()
            && self.ident.is_empty()
            && self.ident_words.is_empty()
            && self.ident_joined.is_empty()
            && self.tr_en.is_empty()
            && self.tr_zh.is_empty()
    }
}

impl Lexical {
    /// Analyzer tokens of a query and of a given translation of it, each translated token
    /// weighted by its term's weight (the strongest when several terms give it).
    pub fn query_tokens_translated(&self, query: &str, tr: &Translation) -> QueryTokens {
        let mut qt = self.query_tokens(query);
        if tr.is_empty() {
            return qt;
        }
        let mut an = self.analyzers.clone();
        // Per field: the translated tokens (not the query's own), each at the strongest
        // weight of the terms that give it.
        let mut weights: HashMap<String, f32> = HashMap::new();
        let mut lists: [Vec<String>; 4] = Default::default();
        for (i, term) in tr.terms.iter().enumerate() {
            let w = tr.weight(i);
            for (k, field) in FIELDS.into_iter().enumerate() {
                let own = match field {
                    TrField::En => &qt.en,
                    TrField::IdentWord => &qt.ident_words,
                    TrField::Zh => &qt.zh,
                    TrField::Bigram => &qt.bigram,
                };
                let out = &mut lists[k];
                for t in field_tokens(&mut an, field, term) {
                    if own.contains(&t)
                        || (field == TrField::Zh && !t.chars().any(llmops_common::is_cjk))
                    {
                        continue;
                    }
                    let e = weights.entry(t.clone()).or_insert(0.0);
                    *e = e.max(w);
                    if !out.contains(&t) && out.len() < MAX_QUERY_TOKENS {
                        out.push(t);
                    }
                }
            }
        }
        let groups = translated_groups(tr, &lists, &mut an);
        let [tr_en, tr_iw, tr_zh, tr_bi] = lists;
        for (joined, weight) in translated_joins(tr, self.p.translated) {
            if qt.ident_joined.iter().all(|f| f.joined != joined) {
                qt.ident_joined.push(JoinedForm {
                    en_word: analyzers::tokens(&mut an.2, &joined, 1).into_iter().next(),
                    joined,
                    weight,
                });
            }
        }
        qt.tr_groups = groups;
        qt.tr_en = tr_en;
        qt.tr_ident_words = tr_iw;
        qt.tr_zh = tr_zh;
        qt.tr_bigram = tr_bi;
        qt.tr_weights = weights;
        qt
    }

    /// Analyzer tokens of a query (as typed, no translation).
    pub fn query_tokens(&self, query: &str) -> QueryTokens {
        let (mut zh, mut bi, mut en) = (
            self.analyzers.0.clone(),
            self.analyzers.1.clone(),
            self.analyzers.2.clone(),
        );
        let id = analyzers::ident::query_idents(query, MAX_QUERY_TOKENS);
        let mut en_tokens = analyzers::tokens(&mut en, query, MAX_QUERY_TOKENS);
        // `proxy_read_timeout` / `readTimeout` also find the prose `proxy read timeout`.
        for t in analyzers::tokens(&mut en, &id.split_text, MAX_QUERY_TOKENS) {
            if !en_tokens.contains(&t) && en_tokens.len() < MAX_QUERY_TOKENS {
                en_tokens.push(t);
            }
        }
        let ident_joined = id
            .joined
            .into_iter()
            .map(|joined| JoinedForm {
                en_word: analyzers::tokens(&mut en, &joined, 1).into_iter().next(),
                joined,
                weight: 1.0,
            })
            .collect();
        QueryTokens {
            // Particles and question words (了, 的, 什么) match every Chinese text.
            zh: analyzers::tokens(&mut zh, query, MAX_QUERY_TOKENS)
                .into_iter()
                .filter(|t| !analyzers::glossary::is_zh_filler(t))
                .collect(),
            bigram: analyzers::tokens(&mut bi, query, MAX_QUERY_TOKENS),
            en: en_tokens,
            ident: id.wholes,
            ident_words: id.words,
            ident_joined,
            ..QueryTokens::default()
        }
    }
}

/// The fields a translated term is searched in, in the order of `QueryTokens`' `tr_` lists.
const FIELDS: [TrField; 4] = [
    TrField::En,
    TrField::IdentWord,
    TrField::Zh,
    TrField::Bigram,
];

/// The query analyzers (jieba, bigrams, English) a query is tokenized with.
type Analyzers = (TextAnalyzer, TextAnalyzer, TextAnalyzer);

/// A term's tokens in one translated field (Chinese ones from any term: the caller keeps
/// the CJK ones).
fn field_tokens(an: &mut Analyzers, field: TrField, term: &str) -> Vec<String> {
    match field {
        TrField::En => analyzers::tokens(&mut an.2, term, MAX_QUERY_TOKENS),
        TrField::IdentWord => term
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 2 && w.is_ascii())
            .map(str::to_lowercase)
            .collect(),
        TrField::Zh => analyzers::tokens(&mut an.0, term, MAX_QUERY_TOKENS),
        TrField::Bigram => analyzers::tokens(&mut an.1, term, MAX_QUERY_TOKENS),
    }
}

/// Per translated word (`Translation::groups`), its terms' tokens in each field that the
/// flat `lists` (per `FIELDS`) kept, once, at the strongest term's weight.
fn translated_groups(
    tr: &Translation,
    lists: &[Vec<String>; 4],
    an: &mut Analyzers,
) -> Vec<Vec<(TrField, String, f32)>> {
    let mut groups: Vec<Vec<(TrField, String, f32)>> = Vec::new();
    for g in &tr.groups {
        let mut group: Vec<(TrField, String, f32)> = Vec::new();
        for &i in g {
            let Some(term) = tr.terms.get(i) else {
                continue;
            };
            let w = tr.weight(i);
            for (k, field) in FIELDS.into_iter().enumerate() {
                // Only tokens the flat lists kept (not the query's own words).
                for t in field_tokens(an, field, term)
                    .into_iter()
                    .filter(|t| lists[k].contains(t))
                {
                    // An identifier's word in either number (`buffer`, `shared_buffers`).
                    let variants = match field {
                        TrField::IdentWord => analyzers::ident::number_variants(&t),
                        _ => Vec::new(),
                    };
                    for t in std::iter::once(t).chain(variants) {
                        match group.iter_mut().find(|x| x.0 == field && x.1 == t) {
                            Some(x) => x.2 = x.2.max(w),
                            None => group.push((field, t, w)),
                        }
                    }
                }
            }
        }
        if !group.is_empty() {
            groups.push(group);
        }
    }
    groups
}

/// BM25's inverse document frequency of a term in `df` of `docs` documents.
pub(super) fn bm25_idf(df: u64, docs: u64) -> f32 {
    let (df, n) = (df as f32, docs as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// The boost of a weaker sense (`boost`, IDF `idf`) of a translated word whose strongest
/// sense in the same field has `top_boost` and `top_idf`: BM25 scores a rare word high, so
/// a rarely used weak sense (`保留` -> `reservations`) would outscore the word's common
/// first sense (`keep`) wherever it occurs. A weaker sense scales by `top_idf / idf` when
/// it is rarer: it scores at most its weight's share of what the first sense would.
pub(super) fn sense_boost(boost: f32, idf: f32, top_boost: f32, top_idf: f32) -> f32 {
    if boost >= top_boost || idf <= top_idf || idf <= 0.0 {
        boost
    } else {
        boost * top_idf / idf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(key: &str, ord: u32, text: &str) -> crate::lexical::ChunkDoc {
        crate::lexical::ChunkDoc {
            chunk_id: crate::chunk_id(key, ord),
            doc_key: key.into(),
            tag: "sys".into(),
            ord,
            first_line: 1,
            last_line: 1,
            text: text.into(),
            context: String::new(),
        }
    }

    #[test]
    fn index_lexical_weak_rare_senses_do_not_outscore_the_first() {
        // Planted numbers: a weaker, rarer sense scales by the IDF ratio; a stronger or a
        // commoner one keeps its boost.
        assert!((sense_boost(0.4, 4.0, 0.8, 1.0) - 0.1).abs() < 1e-6);
        assert_eq!(sense_boost(0.4, 0.5, 0.8, 1.0), 0.4);
        assert_eq!(sense_boost(0.8, 4.0, 0.8, 1.0), 0.8);
        assert!(bm25_idf(1, 100) > bm25_idf(50, 100));
        // One word, two senses: `keep` (first, in many chunks) and `reservations` (weak,
        // in one). The chunk with the first sense ranks above the one with the rare sense.
        let l = Lexical::in_memory().expect("open");
        let mut docs = vec![
            doc("a", 0, "keep the original file"),
            doc("b", 0, "reservations of the original file"),
        ];
        for i in 0..8 {
            docs.push(doc(&format!("k{i}"), 0, &format!("keep note {i}")));
        }
        for d in docs {
            let key = d.doc_key.clone();
            l.replace(&key, vec![d]).expect("add");
        }
        let tr = Translation {
            terms: vec!["keep".into(), "reservations".into(), "original".into()],
            text: "keep original".into(),
            weights: vec![0.8, 0.4, 0.8],
            groups: vec![vec![0, 1], vec![2]],
            runs: vec![],
        };
        let qt = l.query_tokens_translated("保留原始", &tr);
        let all = ["sys".to_string()];
        let hits = super::super::tests::search(&l, &qt, &all, 10).expect("search");
        let rank = |k: &str| hits.iter().position(|h| h.chunk.doc_key == k);
        assert!(rank("a").is_some() && rank("b").is_some(), "{hits:?}");
        assert!(rank("a") < rank("b"), "{hits:?}");
    }
}
