/* AFLite over a dataset: the training size of a fraction, classes in byte
   order, the matrix checked against the dataset, removal by score with
   ties in input order, and the record of a run with its tables and id
   files. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/aflite.h"
#include "base/outfile.h"
#include "stats/subsample.h"
#include "check.h"


/* A scratch folder for the test's files. */
static char tmpdir[1024];

static const char *tmp_path(const char *name)
{
    static char buf[4][4096];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

static size_t count_lines(const char *path)
{
    FILE *fp = fopen(path, "r");
    size_t n = 0;
    int c;
    while (fp && (c = getc(fp)) != EOF)
        n += c == '\n';
    if (fp)
        fclose(fp);
    return n;
}

/* The record's tables, written to memory. */
static char *written(out_writer write, aflite_record *rec, int *rc, tells_error *err)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    *rc = write(mem, rec, err);
    fclose(mem);
    return buf;
}

#define HEADER "id\tsplit\tlabel\tpremise\thypothesis\n"

static void test_classes(void)
{
    tells_error err;
    dataset d;
    /* Byte order: "Contradiction" < "entailment" < "neutral", whatever the
       order of appearance. */
    write_file(tmp_path("three.tsv"), HEADER "a\tt\tneutral\tx\ty\nb\tt\tentailment\tx\ty\n"
               "c\tt\tContradiction\tx\ty\nd\tt\tneutral\tx\ty\n");
    CHECK(dataset_load(&d, tmp_path("three.tsv"), &err) == 0);
    int *y;
    size_t classes;
    CHECK(aflite_classes(&d, &y, &classes, &err) == 0);
    CHECK(classes == 3);
    CHECK(y && y[0] == 2 && y[1] == 1 && y[2] == 0 && y[3] == 2);
    free(y);
    dataset_free(&d);

    write_file(tmp_path("one.tsv"), HEADER "a\tt\tneutral\tx\ty\nb\tt\tneutral\tx\ty\n");
    CHECK(dataset_load(&d, tmp_path("one.tsv"), &err) == 0);
    CHECK(aflite_classes(&d, &y, &classes, &err) == -1);
    CHECK(y == NULL && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "one class only ('neutral'): nothing to classify");
    CHECK_STR(err.file, tmp_path("one.tsv"));
    dataset_free(&d);

    write_file(tmp_path("none.tsv"), HEADER);
    CHECK(dataset_load(&d, tmp_path("none.tsv"), &err) == 0);
    CHECK(aflite_classes(&d, &y, &classes, &err) == -1);
    CHECK_STR(err.msg, "no examples in the input");
    dataset_free(&d);
}

static void test_train_size(void)
{
    CHECK(aflite_train_size(0.4, 600) == 240);
    CHECK(aflite_train_size(0.25, 6) == 2);     /* 1.5, rounded away from 0 */
    CHECK(aflite_train_size(0.001, 10) == 1);   /* never 0 */
}

static void test_check_matrix(void)
{
    tells_error err;
    dataset d;
    write_file(tmp_path("two.tsv"), HEADER "a\tt\tneutral\tx\ty\nb\tt\tentailment\tx\ty\n");
    CHECK(dataset_load(&d, tmp_path("two.tsv"), &err) == 0);
    float v[6] = {0, 1, 2, 3, 4, 5};
    npy_matrix x = {v, 2, 3};
    CHECK(aflite_check_matrix(&x, "m.npy", &d, &err) == 0);
    npy_matrix three = {v, 3, 2};
    CHECK(aflite_check_matrix(&three, "m.npy", &d, &err) == -1);
    CHECK_STR(err.file, "m.npy");
    char want[8192];
    snprintf(want, sizeof want, "3 rows, but %s has 2 examples", tmp_path("two.tsv"));
    CHECK_STR(err.msg, want);
    npy_matrix empty = {v, 2, 0};
    CHECK(aflite_check_matrix(&empty, "m.npy", &d, &err) == -1);
    CHECK_STR(err.msg, "a matrix without columns");
    v[4] = NAN;
    CHECK(aflite_check_matrix(&x, "m.npy", &d, &err) == -1);
    CHECK_STR(err.msg, "row 1 (id b), column 1 is NaN");
    v[2] = -INFINITY;
    CHECK(aflite_check_matrix(&x, "m.npy", &d, &err) == -1);
    CHECK_STR(err.msg, "row 0 (id a), column 2 is infinite");
    CHECK(err.kind == TELLS_ERR_DATA);
    dataset_free(&d);
}

