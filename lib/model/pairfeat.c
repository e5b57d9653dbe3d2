#include <config.h>
#include "model/pairfeat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/prepared.h"

/* The tokens of a space-separated text: starts and lengths. */
typedef struct tokens {
    const char **at;
    size_t *len, n;
} tokens;

static int split(const char *s, tokens *t)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ' ';
    t->at = malloc(cap * sizeof *t->at);
    t->len = malloc(cap * sizeof *t->len);
    t->n = 0;
    if (!t->at || !t->len)
        return -1;
    size_t len;
    for (const char *p = s, *b; (b = prepared_next_token(&p, &len));) {
        t->at[t->n] = b;
        t->len[t->n++] = len;
    }
    return 0;
}

static int has(const tokens *t, const char *w, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->len[i] == len && memcmp(t->at[i], w, len) == 0)
            return 1;
    return 0;
}

/* The index of the first token equal to token i. */
static size_t first_at(const tokens *t, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (t->len[k] == t->len[i] && memcmp(t->at[k], t->at[i], t->len[i]) == 0)
            return k;
    return i;
}

/* A cross feature whose "x:A|" part would take this many bytes or more
   is left out, with the rest of A's (a token that long is no word). */
enum { CROSS_PREFIX_MAX = 512 };

/* Appends the n parts, one word, and a space before it unless first. */
static int put_parts(char **buf, size_t *cap, size_t *used, const char *const *part,
                     const size_t *len, size_t n)
{
    size_t need = *used + 2;
    for (size_t k = 0; k < n; k++)
        need += len[k];
    if (ARRAY_RESERVE(*buf, *cap, need) < 0)
        return -1;
    char *o = *buf + *used;
    if (*used)
        *o++ = ' ';
    for (size_t k = 0; k < n; k++) {
        memcpy(o, part[k], len[k]);
        o += len[k];
    }
    *o = '\0';
    *used = (size_t)(o - *buf);
    return 0;
}

/* Appends "PREFIXword" (and a space before it unless first). */
static int put(char **buf, size_t *cap, size_t *used, const char *prefix, const char *w,
               size_t len)
{
    const char *part[2] = {prefix, w};
    size_t plen[2] = {strlen(prefix), len};
    return put_parts(buf, cap, used, part, plen, 2);
}

int pair_features(const char *premise, const char *hypothesis, char **buf, size_t *cap)
{
    tokens p = {0}, h = {0};
    size_t used = 0;
    int rc = split(premise, &p) < 0 || split(hypothesis, &h) < 0 ? -1 : 0;
    if (rc == 0 && ARRAY_RESERVE(*buf, *cap, 1) < 0)
        rc = -1;
    if (rc == 0)
        (*buf)[0] = '\0';
    for (size_t i = 0; rc == 0 && i < p.n; i++)
        rc = put(buf, cap, &used, "p:", p.at[i], p.len[i]);
    size_t shared = 0;
    for (size_t j = 0; rc == 0 && j < h.n; j++) {
        rc = put(buf, cap, &used, "h:", h.at[j], h.len[j]);
        if (has(&p, h.at[j], h.len[j]))
            shared++;
        else if (rc == 0)
            rc = put(buf, cap, &used, "new:", h.at[j], h.len[j]);
    }
    /* Cross pairs of the words that differ: each distinct token of P
       that H lacks with each distinct token of H that P lacks, in text
       order, at most PAIR_MAX_CROSS of them (a long premise would
       otherwise give thousands per example). */
    size_t ncross = 0;
    for (size_t i = 0; rc == 0 && i < p.n && ncross < PAIR_MAX_CROSS; i++) {
        if (has(&h, p.at[i], p.len[i]) || first_at(&p, i) != i)
            continue;
        for (size_t j = 0; rc == 0 && j < h.n && ncross < PAIR_MAX_CROSS; j++) {
            if (has(&p, h.at[j], h.len[j]) || first_at(&h, j) != j)
                continue;
            if (p.len[i] + 3 >= CROSS_PREFIX_MAX)
                break;   /* a token that long: left out */
            const char *part[4] = {"x:", p.at[i], "|", h.at[j]};
            size_t plen[4] = {2, p.len[i], 1, h.len[j]};
            rc = put_parts(buf, cap, &used, part, plen, 4);
            ncross++;
        }
    }
    if (rc == 0) {
        char extra[64];
        long d = (long)p.n - (long)h.n;
        d = d < -5 ? -5 : d > 20 ? 20 : d;
        int k = snprintf(extra, sizeof extra, "ov:%zu%s ld:%ld", h.n ? 10 * shared / h.n : 0,
                         h.n && shared == h.n ? " allov" : "", d);
        rc = put(buf, cap, &used, "", extra, (size_t)k);
    }
    free(p.at);
    free(p.len);
    free(h.at);
    free(h.len);
    return rc;
}
