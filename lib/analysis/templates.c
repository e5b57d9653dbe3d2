#include <config.h>
#include "analysis/templates.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/csvrec.h"
#include "base/lineio.h"
#include "base/utf8.h"
#include "base/vocab.h"

const char *test_type_name(test_type t)
{
    return t == TEST_INV ? "INV" : t == TEST_DIR ? "DIR" : "MFT";
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- placeholders ---- */

/* The grammar: a placeholder is "{" ["a:"] NAME "}", NAME being
   [A-Za-z_][A-Za-z0-9_]*; braces are for nothing else. template_check
   refuses every other brace when a table is read, so that expansion
   only ever meets well-formed placeholders. */

/* ASCII whatever the locale. */
static bool name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9');
}

/* The 1-based column of byte offset at in s, in characters. */
static size_t column_of(const char *s, size_t at)
{
    size_t col = 1;
    for (size_t i = 0; i < at; i++)
        col += ((unsigned char)s[i] & 0xC0) != 0x80;
    return col;
}

/* At most 40 bytes of s[0..len) for a message, cut at a character. */
static int shown_len(const char *s, size_t len)
{
    if (len <= 40)
        return (int)len;
    len = 40;
    while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
        len--;
    return (int)len;
}

/* A syntax error at a column of a template's field: FILE:LINE:COLUMN. */
__attribute__((format(printf, 6, 7)))
static int syntax_error(tells_error *err, const char *file, long line, const char *field,
                        size_t column, const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tells_error_set(err, file, line, "%s%s%s", msg, field ? " in the " : "", field ? field : "");
    tells_error_at_column(err, (long)column);
    return -1;
}

int template_check(const char *text, const char *file, long line, const char *field,
                   tells_error *err)
{
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == '}')
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'}' without an opening '{'");
        if (text[i] != '{')
            continue;
        if (text[i + 1] == '{')
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'{{' (braces only enclose placeholders: {name} or {a:name})");
        size_t end = i + 1;
        while (text[end] && text[end] != '}' && text[end] != '{')
            end++;
        if (!text[end])
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'{' without a closing '}'");
        if (text[end] == '{') {
            /* "{a{b}}" nests; "{ade on {drug}" leaves the first open. */
            bool nested = true;
            for (size_t k = i + 1; k < end; k++)
                nested &= name_char(text[k]) || text[k] == ':';
            if (nested)
                return syntax_error(err, file, line, field, column_of(text, end),
                                    "'{' inside a placeholder");
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'{' without a closing '}'");
        }
        const char *in = text + i + 1;
        size_t len = end - i - 1;
        if (len == 0)
            return syntax_error(err, file, line, field, column_of(text, i),
                                "empty placeholder '{}'");
        const char *colon = memchr(in, ':', len);
        const char *name = in;
        if (colon) {
            if (colon - in != 1 || in[0] != 'a')
                return syntax_error(err, file, line, field, column_of(text, i + 1),
                                    "unknown prefix '%.*s:' (only {a:name}, for the article)",
                                    shown_len(in, (size_t)(colon - in)), in);
            name = colon + 1;
            if (name == text + end)
                return syntax_error(err, file, line, field, column_of(text, i),
                                    "'{a:}' without a placeholder name");
        }
        size_t nlen = (size_t)(text + end - name);
        bool ok = name_start(name[0]);
        for (size_t k = 1; ok && k < nlen; k++)
            ok = name_char(name[k]);
        if (!ok)
            return syntax_error(err, file, line, field, column_of(text, (size_t)(name - text)),
                                "bad placeholder name '%.*s' (letters, digits and '_', not "
                                "starting with a digit)",
                                shown_len(name, nlen), name);
        i = end;
    }
    return 0;
}

/* Scans a placeholder at s ('{'): sets *name, *len and *article and
   returns the length of the whole "{...}", or 0 when s does not start
   one (text that passed template_check has no other brace). */
static size_t placeholder_at(const char *s, const char **name, size_t *len,
                             bool *article)
{
    if (s[0] != '{')
        return 0;
    size_t i = 1;
    *article = false;
    if (s[1] == 'a' && s[2] == ':') {
        *article = true;
        i = 3;
    }
    size_t start = i;
    if (!name_start(s[i]))
        return 0;
    while (name_char(s[i]))
        i++;
    if (s[i] != '}')
        return 0;
    *name = s + start;
    *len = i - start;
    return i + 1;
}

