#include <config.h>
#include "text/concepts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/u64map.h"
#include "base/vocab.h"
#include "text/entryterms.h"
#include "text/stem.h"

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

long term_trie_insert(term_trie *t, const token_list *toks)
{
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
    return node;
}

int term_trie_push(term_trie *t, uint32_t node, uint32_t value)
{
    uint32_t off = t->node[node].off, n = t->node[node].n;
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
    return 0;
}

int term_trie_add(term_trie *t, const token_list *toks, uint32_t value,
                  uint32_t *before)
{
    if (before)
        *before = UINT32_MAX;
    if (toks->n == 0)
        return 0;
    long node = term_trie_insert(t, toks);
    if (node < 0)
        return -1;
    uint32_t off = t->node[node].off, n = t->node[node].n;
    if (n > 0 && before)
        *before = t->vals[off];
    for (uint32_t k = 0; k < n; k++)
        if (t->vals[off + k] == value)
            return 0;
    return term_trie_push(t, (uint32_t)node, value) < 0 ? -1 : 1;
}

long term_trie_child(const term_trie *t, uint32_t node, const char *tok, size_t len)
{
    long id = vocab_find(t->tokens, tok, len);
    uint64_t child;
    if (id < 0 || !u64map_get(&t->edges, pair_key(node, (uint32_t)id), &child))
        return -1;
    return (long)child;
}

size_t term_trie_nodes(const term_trie *t) { return t->nnodes; }

