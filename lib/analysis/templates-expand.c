/* Expansion of templates into cases (analysis/templates.h): the
   options, sampling of fill-in values and of variations per base, the
   count of the cases, and the cases themselves. */
#include <config.h>
#include "analysis/templates.h"
#include "analysis/templates-impl.h"

#include <ctype.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/vocab.h"

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
        if ((k = tpl_placeholder_at(p, &name, &len, &art))) {
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
        const fill_list *l = tpl_find_fill(f, t->capability, t->slots[k], &col);
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

/* Refuses a run of more cases than o->max_cases (no limit: more than
   memory could index), naming the template that makes the most. */
static int check_limit(const template_set *s, const expand_options *o,
                       const case_count *count, tells_error *err)
{
    size_t limit = o->max_cases ? o->max_cases : SIZE_MAX / sizeof(test_case);
    if (count->total <= limit)
        return 0;
    char total[48], largest[48];
    format_count(total, sizeof total, count->total);
    format_count(largest, sizeof largest, count->largest_n);
    const template_row *big = &s->row[count->largest];
    int rc = tells_error_set(err, s->source, 0,
                             "the templates would make %s cases, more than the limit of %zu; "
                             "template '%s' on line %ld makes %s",
                             total, limit, big->name, big->line, largest);
    tells_error_tag(err, TELLS_E_TOO_MANY_CASES, NULL);
    return rc;
}

/* cs's arrays per template, zeroed: selected, and each slot's list and
   column. slot_fill ends with a sentinel (cs itself) so cases_free knows
   its length without the template set. -1 when out of memory, cs then
   freed. */
static int cases_alloc(case_set *cs, const template_set *s)
{
    size_t nt = s->n;
    cs->selected = calloc(nt ? nt : 1, sizeof *cs->selected);
    cs->slot_fill = calloc(nt + 1, sizeof *cs->slot_fill);
    cs->slot_col = calloc(nt + 1, sizeof *cs->slot_col);
    if (!cs->selected || !cs->slot_fill || !cs->slot_col) {
        free(cs->selected);
        free(cs->slot_fill);
        free(cs->slot_col);
        memset(cs, 0, sizeof *cs);
        return -1;
    }
    cs->slot_fill[nt] = (void *)cs;
    for (size_t i = 0; i < nt; i++) {
        cs->slot_fill[i] = calloc(s->row[i].nslots + 1, sizeof **cs->slot_fill);
        cs->slot_col[i] = calloc(s->row[i].nslots + 1, sizeof **cs->slot_col);
        if (!cs->slot_fill[i] || !cs->slot_col[i]) {
            cases_free(cs);    /* the later templates' are still NULL */
            return -1;
        }
    }
    return 0;
}

/* The product a template's cases run through: the size of each of its
   dimensions (the rows chosen of the dimension's list), the number of
   cases, the dimension of the `vary` slot (-1 for MFT) and the number of
   groups. */
typedef struct product {
    size_t ndim;
    size_t radix[MAX_SLOTS];
    size_t total;
    long vary_dim;
    size_t ngroups;
} product;

static void product_of(product *p, const template_row *t, const slot_dims *d,
                       const chosen *ch)
{
    p->ndim = d->ndim;
    p->total = 1;
    for (size_t k = 0; k < p->ndim; k++) {
        p->radix[k] = ch[d->dim_list[k]].n;
        p->total *= p->radix[k];
    }
    p->vary_dim = -1;
    if (t->type != TEST_MFT)
        for (size_t k = 0; k < t->nslots; k++)
            if (strcmp(t->slots[k], t->vary) == 0)
                p->vary_dim = (long)d->dim_of[k];
    p->ngroups = 1;
    for (size_t k = 0; k < p->ndim; k++)
        if ((long)k != p->vary_dim)
            p->ngroups *= p->radix[k];
    if (t->type == TEST_MFT)
        p->ngroups = p->total;
}

/* The digits of case idx in p, the first dimension varying slowest, and
   the group of the case among its template's: the number made by every
   digit but vary's. */
static size_t case_digits(const product *p, size_t idx, size_t *digit)
{
    size_t rem = idx, g = 0;
    for (size_t k = p->ndim; k-- > 0;) {
        digit[k] = rem % p->radix[k];
        rem /= p->radix[k];
    }
    for (size_t k = 0; k < p->ndim; k++)
        if ((long)k != p->vary_dim)
            g = g * p->radix[k] + digit[k];
    return g;
}

/* Gives c (its template, group and reference set) the values its digits
   choose and its texts, and appends it to cs; -1 when out of memory,
   what c held freed. */
static int fill_case(case_set *cs, size_t *cap, test_case *c, const template_row *t,
                     const slot_dims *d, const chosen *ch, const size_t *digit)
{
    size_t ns = t->nslots;
    c->value = malloc((ns ? ns : 1) * sizeof *c->value);
    if (!c->value)
        return -1;
    const char *vals[MAX_SLOTS];
    for (size_t k = 0; k < ns; k++) {
        const chosen *cc = &ch[d->dim_list[d->dim_of[k]]];
        c->value[k] = cc->rows[digit[d->dim_of[k]]];
        vals[k] = case_value(cs, c, k);
    }
    c->text = fill_text(t->text, t, vals);
    c->premise = t->premise ? fill_text(t->premise, t, vals) : NULL;
    if (!c->text || (t->premise && !c->premise) || push_case(cs, cap, c) < 0) {
        free(c->text);
        free(c->premise);
        free(c->value);
        return -1;
    }
    return 0;
}

/* The cases of template ti, whose slots resolve_slots resolved into d,
   appended to cs, and its groups counted. */
static int expand_template(case_set *cs, size_t *cap, const template_row *t, size_t ti,
                           const slot_dims *d, const chosen *ch, tells_error *err)
{
    product p;
    product_of(&p, t, d, ch);
    size_t group_base = cs->ngroups;
    for (size_t idx = 0; idx < p.total; idx++) {
        size_t digit[MAX_SLOTS];
        size_t g = case_digits(&p, idx, digit);
        test_case c = {0};
        c.tmpl = ti;
        c.group = group_base + (t->type == TEST_MFT ? idx : g);
        c.reference = p.vary_dim >= 0 && digit[p.vary_dim] == 0;
        if (fill_case(cs, cap, &c, t, d, ch, digit) < 0)
            return tells_error_nomem(err, NULL, 0);
    }
    cs->ngroups += p.ngroups;
    return 0;
}

int cases_expand(case_set *cs, const template_set *s, const fill_set *f,
                 const expand_options *o, tells_error *err)
{
    memset(cs, 0, sizeof *cs);
    chosen *ch = calloc(f->n ? f->n : 1, sizeof *ch);
    if (!ch || cases_alloc(cs, s) < 0) {
        free(ch);
        return tells_error_nomem(err, NULL, 0);
    }
    /* The count comes first, so that a run too large is refused before
       anything is drawn or allocated for it. */
    case_count count;
    int rc = count_cases(&count, s, f, o, cs->selected, err);
    if (rc == 0)
        rc = check_limit(s, o, &count, err);
    /* Room for them all at once. */
    if (rc == 0 && count.total > 0 && !(cs->c = array_new(count.total, sizeof *cs->c)))
        rc = tells_error_nomem(err, NULL, 0);
    size_t cap = count.total;
    for (size_t i = 0; i < f->n && rc == 0; i++)
        rc = choose_rows(&ch[i], &f->list[i], o, err);
    for (size_t ti = 0; ti < s->n && rc == 0; ti++) {
        slot_dims d;
        rc = resolve_slots(s, ti, f, cs->slot_fill[ti], cs->slot_col[ti], &d, err);
        if (rc == 0 && cs->selected[ti])
            rc = expand_template(cs, &cap, &s->row[ti], ti, &d, ch, err);
    }
    if (rc == 0 && cs->n == 0)
        rc = tells_error_set(err, s->source, 0, "the templates give no cases");
    for (size_t i = 0; i < f->n; i++)
        free(ch[i].rows);
    free(ch);
    if (rc < 0)
        cases_free(cs);
    return rc;
}
