#include <config.h>
#include "model/folds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/subsample.h"

const char *fold_grouping_name(fold_grouping g)
{
    return g == GROUP_BY_NONE ? "none" : "premise";
}

int fold_grouping_parse(const char *s, fold_grouping *g)
{
    if (strcmp(s, "premise") == 0)
        *g = GROUP_BY_PREMISE;
    else if (strcmp(s, "none") == 0)
        *g = GROUP_BY_NONE;
    else
        return -1;
    return 0;
}

/* A row's group: its key, and the key's hash in the fold stream. */
typedef struct group_row {
    uint64_t hash, key;
    size_t j;                  /* position in rows */
} group_row;

static int by_group(const void *pa, const void *pb)
{
    const group_row *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->j < b->j ? -1 : a->j > b->j;
}

/* The fold with the fewest examples, the first of equal ones. */
static size_t smallest(const size_t *size, size_t K)
{
    size_t best = 0;
    for (size_t k = 1; k < K; k++)
        if (size[k] < size[best])
            best = k;
    return best;
}

int cv_assign(const dataset *d, const size_t *rows, size_t n, const cv_plan *p,
              size_t *fold, tells_error *err)
{
    size_t K = p->folds;
    if (K < 2)
        return tells_error_usage(err, "cross-validation needs at least 2 folds, not %zu", K);
    group_row *g = array_new(n, sizeof *g);
    size_t *size = array_new(K, sizeof *size);
    if (!g || !size) {
        free(g);
        free(size);
        return tells_error_nomem(err, NULL, 0);
    }
    /* The stream of the folds: model number 2^64 - 2 of round 0, apart
       from AFLite's draws (models from 0) and its ties (2^64 - 1). */
    uint64_t stream = subsample_stream(p->seed, 0, UINT64_MAX - 1);
    for (size_t j = 0; j < n; j++) {
        const example *e = &d->ex[rows[j]];
        const char *text = p->group == GROUP_BY_PREMISE ? e->premise : e->id;
        uint64_t key = subsample_id_key(text, strlen(text));
        g[j] = (group_row){subsample_hash(key, stream), key, j};
    }
    qsort(g, n, sizeof *g, by_group);
    size_t groups = 0;
    for (size_t s = 0, e; s < n; s = e) {
        for (e = s + 1; e < n && g[e].key == g[s].key; e++)
            ;
        size_t k = smallest(size, K);
        for (size_t q = s; q < e; q++)
            fold[g[q].j] = k;
        size[k] += e - s;
        groups++;
    }
    free(g);
    free(size);
    if (groups < K)
        return tells_error_set(err, d->source, 0, "%zu %s cannot make %zu folds", groups,
                               p->group == GROUP_BY_PREMISE
                                   ? (groups == 1 ? "premise" : "premises")
                                   : (groups == 1 ? "example" : "examples"), K);
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

int split_design(const vocab *sp, const char *train, const char *eval,
                 const char **train_out, const char **eval_out, tells_error *err)
{
    size_t ns = vocab_size(sp);
    const char *names[2] = {train, eval};
    for (int k = 0; k < 2; k++)
        if (names[k] && vocab_find(sp, names[k], strlen(names[k])) < 0)
            return no_such_split(sp, names[k], err);
    if (train && eval && strcmp(train, eval) == 0)
        return tells_error_usage(err, "split '%s' cannot both train and be evaluated", train);
    if (train && ns < 2)
        return tells_error_usage(err, "a training split '%s' needs another split to "
                                 "evaluate", train);
    if (!train && vocab_find(sp, "train", 5) >= 0 && ns >= 2)
        train = "train";
    if (!train) {
        if (eval)
            return tells_error_usage(err, "an evaluated split '%s' needs another split to "
                                     "train on", eval);
        return 0;
    }
    if (eval && strcmp(train, eval) == 0)
        return tells_error_usage(err, "split '%s' cannot both train and be evaluated", train);
    if (!eval && vocab_find(sp, "test", 4) >= 0 && strcmp(train, "test") != 0)
        eval = "test";
    if (!eval && vocab_find(sp, "dev", 3) >= 0 && strcmp(train, "dev") != 0)
        eval = "dev";
    for (size_t i = 0; !eval && i < ns; i++)
        if (strcmp(vocab_str(sp, i), train) != 0)
            eval = vocab_str(sp, i);
    *train_out = vocab_str(sp, (size_t)vocab_find(sp, train, strlen(train)));
    *eval_out = vocab_str(sp, (size_t)vocab_find(sp, eval, strlen(eval)));
    return 1;
}
