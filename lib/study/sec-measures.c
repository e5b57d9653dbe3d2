/* Pointwise V-information cross-fitted over every row with the folds,
   seed and fastText of the partitions' cross-validation (so that g_x's
   predictions are that model's); cartography of a softmax regression over hypothesis.npy; and
   AFLite's, PVI's and cartography's partitions side by side. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/npy.h"
#include "model/carto.h"
#include "model/pvi.h"
#include "study/sec-aflite.h"
#include "study/sec-baselines.h"
#include "study/sec-partitions.h"

enum { MAP_POINTS = 25000, CARTO_EPOCHS = 6, PVI_BINS = 60 };
#define CARTO_FRACTION 0.33

/* The partitions compared: AFLite's, PVI's (below 0 bits or not) and
   cartography's regions. */
typedef enum {
    PART_AFLITE_EASY, PART_AFLITE_DIFFICULT, PART_LOW_PVI, PART_HIGH_PVI, PART_CARTO_EASY,
    PART_CARTO_AMBIGUOUS, PART_CARTO_HARD, NPARTS
} measure_part;

static const char *const part_name[NPARTS] = {
    "aflite-easy", "aflite-difficult", "low-pvi", "high-pvi", "carto-easy", "carto-ambiguous",
    "carto-hard"};

typedef struct measures_state {
    bool done;
    char why_not[512];         /* when the corpus could not be measured */
    pvi_result pvi;            /* cross-fitted over every example */
    carto_dynamics carto;      /* its own training over hypothesis.npy */
    carto_stats cstats;
    unsigned char *in[NPARTS]; /* per dataset row */
    size_t n[NPARTS];
    /* The cross-validated hypothesis-only fastText over every row (PVI's
       g_x, the model of partitions.tsv) on each partition; NAN empty. */
    double accuracy[NPARTS];
    interval ci[NPARTS];
    double full_accuracy;
    double jaccard[NPARTS][NPARTS];
    /* The PVI histogram (pvi_range), for its data and its script. */
    double hist_lo, hist_hi;
    int hist_bins;
} measures_state;

/* ---- the files ---- */

extern const study_section section_measures;

static int write_pvi(FILE *fp, void *study_p, tells_error *err)
{
    (void)err;
    const study *s = study_p;
    const measures_state *m = study_state(s, &section_measures);
    return pvi_write_examples(fp, &s->data, &m->pvi);
}

static int write_pvi_summary(FILE *fp, void *study_p, tells_error *err)
{
    (void)err;
    const study *s = study_p;
    const measures_state *m = study_state(s, &section_measures);
    return pvi_write_summary(fp, &s->data, &m->pvi);
}

static int write_carto(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const measures_state *m = ctx;
    return carto_write_table(fp, &m->carto, &m->cstats);
}

/* compare-partitions.tsv: each partition's size and the hypothesis-only
   accuracy on it, then its Jaccard overlap with every partition. */
