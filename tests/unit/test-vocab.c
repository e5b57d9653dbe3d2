/* Interning: stable ids, growth, byte-order sorting. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "base/u64map.h"
#include "base/vocab.h"

int main(void)
{
    vocab *v = vocab_new();
    CHECK(v != NULL);
    CHECK(vocab_intern(v, "b", 1) == 0);
    CHECK(vocab_intern(v, "a", 1) == 1);
    CHECK(vocab_intern(v, "b", 1) == 0);
    CHECK(vocab_find(v, "c", 1) == -1);
    CHECK(vocab_intern(v, "", 0) == 2);
    CHECK(vocab_intern(v, "\xC3\xA9", 2) == 3);
    /* Enough entries to grow the table several times. */
    char buf[32];
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(buf, sizeof buf, "tok%d", i);
        CHECK(vocab_intern(v, buf, (size_t)n) == 4 + i);
    }
    CHECK(vocab_size(v) == 100004);
    CHECK(vocab_find(v, "tok99999", 8) == 100003);
    CHECK_STR(vocab_str(v, 4), "tok0");
    size_t *ids = vocab_sorted_ids(v);
    CHECK(ids != NULL);
    CHECK_STR(vocab_str(v, ids[0]), "");
    CHECK_STR(vocab_str(v, ids[1]), "a");
    CHECK_STR(vocab_str(v, ids[2]), "b");
    CHECK_STR(vocab_str(v, ids[100003]), "\xC3\xA9");  /* bytes >= 0x80 last */
    free(ids);
    vocab_free(v);

    /* Room made mid-way keeps every id and string; strings up to the
       room, and past it, intern as before. */
    v = vocab_new();
    CHECK(v != NULL);
    for (int i = 0; i < 700; i++) {
        int n = snprintf(buf, sizeof buf, "w%d", i);
        CHECK(vocab_intern(v, buf, (size_t)n) == i);
    }
    CHECK(vocab_reserve(v, 5000) == 0);
    CHECK(vocab_reserve(v, 10) == 0);   /* less than it has: nothing */
    CHECK(vocab_size(v) == 700);
    CHECK(vocab_find(v, "w699", 4) == 699);
    CHECK_STR(vocab_str(v, 0), "w0");
    for (int i = 700; i < 6000; i++) {
        int n = snprintf(buf, sizeof buf, "w%d", i);
        CHECK(vocab_intern(v, buf, (size_t)n) == i);
    }
    for (int i = 0; i < 6000; i += 599) {
        int n = snprintf(buf, sizeof buf, "w%d", i);
        CHECK(vocab_find(v, buf, (size_t)n) == i);
        CHECK(vocab_len(v, (size_t)i) == (size_t)n);
    }
    CHECK(vocab_reserve(v, (size_t)UINT32_MAX) == -1);
    CHECK(vocab_size(v) == 6000 && vocab_find(v, "w5999", 5) == 5999);
    vocab_free(v);

    u64map m;
    CHECK(u64map_init(&m) == 0);
    for (uint64_t k = 0; k < 50000; k++)
        CHECK(u64map_add(&m, pair_key((uint32_t)k, 7), k) == 0);
    CHECK(u64map_add(&m, pair_key(3, 7), 10) == 0);
    uint64_t val = 0;
    CHECK(u64map_get(&m, pair_key(3, 7), &val) && val == 13);
    CHECK(!u64map_get(&m, pair_key(7, 3), &val));
    CHECK(m.n == 50000);
    u64map_free(&m);
    CHECK_DONE();
}
