/* Prior files of tells-pmi --measure logodds --prior (stats/logodds.h):
   a counts file of tells-pmi --emit-counts or token<TAB>count lines;
   then the log-odds of a few fixed examples with that prior. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "stats/logodds.h"

static const char *const examples[][2] = {
    {"entailment", "a man is outdoors"},
    {"contradiction", "nobody is sleeping"},
    {"neutral", "a tall man is sleeping outdoors"},
    {"contradiction", "the cat is not sleeping"},
};

FUZZ_TARGET(prior)
{
    const char *path = fuzz_file("prior.tsv", data, size);
    tells_error err;
    tells_error_clear(&err);
    logodds_prior p;
    if (fuzz_check(logodds_prior_load(&p, path, FIELD_HYPOTHESIS, false, &err), &err,
                   "logodds_prior_load") < 0)
        return 0;
    double sum = 0;
    for (size_t i = 0; i < vocab_size(p.tokens); i++) {
        if (!(p.count[i] >= 0) || !isfinite(p.count[i]))
            fuzz_fail("logodds_prior_load", "a count that is negative or not finite");
        sum += p.count[i];
    }
    if (!(p.total > 0) || !isfinite(p.total))
        fuzz_fail("logodds_prior_load", "a total that is not positive and finite");
    (void)sum;

    token_counts tc;
    if (counts_init(&tc, FIELD_HYPOTHESIS) < 0)
        fuzz_fail("counts_init", "out of memory");
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        if (counts_add(&tc, examples[i][0], strlen(examples[i][0]), examples[i][1],
                       strlen(examples[i][1]), NULL, 0) < 0)
            fuzz_fail("counts_add", "out of memory");
    logodds_options o = {.min_count = 1, .prior_scale = 1.0, .prior = &p};
    logodds_table t;
    if (fuzz_check(logodds_compute(&tc, &o, &t, &err), &err, "logodds_compute") == 0) {
        for (size_t i = 0; i < t.n; i++)
            if (!isfinite(t.rows[i].z) || !isfinite(t.rows[i].delta) || !(t.rows[i].var > 0))
                fuzz_fail("logodds_compute", "a score that is not finite");
        fuzz_sink sink;
        if (logodds_write(fuzz_sink_open(&sink), &t, &tc, 0) < 0)
            fuzz_fail("logodds_write", "a write error");
        fuzz_sink_close(&sink);
        logodds_free(&t);
    }
    counts_free(&tc);
    logodds_prior_free(&p);
    return 0;
}
