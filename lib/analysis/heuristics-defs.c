/* The heuristic set of heuristics.h: its definition files, the cue, stop
   and prefix lists they name (each list read once), and its freeing. */
#include <config.h>
#include "analysis/heuristics.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"

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
