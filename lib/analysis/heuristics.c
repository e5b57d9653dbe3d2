#include <config.h>
#include "analysis/heuristics.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "stats/chisq.h"

void heuristic_set_init(heuristic_set *hs, const concept_index *ci)
{
    memset(hs, 0, sizeof *hs);
    hs->ci = ci;
    hs->general = true;
}

static void heuristic_free(heuristic *h)
{
    free(h->name);
    free(h->description);
    free(h->source);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < h->side[s].nprefix; i++)
            free(h->side[s].prefix[i]);
        free(h->side[s].prefix);
        free(h->side[s].cue);
    }
    memset(h, 0, sizeof *h);
}

void heuristic_set_free(heuristic_set *hs)
{
    for (size_t i = 0; i < hs->n; i++)
        heuristic_free(&hs->v[i]);
    free(hs->v);
    for (size_t i = 0; i < hs->ncue; i++) {
        free(hs->cue[i].path);
        term_trie_free(hs->cue[i].trie);
    }
    free(hs->cue);
    for (size_t i = 0; i < hs->nstop; i++) {
        free(hs->stop[i].path);
        free(hs->stop[i].stopped);
    }
    free(hs->stop);
    concept_index_free(hs->own_ci);
    memset(hs, 0, sizeof *hs);
}

const char *heur_relation_name(heur_relation r)
{
    static const char *const names[] = {"none", "hypernym", "ancestor",
                                        "descendant", "same"};
    return names[r];
}

/* A file named in a definition: relative to the definition's folder. */
static char *resolve(const char *def_path, const char *name)
{
    const char *slash = strrchr(def_path, '/');
    if (name[0] == '/' || !slash)
        return strdup(name);
    size_t dl = (size_t)(slash - def_path) + 1, nl = strlen(name) + 1;
    char *p = malloc(dl + nl);
    if (p) {
        memcpy(p, def_path, dl);
        memcpy(p + dl, name, nl);
    }
    return p;
}

/* ---- the lists a definition names ---- */

typedef struct list_ctx {
    const heuristic_set *hs;
    term_trie *trie;           /* cues */
    unsigned char *stopped;    /* stop list */
    heur_side *side;           /* prefixes */
    line_seen seen;
    token_list words, parts;
} list_ctx;

