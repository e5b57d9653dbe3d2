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

/* A split asked for by name that the corpus lacks. */
static int no_such_split(const vocab *sp, const char *name, tells_error *err)
{
    char have[512] = "";
    for (size_t i = 0; i < vocab_size(sp); i++)
        snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", i ? ", " : "",
                 vocab_str(sp, i));
    return tells_error_set(err, NULL, 0, "no split named '%s' in the corpus (its splits: %s)",
                           name, have);
}

/* Which split trains and which is scored: train and test (dev, or the
   first other split) when there are such, else cross-validation. */
static int choose_evaluation(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    const vocab *sp = s->data.splits;
    size_t ns = vocab_size(sp);
    const char *names[2] = {c->train, c->eval};
    for (int k = 0; k < 2; k++)
        if (names[k] && vocab_find(sp, names[k], strlen(names[k])) < 0)
            return no_such_split(sp, names[k], err);
    if (c->train && c->eval && strcmp(c->train, c->eval) == 0)
        return tells_error_usage(err, "split '%s' cannot both train and be evaluated",
                                 c->train);
    const char *train = c->train ? c->train : vocab_find(sp, "train", 5) >= 0 ? "train" : NULL;
    if (train && ns >= 2) {
        const char *eval = c->eval;
        if (!eval && vocab_find(sp, "test", 4) >= 0 && strcmp(train, "test") != 0)
            eval = "test";
        if (!eval && vocab_find(sp, "dev", 3) >= 0 && strcmp(train, "dev") != 0)
            eval = "dev";
        for (size_t i = 0; !eval && i < ns; i++)
            if (strcmp(vocab_str(sp, i), train) != 0)
                eval = vocab_str(sp, i);
        snprintf(s->train, sizeof s->train, "%s", train);
        snprintf(s->eval, sizeof s->eval, "%s", eval);
        return 0;
    }
    if (c->eval)
        return tells_error_usage(err, "an evaluated split '%s' needs another split to "
                                 "train on", c->eval);
    s->cv = true;
    s->folds = c->folds;
    /* One split: folds within it; several without train: within all. */
    snprintf(s->train, sizeof s->train, "%s", ns == 1 ? vocab_str(sp, 0) : "all");
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
