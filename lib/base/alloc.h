/* Growing arrays: one checked place for the capacity doubling that every
   growing buffer needs, instead of a hand-written one at each site.
   Sizes are checked for overflow (as reallocarray does), and on failure
   the array is left as it was, so the caller frees it as usual. */
#ifndef TELLS_ALLOC_H
#define TELLS_ALLOC_H

#include <stddef.h>

/* The capacity an array of cap elements grows to when it must hold need:
   cap doubled until it does (starting from `least` when cap is 0); need
   itself when doubling would overflow. */
size_t array_capacity(size_t cap, size_t need, size_t least);

/* The array p of *cap elements of `size` bytes, grown to hold at least
   need elements (doubling, and at least `least`): the new pointer with
   *cap updated, or NULL with p and *cap untouched when the size
   overflows or memory runs out. */
void *array_grow(void *p, size_t *cap, size_t need, size_t size, size_t least);

/* ARRAY_RESERVE(p, cap, need): makes room for need elements in the array
   p whose capacity is the size_t lvalue cap; 0, or -1 when out of
   memory. ARRAY_RESERVE_MIN also starts at `least` elements. */
#define ARRAY_RESERVE_MIN(p, cap, need, least) __extension__ ({              \
    int array_rc_ = 0;                                                       \
    if ((size_t)(need) > (cap)) {                                            \
        void *array_np_ = array_grow((p), &(cap), (need), sizeof *(p), (least)); \
        if (array_np_)                                                       \
            (p) = array_np_;                                                 \
        else                                                                 \
            array_rc_ = -1;                                                  \
    }                                                                        \
    array_rc_; })
#define ARRAY_RESERVE(p, cap, need) ARRAY_RESERVE_MIN(p, cap, need, 16)

/* Resizes p from old to n elements (n >= old), the new ones zeroed: the
   new pointer, or NULL with p untouched. For arrays that share one
   capacity kept elsewhere. */
void *array_resize_zeroed(void *p, size_t old, size_t n, size_t size);

/* A zeroed array of n elements (at least one, so that n = 0 is not NULL);
   NULL when the size overflows or memory runs out. */
void *array_new(size_t n, size_t size);

/* Bytes taken from large blocks and freed together (interned strings, a
   corpus's texts), not a malloc and a free each. Blocks grow from 4 KiB
   to 1 MiB, so that a small arena costs little; a request larger than
   that gets a block of its own. Zero-initialise an arena ({0}). */
typedef struct arena {
    struct arena_block *head;
} arena;

/* size bytes (unaligned: for text), or NULL when memory runs out. */
char *arena_take(arena *a, size_t size);
void arena_free(arena *a);

#endif
