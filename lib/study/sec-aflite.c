/* AFLite with the MedNLI study's settings scaled to the corpus: the easy
   and difficult partitions, and how much harder the difficult part is for
   the hypothesis-only model. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "study/sec-aflite.h"
#include "study/sec-baselines.h"
#include "study/sec-vectors.h"

#define AFLITE_TRAIN_FRACTION 0.4
/* k as in the paper (500), raised only where filtering down to m would
   otherwise take more than this many rounds. */
enum { AFLITE_CUTOFF = 500, AFLITE_MAX_ROUNDS = 20 };
enum { SCORE_BINS = 20 };

/* ---- the run ---- */

typedef struct aflite_watch {
    aflite_record *rec;
    aflite_state *a;
} aflite_watch;

/* Records each round, and keeps the first round's scores (every example
   is scored then) for the report's histogram. */
static int watch_round(const aflite_round *r, void *user, tells_error *err)
{
    aflite_watch *w = user;
    if (aflite_record_round(r, w->rec, err) < 0)
        return -1;
    if (r->round == 1)
        for (size_t i = 0; i < r->examples; i++)
            w->a->first_scores[r->rows[i]] =
                r->held[i] ? (double)r->correct[i] / (double)r->held[i] : 0.0;
    return 0;
}

static int write_ids(const study *s, const char *name, const aflite_record *rec, bool easy,
                     tells_error *err)
{
    char *path = study_path(s, name, err);
    if (!path)
        return -1;
    int rc = aflite_write_ids(path, rec, easy, err);
    free(path);
    return rc;
}

static void study_aflite_options(const study *s, aflite_options *ao)
{
    aflite_options_default(ao);
    size_t n = s->data.n;
    ao->train_size = aflite_train_size(AFLITE_TRAIN_FRACTION, n);
    /* k = 500, or the k that reaches m in AFLITE_MAX_ROUNDS rounds when
       500 would take more: ceil((N - m) / 20). */
    size_t m = ao->train_size, left = n > m ? n - m : 0;
    size_t k = (left + AFLITE_MAX_ROUNDS - 1) / AFLITE_MAX_ROUNDS;
    ao->cutoff = k > AFLITE_CUTOFF ? k : AFLITE_CUTOFF;
    ao->seed = s->cfg->seed;
    ao->lr.threads = s->cfg->threads;
}

/* The run's outputs, and what the report keeps of it. */
static int keep_result(const study *s, aflite_state *a, aflite_record *rec,
                       const char *scores, tells_error *err)
{
    int rc = write_ids(s, "easy.ids", rec, true, err);
    if (rc == 0)
        rc = write_ids(s, "difficult.ids", rec, false, err);
    if (rc == 0)
        rc = out_write(scores, aflite_write_scores, rec, err);
    if (rc == 0)
        rc = study_write(s, "aflite.tsv", aflite_write_rounds, rec, err);
    if (rc < 0)
        return -1;
    for (size_t i = 0; i < s->data.n; i++) {
        a->easy[i] = rec->result.removed_in[i] != 0;
        a->neasy += a->easy[i];
    }
    a->nrounds = rec->nrounds;
    a->rounds = array_new(rec->nrounds, sizeof *a->rounds);
    if (!a->rounds)
        return tells_error_nomem(err, NULL, 0);
    memcpy(a->rounds, rec->rounds, rec->nrounds * sizeof *a->rounds);
    return 0;
}

