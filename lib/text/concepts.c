#include <config.h>
#include "text/concepts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/u64map.h"
#include "base/vocab.h"

/* ---- term trie ---- */

/* A node's values are vals[off, off + n). */
typedef struct trie_node {
    uint32_t off, n;
} trie_node;

struct term_trie {
    vocab *tokens;
    u64map edges;          /* (parent node, token id) -> child node */
    trie_node *node;       /* node 0 is the root */
    size_t nnodes, node_cap;
    uint32_t *vals;
    size_t nvals, vals_cap;
};

static long new_node(term_trie *t)
{
    if (ARRAY_RESERVE(t->node, t->node_cap, t->nnodes + 1) < 0)
        return -1;
    t->node[t->nnodes] = (trie_node){0, 0};
    return (long)t->nnodes++;
}

term_trie *term_trie_new(void)
{
    term_trie *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->tokens = vocab_new();
    if (!t->tokens || u64map_init(&t->edges) < 0 || new_node(t) < 0) {
        term_trie_free(t);
        return NULL;
    }
    return t;
}

void term_trie_free(term_trie *t)
{
    if (!t)
        return;
    vocab_free(t->tokens);
    u64map_free(&t->edges);
    free(t->node);
    free(t->vals);
    free(t);
}

static int push_value(term_trie *t, uint32_t v)
{
    if (ARRAY_RESERVE(t->vals, t->vals_cap, t->nvals + 1) < 0)
        return -1;
    t->vals[t->nvals++] = v;
    return 0;
}

int term_trie_add(term_trie *t, const token_list *toks, uint32_t value,
                  uint32_t *before)
{
    if (before)
        *before = UINT32_MAX;
    if (toks->n == 0)
        return 0;
    uint32_t node = 0;
    for (size_t i = 0; i < toks->n; i++) {
        long tok = vocab_intern(t->tokens, token_at(toks, i), toks->len[i]);
        if (tok < 0)
            return -1;
        uint64_t key = pair_key(node, (uint32_t)tok), child;
        if (!u64map_get(&t->edges, key, &child)) {
            long fresh = new_node(t);
            if (fresh < 0 || u64map_put(&t->edges, key, (uint64_t)fresh) < 0)
                return -1;
            child = (uint64_t)fresh;
        }
        node = (uint32_t)child;
    }
    uint32_t off = t->node[node].off, n = t->node[node].n;
    if (n > 0 && before)
        *before = t->vals[off];
    for (uint32_t k = 0; k < n; k++)
        if (t->vals[off + k] == value)
            return 0;
    /* A node's values stay contiguous: when others were added since, its
       few values move to the end (terms with several values are rare). */
    if (n > 0 && off + n != t->nvals) {
        size_t start = t->nvals;
        for (uint32_t k = 0; k < n; k++)
            if (push_value(t, t->vals[off + k]) < 0)
                return -1;
        off = (uint32_t)start;
    } else if (n == 0) {
        off = (uint32_t)t->nvals;
    }
    if (push_value(t, value) < 0)
        return -1;
    t->node[node] = (trie_node){off, n + 1};
    return 1;
}

size_t term_trie_values(const term_trie *t, uint32_t node,
                        const uint32_t **values)
{
    *values = t->vals + t->node[node].off;
    return t->node[node].n;
}

void term_hits_free(term_hits *h)
{
    free(h->v);
    memset(h, 0, sizeof *h);
}

int term_trie_scan(const term_trie *t, const token_list *parts,
                   term_hits *out)
{
    out->n = 0;
    size_t i = 0;
    while (i < parts->n) {
        size_t best = 0;
        uint32_t node = 0, best_node = 0;
        for (size_t j = i; j < parts->n; j++) {
            long tok = vocab_find(t->tokens, token_at(parts, j), parts->len[j]);
            if (tok < 0)
                break;
            uint64_t child;
            if (!u64map_get(&t->edges, pair_key(node, (uint32_t)tok), &child))
                break;
            node = (uint32_t)child;
            if (t->node[node].n) {
                best = j + 1;
                best_node = node;
            }
        }
        if (best == 0) {
            i++;
            continue;
        }
        if (ARRAY_RESERVE(out->v, out->cap, out->n + 1) < 0)
            return -1;
        out->v[out->n++] = (term_hit){(uint32_t)i, (uint32_t)best, best_node};
        i = best;
    }
    return 0;
}

/* Splits every word at '_' into parts. */
static int split_merged(const token_list *words, token_list *parts)
{
    token_list_clear(parts);
    for (size_t i = 0; i < words->n; i++) {
        const char *w = token_at(words, i), *end = w + words->len[i];
        while (w < end) {
            const char *u = memchr(w, '_', (size_t)(end - w));
            if (!u)
                u = end;
            if (u > w && token_list_push(parts, w, (size_t)(u - w)) < 0)
                return -1;
            w = u + 1;
        }
    }
    return 0;
}

