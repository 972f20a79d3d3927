//! The dense side of a question in two languages: its vector mixed with its
//! translation's for chunks in the other language, its own vector for chunks in its
//! language (`Engine::search_per_file` scans with both).

use std::sync::Arc;

use super::super::Engine;
use crate::embed::Embedder;
use crate::IndexError;

impl Engine {
    /// A question's vector averaged with its translation's, for the chunks in the other
    /// language (`by_chunk_language`): e5 matches Chinese against English text far worse
    /// than English against English (man pages: recall@3 0.21 for Chinese questions, 0.92
    /// for English ones), and the translation moves the query towards the documents'
    /// language. A question without translation keeps its own vector.
    pub(super) fn mix_translation(
        &self,
        e: &Arc<dyn Embedder>,
        q: Vec<f32>,
        query: &str,
        tr_text: &str,
    ) -> Vec<f32> {
        if tr_text.is_empty() || tr_text == query {
            return q;
        }
        match self.query_vector(e, tr_text) {
            Ok(t) if t.len() == q.len() => {
                crate::embed::normalize(q.iter().zip(&t).map(|(a, b)| a + b).collect())
            }
            Ok(_) => q,
            Err(err) => {
                tracing::warn!("translated query vector skipped: {err}");
                q
            }
        }
    }

    /// The dense hits of a question with a translation mixed into its vector: chunks in
    /// the question's language (`cjk_query`: Chinese) from the scan with its own vector
    /// (the translation only blurs a Chinese question about Chinese text), the others from
    /// the scan with the mixed vector; best first, at most `pool`. Without a mixed scan:
    /// `own`.
    pub(super) fn by_chunk_language(
        &self,
        own: Vec<(u64, f32)>,
        mixed: Option<Vec<(u64, f32)>>,
        cjk_query: bool,
        pool: usize,
    ) -> Result<Vec<(u64, f32)>, IndexError> {
        let Some(mixed) = mixed else {
            return Ok(own);
        };
        let ids: Vec<u64> = own.iter().chain(&mixed).map(|h| h.0).collect();
        let cjk = self.lexical.cjk_chunks(&ids)?;
        Ok(merge_by_language(
            own,
            mixed,
            &|id| cjk.contains(&id) == cjk_query,
            pool,
        ))
    }
}

/// `own` hits of the chunks in the question's language (`same(id)`), `mixed` hits of the
/// others; best first, at most `pool`.
fn merge_by_language(
    own: Vec<(u64, f32)>,
    mixed: Vec<(u64, f32)>,
    same: &dyn Fn(u64) -> bool,
    pool: usize,
) -> Vec<(u64, f32)> {
    let mut out: Vec<(u64, f32)> = own
        .into_iter()
        .filter(|h| same(h.0))
        .chain(mixed.into_iter().filter(|h| !same(h.0)))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.truncate(pool);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn index_search_dense_hits_by_chunk_language() {
        // Chunks 1, 2 are Chinese, 3, 4 English: Chinese chunks keep the question's own
        // cosine, English ones take the translated question's; best first, cut at pool.
        let own = vec![(1, 0.9), (3, 0.8), (2, 0.3)];
        let mixed = vec![(3, 0.6), (4, 0.5), (1, 0.2)];
        let cjk: HashSet<u64> = [1, 2].into_iter().collect();
        let zh_question = |id: u64| cjk.contains(&id);
        assert_eq!(
            merge_by_language(own.clone(), mixed.clone(), &zh_question, 10),
            [(1, 0.9), (3, 0.6), (4, 0.5), (2, 0.3)]
        );
        assert_eq!(
            merge_by_language(own.clone(), mixed.clone(), &zh_question, 2),
            [(1, 0.9), (3, 0.6)]
        );
        // An English question: English chunks keep its own cosine.
        let en_question = |id: u64| !cjk.contains(&id);
        assert_eq!(
            merge_by_language(own, mixed, &en_question, 10),
            [(3, 0.8), (1, 0.2)]
        );
    }
}