static int run_aflite(study *s, aflite_state *a, tells_error *err)
{
    const dataset *d = &s->data;
    const npy_matrix *x = &study_vectors(s)->x;
    int *y = NULL;
    size_t classes;
    if (aflite_classes(d, &y, &classes, err) < 0)
        return -1;
    aflite_options ao;
    study_aflite_options(s, &ao);
    a->tau = ao.tau;
    aflite_record rec;
    char *scores = study_path(s, "aflite-scores.tsv", err);
    a->first_scores = array_new(d->n, sizeof *a->first_scores);
    a->easy = array_new(d->n, sizeof *a->easy);
    int rc = 0;
    if (!scores || !a->first_scores || !a->easy)
        rc = scores ? tells_error_nomem(err, NULL, 0) : -1;
    if (rc == 0 && ao.train_size >= d->n)
        rc = tells_error_set(err, NULL, 0, "the corpus's %zu examples are too few for AFLite",
                             d->n);
    if (rc == 0)
        rc = aflite_record_init(&rec, d, scores, err);
    if (rc < 0) {
        free(y);
        free(scores);
        return -1;
    }
    a->k = ao.cutoff;
    a->m = ao.train_size;
    aflite_watch w = {&rec, a};
    ao.round_done = watch_round;
    ao.user = &w;
    uint64_t *keys = aflite_row_keys(d);
    ao.row_keys = keys;
    rc = keys ? aflite_run(x->data, x->rows, x->cols, y, classes, &ao, &rec.result, err)
              : tells_error_nomem(err, NULL, 0);
    free(keys);
    if (rc == 0)
        rc = keep_result(s, a, &rec, scores, err);
    aflite_record_free(&rec);
    free(scores);
    free(y);
    return rc;
}

/* Hypothesis-only accuracy on the evaluated rows of part p, with its
   interval; in says which rows are in it. */
static int score_part(const study *s, aflite_state *a, aflite_part p, const unsigned char *in,
                      const unsigned char *right, tells_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < s->neval; i++)
        n += in[i];
    a->n[p] = n;
    a->accuracy[p] = NAN;
    if (n == 0)
        return 0;
    unsigned char *sub = array_new(n, 1), *zero = array_new(n, 1);
    int rc = sub && zero ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t i = 0, k = 0; rc == 0 && i < s->neval; i++)
        if (in[i])
            sub[k++] = right[i];
    if (rc == 0) {
        a->accuracy[p] = study_mean(sub, n);
        rc = paired_diff_interval(sub, zero, n, STUDY_BOOTSTRAP, s->cfg->seed, 0.95,
                                  &a->ci[p], err);
    }
    free(sub);
    free(zero);
    return rc;
}

/* Hypothesis-only accuracy on the evaluated rows, in full and by AFLite
   partition, and the difficult partition against the full set. */
static int score_parts(const study *s, aflite_state *a, tells_error *err)
{
    unsigned char *in = array_new(s->neval, 1);
    if (!in)
        return tells_error_nomem(err, NULL, 0);
    const unsigned char *right = study_baselines(s)->model[STUDY_HYPOTHESIS].right;
    int rc = 0;
    for (int p = 0; p < AFLITE_NPARTS && rc == 0; p++) {
        for (size_t i = 0; i < s->neval; i++) {
            bool easy = a->easy[s->eval_row[i]];
            in[i] = p == AFLITE_FULL || (p == AFLITE_EASY) == easy;
        }
        rc = score_part(s, a, (aflite_part)p, in, right, err);
        if (rc == 0 && p == AFLITE_DIFFICULT && a->n[p]) {
            rc = subset_diff_interval(right, in, s->neval, STUDY_BOOTSTRAP, s->cfg->seed,
                                      0.95, &a->difficult_vs_full, err);
            a->difficult_compared = rc == 0;
        }
    }
    free(in);
    return rc;
}

static int run(study *s, void *state, tells_error *err)
{
    aflite_state *a = state;
    if (run_aflite(s, a, err) < 0)
        return -1;
    return score_parts(s, a, err);
}

static void free_state(void *state)
{
    aflite_state *a = state;
    free(a->rounds);
    free(a->first_scores);
    free(a->easy);
}

/* ---- verdicts ---- */

