#include <config.h>
#include "base/u64map.h"

#include <stdlib.h>

static size_t slot_of(uint64_t k, size_t nslots)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k & (nslots - 1);
}

int u64map_init(u64map *m)
{
    m->nslots = 1024;
    m->n = 0;
    m->keys = calloc(m->nslots, sizeof *m->keys);
    m->vals = calloc(m->nslots, sizeof *m->vals);
    if (!m->keys || !m->vals) {
        u64map_free(m);
        return -1;
    }
    return 0;
}

void u64map_free(u64map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = m->vals = NULL;
    m->nslots = m->n = 0;
}

static size_t find(const uint64_t *keys, size_t nslots, uint64_t stored)
{
    size_t i = slot_of(stored, nslots);
    while (keys[i] && keys[i] != stored)
        i = (i + 1) & (nslots - 1);
    return i;
}

bool u64map_get(const u64map *m, uint64_t key, uint64_t *val)
{
    size_t i = find(m->keys, m->nslots, key + 1);
    if (!m->keys[i])
        return false;
    *val = m->vals[i];
    return true;
}

static int grow(u64map *m)
{
    size_t nslots = m->nslots * 2;
    uint64_t *keys = calloc(nslots, sizeof *keys);
    uint64_t *vals = calloc(nslots, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < m->nslots; i++)
        if (m->keys[i]) {
            size_t j = find(keys, nslots, m->keys[i]);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->nslots = nslots;
    return 0;
}

/* Slot holding key, inserting it with value 0 if new; -1 on failure. */
static long slot_for(u64map *m, uint64_t key)
{
    if ((m->n + 1) * 2 > m->nslots && grow(m) < 0)
        return -1;
    size_t i = find(m->keys, m->nslots, key + 1);
    if (!m->keys[i]) {
        m->keys[i] = key + 1;
        m->vals[i] = 0;
        m->n++;
    }
    return (long)i;
}

int u64map_put(u64map *m, uint64_t key, uint64_t val)
{
    long i = slot_for(m, key);
    if (i < 0)
        return -1;
    m->vals[i] = val;
    return 0;
}

int u64map_add(u64map *m, uint64_t key, uint64_t delta)
{
    long i = slot_for(m, key);
    if (i < 0)
        return -1;
    m->vals[i] += delta;
    return 0;
}
