#include <config.h>
#include "study/capstudy.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/baselines.h"
#include "analysis/capability.h"
#include "analysis/templates.h"
#include "base/alloc.h"
#include "base/dataset.h"
#include "base/outfile.h"
#include "model/classifier.h"
#include "study/figure.h"
#include "study/page.h"
#include "text/prep.h"

enum { ADE_EPOCH = 25, ADE_BUCKET = 100000, PREDICT_BATCH = 512 };

void capstudy_config_default(capstudy_config *c, const char *data)
{
    memset(c, 0, sizeof *c);
    c->data = data;
    c->seed = 1;
    c->figures = true;
    c->gnuplot = "gnuplot";
}

typedef struct cap {
    const capstudy_config *c;
    const char *dir;
    char *path[16];            /* every path made, freed at the end */
    size_t npath;
} cap;

/* DIR-relative (or data-relative) paths, kept until the end. */
static const char *path_in(cap *k, const char *base, const char *name, tells_error *err)
{
    size_t n = strlen(base) + strlen(name) + 2;
    char *p = k->npath < 16 ? malloc(n) : NULL;
    if (!p) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    snprintf(p, n, "%s/%s", base, name);
    k->path[k->npath++] = p;
    return p;
}

static void say(const cap *k, const char *msg)
{
    if (k->c->progress)
        k->c->progress(msg, k->c->progress_user);
}

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    return comparison_write_table(fp, ctx, false, err);
}

/* The posts, prepared as single texts; a classifier trained on train,
   scored on test, kept as ade.bin. */
static int train_model(cap *k, const char *prepared, const char *model, tells_error *err)
{
    const char *in[3];
    static const char *split[3] = {"train", "dev", "test"};
    char name[64];
    for (int s = 0; s < 3; s++) {
        snprintf(name, sizeof name, "ade-posts/%s.jsonl", split[s]);
        if (!(in[s] = path_in(k, k->c->data, name, err)))
            return -1;
    }
    prep_input inputs[3] = {{"train", in[0]}, {"dev", in[1]}, {"test", in[2]}};
    prep_options po = {.fields = {.id = "id", .label = "label", .premise = "",
                                  .hypothesis = "text"}};
    say(k, "ADE: preparing the posts");
    if (prep_run(&po, inputs, 3, prepared, NULL, NULL, err) < 0)
        return -1;
    dataset d;
    if (dataset_load(&d, prepared, err) < 0)
        return -1;
    comparison_config cc;
    comparison_config_default(&cc);
    cc.train = "train";
    const char *test = "test";
    cc.eval = &test;
    cc.neval = 1;
    cc.ft.epoch = ADE_EPOCH;
    cc.ft.bucket = ADE_BUCKET;
    cc.ft.seed = (int)k->c->seed;
    cc.keep_model = true;
    comparison cmp = {0};
    say(k, "ADE: training the classifier");
    int rc = comparison_run(&cmp, &d, &cc, err);
    const char *table = rc == 0 ? path_in(k, k->dir, "baseline.tsv", err) : NULL;
    if (rc == 0)
        rc = table ? out_write(table, write_table, &cmp, err) : -1;
    if (rc == 0)
        rc = fasttext_save(cmp.model, model, err);
    comparison_free(&cmp);
    dataset_free(&d);
    return rc;
}

/* The templates and fill-in lists as the template study sampled them. */
static int load_tests(cap *k, template_set *ts, template_set *bases, fill_set *fills,
                      expand_options *eo, tells_error *err)
{
    const char *all = path_in(k, k->c->data, "ade-templates/templates_all.csv", err);
    const char *base = path_in(k, k->c->data, "ade-templates/templates_base.csv", err);
    const char *ent = path_in(k, k->c->data, "ade-templates/entities", err);
    if (!all || !base || !ent)
        return -1;
    if (templates_load(ts, all, err) < 0 || templates_load(bases, base, err) < 0 ||
        templates_assign_bases(ts, bases, err) < 0)
        return -1;
    /* Milder effects for positive sentiment: the template study's own
       choice is not in its files; this is ours (README). */
    static const char *const fill[][2] = {
        {"ade=", "ades.txt"}, {"PosSent:ade=", "ades_mild.txt"}, {"drug=", "drugs.txt"},
    };
    for (size_t i = 0; i < sizeof fill / sizeof *fill; i++) {
        char spec[4200];
        snprintf(spec, sizeof spec, "%s%s/%s", fill[i][0], ent, fill[i][1]);
        if (fill_add(fills, spec, false, err) < 0)
            return -1;
    }
    if (fill_add(fills, "time_entity=@time", false, err) < 0 ||
        fill_add(fills, "time_entity_s,time_entity_l=@time-pairs", true, err) < 0)
        return -1;
    eo->max_cases = EXPAND_MAX_CASES_DEFAULT;
    if (expand_add_sample(eo, "time_entity", 11, 7, err) < 0 ||
        expand_add_sample(eo, "time_entity_s", 13, 7, err) < 0 ||
        expand_add_per_base(eo, NULL, 0, 1, err) < 0 ||
        expand_add_per_base(eo, "Beneff", 6, 0, err) < 0)
        return -1;
    return 0;
}

