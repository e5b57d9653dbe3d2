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
/* Room for n strings in all: adding them up to n then never grows the
   table (the caller knows about how many will come). -1 when out of
   memory; the vocab is unchanged but for room. */
int vocab_reserve(vocab *v, size_t n);
/* Returns the id of s, or -1 when absent. */
long vocab_find(const vocab *v, const char *s, size_t len);
/* NUL-terminated string of an id; valid until the vocab is freed. */
const char *vocab_str(const vocab *v, size_t id);
size_t vocab_len(const vocab *v, size_t id);
/* The hash vocab uses (FNV-1a and a final mix), in steps, so that a
   caller can hash while it scans for the end of a token. */
#define VOCAB_HASH_INIT 1469598103934665603ULL
static inline uint64_t vocab_hash_step(uint64_t h, unsigned char c)
{
    return (h ^ c) * 1099511628211ULL;
}
static inline uint64_t vocab_hash_final(uint64_t h)
{
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h;
}
uint64_t vocab_hash(const char *s, size_t len);
/* vocab_intern with the hash already computed by vocab_hash. */
long vocab_intern_hashed(vocab *v, const char *s, size_t len, uint64_t h);

/* Ids sorted by their strings in byte order; caller frees. */
size_t *vocab_sorted_ids(const vocab *v);

#endif
