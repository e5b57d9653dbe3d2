/* Templates: the built-in time generators, articles, bases, the
   cartesian expansion order, sampling, the kinds of the errors, the
   placeholder grammar, and the case count and its limit. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "analysis/templates.h"

static const char *srcdir(void)
{
    const char *s = getenv("top_srcdir");
    return s && *s ? s : ".";
}

/* template_check's message on text as "FILE:LINE:COLUMN: msg", or "". */
static const char *checked(const char *text, const char *field)
{
    static char buf[2200];
    tells_error err;
    tells_error_clear(&err);
    buf[0] = '\0';
    if (template_check(text, "t.tsv", 7, field, &err) < 0) {
        CHECK(err.kind == TELLS_ERR_DATA);
        tells_error_format(&err, buf, sizeof buf);
    }
    return buf;
}

static void grammar(void)
{
    CHECK_STR(checked("I had {ade} on {drug}, {a:ade} {_x1}.", NULL), "");
    CHECK_STR(checked("no braces at all", NULL), "");
    CHECK_STR(checked("", NULL), "");
    CHECK_STR(checked("{a}{a:a}", NULL), "");
    CHECK_STR(checked("no {ade", NULL), "t.tsv:7:4: '{' without a closing '}'");
    CHECK_STR(checked("no {ade on {drug}", NULL), "t.tsv:7:4: '{' without a closing '}'");
    CHECK_STR(checked("no ade} on", NULL), "t.tsv:7:7: '}' without an opening '{'");
    CHECK_STR(checked("{ade}}", NULL), "t.tsv:7:6: '}' without an opening '{'");
    CHECK_STR(checked("a {}", NULL), "t.tsv:7:3: empty placeholder '{}'");
    CHECK_STR(checked("{{ade}}", NULL),
              "t.tsv:7:1: '{{' (braces only enclose placeholders: {name} or {a:name})");
    CHECK_STR(checked("x {a:}", NULL), "t.tsv:7:3: '{a:}' without a placeholder name");
    CHECK_STR(checked("x {:ade}", NULL),
              "t.tsv:7:4: unknown prefix ':' (only {a:name}, for the article)");
    CHECK_STR(checked("x {the:ade}", NULL),
              "t.tsv:7:4: unknown prefix 'the:' (only {a:name}, for the article)");
    CHECK_STR(checked("x {a:b:c}", NULL),
              "t.tsv:7:6: bad placeholder name 'b:c' (letters, digits and '_', not starting "
              "with a digit)");
    CHECK_STR(checked("x {9lives}", NULL),
              "t.tsv:7:4: bad placeholder name '9lives' (letters, digits and '_', not starting "
              "with a digit)");
    CHECK_STR(checked("x {dr-ug}", NULL),
              "t.tsv:7:4: bad placeholder name 'dr-ug' (letters, digits and '_', not starting "
              "with a digit)");
    CHECK_STR(checked("x {a:d{rug}}", NULL), "t.tsv:7:7: '{' inside a placeholder");
    /* Columns count characters; the field is named when not the template. */
    CHECK_STR(checked("ÉéÉ {ade", "premise"),
              "t.tsv:7:5: '{' without a closing '}' in the premise");
    CHECK_STR(checked("x {ééééééééééééééééééééééééééééééé}", NULL),
              "t.tsv:7:4: bad placeholder name 'éééééééééééééééééééé' (letters, digits and '_', "
              "not starting with a digit)");
}