static double row_recall(const report_context *x, const summary_row *row)
{
    const template_row *t = &x->s->row[row->first];
    long cls = t->type == TEST_MFT ? classifier_find(x->c, label_map_apply(x->m, t->label)) : -1;
    return cls >= 0 ? x->heldout_recall[cls] : NAN;
}

/* The capability figure: pass rate beside held-out recall per test. */
static int capabilities_data(FILE *fp, const void *xp, const void *smp)
{
    const report_context *x = xp;
    const summary *sm = smp;
    fputs("test\tpass_rate\theldout_recall\n", fp);
    for (size_t i = 0; i < sm->n; i++) {
        const summary_row *row = &sm->row[i];
        /* "capability label type": the test's name on the axis. */
        char name[512];
        size_t tabs = 0, n = 0;
        for (const char *p = row->key; *p && n + 1 < sizeof name; p++) {
            if (*p == '\t' && ++tabs == 3)
                break;
            name[n++] = *p == '\t' ? ' ' : *p;
        }
        name[n] = '\0';
        fig_data_string(fp, name);
        double pass = row->cases ? (double)row->passed / (double)row->cases : NAN;
        double rec = row_recall(x, row);
        fprintf(fp, "\t%.6f\t", pass);
        if (isnan(rec))
            fputs("NaN\n", fp);
        else
            fprintf(fp, "%.6f\n", rec);
    }
    return ferror(fp) ? -1 : 0;
}

/* The key above the plot, clear of the bars; the tilted names with room
   on the right for the last. */
static int capabilities_script(FILE *fp, const void *xp, const void *smp)
{
    (void)xp;
    const summary *sm = smp;
    fig_script_head(fp, "capabilities", 760, 420);
    fprintf(fp, "set boxwidth 0.34\n"
                "set yrange [0:1]\nset xrange [-0.6:%zu.6]\nset xtics rotate by -30 left\n"
                "set key outside top center horizontal\nset ylabel 'rate'\n"
                "set bmargin 7\nset rmargin 10\n"
                "plot 'capabilities.dat' skip 1 using ($0 - 0.18):2 with boxes "
                "title 'pass rate' lc rgb '#2b5fa8', \\\n"
                "     '' skip 1 using ($0 + 0.18):3 with boxes title 'held-out recall' "
                "lc rgb '#c7a26b', \\\n"
                "     '' skip 1 using 0:(NaN):xtic(1) with points notitle\n",
            sm->n ? sm->n - 1 : 0);
    return ferror(fp) ? -1 : 0;
}

typedef struct cap_page {
    const report_context *x;
    const summary *sm;
    page pg;
} cap_page;

