//! How well a file's name matches the question: exact, stem, substring, a near miss of
//! the whole name, or shared words.

use super::words::SenseUnits;

fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Score of a file name against the query, in [0, 1]: exact 1.0, stem 0.95, substring 0.9,
/// a near miss of the whole name up to 0.85, shared words up to 0.6 (`tokens`: the
/// query's `simple_tokens`, each word one unit).
pub fn filename_score(filename: &str, query: &str, tokens: &[String]) -> f32 {
    filename_score_units(filename, query, &SenseUnits::from_tokens(tokens))
}

/// `filename_score` with the query's words as units: a Chinese question's are the words
/// of its translation (file names are mostly English: `nginx 超时设置` counted as `nginx`
/// and three CJK bigrams no name shares had a quarter in common with `nginx.conf`, as its
/// translation `nginx timeout settings` it has a third, as the English question has).
pub fn filename_score_units(filename: &str, query: &str, words: &SenseUnits) -> f32 {
    let name = filename.to_lowercase();
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return 0.0;
    }
    if name == q {
        return 1.0;
    }
    let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(&name);
    if stem == q {
        return 0.95;
    }
    if q.chars().count() >= 4 && !q.contains(' ') && name.contains(&q) {
        return 0.9;
    }
    let (nc, qc): (Vec<char>, Vec<char>) = (name.chars().collect(), q.chars().collect());
    let mut best: f32 = 0.0;
    if nc.len() <= 128 && qc.len() <= 128 && !q.contains(' ') {
        let dist = levenshtein(&nc, &qc) as f32;
        let ratio = 1.0 - dist / nc.len().max(qc.len()) as f32;
        if ratio >= 0.75 {
            best = 0.85 * ratio;
        }
    }
    best.max(0.6 * words.name_share(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::simple_tokens;

    #[test]
    fn index_rank_filename_scores() {
        let t = simple_tokens("config.yaml");
        assert_eq!(filename_score("config.yaml", "config.yaml", &t), 1.0);
        assert_eq!(
            filename_score("CONFIG.yaml", "config", &simple_tokens("config")),
            0.95
        );
        assert!(filename_score("conifg.yaml", "config.yaml", &t) > 0.6);
        assert_eq!(filename_score("readme.md", "config.yaml", &t), 0.0);
        assert!(
            filename_score(
                "nginx.conf",
                "how to tune nginx",
                &simple_tokens("how to tune nginx")
            ) > 0.0
        );
        // In fusion: a name sharing words with the question (at most 0.6) is worth less
        // than one retriever's best file (placed score 1); an exact name as much as both
        // retrievers' best, a stem nearly so.
        let q = "read timeout";
        let shared = filename_score("timeout.1", q, &simple_tokens(q));
        assert!(shared > 0.0 && shared <= 0.6, "{shared}");
        let p = crate::rank::RankParams::default();
        assert!(p.name_part(0.6) < 1.0);
        assert_eq!(
            p.name_part(filename_score("config.yaml", "config.yaml", &t)),
            2.0
        );
        assert!(p.name_part(0.95) > 1.8);
    }

    #[test]
    fn index_rank_chinese_question_shares_name_words_through_its_translation() {
        let q = "nginx 访问日志";
        let tr = crate::analyzers::translate::translate(q);
        let units = SenseUnits::new(&tr, &simple_tokens(&tr.text));
        let name = "nginx-access.log";
        // As typed, three of its four tokens are CJK bigrams no file name holds: a quarter
        // shared, under the 0.3 floor of `filename_matches`.
        assert!(filename_score(name, q, &simple_tokens(q)) < 0.3);
        // Through the translation (nginx, access log) the name holds every word.
        let s = filename_score_units(name, q, &units);
        assert!((s - 0.6).abs() < 1e-6, "{s} {tr:?}");
        assert_eq!(filename_score_units("redis.conf", q, &units), 0.0);
    }
}
