/* Templates: the built-in time generators, articles, bases, the
   cartesian expansion order, sampling, and the kinds of the errors. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/templates.h"

static const char *srcdir(void)
{
    const char *s = getenv("top_srcdir");
    return s && *s ? s : ".";
}

int main(void)
{
    tells_error err;
    fill_set f = {0};
    CHECK(fill_add(&f, "t=@time", false, &err) == 0);
    CHECK(f.list[0].n == 75);
    CHECK_STR(f.list[0].values[0], "1 day");
    CHECK_STR(f.list[0].values[1], "2 days");
    CHECK_STR(f.list[0].values[74], "25 months");
    CHECK(fill_add(&f, "Cap:s,l=@time-pairs", true, &err) == 0);
    CHECK(f.list[1].n == 3 * 300);
    CHECK_STR(f.list[1].values[0], "1 day");
    CHECK_STR(f.list[1].values[1], "2 days");
    CHECK_STR(f.list[1].capability, "Cap");
    CHECK(fill_add(&f, "x=@time-pairs", false, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "@time-pairs fills two placeholders together");
    CHECK(fill_add(&f, "s,l=@time", true, &err) < 0);
    CHECK_STR(err.msg, "@time fills one placeholder");
    CHECK(fill_add(&f, "x=@moon", false, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK(fill_add(&f, "a,b=@time-pairs", false, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "expected [CAPABILITY:]NAME=FILE, not 'a,b=@time-pairs'");
    CHECK(fill_add(&f, "x=/no/such/tells/file", false, &err) < 0);
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK_STR(err.file, "/no/such/tells/file");
    CHECK(f.n == 2);

    /* Articles and the product order: {b} first appears before {a}. */
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/run/templates.tsv", srcdir());
    template_set s;
    CHECK(templates_load(&s, path, &err) == 0);
    CHECK(s.n == 5);
    CHECK_STR(s.row[1].name, "art");
    CHECK(s.row[1].nslots == 2);
    CHECK_STR(s.row[1].slots[0], "drug");
    CHECK(s.row[2].type == TEST_INV);
    CHECK(s.row[3].type == TEST_DIR && s.row[3].direction == DIR_UP);
    CHECK(s.row[4].direction == DIR_DOWN);
    char *set = template_slot_set(&s.row[1]);
    CHECK_STR(set, "ade,drug");
    free(set);
    fill_set g = {0};
    snprintf(path, sizeof path, "ade=%s/tests/data/run/ade.txt", srcdir());
    CHECK(fill_add(&g, path, false, &err) == 0);
    snprintf(path, sizeof path, "drug=%s/tests/data/run/drug.txt", srcdir());
    CHECK(fill_add(&g, path, false, &err) == 0);
    expand_options o = {0};
    case_set cs;
    CHECK(cases_expand(&cs, &s, &g, &o, &err) == 0);
    CHECK(cs.n == 20);
    CHECK_STR(cs.c[4].text, "zoloft gave me a headache, headache again.");
    CHECK_STR(cs.c[5].text, "zoloft gave me an itch, itch again.");
    /* INV varies drug: the group is the ade, drugs 0 and 1 share it. */
    CHECK(cs.c[8].group == cs.c[10].group && cs.c[8].group != cs.c[9].group);
    CHECK(cs.c[12].reference && !cs.c[14].reference);
    CHECK_STR(case_value(&cs, &cs.c[6], 0), "effexor");
    cases_free(&cs);

    /* Samples: one drug of two, the same draw each time; too many, or of
       no list, are usage errors about the sample. */
    CHECK(expand_add_sample(&o, "drug=1", 4, 1, &err) == 0);
    CHECK(o.nsamples == 1);
    CHECK_STR(o.samples[0].name, "drug");
    CHECK(samples_check(&g, &o, &err) == 0);
    CHECK(cases_expand(&cs, &s, &g, &o, &err) == 0);
    CHECK(cs.n == 10);
    cases_free(&cs);
    o.samples[0].n = 5;
    CHECK(samples_check(&g, &o, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    snprintf(path, sizeof path, "drug=5: only 2 values in %s/tests/data/run/drug.txt",
             srcdir());
    CHECK_STR(err.msg, path);
    CHECK(cases_expand(&cs, &s, &g, &o, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK(expand_add_sample(&o, "dose", 4, 1, &err) == 0);
    o.samples[0].n = 1;
    CHECK(samples_check(&g, &o, &err) < 0);
    CHECK_STR(err.msg, "dose: no fill-in list of that name");
    CHECK(expand_add_per_base(&o, NULL, 0, 1, &err) == 0);
    CHECK(expand_add_per_base(&o, "Robust", 6, 0, &err) == 0);
    CHECK(o.nper_base == 2 && o.per_base[0].capability == NULL);
    CHECK_STR(o.per_base[1].capability, "Robust");
    expand_options_free(&o);
    CHECK(o.nsamples == 0 && o.samples == NULL);

    /* A placeholder without a list: tagged with its name. */
    fill_set only_ade = {0};
    snprintf(path, sizeof path, "ade=%s/tests/data/run/ade.txt", srcdir());
    CHECK(fill_add(&only_ade, path, false, &err) == 0);
    CHECK(cases_expand(&cs, &s, &only_ade, &o, &err) < 0);
    CHECK(err.kind == TELLS_ERR_DATA && err.line == 2);
    CHECK(err.code == TELLS_E_NO_FILL);
    CHECK_STR(err.subject, "drug");
    CHECK_STR(err.msg, "no fill-in list for {drug}");
    fill_set_free(&only_ade);
    templates_free(&s);
    fill_set_free(&g);

    /* Every base of the ADE templates keeps at least one variation. */
    template_set all, base;
    snprintf(path, sizeof path, "%s/corpora/ade-templates/templates_all.csv", srcdir());
    CHECK(templates_load(&all, path, &err) == 0);
    snprintf(path, sizeof path, "%s/corpora/ade-templates/templates_base.csv", srcdir());
    CHECK(templates_load(&base, path, &err) == 0);
    CHECK(all.n == 1505 && base.n == 99);
    CHECK(templates_assign_bases(&all, &base, &err) == 0);
    size_t distinct = 0;
    for (size_t j = 0; j < base.n; j++) {
        size_t members = 0;
        for (size_t i = 0; i < all.n; i++)
            members += strcmp(all.row[i].base, base.row[j].name) == 0;
        distinct += members > 0;
    }
    CHECK(distinct == 99);
    CHECK_STR(all.row[0].base, "0");  /* "I started taking {drug} after encountering {ade}." */
    templates_free(&all);
    templates_free(&base);
    fill_set_free(&f);
    CHECK_DONE();
}
