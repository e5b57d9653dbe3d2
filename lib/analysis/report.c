#include <config.h>
#include "analysis/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/studydata.h"
#include "base/alloc.h"
#include "base/lineio.h"
#include "base/outfile.h"

extern char **environ;

enum { TOP_TOKENS_DRAWN = 10, SCORE_BINS = 20, MAX_FIGURES = 16 };

void svg_inline(FILE *fp, FILE *svg)
{
    /* From the <svg element on: the XML declaration and DOCTYPE have no
       place inside HTML. */
    char buf[1 << 14];
    size_t n;
    bool started = false;
    while ((n = fread(buf, 1, sizeof buf - 1, svg)) > 0) {
        buf[n] = '\0';
        char *from = buf;
        if (!started) {
            char *at = strstr(buf, "<svg");
            if (!at)
                continue;
            from = at;
            started = true;
        }
        fwrite(from, 1, n - (size_t)(from - buf), fp);
    }
}

void html_escape(FILE *fp, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&#39;", fp); break;
        default: putc(*s, fp);
        }
}

/* A string in a figure's data file: no tab or line end (the separator),
   and '' for " (gnuplot would take it as quoting). */
static void data_string(FILE *fp, const char *s)
{
    for (; *s; s++)
        if (*s == '"')
            fputs("''", fp);
        else
            putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, fp);
}

/* A string in a gnuplot script: single-quoted, where only ' is special
   (written twice). */
static void script_string(FILE *fp, const char *s)
{
    putc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            putc('\'', fp);
        putc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
    }
    putc('\'', fp);
}

/* ---- drawing ---- */

int figures_draw(const char *gnuplot, const char *dir, const char *const *names, size_t n,
                 tells_error *err)
{
    if (n == 0)
        return 0;
    char **argv = array_new(n + 2, sizeof *argv);
    char *log = malloc(strlen(dir) + 16);
    if (!argv || !log) {
        free(argv);
        free(log);
        return tells_error_nomem(err, NULL, 0);
    }
    sprintf(log, "%s/gnuplot.log", dir);
    argv[0] = (char *)gnuplot;
    char (*script)[80] = malloc(n * sizeof *script);
    if (!script) {
        free(argv);
        free(log);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(script[i], sizeof script[i], "%s.gp", names[i]);
        argv[i + 1] = script[i];
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    posix_spawn_file_actions_addchdir_np(&fa, dir);
    pid_t pid;
    int e = posix_spawnp(&pid, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int rc = 0;
    if (e != 0) {
        rc = tells_error_io(err, gnuplot, 0, "cannot run it to draw the figures: %s "
                            "(install gnuplot, Debian package gnuplot-nox, or give --no-figures)",
                            strerror(e));
    } else {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            /* Its last message says what went wrong. */
            char last[512] = "";
            line_reader lr;
            tells_error ignored;
            if (line_reader_open(&lr, log, 0, &ignored) == 0) {
                char *line;
                size_t len;
                while (line_reader_next(&lr, &line, &len, &ignored) == 1)
                    if (len)
                        snprintf(last, sizeof last, "%s", line);
                line_reader_close(&lr);
            }
            rc = tells_error_set(err, log, 0, "gnuplot failed drawing the figures%s%s",
                                 last[0] ? ": " : "", last);
            tells_error_tag(err, TELLS_E_LOG, NULL);
        }
    }
    free(script);
    free(argv);
    free(log);
    return rc;
}

/* ---- the figures' data and scripts ---- */

typedef struct figs {
    const study_result *r;
    char *dir;                  /* DIR/figures */
    const char *names[MAX_FIGURES];
    size_t n;
} figs;

/* Opens DIR/figures/NAME.EXT for writing. */
static FILE *fig_open(figs *f, out_file *o, const char *name, const char *ext,
                      tells_error *err)
{
    size_t len = strlen(f->dir) + strlen(name) + strlen(ext) + 3;
    char *path = malloc(len);
    if (!path) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    snprintf(path, len, "%s/%s.%s", f->dir, name, ext);
    int rc = out_open(o, path, err);
    free(path);
    return rc < 0 ? NULL : o->fp;
}

/* The terminal and look every figure shares. SVG ids start with the
   terminal's name, one per figure, so that the inlined figures of one
   page do not share ids. */
static void script_head(FILE *fp, const char *name, int width, int height)
{
    char id[64];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof id; i++)
        id[i] = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')
                    ? name[i]
                    : '_';
    id[i] = '\0';
    fprintf(fp,
            "# %s.svg from %s.dat: edit and run `gnuplot %s.gp` to draw it again.\n"
            "reset\n"
            "set terminal svg size %d,%d name 'fig_%s' font 'sans,11' noenhanced "
            "background rgb 'white'\n"
            "set output '%s.svg'\n"
            "set datafile separator '\\t'\n"
            "set border 3 lc rgb '#555555'\n"
            "set tics nomirror\n"
            "set grid ytics lc rgb '#dddddd'\n"
            "set style fill solid 0.8 noborder\n",
            name, name, name, width, height, id, name);
}

/* Writes NAME.dat with data and NAME.gp with script, both from the
   caller's writers, and lists the figure. */
typedef int (*fig_writer)(FILE *fp, figs *f, void *ctx);

static int figure(figs *f, const char *name, fig_writer data, fig_writer script, void *ctx,
                  tells_error *err)
{
    out_file o;
    const char *ext[2] = {"dat", "gp"};
    fig_writer w[2] = {data, script};
    for (int k = 0; k < 2; k++) {
        FILE *fp = fig_open(f, &o, name, ext[k], err);
        if (!fp)
            return -1;
        if (w[k](fp, f, ctx) < 0) {
            out_abort(&o);
            return tells_error_nomem(err, NULL, 0);
        }
        if (out_commit(&o, err) < 0)
            return -1;
    }
    if (f->n < MAX_FIGURES)
        f->names[f->n++] = name;
    return 0;
}

/* Class k in byte order: its name. */
static const char *class_name(const study_result *r, size_t k)
{
    return vocab_str(r->data.labels, r->class_order[k]);
}