static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    const aflite_state *a = state;
    verdict *v = verdicts_add(vs, err, "aflite");
    if (!v)
        return -1;
    size_t n = s->data.n;
    v->value = (double)a->neasy / (double)n;
    v->reference = a->accuracy[AFLITE_FULL];
    snprintf(v->detail, sizeof v->detail,
             "easy=%zu difficult=%zu k=%zu m=%zu rounds=%zu accuracy_full=%.6f "
             "accuracy_easy=%.6f accuracy_difficult=%.6f n_full=%zu n_difficult=%zu",
             a->neasy, n - a->neasy, a->k, a->m, a->nrounds, a->accuracy[AFLITE_FULL], a->accuracy[AFLITE_EASY],
             a->accuracy[AFLITE_DIFFICULT], a->n[AFLITE_FULL], a->n[AFLITE_DIFFICULT]);
    char share[32];
    study_percent(share, sizeof share, v->value);
    if (!a->difficult_compared) {
        snprintf(v->sentence, sizeof v->sentence,
                 "AFLite finds %s of the examples easy; no evaluated example is difficult.",
                 share);
        return 0;
    }
    /* Descriptive: AFLite chose the difficult rows, evaluated ones
       included, by how well models over the same hypotheses predicted
       them, so that a hypothesis-only model does worse on them holds by
       construction; a test of it would be circular. */
    v->effect = a->difficult_vs_full.estimate;
    v->ci_low = a->difficult_vs_full.low;
    v->ci_high = a->difficult_vs_full.high;
    size_t used = strlen(v->detail);
    snprintf(v->detail + used, sizeof v->detail - used,
             " test=none descriptive=partition_defined_on_these_rows");
    char acc_difficult[32], acc_full[32];
    study_percent(acc_difficult, sizeof acc_difficult, a->accuracy[AFLITE_DIFFICULT]);
    study_percent(acc_full, sizeof acc_full, a->accuracy[AFLITE_FULL]);
    char over[192];
    study_vectors_shown(s, over, sizeof over);
    snprintf(v->sentence, sizeof v->sentence,
             "AFLite finds %s of the examples easy for a linear model over %s; on "
             "the difficult rest the hypothesis-only model gets %s right, against %s on all "
             "evaluated examples: %+.1f points (95%% interval %+.1f to %+.1f). Not tested: "
             "models over the same hypotheses, evaluated rows included, defined the "
             "partition, so the difference holds by construction.",
             share, over, acc_difficult, acc_full, 100 * v->effect, 100 * v->ci_low,
             100 * v->ci_high);
    return 0;
}

/* ---- figures and page ---- */

/* Examples left after each round. */
static int rounds_data(FILE *fp, const void *state, const void *study_p)
{
    const aflite_state *a = state;
    const study *s = study_p;
    fputs("round\tremaining\n", fp);
    fprintf(fp, "0\t%zu\n", s->data.n);
    for (size_t i = 0; i < a->nrounds; i++)
        fprintf(fp, "%zu\t%zu\n", a->rounds[i].round, a->rounds[i].remaining);
    return ferror(fp) ? -1 : 0;
}

/* The first round's predictability scores. */
static int scores_data(FILE *fp, const void *state, const void *study_p)
{
    const aflite_state *a = state;
    const study *s = study_p;
    size_t bins[SCORE_BINS] = {0};
    for (size_t i = 0; i < s->data.n; i++) {
        int b = (int)(a->first_scores[i] * SCORE_BINS);
        bins[b >= SCORE_BINS ? SCORE_BINS - 1 : b < 0 ? 0 : b]++;
    }
    fputs("score\texamples\n", fp);
    for (int b = 0; b < SCORE_BINS; b++)
        fprintf(fp, "%.4f\t%zu\n", (b + 0.5) / SCORE_BINS, bins[b]);
    return ferror(fp) ? -1 : 0;
}

static int scores_script(FILE *fp, const void *state, const void *study_p)
{
    const aflite_state *a = state;
    (void)study_p;
    fig_script_head(fp, "aflite-scores", 460, 320);
    fprintf(fp, "set xlabel 'predictability score (first round)'\nset ylabel 'examples'\n"
                "set xrange [0:1]\nset yrange [0:*]\nset boxwidth %.4f\n"
                "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lw 1.5 "
                "lc rgb '#b2182b' front\n"
                "set label 'tau = %.2f' at %.4f, graph 0.97 right offset -0.5,0 "
                "tc rgb '#b2182b' front\n"
                "plot 'aflite-scores.dat' skip 1 using 1:2 with boxes lc rgb '#6b8fc7' notitle\n",
            0.9 / SCORE_BINS, a->tau, a->tau, a->tau, a->tau);
    return ferror(fp) ? -1 : 0;
}