static int write_compare(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const measures_state *m = ctx;
    fputs("partition\tn\taccuracy\tci_low\tci_high", fp);
    for (int b = 0; b < NPARTS; b++)
        fprintf(fp, "\tjaccard_%s", part_name[b]);
    fputc('\n', fp);
    for (int a = 0; a < NPARTS; a++) {
        fprintf(fp, "%s\t%zu", part_name[a], m->n[a]);
        if (m->n[a])
            fprintf(fp, "\t%.6f\t%.6f\t%.6f", m->accuracy[a], m->ci[a].low, m->ci[a].high);
        else
            fputs("\t-\t-\t-", fp);
        for (int b = 0; b < NPARTS; b++)
            fprintf(fp, "\t%.6f", m->jaccard[a][b]);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int write_region_ids(const study *s, const measures_state *m, const char *name,
                            carto_region region, tells_error *err)
{
    char *path = study_path(s, name, err);
    if (!path)
        return -1;
    int rc = carto_write_ids(path, &m->carto, &m->cstats, region, CARTO_FRACTION, err);
    free(path);
    return rc;
}

static int write_pvi_ids(const study *s, const measures_state *m, const char *name, bool low,
                         tells_error *err)
{
    char *path = study_path(s, name, err);
    if (!path)
        return -1;
    int rc = pvi_write_ids(path, &s->data, &m->pvi, 0.0, low, err);
    free(path);
    return rc;
}

/* ---- the run ---- */

/* The rows of each partition; the carto rows are the dataset's
   (carto_train keeps its order). */
static int mark_partitions(const study *s, measures_state *m, tells_error *err)
{
    size_t n = s->data.n;
    const unsigned char *easy = study_aflite(s)->easy;
    for (int p = 0; p < NPARTS; p++)
        if (!(m->in[p] = array_new(n, 1)))
            return tells_error_nomem(err, NULL, 0);
    /* The carto rows' dataset rows, by id: the dynamics given may hold
       some of the examples only, in their own order. */
    unsigned char *in = array_new(m->carto.n ? m->carto.n : 1, 1);
    int rc = in ? 0 : tells_error_nomem(err, NULL, 0);
    const carto_region regions[3] = {CARTO_EASY, CARTO_AMBIGUOUS, CARTO_HARD};
    for (int k = 0; rc == 0 && k < 3; k++) {
        if (carto_select(&m->carto, &m->cstats, regions[k], CARTO_FRACTION, in, err) ==
            (size_t)-1) {
            rc = -1;
            break;
        }
        for (size_t j = 0; j < m->carto.n; j++) {
            const char *id = vocab_str(m->carto.ids, j);
            long i = dataset_row(&s->data, id, strlen(id));
            if (i >= 0)
                m->in[PART_CARTO_EASY + k][i] = in[j];
        }
    }
    free(in);
    if (rc < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        m->in[PART_AFLITE_EASY][i] = easy[i];
        m->in[PART_AFLITE_DIFFICULT][i] = !easy[i];
        m->in[PART_LOW_PVI][i] = m->pvi.pvi[i] < 0;
        m->in[PART_HIGH_PVI][i] = !m->in[PART_LOW_PVI][i];
    }
    return 0;
}

/* The hypothesis-only accuracy on each partition and the overlaps. */
static int compare_partitions(const study *s, measures_state *m, tells_error *err)
{
    size_t n = s->data.n;
    unsigned char *right = array_new(n, 1), *zero = array_new(n, 1), *sub = array_new(n, 1);
    int rc = right && zero && sub ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        rc = mark_partitions(s, m, err);
    size_t right_n = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        right[i] = m->pvi.pred[i] == s->data.ex[i].label;
        right_n += right[i];
    }
    m->full_accuracy = n ? (double)right_n / (double)n : NAN;
    for (int a = 0; rc == 0 && a < NPARTS; a++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (m->in[a][i])
                sub[k++] = right[i];
        m->n[a] = k;
        m->accuracy[a] = NAN;
        if (k) {
            m->accuracy[a] = study_mean(sub, k);
            rc = paired_diff_interval(sub, zero, k, STUDY_BOOTSTRAP, s->cfg->seed, 0.95,
                                      &m->ci[a], err);
        }
        for (int b = 0; rc == 0 && b < NPARTS; b++) {
            size_t both = 0, either = 0;
            for (size_t i = 0; i < n; i++) {
                both += m->in[a][i] && m->in[b][i];
                either += m->in[a][i] || m->in[b][i];
            }
            m->jaccard[a][b] = either ? (double)both / (double)either : 0.0;
        }
    }
    free(right);
    free(zero);
    free(sub);
    return rc;
}

/* PVI's g_x is the cross-validated model of partitions.tsv: the same
   folds, seed and settings, so its probabilities serve (tells-pvi --tune --seed SEED
   prepared.tsv trains the same models and writes pvi.tsv). 1 when the
   corpus cannot be measured (a class too rare for the folds: the report
   says so, the rest of the study stands). */
static int run_pvi(const study *s, measures_state *m, tells_error *err)
{
    const partitions_state *ps = study_partitions(s);
    pvi_options po;
    pvi_options_default(&po);
    po.folds = s->cfg->folds;
    po.group = s->cfg->group;
    po.seed = s->cfg->seed;
    /* The bootstrap's resamples on --threads: the same intervals. */
    po.threads = s->cfg->threads > 0 ? (size_t)s->cfg->threads : 1;
    if (s->given_null)
        po.null_prob = s->null_pred.prob;
    if (pvi_from_probabilities(&s->data, ps->cv_prob, ps->cv_pred, &po, &m->pvi, err) < 0) {
        if (err->kind != TELLS_ERR_DATA)
            return -1;
        tells_error_format(err, m->why_not, sizeof m->why_not);
        tells_error_clear(err);
        return 1;
    }
    if (study_write(s, "pvi.tsv", write_pvi, (void *)s, err) < 0 ||
        study_write(s, "pvi-summary.tsv", write_pvi_summary, (void *)s, err) < 0 ||
        write_pvi_ids(s, m, "low-pvi.ids", true, err) < 0 ||
        write_pvi_ids(s, m, "high-pvi.ids", false, err) < 0)
        return -1;
    return 0;
}

/* The line of path where id stands as a value of its own (a TSV field,
   a JSON string or number), for a message; 0 when none is found. */
static long line_of_id(const char *path, const char *id)
{
    line_reader r;
    tells_error ignored;
    if (line_reader_open(&r, path, 0, &ignored) < 0)
        return 0;
    size_t n = strlen(id);
    char *line;
    size_t len;
    long found = 0;
    while (!found && line_reader_next(&r, &line, &len, &ignored) == 1)
        for (const char *p = line; !found && (p = strstr(p, id)); p++) {
            char before = p == line ? '\t' : p[-1], after = p[n];
            if (strchr("\t\": {", before) && (after == '\0' || strchr("\t\",} ", after)))
                found = r.lineno;
        }
    line_reader_close(&r);
    return found;
}

/* The dynamics of the user's training run (--dynamics): every epoch file
   of the folder, of examples of the corpus (a subset, such as its
   training split, will do). */
static int read_dynamics(const study *s, measures_state *m, tells_error *err)
{
    char **paths;
    size_t n;
    if (carto_epoch_files(s->cfg->dynamics, &paths, &n, err) < 0)
        return -1;
    int rc = carto_dynamics_init(&m->carto, err);
    for (size_t e = 0; rc == 0 && e < n; e++)
        rc = carto_read_epoch(&m->carto, paths[e], err);
    for (size_t i = 0; rc == 0 && i < m->carto.n; i++) {
        const char *id = vocab_str(m->carto.ids, i);
        if (dataset_row(&s->data, id, strlen(id)) < 0)
            rc = tells_error_set(err, paths[0], line_of_id(paths[0], id),
                                 "id '%s' is not in the corpus", id);
    }
    carto_epoch_files_free(paths, n);
    return rc;
}

/* Cartography's own training: a softmax regression over hypothesis.npy
   (read again: AFLite centres, reorders and compacts the vectors step's
   matrix in place), its rows put in the study's order in place. */
static int train_carto(const study *s, measures_state *m, tells_error *err)
{
    npy_matrix x = {0};
    char *npy = study_path(s, "hypothesis.npy", err);
    carto_train_options to;
    carto_train_options_default(&to);
    to.epochs = CARTO_EPOCHS;
    to.seed = s->cfg->seed;
    int rc = npy ? npy_read(npy, &x, err) : -1;
    free(npy);
    if (rc == 0 && x.rows != s->data.n)
        rc = tells_error_set(err, NULL, 0, "hypothesis.npy has %zu rows for %zu examples",
                             x.rows, s->data.n);
    if (rc == 0)     /* written in the input's order */
        rc = study_rows_from_input(s, &x, err);
    if (rc == 0)
        rc = carto_dynamics_init(&m->carto, err);
    if (rc == 0)
        rc = carto_train(&s->data, x.data, x.cols, &to, &m->carto, err);
    npy_free(&x);
    return rc;
}

/* The dynamics (the run given, or its own training), their statistics,
   carto.tsv and the regions' id files. */
static int run_carto(const study *s, measures_state *m, tells_error *err)
{
    int rc = s->cfg->dynamics ? read_dynamics(s, m, err) : train_carto(s, m, err);
    if (rc == 0)
        rc = carto_compute(&m->carto, &m->cstats, err);
    if (rc == 0)
        rc = study_write(s, "carto.tsv", write_carto, m, err);
    if (rc == 0)
        rc = write_region_ids(s, m, "carto-easy.ids", CARTO_EASY, err);
    if (rc == 0)
        rc = write_region_ids(s, m, "carto-ambiguous.ids", CARTO_AMBIGUOUS, err);
    if (rc == 0)
        rc = write_region_ids(s, m, "carto-hard.ids", CARTO_HARD, err);
    return rc;
}

static int run(study *s, void *state, tells_error *err)
{
    measures_state *m = state;
    int rc = run_pvi(s, m, err);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    rc = run_carto(s, m, err);
    if (rc == 0)
        rc = compare_partitions(s, m, err);
    if (rc == 0)
        rc = study_write(s, "compare-partitions.tsv", write_compare, m, err);
    m->done = rc == 0;
    return rc;
}

static void free_state(void *state)
{
    measures_state *m = state;
    pvi_result_free(&m->pvi);
    if (m->carto.ids)
        carto_dynamics_free(&m->carto);
    carto_stats_free(&m->cstats);
    for (int p = 0; p < NPARTS; p++)
        free(m->in[p]);
}

/* ---- verdicts ---- */

/* The corpus's V-information: its mean PVI with the bootstrap interval,
   tested against 0 by a one-sided one-sample t-test (a p below 1e-308
   from the tail's log, never a resampling floor). */
static int pvi_verdict(const study *s, const measures_state *m, verdicts *vs, tells_error *err)
{
    verdict *v = verdicts_add(vs, err, "v_information");
    if (!v)
        return -1;
    const pvi_mean *all = &m->pvi.all;
    v->value = all->mean;
    v->reference = 0;
    v->effect = all->mean;
    v->ci_low = all->low;
    v->ci_high = all->high;
    v->tested = all->tested;
    v->p = all->p;
    v->direction_ok = all->mean > 0;
    size_t used;
    if (all->tested)
        used = (size_t)snprintf(v->detail, sizeof v->detail,
                                "test=one_sample_t alternative=greater df=%zu t=%.6f "
                                "sd=%.6f folds=%zu n=%zu", all->n - 1, all->t, all->sd,
                                s->cfg->folds, all->n);
    else
        used = (size_t)snprintf(v->detail, sizeof v->detail,
                                "test=none (fewer than 2 examples or no variance) folds=%zu "
                                "n=%zu", s->cfg->folds, all->n);
    size_t best = 0;
    for (size_t k = 0; k < s->nclasses; k++) {
        size_t c = study_class(s, k);
        if (used < sizeof v->detail)
            used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                     " v_info_%s=%.6f", study_label(s, c),
                                     m->pvi.by_class[c].mean);
        if (m->pvi.by_class[c].mean > m->pvi.by_class[best].mean)
            best = c;
    }
    char test[128] = "";
    if (all->tested) {
        char p[64];
        study_pvalue(p, sizeof p, v->p);
        snprintf(test, sizeof test, ", p = %s (one-sided one-sample t-test, t = %.1f, %zu df)",
                 p, all->t, all->n - 1);
    }
    char model[192];
    study_hypothesis_shown(s, model, sizeof model);
    char null[256];
    if (s->given_null) {
        const char *slash = strrchr(s->null_pred.file, '/');
        snprintf(null, sizeof null, "the null model given (%.200s)",
                 slash ? slash + 1 : s->null_pred.file);
    } else
        snprintf(null, sizeof null, "the label distribution of its training folds");
    snprintf(v->sentence, sizeof v->sentence,
             "The hypothesis alone gives %.3f bits about the label per example on average "
             "(pointwise V-information of a cross-fitted %s against %s; 95%% bootstrap "
             "interval %.3f to %.3f)%s; most for class %s (%.3f bits).",
             all->mean, model, null, all->low, all->high, test, study_label(s, best),
             m->pvi.by_class[best].mean);
    used = strlen(v->detail);
    snprintf(v->detail + used, sizeof v->detail - used, " null=%s",
             s->given_null ? "given" : "training_folds_label_shares");
    if (s->given) {
        used = strlen(v->detail);
        snprintf(v->detail + used, sizeof v->detail - used, " model=given:%s",
                 s->given_name);
    }
    /* Cross-validated, the baselines' model is this one; with a training
       split it is another, checked on its own. */
    const study_model_check *c = s->cv ? &study_baselines(s)->check
                                       : &study_partitions(s)->check;
    study_model_warn_row(v, s->cv ? "hypothesis" : "hypothesis_cv", c, NULL);
    return 0;
}

