//! Query translation as search uses it: the ops glossary (`glossary.rs`, hand-written, high
//! precision) on top of the general dictionary (`dict.rs`, CC-CEDICT). A Chinese query is
//! segmented into words over both lexicons (fewest pieces); a word the glossary knows takes
//! the glossary's terms at full weight, any other word the dictionary's senses, weighted
//! (a single character, usually ambiguous, at a lower weight); function words give nothing.
//! English queries go through the glossary only. With a sense scorer (the engine's
//! multilingual embedder), a dictionary word's senses are ordered by how well each renders
//! the word instead of by the dictionary's order (`算法`: `algorithm` before `arithmetic`).

use llmops_common::is_cjk;

use super::dict::{dict, reorder, segment, Known};
use super::glossary::{glossary, is_zh_filler, Translation};

/// Weight of a dictionary word's strongest sense, relative to a glossary term.
pub const DICT_WEIGHT: f32 = 0.8;
/// Weight of a single-character dictionary word's strongest sense (a lone character inside
/// a sentence is often a morpheme of a word the dictionary lacks).
pub const DICT_CHAR_WEIGHT: f32 = 0.4;
/// Senses kept for a single-character dictionary word.
const CHAR_SENSES: usize = 2;
/// Candidate senses of a dictionary word a sense scorer orders (the dictionary's first
/// ones): CC-CEDICT lists the commonest sense first, not always the one a technical text
/// uses (`起` rise, raise, up, set, out, start: `把服务起起来` wants `start`).
const SENSE_POOL: usize = 8;

/// Scores English renderings of a Chinese word: one score per sense, higher is better;
/// `None` when it cannot (no model, the model failed): the dictionary's order stands.
pub trait SenseScorer {
    fn score(&self, word: &str, senses: &[String]) -> Option<Vec<f32>>;
}

/// General Chinese function words (conjunctions, adverbs of degree and time, pronouns,
/// structural particles) that the dictionary would translate into noise; the glossary's
/// filler list covers the question words.
const ZH_STOP: &[&str] = &[
    "并", "并且", "而", "而且", "且", "以及", "或者", "还是", "比", "更", "最", "很", "非常", "都",
    "也", "就", "还", "再", "又", "才", "已经", "正在", "这些", "那些", "它", "它们", "他", "她",
    "他们", "其", "之", "以", "为", "于", "得", "地", "着", "过", "会", "该", "某", "等", "只",
    "然后", "如果", "时候", "其中", "这样", "那样", "这么", "那么", "为了", "因为", "所以", "但是",
    "可是", "不", "没有", "没", "别", "到", "向", "往", "至", "就是", "还有", "一些", "有些", "哪",
    "啊", "吧", "呀", "嘛",
    // Single characters that are mostly grammar: prepositions, resultative and light
    // verbs, classifiers.
    "按", "成", "另", "向", "往", "跟", "同", "已", "正", "所", "做", "弄", "搞", "使", "叫", "个",
    "只", "条", "台", "张", "件", "份", "位", "次", "种", "样", "批", "套", "项", "段", "些",
    "里面",
    // A numeral in a question counts (`一行`, `另一台`, `一次`), and `几` asks how many;
    // degree adverbs (`较低`).
    "一", "几", "较", "先",
    // Time and place postpositions (`退出终端后` after leaving the terminal, `所在的目录`
    // the directory one is in): the dictionary reads `后` as back / behind and joins it to
    // the word before it (`terminalback`).
    "后", "之后", "以后", "之前", "以前", "所在",
    // `日志中的错误`, `文件内的内容`: in / inside; alone `中` is the dictionary's
    // target / hit, `内` within joined to the word before (`filewithin`).
    "中", "内",
];

/// Numerals that form a count with a classifier (`一行` one line, `每行` each line).
const NUMERALS: &[char] = &['一', '两', '几', '每'];
/// Classifiers (and measure words) that follow a numeral.
const CLASSIFIERS: &[char] = &[
    '个', '条', '台', '张', '件', '份', '位', '次', '种', '样', '批', '套', '项', '段', '些', '行',
    '下', '点', '块', '组', '层', '遍', '堆', '列', '页', '步', '句', '回',
];

