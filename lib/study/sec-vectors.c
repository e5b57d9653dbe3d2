/* Word vectors (skipgram, trained on the corpus unless given) and every
   hypothesis as the average of its words' vectors (hypothesis.npy). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/idfile.h"
#include "model/embed.h"
#include "study/sec-vectors.h"

enum { VECTOR_DIM = 100 };

/* The embeddings given (--embeddings): one finite row per example of
   the corpus, in its order, or reordered from the id file's. */
static int given_embeddings(study *s, vectors_state *v, tells_error *err)
{
    const study_config *c = s->cfg;
    const dataset *d = &s->data;
    npy_matrix x = {0};
    if (npy_read(c->embeddings, &x, err) < 0)
        return -1;
    id_set ids = {0};
    int rc = 0;
    size_t r, k;
    if (x.rows != d->n)
        rc = tells_error_set(err, c->embeddings, 0, "%zu rows for the corpus's %zu examples "
                             "(one row per example)", x.rows, d->n);
    else if (npy_find_nonfinite(x.data, x.rows, x.cols, &r, &k))
        rc = tells_error_set(err, c->embeddings, 0, "row %zu, column %zu is not a finite "
                             "number", r + 1, k + 1);
    if (rc == 0 && c->embeddings_ids && id_set_load(&ids, c->embeddings_ids, err) < 0)
        rc = -1;
    if (rc == 0 && c->embeddings_ids && id_set_size(&ids) != x.rows)
        rc = tells_error_set(err, c->embeddings_ids, 0, "%zu distinct ids for the %zu rows "
                             "of %s", id_set_size(&ids), x.rows, c->embeddings);
    if (rc == 0 && c->embeddings_ids) {
        /* Row i of the corpus is the row of its id in the id file. */
        float *y = array_new(x.rows * x.cols, sizeof *y);
        if (!y)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; rc == 0 && i < d->n; i++) {
            long j = vocab_find(ids.ids, d->ex[i].id, strlen(d->ex[i].id));
            if (j < 0)
                rc = tells_error_set(err, c->embeddings_ids, 0, "no row for id '%s' (line "
                                     "%ld of %s)", d->ex[i].id, d->ex[i].line, d->source);
            else
                memcpy(y + i * x.cols, x.data + (size_t)j * x.cols, x.cols * sizeof *y);
        }
        if (rc == 0) {
            free(x.data);
            x.data = y;
        } else
            free(y);
    }
    id_set_free(&ids);
    if (rc < 0) {
        npy_free(&x);
        return -1;
    }
    v->x = x;
    return study_write(s, "hypothesis.npy", npy_write_matrix, &v->x, err);
}

static int run(study *s, void *state, tells_error *err)
{
    vectors_state *v = state;
    if (s->cfg->embeddings)
        return given_embeddings(s, v, err);
    char *vectors = NULL;
    bool trained = false;
    int rc = 0;
    if (s->cfg->vectors) {
        vectors = strdup(s->cfg->vectors);
        if (!vectors)
            rc = tells_error_nomem(err, NULL, 0);
    } else if (!(vectors = study_path(s, "vectors.bin", err))) {
        rc = -1;
    } else {
        /* One thread: fastText's threads share the matrix without
           locks, so two runs would differ. Buckets sized to the corpus's
           character n-grams (model/ftshim.h), epochs to its tokens. */
        ft_train_args a = {.mode = "skipgram", .dim = VECTOR_DIM,
                           .epoch = embed_auto_epochs(&s->data), .threads = 1,
                           .seed = (int)s->cfg->seed};
        v->epochs = a.epoch;
        rc = embed_train_vectors(&s->data, vectors, &a, err);
        trained = true;
    }
    embed_options eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
    embed_stats st;
    if (rc == 0)
        rc = embed_dataset(&s->data, vectors, &eo, &v->x, &st, err);
    if (rc == 0 && trained && s->cfg->keep_vectors &&
        strcmp(s->cfg->keep_vectors, "vec") == 0) {
        char *vec = study_path(s, "vectors.vec", err);
        rc = vec ? embed_write_vec(vectors, vec, err) : -1;
        free(vec);
    }
    /* The model is 100 bytes a row for every word and bucket: not kept
       unless asked for. */
    if (trained && !(s->cfg->keep_vectors && strcmp(s->cfg->keep_vectors, "bin") == 0))
        rc = study_remove(vectors, rc, err);
    free(vectors);
    if (rc == 0)
        rc = study_write(s, "hypothesis.npy", npy_write_matrix, &v->x, err);
    return rc;
}

static void free_state(void *state)
{
    vectors_state *v = state;
    npy_free(&v->x);
}

const study_section section_vectors = {
    .name = "vectors",
    .writes = "hypothesis.npy (tells-embed), from fastText skipgram vectors (dim 100, "
              "5 to 20 epochs: about 2.5 million tokens seen) trained on the corpus unless "
              "--vectors; kept only with --keep-vectors (vectors.vec or vectors.bin); or "
              "the --embeddings given",
    .needs = RES_CORPUS,
    .provides = RES_VECTORS,
    .beside = true,
    .state_size = sizeof(vectors_state),
    .run = run,
    .free = free_state,
};