/* 1. The top tokens of each class by PMI: one panel per class. */
static int tokens_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    for (size_t i = 0; i < r->pmi.nclasses; i++) {
        const pmi_class *pc = &r->pmi.classes[i];
        size_t top = pc->n < TOP_TOKENS_DRAWN ? pc->n : TOP_TOKENS_DRAWN;
        fputs("# rank\ttoken\tpmi\n", fp);
        /* Bottom to top: the strongest drawn highest. */
        for (size_t j = top; j-- > 0;) {
            fprintf(fp, "%zu\t", top - 1 - j);
            data_string(fp, vocab_str(r->tokens.tokens, pc->entries[j].token));
            fprintf(fp, "\t%.6f\n", pc->entries[j].pmi);
        }
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int tokens_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    size_t k = r->pmi.nclasses;
    script_head(fp, "tokens", 300 * (int)(k < 4 ? k : 4), 360);
    fprintf(fp, "set multiplot layout 1,%zu\n"
                "set xlabel 'PMI (bits)'\nunset grid\nset grid xtics lc rgb '#dddddd'\n",
            k);
    for (size_t i = 0; i < k; i++) {
        fputs("set title ", fp);
        script_string(fp, vocab_str(r->tokens.classes, r->pmi.classes[i].class_id));
        fprintf(fp, "\nset ytics scale 0\n"
                    "plot 'tokens.dat' index %zu using 3:1:(0):3:($1-0.4):($1+0.4):"
                    "ytic(2) with boxxyerror lc %zu notitle\n",
                i, i + 1);
    }
    fputs("unset multiplot\n", fp);
    return ferror(fp) ? -1 : 0;
}

/* 2. The competency plot: p_hat against n, one panel per class, and the
   significance boundary. */
static int competency_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    const competency_table *t = &r->comp;
    for (size_t k = 0; k < r->nclasses; k++) {
        size_t c = r->class_order[k];
        long cls = vocab_find(r->tokens.classes, vocab_str(r->data.labels, c),
                              strlen(vocab_str(r->data.labels, c)));
        fputs("# n\tp_hat\tsignificant\ttoken\n", fp);
        for (size_t i = 0; i < t->n; i++) {
            const competency_row *row = &t->rows[i];
            if (cls < 0 || row->class_id != (size_t)cls)
                continue;
            fprintf(fp, "%llu\t%.6f\t%d\t", (unsigned long long)row->n, row->p_hat,
                    row->significant);
            data_string(fp, vocab_str(r->tokens.tokens, row->token));
            putc('\n', fp);
        }
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int competency_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    size_t k = r->nclasses;
    const competency_table *t = &r->comp;
    double nmax = 10;
    for (size_t i = 0; i < t->n; i++)
        if ((double)t->rows[i].n > nmax)
            nmax = (double)t->rows[i].n;
    script_head(fp, "competency", 300 * (int)(k < 4 ? k : 4), 340);
    fprintf(fp, "set multiplot layout 1,%zu\n"
                "set logscale x\nset xrange [%d:%g]\nset yrange [0:1]\n"
                "set xlabel 'examples with the token (n)'\nset ylabel 'share of them in the "
                "class'\nunset key\n",
            k, 1, nmax * 1.5);
    double z = t->tested ? competency_critical_z(t->threshold) : 0;
    for (size_t i = 0; i < k; i++) {
        size_t c = r->class_order[i];
        double p0 = r->cfg->class_prior ? (double)r->class_n[c] / (double)r->data.n
                                        : 1.0 / (double)k;
        fputs("set title ", fp);
        script_string(fp, vocab_str(r->data.labels, c));
        /* The boundary p0 + z* sqrt(p0 (1 - p0) / n). */
        fprintf(fp, "\np0 = %.9g\nzs = %.9g\n"
                    "plot 'competency.dat' index %zu using 1:($3 == 0 ? $2 : 1/0) "
                    "with points pt 7 ps 0.3 lc rgb '#9a9a9a' title 'not significant', \\\n"
                    "     '' index %zu using 1:($3 == 1 ? $2 : 1/0) with points pt 7 "
                    "ps 0.5 lc %zu title 'significant', \\\n"
                    "     p0 + zs * sqrt(p0 * (1 - p0) / x) with lines lw 2 lc rgb '#1f4e9a' "
                    "title 'boundary', p0 with lines dt 2 lc rgb '#555555' title 'p0'\n",
                p0, z, i, i, i + 1);
    }
    fputs("unset multiplot\n", fp);
    return ferror(fp) ? -1 : 0;
}

/* 3. Hypothesis length by class: box plots. */
static int length_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    const length_table *lt = &r->lengths;
    for (size_t i = 0; i < r->nclasses; i++) {
        const char *name = class_name(r, i);
        long c = vocab_find(lt->classes, name, strlen(name));
        fputs("# length\n", fp);
        for (size_t j = 0; c >= 0 && j < lt->cls[c].n; j++)
            fprintf(fp, "%g\n", lt->cls[c].len[j]);
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

static void class_xtics(FILE *fp, const study_result *r, int first)
{
    fputs("set xtics (", fp);
    for (size_t i = 0; i < r->nclasses; i++) {
        if (i)
            fputs(", ", fp);
        script_string(fp, class_name(r, i));
        fprintf(fp, " %zu", i + (size_t)first);
    }
    fputs(")\n", fp);
}

static int length_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    script_head(fp, "length", 520, 340);
    fputs("set style boxplot fraction 0.99 nooutliers\nset style data boxplot\n"
          "set ylabel 'hypothesis length (tokens)'\nset yrange [0:*]\n", fp);
    fprintf(fp, "set xrange [0.3:%zu.7]\n", r->nclasses);
    class_xtics(fp, r, 1);
    fprintf(fp, "plot for [i=0:%zu] 'length.dat' index i using (i+1):1:(0.5) "
                "lc (i+1) notitle\n",
            r->nclasses - 1);
    return ferror(fp) ? -1 : 0;
}

/* 4. The models' accuracies with their intervals. */
static int models_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    static const char *shown[3] = {"majority class", "hypothesis only", "premise + hypothesis"};
    fputs("model\taccuracy\tlow\thigh\n", fp);
    for (int m = 0; m < 3; m++)
        fprintf(fp, "%s\t%.6f\t%.6f\t%.6f\n", shown[m], r->model[m].accuracy,
                r->model[m].ci.low, r->model[m].ci.high);
    return ferror(fp) ? -1 : 0;
}

