/* Pointwise V-information (model/pvi) and the scores of predictions
   (model/evaluate). PVI from given probabilities is worked by hand on six
   examples; its bootstrap intervals and the folds of its cross-fitting
   come from tests/ref/make-unit-tests-ref.py (its replica of GSL's
   mt19937, shuffle and quantile, no tells code; the names below are the
   lines of its output), its t-tests from tests/ref/make-pvi-ttest-ref.py
   (mpmath), one with a p far below the smallest double. fastText's
   cross-fitting runs once, two folds on
   a corpus of 30 rows (each training costs fastText's fixed set-up, a
   120 MB table, so there is one run): its PVIs agree with its
   probabilities, its folds with cv_assign's, its g_null with the folds'
   labels, its summary with pvi_from_probabilities', and its token drops
   count the examples holding each token. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/dataset.h"
#include "base/idfile.h"
#include "check.h"
#include "model/baseline.h"
#include "model/evaluate.h"
#include "model/pvi.h"

static void load(dataset *d, const char *text)
{
    char path[256];
    tells_error err;
    if (dataset_load(d, check_temp_file(path, sizeof path, text), &err) < 0) {
        fprintf(stderr, "dataset_load: %s\n", err.msg);
        exit(1);
    }
    unlink(path);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 4096);
    if (buf && fread(buf, 1, 4095, fp) == 0 && ferror(fp)) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    return buf;
}

static void check_text(char *got, const char *want)
{
    CHECK_STR(got ? got : "(null)", want);
    free(got);
}

/* Six examples: pos (label id 0) and neg (1) in turn. */
static const char SIX[] =
    "id\tsplit\tlabel\tpremise\thypothesis\n"
    "e1\ttrain\tpos\tp\tgood fun\n"
    "e2\ttrain\tneg\tp\tbad\n"
    "e3\ttrain\tpos\tp\tgood\n"
    "e4\ttrain\tneg\tp\tbad dull\n"
    "e5\ttrain\tpos\tp\tfun\n"
    "e6\ttrain\tneg\tp\tdull\n";

/* g_x's probabilities of (pos, neg) and its predictions: p_gold is 0.8,
   0.4, 0.1, 1, 0.5, 0.25. */
static const double PROB[12] = {0.8, 0.2, 0.6, 0.4, 0.1, 0.9,
                                0.0, 1.0, 0.5, 0.5, 0.75, 0.25};
static const size_t PRED[6] = {0, 0, 1, 1, 0, 0};

#define REL 1e-12
/* The mean, its bootstrap interval, and the one-sided one-sample t-test
   of mean > 0 (sd, t, p: tests/ref/make-pvi-ttest-ref.py, mpmath). */
#define CHECK_MEAN(m, n_, mean_, low_, high_, sd_, t_, p_)                   \
    do {                                                                     \
        CHECK((m).n == (n_));                                                \
        CHECK_NEAR((m).mean, (mean_), REL);                                  \
        CHECK_NEAR((m).low, (low_), REL);                                    \
        CHECK_NEAR((m).high, (high_), REL);                                  \
        CHECK((m).tested);                                                   \
        CHECK_NEAR((m).sd, (sd_), REL);                                      \
        CHECK_NEAR((m).t, (t_), 1e-10);                                      \
        CHECK_NEAR((m).p.p, (p_), 1e-10);                                    \
    } while (0)

static char *summary_text(const dataset *d, const pvi_result *r)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    CHECK(fp && pvi_write_summary(fp, d, r) == 0);
    if (fp)
        fclose(fp);
    return buf;
}

static char *examples_text(const dataset *d, const pvi_result *r)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    CHECK(fp && pvi_write_examples(fp, d, r) == 0);
    if (fp)
        fclose(fp);
    return buf;
}

/* Leave one out (K = 6 folds of one): whatever the shuffle, g_null of
   each example is its label's share of the other five, 2/5, so
       PVI = log2 p_gold - log2 (2/5) = log2 (p_gold / 0.4):
   e1 log2 2 = 1, e2 0, e3 log2 (1/4) = -2, e4 log2 (5/2), e5 log2 (5/4),
   e6 log2 (5/8). Means: all (1 + 0 - 2 + 3 log2 5 - 6) / 6 = (3 log2 5 -
   7) / 6; pos (1 - 2 + log2 5 - 2) / 3 = (log2 5 - 3) / 3; neg (0 + log2
   5 - 1 + log2 5 - 3) / 3 = (2 log2 5 - 4) / 3. Intervals: 500
   resamples, seed 11, level 0.9 (loo.*). */