/// A numeral and a classifier (`一行`, `一批`): a count, not a word, even where the
/// dictionary lists the pair with another sense (`一行` "delegation"); segmentation
/// splits it so the classifier's noun sense (`行` line) is what translates.
pub fn is_count(word: &str) -> bool {
    let mut c = word.chars();
    matches!(
        (c.next(), c.next(), c.next()),
        (Some(n), Some(k), None) if NUMERALS.contains(&n) && CLASSIFIERS.contains(&k)
    )
}

/// Function words (`is_zh_stop`) a run of translated words goes through (`runs`): modals
/// and the quantity asked, which sit between a limit word and its resource
/// ("最多能用多少内存").
const RUN_TRANSPARENT: &[&str] = &["能", "可以", "用", "多少", "几"];

/// A function word of a Chinese query: no terms.
pub fn is_zh_stop(word: &str) -> bool {
    is_zh_filler(word) || ZH_STOP.contains(&word)
}

/// A function word followed by the particle `的` (`中的` in `日志中的错误`), which the
/// dictionary lists as a word of another reading (`中的` zhòngdì, to hit the target):
/// segmentation splits it into the two function words.
fn is_particle_pair(word: &str) -> bool {
    let mut c = word.chars();
    match (c.next(), c.next(), c.next()) {
        (Some(a), Some('的'), None) => is_zh_stop(a.encode_utf8(&mut [0; 4])),
        _ => false,
    }
}

/// The English compound of two adjacent pieces of a word the lexicons lack, a word and
/// a single character after it (`bound`: a suffix morpheme, `文件名` = `文件` file + `名`
/// name -> `filename`, `用户名` -> `username`): their first senses joined, if both are
/// single English words. A compound the documents never use matches nothing.
fn compound(a: &str, b: &str, bound: bool) -> Option<String> {
    let word = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_alphabetic());
    (bound && word(a) && word(b)).then(|| format!("{a}{b}"))
}

/// Which lexicons translate queries (`EngineConfig::translator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Translator {
    /// The ops glossary alone (longest match).
    Glossary,
    /// The glossary on top of the CC-CEDICT dictionary, senses in the dictionary's order.
    Dictionary,
    /// As `Dictionary`, each word's senses ordered by the engine's sense scorer when it
    /// has one (a multilingual embedder), else as `Dictionary`. The default: the
    /// translation steers the dense scan too (`RankParams::translation_mix`), and the first
    /// sense is what the translated question's vector is made of.
    #[default]
    DictionaryScored,
}

impl Translator {
    /// The translation of `query`; `scorer` is used by `DictionaryScored` only.
    pub fn translate(self, query: &str, scorer: Option<&dyn SenseScorer>) -> Translation {
        match self {
            Translator::Glossary => glossary().translate(query),
            Translator::Dictionary => translate(query),
            Translator::DictionaryScored => translate_with(query, scorer),
        }
    }
}

/// The query in the other language, with a weight per term (see the module doc).
pub fn translate(query: &str) -> Translation {
    translate_with(query, None)
}

/// `translate`, each dictionary word's senses ordered by `scorer` when given.
pub fn translate_with(query: &str, scorer: Option<&dyn SenseScorer>) -> Translation {
    if !query.chars().any(is_cjk) {
        return glossary().translate(query);
    }
    let chars: Vec<char> = query.to_lowercase().chars().collect();
    let mut t = Translation::default();
    let mut text: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let s = i;
        let cjk = is_cjk(chars[i]);
        while i < chars.len() && is_cjk(chars[i]) == cjk {
            i += 1;
        }
        if cjk {
            translate_run(&chars[s..i], scorer, &mut t, &mut text);
            continue;
        }
        // ASCII words (`nginx`, `bz2`) stay as they are.
        let part: String = chars[s..i].iter().collect();
        text.extend(
            part.split(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .map(str::to_string),
        );
    }
    if !t.terms.is_empty() {
        t.text = text.join(" ");
    }
    t
}

/// What the segmenter may cut a Chinese run into.
fn known(w: &str) -> Known {
    if is_zh_stop(w) {
        Known::Function
    } else if is_count(w) || is_particle_pair(w) {
        Known::No
    } else if glossary().zh_terms(w).is_some() {
        Known::Term
    } else if dict().contains(w) {
        Known::Word
    } else {
        Known::No
    }
}

