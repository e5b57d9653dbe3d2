/* Random subsets that each row's own key decides: the m rows of a draw
   are those whose keyed hash is smallest. Any m of the n rows are equally
   likely (as with a shuffle), but a row's fate in a draw depends only on
   its key and the draw, not on which other rows are there or where: remove
   one row and every draw changes by at most that row and one other. AFLite
   needs this so that runs which removed one example differently (warm and
   cold starts, a row that sits on a decision boundary) keep training on
   nearly the same parts instead of drawing everything anew. */
#ifndef TELLS_SUBSAMPLE_H
#define TELLS_SUBSAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* A row's key from its id (the first 8 bytes of the id's SHA-256), so that
   draws follow the example wherever it sits in the input. */
uint64_t subsample_id_key(const char *id, size_t len);

/* The draw of a seed, a round and a model, as one 64-bit stream number. */
uint64_t subsample_stream(uint64_t seed, uint64_t round, uint64_t model);

/* A row's hash in a stream: the draws take the rows of smallest hash.
   Also an order of rows that follows them wherever they sit (AFLite
   breaks its ties with it). */
uint64_t subsample_hash(uint64_t key, uint64_t stream);

typedef struct subsample_work {
    struct subsample_cand *cand;
    size_t cap;
} subsample_work;

/* Sets mark[i * stride] to 1 for the m rows of keys[0 .. n-1] whose hash
   in the stream is smallest (equal hashes, from equal keys, by position)
   and to 0 for the others (all rows when m >= n). work (zeroed at first) is reused
   between calls and freed by subsample_work_free. -1 when out of memory. */
int subsample_pick(const uint64_t *keys, size_t n, size_t m, uint64_t stream,
                   unsigned char *mark, size_t stride, subsample_work *work);
void subsample_work_free(subsample_work *work);

#endif
