/* Predictions of a model trained elsewhere (tells-study
   --hypothesis-predictions and the like, model/extpred.h): a prepared
   TSV, then a predictions file, joined by a "=====" line. The file is
   read against the corpus, its cover checked for every row and for each
   split, and its predictions taken for every row. What is read must hold
   labels of the corpus and distributions. */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "base/dataset.h"
#include "fuzz.h"
#include "model/extpred.h"

static void check_read(const ext_predictions *x, const dataset *d)
{
    size_t L = vocab_size(d->labels), n = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (!x->line[i])
            continue;
        n++;
        if (x->pred[i] >= L)
            fuzz_fail("ext_predictions_read", "a predicted label out of range");
        double sum = 0;
        for (size_t l = 0; l < L; l++) {
            double p = x->prob[i * L + l];
            if (!(p >= 0 && p <= 1))
                fuzz_fail("ext_predictions_read", "a probability out of [0, 1]");
            sum += p;
        }
        if (fabs(sum - 1) > 0.0100001)
            fuzz_fail("ext_predictions_read", "probabilities that do not sum to 1");
    }
    if (n != x->n)
        fuzz_fail("ext_predictions_read", "the count of rows read is wrong");
}

FUZZ_TARGET(extpred)
{
    fuzz_part parts[2];
    char *files[2];
    size_t n = fuzz_split_files(data, size, parts, files, 2);
    if (n < 2)
        return 0;
    tells_error err;
    tells_error_clear(&err);
    dataset d;
    if (fuzz_check(dataset_load(&d, files[0], &err), &err, "dataset_load") < 0)
        return 0;
    ext_predictions x;
    if (fuzz_check(ext_predictions_read(&x, files[1], &d, &err), &err,
                   "ext_predictions_read") == 0) {
        check_read(&x, &d);
        fuzz_check(ext_predictions_cover(&x, &d, NULL, &err), &err, "ext_predictions_cover");
        for (size_t s = 0; s < vocab_size(d.splits); s++)
            fuzz_check(ext_predictions_cover(&x, &d, vocab_str(d.splits, s), &err), &err,
                       "ext_predictions_cover");
        size_t *rows = malloc((d.n ? d.n : 1) * sizeof *rows);
        if (!rows)
            fuzz_fail("malloc", "out of memory");
        for (size_t i = 0; i < d.n; i++)
            rows[i] = i;
        predictions p;
        if (fuzz_check(ext_predictions_rows(&x, &d, &d, rows, d.n, NULL, &p, &err), &err,
                       "ext_predictions_rows") == 0) {
            double sd = predictions_prob_sd(&p);
            if (p.n >= 2 && !(sd >= 0 && sd <= 1))
                fuzz_fail("predictions_prob_sd", "a standard deviation out of [0, 1]");
            predictions_free(&p);
        }
        free(rows);
        ext_predictions_free(&x);
    }
    dataset_free(&d);
    return 0;
}
