/* Open-addressing hash map from 64-bit keys to 64-bit values, for
   pairs of ids (trie edges, bigram counts). */
#ifndef TELLS_U64MAP_H
#define TELLS_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct u64map {
    uint64_t *keys;       /* stored key + 1; 0 marks an empty slot */
    uint64_t *vals;
    size_t nslots, n;
} u64map;

int u64map_init(u64map *m);
void u64map_free(u64map *m);
bool u64map_get(const u64map *m, uint64_t key, uint64_t *val);
/* Sets key to val; -1 when out of memory. Keys must be below UINT64_MAX. */
int u64map_put(u64map *m, uint64_t key, uint64_t val);
/* Adds delta to key's value (0 when new). */
int u64map_add(u64map *m, uint64_t key, uint64_t delta);
/* Iteration: slots 0..nslots-1, skipping those where !u64map_used. */
static inline bool u64map_used(const u64map *m, size_t slot)
{
    return m->keys[slot] != 0;
}
static inline uint64_t u64map_key(const u64map *m, size_t slot)
{
    return m->keys[slot] - 1;
}

static inline uint64_t pair_key(uint32_t a, uint32_t b)
{
    return (uint64_t)a << 32 | b;
}

#endif