/* round_done for the run below: records the round, and checks that the
   removed ones are the best scores, equal scores in the order of their
   keys' hashes in the round's tie stream (without row_keys, an example's
   key is its input row). */
typedef struct checked_run {
    aflite_record rec;
    double tau;
    size_t cutoff, bad;
    unsigned long seed;
} checked_run;

/* Whether example p goes before example a among equal scores. */
static bool tie_before(const checked_run *cr, const aflite_round *r, size_t p, size_t a)
{
    uint64_t stream = subsample_stream(cr->seed, r->round, UINT64_MAX);
    return subsample_hash(r->rows[p], stream) < subsample_hash(r->rows[a], stream);
}

static double score_at(const aflite_round *r, size_t i)
{
    return r->held[i] ? (double)r->correct[i] / r->held[i] : 0;
}

static int check_round(const aflite_round *r, void *user, tells_error *err)
{
    checked_run *cr = user;
    bool *removed = calloc(r->examples + 1, sizeof *removed);
    for (size_t i = 0; removed && i < r->removed; i++) {
        size_t a = r->chosen[i];
        removed[a] = true;
        double sa = score_at(r, a);
        cr->bad += sa < cr->tau;
        if (i > 0) {
            size_t p = r->chosen[i - 1];
            double sp = score_at(r, p);
            cr->bad += sp < sa || (sp == sa && !tie_before(cr, r, p, a));
        }
    }
    /* Nothing kept reaches tau when fewer than k were removed ... */
    for (size_t i = 0; removed && r->removed < cr->cutoff && i < r->examples; i++)
        cr->bad += !removed[i] && r->held[i] && score_at(r, i) >= cr->tau;
    /* ... or beats the last removed one. */
    if (removed && r->removed == cr->cutoff) {
        size_t l = r->chosen[r->removed - 1];
        double sl = score_at(r, l);
        for (size_t i = 0; i < r->examples; i++) {
            double s = score_at(r, i);
            if (!removed[i] && (s > sl || (s == sl && tie_before(cr, r, i, l))))
                cr->bad++;
        }
    }
    /* in_order: the positions by input row */
    for (size_t q = 1; q < r->examples; q++)
        cr->bad += r->rows[r->in_order[q - 1]] >= r->rows[r->in_order[q]];
    free(removed);
    return aflite_record_round(r, &cr->rec, err);
}

