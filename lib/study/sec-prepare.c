/* The corpus, prepared as tells-prep prepares it (or a prepared TSV as
   it is), and which split trains and which is scored. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "study/core.h"

static int load_corpus(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    if (!(s->prepared = study_path(s, "prepared.tsv", err)))
        return -1;
    /* A prepared TSV is read where it is, so that messages name it (and
       copied into the folder); standard input only through the copy. */
    bool direct = c->prepared && strcmp(c->prepared, "-") != 0;
    int rc = c->prepared ? study_copy_lines(c->prepared, s->prepared, false, err)
                         : study_prepare_inputs(s, c->inputs, c->ninputs, s->prepared, err);
    s->input = direct ? c->prepared : s->prepared;
    if (rc < 0 || dataset_load(&s->data, s->input, err) < 0 ||
        dataset_require_examples(&s->data, err) < 0)
        return -1;
    s->nclasses = vocab_size(s->data.labels);
    if (s->nclasses < 2)
        return tells_error_set(err, direct ? c->prepared : NULL, 0,
                               "one class only ('%s'): nothing to study",
                               vocab_str(s->data.labels, 0));
    if (s->nclasses > STUDY_MAX_CLASSES)
        return tells_error_set(err, direct ? c->prepared : NULL, 0,
                               "%zu classes: the study serves at most %d (AFLite's models "
                               "need memory that grows with the square of the classes)",
                               s->nclasses, STUDY_MAX_CLASSES);
    s->class_order = vocab_sorted_ids(s->data.labels);
    s->class_n = array_new(s->nclasses, sizeof *s->class_n);
    if (!s->class_order || !s->class_n)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < s->data.n; i++)
        s->class_n[s->data.ex[i].label]++;
    return 0;
}

/* Which split trains and which is scored (model/folds.h: split_design),
   else cross-validation. */
static int choose_evaluation(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    const vocab *sp = s->data.splits;
    const char *train = NULL, *eval = NULL;
    int d = split_design(sp, c->train, c->eval, &train, &eval, err);
    if (d < 0)
        return -1;
    if (d == 1) {
        snprintf(s->train, sizeof s->train, "%s", train);
        snprintf(s->eval, sizeof s->eval, "%s", eval);
        return 0;
    }
    s->cv = true;
    s->folds = c->folds;
    /* One split: folds within it; several without train: within all. */
    snprintf(s->train, sizeof s->train, "%s", vocab_size(sp) == 1 ? vocab_str(sp, 0) : "all");
    snprintf(s->eval, sizeof s->eval, "cv");
    if (s->data.n < s->folds)
        return tells_error_set(err, NULL, 0, "the corpus's %zu examples cannot make %zu "
                               "folds", s->data.n, s->folds);
    return 0;
}

static int run(study *s, void *state, tells_error *err)
{
    (void)state;
    if (load_corpus(s, err) < 0)
        return -1;
    return choose_evaluation(s, err);
}

const study_section section_prepare = {
    .name = "prepare",
    .writes = "prepared.tsv (tells-prep with the corpus options; a prepared TSV is copied)",
    .provides = RES_CORPUS | RES_EVALUATION,
    .run = run,
};