size_t term_trie_values(const term_trie *t, uint32_t node,
                        const uint32_t **values)
{
    /* No values at all yet: vals is NULL, and NULL + 0 is undefined. */
    *values = t->vals ? t->vals + t->node[node].off : NULL;
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

/* What a trie node of the index carries: a descriptor, with the hash of
   the term's spelling (lowercased; as written for a short abbreviation),
   to choose among the descriptors of one key and to check the capitals
   of an abbreviation. */
enum { SENSE_CASED = 1, SENSE_EXACT = 2 };

typedef struct sense {
    uint32_t concept, form, flags;
} sense;

struct concept_index {
    mesh_tree tree;
    char *source;
    bool stem;
    vocab *uis;             /* descriptor ids, in order of first line */
    vocab *trees;           /* tree number id = entry index */
    uint32_t *desc_of;      /* per entry: its descriptor */
    uint32_t *first;        /* per descriptor: its first entry */
    size_t *tree_off;       /* descriptor c's entries: tree_ent[off[c], off[c+1]) */
    uint32_t *tree_ent;
    term_trie *terms;       /* values: indexes into sense */
    sense *sense;
    size_t nsense, sense_cap;
    concept_stats stats;
    token_list words, parts, keys;  /* scratch of the loaders */
    stemmer *stemmer;
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
    free(ci->sense);
    token_list_free(&ci->words);
    token_list_free(&ci->parts);
    token_list_free(&ci->keys);
    stemmer_free(ci->stemmer);
    free(ci);
}

/* The hash of parts [from, to) joined by spaces. */
static uint32_t form_hash(const token_list *parts, size_t from, size_t to)
{
    uint64_t h = VOCAB_HASH_INIT;
    for (size_t i = from; i < to; i++) {
        if (i > from)
            h = vocab_hash_step(h, ' ');
        const unsigned char *p = (const unsigned char *)token_at(parts, i);
        for (size_t k = 0; k < parts->len[i]; k++)
            h = vocab_hash_step(h, p[k]);
    }
    return (uint32_t)vocab_hash_final(h);
}

/* keys = the match keys of parts: their stems, or the parts. */
static int make_keys(stemmer *st, const token_list *parts, token_list *keys)
{
    token_list_clear(keys);
    for (size_t i = 0; i < parts->n; i++) {
        const char *k = token_at(parts, i);
        size_t n = parts->len[i];
        if (st && stemmer_stem(st, k, n, &k, &n) < 0)
            return -1;
        if (token_list_push(keys, k, n) < 0)
            return -1;
    }
    return 0;
}

/* Indexes one spelling of a term of descriptor c: 0 when it has no
   word, 1 when indexed (or already there), -1 when out of memory. */
static int add_form(concept_index *ci, const char *term, uint32_t c, uint32_t flags)
{
    if (term_parts(term, strlen(term), &ci->words, &ci->parts) < 0)
        return -1;
    if (ci->parts.n == 0)
        return 0;
    uint32_t form = form_hash(&ci->parts, 0, ci->parts.n);
    if (flags & SENSE_CASED) {
        static const tok_options cased = {.kind = TOKENIZER_DEFAULT, .keep_case = true};
        token_list_clear(&ci->keys);
        if (tokenize(&cased, term, strlen(term), &ci->words) < 0)
            return -1;
        form = form_hash(&ci->words, 0, ci->words.n);
    }
    if (make_keys(ci->stem ? ci->stemmer : NULL, &ci->parts, &ci->keys) < 0)
        return -1;
    long node = term_trie_insert(ci->terms, &ci->keys);
    if (node < 0)
        return -1;
    const uint32_t *vals;
    size_t nv = term_trie_values(ci->terms, (uint32_t)node, &vals);
    for (size_t k = 0; k < nv; k++) {
        const sense *o = &ci->sense[vals[k]];
        if (o->concept == c && o->form == form && o->flags == flags)
            return 1;
    }
    if (ARRAY_RESERVE(ci->sense, ci->sense_cap, ci->nsense + 1) < 0 ||
        term_trie_push(ci->terms, (uint32_t)node, (uint32_t)ci->nsense) < 0)
        return -1;
    ci->sense[ci->nsense++] = (sense){c, form, flags};
    ci->stats.terms++;
    return 1;
}

/* Adds term (and its uninverted form) for descriptor c; 0 when it has no
   word, -1 when out of memory. */
static int add_term(concept_index *ci, const char *term, uint32_t c, uint32_t flags)
{
    int rc = add_form(ci, term, c, flags);
    if (rc <= 0)
        return rc;
    char buf[1024];
    if (mesh_uninvert(term, buf, sizeof buf) && add_form(ci, buf, c, flags) < 0)
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
        int rc = add_term(ci, e->term, (uint32_t)d, 0);
        if (rc < 0)
            return tells_error_nomem(err, ci->source, e->line);
        if (rc == 0)
            return tells_error_set(err, ci->source, e->line,
                                   "term '%s' has no words", e->term);
    }
    ci->stats.descriptors = nd;
    ci->stats.tree_numbers = m->n;
    return 0;
}

/* ---- entry terms ---- */

typedef struct terms_ctx {
    concept_index *ci;
    unsigned char *unknown;  /* descriptor ids seen that the tree lacks */
    vocab *missing;
} terms_ctx;

/* How an entry term that is an abbreviation (tagged ABB or ACR, or
   written in capitals) links: never through a stem ("AIDS" is not "aid"),
   and when it has at most three characters ("LET", "AID", "TAN": ordinary
   words in lowercase) only where the text has its capitals. */
static uint32_t abbreviation_flags(const entry_term *t)
{
    if (t->record_preferred)
        return 0;
    bool abb = strcmp(t->tag, "ABB") == 0 || strcmp(t->tag, "ACR") == 0;
    bool upper = false, lower = false;
    size_t n = strlen(t->term);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)t->term[i];
        lower |= ch >= 'a' && ch <= 'z';
        upper |= ch >= 'A' && ch <= 'Z';
    }
    if (!abb && (lower || !upper))
        return 0;
    return n <= 3 ? SENSE_CASED : SENSE_EXACT;
}