static void test_leave_one_out(void)
{
    dataset d;
    load(&d, SIX);
    pvi_options o;
    pvi_options_default(&o);
    CHECK(o.folds == 5 && o.samples == PVI_BOOTSTRAP_SAMPLES && o.level == 0.95);
    CHECK(o.ft.threads == 1 && o.input == INPUT_HYPOTHESIS && !o.tokens);
    o.folds = 6;
    o.group = GROUP_BY_NONE;   /* the six share a premise */
    o.seed = 11;
    o.samples = 500;
    o.level = 0.9;
    pvi_result r;
    tells_error err;
    tells_error_clear(&err);
    CHECK(pvi_from_probabilities(&d, PROB, PRED, &o, &r, &err) == 0);
    CHECK(r.n == 6 && r.nclasses == 2 && r.ntok == 0 && r.tokens == NULL);
    double l5 = log2(5.0);
    const double want[6] = {1, 0, -2, l5 - 1, l5 - 2, l5 - 3};
    const double gold[6] = {0.8, 0.4, 0.1, 1.0, 0.5, 0.25};
    unsigned folds_seen = 0;
    for (size_t i = 0; i < 6; i++) {
        CHECK_NEAR(r.pvi[i], want[i], REL);
        CHECK(r.p_gold[i] == gold[i]);
        CHECK_NEAR(r.p_null[i], 0.4, 1e-15);
        CHECK(r.pred[i] == PRED[i]);
        CHECK(r.fold[i] < 6);
        folds_seen |= 1u << r.fold[i];
    }
    CHECK(folds_seen == 0x3f);   /* one example in each fold */
    CHECK_MEAN(r.all, 6, (3 * l5 - 7) / 6, -0.73412419075677715, 0.71461872992490816,
               1.209191297986998, -0.011551941629877111, 0.50438507728837155);
    CHECK_MEAN(r.by_class[0], 3, (l5 - 3) / 3, -1.2260239683708793, 0.77397603162912076,
               1.5732732114040851, -0.24883471866740718, 0.58664533975715986);
    CHECK_MEAN(r.by_class[1], 3, (2 * l5 - 4) / 3, -0.45204793674175853,
               0.88128539659157479, 1.0171262947274225, 0.36547137401994248,
               0.37489634707108737);
    /* Each resample has its own stream: drawn on three threads, the same
       intervals to the bit. */
    pvi_options o3 = o;
    o3.threads = 3;
    pvi_result r3;
    CHECK(pvi_from_probabilities(&d, PROB, PRED, &o3, &r3, &err) == 0);
    CHECK(r3.all.low == r.all.low && r3.all.high == r.all.high);
    for (size_t c = 0; c < 2; c++)
        CHECK(r3.by_class[c].low == r.by_class[c].low &&
              r3.by_class[c].high == r.by_class[c].high);
    pvi_result_free(&r3);
    /* The writers: classes in byte order (neg before pos), 6 decimals. */
    check_text(summary_text(&d, &r),
               "class\tn\tv_info\tci_low\tci_high\n"
               "all\t6\t-0.005703\t-0.734124\t0.714619\n"
               "neg\t3\t0.214619\t-0.452048\t0.881285\n"
               "pos\t3\t-0.226024\t-1.226024\t0.773976\n");
    check_text(examples_text(&d, &r),
               "id\tgold\tpvi\tp_gold\tp_null\tpredicted\tfold\n"
               "e1\tpos\t1.000000\t0.800000\t0.400000\tpos\t6\n"
               "e2\tneg\t0.000000\t0.400000\t0.400000\tpos\t5\n"
               "e3\tpos\t-2.000000\t0.100000\t0.400000\tneg\t1\n"
               "e4\tneg\t1.321928\t1.000000\t0.400000\tneg\t4\n"
               "e5\tpos\t0.321928\t0.500000\t0.400000\tpos\t3\n"
               "e6\tneg\t-0.678072\t0.250000\t0.400000\tpos\t2\n");

    /* The id files: below 0 (e3, e6), at least 0.5 (e1, e4), each with
       its SHA-256 beside it (hashlib.sha256: sha256.low, sha256.high). */
    char dir[] = "/tmp/tells-unit-pvi-ids.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char low[512], high[512], sum[520];
    snprintf(low, sizeof low, "%s/low.ids", dir);
    snprintf(high, sizeof high, "%s/high.ids", dir);
    CHECK(pvi_write_ids(low, &d, &r, 0.0, true, &err) == 0);
    CHECK(pvi_write_ids(high, &d, &r, 0.5, false, &err) == 0);
    check_text(slurp(low), "e3\ne6\n");
    check_text(slurp(high), "e1\ne4\n");
    snprintf(sum, sizeof sum, "%s.sha256", low);
    check_text(slurp(sum),
               "a49ce97a983d36fa64513be734203c411667bbe5e6895d47e4409e886f82932a  low.ids\n");
    unlink(sum);
    snprintf(sum, sizeof sum, "%s.sha256", high);
    check_text(slurp(sum),
               "b1e2304798f0066d8d8a4ad7f459607efaa53421edb061131840da35289cfaf3  high.ids\n");
    unlink(sum);
    /* No example below -5: an empty file. */
    CHECK(pvi_write_ids(low, &d, &r, -5.0, true, &err) == 0);
    check_text(slurp(low), "");
    snprintf(sum, sizeof sum, "%s.sha256", low);
    unlink(sum);
    unlink(low);
    unlink(high);
    rmdir(dir);

    /* A PVI a hair below 0 prints as 0.000000, not -0.000000. */
    r.pvi[1] = -1e-9;
    char *text = examples_text(&d, &r);
    CHECK(text && strstr(text, "\ne2\tneg\t0.000000\t") != NULL);
    free(text);
    pvi_result_free(&r);
    CHECK(r.pvi == NULL && r.by_class == NULL && r.n == 0);

    /* A class whose PVIs are all equal has a point interval: p_gold 0.4
       for every neg example gives PVI 0: no variance, so no t-test (t
       undefined, p 1). */
    double prob[12];
    memcpy(prob, PROB, sizeof prob);
    prob[3] = prob[7] = prob[11] = 0.4;
    CHECK(pvi_from_probabilities(&d, prob, PRED, &o, &r, &err) == 0);
    CHECK(r.by_class[1].mean == 0 && r.by_class[1].low == 0 && r.by_class[1].high == 0);
    CHECK(!r.by_class[1].tested && isnan(r.by_class[1].t) && r.by_class[1].sd == 0);
    CHECK(r.by_class[1].p.p == 1);
    pvi_result_free(&r);
    dataset_free(&d);
}

