/* Word vectors (skipgram, trained on the corpus unless given) and every
   hypothesis as the average of its words' vectors (hypothesis.npy). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/embed.h"
#include "study/sec-vectors.h"

enum { VECTOR_DIM = 100, VECTOR_EPOCH = 20 };

static int run(study *s, void *state, tells_error *err)
{
    vectors_state *v = state;
    char *vectors = NULL;
    int rc = 0;
    if (s->cfg->vectors) {
        vectors = strdup(s->cfg->vectors);
        if (!vectors)
            rc = tells_error_nomem(err, NULL, 0);
    } else if (!(vectors = study_path(s, "vectors.bin", err))) {
        rc = -1;
    } else {
        ft_train_args a = {.mode = "skipgram", .dim = VECTOR_DIM, .epoch = VECTOR_EPOCH,
                           .threads = 1, .seed = (int)s->cfg->seed};
        rc = embed_train_vectors(&s->data, vectors, &a, err);
    }
    embed_options eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
    embed_stats st;
    if (rc == 0)
        rc = embed_dataset(&s->data, vectors, &eo, &v->x, &st, err);
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
    .writes = "vectors.bin (fastText skipgram, dim 100, 20 epochs) unless --vectors, and "
              "hypothesis.npy (tells-embed)",
    .needs = RES_CORPUS,
    .provides = RES_VECTORS,
    .state_size = sizeof(vectors_state),
    .run = run,
    .free = free_state,
};