static int write_page(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    cap_page *cp = ctx;
    const summary *sm = cp->sm;
    cp->pg.fp = fp;
    page_head(fp, "ADE capability tests");
    fputs("<h1>ADE capability tests</h1>\n"
          "<p>A fastText classifier of adverse drug events, trained on generated posts, on "
          "the ADE templates (CheckList-style capability tests), each pass rate beside the "
          "model's recall of the test's label on held-out posts: a test failed by a model "
          "that does well on held-out data points at a shortcut it learned.</p>\n",
          fp);
    page_figure(&cp->pg, "capabilities",
                "Pass rate and held-out recall per test (<code>capabilities.tsv</code>).");
    fputs("<table>\n<tr><th>capability</th><th>label</th><th>type</th><th>cases</th>"
          "<th>pass rate</th><th>held-out recall</th></tr>\n",
          fp);
    for (size_t i = 0; i < sm->n; i++) {
        const summary_row *row = &sm->row[i];
        char key[512];
        snprintf(key, sizeof key, "%s", row->key);
        char *f[4] = {key, "", "", ""};
        for (int j = 1; j < 4; j++) {
            char *tab = strchr(f[j - 1], '\t');
            if (!tab)
                break;
            *tab = '\0';
            f[j] = tab + 1;
        }
        fputs("<tr>", fp);
        for (int j = 0; j < 3; j++)
            page_cell_text(fp, f[j]);
        fprintf(fp, "<td class=\"n\">%zu</td><td class=\"n\">%.3f</td>", row->cases,
                row->cases ? (double)row->passed / (double)row->cases : 0.0);
        double rec = row_recall(cp->x, row);
        if (isnan(rec))
            fputs("<td>-</td>", fp);
        else
            fprintf(fp, "<td class=\"n\">%.3f</td>", rec);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
    page_foot(fp);
    return 0;
}

static int write_report(cap *k, const report_context *x, tells_error *err)
{
    summary sm;
    if (summary_compute(&sm, x, err) < 0)
        return -1;
    const char *figdir = path_in(k, k->dir, "figures", err);
    const char *html = path_in(k, k->dir, "report.html", err);
    cap_page cp = {x, &sm, {.figdir = figdir}};
    int rc = figdir && html ? 0 : -1;
    if (rc == 0 && !k->c->figures)
        cp.pg.why_not = "figures were not asked for";
    else if (rc == 0) {
        if (mkdir(figdir, 0777) != 0 && errno != EEXIST)
            rc = tells_error_io(err, figdir, 0, "cannot create: %s", strerror(errno));
        figset f = {.dir = figdir};
        if (rc == 0)
            rc = figure_add(&f, "capabilities", capabilities_data, capabilities_script, x,
                            &sm, err);
        if (rc == 0)
            rc = figures_draw(k->c->gnuplot, &f, err);
        cp.pg.drawn = rc == 0;
    }
    if (rc == 0)
        rc = out_write(html, write_page, &cp, err);
    summary_free(&sm);
    return rc;
}

int capstudy_run(const capstudy_config *c, const char *dir, FILE *print, tells_error *err)
{
    cap k = {.c = c, .dir = dir};
    template_set ts = {0}, bases = {0};
    fill_set fills = {0};
    expand_options eo = {0};
    case_set cs = {0};
    input_lines lines = {0};
    dataset d = {0};
    heldout h = {0};
    run_results res = {0};
    label_map labels = {0};
    classifier *model = NULL;
    double *recall = NULL;
    bool loaded = false, ran = false;
    out_set outs = {0};
    const char *prepared = path_in(&k, dir, "prepared.tsv", err);
    const char *bin = path_in(&k, dir, "ade.bin", err);
    int rc = prepared && bin ? train_model(&k, prepared, bin, err) : -1;
    if (rc == 0)
        rc = load_tests(&k, &ts, &bases, &fills, &eo, err);
    tok_options tok = {.kind = TOKENIZER_DEFAULT};
    if (rc == 0)
        rc = cases_expand(&cs, &ts, &fills, &eo, err);
    if (rc == 0)
        rc = case_lines(&cs, &tok, &lines, err);
    if (rc == 0)
        rc = dataset_load(&d, prepared, err);
    loaded = rc == 0;
    if (rc == 0)
        rc = heldout_select(&h, &d, "test", err);
    if (rc == 0)
        rc = classifier_open_fasttext(&model, bin, err);
    if (rc == 0) {
        classifier_expect(model, h.n + lines.n);
        say(&k, "ADE: running the capability tests");
        rc = heldout_predict(&h, false, model, PREDICT_BATCH, err);
    }
    if (rc == 0)
        rc = heldout_recall(&h, model, &recall, err);
    if (rc == 0)
        rc = run_cases(&res, &cs, &ts, &labels, model, lines.v, PREDICT_BATCH, err);
    ran = rc == 0;
    report_context x = {&ts, &cs, &res, &labels, model, recall, false};
    const char *table = rc == 0 ? path_in(&k, dir, "capabilities.tsv", err) : NULL;
    const char *failures = rc == 0 ? path_in(&k, dir, "failures.csv", err) : NULL;
    FILE *tfp = NULL, *ffp = NULL;
    if (rc == 0)
        rc = table && failures ? 0 : -1;
    if (rc == 0 && !(tfp = out_set_open(&outs, table, err)))
        rc = -1;
    if (rc == 0 && !(ffp = out_set_open(&outs, failures, err)))
        rc = -1;
    if (rc == 0)
        rc = report_summary(tfp, &x, err);
    if (rc == 0) {
        report_failures(ffp, &x);
        rc = out_set_commit(&outs, err);
    } else
        out_set_abort(&outs);
    /* The report reads the model's classes: it comes before the model
       is let go. */
    if (rc == 0)
        rc = write_report(&k, &x, err);
    if (rc == 0 && print) {
        fprintf(print, "-- ADE capability tests, %zu cases (capabilities.tsv)\n", cs.n);
        rc = report_summary(print, &x, err);
    }
    if (model) {
        if (rc == 0)
            rc = classifier_finish(model, err);
        else
            classifier_abort(model);
        model = NULL;
    }
    if (ran)
        run_results_free(&res);
    free(recall);
    heldout_free(&h);
    if (loaded)
        dataset_free(&d);
    input_lines_free(&lines);
    cases_free(&cs);
    expand_options_free(&eo);
    fill_set_free(&fills);
    templates_free(&ts);
    templates_free(&bases);
    label_map_free(&labels);
    for (size_t i = 0; i < k.npath; i++)
        free(k.path[i]);
    return rc;
}
