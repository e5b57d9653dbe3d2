/* Bases of templates (analysis/templates.h): each template without one
   goes to the most similar base template of its kind. */
#include <config.h>
#include "analysis/templates.h"
#include "analysis/templates-impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/vocab.h"

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
        if ((k = tpl_placeholder_at(p, &name, &len, &art)))
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