/* Three folds by row (--group-by none: the six share a premise), seed 4:
   the deal puts e1..e6 into folds 2 1 0 1 2 0 (k3.fold); the other two
   folds hold four examples, and g_null of e1 (pos, fold 2) is 1/4 (e3 of
   folds 0 and 1 is pos), of e3 (pos, fold 0) 2/4... (k3.p_null).
   Intervals: 100 resamples, seed 4, level 0.95 (k3.*). */
static void test_three_folds(void)
{
    dataset d;
    load(&d, SIX);
    pvi_options o;
    pvi_options_default(&o);
    o.folds = 3;
    o.seed = 4;
    o.group = GROUP_BY_NONE;
    o.samples = 100;
    pvi_result r;
    tells_error err;
    tells_error_clear(&err);
    CHECK(pvi_from_probabilities(&d, PROB, PRED, &o, &r, &err) == 0);
    const size_t fold[6] = {2, 1, 0, 1, 2, 0};
    const double p_null[6] = {0.25, 0.25, 0.5, 0.25, 0.25, 0.5};
    size_t cv[6], rows[6] = {0, 1, 2, 3, 4, 5};
    cv_plan plan = {3, 4, GROUP_BY_NONE};
    CHECK(cv_assign(&d, rows, 6, &plan, cv, &err) == 0);
    for (size_t i = 0; i < 6; i++) {
        CHECK(r.fold[i] == fold[i]);
        CHECK(cv[i] == fold[i]);
        CHECK(r.p_null[i] == p_null[i]);
        CHECK_NEAR(r.pvi[i], log2(r.p_gold[i] / p_null[i]), REL);
    }
    CHECK_MEAN(r.all, 6, 0.33903595255631891, -0.94061668828893041, 1.4520479367417585,
               1.6719679806924577, 0.49669915800509771, 0.32023286250119932);
    CHECK_MEAN(r.by_class[0], 3, 0.11871460340842521, -2.3219280948873622,
               1.6780719051126376, 2.1406769870029848, 0.096053597040651977,
               0.46611798651421703);
    CHECK_MEAN(r.by_class[1], 3, 0.55935730170421261, -1, 1.5593573017042128,
               1.5035191611006541, 0.64437839649951102, 0.29268424307747506);
    pvi_result_free(&r);
    /* By premise (the default), the six are one group: no folds. */
    o.group = GROUP_BY_PREMISE;
    CHECK(pvi_from_probabilities(&d, PROB, PRED, &o, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "1 premise cannot make 3 folds");
    dataset_free(&d);
}

/* A corpus whose V-information is far above 0: 1,000 examples, pos and
   neg in turn, left out one at a time (g_null 499/999 for every one),
   g_x giving the gold label 0.9 and 0.8 by turns of two. t = 284.39 on
   999 df: p = 1.8e-958 (make-pvi-ttest-ref.py's tiny.*), far below the
   smallest double, where
   gsl_cdf_tdist_Q gives 0; its log, -2205.286, is exact, not a
   resampling floor (2/2001 before, 0.001 printed). */
static void test_tiny_p(void)
{
    enum { N = 1000 };
    size_t size = 64 + N * 32;
    char *text = malloc(size);
    size_t used = (size_t)snprintf(text, size, "id\tsplit\tlabel\tpremise\thypothesis\n");
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(text + used, size - used, "e%d\ttrain\t%s\tp\th\n", i,
                                 i % 2 ? "neg" : "pos");
    dataset d;
    load(&d, text);
    free(text);
    double *prob = malloc(2 * N * sizeof *prob);
    size_t *pred = malloc(N * sizeof *pred);
    for (size_t i = 0; i < N; i++) {
        double gold = i % 4 < 2 ? 0.9 : 0.8;
        prob[2 * i + d.ex[i].label] = gold;
        prob[2 * i + 1 - d.ex[i].label] = 1 - gold;
        pred[i] = d.ex[i].label;
    }
    pvi_options o;
    pvi_options_default(&o);
    o.folds = N;
    o.group = GROUP_BY_NONE;   /* one premise */
    o.samples = 200;
    pvi_result r;
    tells_error err;
    tells_error_clear(&err);
    CHECK(pvi_from_probabilities(&d, prob, pred, &o, &r, &err) == 0);
    CHECK(r.all.tested);
    CHECK_NEAR(r.all.mean, 0.76447926828895163, REL);
    CHECK_NEAR(r.all.sd, 0.085005013859028564, 1e-10);
    CHECK_NEAR(r.all.t, 284.39448475135485, 1e-9);
    CHECK(r.all.p.p == 0);
    CHECK_NEAR(r.all.p.log_p, -2205.2862031861572, 1e-8);
    char buf[64];
    pvalue_format(r.all.p, 2, buf, sizeof buf);
    CHECK_STR(buf, "1.8e-958");
    pvi_result_free(&r);
    free(prob);
    free(pred);
    dataset_free(&d);
}

static void test_errors(void)
{
    dataset d;
    load(&d, SIX);
    pvi_options o;
    pvi_options_default(&o);
    pvi_result r;
    tells_error err;
    tells_error_clear(&err);
    o.folds = 1;
    CHECK(pvi_from_probabilities(&d, PROB, PRED, &o, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "PVI needs at least 2 folds, not 1");
    CHECK(r.pvi == NULL);
    CHECK(pvi_run(&d, &o, &r, &err) == -1);
    CHECK_STR(err.msg, "PVI needs at least 2 folds, not 1");
    o.folds = 7;
    CHECK(pvi_from_probabilities(&d, PROB, PRED, &o, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "6 examples cannot make 7 folds");
    CHECK(pvi_run(&d, &o, &r, &err) == -1);
    CHECK_STR(err.msg, "6 examples cannot make 7 folds");
    dataset_free(&d);

    /* A label with one example: left out of its fold, the other folds
       lack it (g_null would be 0). Leave one out, so that the other
       labels, with two examples each, are always there. */
    load(&d, "id\tsplit\tlabel\tpremise\thypothesis\n"
             "e1\ttrain\tpos\tp\tgood fun\n"
             "e2\ttrain\tneg\tp\tbad\n"
             "e3\ttrain\todd\tp\tgood\n"
             "e4\ttrain\tneg\tp\tbad dull\n"
             "e5\ttrain\tpos\tp\tfun\n");
    double prob5[15];
    size_t pred5[5] = {0};
    for (size_t i = 0; i < 15; i++)
        prob5[i] = 1.0 / 3;
    o.folds = 5;
    o.group = GROUP_BY_NONE;
    for (unsigned long seed = 1; seed < 3; seed++) {
        o.seed = seed;
        tells_error_clear(&err);
        CHECK(pvi_from_probabilities(&d, prob5, pred5, &o, &r, &err) == -1);
        CHECK(err.kind == TELLS_ERR_DATA && err.line == 4);
        CHECK(strncmp(err.msg, "label 'odd' is not in the other folds of fold ", 46) == 0);
        CHECK(strstr(err.msg, " (too few examples of it for 5 folds)") != NULL);
        CHECK(r.pvi == NULL);
    }
    /* pvi_run finds it before it trains: seed 3 deals e3 into fold 1
       (pvi_odd.seed), the first. */
    o.seed = 3;
    tells_error_clear(&err);
    CHECK(pvi_run(&d, &o, &r, &err) == -1);
    CHECK(err.kind == TELLS_ERR_DATA && err.line == 4);
    CHECK_STR(err.msg, "label 'odd' is not in the other folds of fold 1 (too few examples "
                       "of it for 5 folds)");
    CHECK(r.pvi == NULL);
    dataset_free(&d);
}

/* The token writer on a hand-built result: classes in byte order, drops
   descending, ties by token; min_count and top. */
static void test_write_tokens(void)
{
    dataset d;
    load(&d, SIX);
    pvi_result r;
    memset(&r, 0, sizeof r);
    r.tokens = vocab_new();
    CHECK(r.tokens != NULL);
    const char *words[] = {"good", "fun", "bad", "dull"};
    for (size_t i = 0; i < 4; i++)
        CHECK(vocab_intern(r.tokens, words[i], strlen(words[i])) == (long)i);
    static const pvi_token tok[] = {
        {0, 0, 2, 0.5}, {0, 1, 2, 0.5}, {0, 2, 1, -0.25},
        {1, 2, 2, 1.25}, {1, 3, 2, -1e-9}, {1, 0, 1, 2.0}};
    r.ntok = sizeof tok / sizeof tok[0];
    r.tok = malloc(sizeof tok);
    CHECK(r.tok != NULL);
    if (!r.tok)
        return;
    memcpy(r.tok, tok, sizeof tok);
    static const struct {
        size_t min_count, top;
        const char *want;
    } cases[] = {
        {1, 0,
         "class\ttoken\tn\tpvi_drop\n"
         "neg\tgood\t1\t2.000000\n"
         "neg\tbad\t2\t1.250000\n"
         "neg\tdull\t2\t0.000000\n"
         "pos\tfun\t2\t0.500000\n"
         "pos\tgood\t2\t0.500000\n"
         "pos\tbad\t1\t-0.250000\n"},
        {2, 0,
         "class\ttoken\tn\tpvi_drop\n"
         "neg\tbad\t2\t1.250000\n"
         "neg\tdull\t2\t0.000000\n"
         "pos\tfun\t2\t0.500000\n"
         "pos\tgood\t2\t0.500000\n"},
        {1, 1,
         "class\ttoken\tn\tpvi_drop\n"
         "neg\tgood\t1\t2.000000\n"
         "pos\tfun\t2\t0.500000\n"},
        {2, 1,
         "class\ttoken\tn\tpvi_drop\n"
         "neg\tbad\t2\t1.250000\n"
         "pos\tfun\t2\t0.500000\n"},
        {3, 0, "class\ttoken\tn\tpvi_drop\n"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *buf = NULL;
        size_t size;
        FILE *fp = open_memstream(&buf, &size);
        tells_error err;
        CHECK(fp && pvi_write_tokens(fp, &d, &r, cases[k].min_count, cases[k].top, NULL, &err) == 0);
        if (fp)
            fclose(fp);
        check_text(buf, cases[k].want);
    }
    pvi_result_free(&r);
    CHECK(r.tokens == NULL && r.tok == NULL);
    dataset_free(&d);
}

/* 30 rows: pos hypotheses hold "good", neg ones "bad", each with one of
   three fillers (5 rows of each class with each); pos row 0 holds "good"
   twice. */
static char *thirty_rows(void)
{
    static const char *fill[] = {"movie", "film", "show"};
    size_t cap = 4096, used = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    used += (size_t)snprintf(t, cap, "id\tsplit\tlabel\tpremise\thypothesis\n");
    for (int i = 0; i < 30; i++) {
        const char *label = i % 2 ? "neg" : "pos";
        used += (size_t)snprintf(t + used, cap - used, "r%02d\ttrain\t%s\tp%02d\t%s %s%s\n",
                                 i, label, i / 2, i % 2 ? "bad" : "good", fill[(i / 2) % 3],
                                 i == 0 ? " good" : "");
    }
    return t;
}

static const pvi_token *find_tok(const pvi_result *r, const dataset *d, const char *cls,
                                 const char *word)
{
    for (size_t i = 0; i < r->ntok; i++)
        if (strcmp(vocab_str(d->labels, r->tok[i].class_id), cls) == 0 &&
            strcmp(vocab_str(r->tokens, r->tok[i].token), word) == 0)
            return &r->tok[i];
    return NULL;
}

static int progress_calls;
static void count_progress(const char *msg, void *user)
{
    (void)user;
    CHECK(strncmp(msg, "fold ", 5) == 0);
    progress_calls++;
}

static void test_fasttext(void)
{
    char *text = thirty_rows();
    CHECK(text != NULL);
    if (!text)
        return;
    dataset d;
    load(&d, text);
    free(text);
    pvi_options o;
    pvi_options_default(&o);
    o.folds = 2;
    o.seed = 5;
    o.samples = 200;
    o.tokens = true;
    o.ft.dim = 10;
    o.ft.bucket = 1000;
    o.ft.epoch = 25;
    o.ft.lr = 0.5;
    o.progress = count_progress;
    pvi_result r;
    tells_error err;
    tells_error_clear(&err);
    CHECK(pvi_run(&d, &o, &r, &err) == 0);
    if (err.kind != TELLS_ERR_NONE)
        fprintf(stderr, "pvi_run: %s\n", err.msg);
    CHECK(progress_calls == 4);   /* training and token deletions, 2 folds */
    CHECK(r.n == 30 && r.nclasses == 2);
    /* Two rows share each premise, and a fold: the folds are cv_assign's
       by premise (15 premises: 8 and 7), and g_null is the label's share
       of the other fold's rows. */
    size_t cv[30], rows[30], in_fold[2] = {0, 0};
    for (size_t i = 0; i < 30; i++)
        rows[i] = i;
    cv_plan plan = {2, 5, GROUP_BY_PREMISE};
    CHECK(cv_assign(&d, rows, 30, &plan, cv, &err) == 0);
    for (size_t i = 0; i < 30; i++) {
        CHECK(r.fold[i] == cv[i]);
        CHECK(r.fold[i] == r.fold[i ^ 1]);
        in_fold[r.fold[i]]++;
    }
    CHECK((in_fold[0] == 16 && in_fold[1] == 14) || (in_fold[0] == 14 && in_fold[1] == 16));
    for (size_t i = 0; i < 30; i++) {
        size_t same = 0, other = 0;
        for (size_t j = 0; j < 30; j++)
            if (r.fold[j] != r.fold[i]) {
                other++;
                same += d.ex[j].label == d.ex[i].label;
            }
        CHECK(other == 30 - in_fold[r.fold[i]]);
        CHECK(r.p_null[i] == (double)same / (double)other);
        CHECK(r.p_gold[i] > 0 && r.p_gold[i] <= 1);
        CHECK_NEAR(r.pvi[i], log2(r.p_gold[i]) - log2(r.p_null[i]), REL);
    }
    /* "good" and "bad" tell the label: the corpus's V-information is
       positive, and deleting them costs PVI. */
    CHECK(r.all.n == 30 && r.all.mean > 0.5 && r.all.low > 0);
    CHECK(r.by_class[0].n == 15 && r.by_class[1].n == 15);
    /* Token drops: every class and token with an example, n the examples
       of the class holding it (once for r00's two "good"s). */
    CHECK(r.ntok == 8);
    static const struct {
        const char *cls, *word;
    } held[] = {{"pos", "good"}, {"pos", "movie"}, {"pos", "film"}, {"pos", "show"},
                {"neg", "bad"},  {"neg", "movie"}, {"neg", "film"}, {"neg", "show"}};
    for (size_t k = 0; k < 8; k++) {
        const pvi_token *t = find_tok(&r, &d, held[k].cls, held[k].word);
        CHECK(t != NULL);
        if (t)
            CHECK(t->n == (strcmp(held[k].word, "good") && strcmp(held[k].word, "bad") ? 5u
                                                                                          : 15u));
    }
    CHECK(find_tok(&r, &d, "neg", "good") == NULL);
    const pvi_token *good = find_tok(&r, &d, "pos", "good"), *bad = find_tok(&r, &d, "neg", "bad");
    CHECK(good && good->drop > 0.5);
    CHECK(bad && bad->drop > 0.5);

    /* The same PVIs, folds and summary through pvi_from_probabilities
       (its g_x's probability of the gold label p_gold, of the other
       1 - p_gold). */
    double prob[60];
    for (size_t i = 0; i < 30; i++) {
        prob[2 * i + d.ex[i].label] = r.p_gold[i];
        prob[2 * i + 1 - d.ex[i].label] = 1 - r.p_gold[i];
    }
    pvi_result again;
    CHECK(pvi_from_probabilities(&d, prob, r.pred, &o, &again, &err) == 0);
    for (size_t i = 0; i < 30; i++) {
        CHECK(again.fold[i] == r.fold[i] && again.p_null[i] == r.p_null[i]);
        CHECK(again.pvi[i] == r.pvi[i] && again.pred[i] == r.pred[i]);
    }
    CHECK(again.all.mean == r.all.mean && again.all.low == r.all.low &&
          again.all.high == r.all.high && again.all.p.p == r.all.p.p);
    CHECK(again.by_class[1].low == r.by_class[1].low);
    CHECK(again.ntok == 0 && again.tokens == NULL);
    pvi_result_free(&again);
    pvi_result_free(&r);
    dataset_free(&d);
}

/* ---- evaluate ---- */

/* Labels in order of appearance neutral (0), contradiction (1),
   entailment (2); byte order contradiction, entailment, neutral. */
static const char NLI[] =
    "id\tsplit\tlabel\tpremise\thypothesis\n"
    "n1\tdev\tneutral\tp\th\n"
    "c1\tdev\tcontradiction\tp\th\n"
    "e1\tdev\tentailment\tp\th\n"
    "n2\tdev\tneutral\tp\th\n"
    "c2\tdev\tcontradiction\tp\th\n"
    "e2\tdev\tentailment\tp\th\n"
    "n3\tdev\tneutral\tp\th\n"
    "e3\tdev\tentailment\tp\th\n";

static char *confusion_text(const scores *s, const dataset *d)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    tells_error err;
    CHECK(fp && scores_write_confusion(s, d, fp, &err) == 0);
    if (fp)
        fclose(fp);
    return buf;
}

static char *per_class_text(const scores *s, const dataset *d)
{
    char *buf = NULL;
    size_t size;
    FILE *fp = open_memstream(&buf, &size);
    tells_error err;
    CHECK(fp && scores_write_per_class(s, d, fp, &err) == 0);
    if (fp)
        fclose(fp);
    return buf;
}

static void test_scores(void)
{
    dataset d;
    load(&d, NLI);
    /* Predictions in another order than the rows:
         gold  N C E N C E N E   (rows 0..7)
         pred  N C N N E E C E
       confusion (gold rows, predicted columns): N: N 2, C 1; C: C 1, E 1;
       E: N 1, E 2. Accuracy 5/8. Per class (tp, fp, fn): N (2, 1, 1), C
       (1, 1, 1), E (2, 1, 1): precision = recall = F1 = 2/3, 1/2, 2/3;
       macro F1 (2/3 + 1/2 + 2/3) / 3 = 11/18; micro F1 2 5 / (2 5 + 3 +
       3) = 5/8. */
    enum { N = 0, C = 1, E = 2 };
    size_t row[8] = {7, 0, 1, 2, 3, 4, 5, 6};
    size_t pred[8] = {E, N, C, N, N, E, E, C};
    predictions p = {.n = 8, .row = row, .pred = pred, .nlabels = 3};
    scores s;
    tells_error err;
    tells_error_clear(&err);
    CHECK(scores_compute(&s, &d, &p, NULL, &err) == 0);
    CHECK(s.n == 8 && s.nlabels == 3);
    const size_t conf[9] = {2, 1, 0, 0, 1, 1, 1, 0, 2};
    for (size_t i = 0; i < 9; i++)
        CHECK(s.confusion[i] == conf[i]);
    CHECK(s.support[N] == 3 && s.support[C] == 2 && s.support[E] == 3);
    CHECK_NEAR(s.accuracy, 5.0 / 8, 1e-15);
    CHECK_NEAR(s.micro_f1, 5.0 / 8, 1e-15);
    CHECK_NEAR(s.macro_f1, 11.0 / 18, 1e-15);
    CHECK_NEAR(s.precision[N], 2.0 / 3, 1e-15);
    CHECK_NEAR(s.recall[C], 0.5, 1e-15);
    CHECK_NEAR(s.f1[E], 2.0 / 3, 1e-15);
    check_text(confusion_text(&s, &d),
               "gold\tcontradiction\tentailment\tneutral\n"
               "contradiction\t1\t1\t0\n"
               "entailment\t0\t2\t1\n"
               "neutral\t1\t0\t2\n");
    check_text(per_class_text(&s, &d),
               "class\tprecision\trecall\tf1\tsupport\n"
               "contradiction\t0.500000\t0.500000\t0.500000\t2\n"
               "entailment\t0.666667\t0.666667\t0.666667\t3\n"
               "neutral\t0.666667\t0.666667\t0.666667\t3\n");
    scores_free(&s);
    CHECK(s.confusion == NULL && s.n == 0);

    /* A subset, n1 c1 n2 and an id not in the data: three right; no
       entailment in gold or predictions, so macro F1 is over two labels
       (1, not 2/3); the unknown id is never seen. */
    char path[256];
    id_set ids;
    check_temp_file(path, sizeof path, "n1\nc1\nn2\nx9\n");
    CHECK(id_set_load(&ids, path, &err) == 0);
    unlink(path);
    CHECK(scores_compute(&s, &d, &p, &ids, &err) == 0);
    CHECK(s.n == 3 && s.accuracy == 1 && s.macro_f1 == 1 && s.micro_f1 == 1);
    CHECK(s.support[N] == 2 && s.support[C] == 1 && s.support[E] == 0);
    CHECK(s.precision[E] == 0 && s.recall[E] == 0 && s.f1[E] == 0);
    CHECK(id_set_unseen(&ids) == 1);
    check_text(per_class_text(&s, &d),
               "class\tprecision\trecall\tf1\tsupport\n"
               "contradiction\t1.000000\t1.000000\t1.000000\t1\n"
               "entailment\t0.000000\t0.000000\t0.000000\t0\n"
               "neutral\t1.000000\t1.000000\t1.000000\t2\n");
    scores_free(&s);
    id_set_free(&ids);

    /* A subset no prediction is in: nothing scored, every metric 0. */
    check_temp_file(path, sizeof path, "x9\n");
    CHECK(id_set_load(&ids, path, &err) == 0);
    unlink(path);
    CHECK(scores_compute(&s, &d, &p, &ids, &err) == 0);
    CHECK(s.n == 0 && s.accuracy == 0 && s.macro_f1 == 0 && s.micro_f1 == 0);
    check_text(confusion_text(&s, &d),
               "gold\tcontradiction\tentailment\tneutral\n"
               "contradiction\t0\t0\t0\n"
               "entailment\t0\t0\t0\n"
               "neutral\t0\t0\t0\n");
    scores_free(&s);
    id_set_free(&ids);

    /* No predictions at all. */
    predictions none = {.n = 0, .row = row, .pred = pred, .nlabels = 3};
    CHECK(scores_compute(&s, &d, &none, NULL, &err) == 0);
    CHECK(s.n == 0 && s.accuracy == 0);
    scores_free(&s);
    dataset_free(&d);
}

int main(void)
{
    test_leave_one_out();
    test_three_folds();
    test_tiny_p();
    test_errors();
    test_write_tokens();
    test_fasttext();
    test_scores();
    CHECK_DONE();
}