static void test_run_and_record(void)
{
    tells_error err;
    dataset d;
    CHECK(dataset_load(&d, data_path("aflite.tsv"), &err) == 0);
    npy_matrix x;
    embed_options eo = {0};
    CHECK(aflite_matrix(&d, data_path("aflite-x.npy"), NULL, &eo, &x, &err) == 0);
    int *y;
    size_t classes;
    CHECK(aflite_classes(&d, &y, &classes, &err) == 0);
    checked_run cr = {.tau = 0.75, .cutoff = 50, .seed = 7};
    CHECK(aflite_record_init(&cr.rec, &d, "scores.tsv", &err) == 0);
    aflite_options o;
    aflite_options_default(&o);
    o.models = 8;
    o.train_size = 240;
    o.cutoff = cr.cutoff;
    o.seed = 7;
    o.round_done = check_round;
    o.user = &cr;
    CHECK(aflite_run(x.data, x.rows, x.cols, y, classes, &o, &cr.rec.result, &err) == 0);
    CHECK(cr.bad == 0);
    const aflite_record *rec = &cr.rec;
    CHECK(rec->nrounds == rec->result.rounds && rec->nrounds > 1);

    /* The rounds table: a row per round, chained. */
    int rc;
    char *rounds = written(aflite_write_rounds, &cr.rec, &rc, &err);
    CHECK(rc == 0);
    CHECK(strncmp(rounds, "round\texamples\tat_tau\tremoved\tremaining\n1\t600\t", 41) == 0);
    size_t lines = 0, examples = 0, removed = 0;
    for (char *p = strchr(rounds, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        size_t r, e, a, k, left;
        CHECK(sscanf(p + 1, "%zu\t%zu\t%zu\t%zu\t%zu", &r, &e, &a, &k, &left) == 5);
        CHECK(r == ++lines && e == 600 - removed && left == e - k && k <= a);
        examples += e;
        removed += k;
    }
    CHECK(lines == rec->nrounds && removed == rec->result.easy);
    free(rounds);

    /* The scores table: a line per example per round. */
    char *scores = written(aflite_write_scores, &cr.rec, &rc, &err);
    CHECK(rc == 0);
    size_t slines = 0, dashes = 0;
    for (char *p = scores; (p = strchr(p, '\n')); p++) {
        slines++;
        dashes += p[-1] == '-';
    }
    CHECK(slines == examples + 1);
    /* Examples never removed appear in every round. */
    CHECK(dashes == (600 - removed) * rec->nrounds);
    CHECK(strncmp(scores, "round\tid\tscore\theld_out\tremoved_in_round\n1\tg-00000\t", 50) == 0);
    free(scores);

    /* The partitions. */
    CHECK(aflite_write_ids(tmp_path("easy.ids"), rec, true, &err) == 0);
    CHECK(aflite_write_ids(tmp_path("difficult.ids"), rec, false, &err) == 0);
    CHECK(count_lines(tmp_path("easy.ids")) == removed);
    CHECK(count_lines(tmp_path("difficult.ids")) == 600 - removed);
    CHECK(count_lines(tmp_path("easy.ids.sha256")) == 1);

    aflite_record_free(&cr.rec);
    free(y);
    npy_free(&x);
    dataset_free(&d);
}

/* Warm starts (the default) and cold ones (--cold-start) reach the same
   optima up to the solver's tolerance: the same rounds remove the same
   examples. */
static void test_warm_cold(void)
{
    tells_error err;
    dataset d;
    CHECK(dataset_load(&d, data_path("aflite.tsv"), &err) == 0);
    int *y[2];
    size_t classes, *removed[2] = {NULL, NULL}, rounds[2] = {0, 0};
    for (int cold = 0; cold < 2; cold++) {
        npy_matrix x;
        embed_options eo = {0};
        CHECK(aflite_matrix(&d, data_path("aflite-x.npy"), NULL, &eo, &x, &err) == 0);
        CHECK(aflite_classes(&d, &y[cold], &classes, &err) == 0);
        aflite_options o;
        aflite_options_default(&o);
        o.models = 8;
        o.train_size = 240;
        o.cutoff = 20;
        o.seed = 3;
        o.cold_start = cold;
        o.lr.threads = 1 + cold;
        aflite_result res;
        CHECK(aflite_run(x.data, x.rows, x.cols, y[cold], classes, &o, &res, &err) == 0);
        removed[cold] = res.removed_in;
        rounds[cold] = res.rounds;
        npy_free(&x);
        free(y[cold]);
    }
    CHECK(rounds[0] > 3 && rounds[0] == rounds[1]);
    CHECK(removed[0] && removed[1] &&
          memcmp(removed[0], removed[1], d.n * sizeof *removed[0]) == 0);
    free(removed[0]);
    free(removed[1]);
    dataset_free(&d);
}

/* round_done for test_row_order: counts the rounds whose cut fell among
   equal scores (an example kept scores as the last one removed). */
static int count_tied_cuts(const aflite_round *r, void *user, tells_error *err)
{
    (void)err;
    size_t *tied = user;
    if (r->removed == 0)
        return 0;
    size_t l = r->chosen[r->removed - 1];
    bool *removed = calloc(r->examples + 1, sizeof *removed);
    for (size_t i = 0; removed && i < r->removed; i++)
        removed[r->chosen[i]] = true;
    bool tie = false;
    for (size_t i = 0; removed && i < r->examples; i++)
        tie |= !removed[i] && (uint64_t)r->correct[i] * r->held[l] ==
                                  (uint64_t)r->correct[l] * r->held[i];
    *tied += tie;
    free(removed);
    return 0;
}

/* The same examples are removed, in the same rounds, whatever the order
   of the rows, though most cuts fall among equal scores. */
static void test_row_order(void)
{
    tells_error err;
    dataset d;
    CHECK(dataset_load(&d, data_path("aflite.tsv"), &err) == 0);
    uint64_t *keys = aflite_row_keys(&d), *pkeys = malloc(d.n * sizeof *pkeys);
    size_t *perm = malloc(d.n * sizeof *perm), *removed[2] = {NULL, NULL}, tied[2] = {0, 0};
    for (size_t i = 0; perm && i < d.n; i++)
        perm[i] = (i * 7919 + 13) % d.n;      /* 7919 is prime: a permutation */
    for (int shuffled = 0; shuffled < 2 && keys && pkeys && perm; shuffled++) {
        npy_matrix x;
        embed_options eo = {0};
        int *y;
        size_t classes;
        CHECK(aflite_matrix(&d, data_path("aflite-x.npy"), NULL, &eo, &x, &err) == 0);
        CHECK(aflite_classes(&d, &y, &classes, &err) == 0);
        float *px = malloc(x.rows * x.cols * sizeof *px);
        int *py = malloc(d.n * sizeof *py);
        for (size_t i = 0; px && py && i < d.n; i++) {
            size_t from = shuffled ? perm[i] : i;
            memcpy(px + i * x.cols, x.data + from * x.cols, x.cols * sizeof *px);
            py[i] = y[from];
            pkeys[i] = keys[from];
        }
        aflite_options o;
        aflite_options_default(&o);
        o.models = 8;
        o.train_size = 240;
        o.cutoff = 30;
        o.seed = 5;
        o.row_keys = pkeys;
        o.round_done = count_tied_cuts;
        o.user = &tied[shuffled];
        aflite_result res;
        CHECK(px && py && aflite_run(px, x.rows, x.cols, py, classes, &o, &res, &err) == 0);
        removed[shuffled] = res.removed_in;
        free(px);
        free(py);
        free(y);
        npy_free(&x);
    }
    CHECK(tied[0] >= 3 && tied[0] == tied[1]);
    size_t same = 0, easy = 0;
    for (size_t i = 0; removed[0] && removed[1] && i < d.n; i++) {
        same += removed[1][i] == removed[0][perm[i]];
        easy += removed[0][i] != 0;
    }
    CHECK(same == d.n && easy >= 60);
    free(removed[0]);
    free(removed[1]);
    free(keys);
    free(pkeys);
    free(perm);
    dataset_free(&d);
}

static void test_record(void)
{
    tells_error err;
    dataset d = {0};
    aflite_record rec;
    CHECK(aflite_record_init(&rec, &d, NULL, &err) == 0);
    /* Rounds beyond any first capacity. */
    for (size_t i = 1; i <= 40; i++) {
        aflite_round r = {.round = i, .examples = 0, .at_tau = i, .removed = 1,
                          .remaining = 100 - i};
        CHECK(aflite_record_round(&r, &rec, &err) == 0);
    }
    CHECK(rec.nrounds == 40 && rec.rounds[39].at_tau == 40 && rec.rounds[0].round == 1);
    /* No scores were kept. */
    int rc;
    tells_error_clear(&err);
    free(written(aflite_write_scores, &rec, &rc, &err));
    CHECK(rc == -1 && err.kind == TELLS_ERR_USAGE);
    aflite_record_free(&rec);
}

/* The keyed draws: exactly m rows; the same rows by key whatever their
   order; one row fewer changes a draw by at most that row and one other;
   every row equally likely; equal keys fall back on position. */
static size_t pick(const uint64_t *keys, size_t n, size_t m, uint64_t stream,
                   unsigned char *mark, subsample_work *w)
{
    memset(mark, 7, n);
    CHECK(subsample_pick(keys, n, m, stream, mark, 1, w) == 0);
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(mark[i] <= 1);
        c += mark[i];
    }
    return c;
}