/* Writes text to a new temporary .tsv; its name in path. */
static void write_tsv(char *path, const char *text)
{
    strcpy(path, "/tmp/test-templates-XXXXXX.tsv");
    int fd = mkstemps(path, 4);
    CHECK(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    fputs(text, fp);
    fclose(fp);
}

static void counting(void)
{
    tells_error err;
    char path[64];
    write_tsv(path, "name\tcapability\tlabel\ttemplate\n"
                    "one\tA\t0\t{t} and {s} {l}\n"
                    "two\tA\t0\t{t} {t} {u}\n"
                    "many\tB\t0\t{t}{u}{v}{w}{x}{y}{z}{t2}{u2}{v2}{w2}\n");
    template_set s;
    CHECK(templates_load(&s, path, &err) == 0);
    unlink(path);
    fill_set f = {0};
    const char *specs[] = { "t=@time", "u=@time", "v=@time", "w=@time", "x=@time", "y=@time",
                            "z=@time", "t2=@time", "u2=@time", "v2=@time", "w2=@time" };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        CHECK(fill_add(&f, specs[i], false, &err) == 0);
    CHECK(fill_add(&f, "s,l=@time-pairs", true, &err) == 0);

    /* Only the first two: 75 * 900 (a pair counts once) + 75 * 75. */
    template_set two = s;
    two.n = 2;
    case_count n;
    expand_options o = {0};
    CHECK(cases_count(&n, &two, &f, &o, &err) == 0);
    CHECK(n.total == 75 * 900 + 75 * 75);
    CHECK(n.largest == 0 && n.largest_n == 75 * 900);
    /* After sampling, and with one template per base. */
    CHECK(expand_add_sample(&o, "t", 1, 3, &err) == 0);
    CHECK(expand_add_sample(&o, "l", 1, 10, &err) == 0);
    CHECK(cases_count(&n, &two, &f, &o, &err) == 0);
    CHECK(n.total == 3 * 10 + 3 * 75);
    CHECK(n.largest == 1 && n.largest_n == 225);
    case_set cs;
    CHECK(cases_expand(&cs, &two, &f, &o, &err) == 0);
    CHECK(cs.n == n.total);
    cases_free(&cs);
    /* The limit: at it is fine, past it refused before expansion. */
    o.max_cases = 255;
    CHECK(cases_expand(&cs, &two, &f, &o, &err) == 0);
    cases_free(&cs);
    o.max_cases = 254;
    CHECK(cases_expand(&cs, &two, &f, &o, &err) < 0);
    CHECK(err.kind == TELLS_ERR_DATA && err.code == TELLS_E_TOO_MANY_CASES);
    CHECK_STR(err.file, path);
    CHECK_STR(err.msg, "the templates would make 255 cases, more than the limit of 254; "
                       "template 'two' on line 3 makes 225");
    CHECK(cs.n == 0 && cs.c == NULL);

    /* 75^11 does not fit: counted as SIZE_MAX, refused even without a
       limit, quickly. */
    expand_options_free(&o);
    CHECK(cases_count(&n, &s, &f, &o, &err) == 0);
    CHECK(n.total == SIZE_MAX && n.largest == 2 && n.largest_n == SIZE_MAX);
    CHECK(cases_expand(&cs, &s, &f, &o, &err) < 0);
    CHECK(err.code == TELLS_E_TOO_MANY_CASES);
    CHECK(strstr(err.msg, "would make more than 18446744073709551614 cases"));
    /* A missing list is an error of the count too. */
    fill_set none = {0};
    CHECK(cases_count(&n, &s, &none, &(expand_options){0}, &err) < 0);
    CHECK(err.code == TELLS_E_NO_FILL);
    expand_options_free(&o);
    fill_set_free(&f);
    templates_free(&s);
}

/* Days of an @time span, for the check: "3 weeks" is 21. */
static double span_days(const char *span)
{
    int n = atoi(span);
    const char *unit = strchr(span, ' ') + 1;
    return n * (unit[0] == 'd' ? 1 : unit[0] == 'w' ? 7 : 365.2425 / 12);
}

/* @time-pairs:duration relates spans across units (the ADE study's
   Table 1: "2 days" and "3 weeks"): every pair of @time spans with the
   first strictly shorter, 75 * 74 / 2 less the 3 of equal length (7 days
   and 1 week, 14 and 2, 21 and 3). */
static void time_pairs_by_duration(fill_set *f)
{
    tells_error err;
    CHECK(fill_add(f, "s,l=@time-pairs:duration", true, &err) == 0);
    const fill_list *l = &f->list[f->n - 1];
    CHECK(l->n == 75 * 74 / 2 - 3);
    bool found = false, tie = false, wrong = false;
    for (size_t i = 0; i < l->n; i++) {
        const char *a = l->values[2 * i], *b = l->values[2 * i + 1];
        found |= strcmp(a, "2 days") == 0 && strcmp(b, "3 weeks") == 0;
        tie |= strcmp(a, "7 days") == 0 && strcmp(b, "1 week") == 0;
        wrong |= !(span_days(a) < span_days(b));
    }
    CHECK(found && !tie && !wrong);
    CHECK_STR(l->values[0], "1 day");
    CHECK_STR(l->values[1], "2 days");
    /* 13 weeks (91 days) is shorter than 3 months (91.31). */
    bool weeks_months = false;
    for (size_t i = 0; i < l->n; i++)
        weeks_months |= strcmp(l->values[2 * i], "13 weeks") == 0 &&
                        strcmp(l->values[2 * i + 1], "3 months") == 0;
    CHECK(weeks_months);
    CHECK(fill_add(f, "x=@time-pairs:duration", false, &err) < 0);
    CHECK_STR(err.msg, "@time-pairs:duration fills two placeholders together");
}

int main(void)
{
    grammar();
    counting();
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
    CHECK(fill_add(&f, "x=@time-pairs:span", false, &err) < 0);
    CHECK_STR(err.msg, "unknown generator '@time-pairs:span' (@time, @time-pairs or "
                       "@time-pairs:duration)");
    time_pairs_by_duration(&f);

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
