/* With splits named train and test: one hypothesis-only model, scored on
   test in full and on each of AFLite's partitions, as tells-run --eval
   scores it (heldout.tsv). The model is saved only for that and removed. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/capability.h"
#include "model/classifier.h"
#include "study/sec-aflite.h"

enum { PREDICT_BATCH = 512 };

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    return comparison_write_table(fp, ctx, false, err);
}

/* The model: trained on train, scored on test (hypothesis-baseline.tsv),
   saved as model. */
static int train_model(study *s, const char *model, tells_error *err)
{
    comparison_config cc;
    study_comparison_setup(s, &cc);
    cc.train = "train";
    const char *test = "test";
    cc.eval = &test;
    cc.neval = 1;
    cc.folds = 0;
    cc.keep_model = true;
    comparison cmp = {0};
    if (comparison_run(&cmp, &s->data, &cc, err) < 0)
        return -1;
    int rc = study_write(s, "hypothesis-baseline.tsv", write_table, &cmp, err);
    if (rc == 0)
        rc = fasttext_save(cmp.model, model, err);
    comparison_free(&cmp);
    return rc;
}

/* The partitions with rows of the test split, from their id files. */
static int load_parts(const study *s, partition parts[2], size_t *np, tells_error *err)
{
    const aflite_state *a = study_aflite(s);
    const char *names[2] = {"easy", "difficult"};
    *np = 0;
    for (int p = 0; p < 2; p++) {
        size_t rows = 0;
        for (size_t i = 0; i < s->data.n; i++)
            rows += a->easy[i] == (p == 0) &&
                    strcmp(vocab_str(s->data.splits, s->data.ex[i].split), "test") == 0;
        if (rows == 0)
            continue;
        char *path = study_path(s, p ? "difficult.ids" : "easy.ids", err);
        int rc = path ? partition_load(&parts[*np], names[p], strlen(names[p]), path, err) : -1;
        free(path);
        if (rc < 0)
            return -1;
        (*np)++;
    }
    return 0;
}

static int write_heldout(const study *s, heldout *h, partition *parts, size_t np,
                         tells_error *err)
{
    char *path = study_path(s, "heldout.tsv", err);
    out_file o;
    int rc = path ? out_open(&o, path, err) : -1;
    if (rc == 0) {
        rc = report_partitions(o.fp, h, parts, np, err);
        if (rc == 0)
            rc = out_commit(&o, err);
        else
            out_abort(&o);
    }
    free(path);
    return rc;
}

static int run(study *s, void *state, tells_error *err)
{
    (void)state;
    if (vocab_find(s->data.splits, "train", 5) < 0 || vocab_find(s->data.splits, "test", 4) < 0)
        return 0;
    char *model = study_path(s, "hypothesis.bin", err);
    int rc = model ? train_model(s, model, err) : -1;
    classifier *c = NULL;
    heldout h = {0};
    partition parts[2] = {{0}};
    size_t np = 0;
    if (rc == 0)
        rc = load_parts(s, parts, &np, err);
    if (rc == 0)
        rc = classifier_open_fasttext(&c, model, err);
    if (rc == 0)
        rc = heldout_select(&h, &s->data, "test", err);
    if (rc == 0)
        rc = heldout_predict(&h, false, c, PREDICT_BATCH, err);
    if (c) {
        if (rc == 0)
            rc = classifier_finish(c, err);
        else
            classifier_abort(c);
    }
    if (rc == 0)
        rc = write_heldout(s, &h, parts, np, err);
    heldout_free(&h);
    for (int p = 0; p < 2; p++)
        partition_free(&parts[p]);
    rc = study_remove(model, rc, err);
    free(model);
    return rc;
}

const study_section section_heldout = {
    .name = "heldout",
    .writes = "with splits named train and test: hypothesis-baseline.tsv and heldout.tsv, "
              "one hypothesis-only model scored on test in full and on each partition "
              "(tells-run --eval)",
    .needs = RES_CORPUS | RES_AFLITE,
    .provides = RES_HELDOUT,
    .run = run,
};