/// One run of Chinese characters: its pieces' senses into `t` (groups, runs of adjacent
/// pieces, compounds) and each piece's first sense into `text`.
fn translate_run(
    run: &[char],
    scorer: Option<&dyn SenseScorer>,
    t: &mut Translation,
    text: &mut Vec<String>,
) {
    let g = glossary();
    // The previous piece of this run: its first English word and whether it was a single
    // character (for compounds, below).
    let mut prev: Option<(String, bool)> = None;
    // The groups of this run's consecutive translated pieces so far (`runs`).
    let mut adjacent: Vec<usize> = Vec::new();
    let end_run = |t: &mut Translation, adjacent: &mut Vec<usize>| {
        if adjacent.len() >= 2 {
            t.runs.push(std::mem::take(adjacent));
        }
        adjacent.clear();
    };
    for piece in segment(run, &known) {
        if is_zh_stop(&piece) {
            prev = None;
            // "最多能用多少内存": a modal or a quantity between two words keeps them one
            // run (`maxmemory`); other function words end it.
            if !RUN_TRANSPARENT.contains(&piece.as_str()) {
                end_run(t, &mut adjacent);
            }
            continue;
        }
        let single = piece.chars().count() == 1;
        // One-character glossary terms at full weight only alone: inside a word they are
        // usually part of it (as the glossary itself matches them); there they still pick
        // the operations sense, at a single character's weight.
        let mut senses: Vec<(String, f32)> = match g.zh_terms(&piece) {
            Some(en) if !single || run.len() == 1 => {
                let group = en.iter().map(|e| t.add(e, 1.0)).collect();
                t.groups.push(group);
                adjacent.push(t.groups.len() - 1);
                if let Some(e) = en.first() {
                    text.push(e.clone());
                }
                prev = en.first().map(|e| (e.clone(), single));
                continue;
            }
            Some(en) => en.iter().map(|e| (e.clone(), 1.0)).collect(),
            None => dictionary_senses(&piece, scorer),
        };
        if single {
            senses.truncate(CHAR_SENSES);
        }
        if senses.is_empty() {
            if !single {
                text.push(piece);
            }
            prev = None;
            end_run(t, &mut adjacent);
            continue;
        }
        let base = if single {
            DICT_CHAR_WEIGHT
        } else {
            DICT_WEIGHT
        };
        let group = senses.iter().map(|(e, w)| t.add(e, base * w)).collect();
        t.groups.push(group);
        adjacent.push(t.groups.len() - 1);
        text.push(senses[0].0.clone());
        let first = senses[0].0.clone();
        if let Some(c) = prev
            .take()
            .and_then(|(p, p_single)| compound(&p, &first, !p_single && single))
        {
            let i = t.add(&c, DICT_WEIGHT);
            t.groups.push(vec![i]);
        }
        prev = Some((first, single));
    }
    end_run(t, &mut adjacent);
}