static int models_script(FILE *fp, figs *f, void *ctx)
{
    (void)f;
    (void)ctx;
    script_head(fp, "baselines", 520, 340);
    fputs("set ylabel 'accuracy'\nset yrange [0:1]\nset boxwidth 0.6\nset xrange [-0.6:2.6]\n"
          "plot 'baselines.dat' skip 1 using 0:2:xtic(1) with boxes lc rgb '#6b8fc7' "
          "notitle, \\\n     '' skip 1 using 0:2:3:4 with yerrorbars lc rgb '#222222' pt 0 "
          "notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

/* 5. The hypothesis-only model's confusion matrix (rows gold). */
static int confusion_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    size_t L = vocab_size(r->data.labels), K = r->nclasses;
    fputs("predicted\tgold\tcount\tshare\n", fp);
    for (size_t g = 0; g < K; g++) {
        size_t gi = r->class_order[g], row = 0;
        for (size_t p = 0; p < K; p++)
            row += r->confusion[gi * L + r->class_order[p]];
        for (size_t p = 0; p < K; p++) {
            size_t n = r->confusion[gi * L + r->class_order[p]];
            fprintf(fp, "%zu\t%zu\t%zu\t%.6f\n", p, K - 1 - g, n,
                    row ? (double)n / (double)row : 0.0);
        }
    }
    return ferror(fp) ? -1 : 0;
}

static int confusion_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    size_t K = r->nclasses;
    script_head(fp, "confusion", 460, 400);
    fputs("unset grid\nset palette defined (0 '#ffffff', 1 '#2b5fa8')\nset cbrange [0:1]\n"
          "set cblabel 'share of the gold class'\nset xlabel 'predicted'\nset ylabel 'gold'\n",
          fp);
    fprintf(fp, "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n", K - 1, K - 1);
    class_xtics(fp, r, 0);
    fputs("set ytics (", fp);
    for (size_t i = 0; i < K; i++) {
        if (i)
            fputs(", ", fp);
        script_string(fp, class_name(r, i));
        fprintf(fp, " %zu", K - 1 - i);
    }
    fputs(")\nplot 'confusion.dat' skip 1 using 1:2:4 with image notitle, \\\n"
          "     '' skip 1 using 1:2:(sprintf('%d', $3)) with labels notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

/* 6. Each heuristic's pairs by class. */
static int heuristics_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    fputs("heuristic", fp);
    for (size_t k = 0; k < r->nclasses; k++) {
        putc('\t', fp);
        data_string(fp, class_name(r, k));
    }
    putc('\n', fp);
    for (size_t h = 0; h < r->hs.n; h++) {
        data_string(fp, r->hs.v[h].name);
        uint64_t total = 0;
        for (size_t k = 0; k < vocab_size(r->tally.classes); k++)
            total += r->tally.count[k * r->tally.nheur + h];
        for (size_t k = 0; k < r->nclasses; k++) {
            const char *name = class_name(r, k);
            long c = vocab_find(r->tally.classes, name, strlen(name));
            uint64_t n = c >= 0 ? r->tally.count[(size_t)c * r->tally.nheur + h] : 0;
            fprintf(fp, "\t%.6f", total ? (double)n / (double)total : 0.0);
        }
        putc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int heuristics_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    script_head(fp, "heuristics", 560, 340);
    fputs("set style data histograms\nset style histogram rowstacked\nset boxwidth 0.6\n"
          "set yrange [0:1]\nset ylabel 'share of the pairs it holds for'\n"
          "set key outside right\n",
          fp);
    fprintf(fp, "plot for [c=2:%zu] 'heuristics.dat' using c:xtic(1) title columnhead lc (c-1)\n",
            r->nclasses + 1);
    return ferror(fp) ? -1 : 0;
}

/* 7. AFLite: examples left after each round. */
static int rounds_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    fputs("round\tremaining\n", fp);
    fprintf(fp, "0\t%zu\n", r->data.n);
    for (size_t i = 0; i < r->nrounds; i++)
        fprintf(fp, "%zu\t%zu\n", r->rounds[i].round, r->rounds[i].remaining);
    return ferror(fp) ? -1 : 0;
}

static int rounds_script(FILE *fp, figs *f, void *ctx)
{
    (void)f;
    (void)ctx;
    script_head(fp, "aflite-rounds", 460, 320);
    fputs("set xlabel 'round'\nset ylabel 'examples left'\nset yrange [0:*]\n"
          "plot 'aflite-rounds.dat' skip 1 using 1:2 with linespoints pt 7 lc rgb '#2b5fa8' "
          "notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

/* 8. AFLite: the first round's predictability scores. */
static int scores_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    size_t bins[SCORE_BINS] = {0};
    for (size_t i = 0; i < r->data.n; i++) {
        int b = (int)(r->first_scores[i] * SCORE_BINS);
        bins[b >= SCORE_BINS ? SCORE_BINS - 1 : b < 0 ? 0 : b]++;
    }
    fputs("score\texamples\n", fp);
    for (int b = 0; b < SCORE_BINS; b++)
        fprintf(fp, "%.4f\t%zu\n", (b + 0.5) / SCORE_BINS, bins[b]);
    return ferror(fp) ? -1 : 0;
}

static int scores_script(FILE *fp, figs *f, void *ctx)
{
    (void)f;
    (void)ctx;
    script_head(fp, "aflite-scores", 460, 320);
    fprintf(fp, "set xlabel 'predictability score (first round)'\nset ylabel 'examples'\n"
                "set xrange [0:1]\nset boxwidth %.4f\n"
                "plot 'aflite-scores.dat' skip 1 using 1:2 with boxes lc rgb '#6b8fc7' notitle\n",
            0.9 / SCORE_BINS);
    return ferror(fp) ? -1 : 0;
}

/* 9. Hypothesis-only accuracy in full and by partition. */
static int parts_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    static const char *name[3] = {"full", "easy", "difficult"};
    fputs("partition\taccuracy\tlow\thigh\tn\n", fp);
    for (int p = 0; p < 3; p++)
        if (r->part_n[p])
            fprintf(fp, "%s\t%.6f\t%.6f\t%.6f\t%zu\n", name[p], r->part_accuracy[p],
                    r->part_ci[p].low, r->part_ci[p].high, r->part_n[p]);
    return ferror(fp) ? -1 : 0;
}

static int parts_script(FILE *fp, figs *f, void *ctx)
{
    (void)f;
    (void)ctx;
    script_head(fp, "partitions", 460, 320);
    fputs("set ylabel 'hypothesis-only accuracy'\nset yrange [0:1]\nset boxwidth 0.6\n"
          "set xrange [-0.6:2.6]\n"
          "plot 'partitions.dat' skip 1 using 0:2:xtic(1) with boxes lc rgb '#6b8fc7' "
          "notitle, \\\n     '' skip 1 using 0:2:3:4 with yerrorbars lc rgb '#222222' pt 0 "
          "notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

/* 10-13. Log-odds, PVI, the data map and the partitions side by side. */
static int logodds_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    const logodds_table *t = &r->m.logodds;
    for (size_t i = 0; i < t->n;) {
        size_t end = i;
        while (end < t->n && t->rows[end].class_id == t->rows[i].class_id)
            end++;
        size_t top = end - i < TOP_TOKENS_DRAWN ? end - i : TOP_TOKENS_DRAWN;
        fputs("# rank\ttoken\tz\n", fp);
        for (size_t j = top; j-- > 0;) {
            fprintf(fp, "%zu\t", top - 1 - j);
            data_string(fp, vocab_str(r->tokens.tokens, t->rows[i + j].token));
            fprintf(fp, "\t%.6f\n", t->rows[i + j].z);
        }
        fputs("\n\n", fp);
        i = end;
    }
    return ferror(fp) ? -1 : 0;
}

static int logodds_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    const logodds_table *t = &r->m.logodds;
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        k += i == 0 || t->rows[i - 1].class_id != t->rows[i].class_id;
    script_head(fp, "logodds", 300 * (int)(k < 4 ? (k ? k : 1) : 4), 360);
    fprintf(fp, "set multiplot layout 1,%zu\n"
                "set xlabel 'log-odds z'\nunset grid\nset grid xtics lc rgb '#dddddd'\n",
            k ? k : 1);
    size_t block = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (i && t->rows[i - 1].class_id == t->rows[i].class_id)
            continue;
        fputs("set title ", fp);
        script_string(fp, vocab_str(r->tokens.classes, t->rows[i].class_id));
        fprintf(fp, "\nset ytics scale 0\n"
                    "plot 'logodds.dat' index %zu using 3:1:(0):3:($1-0.4):($1+0.4):"
                    "ytic(2) with boxxyerror lc %zu notitle\n",
                block, block + 1);
        block++;
    }
    fputs("unset multiplot\n", fp);
    return ferror(fp) ? -1 : 0;
}