static void test_subsample(void)
{
    enum { N = 2000 };
    static uint64_t keys[N], shuffled[N], fewer[N];
    static unsigned char a[N], b[N];
    subsample_work w = {0};
    for (size_t i = 0; i < N; i++)
        keys[i] = subsample_id_key("row", 3) + i * 1000003u;
    CHECK(subsample_id_key("a", 1) != subsample_id_key("b", 1));
    CHECK(subsample_stream(1, 2, 3) != subsample_stream(1, 3, 2));
    size_t sizes[] = {0, 1, 2, 799, 800, 1999, 2000, 2500};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        CHECK(pick(keys, N, sizes[s], 42, a, &w) == (sizes[s] < N ? sizes[s] : N));
    /* reversed order: the same keys chosen */
    for (size_t i = 0; i < N; i++)
        shuffled[i] = keys[N - 1 - i];
    pick(keys, N, 800, 42, a, &w);
    pick(shuffled, N, 800, 42, b, &w);
    size_t same = 0;
    for (size_t i = 0; i < N; i++)
        same += a[i] == b[N - 1 - i];
    CHECK(same == N);
    /* row 17 gone: the others keep their fate but for one */
    for (size_t i = 0, k = 0; i < N; i++)
        if (i != 17)
            fewer[k++] = keys[i];
    for (uint64_t stream = 0; stream < 50; stream++) {
        pick(keys, N, 800, stream, a, &w);
        CHECK(pick(fewer, N - 1, 800, stream, b, &w) == 800);
        size_t changed = 0;
        for (size_t i = 0, k = 0; i < N; i++)
            if (i != 17)
                changed += a[i] != b[k++];
        CHECK(changed == (a[17] ? 1u : 0u));
    }
    /* 20 of 50 in 20,000 draws: each row about 8,000 times (sd 69) */
    static unsigned hits[50];
    for (uint64_t stream = 0; stream < 20000; stream++) {
        pick(keys, 50, 20, subsample_stream(9, stream, 0), a, &w);
        for (size_t i = 0; i < 50; i++)
            hits[i] += a[i];
    }
    for (size_t i = 0; i < 50; i++)
        CHECK(hits[i] > 8000 - 6 * 69 && hits[i] < 8000 + 6 * 69);
    /* equal keys: equal hashes, by position (the window is widened) */
    for (size_t i = 0; i < N; i++)
        shuffled[i] = 5;
    CHECK(pick(shuffled, N, 300, 42, a, &w) == 300);
    CHECK(a[0] && a[299] && !a[300]);
    subsample_work_free(&w);
}

