/* The growing-array helper, arenas and the error kinds. */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/alloc.h"
#include "base/error.h"

static void capacities(void)
{
    CHECK(array_capacity(0, 1, 16) == 16);
    CHECK(array_capacity(0, 17, 16) == 32);
    CHECK(array_capacity(16, 17, 16) == 32);
    CHECK(array_capacity(32, 32, 16) == 32);
    CHECK(array_capacity(0, 5, 0) == 8);
    /* Doubling past SIZE_MAX gives the need itself. */
    CHECK(array_capacity(SIZE_MAX / 2 + 1, SIZE_MAX, 1) == SIZE_MAX);
}

static void reserve(void)
{
    int *v = NULL;
    size_t cap = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK(ARRAY_RESERVE(v, cap, (size_t)i + 1) == 0);
        v[i] = i;
    }
    CHECK(cap == 1024);
    long sum = 0;
    for (int i = 0; i < 1000; i++)
        sum += v[i];
    CHECK(sum == 499500);
    /* Room already there: nothing moves. */
    int *before = v;
    CHECK(ARRAY_RESERVE(v, cap, 10) == 0 && v == before && cap == 1024);
    /* An element count whose size overflows fails and leaves the array. */
    CHECK(ARRAY_RESERVE(v, cap, SIZE_MAX / 2) == -1);
    CHECK(v == before && cap == 1024 && v[999] == 999);
    free(v);

    char *s = NULL;
    size_t scap = 0;
    CHECK(ARRAY_RESERVE_MIN(s, scap, 3, 100) == 0 && scap == 100);
    free(s);
}

static void zeroed(void)
{
    unsigned *v = array_resize_zeroed(NULL, 0, 4, sizeof *v);
    CHECK(v && v[0] == 0 && v[3] == 0);
    v[3] = 7;
    v = array_resize_zeroed(v, 4, 100, sizeof *v);
    CHECK(v && v[3] == 7 && v[4] == 0 && v[99] == 0);
    CHECK(array_resize_zeroed(v, 100, SIZE_MAX / 2, sizeof *v) == NULL);
    free(v);
    double *z = array_new(0, sizeof *z);
    CHECK(z != NULL);
    free(z);
}

static void errors(void)
{
    tells_error err;
    tells_error_clear(&err);
    CHECK(err.kind == TELLS_ERR_NONE);
    CHECK(tells_error_set(&err, "f.tsv", 3, "bad %s", "row") == -1);
    CHECK(err.kind == TELLS_ERR_DATA && err.line == 3);
    CHECK_STR(err.msg, "bad row");
    CHECK(tells_error_usage(&err, "expected N") == -1 && err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.file, "");
    CHECK(tells_error_io(&err, "x", 0, "cannot open") == -1 && err.kind == TELLS_ERR_IO);
    CHECK(tells_error_nomem(&err, "y", 2) == -1 && err.kind == TELLS_ERR_NOMEM);
    CHECK_STR(err.msg, "out of memory");
    tells_error_prefix(&err, "--fill");
    CHECK_STR(err.msg, "--fill: out of memory");
    char buf[256];
    tells_error_format(&err, buf, sizeof buf);
    CHECK_STR(buf, "y:2: --fill: out of memory");
    /* A message may name the error's own file. */
    tells_error_set(&err, err.file, 0, "again");
    tells_error_format(&err, buf, sizeof buf);
    CHECK_STR(buf, "y: again");
    CHECK(tells_error_set(NULL, "z", 1, "ignored") == -1);
}

/* An arena: pieces that do not overlap and keep their bytes while more
   are taken, small ones and one larger than a block, all freed together
   (ASan checks the bounds and the leak). */
static void arenas(void)
{
    arena a = {0};
    enum { PIECES = 3000 };
    char *piece[PIECES + 1];
    for (size_t i = 0; i < PIECES; i++) {
        size_t len = 1 + i % 700;
        piece[i] = arena_take(&a, len);
        CHECK(piece[i] != NULL);
        if (piece[i])
            memset(piece[i], (int)(i % 251), len);
    }
    size_t big = (1 << 20) + 5;
    piece[PIECES] = arena_take(&a, big);
    CHECK(piece[PIECES] != NULL);
    if (piece[PIECES])
        memset(piece[PIECES], 7, big);
    bool kept = true;
    for (size_t i = 0; i < PIECES; i++)
        for (size_t k = 0; piece[i] && k < 1 + i % 700; k++)
            kept &= piece[i][k] == (char)(i % 251);
    CHECK(kept);
    CHECK(piece[PIECES] && piece[PIECES][big - 1] == 7);
    CHECK(arena_take(&a, SIZE_MAX) == NULL);
    arena_free(&a);
    CHECK(a.head == NULL);
    arena_free(&a);   /* twice is harmless */
}

int main(void)
{
    arenas();
    capacities();
    reserve();
    zeroed();
    errors();
    CHECK_DONE();
}