static int term_row(void *ctx, const entry_term *t, const line_reader *r,
                    tells_error *err)
{
    terms_ctx *tc = ctx;
    concept_index *ci = tc->ci;
    ci->stats.term_rows++;
    long d = concept_find_ui(ci, t->ui);
    if (d < 0) {
        ci->stats.unknown_rows++;
        size_t before = vocab_size(tc->missing);
        if (vocab_intern(tc->missing, t->ui, strlen(t->ui)) < 0)
            return tells_error_nomem(err, r->name, r->lineno);
        ci->stats.unknown_descriptors += vocab_size(tc->missing) > before;
        return 0;
    }
    if (strcmp(t->name, concept_term(ci, (uint32_t)d)) != 0)
        return tells_error_set(err, r->name, r->lineno,
                               "descriptor %s is '%s' in %s, not '%s' (another MeSH "
                               "version?)", t->ui, concept_term(ci, (uint32_t)d),
                               ci->source, t->name);
    if (t->permuted && strchr(t->term, ',')) {
        ci->stats.permuted_skipped++;
        return 0;
    }
    uint32_t flags = abbreviation_flags(t);
    int rc = flags ? add_form(ci, t->term, (uint32_t)d, flags)
                   : add_term(ci, t->term, (uint32_t)d, 0);
    if (rc < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (rc == 0)
        return tells_error_set(err, r->name, r->lineno, "term '%s' has no words",
                               t->term);
    ci->stats.abbreviations += flags == SENSE_CASED;
    return 0;
}

static int load_terms(concept_index *ci, const char *path, tells_error *err)
{
    terms_ctx tc = {.ci = ci, .missing = vocab_new()};
    if (!tc.missing)
        return tells_error_nomem(err, display_name(path), 0);
    long rows = entry_terms_read(path, term_row, &tc, err);
    vocab_free(tc.missing);
    if (rows == 0)
        return tells_error_set(err, display_name(path), 0, "no entry terms");
    return rows < 0 ? -1 : 0;
}

static void count_keys(concept_index *ci)
{
    size_t n = term_trie_nodes(ci->terms);
    for (size_t node = 1; node < n; node++) {
        const uint32_t *vals;
        size_t nv = term_trie_values(ci->terms, (uint32_t)node, &vals);
        if (nv == 0)
            continue;
        ci->stats.keys++;
        for (size_t k = 1; k < nv; k++)
            if (ci->sense[vals[k]].concept != ci->sense[vals[0]].concept) {
                ci->stats.ambiguous_keys++;
                break;
            }
    }
}

concept_index *concept_index_open(const char *mesh_path, const concept_options *o,
                                  tells_error *err)
{
    concept_index *ci = calloc(1, sizeof *ci);
    if (!ci) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    ci->stem = o && o->stem;
    token_list_init(&ci->words);
    token_list_init(&ci->parts);
    token_list_init(&ci->keys);
    if (mesh_tree_load(mesh_path, &ci->tree, err) < 0) {
        concept_index_free(ci);
        return NULL;
    }
    ci->source = strdup(display_name(mesh_path));
    ci->uis = vocab_new();
    ci->trees = vocab_new();
    ci->terms = term_trie_new();
    if (ci->stem)
        ci->stemmer = stemmer_new();
    if (!ci->source || !ci->uis || !ci->trees || !ci->terms || (ci->stem && !ci->stemmer)) {
        tells_error_nomem(err, display_name(mesh_path), 0);
        concept_index_free(ci);
        return NULL;
    }
    if (index_entries(ci, err) < 0 || (o && o->terms && load_terms(ci, o->terms, err) < 0)) {
        concept_index_free(ci);
        return NULL;
    }
    count_keys(ci);
    /* The loaders' scratch space is not needed any more. */
    token_list_free(&ci->words);
    token_list_free(&ci->parts);
    token_list_free(&ci->keys);
    stemmer_free(ci->stemmer);
    ci->stemmer = NULL;
    return ci;
}

concept_index *concept_index_load(const char *mesh_path, tells_error *err)
{
    return concept_index_open(mesh_path, NULL, err);
}

const concept_stats *concept_index_stats(const concept_index *ci)
{
    return &ci->stats;
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
        (before = line_seen_add(&sc->seen, sc->key, key_len, r->lineno)) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (before > 0)
        return tells_error_set(err, r->name, r->lineno,
                               "term '%s' already given on line %ld", term,
                               before);
    if (add_form(ci, term, (uint32_t)d, 0) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    return 0;
}

int concept_index_add_synonyms(concept_index *ci, const char *path,
                               tells_error *err)
{
    static const char *const names[] = {"term", "descriptor"};
    synonym_ctx sc = {.ci = ci};
    if (ci->stem && !(ci->stemmer = stemmer_new()))
        return tells_error_nomem(err, display_name(path), 0);
    long rc = line_seen_init(&sc.seen) < 0
        ? tells_error_nomem(err, display_name(path), 0)
        : lexicon_read(path, 2, names, synonym_row, &sc, err);
    free(sc.key);
    line_seen_free(&sc.seen);
    token_list_free(&ci->words);
    token_list_free(&ci->parts);
    token_list_free(&ci->keys);
    stemmer_free(ci->stemmer);
    ci->stemmer = NULL;
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

/* ---- linking ---- */

void concept_hits_init(concept_hits *h)
{
    memset(h, 0, sizeof *h);
}

void concept_hits_free(concept_hits *h)
{
    free(h->v);
    term_hits_free(&h->raw);
    token_list_free(&h->words);
    token_list_free(&h->cased);
    token_list_free(&h->lower);
    token_list_free(&h->keys);
    stemmer_free(h->stemmer);
    memset(h, 0, sizeof *h);
}

/* Whether sense s may link text parts [i, j) (cased: as written, lower:
   lowercased). */
static bool admissible(const sense *s, const token_list *cased, const token_list *lower,
                       size_t i, size_t j)
{
    if (s->flags & SENSE_CASED)
        return form_hash(cased, i, j) == s->form;
    if (s->flags & SENSE_EXACT)
        return form_hash(lower, i, j) == s->form;
    return true;
}

static bool node_admits(const concept_index *ci, uint32_t node, const token_list *cased,
                        const token_list *lower, size_t i, size_t j)
{
    const uint32_t *vals;
    size_t nv = term_trie_values(ci->terms, node, &vals);
    for (size_t k = 0; k < nv; k++)
        if (admissible(&ci->sense[vals[k]], cased, lower, i, j))
            return true;
    return false;
}

static int push_hit(concept_hits *out, uint32_t c, size_t i, size_t j)
{
    for (size_t k = out->n; k-- > 0 && out->v[k].start == i;)
        if (out->v[k].concept == c)
            return 0;
    if (ARRAY_RESERVE(out->v, out->cap, out->n + 1) < 0)
        return -1;
    out->v[out->n++] = (concept_hit){c, (uint32_t)i, (uint32_t)j};
    return 0;
}

/* The descriptors of the match [i, j) at node: when the senses name
   several, those spelled as the text if any. */
static int emit(const concept_index *ci, uint32_t node, const token_list *cased,
                const token_list *lower, size_t i, size_t j, concept_hits *out)
{
    const uint32_t *vals;
    size_t nv = term_trie_values(ci->terms, node, &vals);
    bool several = false, spelled = false;
    uint32_t text_form = 0;
    for (size_t k = 1; k < nv && !several; k++)
        several = ci->sense[vals[k]].concept != ci->sense[vals[0]].concept;
    if (several) {
        text_form = form_hash(lower, i, j);
        for (size_t k = 0; k < nv && !spelled; k++) {
            const sense *s = &ci->sense[vals[k]];
            spelled = !(s->flags & SENSE_CASED) && s->form == text_form;
        }
    }
    for (size_t k = 0; k < nv; k++) {
        const sense *s = &ci->sense[vals[k]];
        if (!admissible(s, cased, lower, i, j))
            continue;
        if (spelled && ((s->flags & SENSE_CASED) || s->form != text_form))
            continue;
        if (push_hit(out, s->concept, i, j) < 0)
            return -1;
    }
    return 0;
}

/* Lowercases every part of cased into lower, as the tokenizer does. */
static int lowercase_parts(const token_list *cased, token_list *scratch, token_list *lower)
{
    static const tok_options ws = {.kind = TOKENIZER_WHITESPACE};
    token_list_clear(lower);
    for (size_t i = 0; i < cased->n; i++) {
        if (tokenize(&ws, token_at(cased, i), cased->len[i], scratch) < 0)
            return -1;
        if (scratch->n == 1 ? token_list_push(lower, token_at(scratch, 0), scratch->len[0])
                            : token_list_push(lower, token_at(cased, i), cased->len[i]))
            return -1;
    }
    return 0;
}

static int link_parts(const concept_index *ci, const token_list *cased,
                      const token_list *lower, concept_hits *out)
{
    out->n = 0;
    if (ci->stem && !out->stemmer && !(out->stemmer = stemmer_new()))
        return -1;
    if (make_keys(ci->stem ? out->stemmer : NULL, lower, &out->keys) < 0)
        return -1;
    const token_list *keys = &out->keys;
    size_t i = 0;
    while (i < keys->n) {
        size_t best = 0;
        uint32_t node = 0, best_node = 0;
        for (size_t j = i; j < keys->n; j++) {
            long child = term_trie_child(ci->terms, node, token_at(keys, j), keys->len[j]);
            if (child < 0)
                break;
            node = (uint32_t)child;
            if (node_admits(ci, node, cased, lower, i, j + 1)) {
                best = j + 1;
                best_node = node;
            }
        }
        if (best == 0) {
            i++;
            continue;
        }
        if (emit(ci, best_node, cased, lower, i, best, out) < 0)
            return -1;
        i = best;
    }
    return 0;
}

int concept_link(const concept_index *ci, const token_list *parts,
                 concept_hits *out)
{
    token_list_clear(&out->cased);
    for (size_t i = 0; i < parts->n; i++)
        if (token_list_push(&out->cased, token_at(parts, i), parts->len[i]) < 0)
            return -1;
    if (lowercase_parts(&out->cased, &out->words, &out->lower) < 0)
        return -1;
    return link_parts(ci, &out->cased, &out->lower, out);
}

int concept_link_text(const concept_index *ci, const char *text, size_t len,
                      concept_hits *out)
{
    static const tok_options ws_cased = {.kind = TOKENIZER_WHITESPACE, .keep_case = true};
    if (tokenize(&ws_cased, text, len, &out->words) < 0 ||
        split_merged(&out->words, &out->cased) < 0 ||
        lowercase_parts(&out->cased, &out->words, &out->lower) < 0)
        return -1;
    return link_parts(ci, &out->cased, &out->lower, out);
}

void concept_hits_write(FILE *fp, const concept_index *ci, const concept_hits *h,
                        const char *id, const char *field)
{
    for (size_t i = 0; i < h->n; i++) {
        const concept_hit *c = &h->v[i];
        fprintf(fp, "%s\t%s\t%u\t%u\t", id, field, c->start, c->end);
        for (uint32_t k = c->start; k < c->end; k++) {
            if (k > c->start)
                fputc(' ', fp);
            fwrite(token_at(&h->cased, k), 1, h->cased.len[k], fp);
        }
        fprintf(fp, "\t%s\t%s\t", concept_ui(ci, c->concept), concept_term(ci, c->concept));
        size_t nt = concept_ntrees(ci, c->concept);
        for (size_t k = 0; k < nt; k++)
            fprintf(fp, "%s%s", k ? "," : "", concept_tree(ci, c->concept, k));
        fputc('\n', fp);
    }
}