/* Hypothesis-only accuracy in full and by partition. */
static int parts_data(FILE *fp, const void *state, const void *study_p)
{
    (void)study_p;
    const aflite_state *a = state;
    static const char *const name[AFLITE_NPARTS] = {"full", "easy", "difficult"};
    fputs("partition\taccuracy\tlow\thigh\tn\n", fp);
    for (int p = 0; p < AFLITE_NPARTS; p++)
        if (a->n[p])
            fig_bars_row(fp, name[p], a->accuracy[p], a->ci[p].low, a->ci[p].high,
                         (long)a->n[p]);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    if (figure_add_fixed(f, "aflite-rounds", rounds_data, 460, 320,
                         "set xlabel 'round'\nset ylabel 'examples left'\nset yrange [0:*]\n"
                         "plot 'aflite-rounds.dat' skip 1 using 1:2 with linespoints pt 7 "
                         "lc rgb '#2b5fa8' notitle\n",
                         state, s, err) < 0 ||
        figure_add(f, "aflite-scores", scores_data, scores_script, state, s, err) < 0)
        return -1;
    static const fig_bars bars = {"partitions", 460, 320, "hypothesis-only accuracy", false};
    return figure_add_bars(f, &bars, parts_data, state, s, err);
}

static void add_page(study *s, void *state, page *pg)
{
    const aflite_state *a = state;
    fprintf(pg->fp, "<h2 id=\"aflite\">AFLite</h2>\n<p>Adversarial filtering removed %zu of "
                    "the %zu examples as easy in %zu rounds (<code>easy.ids</code>, "
                    "<code>difficult.ids</code>, <code>aflite.tsv</code>): 64 models, each "
                    "trained on m = %zu examples, removing up to k = %zu a round that score "
                    "at least 0.75%s.</p>\n",
            a->neasy, s->data.n, a->nrounds, a->m, a->k,
            a->k == AFLITE_CUTOFF ? " (k as in the paper)"
                                  : " (k raised from the paper's 500 so that the filtering "
                                    "takes at most 20 rounds)");
    page_figure(pg, "aflite-rounds", "Examples left after each round.");
    page_figure(pg, "aflite-scores", "Predictability scores of the first round, when every "
                                     "example is scored; the dashed line is tau, the score "
                                     "from which an example may be removed.");
    page_figure(pg, "partitions", "Hypothesis-only accuracy on the evaluated examples, in "
                                  "full and on each partition, with 95% bootstrap intervals.");
    fputs("<p>The partitions' accuracies are described, not tested: AFLite put an example in "
          "the difficult partition because models over the same hypotheses (the evaluated "
          "examples' included) did not predict it well, so a hypothesis-only model doing "
          "worse there holds by construction, and a p-value of it would be circular. The "
          "difference and its interval are in <code>summary.tsv</code>, with no p or q, and "
          "out of the family of q-values.</p>\n",
          pg->fp);
    study_sentence(s, pg, "aflite");
}

static const study_check checks[] = {
    {.name = "aflite",
     .definition = "descriptive: value, the share of examples AFLite finds easy; "
                   "reference: the hypothesis-only accuracy on the evaluated examples; "
                   "effect: its accuracy on those of the difficult partition minus it, "
                   "with a paired-bootstrap interval; no p or q (AFLite defined the "
                   "partition with models over the same hypotheses, evaluated rows "
                   "included, so the difference holds by construction)",
     .yes = "Shortcuts make the easy part easy.", .no = "Not significant.",
     .list = CHECK_LIST_ALL},
};

const study_section section_aflite = {
    .name = "aflite",
    .writes = "aflite.tsv, aflite-scores.tsv, easy.ids, difficult.ids and their .sha256 "
              "(tells-aflite: 64 models, m 40% of the examples, k = 500 as in the paper, or "
              "ceil((N - m) / 20) when 500 would take more than 20 rounds, "
              "tau 0.75, --threads threads)",
    .needs = RES_CORPUS | RES_MODELS | RES_VECTORS,
    .provides = RES_AFLITE,
    .state_size = sizeof(aflite_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
