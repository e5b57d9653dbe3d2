/* Templates and fill-in lists of tells-run (analysis/templates.h): the
   template table (CSV, or TSV when its first line has a tab), an
   optional table of bases to assign, fill lists, and their expansion
   into cases, bounded by sampling so that a product of large lists does
   not make the run long. Input, parts separated by "=====" lines: the
   templates, the bases (empty: none), then up to six fill lists, each a
   first line "[CAPABILITY:]NAME" or "[CAPABILITY:]A,B" (a pair) or
   "NAME=@GENERATOR", followed by the list's file. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "analysis/templates.h"

enum { MAX_CASES = 2000, MAX_FILLS = 6 };

static size_t sat_mul(size_t a, size_t b)
{
    return a && b > (size_t)-1 / a ? (size_t)-1 : a * b;
}

static size_t sat_add(size_t a, size_t b)
{
    return b > (size_t)-1 - a ? (size_t)-1 : a + b;
}

/* The values a slot may draw from: the most any list of its name has,
   at most cap. */
static size_t slot_values(const fill_set *f, const char *slot, size_t cap)
{
    size_t most = 0;
    for (size_t i = 0; i < f->n; i++)
        for (size_t c = 0; c < 2; c++)
            if (f->list[i].names[c] && strcmp(f->list[i].names[c], slot) == 0 &&
                f->list[i].n > most)
                most = f->list[i].n;
    return most < cap ? most : cap;
}

/* An upper bound of the cases the templates give. */
static size_t cases_bound(const template_set *s, const fill_set *f, size_t cap)
{
    size_t total = 0;
    for (size_t t = 0; t < s->n; t++) {
        size_t product = 1;
        for (size_t k = 0; k < s->row[t].nslots; k++)
            product = sat_mul(product, slot_values(f, s->row[t].slots[k], cap));
        total = sat_add(total, product);
    }
    return total;
}

static void expand(const template_set *s, const fill_set *f, size_t per_base)
{
    expand_options o = {.seed = 7};
    tells_error err;
    tells_error_clear(&err);
    if (cases_bound(s, f, (size_t)-1) > MAX_CASES) {
        /* Two values of every list (or its only one). */
        if (cases_bound(s, f, 2) > MAX_CASES)
            return;
        for (size_t i = 0; i < f->n; i++) {
            size_t least = (size_t)-1;
            for (size_t j = 0; j < f->n; j++)
                for (size_t c = 0; c < 2; c++)
                    if (f->list[j].names[c] && strcmp(f->list[j].names[c],
                                                      f->list[i].names[0]) == 0 &&
                        f->list[j].n < least)
                        least = f->list[j].n;
            const char *name = f->list[i].names[0];
            if (expand_add_sample(&o, name, strlen(name), least < 2 ? least : 2, &err) < 0)
                fuzz_fail("expand_add_sample", err.msg);
        }
    }
    if (per_base && expand_add_per_base(&o, NULL, 0, per_base, &err) < 0)
        fuzz_fail("expand_add_per_base", err.msg);
    case_set cs;
    if (fuzz_check(cases_expand(&cs, s, f, &o, &err), &err, "cases_expand") == 0) {
        if (cs.n > MAX_CASES)
            fuzz_fail("cases_expand", "more cases than the bound");
        for (size_t i = 0; i < cs.n; i++) {
            const test_case *c = &cs.c[i];
            if (c->tmpl >= s->n || !c->text || (s->row[c->tmpl].premise && !c->premise) ||
                c->group >= cs.ngroups)
                fuzz_fail("cases_expand", "a case out of range");
            for (size_t k = 0; k < s->row[c->tmpl].nslots; k++)
                if (!case_value(&cs, c, k))
                    fuzz_fail("case_value", "a slot without a value");
        }
        cases_free(&cs);
    }
    expand_options_free(&o);
}

static const char *table_file(const char *stem, const fuzz_part *p)
{
    const uint8_t *nl = memchr(p->data, '\n', p->size);
    size_t first = nl ? (size_t)(nl - p->data) : p->size;
    char name[32];
    snprintf(name, sizeof name, "%s.%s", stem, memchr(p->data, '\t', first) ? "tsv" : "csv");
    return fuzz_file(name, p->data, p->size);
}

FUZZ_TARGET(templates)
{
    fuzz_part part[2 + MAX_FILLS];
    size_t n = fuzz_split(data, size, part, 2 + MAX_FILLS);
    tells_error err;
    tells_error_clear(&err);
    template_set s, bases;
    if (fuzz_check(templates_load(&s, table_file("templates", &part[0]), &err), &err,
                   "templates_load") < 0)
        return 0;
    if (n > 1 && part[1].size > 0) {
        if (fuzz_check(templates_load(&bases, table_file("bases", &part[1]), &err), &err,
                       "templates_load") == 0) {
            fuzz_check(templates_assign_bases(&s, &bases, &err), &err,
                       "templates_assign_bases");
            templates_free(&bases);
        }
    }
    fill_set f = {0};
    for (size_t k = 2; k < n; k++) {
        char first[256], spec[512], file[32];
        fuzz_part rest;
        fuzz_first_line(&part[k], first, sizeof first, &rest);
        snprintf(file, sizeof file, "fill%zu.txt", k - 1);
        const char *path = fuzz_file(file, rest.data, rest.size);
        char *eq = strchr(first, '=');
        if (eq && eq[1] == '@')
            snprintf(spec, sizeof spec, "%s", first);
        else {
            if (eq)
                *eq = '\0';
            snprintf(spec, sizeof spec, "%s=%s", first, path);
        }
        const char *colon = strrchr(first, ':');
        bool pair = strchr(colon ? colon : first, ',') != NULL;
        fuzz_check(fill_add(&f, spec, pair, &err), &err, "fill_add");
    }
    expand(&s, &f, size % 3);
    fill_set_free(&f);
    templates_free(&s);
    return 0;
}
