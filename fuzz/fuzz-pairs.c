/* The pair features (tells-pairs): a negation cue lexicon, then a
   prepared TSV, joined by a "=====" line; the features, their tests and
   both tables computed and written. Every feature must be finite, shares
   within [0, 1] and flags 0 or 1. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/pairs.h"
#include "fuzz.h"

static void check_features(const dataset *d, const double *x)
{
    for (size_t i = 0; i < d->n; i++)
        for (size_t f = 0; f < PAIR_NFEATURES; f++) {
            double v = x[i * PAIR_NFEATURES + f];
            pair_kind k = pair_feature_at((pair_feature)f)->kind;
            if (!isfinite(v) || (k == PAIR_SHARE && (v < 0 || v > 1)) ||
                (k == PAIR_FLAG && v != 0 && v != 1))
                fuzz_fail("pair_shape", "a feature out of its range");
        }
}

static int by_name(const void *a, const void *b, void *ctx)
{
    const vocab *v = ctx;
    return strcmp(vocab_str(v, *(const size_t *)a), vocab_str(v, *(const size_t *)b));
}

FUZZ_TARGET(pairs)
{
    fuzz_part parts[2];
    char *files[2];
    size_t n = fuzz_split_files(data, size, parts, files, 2);
    tells_error err;
    tells_error_clear(&err);
    pair_shaper *ps = pair_shaper_load(files[0], &err);
    if (!ps) {
        fuzz_check(-1, &err, "pair_shaper_load");
        return 0;
    }
    dataset d;
    if (n == 2 && fuzz_check(dataset_load(&d, files[1], &err), &err, "dataset_load") == 0) {
        double *x = pairs_compute(&d, ps, &err);
        if (!x)
            fuzz_fail("pairs_compute", "out of memory");
        check_features(&d, x);
        size_t k = vocab_size(d.labels);
        size_t *order = malloc((k ? k : 1) * sizeof *order);
        if (!order)
            fuzz_fail("pairs", "out of memory");
        for (size_t i = 0; i < k; i++)
            order[i] = i;
        qsort_r(order, k, sizeof *order, by_name, d.labels);
        pair_assoc a[PAIR_NFEATURES];
        if (d.n && fuzz_check(pairs_associate(&d, NULL, d.n, x, order, k, 1, a, &err), &err,
                              "pairs_associate") == 0) {
            FILE *fp = fopen("/dev/null", "w");
            if (!fp)
                fuzz_fail("fopen", "/dev/null");
            pairs_write_assoc(fp, a, &d, order, &err);
            pairs_write_features(fp, &d, x, &err);
            fclose(fp);
            for (size_t f = 0; f < PAIR_NFEATURES; f++)
                pairs_assoc_free(&a[f]);
        }
        free(order);
        free(x);
        dataset_free(&d);
    }
    pair_shaper_free(ps);
    return 0;
}