enum { PVI_BINS = 40 };

/* The histogram's range: the PVIs' own, in whole bits, within [-8, 4]. */
static void pvi_range(const study_result *r, double *lo, double *hi)
{
    double mn = 0, mx = 1;
    for (size_t i = 0; i < r->data.n; i++) {
        mn = fmin(mn, r->m.pvi.pvi[i]);
        mx = fmax(mx, r->m.pvi.pvi[i]);
    }
    *lo = fmax(-8.0, floor(mn));
    *hi = fmin(4.0, ceil(mx));
}

static int pvi_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_result *r = f->r;
    size_t K = r->nclasses;
    size_t *bins = array_new(PVI_BINS * K, sizeof *bins);
    if (!bins)
        return -1;
    double lo, hi;
    pvi_range(r, &lo, &hi);
    for (size_t i = 0; i < r->data.n; i++) {
        double x = r->m.pvi.pvi[i];
        int b = (int)floor((x - lo) / (hi - lo) * PVI_BINS);
        b = b < 0 ? 0 : b >= PVI_BINS ? PVI_BINS - 1 : b;
        bins[(size_t)b * K + r->data.ex[i].label]++;
    }
    fputs("pvi", fp);
    for (size_t k = 0; k < K; k++) {
        putc('\t', fp);
        data_string(fp, class_name(r, k));
    }
    putc('\n', fp);
    for (int b = 0; b < PVI_BINS; b++) {
        fprintf(fp, "%.4f", lo + (b + 0.5) * (hi - lo) / PVI_BINS);
        for (size_t k = 0; k < K; k++)
            fprintf(fp, "\t%zu", bins[(size_t)b * K + r->class_order[k]]);
        putc('\n', fp);
    }
    free(bins);
    return ferror(fp) ? -1 : 0;
}

static int pvi_script(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    double lo, hi;
    pvi_range(f->r, &lo, &hi);
    script_head(fp, "pvi", 560, 340);
    fprintf(fp, "set xlabel 'PVI (bits)'\n"
                "set ylabel 'examples'\nset key top left\nset xrange [%g:%g]\n"
                "set arrow from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb '#555555'\n"
                "plot for [c=2:%zu] 'pvi.dat' using 1:c with linespoints pt 7 ps 0.4 "
                "lw 2 lc (c-1) title columnhead\n",
            lo, hi, f->r->nclasses + 1);
    return ferror(fp) ? -1 : 0;
}

/* The data map: every example, or STUDY_MAP_POINTS evenly spaced in the
   input order for a larger corpus, drawn most correct last. */
static int map_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_measures *m = &f->r->m;
    size_t n = m->carto.n, shown = n < STUDY_MAP_POINTS ? n : STUDY_MAP_POINTS;
    size_t E = m->carto.epochs;
    fputs("variability\tconfidence\tcorrectness\n", fp);
    for (size_t level = 0; level <= E; level++)
        for (size_t j = 0; j < shown; j++) {
            size_t i = shown == n ? j : j * n / shown;
            double c = m->cstats.correctness[i];
            if ((size_t)lround(c * (double)E) != level)
                continue;
            fprintf(fp, "%.6f\t%.6f\t%.6f\n", m->cstats.variability[i],
                    m->cstats.confidence[i], c);
        }
    return ferror(fp) ? -1 : 0;
}