int text_parts(const char *text, size_t len, token_list *words,
               token_list *parts)
{
    static const tok_options ws = {.kind = TOKENIZER_WHITESPACE};
    if (tokenize(&ws, text, len, words) < 0)
        return -1;
    return split_merged(words, parts);
}

int term_parts(const char *term, size_t len, token_list *words,
               token_list *parts)
{
    static const tok_options def = {.kind = TOKENIZER_DEFAULT};
    if (tokenize(&def, term, len, words) < 0)
        return -1;
    return split_merged(words, parts);
}

/* ---- MeSH descriptors ---- */

struct concept_index {
    mesh_tree tree;
    char *source;
    vocab *uis;             /* descriptor ids, in order of first line */
    vocab *trees;           /* tree number id = entry index */
    uint32_t *desc_of;      /* per entry: its descriptor */
    uint32_t *first;        /* per descriptor: its first entry */
    size_t *tree_off;       /* descriptor c's entries: tree_ent[off[c], off[c+1]) */
    uint32_t *tree_ent;
    term_trie *terms;
    token_list words, parts;  /* scratch */
};

void concept_index_free(concept_index *ci)
{
    if (!ci)
        return;
    mesh_tree_free(&ci->tree);
    free(ci->source);
    vocab_free(ci->uis);
    vocab_free(ci->trees);
    free(ci->desc_of);
    free(ci->first);
    free(ci->tree_off);
    free(ci->tree_ent);
    term_trie_free(ci->terms);
    token_list_free(&ci->words);
    token_list_free(&ci->parts);
    free(ci);
}

/* Adds term (and its uninverted form) for descriptor c; 0 when it has no
   word, -1 when out of memory. */
static int add_term(concept_index *ci, const char *term, uint32_t c)
{
    if (term_parts(term, strlen(term), &ci->words, &ci->parts) < 0)
        return -1;
    if (ci->parts.n == 0)
        return 0;
    if (term_trie_add(ci->terms, &ci->parts, c, NULL) < 0)
        return -1;
    char buf[1024];
    if (mesh_uninvert(term, buf, sizeof buf) &&
        (term_parts(buf, strlen(buf), &ci->words, &ci->parts) < 0 ||
         term_trie_add(ci->terms, &ci->parts, c, NULL) < 0))
        return -1;
    return 1;
}

static int index_entries(concept_index *ci, tells_error *err)
{
    const mesh_tree *m = &ci->tree;
    ci->desc_of = malloc(m->n * sizeof *ci->desc_of);
    ci->first = malloc(m->n * sizeof *ci->first);
    if (!ci->desc_of || !ci->first)
        return tells_error_nomem(err, ci->source, 0);
    for (size_t i = 0; i < m->n; i++) {
        const mesh_entry *e = &m->v[i];
        size_t before = vocab_size(ci->uis);
        long d = vocab_intern(ci->uis, e->ui, strlen(e->ui));
        if (d < 0 || vocab_intern(ci->trees, e->tree, strlen(e->tree)) < 0)
            return tells_error_nomem(err, ci->source, e->line);
        if (vocab_size(ci->uis) > before)
            ci->first[d] = (uint32_t)i;
        else if (strcmp(e->term, m->v[ci->first[d]].term) != 0)
            return tells_error_set(err, ci->source, e->line,
                                   "descriptor %s is named '%s' on line %ld",
                                   e->ui, m->v[ci->first[d]].term,
                                   m->v[ci->first[d]].line);
        ci->desc_of[i] = (uint32_t)d;
    }
    size_t nd = vocab_size(ci->uis);
    ci->tree_off = calloc(nd + 1, sizeof *ci->tree_off);
    ci->tree_ent = malloc(m->n * sizeof *ci->tree_ent);
    if (!ci->tree_off || !ci->tree_ent)
        return tells_error_nomem(err, ci->source, 0);
    for (size_t i = 0; i < m->n; i++)
        ci->tree_off[ci->desc_of[i] + 1]++;
    for (size_t d = 0; d < nd; d++)
        ci->tree_off[d + 1] += ci->tree_off[d];
    size_t *fill = malloc(nd * sizeof *fill);
    if (!fill)
        return tells_error_nomem(err, ci->source, 0);
    memcpy(fill, ci->tree_off, nd * sizeof *fill);
    for (size_t i = 0; i < m->n; i++)
        ci->tree_ent[fill[ci->desc_of[i]]++] = (uint32_t)i;
    free(fill);
    for (size_t d = 0; d < nd; d++) {
        const mesh_entry *e = &m->v[ci->first[d]];
        int rc = add_term(ci, e->term, (uint32_t)d);
        if (rc < 0)
            return tells_error_nomem(err, ci->source, e->line);
        if (rc == 0)
            return tells_error_set(err, ci->source, e->line,
                                   "term '%s' has no words", e->term);
    }
    return 0;
}

