//! Which chunk stands for a file in the head of the results: among the file's pooled
//! chunks, the one that holds most of the question (coverage, and proximity for English
//! questions), then the one with the best own evidence, instead of the chunk BM25 ranks
//! first.

use std::collections::HashMap;

use crate::analyzers::title;
use crate::lexical::ChunkDoc;
use crate::rank;
use crate::IndexError;

/// Reads stored chunks by id (`Lexical::chunks_by_id`).
pub(super) type ReadChunks<'a> = &'a dyn Fn(&[u64]) -> Result<Vec<ChunkDoc>, crate::IndexError>;

/// Chunks read so far and the coverage and proximity of those scored: each chunk is read
/// and scanned once per search.
#[derive(Default)]
pub(super) struct Reads {
    pub texts: HashMap<u64, ChunkDoc>,
    pub scores: Scores,
}

impl Reads {
    /// Reads the chunks of `ids` not read yet.
    pub fn fetch(
        &mut self,
        ids: impl Iterator<Item = u64>,
        read: ReadChunks,
    ) -> Result<(), IndexError> {
        let mut want: Vec<u64> = ids.filter(|id| !self.texts.contains_key(id)).collect();
        want.sort_unstable();
        want.dedup();
        if want.is_empty() {
            return Ok(());
        }
        for c in read(&want)? {
            self.texts.insert(c.chunk_id, c);
        }
        Ok(())
    }
}

/// The question's words as the head weighs them: coverage (`covered`), its weight `cw`
/// and proximity's `pw` (0 when proximity is off for the question) over windows of
/// `lines` lines; `choices`: a file's pooled chunks read for its choice, by their own
/// fused evidence (BM25 ranks first the chunk that repeats the question's rarest word,
/// nginx.conf's status-page block saying `nginx` four times, while the chunk that holds
/// every word may rank several places lower in the same file).
pub(super) struct Weigh<'a> {
    pub covered: &'a dyn Fn(&rank::ChunkWords) -> f32,
    pub cw: f32,
    pub pw: f32,
    pub lines: usize,
    pub choices: usize,
    /// The question's typed words (`rank::simple_tokens`): a chunk with a key named by one
    /// of them whole wins a tie of coverage (`answer::names_key`).
    pub typed: &'a [String],
}

/// Coverage and proximity of the chunks scored so far, by chunk id: the choice scores a
/// file's chunks and the head scores the chosen one again, each text lower-cased and
/// scanned once.
pub(super) type Scores = HashMap<u64, (f32, f32)>;

impl Weigh<'_> {
    /// A chunk's coverage and proximity (the file's lower-cased name is its context),
    /// from `scores` when it was scored before.
    pub(super) fn cov_prox(&self, scores: &mut Scores, ch: &ChunkDoc, name: &str) -> (f32, f32) {
        *scores.entry(ch.chunk_id).or_insert_with(|| {
            let low = ch.text.to_lowercase();
            // Its key paths count as its words; proximity reads the lines only.
            let ctx = ch.context.to_lowercase();
            let cov = (self.covered)(&rank::ChunkWords::new(&low, name).with_context(&ctx));
            let prox = if self.pw > 0.0 && cov > 0.0 {
                rank::window_coverage(self.lines, &low, name, title::of(&ctx), self.covered, cov)
            } else {
                0.0
            };
            (cov, prox)
        })
    }
}

