#include <config.h>
#include "stats/subsample.h"

#include <math.h>
#include <nettle/sha2.h>
#include <stdlib.h>

/* SplitMix64's finaliser (Steele, Lea and Flood 2014, Stafford's mix 13):
   a bijection of 64-bit words whose outputs, over keys stepped by the
   golden gamma, pass BigCrush. GSL's generators are sequential streams;
   a draw decided row by row needs a keyed function like this one. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#define GAMMA UINT64_C(0x9e3779b97f4a7c15)

uint64_t subsample_id_key(const char *id, size_t len)
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)id);
    sha256_digest(&ctx, sizeof digest, digest);
    uint64_t k = 0;
    for (int i = 0; i < 8; i++)
        k = k << 8 | digest[i];
    return k;
}

uint64_t subsample_stream(uint64_t seed, uint64_t round, uint64_t model)
{
    uint64_t s = mix64(seed + GAMMA);
    s = mix64(s + round * GAMMA);
    return mix64(s + (model + 1) * GAMMA);
}

uint64_t subsample_hash(uint64_t key, uint64_t stream)
{
    return mix64(stream + key * GAMMA);
}

typedef struct subsample_cand {
    uint64_t hash;
    size_t row;
} subsample_cand;

static int by_hash(const void *pa, const void *pb)
{
    const subsample_cand *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* The hash of c rows out of n at random: c / n of the 64-bit range. */
static uint64_t quantile(double c, size_t n)
{
    if (c <= 0)
        return 0;
    if (c >= (double)n)
        return UINT64_MAX;
    return (uint64_t)(c / (double)n * 18446744073709549568.0);
}

int subsample_pick(const uint64_t *keys, size_t n, size_t m, uint64_t stream,
                   unsigned char *mark, size_t stride, subsample_work *work)
{
    if (m == 0 || m >= n) {
        for (size_t i = 0; i < n; i++)
            mark[i * stride] = m > 0;
        return 0;
    }
    /* The m-th smallest of n uniform hashes lies within a few standard
       deviations of m/n of the range: rows below the window are in, the
       window's are sorted, and a window that missed (about never) is
       widened. The set chosen does not depend on the window. */
    double q = (double)m / (double)n;
    double width = 8.0 * sqrt((double)n * q * (1.0 - q)) + 16.0;
    for (;;) {
        uint64_t lo = quantile((double)m - width, n), hi = quantile((double)m + width, n);
        size_t below = 0, nc = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t h = subsample_hash(keys[i], stream);
            mark[i * stride] = h < lo;
            if (h < lo) {
                below++;
            } else if (h < hi || hi == UINT64_MAX) {
                if (nc == work->cap) {
                    size_t cap = work->cap ? 2 * work->cap : 1024;
                    subsample_cand *c = realloc(work->cand, cap * sizeof *c);
                    if (!c)
                        return -1;
                    work->cand = c;
                    work->cap = cap;
                }
                work->cand[nc++] = (subsample_cand){h, i};
            }
        }
        if (below <= m && m <= below + nc) {
            qsort(work->cand, nc, sizeof *work->cand, by_hash);
            for (size_t c = 0; c < m - below; c++)
                mark[work->cand[c].row * stride] = 1;
            return 0;
        }
        width *= 4;
    }
}

void subsample_work_free(subsample_work *work)
{
    free(work->cand);
    work->cand = NULL;
    work->cap = 0;
}
