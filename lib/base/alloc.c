#include <config.h>
#include "base/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t array_capacity(size_t cap, size_t need, size_t least)
{
    size_t c = cap ? cap : (least ? least : 1);
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return need;
        c *= 2;
    }
    return c;
}

void *array_grow(void *p, size_t *cap, size_t need, size_t size, size_t least)
{
    if (need <= *cap)
        return p;
    size_t c = array_capacity(*cap, need, least);
    if (size && c > SIZE_MAX / size)
        return NULL;
    size_t bytes = c * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        return NULL;
    *cap = c;
    return q;
}

void *array_resize_zeroed(void *p, size_t old, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    char *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        return NULL;
    if (n > old)
        memset(q + old * size, 0, (n - old) * size);
    return q;
}

void *array_new(size_t n, size_t size)
{
    return calloc(n ? n : 1, size ? size : 1);
}

enum { ARENA_BLOCK = 1 << 20 };

typedef struct arena_block {
    struct arena_block *next;
    size_t used, size;
    char data[];
} arena_block;

char *arena_take(arena *a, size_t size)
{
    arena_block *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t want = b ? (b->size < ARENA_BLOCK / 2 ? 2 * b->size : ARENA_BLOCK) : 4096;
        size_t bytes = size > want ? size : want;
        if (bytes > SIZE_MAX - sizeof *b)
            return NULL;
        arena_block *nb = malloc(sizeof *nb + bytes);
        if (!nb)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->size = bytes;
        a->head = b = nb;
    }
    char *p = b->data + b->used;
    b->used += size;
    return p;
}

void arena_free(arena *a)
{
    for (arena_block *b = a->head; b;) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}