/// The chunk each file should show, for the files whose choice differs from their current
/// chunk: for every file in `files` (doc key, its current chunk, its lower-cased name),
/// among its first `choices` pooled chunks (`pooled`: the file's chunks with their own
/// fused evidence, best first) and its current one, the best `cw` x coverage + `pw` x
/// proximity, then the one with the line that holds most of the question with its key's
/// path (`answer::key_line_coverage`: the main container's `memory` under
/// `containers.playback-api`, not the sidecar's in a chunk that names `playback-api`
/// elsewhere), then one that sets a key the question names whole (redis.conf's `timeout
/// 275`, not the chunk of `repl-timeout 90`, which covers `timeout` as well), then the
/// best evidence; full ties keep the current chunk. Coverage comes first rather than added
/// to the evidence: a chunk that holds the whole question shows the file even where
/// another chunk of it has stronger BM25 evidence. `reads` holds the chunks read so far
/// (and gets the ones this reads through `read`) and each scored chunk's coverage and
/// proximity.
pub(super) fn choose(
    files: &[(&str, u64, String)],
    pooled: &HashMap<&str, Vec<(u64, f32)>>,
    read: ReadChunks,
    weigh: &Weigh,
    reads: &mut Reads,
) -> Result<HashMap<String, u64>, crate::IndexError> {
    let choices = |key: &str| -> Vec<(u64, f32)> {
        pooled
            .get(key)
            .map(|c| c.iter().take(weigh.choices).copied().collect())
            .unwrap_or_default()
    };
    reads.fetch(
        files
            .iter()
            .flat_map(|(k, current, _)| choices(k).into_iter().map(|c| c.0).chain([*current])),
        read,
    )?;
    let Reads { texts, scores } = reads;
    let mut out = HashMap::new();
    for (key, current, name) in files {
        // (the question's words in the chunk, its own evidence); a tie of the first goes
        // to the best key line, then to a key the question names, read only then.
        let mut score = |id: u64, own: f32| {
            texts.get(&id).map(|ch| {
                let (cov, prox) = weigh.cov_prox(scores, ch, name);
                (weigh.cw * cov + weigh.pw * prox, own)
            })
        };
        let mut ties: HashMap<u64, (f32, bool)> = HashMap::new();
        let mut tie = |id: u64| {
            *ties.entry(id).or_insert_with(|| {
                texts.get(&id).map_or((0.0, false), |ch| {
                    (
                        super::answer::key_line_coverage(ch, name, weigh.covered),
                        super::answer::names_key(&ch.text, weigh.typed),
                    )
                })
            })
        };
        let own_current = pooled
            .get(key)
            .and_then(|c| c.iter().find(|c| c.0 == *current))
            .map_or(0.0, |c| c.1);
        let mut best = (
            *current,
            score(*current, own_current).unwrap_or((f32::MIN, f32::MIN)),
        );
        for (id, own) in choices(key).iter().filter(|c| c.0 != *current) {
            if let Some(s) = score(*id, *own) {
                let b = best.1;
                if s.0 > b.0 || (s.0 == b.0 && (tie(*id), s.1) > (tie(best.0), b.1)) {
                    best = (*id, s);
                }
            }
        }
        if best.0 != *current {
            out.insert(key.to_string(), best.0);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(id: u64, text: &str) -> ChunkDoc {
        ChunkDoc {
            chunk_id: id,
            doc_key: "k".into(),
            tag: "sys".into(),
            ord: id as u32,
            first_line: 1,
            last_line: 1,
            text: text.into(),
            context: String::new(),
        }
    }

    /// Runs `f` with question `q` weighed as the head weighs it (coverage by its typed
    /// words at 0.5, no proximity).
    fn with_weigh<R>(q: &str, f: impl FnOnce(&Weigh) -> R) -> R {
        let words = rank::simple_tokens(q);
        let typed = rank::TypedWords::new(&words);
        let covered = |w: &rank::ChunkWords| typed.coverage_in(w);
        f(&Weigh {
            covered: &covered,
            cw: 0.5,
            pw: 0.0,
            lines: 3,
            choices: 6,
            typed: &words,
        })
    }

    #[test]
    fn index_represent_prefers_coverage_then_a_key_line_then_a_named_key_then_evidence() {
        // Chunk 6's context: what `memory: 2Gi` under `containers:` is indexed with.
        let mut nested = chunk(6, "limits:\n  memory: 2Gi");
        nested.context = "containers.limits.memory\ncontainers_limits".into();
        let store = [
            chunk(1, "status page of the exporter: /status /status /status"),
            chunk(2, "client_body_timeout 30s; send_timeout 30s;"),
            chunk(3, "send_timeout 60s;"),
            chunk(4, "unrelated"),
            chunk(5, "containers:\n  - name: gw"),
            nested,
            chunk(7, "# replication\nrepl-timeout 90\nrepl-backlog-size 64mb"),
            chunk(8, "tcp-keepalive 300\ntimeout 275"),
            chunk(
                10,
                "containers:\n  - name: api\n    resources:\n      requests:\n        memory: 896Mi\n",
            ),
            chunk(
                11,
                "  - name: shipper\n    env:\n      - name: UPSTREAM\n        value: api\n    resources:\n      requests:\n        memory: 64Mi\n",
            ),
        ];
        // How many chunk ids were read, in all.
        let reads = std::cell::Cell::new(0);
        let read = |ids: &[u64]| -> Result<Vec<ChunkDoc>, crate::IndexError> {
            reads.set(reads.get() + ids.len());
            Ok(store
                .iter()
                .filter(|c| ids.contains(&c.chunk_id))
                .cloned()
                .collect())
        };
        let mut cache = Reads::default();
        // The chunk `choose` picks for file `key` shown by chunk `current`, `None` when it
        // keeps that one.
        let mut choose_for =
            |q: &str, key: &'static str, current: u64, pooled: Vec<(u64, f32)>, name: &str| {
                // Scores are per file: a chunk scored under another name is scored again.
                cache.scores.clear();
                let pooled = HashMap::from([(key, pooled)]);
                let files = [(key, current, name.to_string())];
                with_weigh(q, |w| choose(&files, &pooled, &read, w, &mut cache))
                    .expect("choose")
                    .get(key)
                    .copied()
            };
        // Chunk 1 is BM25's first (own 1.5) and covers `status`; 2 and 3 cover `timeout`,
        // 2 with more evidence. The name `web.conf` holds neither word: equal coverage
        // (a half each), the current chunk stays.
        let k = vec![(1, 1.5), (2, 0.9), (3, 0.8), (4, 0.1)];
        assert_eq!(
            choose_for("status timeout", "k", 1, k.clone(), "web.conf"),
            None
        );
        // A name that holds `status` makes every chunk cover it: the timeouts win, the
        // one with more evidence of the two.
        assert_eq!(
            choose_for("status timeout", "k", 1, k, "status.conf"),
            Some(2)
        );
        // A chunk's key paths count as its words: `memory: 2Gi` under `containers:` holds
        // `container memory`, the chunk with `containers:` itself only half of it.
        let y = vec![(5, 1.2), (6, 0.7)];
        assert_eq!(
            choose_for("container memory", "y", 5, y, "deploy.yaml"),
            Some(6)
        );
        // Both cover `timeout`; the one that sets the key named whole wins over the
        // evidence of the other.
        let r = vec![(7, 1.0), (8, 0.5)];
        assert_eq!(
            choose_for("status timeout", "r", 7, r, "redis.conf"),
            Some(8)
        );
        // Both cover `memory`, `requests` and `api`; the main container's chunk holds all
        // three in one line with its key's path, the sidecar's only two (its `api` is an
        // env value), so it wins against the sidecar's better evidence.
        let d = vec![(11, 1.4), (10, 0.9)];
        assert_eq!(
            choose_for("memory requests api", "d", 11, d, "deploy.yaml"),
            Some(10)
        );
        // A file with no pooled chunks keeps its own (chunk 9, which no store holds).
        assert_eq!(
            choose_for("status timeout", "other", 9, vec![], "x.conf"),
            None
        );
        // Every chunk read once, across the files (chunk 9 asked for once, never found).
        assert_eq!(reads.get(), store.len() + 1);
    }
}