static int map_script(FILE *fp, figs *f, void *ctx)
{
    (void)f;
    (void)ctx;
    script_head(fp, "datamap", 560, 420);
    fputs("set xlabel 'variability'\nset ylabel 'confidence'\nset yrange [0:1]\n"
          "set xrange [0:*]\nset cblabel 'correctness'\nset cbrange [0:1]\n"
          "set palette defined (0 '#2b5fa8', 0.5 '#9a9a9a', 1 '#b2182b')\n"
          "set label 'easy-to-learn' at graph 0.05, graph 0.95 front\n"
          "set label 'hard-to-learn' at graph 0.05, graph 0.05 front\n"
          "set label 'ambiguous' at graph 0.8, graph 0.5 front\n"
          "plot 'datamap.dat' skip 1 using 1:2:3 with points pt 7 ps 0.3 lc palette "
          "notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

static int compare_data(FILE *fp, figs *f, void *ctx)
{
    (void)ctx;
    const study_measures *m = &f->r->m;
    fputs("partition\taccuracy\tlow\thigh\tn\n", fp);
    fprintf(fp, "full\t%.6f\t%.6f\t%.6f\t%zu\n", m->full_accuracy, m->full_accuracy,
            m->full_accuracy, f->r->data.n);
    for (int p = 0; p < STUDY_NPARTS; p++)
        if (m->n[p])
            fprintf(fp, "%s\t%.6f\t%.6f\t%.6f\t%zu\n", m->name[p], m->accuracy[p],
                    m->ci[p].low, m->ci[p].high, m->n[p]);
    return ferror(fp) ? -1 : 0;
}

static int compare_script(FILE *fp, figs *f, void *ctx)
{
    (void)f;
    (void)ctx;
    script_head(fp, "compare-partitions", 700, 340);
    fputs("set ylabel 'hypothesis-only accuracy'\nset yrange [0:1]\nset boxwidth 0.6\n"
          "set xtics rotate by -30\nset xrange [-0.6:*]\n"
          "plot 'compare-partitions.dat' skip 1 using 0:2:xtic(1) with boxes "
          "lc rgb '#6b8fc7' notitle, \\\n     '' skip 1 using 0:2:3:4 with yerrorbars "
          "lc rgb '#222222' pt 0 notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

static int measures_figures(figs *f, tells_error *err)
{
    if (figure(f, "logodds", logodds_data, logodds_script, NULL, err) < 0 ||
        figure(f, "pvi", pvi_data, pvi_script, NULL, err) < 0 ||
        figure(f, "datamap", map_data, map_script, NULL, err) < 0 ||
        figure(f, "compare-partitions", compare_data, compare_script, NULL, err) < 0)
        return -1;
    return 0;
}

static int write_figures(figs *f, tells_error *err)
{
    const study_result *r = f->r;
    if (figure(f, "tokens", tokens_data, tokens_script, NULL, err) < 0 ||
        figure(f, "competency", competency_data, competency_script, NULL, err) < 0 ||
        figure(f, "length", length_data, length_script, NULL, err) < 0 ||
        figure(f, "baselines", models_data, models_script, NULL, err) < 0 ||
        figure(f, "confusion", confusion_data, confusion_script, NULL, err) < 0)
        return -1;
    if (r->hs.n && figure(f, "heuristics", heuristics_data, heuristics_script, NULL, err) < 0)
        return -1;
    if (figure(f, "aflite-rounds", rounds_data, rounds_script, NULL, err) < 0 ||
        figure(f, "aflite-scores", scores_data, scores_script, NULL, err) < 0 ||
        figure(f, "partitions", parts_data, parts_script, NULL, err) < 0)
        return -1;
    if (r->m.done && measures_figures(f, err) < 0)
        return -1;
    return 0;
}

/* ---- the page ---- */

typedef struct page {
    FILE *fp;
    const study_result *r;
    const char *figdir;
    bool drawn;                 /* the figures exist */
    const char *why_not;        /* when not drawn */
} page;

static const char *STYLE =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "color:#222;line-height:1.45}"
    "h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f3f3f3}"
    ".yes{color:#a00;font-weight:bold}.no{color:#276b27;font-weight:bold}"
    ".headline{font-size:1.15em;padding:.8em 1em;border-left:.4em solid #888;background:#f7f7f7}"
    ".headline.found{border-color:#a00}.headline.clear{border-color:#276b27}"
    "figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}"
    "figcaption{font-size:.9em;color:#444}"
    ".nofig{color:#a00}";

static void esc(page *pg, const char *s) { html_escape(pg->fp, s); }

static void put_figure(page *pg, const char *name, const char *caption)
{
    FILE *fp = pg->fp;
    fputs("<figure id=\"fig-", fp);
    esc(pg, name);
    fputs("\">\n", fp);
    char *path = NULL;
    FILE *svg = NULL;
    if (pg->drawn) {
        size_t len = strlen(pg->figdir) + strlen(name) + 6;
        path = malloc(len);
        if (path) {
            snprintf(path, len, "%s/%s.svg", pg->figdir, name);
            svg = fopen(path, "rb");
        }
    }
    if (svg) {
        svg_inline(fp, svg);
        fclose(svg);
    } else {
        fputs("<p class=\"nofig\">(figure not drawn: ", fp);
        esc(pg, pg->why_not ? pg->why_not : "its drawing is missing");
        fputs(")</p>\n", fp);
    }
    free(path);
    fputs("<figcaption>", fp);
    fputs(caption, fp);
    fputs(" Data and script: <code>figures/", fp);
    esc(pg, name);
    fputs(".dat</code>, <code>figures/", fp);
    esc(pg, name);
    fputs(".gp</code>.</figcaption>\n</figure>\n", fp);
}

static void cell_num(FILE *fp, double x, int decimals)
{
    if (isnan(x))
        fputs("<td class=\"n\">-</td>", fp);
    else
        fprintf(fp, "<td class=\"n\">%.*f</td>", decimals, x);
}

static void cell_p(FILE *fp, pvalue p)
{
    char buf[64];
    pvalue_format(p, 3, buf, sizeof buf);
    fprintf(fp, "<td class=\"n\">%s</td>", buf);
}

static void cell_text(page *pg, const char *s)
{
    fputs("<td>", pg->fp);
    esc(pg, s);
    fputs("</td>", pg->fp);
}

static const char *mark(const verdict *v)
{
    return !v || !v->tested ? "" : v->significant ? "yes" : "no";
}

/* A verdict as a sentence and what it means; red marks a shortcut found,
   green one not found (good_if_significant reverses it: the premise
   helping is good news). */
static void put_sentence(page *pg, const verdict *v, const char *yes, const char *no,
                         bool good_if_significant)
{
    if (!v)
        return;
    FILE *fp = pg->fp;
    fputs("<li>", fp);
    esc(pg, v->sentence);
    if (v->tested) {
        char q[64];
        pvalue_format(v->q, 2, q, sizeof q);
        bool bad = v->significant != good_if_significant;
        fprintf(fp, " <span class=\"%s\">%s</span> (q = %s).", bad ? "yes" : "no",
                v->significant ? yes : no, q);
    }
    fputs("</li>\n", fp);
}

static void put_header(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
          fp);
    fputs("tells study: ", fp);
    esc(pg, r->name);
    fprintf(fp, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>Annotation artifacts in ",
            STYLE);
    esc(pg, r->name);
    fprintf(fp, "</h1>\n<p>%zu examples in %zu split%s (", r->data.n,
            vocab_size(r->data.splits), vocab_size(r->data.splits) == 1 ? "" : "s");
    for (size_t s = 0; s < vocab_size(r->data.splits); s++) {
        if (s)
            fputs(", ", fp);
        esc(pg, vocab_str(r->data.splits, s));
        fprintf(fp, " %zu", dataset_split_size(&r->data, vocab_str(r->data.splits, s)));
    }
    fprintf(fp, "), %zu classes (", r->nclasses);
    for (size_t k = 0; k < r->nclasses; k++) {
        if (k)
            fputs(", ", fp);
        esc(pg, class_name(r, k));
        fprintf(fp, " %zu", r->class_n[r->class_order[k]]);
    }
    fputs("). Models are ", fp);
    if (r->cv) {
        fprintf(fp, "scored by %zu-fold cross-validation over ", r->folds);
        if (strcmp(r->train, "all") == 0)
            fputs("every example", fp);
        else {
            fputs("split ", fp);
            esc(pg, r->train);
        }
    } else {
        fputs("trained on split ", fp);
        esc(pg, r->train);
        fputs(" and scored on split ", fp);
        esc(pg, r->eval);
    }
    fprintf(fp, " (%zu examples). Significance: Benjamini-Hochberg at q &le; %g over the %zu "
                "tests of the study; tokens by the competency test (Gardner et al. 2021), "
                "Bonferroni at %g.</p>\n",
            r->neval, r->v.alpha, r->v.family, r->cfg->token_alpha);
}

static void put_verdicts(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    const verdict *hyp = verdicts_find(&r->v, "hypothesis_only");
    fputs("<h2 id=\"verdicts\">Verdicts</h2>\n", fp);
    if (hyp && hyp->significant)
        fputs("<p class=\"headline found\">The hypotheses alone give the label away: a model "
              "that never reads the premise does significantly better than always answering "
              "the most frequent class.</p>\n",
              fp);
    else
        fputs("<p class=\"headline clear\">No significant hypothesis-only shortcut: a model "
              "that never reads the premise does not do significantly better than always "
              "answering the most frequent class.</p>\n",
              fp);
    fputs("<ul>\n", fp);
    put_sentence(pg, hyp, "A shortcut.", "Not significant.", false);
    put_sentence(pg, verdicts_find(&r->v, "premise_and_hypothesis"),
                 "The premise helps.", "The premise does not significantly help.", true);
    put_sentence(pg, verdicts_find(&r->v, "length"), "Length tells the class.",
                 "Not significant.", false);
    for (size_t i = 0; i < r->v.n; i++)
        if (strncmp(r->v.v[i].check, "heuristic:", 10) == 0)
            put_sentence(pg, &r->v.v[i], "The heuristic tells the class.", "Not significant.",
                         false);
    put_sentence(pg, verdicts_find(&r->v, "aflite"), "Shortcuts make the easy part easy.",
                 "Not significant.", false);
    /* The tokens: how many, and the strongest few. */
    size_t ntok = 0;
    for (size_t i = 0; i < r->v.n; i++)
        ntok += strncmp(r->v.v[i].check, "token:", 6) == 0;
    fprintf(fp, "<li>%zu token-class pair%s of the %zu tested favour a class significantly "
                "(competency test)%s",
            ntok, ntok == 1 ? "" : "s", r->comp.tested, ntok ? "; the strongest: " : ".");
    if (ntok) {
        /* The five largest z among the significant rows. */
        size_t pick[5];
        size_t npick = 0;
        for (size_t round = 0; round < 5; round++) {
            size_t best = r->comp.n;
            for (size_t i = 0; i < r->comp.n; i++) {
                const competency_row *row = &r->comp.rows[i];
                bool used = false;
                for (size_t j = 0; j < npick; j++)
                    used |= pick[j] == i;
                if (!row->significant || used)
                    continue;
                if (best == r->comp.n || row->z > r->comp.rows[best].z)
                    best = i;
            }
            if (best == r->comp.n)
                break;
            pick[npick++] = best;
        }
        for (size_t j = 0; j < npick; j++) {
            const competency_row *row = &r->comp.rows[pick[j]];
            fputs(j ? ", " : "", fp);
            fputs("&lsquo;", fp);
            esc(pg, vocab_str(r->tokens.tokens, row->token));
            fputs("&rsquo; for ", fp);
            esc(pg, vocab_str(r->tokens.classes, row->class_id));
            fprintf(fp, " (%.0f%% of %llu)", 100 * row->p_hat, (unsigned long long)row->n);
        }
        fputs(".", fp);
    }
    fputs("</li>\n", fp);
    for (size_t i = 0; i < r->v.n; i++)
        if (strncmp(r->v.v[i].check, "audit:", 6) == 0 && r->v.v[i].significant)
            put_sentence(pg, &r->v.v[i], "The batch differs.", "Not significant.", false);
    fputs("</ul>\n", fp);
}

static void put_summary(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    size_t ntok = 0;
    for (size_t i = 0; i < r->v.n; i++)
        ntok += strncmp(r->v.v[i].check, "token:", 6) == 0;
    fprintf(fp, "<h2 id=\"summary\">All findings (summary.tsv)</h2>\n<p>Every row of "
                "<code>summary.tsv</code> but the %zu token rows, which the "
                "<a href=\"#tokens\">tokens</a> section lists.</p>\n<table>\n<tr>"
                "<th>check</th><th>value</th><th>reference</th><th>effect</th>"
                "<th>95%% interval</th><th>p</th><th>q</th><th>significant</th></tr>\n",
            ntok);
    for (size_t i = 0; i < r->v.n; i++) {
        const verdict *v = &r->v.v[i];
        if (strncmp(v->check, "token:", 6) == 0)
            continue;
        fputs("<tr>", fp);
        cell_text(pg, v->check);
        cell_num(fp, v->value, 3);
        cell_num(fp, v->reference, 3);
        cell_num(fp, v->effect, 3);
        if (isnan(v->ci_low))
            fputs("<td>-</td>", fp);
        else
            fprintf(fp, "<td class=\"n\">%.3f to %.3f</td>", v->ci_low, v->ci_high);
        if (v->tested) {
            cell_p(fp, v->p);
            cell_p(fp, v->q);
            fprintf(fp, "<td class=\"%s\">%s</td>", mark(v), v->significant ? "yes" : "no");
        } else
            fputs("<td>-</td><td>-</td><td>-</td>", fp);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void put_tokens(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"tokens\">Tokens</h2>\n<p>The hypothesis tokens most associated with each "
          "class by PMI (add-100 smoothing, tokens in at least 5 hypotheses; "
          "<code>pmi.tsv</code>).</p>\n",
          fp);
    put_figure(pg, "tokens", "Top tokens per class by PMI.");
    fputs("<table>\n<tr><th>class</th><th>token</th><th>PMI</th><th>count</th>"
          "<th>share of the class</th></tr>\n",
          fp);
    for (size_t i = 0; i < r->pmi.nclasses; i++) {
        const pmi_class *pc = &r->pmi.classes[i];
        for (size_t j = 0; j < pc->n && j < STUDY_PMI_TOP; j++) {
            fputs("<tr>", fp);
            cell_text(pg, vocab_str(r->tokens.classes, pc->class_id));
            cell_text(pg, vocab_str(r->tokens.tokens, pc->entries[j].token));
            cell_num(fp, pc->entries[j].pmi, 3);
            fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)pc->entries[j].count);
            cell_num(fp, pc->entries[j].class_share, 3);
            fputs("</tr>\n", fp);
        }
    }
    fputs("</table>\n<p>The competency test (Gardner et al. 2021): for a token in n "
          "hypotheses, a share p&#770; of them in a class, z = (p&#770; &minus; p0) / "
          "&radic;(p0 (1 &minus; p0) / n) against p0 the share it would have if it said "
          "nothing of the label; above the line, a token favours the class significantly "
          "(<code>competency.tsv</code>).</p>\n",
          fp);
    put_figure(pg, "competency", "Share of the hypotheses holding a token that are of the "
                                 "class, against how many hold it (log scale): coloured "
                                 "points are significant, grey ones not; the solid line is "
                                 "the significance boundary, the dashed one p0.");
    fputs("<table>\n<tr><th>class</th><th>token</th><th>n</th><th>p&#770;</th><th>z</th>"
          "<th>p</th></tr>\n",
          fp);
    size_t shown = 0;
    for (size_t i = 0; i < r->comp.n && shown < 40; i++) {
        const competency_row *row = &r->comp.rows[i];
        if (!row->significant)
            continue;
        shown++;
        fputs("<tr>", fp);
        cell_text(pg, vocab_str(r->tokens.classes, row->class_id));
        cell_text(pg, vocab_str(r->tokens.tokens, row->token));
        fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)row->n);
        cell_num(fp, row->p_hat, 3);
        cell_num(fp, row->z, 2);
        cell_p(fp, row->p);
        fputs("</tr>\n", fp);
    }
    if (shown == 0)
        fputs("<tr><td colspan=\"6\">No token favours a class significantly.</td></tr>\n", fp);
    fputs("</table>\n", fp);
}

