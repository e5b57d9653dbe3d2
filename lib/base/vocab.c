#include <config.h>
#include "base/vocab.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* Strings live in an arena (base/alloc.h), so that ids stay cheap and
   pointers stay valid while the table grows. */

/* A slot keeps 32 bits of the hash beside the id, so that a probe
   touches one cache line unless the hashes agree. */
typedef struct slot {
    uint32_t id1;         /* id + 1, 0 = empty */
    uint32_t h32;
} slot;

struct vocab {
    slot *slots;
    size_t nslots;        /* power of two */
    const char **strs;
    uint32_t *lens;
    uint64_t *hashes;
    size_t n, cap;
    arena strings;
};

uint64_t vocab_hash(const char *s, size_t len)
{
    uint64_t h = VOCAB_HASH_INIT;
    for (size_t i = 0; i < len; i++)
        h = vocab_hash_step(h, (unsigned char)s[i]);
    return vocab_hash_final(h);
}

vocab *vocab_new(void)
{
    vocab *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->nslots = 1024;
    v->slots = calloc(v->nslots, sizeof *v->slots);
    if (!v->slots) {
        free(v);
        return NULL;
    }
    return v;
}

void vocab_free(vocab *v)
{
    if (!v)
        return;
    arena_free(&v->strings);
    free(v->slots);
    free(v->strs);
    free(v->lens);
    free(v->hashes);
    free(v);
}

size_t vocab_size(const vocab *v) { return v->n; }
const char *vocab_str(const vocab *v, size_t id) { return v->strs[id]; }
size_t vocab_len(const vocab *v, size_t id) { return v->lens[id]; }

/* Tokens are short: a loop beats a call to memcmp. */
static inline bool same_bytes(const char *a, const char *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static long lookup(const vocab *v, const char *s, size_t len, uint64_t h,
                   size_t *slot_out)
{
    size_t mask = v->nslots - 1;
    uint32_t h32 = (uint32_t)(h >> 32);
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        slot e = v->slots[i];
        if (e.id1 == 0) {
            *slot_out = i;
            return -1;
        }
        size_t id = e.id1 - 1;
        if (e.h32 == h32 && v->lens[id] == len && same_bytes(v->strs[id], s, len))
            return (long)id;
    }
}

long vocab_find(const vocab *v, const char *s, size_t len)
{
    size_t slot;
    return lookup(v, s, len, vocab_hash(s, len), &slot);
}

static char *arena_copy(vocab *v, const char *s, size_t len)
{
    char *p = arena_take(&v->strings, len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static int grow_slots(vocab *v)
{
    size_t nslots = v->nslots * 2;
    slot *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t id = 0; id < v->n; id++) {
        size_t i = v->hashes[id] & (nslots - 1);
        while (slots[i].id1)
            i = (i + 1) & (nslots - 1);
        slots[i].id1 = (uint32_t)(id + 1);
        slots[i].h32 = (uint32_t)(v->hashes[id] >> 32);
    }
    free(v->slots);
    v->slots = slots;
    v->nslots = nslots;
    return 0;
}

/* Room for need entries. The three arrays share cap: the first two grow
   on copies of it, so that cap only counts once all three have grown. */
static int grow_entries(vocab *v, size_t need)
{
    size_t lens_cap = v->cap, hashes_cap = v->cap;
    return ARRAY_RESERVE_MIN(v->lens, lens_cap, need, 256) < 0 ||
           ARRAY_RESERVE_MIN(v->hashes, hashes_cap, need, 256) < 0 ||
           ARRAY_RESERVE_MIN(v->strs, v->cap, need, 256) < 0 ? -1 : 0;
}

int vocab_reserve(vocab *v, size_t n)
{
    if (n > UINT32_MAX - 1)
        return -1;
    while (n * 2 > v->nslots)
        if (grow_slots(v) < 0)
            return -1;
    return grow_entries(v, n);
}

long vocab_intern(vocab *v, const char *s, size_t len)
{
    return vocab_intern_hashed(v, s, len, vocab_hash(s, len));
}

long vocab_intern_hashed(vocab *v, const char *s, size_t len, uint64_t h)
{
    size_t slot;
    long id = lookup(v, s, len, h, &slot);
    if (id >= 0)
        return id;
    if (len > UINT32_MAX || v->n >= UINT32_MAX - 1)
        return -1;
    if (v->n == v->cap && grow_entries(v, v->n + 1) < 0)
        return -1;
    char *copy = arena_copy(v, s, len);
    if (!copy)
        return -1;
    id = (long)v->n++;
    v->strs[id] = copy;
    v->lens[id] = (uint32_t)len;
    v->hashes[id] = h;
    v->slots[slot].id1 = (uint32_t)(id + 1);
    v->slots[slot].h32 = (uint32_t)(h >> 32);
    /* Keep the load factor at or below one half. */
    if (v->n * 2 > v->nslots && grow_slots(v) < 0)
        return -1;
    return id;
}

static int cmp_ids(const void *a, const void *b, void *arg)
{
    const vocab *v = arg;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    size_t lx = v->lens[x], ly = v->lens[y];
    int c = memcmp(v->strs[x], v->strs[y], lx < ly ? lx : ly);
    if (c)
        return c;
    return lx < ly ? -1 : lx > ly;
}

size_t *vocab_sorted_ids(const vocab *v)
{
    size_t *ids = malloc((v->n ? v->n : 1) * sizeof *ids);
    if (!ids)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        ids[i] = i;
    qsort_r(ids, v->n, sizeof *ids, cmp_ids, (void *)v);
    return ids;
}
