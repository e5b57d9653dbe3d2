#include <config.h>
#include "text/phrase.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/utf8.h"
#include "base/u64map.h"
#include "base/vocab.h"

struct phrase_set {
    vocab *tokens;
    u64map edges;             /* (parent node, token id) -> child node */
    unsigned char *terminal;  /* per node: a phrase ends here */
    size_t nnodes, node_cap;  /* node 0 is the root */
    size_t nphrases;
};

/* A node no phrase ends at yet; -1 when out of memory. */
static long new_node(phrase_set *ps)
{
    if (ARRAY_RESERVE_MIN(ps->terminal, ps->node_cap, ps->nnodes + 1, 1024) < 0)
        return -1;
    ps->terminal[ps->nnodes] = 0;
    return (long)ps->nnodes++;
}

phrase_set *phrase_set_new(void)
{
    phrase_set *ps = calloc(1, sizeof *ps);
    if (!ps)
        return NULL;
    ps->tokens = vocab_new();
    if (!ps->tokens || u64map_init(&ps->edges) < 0 || new_node(ps) < 0) {
        phrase_set_free(ps);
        return NULL;
    }
    return ps;
}

void phrase_set_free(phrase_set *ps)
{
    if (!ps)
        return;
    vocab_free(ps->tokens);
    u64map_free(&ps->edges);
    free(ps->terminal);
    free(ps);
}

size_t phrase_set_size(const phrase_set *ps) { return ps->nphrases; }

int phrase_set_add(phrase_set *ps, const token_list *t)
{
    if (t->n < 2)
        return 0;
    uint32_t node = 0;
    for (size_t i = 0; i < t->n; i++) {
        long tok = vocab_intern(ps->tokens, token_at(t, i), t->len[i]);
        if (tok < 0)
            return -1;
        uint64_t key = pair_key(node, (uint32_t)tok), child;
        if (!u64map_get(&ps->edges, key, &child)) {
            long fresh = new_node(ps);
            if (fresh < 0 || u64map_put(&ps->edges, key, (uint64_t)fresh) < 0)
                return -1;
            child = (uint64_t)fresh;
        }
        node = (uint32_t)child;
    }
    if (!ps->terminal[node]) {
        ps->terminal[node] = 1;
        ps->nphrases++;
    }
    return 0;
}

int phrase_set_load(phrase_set *ps, const char *path, const tok_options *opt,
                    tells_error *err)
{
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    token_list toks;
    token_list_init(&toks);
    char *line;
    size_t len;
    int rc;
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        if (r.lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            line += 3;  /* byte-order mark */
            len -= 3;
        }
        if (len == 0 || line[0] == '#')
            continue;
        char *tab = memchr(line, '\t', len);
        if (tab)
            len = (size_t)(tab - line);
        if (utf8_invalid_offset(line, len) != (size_t)-1) {
            rc = tells_error_set(err, r.name, r.lineno, "invalid UTF-8");
            break;
        }
        if (tokenize(opt, line, len, &toks) < 0 || phrase_set_add(ps, &toks) < 0) {
            rc = tells_error_nomem(err, r.name, r.lineno);
            break;
        }
    }
    token_list_free(&toks);
    line_reader_close(&r);
    return rc < 0 ? -1 : 0;
}

int phrase_set_merge(const phrase_set *ps, const token_list *in,
                     token_list *out)
{
    token_list_clear(out);
    size_t i = 0;
    while (i < in->n) {
        size_t best = 0;  /* length of the longest match starting at i */
        uint32_t node = 0;
        for (size_t j = i; j < in->n; j++) {
            long tok = vocab_find(ps->tokens, token_at(in, j), in->len[j]);
            if (tok < 0)
                break;
            uint64_t child;
            if (!u64map_get(&ps->edges, pair_key(node, (uint32_t)tok), &child))
                break;
            node = (uint32_t)child;
            if (ps->terminal[node])
                best = j - i + 1;
        }
        if (best >= 2) {
            if (token_list_push_joined(out, in, i, best, '_') < 0)
                return -1;
            i += best;
        } else {
            if (token_list_push(out, token_at(in, i), in->len[i]) < 0)
                return -1;
            i++;
        }
    }
    return 0;
}