static void put_length(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"length\">Hypothesis length</h2>\n", fp);
    put_figure(pg, "length", "Hypothesis length by class: boxes from the first to the third "
                             "quartile, the median across, whiskers over 99% of the "
                             "hypotheses (<code>len.tsv</code>).");
    const verdict *v = verdicts_find(&r->v, "length");
    if (v) {
        fputs("<p>", fp);
        esc(pg, v->sentence);
        fputs("</p>\n", fp);
    }
}

static void put_models(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"baselines\">Baselines</h2>\n<table>\n<tr><th>model</th><th>accuracy</th>"
          "<th>95% interval</th></tr>\n",
          fp);
    static const char *shown[3] = {"majority class", "fastText, hypothesis only",
                                   "fastText, premise and hypothesis"};
    for (int m = 0; m < 3; m++)
        fprintf(fp, "<tr><td>%s</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f to %.3f</td>"
                    "</tr>\n",
                shown[m], r->model[m].accuracy, r->model[m].ci.low, r->model[m].ci.high);
    fputs("</table>\n", fp);
    put_figure(pg, "baselines", "Accuracy of each model on the evaluated examples, with "
                                "95% bootstrap intervals (<code>baseline.tsv</code>, "
                                "<code>pair-baseline.tsv</code>).");
    put_figure(pg, "confusion", "The hypothesis-only model's confusion matrix: rows gold, "
                                "columns predicted, shaded by the share of the gold class.");
}

