/* The body of the vectors and ftbin harnesses: a fixed tiny dataset
   embedded with the fuzzed vectors file (model/embed.h). Included by
   fuzz-vectors.c and fuzz-ftbin.c only. */
#ifndef TELLS_FUZZ_EMBED_RUN_H
#define TELLS_FUZZ_EMBED_RUN_H

#include <math.h>

#include "fuzz.h"
#include "base/dataset.h"
#include "model/embed.h"

static const char fuzz_embed_data[] =
    "id\tsplit\tlabel\tpremise\thypothesis\n"
    "1\ttrain\tentailment\tthe cat sat on the mat\ta cat sat\n"
    "2\ttrain\tneutral\tthe dog of the man\tthe dog ran\n"
    "3\tdev\tcontradiction\t,\tthe</s> of\n";

/* The dataset, loaded once. */
static const dataset *fuzz_embed_dataset(void)
{
    static dataset d;
    static bool loaded;
    if (!loaded) {
        tells_error err;
        const char *path = fuzz_file("embed-data.tsv", fuzz_embed_data,
                                     sizeof fuzz_embed_data - 1);
        if (dataset_load(&d, path, &err) < 0)
            fuzz_fail("embed-data.tsv", err.msg);
        loaded = true;
    }
    return &d;
}

static void fuzz_embed(const char *path, embed_input input, embed_pair pair, bool skip_oov)
{
    const dataset *d = fuzz_embed_dataset();
    embed_options o = {.input = input, .pair = pair, .skip_oov = skip_oov};
    npy_matrix m;
    embed_stats st;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(embed_dataset(d, path, &o, &m, &st, &err), &err, "embed_dataset") < 0)
        return;
    if (m.rows != d->n || m.cols == 0)
        fuzz_fail("embed_dataset", "a matrix of the wrong shape");
    size_t row, col;
    if (npy_find_nonfinite(m.data, m.rows, m.cols, &row, &col))
        fuzz_fail("embed_dataset", "a value that is not finite");
    npy_free(&m);
}

#endif
