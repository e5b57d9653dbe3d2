/* Fill-in lists (analysis/templates.h): files of values, pairs, the
   built-in generators of time spans, and which list fills a slot. */
#include <config.h>
#include "analysis/templates.h"
#include "analysis/templates-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/utf8.h"

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
const fill_list *tpl_find_fill(const fill_set *f, const char *cap, const char *slot,
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
