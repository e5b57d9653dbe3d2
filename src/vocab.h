/* String interning: maps byte strings to dense ids 0..n-1.
   Used for tokens, labels, ids and phrase parts alike. */
#ifndef TELLS_VOCAB_H
#define TELLS_VOCAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct vocab vocab;

vocab *vocab_new(void);
void vocab_free(vocab *v);
size_t vocab_size(const vocab *v);
/* Returns the id of s (adding it if new), or -1 when out of memory. */
long vocab_intern(vocab *v, const char *s, size_t len);
/* Returns the id of s, or -1 when absent. */
long vocab_find(const vocab *v, const char *s, size_t len);
/* NUL-terminated string of an id; valid until the vocab is freed. */
const char *vocab_str(const vocab *v, size_t id);
size_t vocab_len(const vocab *v, size_t id);
/* The hash vocab uses, exposed so callers that hash while scanning
   can share it. */
uint64_t vocab_hash(const char *s, size_t len);

/* Ids sorted by their strings in byte order; caller frees. */
size_t *vocab_sorted_ids(const vocab *v);

#endif
