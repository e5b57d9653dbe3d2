/* Every example cross-validated (all.tsv), scored in full and on each of
   AFLite's partitions, as the MedNLI study scored them
   (partitions.tsv); the predictions are kept for PVI. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "study/sec-aflite.h"
#include "study/sec-partitions.h"

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    return comparison_write_table(fp, ctx, false, err);
}

/* Keeps the cross-validated hypothesis-only predictions of every row.
   Rows of all.tsv are the corpus's, labels mapped by name. */
static int keep_predictions(const study *s, partitions_state *ps, const comparison *cmp,
                            tells_error *err)
{
    const comparison_entry *e = study_entry(cmp, study_hypothesis_model(s), "cv");
    const dataset *all = &s->all;
    size_t n = s->data.n, L = s->nclasses;
    if (!e || !e->pred.prob || e->pred.n != n || all->n != n)
        return tells_error_set(err, NULL, 0, "no cross-validated predictions of every row");
    ps->cv_prob = array_new(n * L, sizeof *ps->cv_prob);
    ps->cv_pred = array_new(n, sizeof *ps->cv_pred);
    long *map = array_new(vocab_size(all->labels), sizeof *map);
    int rc = ps->cv_prob && ps->cv_pred && map ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t l = 0; rc == 0 && l < vocab_size(all->labels); l++)
        map[l] = vocab_find(s->data.labels, vocab_str(all->labels, l),
                            strlen(vocab_str(all->labels, l)));
    for (size_t j = 0; rc == 0 && j < n; j++) {
        size_t i = e->pred.row[j];
        ps->cv_pred[i] = (size_t)map[e->pred.pred[j]];
        for (size_t l = 0; l < e->pred.nlabels; l++)
            ps->cv_prob[i * L + (size_t)map[l]] = e->pred.prob[j * e->pred.nlabels + l];
    }
    free(map);
    return rc;
}

static int run(study *s, void *state, tells_error *err)
{
    partitions_state *ps = state;
    if (study_all(s, err) < 0)
        return -1;
    const aflite_state *a = study_aflite(s);
    char *easy = study_path(s, "easy.ids", err), *difficult = study_path(s, "difficult.ids", err);
    /* A partition AFLite left empty (nothing easy, or nothing left) has
       nothing to score. */
    comparison_partition parts[2];
    size_t np = 0;
    if (a->neasy > 0)
        parts[np++] = (comparison_partition){"easy", easy};
    if (a->neasy < s->data.n)
        parts[np++] = (comparison_partition){"difficult", difficult};
    comparison_config cc;
    study_comparison_setup(s, &cc);
    cc.train = "all";
    cc.folds = s->cfg->folds;
    cc.parts = parts;
    cc.nparts = np;
    const char *eval;
    if (s->given)   /* cross-validated: cc.folds, every row */
        study_given_model(s, &cc, &s->given_cv, s->given_entry, &eval);
    comparison cmp = {0};
    int rc = easy && difficult ? comparison_run(&cmp, &s->all, &cc, err) : -1;
    if (rc == 0) {
        rc = study_write(s, "partitions.tsv", write_table, &cmp, err);
        if (rc == 0)
            rc = keep_predictions(s, ps, &cmp, err);
        const comparison_entry *e = study_entry(&cmp, study_hypothesis_model(s), "cv");
        if (rc == 0 && e)
            study_model_check_set(s, &s->all, &e->pred, e->pred.fit.train_accuracy,
                                  study_majority_share(s, "all"), &ps->check);
        comparison_free(&cmp);
    }
    free(easy);
    free(difficult);
    return rc;
}

static void free_state(void *state)
{
    partitions_state *ps = state;
    free(ps->cv_prob);
    free(ps->cv_pred);
}

const study_section section_partitions = {
    .name = "partitions",
    .writes = "partitions.tsv: every example 5-fold cross-validated (the splits as one, "
              "all.tsv, removed once loaded), scored in full and on each AFLite partition "
              "(tells-baseline --partition)",
    .needs = RES_CORPUS | RES_AFLITE,
    .provides = RES_CV,
    .state_size = sizeof(partitions_state),
    .run = run,
    .free = free_state,
};