static void put_heuristics(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"heuristics\">Annotator heuristics</h2>\n", fp);
    if (r->hs.n == 0) {
        fputs("<p>No heuristic was defined.</p>\n", fp);
        return;
    }
    fputs("<table>\n<tr><th>heuristic</th><th>pairs</th><th>most in</th><th>share</th>"
          "<th>p</th></tr>\n",
          fp);
    for (size_t h = 0; h < r->hs.n; h++) {
        const heur_result *hr = &r->heur[h];
        fputs("<tr>", fp);
        cell_text(pg, r->hs.v[h].name);
        fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)hr->n);
        if (hr->tested) {
            cell_text(pg, vocab_str(r->tally.classes, hr->top));
            cell_num(fp, hr->top_share, 3);
            cell_p(fp, hr->test.p);
        } else
            fputs("<td>-</td><td>-</td><td>-</td>", fp);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
    put_figure(pg, "heuristics", "The classes of the pairs each heuristic holds for "
                                 "(<code>heur.tsv</code>, <code>heur-pairs.tsv</code>).");
}

static void put_aflite(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fprintf(fp, "<h2 id=\"aflite\">AFLite</h2>\n<p>Adversarial filtering removed %zu of the "
                "%zu examples as easy in %zu rounds (<code>easy.ids</code>, "
                "<code>difficult.ids</code>, <code>aflite.tsv</code>).</p>\n",
            r->neasy, r->data.n, r->nrounds);
    put_figure(pg, "aflite-rounds", "Examples left after each round.");
    put_figure(pg, "aflite-scores", "Predictability scores of the first round, when every "
                                    "example is scored.");
    put_figure(pg, "partitions", "Hypothesis-only accuracy on the evaluated examples, in "
                                 "full and on each partition, with 95% bootstrap intervals.");
    const verdict *v = verdicts_find(&r->v, "aflite");
    if (v) {
        fputs("<p>", fp);
        esc(pg, v->sentence);
        fputs("</p>\n", fp);
    }
}

