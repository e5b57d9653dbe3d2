/* Word vectors (skipgram, trained on the corpus unless given) and every
   hypothesis as the average of its words' vectors (hypothesis.npy). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/embed.h"
#include "study/sec-vectors.h"

enum { VECTOR_DIM = 100 };

static int run(study *s, void *state, tells_error *err)
{
    vectors_state *v = state;
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
              "--vectors; kept only with --keep-vectors (vectors.vec or vectors.bin)",
    .needs = RES_CORPUS,
    .provides = RES_VECTORS,
    .beside = true,
    .state_size = sizeof(vectors_state),
    .run = run,
    .free = free_state,
};
