#include <config.h>
#include "analysis/heuristics.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    char **v = realloc(side->prefix, (side->nprefix + 1) * sizeof *v);
    if (!v)
        return -1;
    side->prefix = v;
    if (!(v[side->nprefix] = strdup(p)))
        return -1;
    side->nprefix++;
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
    cue_list *v = realloc(hs->cue, (hs->ncue + 1) * sizeof *v);
    if (!v)
        return tells_error_nomem(err, NULL, 0);
    hs->cue = v;
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
    stop_list *v = realloc(hs->stop, (hs->nstop + 1) * sizeof *v);
    if (!v)
        return tells_error_nomem(err, NULL, 0);
    hs->stop = v;
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
    heuristic *v = realloc(hs->v, (hs->n + 1) * sizeof *v);
    if (!v) {
        heuristic_free(h);
        return tells_error_nomem(err, NULL, 0);
    }
    hs->v = v;
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
        size_t *v = realloc(side->cue, (side->ncue + 1) * sizeof *v);
        if (!v)
            return tells_error_nomem(err, r->name, r->lineno);
        side->cue = v;
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
                      size_t len)
{
    if (text_parts(text, len, &t->words, &t->parts) < 0 ||
        concept_link(hs->ci, &t->parts, &t->hits) < 0)
        return -1;
    if (t->cap < t->hits.n) {
        uint32_t *c = realloc(t->concepts, t->hits.n * sizeof *c);
        if (!c)
            return -1;
        t->concepts = c;
        t->cap = t->hits.n;
    }
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
        term_hits *v = realloc(t->cues, hs->ncue * sizeof *v);
        if (!v)
            return -1;
        memset(v + t->ncues, 0, (hs->ncue - t->ncues) * sizeof *v);
        t->cues = v;
        t->ncues = hs->ncue;
    }
    for (size_t i = 0; i < hs->ncue; i++)
        if (term_trie_scan(hs->cue[i].trie, &t->parts, &t->cues[i]) < 0)
            return -1;
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
    if (w->nitem[s] == w->cap[s]) {
        size_t cap = w->cap[s] ? w->cap[s] * 2 : 8;
        heur_item *v = realloc(w->item[s], cap * sizeof *v);
        if (!v)
            return -1;
        w->item[s] = v;
        w->cap[s] = cap;
    }
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
                    const heur_text *hypothesis, heur_witness *w)
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
    return rc;
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

void heur_witness_write(FILE *fp, const heuristic_set *hs, size_t hi,
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

/* ---- counting and testing ---- */

int heur_tally_init(heur_tally *t, size_t nheur)
{
    memset(t, 0, sizeof *t);
    t->nheur = nheur;
    t->classes = vocab_new();
    return t->classes ? 0 : -1;
}

void heur_tally_free(heur_tally *t)
{
    vocab_free(t->classes);
    free(t->rows);
    free(t->count);
    memset(t, 0, sizeof *t);
}

int heur_tally_add(heur_tally *t, const char *label, size_t len,
                   const bool *holds)
{
    long c = vocab_intern(t->classes, label, len);
    if (c < 0)
        return -1;
    if ((size_t)c >= t->class_cap) {
        size_t cap = t->class_cap ? t->class_cap * 2 : 8;
        uint64_t *rows = realloc(t->rows, cap * sizeof *rows);
        if (rows)
            t->rows = rows;
        uint64_t *count = realloc(t->count, cap * (t->nheur ? t->nheur : 1) *
                                                sizeof *count);
        if (count)
            t->count = count;
        if (!rows || !count)
            return -1;
        memset(t->rows + t->class_cap, 0, (cap - t->class_cap) * sizeof *rows);
        memset(t->count + t->class_cap * t->nheur, 0,
               (cap - t->class_cap) * t->nheur * sizeof *count);
        t->class_cap = cap;
    }
    t->rows[c]++;
    for (size_t h = 0; h < t->nheur; h++)
        t->count[(size_t)c * t->nheur + h] += holds[h];
    return 0;
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

int heur_test(const heur_tally *t, size_t h, heur_expect e, heur_result *r)
{
    memset(r, 0, sizeof *r);
    size_t k = vocab_size(t->classes);
    size_t *order = vocab_sorted_ids(t->classes);
    double *obs = malloc((k ? k : 1) * sizeof *obs);
    double *share = malloc((k ? k : 1) * sizeof *share);
    if (!order || !obs || !share) {
        free(order);
        free(obs);
        free(share);
        return -1;
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
    int rc = r->tested ? chisq_gof(obs, share, k, &r->test) : 0;
    free(order);
    free(obs);
    free(share);
    return rc;
}

int heur_table_write(FILE *fp, const heuristic_set *hs, const heur_tally *t,
                     heur_expect e, int digits)
{
    size_t k = vocab_size(t->classes);
    size_t *order = vocab_sorted_ids(t->classes);
    if (!order)
        return -1;
    fputs("heuristic\tn\tchi2\tdf\tp_value\ttop_class\ttop_share", fp);
    for (size_t i = 0; i < k; i++)
        fprintf(fp, "\t%s", vocab_str(t->classes, order[i]));
    fputc('\n', fp);
    int rc = 0;
    for (size_t h = 0; h < t->nheur && rc == 0; h++) {
        heur_result r;
        if (heur_test(t, h, e, &r) < 0) {
            rc = -1;
            break;
        }
        fprintf(fp, "%s\t%" PRIu64, hs->v[h].name, r.n);
        if (r.tested) {
            char p[64];
            pvalue_format(r.test.p, digits, p, sizeof p);
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
    return rc < 0 || ferror(fp) ? -1 : 0;
}
