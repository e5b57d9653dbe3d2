/* Loading template tables (analysis/templates.h): the ADE CSV and our
   own CSV/TSV, their columns and the checks of each row. */
#include <config.h>
#include "analysis/templates.h"
#include "analysis/templates-impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/csvrec.h"
#include "base/lineio.h"

/* ---- loading ---- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

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
    if (tpl_add_slots(t, t->premise, t->text) < 0)
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
