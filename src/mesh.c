#include <config.h>
#include "mesh.h"

#include <stdlib.h>
#include <string.h>

#include "lineio.h"
#include "utf8.h"
#include "vocab.h"

void mesh_tree_free(mesh_tree *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->v[i].tree);  /* one allocation holds all three strings */
    free(m->v);
    m->v = NULL;
    m->n = 0;
}

/* Letter, two digits, then groups of ".ddd". */
static int valid_tree_number(const char *s)
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

static int split3(char *line, size_t len, char *field[3])
{
    size_t n = 0;
    field[n++] = line;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\t') {
            if (n == 3)
                return -1;
            line[i] = '\0';
            field[n++] = line + i + 1;
        }
    }
    return n == 3 ? 0 : -1;
}

static int add_entry(mesh_tree *m, size_t *cap, char *const field[3], long line)
{
    if (m->n == *cap) {
        size_t c = *cap ? *cap * 2 : 4096;
        mesh_entry *v = realloc(m->v, c * sizeof *v);
        if (!v)
            return -1;
        m->v = v;
        *cap = c;
    }
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

static int check_row(const line_reader *r, char *const field[3],
                     vocab *seen, const long *first_line_of, tells_error *err)
{
    static const char *names[3] = {"tree number", "descriptor", "term"};
    for (int k = 0; k < 3; k++)
        if (field[k][0] == '\0')
            return tells_error_set(err, r->name, r->lineno, "empty %s", names[k]);
    if (!valid_tree_number(field[0]))
        return tells_error_set(err, r->name, r->lineno,
                               "malformed tree number '%s'", field[0]);
    long before = vocab_find(seen, field[0], strlen(field[0]));
    if (before >= 0)
        return tells_error_set(err, r->name, r->lineno,
                               "tree number %s already given on line %ld",
                               field[0], first_line_of[before]);
    return 0;
}

int mesh_tree_load(const char *path, mesh_tree *out, tells_error *err)
{
    memset(out, 0, sizeof *out);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    vocab *seen = vocab_new();
    size_t cap = 0, lines_cap = 0;
    long *first_line = NULL;
    char *line;
    size_t len;
    int rc = seen ? 0 : tells_error_set(err, r.name, 0, "out of memory");
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = 0;
        if (r.lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            line += 3;
            len -= 3;
        }
        if (len == 0)
            continue;
        if (r.lineno == 1 && strncmp(line, "Tree Number\t", 12) == 0)
            continue;
        if (utf8_invalid_offset(line, len) != (size_t)-1) {
            rc = tells_error_set(err, r.name, r.lineno, "invalid UTF-8");
            break;
        }
        char *field[3];
        if (split3(line, len, field) < 0) {
            rc = tells_error_set(err, r.name, r.lineno,
                                 "expected 3 tab-separated columns "
                                 "(tree number, descriptor, term)");
            break;
        }
        if (check_row(&r, field, seen, first_line, err) < 0) {
            rc = -1;
            break;
        }
        long id = vocab_intern(seen, field[0], strlen(field[0]));
        if ((size_t)id >= lines_cap) {
            lines_cap = lines_cap ? lines_cap * 2 : 4096;
            long *fl = realloc(first_line, lines_cap * sizeof *fl);
            if (!fl) {
                rc = tells_error_set(err, r.name, r.lineno, "out of memory");
                break;
            }
            first_line = fl;
        }
        if (id < 0 || add_entry(out, &cap, field, r.lineno) < 0) {
            rc = tells_error_set(err, r.name, r.lineno, "out of memory");
            break;
        }
        first_line[id] = r.lineno;
    }
    if (rc == 0 && out->n == 0)
        rc = tells_error_set(err, r.name, 0, "no MeSH entries");
    free(first_line);
    vocab_free(seen);
    line_reader_close(&r);
    if (rc < 0) {
        mesh_tree_free(out);
        return -1;
    }
    return 0;
}

/* "Anemia, Sickle Cell" -> "Sickle Cell Anemia"; only for exactly one
   comma, where the inversion is unambiguous. */
static int uninvert(const char *term, char *buf, size_t size)
{
    const char *comma = strchr(term, ',');
    if (!comma || strchr(comma + 1, ',') || comma[1] != ' ' || !comma[2])
        return 0;
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
        else if (uninvert(term, buf, sizeof buf) &&
                 (tokenize(opt, buf, strlen(buf), &toks) < 0 ||
                  phrase_set_add(ps, &toks) < 0))
            rc = -1;
    }
    token_list_free(&toks);
    return rc;
}