/* A corpus of `premises` distinct premises of `words` tokens, each with
   three hypotheses of 2 tokens (two of them the same text, counted once):
   premises * (words + 4) distinct tokens. */
static void write_corpus(const char *path, size_t premises, size_t words)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fputs("id\tsplit\tlabel\tpremise\thypothesis\n", fp);
    for (size_t i = 0; i < premises; i++)
        for (int h = 0; h < 3; h++) {
            fprintf(fp, "p%zu-%d\ttrain\t%s\tw%zu", i, h, h ? "e" : "c", i);
            for (size_t w = 1; w < words; w++)
                fputs(" w", fp);
            fprintf(fp, "\tx%zu %s\n", i, h == 2 ? "y" : "z");
        }
    fclose(fp);
}

/* The vectors' epochs: about 2.5 million tokens seen, 1 to 20 epochs. */
static void test_auto_epochs(void)
{
    static const struct {
        size_t premises, words;
        int epochs;
    } cases[] = {
        {10, 6, 20},          /* 100 tokens: the most */
        {1000, 121, 20},      /* 125,000 tokens: 20 passes make 2.5 million */
        {1000, 126, 20},      /* 130,000: ceil(19.2) */
        {1000, 496, 5},       /* 500,000: fastText's default */
        {1000, 996, 3},       /* 1,000,000: ceil(2.5) */
        {2500, 996, 1},       /* 2,500,000: one pass */
        {5000, 996, 1},       /* 5,000,000: one pass, never fewer */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        write_corpus(tmp_path("tokens.tsv"), cases[k].premises, cases[k].words);
        dataset d;
        tells_error err;
        CHECK(dataset_load(&d, tmp_path("tokens.tsv"), &err) == 0);
        CHECK(embed_auto_epochs(&d) == cases[k].epochs);
        dataset_free(&d);
    }
    unlink(tmp_path("tokens.tsv"));
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test-aflite.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_train_size();
    test_classes();
    test_check_matrix();
    test_run_and_record();
    test_warm_cold();
    test_row_order();
    test_subsample();
    test_record();
    test_auto_epochs();
    const char *names[] = {"three.tsv", "one.tsv", "none.tsv", "two.tsv", "easy.ids",
                           "easy.ids.sha256", "difficult.ids", "difficult.ids.sha256"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unlink(tmp_path(names[i]));
    rmdir(tmpdir);
    CHECK_DONE();
}