static int carto_verdict(const study *s, const measures_state *m, verdicts *vs,
                         tells_error *err)
{
    verdict *v = verdicts_add(vs, err, "cartography");
    if (!v)
        return -1;
    double conf = 0;
    for (size_t i = 0; i < m->carto.n; i++)
        conf += m->cstats.confidence[i];
    v->value = m->carto.n ? conf / (double)m->carto.n : NAN;
    const double *acc = m->accuracy;
    snprintf(v->detail, sizeof v->detail,
             "epochs=%zu easy=%zu ambiguous=%zu hard=%zu accuracy_easy=%.6f "
             "accuracy_ambiguous=%.6f accuracy_hard=%.6f accuracy_full=%.6f",
             m->carto.epochs, m->n[PART_CARTO_EASY], m->n[PART_CARTO_AMBIGUOUS],
             m->n[PART_CARTO_HARD], acc[PART_CARTO_EASY], acc[PART_CARTO_AMBIGUOUS],
             acc[PART_CARTO_HARD], m->full_accuracy);
    if (s->cfg->dynamics) {
        size_t used = strlen(v->detail);
        snprintf(v->detail + used, sizeof v->detail - used, " n=%zu dynamics=given",
                 m->carto.n);
    }
    char model[192], over[192], run[320];
    study_hypothesis_shown(s, model, sizeof model);
    study_vectors_shown(s, over, sizeof over);
    if (s->cfg->dynamics)
        snprintf(run, sizeof run, "The training run given (%s), over %zu examples",
                 s->cfg->dynamics, m->carto.n);
    else
        snprintf(run, sizeof run, "A linear model over %s", over);
    snprintf(v->sentence, sizeof v->sentence,
             "%s, trained for %zu epochs, "
             "gives the gold label %.2f probability on average; the cross-fitted "
             "%s gets %.1f%% of its easy-to-learn third right, "
             "%.1f%% of the ambiguous and %.1f%% of the hard-to-learn, against %.1f%% of all.",
             run, m->carto.epochs, v->value, model, 100 * acc[PART_CARTO_EASY],
             100 * acc[PART_CARTO_AMBIGUOUS], 100 * acc[PART_CARTO_HARD],
             100 * m->full_accuracy);
    return 0;
}