static int cue_row(void *ctx, char **field, const line_reader *r,
                   tells_error *err)
{
    list_ctx *lc = ctx;
    if (term_parts(field[0], strlen(field[0]), &lc->words, &lc->parts) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (lc->parts.n == 0)
        return tells_error_set(err, r->name, r->lineno, "cue '%s' has no words",
                               field[0]);
    uint32_t before;
    if (term_trie_add(lc->trie, &lc->parts, (uint32_t)r->lineno, &before) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (before != UINT32_MAX)
        return tells_error_set(err, r->name, r->lineno,
                               "cue '%s' already given on line %u", field[0],
                               before);
    return 0;
}

/* The descriptor of a list entry must carry the tree file's term, so
   that a list states what it means and a typo cannot pass unnoticed. */
static int check_term(const list_ctx *lc, uint32_t c, const char *term,
                      const char *key, const line_reader *r, tells_error *err)
{
    const char *want = concept_term(lc->hs->ci, c);
    if (strcmp(want, term) != 0)
        return tells_error_set(err, r->name, r->lineno,
                               "%s is '%s' in %s, not '%s'", key, want,
                               concept_index_source(lc->hs->ci), term);
    return 0;
}

static int stop_row(void *ctx, char **field, const line_reader *r,
                    tells_error *err)
{
    list_ctx *lc = ctx;
    const char *ui = field[0];
    long c = concept_find_ui(lc->hs->ci, ui);
    if (c < 0)
        return tells_error_set(err, r->name, r->lineno,
                               "unknown descriptor '%s' (not in %s)", ui,
                               concept_index_source(lc->hs->ci));
    if (check_term(lc, (uint32_t)c, field[1], ui, r, err) < 0)
        return -1;
    long before = line_seen_add(&lc->seen, ui, strlen(ui), r->lineno);
    if (before < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (before > 0)
        return tells_error_set(err, r->name, r->lineno,
                               "descriptor %s already given on line %ld", ui,
                               before);
    lc->stopped[c] = 1;
    return 0;
}

/* A tree prefix: well formed, and a tree number must be in the tree
   file. */
static int check_prefix(const heuristic_set *hs, const char *p, long *c,
                        const char *file, long line, tells_error *err)
{
    *c = -1;
    if (!mesh_valid_tree_prefix(p))
        return tells_error_set(err, file, line, "malformed tree prefix '%s'", p);
    if (p[1] && (*c = concept_find_tree(hs->ci, p)) < 0)
        return tells_error_set(err, file, line, "tree number %s is not in %s", p,
                               concept_index_source(hs->ci));
    return 0;
}

static int push_prefix(heur_side *side, const char *p)
{
    char *copy = strdup(p);
    if (!copy || ARRAY_RESERVE(side->prefix, side->prefix_cap, side->nprefix + 1) < 0) {
        free(copy);
        return -1;
    }
    side->prefix[side->nprefix++] = copy;
    return 0;
}

static int prefix_row(void *ctx, char **field, const line_reader *r,
                      tells_error *err)
{
    list_ctx *lc = ctx;
    const char *p = field[0];
    long c;
    if (check_prefix(lc->hs, p, &c, r->name, r->lineno, err) < 0)
        return -1;
    if (c >= 0 && check_term(lc, (uint32_t)c, field[1], p, r, err) < 0)
        return -1;
    long before = line_seen_add(&lc->seen, p, strlen(p), r->lineno);
    if (before < 0 || (before == 0 && push_prefix(lc->side, p) < 0))
        return tells_error_nomem(err, r->name, r->lineno);
    if (before > 0)
        return tells_error_set(err, r->name, r->lineno,
                               "prefix %s already given on line %ld", p, before);
    return 0;
}

enum { LIST_CUE, LIST_STOP, LIST_PREFIX };

/* Reads a list file of the kind given into the context's target. */
static int read_list(const heuristic_set *hs, int kind, const char *path,
                     list_ctx *lc, tells_error *err)
{
    static const char *const cue_names[] = {"cue phrase"};
    static const char *const stop_names[] = {"descriptor", "term"};
    static const char *const prefix_names[] = {"tree prefix", "term"};
    static const char *const what[] = {"cues", "descriptors", "prefixes"};
    lc->hs = hs;
    token_list_init(&lc->words);
    token_list_init(&lc->parts);
    long rows = -1;
    if (line_seen_init(&lc->seen) < 0)
        tells_error_nomem(err, display_name(path), 0);
    else if (kind == LIST_CUE)
        rows = lexicon_read(path, 1, cue_names, cue_row, lc, err);
    else if (kind == LIST_STOP)
        rows = lexicon_read(path, 2, stop_names, stop_row, lc, err);
    else
        rows = lexicon_read(path, 2, prefix_names, prefix_row, lc, err);
    if (rows == 0)
        tells_error_set(err, display_name(path), 0, "no %s", what[kind]);
    line_seen_free(&lc->seen);
    token_list_free(&lc->words);
    token_list_free(&lc->parts);
    return rows > 0 ? 0 : -1;
}

/* The index of the cue list at path, loading it the first time. */
static long cue_list_get(heuristic_set *hs, const char *path, tells_error *err)
{
    for (size_t i = 0; i < hs->ncue; i++)
        if (strcmp(hs->cue[i].path, path) == 0)
            return (long)i;
    if (ARRAY_RESERVE(hs->cue, hs->cue_cap, hs->ncue + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    list_ctx lc = {.trie = term_trie_new()};
    char *p = strdup(path);
    if (!lc.trie || !p) {
        term_trie_free(lc.trie);
        free(p);
        return tells_error_nomem(err, NULL, 0);
    }
    if (read_list(hs, LIST_CUE, path, &lc, err) < 0) {
        term_trie_free(lc.trie);
        free(p);
        return -1;
    }
    hs->cue[hs->ncue] = (cue_list){p, lc.trie};
    return (long)hs->ncue++;
}

static long stop_list_get(heuristic_set *hs, const char *path, tells_error *err)
{
    for (size_t i = 0; i < hs->nstop; i++)
        if (strcmp(hs->stop[i].path, path) == 0)
            return (long)i;
    if (ARRAY_RESERVE(hs->stop, hs->stop_cap, hs->nstop + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    list_ctx lc = {.stopped = calloc(concept_count(hs->ci), 1)};
    char *p = strdup(path);
    if (!lc.stopped || !p) {
        free(lc.stopped);
        free(p);
        return tells_error_nomem(err, NULL, 0);
    }
    if (read_list(hs, LIST_STOP, path, &lc, err) < 0) {
        free(lc.stopped);
        free(p);
        return -1;
    }
    hs->stop[hs->nstop] = (stop_list){p, lc.stopped};
    return (long)hs->nstop++;
}

/* ---- definition files ---- */

enum {
    D_DESCRIPTION, D_PREMISE_TREE, D_HYPOTHESIS_TREE, D_RELATION, D_STOP,
    D_PREMISE_CUE, D_HYPOTHESIS_CUE, D_COUNT
};
static const char *const directives[D_COUNT] = {
    "description", "premise-tree", "hypothesis-tree", "relation", "stop",
    "premise-cue", "hypothesis-cue"
};

typedef struct def_ctx {
    heuristic_set *hs;
    const char *path;        /* as given, to resolve names against */
    line_seen names;         /* heuristics of this file */
    heuristic cur;
    bool open;
    unsigned given;          /* directives given for cur, as bits */
} def_ctx;

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

/* Ends the heuristic being read: checks it and puts it in the set. */
static int close_heuristic(def_ctx *dc, tells_error *err)
{
    if (!dc->open)
        return 0;
    dc->open = false;
    heuristic *h = &dc->cur;
    if (h->side[0].nprefix + h->side[1].nprefix + h->side[0].ncue +
            h->side[1].ncue == 0 && h->relation == REL_NONE) {
        tells_error_set(err, h->source, h->line, "heuristic '%s' has no condition",
                        h->name);
        heuristic_free(h);
        return -1;
    }
    heuristic_set *hs = dc->hs;
    for (size_t i = 0; i < hs->n; i++)
        if (strcmp(hs->v[i].name, h->name) == 0) {
            heuristic_free(&hs->v[i]);
            hs->v[i] = *h;
            return 0;
        }
    if (ARRAY_RESERVE(hs->v, hs->cap, hs->n + 1) < 0) {
        heuristic_free(h);
        return tells_error_nomem(err, NULL, 0);
    }
    hs->v[hs->n++] = *h;
    return 0;
}

static int open_heuristic(def_ctx *dc, const char *name, const line_reader *r,
                          tells_error *err)
{
    if (close_heuristic(dc, err) < 0)
        return -1;
    if (!valid_name(name))
        return tells_error_set(err, r->name, r->lineno,
                               "invalid heuristic name '%s' (letters, digits, "
                               "'-' and '_')", name);
    long before = line_seen_add(&dc->names, name, strlen(name), r->lineno);
    if (before < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (before > 0)
        return tells_error_set(err, r->name, r->lineno,
                               "heuristic '%s' already defined on line %ld", name,
                               before);
    memset(&dc->cur, 0, sizeof dc->cur);
    dc->cur.stop = -1;
    dc->cur.line = r->lineno;
    dc->cur.name = strdup(name);
    dc->cur.source = strdup(r->name);
    dc->open = true;
    dc->given = 0;
    if (!dc->cur.name || !dc->cur.source)
        return tells_error_nomem(err, r->name, r->lineno);
    return 0;
}

static int parse_relation(const char *s, heur_relation *r)
{
    for (int i = REL_HYPERNYM; i <= REL_SAME; i++)
        if (strcmp(s, heur_relation_name((heur_relation)i)) == 0) {
            *r = (heur_relation)i;
            return 0;
        }
    return -1;
}

/* Next whitespace-separated word of *s (modified in place), or NULL. */
static char *next_word(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return NULL;
    char *w = p;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return w;
}

static int tree_values(def_ctx *dc, heur_side *side, char *value,
                       const line_reader *r, tells_error *err)
{
    char *w;
    while ((w = next_word(&value))) {
        if (w[0] == '@') {
            char *path = resolve(dc->path, w + 1);
            list_ctx lc = {.side = side};
            int rc = path ? read_list(dc->hs, LIST_PREFIX, path, &lc, err)
                          : tells_error_nomem(err, NULL, 0);
            free(path);
            if (rc < 0)
                return -1;
            continue;
        }
        long c;
        if (check_prefix(dc->hs, w, &c, r->name, r->lineno, err) < 0)
            return -1;
        if (push_prefix(side, w) < 0)
            return tells_error_nomem(err, r->name, r->lineno);
    }
    return 0;
}

static int cue_values(def_ctx *dc, heur_side *side, char *value,
                      const line_reader *r, tells_error *err)
{
    char *w;
    while ((w = next_word(&value))) {
        char *path = resolve(dc->path, w);
        long k = path ? cue_list_get(dc->hs, path, err)
                      : tells_error_nomem(err, r->name, r->lineno);
        free(path);
        if (k < 0)
            return -1;
        if (ARRAY_RESERVE(side->cue, side->cue_cap, side->ncue + 1) < 0)
            return tells_error_nomem(err, r->name, r->lineno);
        side->cue[side->ncue++] = (size_t)k;
    }
    return 0;
}

static int def_row(void *ctx, char **field, const line_reader *r,
                   tells_error *err)
{
    def_ctx *dc = ctx;
    char *rest = field[0];
    char *directive = next_word(&rest);
    if (!directive)
        return 0;  /* a line of blanks */
    while (*rest == ' ' || *rest == '\t')
        rest++;
    size_t vl = strlen(rest);
    while (vl > 0 && (rest[vl - 1] == ' ' || rest[vl - 1] == '\t'))
        rest[--vl] = '\0';
    bool heuristic_line = strcmp(directive, "heuristic") == 0;
    int d = 0;
    while (!heuristic_line && d < D_COUNT && strcmp(directive, directives[d]) != 0)
        d++;
    if (!heuristic_line && d == D_COUNT)
        return tells_error_set(err, r->name, r->lineno,
                               "unknown directive '%s'", directive);
    if (vl == 0)
        return tells_error_set(err, r->name, r->lineno, "'%s' needs a value",
                               directive);
    if (heuristic_line) {
        if (strchr(rest, ' ') || strchr(rest, '\t'))
            return tells_error_set(err, r->name, r->lineno,
                                   "invalid heuristic name '%s' (letters, "
                                   "digits, '-' and '_')", rest);
        return open_heuristic(dc, rest, r, err);
    }
    if (!dc->open)
        return tells_error_set(err, r->name, r->lineno,
                               "'%s' before the first 'heuristic' line", directive);
    heuristic *h = &dc->cur;
    if (dc->given & 1u << d)
        return tells_error_set(err, r->name, r->lineno,
                               "'%s' given twice for heuristic '%s'", directive,
                               h->name);
    dc->given |= 1u << d;
    switch (d) {
    case D_DESCRIPTION:
        if (!(h->description = strdup(rest)))
            return tells_error_nomem(err, r->name, r->lineno);
        return 0;
    case D_PREMISE_TREE:
        return tree_values(dc, &h->side[SIDE_PREMISE], rest, r, err);
    case D_HYPOTHESIS_TREE:
        return tree_values(dc, &h->side[SIDE_HYPOTHESIS], rest, r, err);
    case D_RELATION:
        if (parse_relation(rest, &h->relation) < 0)
            return tells_error_set(err, r->name, r->lineno,
                                   "unknown relation '%s' (hypernym, ancestor, "
                                   "descendant or same)", rest);
        return 0;
    case D_STOP: {
        if (strchr(rest, ' ') || strchr(rest, '\t'))
            return tells_error_set(err, r->name, r->lineno,
                                   "'stop' takes one file");
        char *path = resolve(dc->path, rest);
        h->stop = path ? stop_list_get(dc->hs, path, err)
                       : tells_error_nomem(err, r->name, r->lineno);
        free(path);
        return h->stop < 0 ? -1 : 0;
    }
    case D_PREMISE_CUE:
        return cue_values(dc, &h->side[SIDE_PREMISE], rest, r, err);
    default:
        return cue_values(dc, &h->side[SIDE_HYPOTHESIS], rest, r, err);
    }
}

int heuristic_set_load(heuristic_set *hs, const char *path, tells_error *err)
{
    def_ctx dc = {.hs = hs, .path = path};
    if (line_seen_init(&dc.names) < 0)
        return tells_error_nomem(err, display_name(path), 0);
    /* Whole lines: a tab separates a directive from its value as a space
       does. */
    long rows = lexicon_read(path, 0, NULL, def_row, &dc, err);
    int rc = rows < 0 ? -1 : close_heuristic(&dc, err);
    if (dc.open)
        heuristic_free(&dc.cur);
    if (rc == 0 && vocab_size(dc.names.keys) == 0)
        rc = tells_error_set(err, display_name(path), 0, "no heuristics");
    line_seen_free(&dc.names);
    return rc;
}

int heuristic_set_open(heuristic_set *hs, const heur_sources *src, tells_error *err)
{
    heuristic_set_init(hs, NULL);
    hs->general = src->general;
    int rc = 0;
    if (src->mesh_in_data && src->check_data)
        rc = src->check_data(src->mesh, err);
    if (rc == 0 && src->terms && src->terms_in_data && src->check_data)
        rc = src->check_data(src->terms, err);
    concept_options co = {.terms = src->terms, .stem = src->stem};
    if (rc == 0 && !(hs->own_ci = concept_index_open(src->mesh, &co, err)))
        rc = -1;
    hs->ci = hs->own_ci;
    for (size_t i = 0; rc == 0 && i < src->nsynonyms; i++)
        rc = concept_index_add_synonyms(hs->own_ci, src->synonyms[i], err);
    if (rc == 0 && src->builtin && src->check_data)
        rc = src->check_data(src->builtin, err);
    if (rc == 0 && src->builtin)
        rc = heuristic_set_load(hs, src->builtin, err);
    for (size_t i = 0; rc == 0 && i < src->ndefinitions; i++)
        rc = heuristic_set_load(hs, src->definitions[i], err);
    if (rc < 0)
        heuristic_set_free(hs);
    return rc;
}

/* ---- one pair ---- */

void heur_text_init(heur_text *t)
{
    memset(t, 0, sizeof *t);
    token_list_init(&t->words);
    token_list_init(&t->parts);
}

void heur_text_free(heur_text *t)
{
    token_list_free(&t->words);
    token_list_free(&t->parts);
    concept_hits_free(&t->hits);
    free(t->concepts);
    for (size_t i = 0; i < t->ncues; i++)
        term_hits_free(&t->cues[i]);
    free(t->cues);
    memset(t, 0, sizeof *t);
}

int heur_text_analyse(heur_text *t, const heuristic_set *hs, const char *text,
                      size_t len, tells_error *err)
{
    if (text_parts(text, len, &t->words, &t->parts) < 0 ||
        concept_link_text(hs->ci, text, len, &t->hits) < 0 ||
        ARRAY_RESERVE(t->concepts, t->cap, t->hits.n) < 0)
        return tells_error_nomem(err, NULL, 0);
    t->nconcepts = 0;
    for (size_t i = 0; i < t->hits.n; i++) {
        uint32_t c = t->hits.v[i].concept;
        size_t k = 0;
        while (k < t->nconcepts && t->concepts[k] != c)
            k++;
        if (k == t->nconcepts)
            t->concepts[t->nconcepts++] = c;
    }
    if (t->ncues < hs->ncue) {
        term_hits *v = array_resize_zeroed(t->cues, t->ncues, hs->ncue, sizeof *v);
        if (!v)
            return tells_error_nomem(err, NULL, 0);
        t->cues = v;
        t->ncues = hs->ncue;
    }
    for (size_t i = 0; i < hs->ncue; i++)
        if (term_trie_scan(hs->cue[i].trie, &t->parts, &t->cues[i]) < 0)
            return tells_error_nomem(err, NULL, 0);
    return 0;
}

void heur_witness_free(heur_witness *w)
{
    for (int s = 0; s < 2; s++)
        free(w->item[s]);
    memset(w, 0, sizeof *w);
}

/* Adds concept c (once) to side s of w. */
static int witness_add(heur_witness *w, int s, uint32_t c, int32_t tree)
{
    for (size_t i = 0; i < w->nitem[s]; i++)
        if (w->item[s][i].concept == c)
            return 0;
    if (ARRAY_RESERVE(w->item[s], w->cap[s], w->nitem[s] + 1) < 0)
        return -1;
    w->item[s][w->nitem[s]++] = (heur_item){c, tree};
    return 0;
}

/* Whether concept c passes side s's stop list and tree prefixes; *tree
   gets the tree number that matched a prefix, or -1. */
static bool admits(const heuristic_set *hs, const heuristic *h, int s,
                   uint32_t c, int32_t *tree)
{
    *tree = -1;
    if (h->stop >= 0 && hs->stop[h->stop].stopped[c])
        return false;
    const heur_side *side = &h->side[s];
    if (side->nprefix == 0)
        return true;
    for (size_t i = 0; i < side->nprefix; i++) {
        size_t k;
        if (concept_under(hs->ci, c, side->prefix[i], &k)) {
            *tree = (int32_t)k;
            return true;
        }
    }
    return false;
}

/* Whether a tree number of anc is a proper ancestor of one of desc. */
static bool ancestor(const concept_index *ci, uint32_t anc, uint32_t desc,
                     int32_t *ta, int32_t *td)
{
    size_t na = concept_ntrees(ci, anc), nd = concept_ntrees(ci, desc);
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nd; j++)
            if (mesh_tree_ancestor(concept_tree(ci, anc, i),
                                   concept_tree(ci, desc, j))) {
                *ta = (int32_t)i;
                *td = (int32_t)j;
                return true;
            }
    return false;
}

static bool related(const heuristic_set *hs, heur_relation rel, uint32_t p,
                    uint32_t q, int32_t *tp, int32_t *tq)
{
    if (rel == REL_HYPERNYM)
        rel = hs->general ? REL_ANCESTOR : REL_DESCENDANT;
    switch (rel) {
    case REL_SAME:
        return p == q;
    case REL_ANCESTOR:
        return p != q && ancestor(hs->ci, q, p, tq, tp);
    case REL_DESCENDANT:
        return p != q && ancestor(hs->ci, p, q, tp, tq);
    default:
        return false;
    }
}

static bool has_cue(const heur_side *side, const heur_text *t)
{
    for (size_t i = 0; i < side->ncue; i++)
        if (t->cues[side->cue[i]].n > 0)
            return true;
    return false;
}

int heuristic_holds(const heuristic_set *hs, size_t hi, const heur_text *premise,
                    const heur_text *hypothesis, heur_witness *w, tells_error *err)
{
    const heuristic *h = &hs->v[hi];
    const heur_text *text[2] = {premise, hypothesis};
    heur_witness scratch = {0};
    if (!w)
        w = &scratch;
    w->nitem[0] = w->nitem[1] = 0;
    for (int s = 0; s < 2; s++)
        if (h->side[s].ncue && !has_cue(&h->side[s], text[s]))
            return 0;
    int rc = 0;
    if (h->relation == REL_NONE) {
        for (int s = 0; s < 2 && rc >= 0; s++) {
            if (h->side[s].nprefix == 0)
                continue;
            for (size_t i = 0; i < text[s]->nconcepts && rc >= 0; i++) {
                int32_t t;
                if (admits(hs, h, s, text[s]->concepts[i], &t))
                    rc = witness_add(w, s, text[s]->concepts[i], t);
            }
            if (w->nitem[s] == 0)
                break;
        }
        if (rc >= 0)
            rc = (h->side[0].nprefix == 0 || w->nitem[0] > 0) &&
                 (h->side[1].nprefix == 0 || w->nitem[1] > 0);
    } else {
        for (size_t i = 0; i < premise->nconcepts && rc >= 0; i++) {
            uint32_t p = premise->concepts[i];
            int32_t tp0, tq0;
            if (!admits(hs, h, SIDE_PREMISE, p, &tp0))
                continue;
            for (size_t j = 0; j < hypothesis->nconcepts && rc >= 0; j++) {
                uint32_t q = hypothesis->concepts[j];
                int32_t tp = tp0, tq;
                if (!admits(hs, h, SIDE_HYPOTHESIS, q, &tq0))
                    continue;
                tq = tq0;
                if (related(hs, h->relation, p, q, &tp, &tq) &&
                    (witness_add(w, SIDE_PREMISE, p, tp) < 0 ||
                     witness_add(w, SIDE_HYPOTHESIS, q, tq) < 0))
                    rc = -1;
            }
        }
        if (rc >= 0)
            rc = w->nitem[SIDE_PREMISE] > 0;
    }
    heur_witness_free(&scratch);
    return rc < 0 ? tells_error_nomem(err, NULL, 0) : rc;
}

static void write_items(FILE *fp, const concept_index *ci, const heur_item *v,
                        size_t n)
{
    if (n == 0)
        fputc('-', fp);
    for (size_t i = 0; i < n; i++) {
        fprintf(fp, "%s%s (%s", i ? "; " : "", concept_term(ci, v[i].concept),
                concept_ui(ci, v[i].concept));
        if (v[i].tree >= 0)
            fprintf(fp, " %s", concept_tree(ci, v[i].concept, (size_t)v[i].tree));
        fputc(')', fp);
    }
}

static void write_cues(FILE *fp, const heur_side *side, const heur_text *t,
                       const char *mark, size_t *written)
{
    for (size_t i = 0; i < side->ncue; i++) {
        const term_hits *hits = &t->cues[side->cue[i]];
        for (size_t k = 0; k < hits->n; k++) {
            fputs((*written)++ ? "; " : "", fp);
            fputs(mark, fp);
            for (uint32_t j = hits->v[k].start; j < hits->v[k].end; j++)
                fprintf(fp, "%s%s", j > hits->v[k].start ? " " : "",
                        token_at(&t->parts, j));
        }
    }
}

static void write_witness(FILE *fp, const heuristic_set *hs, size_t hi,
                          const heur_witness *w, const heur_text *premise,
                          const heur_text *hypothesis)
{
    const heuristic *h = &hs->v[hi];
    write_items(fp, hs->ci, w->item[SIDE_PREMISE], w->nitem[SIDE_PREMISE]);
    fputc('\t', fp);
    write_items(fp, hs->ci, w->item[SIDE_HYPOTHESIS], w->nitem[SIDE_HYPOTHESIS]);
    fputc('\t', fp);
    size_t written = 0;
    write_cues(fp, &h->side[SIDE_HYPOTHESIS], hypothesis, "", &written);
    write_cues(fp, &h->side[SIDE_PREMISE], premise, "premise: ", &written);
    if (written == 0)
        fputc('-', fp);
}

/* ---- evaluating pairs ---- */

int heur_eval_init(heur_eval *ev, const heuristic_set *hs, bool witnesses,
                   tells_error *err)
{
    memset(ev, 0, sizeof *ev);
    ev->hs = hs;
    heur_text_init(&ev->premise);
    heur_text_init(&ev->hypothesis);
    ev->holds = array_new(hs->n, sizeof *ev->holds);
    if (witnesses)
        ev->witness = array_new(hs->n, sizeof *ev->witness);
    if (!ev->holds || (witnesses && !ev->witness)) {
        heur_eval_free(ev);
        return tells_error_nomem(err, NULL, 0);
    }
    return 0;
}

void heur_eval_free(heur_eval *ev)
{
    for (size_t h = 0; ev->witness && h < ev->hs->n; h++)
        heur_witness_free(&ev->witness[h]);
    free(ev->witness);
    free(ev->holds);
    free(ev->last);
    heur_text_free(&ev->premise);
    heur_text_free(&ev->hypothesis);
    memset(ev, 0, sizeof *ev);
}

int heur_eval_pair(heur_eval *ev, const char *premise, size_t plen,
                   const char *hypothesis, size_t hlen, tells_error *err)
{
    if (!(ev->have_last && plen == ev->last_len &&
          memcmp(premise, ev->last, plen) == 0)) {
        ev->have_last = false;
        if (ARRAY_RESERVE(ev->last, ev->last_cap, plen + 1) < 0)
            return tells_error_nomem(err, NULL, 0);
        if (heur_text_analyse(&ev->premise, ev->hs, premise, plen, err) < 0)
            return -1;
        memcpy(ev->last, premise, plen);
        ev->last[plen] = '\0';
        ev->last_len = plen;
        ev->have_last = true;
    }
    if (heur_text_analyse(&ev->hypothesis, ev->hs, hypothesis, hlen, err) < 0)
        return -1;
    for (size_t h = 0; h < ev->hs->n; h++) {
        int ok = heuristic_holds(ev->hs, h, &ev->premise, &ev->hypothesis,
                                 ev->witness ? &ev->witness[h] : NULL, err);
        if (ok < 0)
            return -1;
        ev->holds[h] = ok > 0;
    }
    return 0;
}

void heur_eval_write_witness(FILE *fp, const heur_eval *ev, size_t h)
{
    write_witness(fp, ev->hs, h, &ev->witness[h], &ev->premise, &ev->hypothesis);
}

/* ---- counting and testing ---- */

int heur_tally_init(heur_tally *t, size_t nheur, tells_error *err)
{
    memset(t, 0, sizeof *t);
    t->nheur = nheur;
    t->classes = vocab_new();
    return t->classes ? 0 : tells_error_nomem(err, NULL, 0);
}

void heur_tally_free(heur_tally *t)
{
    vocab_free(t->classes);
    free(t->rows);
    free(t->count);
    memset(t, 0, sizeof *t);
}

int heur_tally_add(heur_tally *t, const char *label, size_t len,
                   const bool *holds, tells_error *err)
{
    long c = vocab_intern(t->classes, label, len);
    if (c < 0)
        return tells_error_nomem(err, NULL, 0);
    if ((size_t)c >= t->class_cap) {
        /* rows and count grow together, count by rows of nheur */
        size_t cap = array_capacity(t->class_cap, (size_t)c + 1, 8);
        uint64_t *rows = array_resize_zeroed(t->rows, t->class_cap, cap, sizeof *rows);
        if (rows)
            t->rows = rows;
        uint64_t *count = rows ? array_resize_zeroed(t->count, t->class_cap * t->nheur,
                                                     cap * t->nheur, sizeof *count)
                               : NULL;
        if (!count)
            return tells_error_nomem(err, NULL, 0);
        t->count = count;
        t->class_cap = cap;
    }
    t->rows[c]++;
    for (size_t h = 0; h < t->nheur; h++)
        t->count[(size_t)c * t->nheur + h] += holds[h];
    return 0;
}

/* The rows of one prepared TSV, into the evaluator and the tally. */
typedef struct count_ctx {
    const heur_count_options *o;
    heur_eval ev;
    heur_tally *tally;
    vocab *splits;           /* o->splits, or NULL: every row */
    uint64_t *split_rows;
} count_ctx;

static int count_pair(count_ctx *cc, const prepared_row *row, tells_error *err)
{
    if (cc->splits) {
        long s = vocab_find(cc->splits, row->field[PREP_SPLIT], row->len[PREP_SPLIT]);
        if (s < 0)
            return 0;
        cc->split_rows[s]++;
    }
    if (heur_eval_pair(&cc->ev, row->field[PREP_PREMISE], row->len[PREP_PREMISE],
                       row->field[PREP_HYPOTHESIS], row->len[PREP_HYPOTHESIS], err) < 0)
        return -1;
    const heuristic_set *hs = cc->ev.hs;
    for (size_t h = 0; cc->o->pairs && h < hs->n; h++) {
        if (!cc->ev.holds[h])
            continue;
        fprintf(cc->o->pairs, "%s\t%s\t%s\t%s\t", row->field[PREP_ID],
                row->field[PREP_SPLIT], row->field[PREP_LABEL], hs->v[h].name);
        heur_eval_write_witness(cc->o->pairs, &cc->ev, h);
        fputc('\n', cc->o->pairs);
    }
    return heur_tally_add(cc->tally, row->field[PREP_LABEL], row->len[PREP_LABEL],
                          cc->ev.holds, err);
}

static int count_file(count_ctx *cc, const char *path, tells_error *err)
{
    prepared_reader pr;
    if (prepared_open(&pr, path, false, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    while ((rc = prepared_next(&pr, &row, err)) == 1)
        if ((rc = count_pair(cc, &row, err)) < 0)
            break;
    prepared_close(&pr);
    return rc < 0 ? -1 : 0;
}

int heur_count_files(const heuristic_set *hs, char *const *files, size_t nfiles,
                     const heur_count_options *o, heur_tally *t, tells_error *err)
{
    count_ctx cc = {.o = o, .tally = t};
    int rc = heur_tally_init(t, hs->n, err);
    if (rc == 0)
        rc = heur_eval_init(&cc.ev, hs, o->pairs != NULL, err);
    if (rc == 0 && o->nsplits) {
        cc.splits = vocab_new();
        cc.split_rows = array_new(o->nsplits, sizeof *cc.split_rows);
        if (!cc.splits || !cc.split_rows)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; i < o->nsplits && rc == 0; i++)
            if (vocab_intern(cc.splits, o->splits[i], strlen(o->splits[i])) < 0)
                rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0 && o->pairs)
        fputs("id\tsplit\tlabel\theuristic\tpremise_concepts\t"
              "hypothesis_concepts\tcues\n", o->pairs);
    for (size_t i = 0; i < nfiles && rc == 0; i++)
        rc = count_file(&cc, files[i], err);
    const char *source = nfiles == 1 ? display_name(files[0]) : NULL;
    for (size_t i = 0; cc.splits && i < vocab_size(cc.splits) && rc == 0; i++)
        if (cc.split_rows[i] == 0)
            rc = tells_error_set(err, source, 0, "no examples in split '%s'",
                                 vocab_str(cc.splits, i));
    if (rc == 0 && vocab_size(t->classes) == 0)
        rc = tells_error_set(err, source, 0, "no examples in the input");
    vocab_free(cc.splits);
    free(cc.split_rows);
    heur_eval_free(&cc.ev);
    return rc;
}

int heur_expect_parse(const char *s, heur_expect *e)
{
    if (strcmp(s, "uniform") == 0)
        *e = EXPECT_UNIFORM;
    else if (strcmp(s, "class-prior") == 0)
        *e = EXPECT_CLASS_PRIOR;
    else
        return -1;
    return 0;
}

int heur_test(const heur_tally *t, size_t h, heur_expect e, heur_result *r,
              tells_error *err)
{
    memset(r, 0, sizeof *r);
    size_t k = vocab_size(t->classes);
    size_t *order = vocab_sorted_ids(t->classes);
    double *obs = array_new(k, sizeof *obs);
    double *share = array_new(k, sizeof *share);
    if (!order || !obs || !share) {
        free(order);
        free(obs);
        free(share);
        return tells_error_nomem(err, NULL, 0);
    }
    uint64_t total = 0, top = 0;
    for (size_t i = 0; i < k; i++)
        total += t->rows[order[i]];
    for (size_t i = 0; i < k; i++) {
        uint64_t n = t->count[order[i] * t->nheur + h];
        obs[i] = (double)n;
        share[i] = e == EXPECT_UNIFORM ? 1.0 / (double)k
                                       : (double)t->rows[order[i]] / (double)total;
        r->n += n;
        if (i == 0 || n > top) {
            top = n;
            r->top = order[i];
        }
    }
    if (r->n > 0)
        r->top_share = (double)top / (double)r->n;
    r->tested = r->n > 0 && k >= 2;
    /* A class's pairs are among its rows, so no class with pairs has no
       expected share: the test cannot fail. */
    int rc = r->tested ? chisq_gof(obs, share, k, &r->test, err) : 0;
    free(order);
    free(obs);
    free(share);
    return rc;
}

int heur_table_write(FILE *fp, void *table, tells_error *err)
{
    const heur_table *tb = table;
    const heur_tally *t = tb->tally;
    size_t k = vocab_size(t->classes);
    size_t *order = vocab_sorted_ids(t->classes);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    fputs("heuristic\tn\tchi2\tdf\tp_value\ttop_class\ttop_share", fp);
    for (size_t i = 0; i < k; i++)
        fprintf(fp, "\t%s", vocab_str(t->classes, order[i]));
    fputc('\n', fp);
    int rc = 0;
    for (size_t h = 0; h < t->nheur && rc == 0; h++) {
        heur_result r;
        if ((rc = heur_test(t, h, tb->expect, &r, err)) < 0)
            break;
        fprintf(fp, "%s\t%" PRIu64, tb->hs->v[h].name, r.n);
        if (r.tested) {
            char p[64];
            pvalue_format(r.test.p, tb->digits, p, sizeof p);
            fprintf(fp, "\t%.6f\t%.0f\t%s", r.test.statistic, r.test.df, p);
        } else {
            fputs("\t-\t-\t-", fp);
        }
        if (r.n > 0)
            fprintf(fp, "\t%s\t%.6f", vocab_str(t->classes, r.top), r.top_share);
        else
            fputs("\t-\t-", fp);
        for (size_t i = 0; i < k; i++)
            fprintf(fp, "\t%" PRIu64, t->count[order[i] * t->nheur + h]);
        fputc('\n', fp);
    }
    free(order);
    return rc < 0 ? -1 : out_status(fp, err);
}
