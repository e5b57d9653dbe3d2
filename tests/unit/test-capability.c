/* Capability scoring and reports: the label map, the default class
   list, input lines, the summary rows and their count under a rate, the
   per-class recall table, and the kinds of the errors. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "analysis/capability.h"

static const char *srcdir(void)
{
    const char *s = getenv("top_srcdir");
    return s && *s ? s : ".";
}

static void labels(void)
{
    label_map m = {0};
    tells_error err;
    tells_error_clear(&err);
    CHECK(label_map_parse(&m, "0=no,1=yes", &err) == 0);
    CHECK(label_map_parse(&m, "1=YES", &err) == 0);
    CHECK(m.n == 3);
    CHECK_STR(label_map_apply(&m, "0"), "no");
    CHECK_STR(label_map_apply(&m, "1"), "YES");  /* the last pair wins */
    CHECK_STR(label_map_apply(&m, "2"), "2");
    CHECK(label_map_parse(&m, "a=b,oops", &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "expected FROM=TO, not 'oops'");
    label_map_free(&m);
}

static void classes(const template_set *ts)
{
    class_list l;
    tells_error err;
    tells_error_clear(&err);
    /* A spec keeps its order; a repeat or an empty item would shift the
       probabilities of every answer, so they are usage errors. */
    CHECK(class_list_default(&l, "b,a,c", NULL, NULL, NULL, NULL, &err) == 0);
    CHECK(l.n == 3);
    CHECK_STR(l.name[0], "b");
    CHECK_STR(l.name[1], "a");
    CHECK_STR(l.name[2], "c");
    class_list_free(&l);
    CHECK(class_list_default(&l, "b,a,,b", NULL, NULL, NULL, NULL, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "empty class name (item 3)");
    CHECK(l.n == 0 && l.name == NULL);
    CHECK(class_list_default(&l, "b,a,b", NULL, NULL, NULL, NULL, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "class 'b' listed twice (items 1 and 3)");
    CHECK(class_list_default(&l, "a,", NULL, NULL, NULL, NULL, &err) < 0);
    CHECK_STR(err.msg, "empty class name (item 2)");
    CHECK(class_list_default(&l, ",", ts, NULL, NULL, NULL, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "empty class name (item 1)");
    CHECK(class_list_default(&l, "", ts, NULL, NULL, NULL, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "no class named");
    CHECK(l.n == 0 && l.name == NULL);

    /* Else the MFT labels (mapped) and DIR classes, in byte order. */
    label_map m = {0};
    CHECK(label_map_parse(&m, "0=zero", &err) == 0);
    CHECK(class_list_default(&l, NULL, ts, &m, NULL, NULL, &err) == 0);
    CHECK(l.n == 2);
    CHECK_STR(l.name[0], "1");
    CHECK_STR(l.name[1], "zero");
    class_list_free(&l);
    label_map_free(&m);

    /* The tree's outputs count too. */
    test_tree tr;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/run/tree.csv", srcdir());
    CHECK(tree_load(&tr, path, &err) == 0);
    CHECK(class_list_default(&l, NULL, NULL, NULL, &tr, NULL, &err) == 0);
    CHECK(l.n == 2);
    CHECK_STR(l.name[0], "0");
    CHECK_STR(l.name[1], "1");
    class_list_free(&l);

    input_lines lines;
    tok_options tok = {0};
    tok.kind = TOKENIZER_DEFAULT;
    CHECK(tree_lines(&tr, &tok, &lines, &err) == 0);
    CHECK(lines.n == 6);
    CHECK_STR(lines.v[5], "i had itch then took effexor");
    input_lines_free(&lines);
    tree_free(&tr);
}

/* The contents of a memory stream written by write. */
static char *written(void (*write)(FILE *, void *), void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    write(fp, ctx);
    fclose(fp);
    return buf;
}

static void write_recall(FILE *fp, void *ctx)
{
    const void **a = ctx;
    report_recall(fp, a[0], a[1]);
}

static void write_summary(FILE *fp, void *ctx)
{
    tells_error err;
    CHECK(report_summary(fp, ctx, &err) == 0);
}

static void reports(const template_set *ts, const char *tmpdir)
{
    tells_error err;
    tells_error_clear(&err);
    fill_set f = {0};
    char path[4096];
    snprintf(path, sizeof path, "ade=%s/tests/data/run/ade.txt", srcdir());
    CHECK(fill_add(&f, path, false, &err) == 0);
    snprintf(path, sizeof path, "drug=%s/tests/data/run/drug.txt", srcdir());
    CHECK(fill_add(&f, path, false, &err) == 0);
    expand_options eo = {0};
    case_set cs;
    CHECK(cases_expand(&cs, ts, &f, &eo, &err) == 0);
    input_lines lines;
    CHECK(case_lines(&cs, NULL, &lines, &err) == 0);
    CHECK(lines.n == 20);
    CHECK_STR(lines.v[0], "I had no headache on zoloft.");

    /* The cases go out one per line; the answers come back the same way. */
    snprintf(path, sizeof path, "%s/cases", tmpdir);
    CHECK(input_lines_write(path, &lines, &err) == 0);
    FILE *fp = fopen(path, "r");
    char line[256];
    size_t n = 0;
    while (fp && fgets(line, sizeof line, fp))
        n++;
    if (fp)
        fclose(fp);
    CHECK(n == 20);
    unlink(path);

    /* Every case: class 1 with p(1) 0.8. MFT label 0 fails, label 1
       passes; INV and DIR pass (nothing moves). */
    snprintf(path, sizeof path, "%s/answers", tmpdir);
    fp = fopen(path, "w");
    for (size_t i = 0; fp && i < 20; i++)
        fputs("1 0.2 0.8\n", fp);
    if (fp)
        fclose(fp);
    char *names[] = {"0", "1"};
    classifier *c;
    CHECK(classifier_open_predictions(&c, path, names, 2, &err) == 0);
    label_map m = {0};
    run_results r;
    CHECK(run_cases(&r, &cs, ts, &m, c, lines.v, 7, &err) == 0);
    report_context x = {ts, &cs, &r, &m, c, NULL, false};

    summary sm;
    CHECK(summary_compute(&sm, &x, &err) == 0);
    CHECK(sm.n == 4);
    CHECK_STR(sm.row[0].key, "Negation\t0\tMFT\tade,drug");
    CHECK(sm.row[0].cases == 4 && sm.row[0].passed == 0 && sm.row[0].templates == 1);
    CHECK_STR(sm.row[3].key, "Robust\t-\tDIR\tade,drug");
    CHECK(sm.row[3].templates == 2 && sm.row[3].cases == 8 && sm.row[3].passed == 8);
    CHECK(sm.row[3].first == 3);
    CHECK(summary_below(&sm, 0) == 0);
    CHECK(summary_below(&sm, 0.5) == 1);
    CHECK(summary_below(&sm, 1) == 1);
    summary_free(&sm);

    double recall[2] = {0.25, NAN};
    x.heldout_recall = recall;
    char *out = written(write_summary, &x);
    CHECK_STR(out, "capability\tlabel\ttype\tplaceholders\ttemplates\tcases\tpassed\tpass_rate"
                   "\theldout_recall\n"
                   "Negation\t0\tMFT\tade,drug\t1\t4\t0\t0.000000\t0.250000\n"
                   "Article\t1\tMFT\tade,drug\t1\t4\t4\t1.000000\t-\n"
                   "Robust\t-\tINV\tade,drug\t1\t4\t4\t1.000000\t-\n"
                   "Robust\t-\tDIR\tade,drug\t2\t8\t8\t1.000000\t-\n");
    free(out);

    const void *ctx[2] = {c, recall};
    out = written(write_recall, ctx);
    CHECK_STR(out, "class\trecall\n0\t0.250000\n1\t-\n");
    free(out);

    /* A placeholder no template uses: a data error naming it. */
    tells_error_clear(&err);
    FILE *null = fopen("/dev/null", "w");
    CHECK(report_by_fill(null, &x, "dose", &err) < 0);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "dose: no template uses {dose}");
    fclose(null);

    run_results_free(&r);
    CHECK(classifier_finish(c, &err) == 0);
    unlink(path);

    /* A label the model lacks: tagged for the program's advice. */
    CHECK(classifier_open_predictions(&c, path, (char *[]){"no", "yes"}, 2, &err) < 0);
    CHECK(err.kind == TELLS_ERR_IO);
    fp = fopen(path, "w");
    if (fp)
        fclose(fp);
    CHECK(classifier_open_predictions(&c, path, (char *[]){"no", "yes"}, 2, &err) == 0);
    CHECK(run_cases(&r, &cs, ts, &m, c, lines.v, 7, &err) < 0);
    CHECK(err.code == TELLS_E_NOT_A_CLASS);
    CHECK_STR(err.subject, "0");
    CHECK_STR(err.msg, "label '0' is not a class of the model");
    classifier_abort(c);
    unlink(path);

    input_lines_free(&lines);
    cases_free(&cs);
    fill_set_free(&f);
}

int main(void)
{
    char tmpdir[] = "/tmp/test-capability.XXXXXX";
    CHECK(mkdtemp(tmpdir) != NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/run/templates.tsv", srcdir());
    template_set ts;
    tells_error err;
    CHECK(templates_load(&ts, path, &err) == 0);
    labels();
    classes(&ts);
    reports(&ts, tmpdir);
    templates_free(&ts);
    rmdir(tmpdir);
    CHECK_DONE();
}