static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    const measures_state *m = state;
    if (!m->done)
        return 0;
    if (pvi_verdict(s, m, vs, err) < 0)
        return -1;
    if (!s->cv) {
        char shown[192], model[160];
        study_hypothesis_shown(s, model, sizeof model);
        snprintf(shown, sizeof shown, "the cross-fitted %s", model);
        if (study_model_warning(vs, "hypothesis_cv", shown, &study_partitions(s)->check,
                                "a \"no\" in v_information, which rests on it, is no "
                                "evidence that there is no shortcut.", err) < 0)
            return -1;
    }
    return carto_verdict(s, m, vs, err);
}

/* ---- figures ---- */

/* The histogram's range: the PVIs' own, in whole bits, within [-8, 4]. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The PVI histogram's range and bins: from the 1st percentile (below it,
   the first bin collects the tail), floored to half a bit, to the
   largest value, both widened to include 0; bins Freedman-Diaconis wide
   (twice the interquartile range over the cube root of n), 10 to
   PVI_BINS of them. */
static int pvi_range(const study *s, measures_state *m)
{
    size_t n = s->data.n;
    double *v = array_new(n ? n : 1, sizeof *v);
    if (!v)
        return -1;
    memcpy(v, m->pvi.pvi, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    double q01 = n ? v[(size_t)(0.01 * (double)(n - 1))] : 0, mx = n ? v[n - 1] : 1;
    double iqr = n ? v[(size_t)(0.75 * (double)(n - 1))] - v[(size_t)(0.25 * (double)(n - 1))] : 0;
    free(v);
    double lo = fmin(0, floor(2 * q01) / 2), hi = fmax(0, ceil(10 * mx) / 10);
    if (hi - lo < 1)
        hi = lo + 1;
    double width = 2 * iqr / cbrt((double)(n ? n : 1));
    int bins = width > 0 ? (int)ceil((hi - lo) / width) : PVI_BINS;
    m->hist_lo = lo;
    m->hist_hi = hi;
    m->hist_bins = bins < 10 ? 10 : bins > PVI_BINS ? PVI_BINS : bins;
    return 0;
}

static int pvi_data(FILE *fp, const void *state, const void *study_p)
{
    const measures_state *m = state;
    const study *s = study_p;
    size_t K = s->nclasses;
    double lo = m->hist_lo, hi = m->hist_hi;
    int nb = m->hist_bins;
    size_t *bins = array_new((size_t)nb * K, sizeof *bins);
    if (!bins)
        return -1;
    for (size_t i = 0; i < s->data.n; i++) {
        double x = m->pvi.pvi[i];
        int b = (int)floor((x - lo) / (hi - lo) * nb);
        b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
        bins[(size_t)b * K + s->data.ex[i].label]++;
    }
    study_class_header(fp, s, "pvi");
    for (int b = 0; b < nb; b++) {
        fprintf(fp, "%.4f", lo + (b + 0.5) * (hi - lo) / nb);
        for (size_t k = 0; k < K; k++)
            fprintf(fp, "\t%zu", bins[(size_t)b * K + study_class(s, k)]);
        putc('\n', fp);
    }
    free(bins);
    return ferror(fp) ? -1 : 0;
}

static int pvi_script(FILE *fp, const void *state, const void *study_p)
{
    const study *s = study_p;
    const measures_state *m = state;
    double lo = m->hist_lo, hi = m->hist_hi;
    fig_script_head(fp, "pvi", 560, 340);
    fprintf(fp, "set xlabel 'PVI (bits; the first bin holds everything below it)'\n"
                "set ylabel 'examples'\nset key top left\nset xrange [%g:%g]\n"
                "set yrange [0:*]\nset xtics %g\n"
                "set arrow from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb '#555555'\n"
                "plot for [c=2:%zu] 'pvi.dat' using 1:c with histeps "
                "lw 2 lc (c-1) title columnhead\n",
            lo, hi, fig_tick_step(hi - lo, 8), s->nclasses + 1);
    return ferror(fp) ? -1 : 0;
}

/* The data map: every example, or MAP_POINTS evenly spaced in the input
   order for a larger corpus, drawn most correct last. */
static int map_data(FILE *fp, const void *state, const void *study_p)
{
    (void)study_p;
    const measures_state *m = state;
    size_t n = m->carto.n, shown = n < MAP_POINTS ? n : MAP_POINTS;
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

static int compare_data(FILE *fp, const void *state, const void *study_p)
{
    const measures_state *m = state;
    const study *s = study_p;
    fputs("partition\taccuracy\tlow\thigh\tn\n", fp);
    fig_bars_row(fp, "full", m->full_accuracy, m->full_accuracy, m->full_accuracy,
                 (long)s->data.n);
    for (int p = 0; p < NPARTS; p++)
        if (m->n[p])
            fig_bars_row(fp, part_name[p], m->accuracy[p], m->ci[p].low, m->ci[p].high,
                         (long)m->n[p]);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    measures_state *m = state;
    if (!m->done)
        return 0;
    if (pvi_range(s, m) < 0)
        return tells_error_nomem(err, NULL, 0);
    if (figure_add(f, "pvi", pvi_data, pvi_script, state, s, err) < 0 ||
        figure_add_fixed(f, "datamap", map_data, 560, 420,
                         "set xlabel 'variability'\nset ylabel 'confidence'\n"
                         "set yrange [0:1]\nset xrange [0:*]\nset cblabel 'correctness'\n"
                         "set cbrange [0:1]\n"
                         "set palette defined (0 '#2b5fa8', 0.5 '#9a9a9a', 1 '#b2182b')\n"
                         "set title 'easy-to-learn: top left; hard-to-learn: bottom "
                         "left; ambiguous: right'\n"
                         "plot 'datamap.dat' skip 1 using 1:2:3 with points pt 7 ps 0.3 "
                         "lc palette notitle\n",
                         state, s, err) < 0)
        return -1;
    static const fig_bars bars = {"compare-partitions", 700, 340, "hypothesis-only accuracy",
                                  true};
    return figure_add_bars(f, &bars, compare_data, state, s, err);
}

/* ---- page ---- */

static void pvi_page(const study *s, const measures_state *m, page *pg)
{
    FILE *fp = pg->fp;
    char model[192];
    study_hypothesis_shown(s, model, sizeof model);
    fputs("<h2 id=\"pvi\">Pointwise V-information</h2>\n<p>How many bits the hypothesis "
          "alone gives about each example's label (Ethayarajh et al. 2022): a ", fp);
    html_escape(fp, model);
    fputs(" cross-fitted over every example against ", fp);
    if (s->given_null) {
        fputs("the null model given (", fp);
        html_escape(fp, s->null_pred.file);
        fputs(", a model of empty inputs)", fp);
    } else
        fputs("the label distribution of its training folds", fp);
    fputs("; the V-information is the mean, with a 95% bootstrap interval, "
          "tested against 0 by a one-sided one-sample t-test (<code>pvi.tsv</code>, <code>pvi-summary.tsv</code>; examples below 0 bits in "
          "<code>low-pvi.ids</code>, the others in <code>high-pvi.ids</code>).</p>\n",
          fp);
    page_figure(pg, "pvi", "PVI of the examples of each class, from the 1st percentile "
                           "(the first bin also counts those below it) to the largest, in "
                           "Freedman-Diaconis bins.");
    fputs("<table>\n<tr><th>examples</th><th>n</th><th>V-information (bits)</th>"
          "<th>95% interval</th></tr>\n",
          fp);
    for (size_t k = 0; k <= s->nclasses; k++) {
        const pvi_mean *pm = k ? &m->pvi.by_class[study_class(s, k - 1)] : &m->pvi.all;
        fputs("<tr>", fp);
        page_cell_text(fp, k ? study_class_name(s, k - 1) : "all");
        fprintf(fp, "<td class=\"n\">%zu</td>", pm->n);
        page_cell_num(fp, pm->mean, 3);
        fprintf(fp, "<td class=\"n\">%.3f to %.3f</td></tr>\n", pm->low, pm->high);
    }
    fputs("</table>\n", fp);
    study_sentence(s, pg, "v_information");
}

static void carto_page(const study *s, const measures_state *m, page *pg)
{
    char over[192];
    study_vectors_shown(s, over, sizeof over);
    if (s->cfg->dynamics) {
        fputs("<h2 id=\"cartography\">Dataset cartography</h2>\n<p>The training run given (",
              pg->fp);
        html_escape(pg->fp, s->cfg->dynamics);
        fprintf(pg->fp, ", %zu epochs, %zu examples)", m->carto.epochs, m->carto.n);
    } else {
        fputs("<h2 id=\"cartography\">Dataset cartography</h2>\n<p>A softmax regression over ",
              pg->fp);
        html_escape(pg->fp, over);
        fprintf(pg->fp, " trained by minibatch SGD for %zu epochs", m->carto.epochs);
    }
    fprintf(pg->fp, "; after each epoch, every example's probability of its gold label. "
                    "Confidence is its mean, variability its standard deviation, correctness "
                    "the share of epochs it was predicted right (Swayamdipta et al. 2020). The "
                    "regions take a third of the examples each, every example%s in one: the "
                    "most variable (ambiguous), then of the others the more confident half "
                    "(easy-to-learn) and the less confident (hard-to-learn) "
                    "(<code>carto.tsv</code>, <code>carto-*.ids</code>).</p>\n",
            s->cfg->dynamics ? " of the run (the others are in none)" : "");
    page_figure(pg, "datamap", "The data map: variability against confidence, coloured by "
                               "correctness, the regions named above it; at most 25,000 "
                               "examples.");
    study_sentence(s, pg, "cartography");
}

static void compare_page(const measures_state *m, page *pg)
{
    FILE *fp = pg->fp;
    fputs("<h2 id=\"compare-partitions\">Partitions side by side</h2>\n<p>AFLite's, PVI's and "
          "cartography's partitions of the same examples, scored on one model (the "
          "hypothesis-only fastText cross-validated over every example, as in "
          "<code>partitions.tsv</code>), and how much they overlap: the Jaccard index, shared "
          "examples over the examples of either (<code>compare-partitions.tsv</code>). Each "
          "partition was made from models of the same hypotheses (PVI's hypothesis-only "
          "models on their own folds, AFLite's linear models, cartography's training run), "
          "so a difference in accuracy between them is expected, not found: the accuracies "
          "are described with their intervals, as the table gives them, not tested, and "
          "none of them is in the family of q-values.</p>\n",
          fp);
    page_figure(pg, "compare-partitions", "Hypothesis-only accuracy on every example and on "
                                          "each partition, with 95% bootstrap intervals.");
    fputs("<table>\n<tr><th>partition</th><th>n</th><th>accuracy</th><th>95% interval</th>",
          fp);
    for (int b = 0; b < NPARTS; b++)
        fprintf(fp, "<th>%s</th>", part_name[b]);
    fputs("</tr>\n", fp);
    for (int a = 0; a < NPARTS; a++) {
        fputs("<tr>", fp);
        page_cell_text(fp, part_name[a]);
        fprintf(fp, "<td class=\"n\">%zu</td>", m->n[a]);
        page_cell_num(fp, m->accuracy[a], 3);
        if (m->n[a])
            fprintf(fp, "<td class=\"n\">%.3f to %.3f</td>", m->ci[a].low, m->ci[a].high);
        else
            fputs("<td>-</td>", fp);
        for (int b = 0; b < NPARTS; b++)
            page_cell_num(fp, m->jaccard[a][b], 2);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void add_page(study *s, void *state, page *pg)
{
    const measures_state *m = state;
    if (!m->done) {
        if (m->why_not[0]) {
            fputs("<h2 id=\"pvi\">PVI and cartography</h2>\n<p>Not computed: ",
                  pg->fp);
            html_escape(pg->fp, m->why_not);
            fputs(".</p>\n", pg->fp);
        }
        return;
    }
    pvi_page(s, m, pg);
    carto_page(s, m, pg);
    compare_page(m, pg);
}

static const study_check checks[] = {
    {.name = "v_information",
     .definition = "value: the mean pointwise V-information, in bits, of the "
                   "cross-validated hypothesis-only fastText against the folds' label "
                   "distribution; reference: 0; interval: bootstrap; p: one-sided "
                   "one-sample t-test of mean PVI > 0, n - 1 df (tails below 1e-308 by "
                   "their log); the classes' means in detail",
     .yes = "The hypothesis tells the label.", .no = "Not significant.",
     .list = CHECK_LIST_ALL},
    {.name = "cartography",
     .definition = "untested: value, the mean confidence of a softmax regression over "
                   "the hypothesis vectors; the hypothesis-only accuracy on its "
                   "easy-to-learn, ambiguous and hard-to-learn thirds in detail",
     .list = CHECK_LIST_NONE},
};

const study_section section_measures = {
    .name = "measures",
    .writes = "pvi.tsv, pvi-summary.tsv, low-pvi.ids and high-pvi.ids (tells-pvi from "
              "partitions.tsv's models); carto.tsv and carto-easy/ambiguous/hard.ids "
              "(tells-carto's own training over hypothesis.npy); compare-partitions.tsv",
    .needs = RES_CORPUS | RES_VECTORS | RES_AFLITE | RES_CV,
    .provides = RES_MEASURES,
    .state_size = sizeof(measures_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