/* The placeholders of the premise (may be NULL), then of the text. */
static int add_slots(template_row *t, const char *premise, const char *text)
{
    size_t cap = 0;
    const char *texts[2] = {premise, text};
    for (int i = 0; i < 2; i++)
        for (const char *p = texts[i]; p && *p; p++) {
            const char *name;
            size_t len;
            bool art;
            size_t k = placeholder_at(p, &name, &len, &art);
            if (!k)
                continue;
            bool seen = false;
            for (size_t j = 0; j < t->nslots; j++)
                if (strlen(t->slots[j]) == len && memcmp(t->slots[j], name, len) == 0)
                    seen = true;
            if (!seen) {
                if (ARRAY_RESERVE(t->slots, cap, t->nslots + 1) < 0 ||
                    !(t->slots[t->nslots] = strndup(name, len)))
                    return -1;
                t->nslots++;
            }
            p += k - 1;
        }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *template_slot_set(const template_row *t)
{
    char **sorted = malloc((t->nslots + 1) * sizeof *sorted);
    if (!sorted)
        return NULL;
    size_t total = 1;
    for (size_t k = 0; k < t->nslots; k++) {
        sorted[k] = t->slots[k];
        total += strlen(t->slots[k]) + 1;
    }
    qsort(sorted, t->nslots, sizeof *sorted, cmp_str);
    char *out = malloc(total + 1);
    if (out) {
        out[0] = '\0';
        for (size_t k = 0; k < t->nslots; k++) {
            if (k)
                strcat(out, ",");
            strcat(out, sorted[k]);
        }
        if (t->nslots == 0)
            strcpy(out, "-");
    }
    free(sorted);
    return out;
}

/* "an" before a vowel sound as spelled: a vowel letter, or a number
   read with one (8, 11, 18, 80-89...). */
static const char *article_for(const char *v)
{
    unsigned char c = (unsigned char)tolower((unsigned char)v[0]);
    if (strchr("aeiou", c) && c)
        return "an";
    if (c == '8' || ((strncmp(v, "11", 2) == 0 || strncmp(v, "18", 2) == 0) &&
                     !isdigit((unsigned char)v[2])))
        return "an";
    return "a";
}

/* ---- loading ---- */

enum { COL_NAME, COL_INDEX, COL_CAPABILITY, COL_LABEL, COL_TEMPLATE, COL_BASE,
       COL_TYPE, COL_PREMISE, COL_VARY, COL_CLASS, COL_DIRECTION, COL_TOLERANCE,
       NCOL };
static const char *const col_names[NCOL] = {
    "name", "", "capability", "label", "template", "base", "type", "premise",
    "vary", "class", "direction", "tolerance"};

static void row_free(template_row *t)
{
    free(t->name);
    free(t->capability);
    free(t->label);
    free(t->text);
    free(t->premise);
    free(t->base);
    free(t->vary);
    free(t->dir_class);
    for (size_t k = 0; k < t->nslots; k++)
        free(t->slots[k]);
    free(t->slots);
}

void templates_free(template_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        row_free(&s->row[i]);
    free(s->row);
    free(s->source);
    memset(s, 0, sizeof *s);
}

static int row_check(template_row *t, const char *file, tells_error *err)
{
    if (!*t->capability)
        return tells_error_set(err, file, t->line, "empty capability");
    if (!*t->text)
        return tells_error_set(err, file, t->line, "empty template");
    if (t->premise && !*t->premise)
        return tells_error_set(err, file, t->line, "empty premise");
    if (t->type == TEST_MFT && !*t->label)
        return tells_error_set(err, file, t->line, "an MFT test needs a label");
    if (t->type != TEST_MFT) {
        bool found = false;
        for (size_t k = 0; t->vary && k < t->nslots; k++)
            found |= strcmp(t->slots[k], t->vary) == 0;
        if (!t->vary || !*t->vary)
            return tells_error_set(err, file, t->line, "an %s test needs a 'vary' placeholder",
                                   test_type_name(t->type));
        if (!found)
            return tells_error_set(err, file, t->line,
                                   "'vary' names {%s}, which the template does not use",
                                   t->vary);
    }
    if (t->type == TEST_DIR && (!t->dir_class || !*t->dir_class))
        return tells_error_set(err, file, t->line, "a DIR test needs a 'class'");
    return 0;
}

static int parse_row(template_row *t, char **f, const long *col, const char *file,
                     long line, size_t rowno, tells_error *err)
{
    t->line = line;
    /* Absent columns read as "", except premise, which is NULL then. */
    const char *v[NCOL];
    for (int c = 0; c < NCOL; c++)
        v[c] = col[c] >= 0 ? f[col[c]] : "";
    if (v[COL_NAME][0])
        t->name = strdup(v[COL_NAME]);
    else if (v[COL_INDEX][0])
        t->name = strdup(v[COL_INDEX]);
    else {
        char buf[32];
        snprintf(buf, sizeof buf, "%zu", rowno);
        t->name = strdup(buf);
    }
    t->capability = strdup(v[COL_CAPABILITY]);
    t->label = strdup(v[COL_LABEL]);
    t->text = strdup(v[COL_TEMPLATE]);
    t->premise = col[COL_PREMISE] >= 0 ? strdup(v[COL_PREMISE]) : NULL;
    t->base = v[COL_BASE][0] ? strdup(v[COL_BASE]) : NULL;
    t->vary = v[COL_VARY][0] ? strdup(v[COL_VARY]) : NULL;
    t->dir_class = v[COL_CLASS][0] ? strdup(v[COL_CLASS]) : NULL;
    if (!t->name || !t->capability || !t->label || !t->text ||
        (col[COL_PREMISE] >= 0 && !t->premise))
        return tells_error_nomem(err, file, line);
    const char *type = v[COL_TYPE];
    if (!*type || strcmp(type, "MFT") == 0)
        t->type = TEST_MFT;
    else if (strcmp(type, "INV") == 0)
        t->type = TEST_INV;
    else if (strcmp(type, "DIR") == 0)
        t->type = TEST_DIR;
    else
        return tells_error_set(err, file, line, "unknown test type '%s' (MFT, INV or DIR)", type);
    const char *dir = v[COL_DIRECTION];
    t->direction = DIR_UP;
    if (*dir) {
        if (strcmp(dir, "up") == 0)
            t->direction = DIR_UP;
        else if (strcmp(dir, "down") == 0)
            t->direction = DIR_DOWN;
        else if (strcmp(dir, "same") == 0)
            t->direction = DIR_SAME;
        else
            return tells_error_set(err, file, line, "unknown direction '%s' (up, down or same)",
                                   dir);
    }
    const char *tol = v[COL_TOLERANCE];
    t->tolerance = 0;
    if (*tol) {
        char *end;
        errno = 0;
        t->tolerance = strtod(tol, &end);
        if (*end || errno || !isfinite(t->tolerance) || t->tolerance < 0 || t->tolerance > 1)
            return tells_error_set(err, file, line, "tolerance '%s' is not a number in [0, 1]",
                                   tol);
    }
    if (template_check(t->text, file, line, NULL, err) < 0 ||
        (t->premise && template_check(t->premise, file, line, "premise", err) < 0))
        return -1;
    if (add_slots(t, t->premise, t->text) < 0)
        return tells_error_nomem(err, file, line);
    return row_check(t, file, err);
}

int templates_load(template_set *s, const char *path, tells_error *err)
{
    memset(s, 0, sizeof *s);
    bool tsv = ends_with(path, ".tsv") || ends_with(path, ".tab");
    csv_rec_reader *r;
    if (csv_rec_open(&r, path, tsv, LINE_MAX_DEFAULT, err) < 0)
        return -1;
    const char *file = csv_rec_name(r);
    s->source = strdup(file);
    csv_rec rec;
    long col[NCOL];
    size_t ncol = 0, cap = 0;
    int rc = s->source ? csv_rec_next(r, &rec, err) : tells_error_nomem(err, file, 0);
    if (rc == 0)
        rc = tells_error_set(err, file, 0, "empty input: expected a header row");
    if (rc < 0)
        goto fail;
    for (int c = 0; c < NCOL; c++)
        col[c] = csv_rec_column(&rec, col_names[c]);
    /* The unnamed index column counts only as the first. */
    col[COL_INDEX] = rec.n > 0 && rec.field[0][0] == '\0' ? 0 : -1;
    for (int c = COL_CAPABILITY; c <= COL_TEMPLATE; c++)
        if (col[c] < 0 && c != COL_LABEL) {
            rc = tells_error_set(err, file, rec.line, "no column named '%s' in the header",
                                 col_names[c]);
            goto fail;
        }
    ncol = rec.n;
    while ((rc = csv_rec_next_row(r, &rec, ncol, err)) > 0) {
        if (ARRAY_RESERVE(s->row, cap, s->n + 1) < 0) {
            rc = tells_error_nomem(err, file, rec.line);
            goto fail;
        }
        template_row *t = &s->row[s->n];
        memset(t, 0, sizeof *t);
        s->n++;
        if ((rc = parse_row(t, rec.field, col, file, rec.line, s->n - 1, err)) < 0)
            goto fail;
    }
    if (rc < 0)
        goto fail;
    if (s->n == 0) {
        rc = tells_error_set(err, file, 0, "no templates");
        goto fail;
    }
    csv_rec_close(r);
    return 0;
fail:
    csv_rec_close(r);
    templates_free(s);
    return -1;
}

/* ---- bases ---- */

/* Token ids of a template text for the similarity: words, single
   punctuation characters and whole placeholders. */
static size_t text_tokens(const char *s, vocab *v, long **out)
{
    size_t n = 0, cap = 0;
    long *tok = NULL;
    bool failed = ARRAY_RESERVE(tok, cap, 1) < 0;
    for (const char *p = s; !failed && *p;) {
        const char *name;
        size_t len, k;
        bool art;
        if ((k = placeholder_at(p, &name, &len, &art)))
            len = k;
        else if (isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80) {
            len = 0;
            while (p[len] && (isalnum((unsigned char)p[len]) || (unsigned char)p[len] >= 0x80 ||
                              p[len] == '\''))
                len++;
        } else if (isspace((unsigned char)*p)) {
            p++;
            continue;
        } else
            len = 1;
        char low[256];
        size_t m = len < sizeof low ? len : sizeof low - 1;
        for (size_t i = 0; i < m; i++)
            low[i] = (char)tolower((unsigned char)p[i]);
        long id = vocab_intern(v, low, m);
        if (id < 0 || ARRAY_RESERVE(tok, cap, n + 1) < 0) {
            failed = true;
            break;
        }
        tok[n++] = id;
        p += len;
    }
    if (failed) {
        free(tok);
        tok = NULL;
    }
    *out = tok;
    return tok ? n : (size_t)-1;
}

/* row holds n + 1 counts: b is the base, whose length row was sized for. */
static size_t lcs(const long *a, size_t m, const long *b, size_t n, size_t *row)
{
    memset(row, 0, (n + 1) * sizeof *row);
    for (size_t i = 1; i <= m; i++) {
        size_t diag = 0;
        for (size_t j = 1; j <= n; j++) {
            size_t up = row[j];
            row[j] = a[i - 1] == b[j - 1] ? diag + 1 : (row[j] > row[j - 1] ? row[j] : row[j - 1]);
            diag = up;
        }
    }
    return row[n];
}

static bool same_kind(const template_row *a, const template_row *b)
{
    if (strcmp(a->capability, b->capability) != 0 || strcmp(a->label, b->label) != 0 ||
        a->nslots != b->nslots)
        return false;
    for (size_t i = 0; i < a->nslots; i++) {
        bool found = false;
        for (size_t j = 0; j < b->nslots && !found; j++)
            found = strcmp(a->slots[i], b->slots[j]) == 0;
        if (!found)
            return false;
    }
    return true;
}

int templates_assign_bases(template_set *s, const template_set *bases, tells_error *err)
{
    vocab *v = vocab_new();
    long **bt = calloc(bases->n, sizeof *bt);
    size_t *bn = calloc(bases->n, sizeof *bn);
    size_t *row = NULL;
    int rc = -1;
    if (!v || !bt || !bn) {
        tells_error_nomem(err, s->source, 0);
        goto done;
    }
    size_t longest = 0;
    for (size_t j = 0; j < bases->n; j++) {
        if ((bn[j] = text_tokens(bases->row[j].text, v, &bt[j])) == (size_t)-1) {
            tells_error_nomem(err, s->source, 0);
            goto done;
        }
        longest = bn[j] > longest ? bn[j] : longest;
    }
    if (!(row = malloc((longest + 1) * sizeof *row))) {
        tells_error_nomem(err, s->source, 0);
        goto done;
    }
    for (size_t i = 0; i < s->n; i++) {
        template_row *t = &s->row[i];
        if (t->base)
            continue;
        long *tt;
        size_t tn = text_tokens(t->text, v, &tt);
        if (tn == (size_t)-1) {
            tells_error_nomem(err, s->source, t->line);
            goto done;
        }
        double best = -1;
        size_t bestj = 0;
        for (size_t j = 0; j < bases->n; j++) {
            if (!same_kind(t, &bases->row[j]))
                continue;
            double r = tn + bn[j] ? 2.0 * lcs(tt, tn, bt[j], bn[j], row) / (double)(tn + bn[j])
                                  : 1.0;
            if (r > best) {
                best = r;
                bestj = j;
            }
        }
        free(tt);
        if (best < 0) {
            tells_error_set(err, s->source, t->line,
                            "no base template has capability '%s', label '%s' and the "
                            "same placeholders",
                            t->capability, t->label);
            goto done;
        }
        if (!(t->base = strdup(bases->row[bestj].name))) {
            tells_error_nomem(err, s->source, t->line);
            goto done;
        }
    }
    rc = 0;
done:
    for (size_t j = 0; bt && j < bases->n; j++)
        free(bt[j]);
    free(bt);
    free(bn);
    free(row);
    vocab_free(v);
    return rc;
}

/* ---- fill-ins ---- */

static void fill_list_free(fill_list *l)
{
    free(l->capability);
    free(l->names[0]);
    free(l->names[1]);
    for (size_t i = 0; i < l->nvalues; i++)
        free(l->values[i]);
    free(l->values);
    free(l->source);
}

void fill_set_free(fill_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        fill_list_free(&s->list[i]);
    free(s->list);
    memset(s, 0, sizeof *s);
}

/* Appends a value; a pair's row is complete after its second. */
static int push_value(fill_list *l, const char *v, size_t *cap)
{
    size_t nv = l->nvalues;
    if (ARRAY_RESERVE(l->values, *cap, nv + 1) < 0)
        return -1;
    if (!(l->values[nv] = strdup(v)))
        return -1;
    l->nvalues++;
    l->n = l->names[1] ? l->nvalues / 2 : l->nvalues;
    return 0;
}

static const char *const time_units[3] = {"day", "week", "month"};
/* Days per unit; a month is the Gregorian year's twelfth. */
static const double unit_days[3] = {1, 7, 365.2425 / 12};

/* The span of @time: n (1-25) units u, singular for 1. */
static void time_span(char *buf, size_t size, int n, int u)
{
    snprintf(buf, size, "%d %s%s", n, time_units[u], n == 1 ? "" : "s");
}

static int fill_builtin(fill_list *l, const char *what, tells_error *err)
{
    size_t cap = 0;
    char a[32], b[32];
    bool by_duration = strcmp(what, FILL_TIME_PAIRS_DURATION) == 0;
    bool pairs = by_duration || strcmp(what, FILL_TIME_PAIRS) == 0;
    if (!pairs && strcmp(what, FILL_TIME) != 0)
        return tells_error_usage(err, "unknown generator '%s' (%s, %s or %s)", what,
                                 FILL_TIME, FILL_TIME_PAIRS, FILL_TIME_PAIRS_DURATION);
    if (pairs != (l->names[1] != NULL))
        return tells_error_usage(err, "%s fills %s", what,
                                 pairs ? "two placeholders together" : "one placeholder");
    for (int u = 0; u < 3; u++)
        for (int i = 1; i <= 25; i++) {
            time_span(a, sizeof a, i, u);
            if (!pairs) {
                if (push_value(l, a, &cap) < 0)
                    return tells_error_nomem(err, NULL, 0);
                continue;
            }
            /* Within the unit, larger numbers; by duration, any longer
               span of any unit, in @time's order. */
            for (int v = by_duration ? 0 : u; v <= (by_duration ? 2 : u); v++)
                for (int j = 1; j <= 25; j++) {
                    if (by_duration ? j * unit_days[v] <= i * unit_days[u] : j <= i)
                        continue;
                    time_span(b, sizeof b, j, v);
                    if (push_value(l, a, &cap) < 0 || push_value(l, b, &cap) < 0)
                        return tells_error_nomem(err, NULL, 0);
                }
        }
    return 0;
}

static int fill_read(fill_list *l, const char *path, tells_error *err)
{
    line_reader lr;
    if (line_reader_open(&lr, path, LINE_MAX_DEFAULT, err) < 0)
        return -1;
    size_t cap = 0;
    char *line;
    size_t len;
    int rc;
    while ((rc = line_reader_next(&lr, &line, &len, err)) > 0) {
        if (lr.lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            line += 3;
            len -= 3;
        }
        while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        if (text_invalid_offset(line, len) != (size_t)-1) {
            rc = tells_error_set(err, lr.name, lr.lineno, "invalid UTF-8");
            break;
        }
        if (l->names[1]) {
            char *tab = strchr(line, '\t');
            if (!tab || strchr(tab + 1, '\t') || tab == line || !tab[1]) {
                rc = tells_error_set(err, lr.name, lr.lineno,
                                     "expected two tab-separated values");
                break;
            }
            *tab = '\0';
            if (push_value(l, line, &cap) < 0 || push_value(l, tab + 1, &cap) < 0) {
                rc = tells_error_nomem(err, lr.name, lr.lineno);
                break;
            }
        } else {
            if (strchr(line, '\t')) {
                rc = tells_error_set(err, lr.name, lr.lineno,
                                     "a tab in a value (one value per line)");
                break;
            }
            if (push_value(l, line, &cap) < 0) {
                rc = tells_error_nomem(err, lr.name, lr.lineno);
                break;
            }
        }
    }
    if (rc == 0 && l->n == 0)
        rc = tells_error_set(err, lr.name, 0, "no values");
    line_reader_close(&lr);
    return rc < 0 ? -1 : 0;
}

int fill_add(fill_set *s, const char *spec, bool pair, tells_error *err)
{
    const char *eq = strchr(spec, '=');
    const char *colon = eq ? memchr(spec, ':', (size_t)(eq - spec)) : NULL;
    const char *names = colon ? colon + 1 : spec;
    const char *comma = eq ? memchr(names, ',', (size_t)(eq - names)) : NULL;
    if (!eq || eq == spec || !eq[1] || pair != (comma != NULL) || names == eq ||
        (comma && (comma == names || comma + 1 == eq)))
        return tells_error_usage(err, "expected %s, not '%s'",
                                 pair ? "[CAPABILITY:]A,B=FILE" : "[CAPABILITY:]NAME=FILE", spec);
    fill_list l = {0};
    l.capability = colon ? strndup(spec, (size_t)(colon - spec)) : NULL;
    l.names[0] = strndup(names, (size_t)((comma ? comma : eq) - names));
    l.names[1] = comma ? strndup(comma + 1, (size_t)(eq - comma - 1)) : NULL;
    l.source = strdup(eq + 1);
    int rc;
    if ((colon && !l.capability) || !l.names[0] || (comma && !l.names[1]) || !l.source)
        rc = tells_error_nomem(err, NULL, 0);
    else
        rc = eq[1] == '@' ? fill_builtin(&l, eq + 1, err) : fill_read(&l, eq + 1, err);
    if (rc == 0 && ARRAY_RESERVE(s->list, s->cap, s->n + 1) < 0)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc < 0) {
        fill_list_free(&l);
        return -1;
    }
    s->list[s->n++] = l;
    return 0;
}