static void put_measures(page *pg)
{
    const study_result *r = pg->r;
    const study_measures *m = &r->m;
    FILE *fp = pg->fp;
    if (!m->done) {
        if (m->why_not[0]) {
            fputs("<h2 id=\"pvi\">Log-odds, PVI and cartography</h2>\n<p>Not computed: ", fp);
            esc(pg, m->why_not);
            fputs(".</p>\n", fp);
        }
        return;
    }
    fputs("<h2 id=\"logodds\">Log-odds</h2>\n<p>The tokens that set each class apart from "
          "the others by the log-odds ratio with an informative Dirichlet prior (Monroe et "
          "al. 2008; the prior is the corpus's own counts, tokens seen at least 5 times): "
          "z weighs the difference in log-odds by its variance, fair to rare and frequent "
          "tokens alike (<code>logodds.tsv</code>).</p>\n",
          fp);
    put_figure(pg, "logodds", "Top tokens per class by log-odds z.");
    fputs("<table>\n<tr><th>class</th><th>token</th><th>count</th><th>&delta;</th>"
          "<th>z</th></tr>\n",
          fp);
    size_t in_class = 0;
    for (size_t i = 0; i < m->logodds.n; i++) {
        const logodds_row *row = &m->logodds.rows[i];
        in_class = i && m->logodds.rows[i - 1].class_id == row->class_id ? in_class + 1 : 0;
        if (in_class >= 5)
            continue;
        fputs("<tr>", fp);
        cell_text(pg, vocab_str(r->tokens.classes, row->class_id));
        cell_text(pg, vocab_str(r->tokens.tokens, row->token));
        fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)row->count);
        cell_num(fp, row->delta, 3);
        cell_num(fp, row->z, 2);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);

    fputs("<h2 id=\"pvi\">Pointwise V-information</h2>\n<p>How many bits the hypothesis "
          "alone gives about each example's label (Ethayarajh et al. 2022): a hypothesis-only "
          "fastText model cross-fitted over every example against the label distribution of "
          "its training folds; the V-information is the mean, with a 95% bootstrap interval "
          "(<code>pvi.tsv</code>, <code>pvi-summary.tsv</code>; examples below 0 bits in "
          "<code>low-pvi.ids</code>, the others in <code>high-pvi.ids</code>).</p>\n",
          fp);
    put_figure(pg, "pvi", "PVI of the examples of each class (the first and last bins "
                          "also count those beyond them).");
    fputs("<table>\n<tr><th>examples</th><th>n</th><th>V-information (bits)</th>"
          "<th>95% interval</th></tr>\n",
          fp);
    for (size_t k = 0; k <= r->nclasses; k++) {
        const pvi_mean *pm = k ? &m->pvi.by_class[r->class_order[k - 1]] : &m->pvi.all;
        fputs("<tr>", fp);
        cell_text(pg, k ? class_name(r, k - 1) : "all");
        fprintf(fp, "<td class=\"n\">%zu</td>", pm->n);
        cell_num(fp, pm->mean, 3);
        fprintf(fp, "<td class=\"n\">%.3f to %.3f</td></tr>\n", pm->low, pm->high);
    }
    fputs("</table>\n", fp);
    const verdict *v = verdicts_find(&r->v, "v_information");
    if (v) {
        fputs("<p>", fp);
        esc(pg, v->sentence);
        fputs("</p>\n", fp);
    }

    fprintf(fp, "<h2 id=\"cartography\">Dataset cartography</h2>\n<p>A softmax regression "
                "over the averaged hypothesis vectors trained by minibatch SGD for %zu epochs; "
                "after each epoch, every example's probability of its gold label. "
                "Confidence is its mean, variability its standard deviation, correctness the "
                "share of epochs it was predicted right (Swayamdipta et al. 2020). The "
                "regions take a third of the examples each: the most confident "
                "(easy-to-learn), the most variable (ambiguous), the least confident "
                "(hard-to-learn) (<code>carto.tsv</code>, <code>carto-*.ids</code>).</p>\n",
            m->carto.epochs);
    put_figure(pg, "datamap", "The data map: variability against confidence, coloured by "
                              "correctness; at most 25,000 examples.");
    v = verdicts_find(&r->v, "cartography");
    if (v) {
        fputs("<p>", fp);
        esc(pg, v->sentence);
        fputs("</p>\n", fp);
    }

    fputs("<h2 id=\"compare-partitions\">Partitions side by side</h2>\n<p>AFLite's, PVI's and "
          "cartography's partitions of the same examples, scored on one model (the "
          "hypothesis-only fastText cross-validated over every example, as in "
          "<code>partitions.tsv</code>), and how much they overlap: the Jaccard index, shared "
          "examples over the examples of either (<code>compare-partitions.tsv</code>). Low "
          "PVI is defined by that model's own probabilities, so its accuracy there is low by "
          "construction.</p>\n",
          fp);
    put_figure(pg, "compare-partitions", "Hypothesis-only accuracy on every example and on "
                                         "each partition, with 95% bootstrap intervals.");
    fputs("<table>\n<tr><th>partition</th><th>n</th><th>accuracy</th><th>95% interval</th>",
          fp);
    for (int b = 0; b < STUDY_NPARTS; b++)
        fprintf(fp, "<th>%s</th>", m->name[b]);
    fputs("</tr>\n", fp);
    for (int a = 0; a < STUDY_NPARTS; a++) {
        fputs("<tr>", fp);
        cell_text(pg, m->name[a]);
        fprintf(fp, "<td class=\"n\">%zu</td>", m->n[a]);
        cell_num(fp, m->accuracy[a], 3);
        if (m->n[a])
            fprintf(fp, "<td class=\"n\">%.3f to %.3f</td>", m->ci[a].low, m->ci[a].high);
        else
            fputs("<td>-</td>", fp);
        for (int b = 0; b < STUDY_NPARTS; b++)
            cell_num(fp, m->jaccard[a][b], 2);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void put_audits(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    if (r->nbatches == 0)
        return;
    fputs("<h2 id=\"audit\">New batches</h2>\n<table>\n<tr><th>batch</th><th>check</th>"
          "<th>batch</th><th>corpus</th><th>q</th><th>significant</th></tr>\n",
          fp);
    for (size_t b = 0; b < r->nbatches; b++) {
        const audit_report *rep = &r->batch[b].rep;
        for (size_t g = 0; g < rep->ngroups; g++)
            for (size_t i = 0; i < rep->groups[g].nf; i++) {
                const finding *f = &rep->groups[g].f[i];
                if (strncmp(f->check, "token:", 6) == 0 && !f->significant)
                    continue;
                fputs("<tr>", fp);
                cell_text(pg, rep->groups[g].name);
                cell_text(pg, f->check);
                cell_num(fp, f->batch, 3);
                cell_num(fp, f->reference, 3);
                if (f->tested) {
                    cell_p(fp, f->q);
                    fprintf(fp, "<td class=\"%s\">%s</td>", f->significant ? "yes" : "no",
                            f->significant ? "yes" : "no");
                } else
                    fputs("<td>-</td><td>-</td>", fp);
                fputs("</tr>\n", fp);
            }
    }
    fputs("</table>\n", fp);
}

static void put_steps(page *pg)
{
    const study_result *r = pg->r;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"steps\">Steps</h2>\n<table>\n<tr><th>step</th><th>seconds</th></tr>\n", fp);
    for (size_t i = 0; i < r->nsteps; i++)
        fprintf(fp, "<tr><td>%s</td><td class=\"n\">%.2f</td></tr>\n", r->step[i].name,
                r->step[i].seconds);
    fprintf(fp, "</table>\n<p>Made by tells %s.</p>\n</body>\n</html>\n", PACKAGE_VERSION);
}

static int write_page(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    page *pg = ctx;
    pg->fp = fp;
    put_header(pg);
    put_verdicts(pg);
    put_summary(pg);
    put_tokens(pg);
    put_length(pg);
    put_models(pg);
    put_heuristics(pg);
    put_aflite(pg);
    put_measures(pg);
    put_audits(pg);
    put_steps(pg);
    return 0;
}

int study_report(study_result *r, const char *dir, tells_error *err)
{
    size_t len = strlen(dir) + 16;
    char *figdir = malloc(len), *html = malloc(len);
    if (!figdir || !html) {
        free(figdir);
        free(html);
        return tells_error_nomem(err, NULL, 0);
    }
    snprintf(figdir, len, "%s/figures", dir);
    snprintf(html, len, "%s/report.html", dir);
    page pg = {.r = r, .figdir = figdir};
    int rc = 0;
    if (!r->cfg->figures) {
        pg.why_not = "figures were not asked for";
    } else if (mkdir(figdir, 0777) != 0 && errno != EEXIST) {
        rc = tells_error_io(err, figdir, 0, "cannot create: %s", strerror(errno));
    } else {
        figs f = {.r = r, .dir = figdir};
        rc = write_figures(&f, err);
        if (rc == 0)
            rc = figures_draw(r->cfg->gnuplot, figdir, f.names, f.n, err);
        pg.drawn = rc == 0;
    }
    if (rc == 0)
        rc = out_write(html, write_page, &pg, err);
    free(figdir);
    free(html);
    return rc;
}
