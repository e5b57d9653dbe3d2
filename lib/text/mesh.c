#include <config.h>
#include "text/mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/vocab.h"

void mesh_tree_free(mesh_tree *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->v[i].tree);  /* one allocation holds all three strings */
    free(m->v);
    m->v = NULL;
    m->n = 0;
}

bool mesh_valid_tree_number(const char *s)
{
    if (!(s[0] >= 'A' && s[0] <= 'Z'))
        return 0;
    size_t i = 1, digits = 0;
    for (; s[i]; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.' && digits > 0 && s[i + 1])
            digits = 0;
        else
            return 0;
    }
    return digits > 0;
}

bool mesh_valid_tree_prefix(const char *s)
{
    return (s[0] >= 'A' && s[0] <= 'Z' && s[1] == '\0') ||
           mesh_valid_tree_number(s);
}

bool mesh_tree_ancestor(const char *anc, const char *desc)
{
    size_t n = strlen(anc);
    return strncmp(anc, desc, n) == 0 && desc[n] == '.';
}

bool mesh_tree_under(const char *tree, const char *prefix)
{
    if (prefix[1] == '\0')
        return tree[0] == prefix[0];
    return strcmp(tree, prefix) == 0 || mesh_tree_ancestor(prefix, tree);
}

/* ---- lexicon files ---- */

long lexicon_read(const char *path, size_t ncols, const char *const *names,
                  lexicon_row row, void *ctx, tells_error *err)
{
    line_reader r;
    if (ncols > 4)
        return tells_error_usage(err, "a lexicon file has at most 4 columns, not %zu",
                                 ncols);
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *field[5];
    char *line;
    size_t len;
    long rows = 0;
    int rc;
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        if (r.lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            line += 3;
            len -= 3;
        }
        if (len == 0 || line[0] == '#')
            continue;
        if ((rc = text_line_check(line, len, r.name, r.lineno, err)) < 0)
            break;
        if (ncols == 0) {
            field[0] = line;
        } else {
            size_t n = tab_split(line, len, field, NULL, ncols + 1);
            if (n != ncols) {
                char what[256] = "";
                for (size_t k = 0; k < ncols; k++)
                    snprintf(what + strlen(what), sizeof what - strlen(what),
                             "%s%s", k ? ", " : "", names[k]);
                rc = tab_columns_error(err, r.name, r.lineno, ncols, n, what);
                break;
            }
        }
        size_t k = 0;
        while (k < ncols && field[k][0] != '\0')
            k++;
        if (k < ncols) {
            rc = tells_error_set(err, r.name, r.lineno, "empty %s", names[k]);
            break;
        }
        if ((rc = row(ctx, field, &r, err)) < 0)
            break;
        rows++;
    }
    line_reader_close(&r);
    return rc < 0 ? -1 : rows;
}

int line_seen_init(line_seen *s)
{
    memset(s, 0, sizeof *s);
    s->keys = vocab_new();
    return s->keys ? 0 : -1;
}

void line_seen_free(line_seen *s)
{
    vocab_free(s->keys);
    free(s->line);
    memset(s, 0, sizeof *s);
}

long line_seen_add(line_seen *s, const char *key, size_t len, long line)
{
    size_t before = vocab_size(s->keys);
    long id = vocab_intern(s->keys, key, len);
    if (id < 0)
        return -1;
    if (vocab_size(s->keys) == before)
        return s->line[id];
    if (ARRAY_RESERVE(s->line, s->cap, (size_t)id + 1) < 0)
        return -1;
    s->line[id] = line;
    return 0;
}

/* ---- the tree file ---- */

typedef struct load_ctx {
    mesh_tree *m;
    size_t cap;
    line_seen trees;
} load_ctx;

static int add_entry(mesh_tree *m, size_t *cap, char *const field[3], long line)
{
    if (ARRAY_RESERVE(m->v, *cap, m->n + 1) < 0)
        return -1;
    size_t l0 = strlen(field[0]) + 1, l1 = strlen(field[1]) + 1,
           l2 = strlen(field[2]) + 1;
    char *p = malloc(l0 + l1 + l2);
    if (!p)
        return -1;
    mesh_entry *e = &m->v[m->n++];
    e->tree = memcpy(p, field[0], l0);
    e->ui = memcpy(p + l0, field[1], l1);
    e->term = memcpy(p + l0 + l1, field[2], l2);
    e->line = line;
    return 0;
}

static int tree_row(void *ctx, char **field, const line_reader *r,
                    tells_error *err)
{
    load_ctx *lc = ctx;
    if (r->lineno == 1 && strcmp(field[0], "Tree Number") == 0)
        return 0;  /* the header */
    if (!mesh_valid_tree_number(field[0]))
        return tells_error_set(err, r->name, r->lineno,
                               "malformed tree number '%s'", field[0]);
    long before = line_seen_add(&lc->trees, field[0], strlen(field[0]), r->lineno);
    if (before > 0)
        return tells_error_set(err, r->name, r->lineno,
                               "tree number %s already given on line %ld",
                               field[0], before);
    if (before < 0 || add_entry(lc->m, &lc->cap, field, r->lineno) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    return 0;
}

int mesh_tree_load(const char *path, mesh_tree *out, tells_error *err)
{
    static const char *const names[] = {"tree number", "descriptor", "term"};
    memset(out, 0, sizeof *out);
    load_ctx lc = {.m = out};
    int rc = line_seen_init(&lc.trees) < 0
        ? tells_error_nomem(err, display_name(path), 0)
        : lexicon_read(path, 3, names, tree_row, &lc, err) < 0 ? -1 : 0;
    if (rc == 0 && out->n == 0)
        rc = tells_error_set(err, display_name(path), 0, "no MeSH entries");
    line_seen_free(&lc.trees);
    if (rc < 0) {
        mesh_tree_free(out);
        return -1;
    }
    return 0;
}

/* Only for exactly one comma, where the inversion is unambiguous. */
bool mesh_uninvert(const char *term, char *buf, size_t size)
{
    const char *comma = strchr(term, ',');
    if (!comma || strchr(comma + 1, ',') || comma[1] != ' ' || !comma[2])
        return false;
    int n = snprintf(buf, size, "%s %.*s", comma + 2, (int)(comma - term), term);
    return n > 0 && (size_t)n < size;
}

int mesh_tree_add_terms(const mesh_tree *m, phrase_set *ps,
                        const tok_options *opt)
{
    token_list toks;
    token_list_init(&toks);
    char buf[1024];
    int rc = 0;
    for (size_t i = 0; i < m->n && rc == 0; i++) {
        const char *term = m->v[i].term;
        if (tokenize(opt, term, strlen(term), &toks) < 0 ||
            phrase_set_add(ps, &toks) < 0)
            rc = -1;
        else if (mesh_uninvert(term, buf, sizeof buf) &&
                 (tokenize(opt, buf, strlen(buf), &toks) < 0 ||
                  phrase_set_add(ps, &toks) < 0))
            rc = -1;
    }
    token_list_free(&toks);
    return rc;
}