/// A dictionary word's senses, ordered by `scorer` when it has more than one.
fn dictionary_senses(piece: &str, scorer: Option<&dyn SenseScorer>) -> Vec<(String, f32)> {
    let d = dict();
    let Some(sc) = scorer else {
        return d.terms(piece);
    };
    let cands = d.candidates(piece, SENSE_POOL);
    let names: Vec<String> = cands.iter().map(|c| c.0.clone()).collect();
    match sc.score(piece, &names) {
        Some(scores) if cands.len() > 1 => reorder(cands, &scores),
        _ => d.terms(piece),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(t: &Translation, term: &str) -> f32 {
        t.terms
            .iter()
            .position(|x| x == term)
            .map(|i| t.weight(i))
            .unwrap_or(0.0)
    }

    #[test]
    fn index_translate_glossary_first_dictionary_below() {
        // 数据库 and 端口 are glossary terms: full weight, the glossary's words.
        let t = translate("数据库端口是多少");
        assert_eq!(w(&t, "database"), 1.0, "{t:?}");
        assert_eq!(w(&t, "port"), 1.0, "{t:?}");
        assert_eq!(t.text, "database port");
        // 安静 and 古老 are not ops terms: the dictionary's first senses, below 1.
        let t = translate("安静古老文件");
        let quiet = w(&t, "quiet");
        assert!(quiet > 0.5 && quiet <= DICT_WEIGHT, "{t:?}");
        assert!(w(&t, "ancient") > 0.0, "{t:?}");
        // Later senses weigh less than the first.
        assert!(w(&t, "calm") < quiet, "{t:?}");
        // One group per word, its alternatives together.
        assert!(t.groups.iter().all(|g| !g.is_empty()), "{t:?}");
        assert_eq!(t.groups.len(), 3, "{t:?}");
        // Function words give nothing; ASCII words stay in the text.
        let t = translate("比 gzip 更高");
        assert!(t.text.starts_with("gzip"), "{t:?}");
        assert!(
            !t.terms.iter().any(|x| x == "compare" || x == "ratio"),
            "{t:?}"
        );
        // A sentence no lexicon knows: nothing.
        assert!(translate("").is_empty());
        // English queries: the glossary only, as before.
        let t = translate("disk usage");
        assert!(t.terms.iter().any(|x| x.contains("磁盘")), "{t:?}");
    }

    #[test]
    fn index_translate_runs_are_adjacent_translated_words() {
        // Three translated words side by side: one run of their three groups.
        let t = translate("停止等待时间");
        assert_eq!(t.runs, vec![vec![0, 1, 2]], "{t:?}");
        // A function word or an ASCII word between ends a run; one word alone is none.
        let t = translate("文件的末尾");
        assert!(t.runs.is_empty(), "{t:?}");
        let t = translate("停止 nginx 等待");
        assert!(t.runs.is_empty(), "{t:?}");
        // A modal or the quantity asked between a limit and its resource keeps the run:
        // `最多` and `内存` join (`maxmemory`).
        let t = translate("最多能用多少内存");
        assert_eq!(t.runs.len(), 1, "{t:?}");
        assert_eq!(t.runs[0].len(), 2, "{t:?}");
        // Open-file limits and eviction in the glossary's words.
        let t = translate("能打开的文件句柄上限");
        assert!(t.terms.iter().any(|x| x == "nofile"), "{t:?}");
        let t = translate("按什么策略淘汰");
        assert!(t.terms.iter().any(|x| x == "evict"), "{t:?}");
        // An operator's 策略 is a policy (重启策略, 保留策略), not CC-CEDICT's tactics.
        assert!(t.terms.iter().any(|x| x == "policy"), "{t:?}");
        // Operators' words for a supervisor's restart and a monitor's scrape.
        let t = translate("挂了会自动拉起吗");
        assert!(t.terms.iter().any(|x| x == "restart"), "{t:?}");
        let t = translate("多久采集一次指标");
        assert!(t.terms.iter().any(|x| x == "scrape"), "{t:?}");
    }

    #[test]
    fn index_translate_counts_and_degree_words_give_nothing() {
        assert!(is_count("一行") && is_count("每行") && is_count("一批"));
        assert!(!is_count("一致") && !is_count("行") && !is_count("一行人"));
        // `一行` is a count (one line), not the dictionary's `delegation`; `一` and `较`
        // translate to nothing.
        let t = translate("打印一行");
        assert!(w(&t, "line") > 0.0 || w(&t, "row") > 0.0, "{t:?}");
        assert_eq!(w(&t, "party"), 0.0, "{t:?}");
        assert_eq!(w(&t, "delegation"), 0.0, "{t:?}");
        // Postpositions give nothing and join nothing: `终端后` is the terminal, then
        // "after" (an English stop word), not `terminalback`.
        let t = translate("退出终端后");
        assert!(w(&t, "terminal") > 0.0, "{t:?}");
        for noise in ["back", "behind", "terminalback"] {
            assert_eq!(w(&t, noise), 0.0, "{t:?}");
        }
        // `中的` is `中` (in) and the particle, not `中的` to hit the target; `内` (inside)
        // joins nothing.
        let t = translate("进程中的线程数");
        assert!(w(&t, "threads") > 0.0 || w(&t, "thread") > 0.0, "{t:?}");
        for noise in ["target", "hit", "nail"] {
            assert_eq!(w(&t, noise), 0.0, "{t:?}");
        }
        assert!(is_particle_pair("中的") && !is_particle_pair("目的"));
        let t = translate("文件内的内容");
        assert!(w(&t, "content") > 0.0, "{t:?}");
        assert!(t.terms.iter().all(|x| !x.contains("within")), "{t:?}");
        let t = translate("用较低的优先级");
        assert_eq!(w(&t, "compare"), 0.0, "{t:?}");
        assert!(w(&t, "low") > 0.0, "{t:?}");
        // A word the counts do not touch.
        assert!(w(&translate("统一"), "unify") > 0.0);
    }

    #[test]
    fn index_translate_compounds_of_a_word_and_a_bound_character() {
        assert_eq!(compound("file", "name", true).as_deref(), Some("filename"));
        assert_eq!(compound("file", "name", false), None);
        assert_eq!(compound("log out", "name", true), None);
        // 服务名 is in neither lexicon: 服务 + 名, and the compound `servicename`.
        let t = translate("修改服务名");
        assert!(w(&t, "servicename") > 0.5, "{t:?}");
        assert!(w(&t, "service") > 0.5, "{t:?}");
        // Not across a function word or between two whole words.
        assert_eq!(w(&translate("服务的名"), "servicename"), 0.0);
        assert!(!translate("查看内存")
            .terms
            .iter()
            .any(|x| x == "viewmemory"));
        // A one-character glossary term inside a run picks the glossary's sense at a
        // character's weight (组 `group`, not the dictionary's first sense `organize`).
        let t = translate("所属旧组");
        assert!((w(&t, "group") - DICT_CHAR_WEIGHT).abs() < 1e-6, "{t:?}");
        assert_eq!(w(&t, "organize"), 0.0, "{t:?}");
    }

    /// Prefers one English word for every Chinese word.
    struct Prefers(&'static str);

    impl SenseScorer for Prefers {
        fn score(&self, _word: &str, senses: &[String]) -> Option<Vec<f32>> {
            Some(
                senses
                    .iter()
                    .map(|s| if s == self.0 { 1.0 } else { 0.0 })
                    .collect(),
            )
        }
    }

    /// Cannot score (no model).
    struct Fails;

    impl SenseScorer for Fails {
        fn score(&self, _word: &str, _senses: &[String]) -> Option<Vec<f32>> {
            None
        }
    }

    #[test]
    fn index_translate_senses_ordered_by_a_scorer() {
        let plain = translate("算法");
        assert!(
            w(&plain, "arithmetic") > w(&plain, "algorithm"),
            "{plain:?}"
        );
        // The scorer's choice takes the strongest weight and leads the text (the mixed
        // dense query reads it).
        let scored = translate_with("算法", Some(&Prefers("algorithm")));
        assert_eq!(w(&scored, "algorithm"), DICT_WEIGHT, "{scored:?}");
        assert!(w(&scored, "arithmetic") < DICT_WEIGHT, "{scored:?}");
        assert_eq!(scored.text, "algorithm");
        // A scorer that cannot score changes nothing.
        assert_eq!(translate_with("算法", Some(&Fails)), plain);
        // A character the glossary lists takes its operations sense inside a run, at a
        // single character's weight, whatever a scorer prefers (`块` block, not lump).
        let t = translate_with("按块复制磁盘", Some(&Prefers("lump")));
        assert_eq!(w(&t, "block"), DICT_CHAR_WEIGHT, "{t:?}");
        assert_eq!(w(&t, "lump"), 0.0, "{t:?}");
        // Glossary terms are not re-ordered (数据库 is the glossary's `database`).
        let g = translate_with("数据库", Some(&Prefers("repository")));
        assert_eq!(g, translate("数据库"));
        // Through the enum: the dictionary order ignores the scorer.
        let s: &dyn SenseScorer = &Prefers("algorithm");
        assert_eq!(Translator::Dictionary.translate("算法", Some(s)), plain);
        assert_eq!(
            Translator::DictionaryScored.translate("算法", Some(s)),
            scored
        );
    }

    #[test]
    fn index_translate_words_outside_the_glossary() {
        // Everyday words of an operator's question that the glossary never listed.
        let t = translate("天气很好");
        assert!(w(&t, "weather") > 0.5, "{t:?}");
        // 删掉 is not a glossary term (the dictionary gives `delete`); 临时文件 is.
        let t = translate("删掉三天前的临时文件");
        assert!(w(&t, "delete") > 0.5, "{t:?}");
        assert_eq!(w(&t, "temporary file"), 1.0, "{t:?}");
        // Single characters inside a run weigh at most DICT_CHAR_WEIGHT unless the
        // glossary has the word.
        assert!(t.weights.iter().all(|x| *x <= 1.0 && *x > 0.0), "{t:?}");
    }
}