concept_index *concept_index_load(const char *mesh_path, tells_error *err)
{
    concept_index *ci = calloc(1, sizeof *ci);
    if (!ci) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    token_list_init(&ci->words);
    token_list_init(&ci->parts);
    if (mesh_tree_load(mesh_path, &ci->tree, err) < 0) {
        concept_index_free(ci);
        return NULL;
    }
    ci->source = strdup(display_name(mesh_path));
    ci->uis = vocab_new();
    ci->trees = vocab_new();
    ci->terms = term_trie_new();
    if (!ci->source || !ci->uis || !ci->trees || !ci->terms) {
        tells_error_nomem(err, display_name(mesh_path), 0);
        concept_index_free(ci);
        return NULL;
    }
    if (index_entries(ci, err) < 0) {
        concept_index_free(ci);
        return NULL;
    }
    return ci;
}

typedef struct synonym_ctx {
    concept_index *ci;
    line_seen seen;
    char *key;
    size_t key_cap;
} synonym_ctx;

static int synonym_row(void *ctx, char **field, const line_reader *r,
                       tells_error *err)
{
    synonym_ctx *sc = ctx;
    concept_index *ci = sc->ci;
    const char *term = field[0], *ui = field[1];
    long d = concept_find_ui(ci, ui);
    if (d < 0)
        return tells_error_set(err, r->name, r->lineno,
                               "unknown descriptor '%s' (not in %s)", ui,
                               ci->source);
    if (term_parts(term, strlen(term), &ci->words, &ci->parts) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (ci->parts.n == 0)
        return tells_error_set(err, r->name, r->lineno,
                               "term '%s' has no words", term);
    size_t key_len = 0;
    long before;
    if (token_list_join(&ci->parts, &sc->key, &key_len, &sc->key_cap) < 0 ||
        (before = line_seen_add(&sc->seen, sc->key, key_len, r->lineno)) < 0 ||
        (before == 0 && term_trie_add(ci->terms, &ci->parts, (uint32_t)d, NULL) < 0))
        return tells_error_nomem(err, r->name, r->lineno);
    if (before > 0)
        return tells_error_set(err, r->name, r->lineno,
                               "term '%s' already given on line %ld", term,
                               before);
    return 0;
}

int concept_index_add_synonyms(concept_index *ci, const char *path,
                               tells_error *err)
{
    static const char *const names[] = {"term", "descriptor"};
    synonym_ctx sc = {.ci = ci};
    if (line_seen_init(&sc.seen) < 0)
        return tells_error_nomem(err, display_name(path), 0);
    long rc = lexicon_read(path, 2, names, synonym_row, &sc, err);
    free(sc.key);
    line_seen_free(&sc.seen);
    return rc < 0 ? -1 : 0;
}

const char *concept_index_source(const concept_index *ci) { return ci->source; }
size_t concept_count(const concept_index *ci) { return vocab_size(ci->uis); }

const char *concept_ui(const concept_index *ci, uint32_t c)
{
    return vocab_str(ci->uis, c);
}

const char *concept_term(const concept_index *ci, uint32_t c)
{
    return ci->tree.v[ci->first[c]].term;
}

size_t concept_ntrees(const concept_index *ci, uint32_t c)
{
    return ci->tree_off[c + 1] - ci->tree_off[c];
}

const char *concept_tree(const concept_index *ci, uint32_t c, size_t k)
{
    return ci->tree.v[ci->tree_ent[ci->tree_off[c] + k]].tree;
}

long concept_find_ui(const concept_index *ci, const char *ui)
{
    return vocab_find(ci->uis, ui, strlen(ui));
}

long concept_find_tree(const concept_index *ci, const char *tree)
{
    long e = vocab_find(ci->trees, tree, strlen(tree));
    return e < 0 ? -1 : (long)ci->desc_of[e];
}

int concept_under(const concept_index *ci, uint32_t c, const char *prefix,
                  size_t *k)
{
    size_t n = concept_ntrees(ci, c);
    for (size_t i = 0; i < n; i++)
        if (mesh_tree_under(concept_tree(ci, c, i), prefix)) {
            if (k)
                *k = i;
            return 1;
        }
    return 0;
}

void concept_hits_free(concept_hits *h)
{
    free(h->v);
    term_hits_free(&h->raw);
    memset(h, 0, sizeof *h);
}

int concept_link(const concept_index *ci, const token_list *parts,
                 concept_hits *out)
{
    out->n = 0;
    if (term_trie_scan(ci->terms, parts, &out->raw) < 0)
        return -1;
    for (size_t i = 0; i < out->raw.n; i++) {
        const term_hit *h = &out->raw.v[i];
        const uint32_t *vals;
        size_t nv = term_trie_values(ci->terms, h->node, &vals);
        for (size_t k = 0; k < nv; k++) {
            if (ARRAY_RESERVE(out->v, out->cap, out->n + 1) < 0)
                return -1;
            out->v[out->n++] = (concept_hit){vals[k], h->start, h->end};
        }
    }
    return 0;
}