/* The list that fills slot of a template of capability cap: one given
   for that capability wins over one for every capability; later wins
   over earlier. *col gets 1 when the slot is a pair's second name. */
static const fill_list *find_fill(const fill_set *f, const char *cap, const char *slot,
                                  size_t *col)
{
    const fill_list *found = NULL;
    bool specific = false;
    for (size_t i = 0; i < f->n; i++) {
        const fill_list *l = &f->list[i];
        if (l->capability && strcmp(l->capability, cap) != 0)
            continue;
        for (size_t c = 0; c < 2; c++)
            if (l->names[c] && strcmp(l->names[c], slot) == 0 &&
                (l->capability || !specific)) {
                found = l;
                *col = c;
                specific = l->capability != NULL;
            }
    }
    return found;
}

/* ---- expansion ---- */

int expand_add_sample(expand_options *o, const char *name, size_t len, size_t n,
                      tells_error *err)
{
    if (ARRAY_RESERVE(o->samples, o->samples_cap, o->nsamples + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    sample_spec *s = &o->samples[o->nsamples];
    if (!(s->name = strndup(name, len)))
        return tells_error_nomem(err, NULL, 0);
    s->n = n;
    o->nsamples++;
    return 0;
}

int expand_add_per_base(expand_options *o, const char *capability, size_t len, size_t n,
                        tells_error *err)
{
    if (ARRAY_RESERVE(o->per_base, o->per_base_cap, o->nper_base + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    base_sample *b = &o->per_base[o->nper_base];
    b->capability = NULL;
    if (capability && !(b->capability = strndup(capability, len)))
        return tells_error_nomem(err, NULL, 0);
    b->n = n;
    o->nper_base++;
    return 0;
}

void expand_options_free(expand_options *o)
{
    for (size_t i = 0; i < o->nsamples; i++)
        free(o->samples[i].name);
    free(o->samples);
    for (size_t i = 0; i < o->nper_base; i++)
        free(o->per_base[i].capability);
    free(o->per_base);
    memset(o, 0, sizeof *o);
}

static unsigned long mix_seed(unsigned long seed, const char *what)
{
    uint64_t h = vocab_hash(what, strlen(what)) ^ (seed * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 31;
    return (unsigned long)(h & 0xffffffffUL);
}

/* The rows of list l that a template may use: all, or a sample of
   sample-spec size, the same for every template. */
typedef struct chosen {
    const fill_list *list;
    size_t *rows;
    size_t n;
} chosen;

/* How many rows of l to draw: the last sample naming one of its
   placeholders, else all; *name gets that placeholder (NULL for all). */
static size_t sample_size(const fill_list *l, const expand_options *o, const char **name)
{
    size_t want = l->n;
    *name = NULL;
    for (size_t i = 0; i < o->nsamples; i++)
        for (size_t c = 0; c < 2; c++)
            if (l->names[c] && strcmp(o->samples[i].name, l->names[c]) == 0) {
                want = o->samples[i].n;
                *name = l->names[c];
            }
    return want;
}

int samples_check(const fill_set *f, const expand_options *o, tells_error *err)
{
    for (size_t i = 0; i < f->n; i++) {
        const fill_list *l = &f->list[i];
        const char *name;
        size_t want = sample_size(l, o, &name);
        if (want > l->n)
            return tells_error_usage(err, "%s=%zu: only %zu values in %s", name, want, l->n,
                                     l->source);
    }
    for (size_t i = 0; i < o->nsamples; i++) {
        bool used = false;
        for (size_t j = 0; j < f->n; j++)
            for (size_t c = 0; c < 2; c++)
                used |= f->list[j].names[c] && strcmp(f->list[j].names[c], o->samples[i].name) == 0;
        if (!used)
            return tells_error_usage(err, "%s: no fill-in list of that name", o->samples[i].name);
    }
    return 0;
}

static int choose_rows(chosen *ch, const fill_list *l, const expand_options *o,
                       tells_error *err)
{
    ch->list = l;
    const char *name;
    size_t want = sample_size(l, o, &name);
    size_t *all = malloc((l->n ? l->n : 1) * sizeof *all);
    ch->rows = malloc((want ? want : 1) * sizeof *ch->rows);
    if (!all || !ch->rows) {
        free(all);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < l->n; i++)
        all[i] = i;
    if (want < l->n) {
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng) {
            free(all);
            return tells_error_nomem(err, NULL, 0);
        }
        char key[512];
        snprintf(key, sizeof key, "fill:%s:%s", l->capability ? l->capability : "",
                 l->names[0]);
        gsl_rng_set(rng, mix_seed(o->seed, key));
        gsl_ran_choose(rng, ch->rows, want, all, l->n, sizeof *all);
        gsl_rng_free(rng);
    } else
        memcpy(ch->rows, all, l->n * sizeof *all);
    ch->n = want;
    free(all);
    return 0;
}

/* Per-base sampling: which templates are kept. */
static int select_templates(const template_set *s, const expand_options *o, bool *keep,
                            tells_error *err)
{
    vocab *groups = vocab_new();
    if (!groups)
        return tells_error_nomem(err, NULL, 0);
    size_t *gid = malloc((s->n ? s->n : 1) * sizeof *gid);
    size_t *members = malloc((s->n ? s->n : 1) * sizeof *members);
    size_t *picked = malloc((s->n ? s->n : 1) * sizeof *picked);
    int rc = 0;
    if (!gid || !members || !picked) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t i = 0; i < s->n; i++) {
        const template_row *t = &s->row[i];
        char key[2048];
        /* Templates without a base are each their own group. */
        snprintf(key, sizeof key, "%s\t%s", t->capability, t->base ? t->base : t->name);
        if (!t->base)
            snprintf(key, sizeof key, "%s\t\x01%zu", t->capability, i);
        long g = vocab_intern(groups, key, strlen(key));
        if (g < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            goto done;
        }
        gid[i] = (size_t)g;
        keep[i] = false;
    }
    for (size_t g = 0; g < vocab_size(groups); g++) {
        size_t m = 0;
        for (size_t i = 0; i < s->n; i++)
            if (gid[i] == g)
                members[m++] = i;
        const char *cap = s->row[members[0]].capability;
        size_t want = 0;
        for (size_t k = 0; k < o->nper_base; k++)
            if (!o->per_base[k].capability || strcmp(o->per_base[k].capability, cap) == 0)
                want = o->per_base[k].n;
        if (want == 0 || want >= m) {
            for (size_t k = 0; k < m; k++)
                keep[members[k]] = true;
            continue;
        }
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng) {
            rc = tells_error_nomem(err, NULL, 0);
            goto done;
        }
        char key[2048];
        snprintf(key, sizeof key, "base:%s", vocab_str(groups, g));
        gsl_rng_set(rng, mix_seed(o->seed, key));
        gsl_ran_choose(rng, picked, want, members, m, sizeof *members);
        gsl_rng_free(rng);
        for (size_t k = 0; k < want; k++)
            keep[picked[k]] = true;
    }
done:
    free(gid);
    free(members);
    free(picked);
    vocab_free(groups);
    return rc;
}

typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

static int sb_add(strbuf *b, const char *s, size_t n)
{
    if (ARRAY_RESERVE_MIN(b->s, b->cap, b->len + n + 1, 128) < 0)
        return -1;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static char *fill_text(const char *text, const template_row *t, const char *const *vals)
{
    strbuf b = {0};
    if (sb_add(&b, "", 0) < 0)
        return NULL;
    for (const char *p = text; *p;) {
        const char *name;
        size_t len, k = 0;
        bool art = false;
        if ((k = placeholder_at(p, &name, &len, &art))) {
            size_t slot = 0;
            while (!(strlen(t->slots[slot]) == len && memcmp(t->slots[slot], name, len) == 0))
                slot++;
            const char *v = vals[slot];
            if (art) {
                const char *a = article_for(v);
                if (sb_add(&b, a, strlen(a)) < 0 || sb_add(&b, " ", 1) < 0)
                    goto oom;
            }
            if (sb_add(&b, v, strlen(v)) < 0)
                goto oom;
            p += k;
        } else {
            if (sb_add(&b, p, 1) < 0)
                goto oom;
            p++;
        }
    }
    return b.s;
oom:
    free(b.s);
    return NULL;
}

const char *case_value(const case_set *cs, const test_case *c, size_t k)
{
    const fill_list *l = cs->slot_fill[c->tmpl][k];
    size_t col = cs->slot_col[c->tmpl][k];
    return l->names[1] ? l->values[2 * c->value[k] + col] : l->values[c->value[k]];
}

void cases_free(case_set *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->c[i].text);
        free(cs->c[i].premise);
        free(cs->c[i].value);
    }
    free(cs->c);
    free(cs->selected);
    if (cs->slot_fill)
        for (size_t i = 0; cs->slot_fill[i] != (void *)cs; i++) {
            free(cs->slot_fill[i]);
            free(cs->slot_col[i]);
        }
    free(cs->slot_fill);
    free(cs->slot_col);
    memset(cs, 0, sizeof *cs);
}

static int push_case(case_set *cs, size_t *cap, test_case *c)
{
    if (ARRAY_RESERVE(cs->c, *cap, cs->n + 1) < 0)
        return -1;
    c->id = cs->n;
    cs->c[cs->n++] = *c;
    return 0;
}

enum { MAX_SLOTS = 64 };

/* How a template fills its slots: the list and column of each (in the
   caller's arrays), and the dimensions of its product, a pair being one
   dimension at its first slot. */
typedef struct slot_dims {
    size_t ndim;
    size_t dim_of[MAX_SLOTS];    /* per slot: its dimension */
    size_t dim_list[MAX_SLOTS];  /* per dimension: the index of its list */
} slot_dims;

static int resolve_slots(const template_set *s, size_t ti, const fill_set *f,
                         const fill_list **slot_fill, size_t *slot_col, slot_dims *d,
                         tells_error *err)
{
    const template_row *t = &s->row[ti];
    if (t->nslots > MAX_SLOTS)
        return tells_error_set(err, s->source, t->line, "more than %d placeholders",
                               MAX_SLOTS);
    d->ndim = 0;
    for (size_t k = 0; k < t->nslots; k++) {
        size_t col = 0;
        const fill_list *l = find_fill(f, t->capability, t->slots[k], &col);
        if (!l) {
            tells_error_set(err, s->source, t->line, "no fill-in list for {%s}", t->slots[k]);
            tells_error_tag(err, TELLS_E_NO_FILL, t->slots[k]);
            return -1;
        }
        slot_fill[k] = l;
        slot_col[k] = col;
        size_t dim = d->ndim;
        for (size_t j = 0; j < k; j++)
            if (slot_fill[j] == l)
                dim = d->dim_of[j];
        if (dim == d->ndim)
            d->dim_list[d->ndim++] = (size_t)(l - f->list);
        d->dim_of[k] = dim;
    }
    return 0;
}

/* a * b and a + b, SIZE_MAX when they do not fit. */
static size_t mul_sat(size_t a, size_t b)
{
    return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

static size_t add_sat(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* cases_count, with the templates kept by per-base sampling in keep. */
static int count_cases(case_count *out, const template_set *s, const fill_set *f,
                       const expand_options *o, bool *keep, tells_error *err)
{
    memset(out, 0, sizeof *out);
    if (samples_check(f, o, err) < 0 || select_templates(s, o, keep, err) < 0)
        return -1;
    const fill_list *slot_fill[MAX_SLOTS];
    size_t slot_col[MAX_SLOTS];
    slot_dims d;
    for (size_t ti = 0; ti < s->n; ti++) {
        if (resolve_slots(s, ti, f, slot_fill, slot_col, &d, err) < 0)
            return -1;
        if (!keep[ti])
            continue;
        size_t n = 1;
        for (size_t k = 0; k < d.ndim; k++) {
            const char *name;
            n = mul_sat(n, sample_size(&f->list[d.dim_list[k]], o, &name));
        }
        out->total = add_sat(out->total, n);
        if (n > out->largest_n) {
            out->largest = ti;
            out->largest_n = n;
        }
    }
    return 0;
}

int cases_count(case_count *out, const template_set *s, const fill_set *f,
                const expand_options *o, tells_error *err)
{
    bool *keep = array_new(s->n, sizeof *keep);
    if (!keep) {
        memset(out, 0, sizeof *out);
        return tells_error_nomem(err, NULL, 0);
    }
    int rc = count_cases(out, s, f, o, keep, err);
    free(keep);
    return rc;
}

/* "1234", or "more than 18446744073709551614" for a count that did not fit. */
static void format_count(char *buf, size_t size, size_t n)
{
    if (n == SIZE_MAX)
        snprintf(buf, size, "more than %zu", SIZE_MAX - 1);
    else
        snprintf(buf, size, "%zu", n);
}

int cases_expand(case_set *cs, const template_set *s, const fill_set *f,
                 const expand_options *o, tells_error *err)
{
    memset(cs, 0, sizeof *cs);
    size_t cap = 0, nt = s->n;
    chosen *ch = calloc(f->n ? f->n : 1, sizeof *ch);
    cs->selected = calloc(nt ? nt : 1, sizeof *cs->selected);
    /* slot_fill ends with a sentinel (cs itself) so cases_free knows its
       length without the template set. */
    cs->slot_fill = calloc(nt + 1, sizeof *cs->slot_fill);
    cs->slot_col = calloc(nt + 1, sizeof *cs->slot_col);
    if (!ch || !cs->selected || !cs->slot_fill || !cs->slot_col) {
        free(ch);
        free(cs->selected);
        free(cs->slot_fill);
        free(cs->slot_col);
        memset(cs, 0, sizeof *cs);
        return tells_error_nomem(err, NULL, 0);
    }
    cs->slot_fill[nt] = (void *)cs;
    int rc = 0;
    for (size_t i = 0; i < nt; i++) {
        cs->slot_fill[i] = calloc(s->row[i].nslots + 1, sizeof **cs->slot_fill);
        cs->slot_col[i] = calloc(s->row[i].nslots + 1, sizeof **cs->slot_col);
        if (!cs->slot_fill[i] || !cs->slot_col[i]) {
            for (size_t j = i + 1; j < nt; j++)
                cs->slot_fill[j] = NULL;
            rc = tells_error_nomem(err, NULL, 0);
            goto done;
        }
    }
    /* The count comes first, so that a run too large is refused before
       anything is drawn or allocated for it. */
    case_count count;
    if ((rc = count_cases(&count, s, f, o, cs->selected, err)) < 0)
        goto done;
    size_t limit = o->max_cases ? o->max_cases : SIZE_MAX / sizeof *cs->c;
    if (count.total > limit) {
        char total[48], largest[48];
        format_count(total, sizeof total, count.total);
        format_count(largest, sizeof largest, count.largest_n);
        const template_row *big = &s->row[count.largest];
        rc = tells_error_set(err, s->source, 0,
                             "the templates would make %s cases, more than the limit of %zu; "
                             "template '%s' on line %ld makes %s",
                             total, limit, big->name, big->line, largest);
        tells_error_tag(err, TELLS_E_TOO_MANY_CASES, NULL);
        goto done;
    }
    /* Room for them all at once. */
    if (count.total > 0 && !(cs->c = array_new(count.total, sizeof *cs->c))) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    cap = count.total;
    for (size_t i = 0; i < f->n && rc == 0; i++)
        rc = choose_rows(&ch[i], &f->list[i], o, err);
    if (rc < 0)
        goto done;
    for (size_t ti = 0; ti < nt; ti++) {
        const template_row *t = &s->row[ti];
        size_t ns = t->nslots;
        slot_dims d;
        if ((rc = resolve_slots(s, ti, f, cs->slot_fill[ti], cs->slot_col[ti], &d, err)) < 0)
            goto done;
        if (!cs->selected[ti])
            continue;
        size_t ndim = d.ndim, radix[MAX_SLOTS];
        const size_t *dim_of = d.dim_of, *dim_list = d.dim_list;
        for (size_t k = 0; k < ndim; k++)
            radix[k] = ch[dim_list[k]].n;
        size_t total = 1;
        for (size_t k = 0; k < ndim; k++)
            total *= radix[k];
        long vary_dim = -1;
        if (t->type != TEST_MFT)
            for (size_t k = 0; k < ns; k++)
                if (strcmp(t->slots[k], t->vary) == 0)
                    vary_dim = (long)dim_of[k];
        size_t group_base = cs->ngroups, ngroups = 1;
        for (size_t k = 0; k < ndim; k++)
            if ((long)k != vary_dim)
                ngroups *= radix[k];
        if (t->type == TEST_MFT)
            ngroups = total;
        for (size_t idx = 0; idx < total; idx++) {
            size_t digit[MAX_SLOTS], rem = idx, g = 0;
            for (size_t k = ndim; k-- > 0;) {
                digit[k] = rem % radix[k];
                rem /= radix[k];
            }
            for (size_t k = 0; k < ndim; k++)
                if ((long)k != vary_dim)
                    g = g * radix[k] + digit[k];
            test_case c = {0};
            c.tmpl = ti;
            c.group = group_base + (t->type == TEST_MFT ? idx : g);
            c.reference = vary_dim >= 0 && digit[vary_dim] == 0;
            c.value = malloc((ns ? ns : 1) * sizeof *c.value);
            const char *vals[MAX_SLOTS];
            if (!c.value) {
                rc = tells_error_nomem(err, NULL, 0);
                goto done;
            }
            for (size_t k = 0; k < ns; k++) {
                const chosen *cc = &ch[dim_list[dim_of[k]]];
                c.value[k] = cc->rows[digit[dim_of[k]]];
                const fill_list *l = cs->slot_fill[ti][k];
                vals[k] = l->names[1] ? l->values[2 * c.value[k] + cs->slot_col[ti][k]]
                                      : l->values[c.value[k]];
            }
            c.text = fill_text(t->text, t, vals);
            c.premise = t->premise ? fill_text(t->premise, t, vals) : NULL;
            if (!c.text || (t->premise && !c.premise) || push_case(cs, &cap, &c) < 0) {
                free(c.text);
                free(c.premise);
                free(c.value);
                rc = tells_error_nomem(err, NULL, 0);
                goto done;
            }
        }
        cs->ngroups += ngroups;
    }
    if (cs->n == 0)
        rc = tells_error_set(err, s->source, 0, "the templates give no cases");
done:
    for (size_t i = 0; i < f->n; i++)
        free(ch[i].rows);
    free(ch);
    if (rc < 0)
        cases_free(cs);
    return rc;
}
