//! The static tier over e5 (model2vec style): a text's vector is the weighted mean of
//! per-token vectors, each token's vector being e5's own output for `<s> token </s>`,
//! distilled lazily (a token is run through e5 the first time any text uses it, then
//! kept). Weights are SIF, a / (a + p(token)) with p the SentencePiece unigram
//! probability, so frequent pieces count little. (Removing the common direction of the
//! token vectors, as SIF does for word vectors, was measured and lowered recall.) Thousands of chunks per second once the
//! vocabulary of a corpus is warm; recall is lower than e5's (see docs/index.md).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::{Embedder, InputKind, E5};
use crate::IndexError;

/// SIF smoothing: tokens with probability well above this weigh little.
const SIF_A: f32 = 1e-3;

/// A distilled token: its SIF weight and its unit vector.
type TokenVec = (f32, Arc<[f32]>);

pub struct StaticE5 {
    e5: Arc<E5>,
    /// token id -> (SIF weight, unit vector).
    table: RwLock<HashMap<u32, TokenVec>>,
}

impl StaticE5 {
    pub fn new(e5: Arc<E5>) -> StaticE5 {
        StaticE5 {
            e5,
            table: RwLock::new(HashMap::new()),
        }
    }

    /// Distinct tokens distilled so far.
    pub fn tokens_known(&self) -> usize {
        self.table.read().map(|t| t.len()).unwrap_or(0)
    }

    /// Runs the tokens not yet in the table through e5 and stores them.
    fn fill(&self, ids: &[u32]) -> Result<(), IndexError> {
        let missing: Vec<u32> = {
            let t = self.table.read().map_err(|_| IndexError::Poisoned)?;
            let mut m: Vec<u32> = ids.iter().copied().filter(|i| !t.contains_key(i)).collect();
            m.sort_unstable();
            m.dedup();
            m
        };
        if missing.is_empty() {
            return Ok(());
        }
        let vecs = self.e5.token_vectors(&missing)?;
        let mut t = self.table.write().map_err(|_| IndexError::Poisoned)?;
        for (id, mut v) in missing.into_iter().zip(vecs) {
            let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
            v.iter_mut().for_each(|x| *x /= n);
            let p = self.e5.piece_score(id).exp();
            t.insert(id, (SIF_A / (SIF_A + p), v.into()));
        }
        Ok(())
    }
}

impl Embedder for StaticE5 {
    fn fingerprint(&self) -> String {
        format!("e5-static-sif/{}", self.e5.dim())
    }
    fn dim(&self) -> usize {
        self.e5.dim()
    }
    fn embed(&self, texts: &[&str], _kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        let tokens: Vec<Vec<u32>> = texts.iter().map(|t| self.e5.tokenize(t)).collect();
        let all: Vec<u32> = tokens.iter().flatten().copied().collect();
        self.fill(&all)?;
        let t = self.table.read().map_err(|_| IndexError::Poisoned)?;
        let dim = self.dim();
        let mut out = Vec::with_capacity(texts.len());
        for (text, ids) in texts.iter().zip(&tokens) {
            let mut v = vec![0f32; dim];
            for id in ids {
                if let Some((w, tv)) = t.get(id) {
                    v.iter_mut().zip(tv.iter()).for_each(|(a, b)| *a += w * b);
                }
            }
            let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            if n > 1e-9 {
                v.iter_mut().for_each(|x| *x /= n);
                out.push(v);
            } else {
                // No content tokens (an empty text): e5 itself gives a unit vector.
                out.extend(self.e5.embed(&[text], InputKind::Passage)?);
            }
        }
        Ok(out)
    }
    fn batch_size(&self) -> usize {
        64
    }
}

#[cfg(test)]
mod tests {
    use super::super::e5::tests::e5_dir;
    use super::*;

    fn cos(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn index_embed_e5_static_vectors() {
        let Some(dir) = e5_dir() else { return };
        let e5 = Arc::new(E5::load(&dir).expect("load"));
        let s = StaticE5::new(e5.clone());
        let docs = [
            "bzip2 compresses files using the Burrows-Wheeler block sorting algorithm",
            "df displays the amount of disk space available on the file system",
            "",
        ];
        let v = s.embed(&docs, InputKind::Passage).expect("embed");
        assert_eq!(v.len(), 3);
        for x in &v {
            assert_eq!(x.len(), 384);
            let n: f32 = x.iter().map(|a| a * a).sum();
            assert!((n - 1.0).abs() < 1e-3, "unit length: {n}");
        }
        let known = s.tokens_known();
        assert!(known > 10, "{known}");
        // The same text again: no new tokens, the same vector.
        let again = s.embed(&docs[..1], InputKind::Passage).expect("again");
        assert_eq!(s.tokens_known(), known);
        assert!(cos(&again[0], &v[0]) > 0.99999);
        // XLM-R's vocabulary (250,002 pieces); a token's vector is e5's own output.
        assert!(e5.vocab_size() > 200_000);
        let ids = e5.tokenize("disk");
        let tv = e5.token_vectors(&ids[..1]).expect("token vectors");
        assert_eq!(tv[0].len(), 384);
        // Word overlap decides: a disk question is closer to the df text.
        let q = s
            .embed(
                &["available disk space on the file system"],
                InputKind::Query,
            )
            .expect("q");
        assert!(cos(&q[0], &v[1]) > cos(&q[0], &v[0]));
    }
}
