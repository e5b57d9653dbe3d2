/* Counting and PMI on a corpus small enough to check by hand, the
   counts file round trip, and whole runs of the PMI table and the length
   table from files. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "stats/counts.h"
#include "stats/describe.h"
#include "stats/pmi.h"

static const char *rows[][2] = {
    {"e", "a b a"}, {"e", "a c"}, {"n", "b c"}, {"c", "c  c d"},
};

static void fill(token_counts *tc)
{
    CHECK(counts_init(tc, FIELD_HYPOTHESIS) == 0);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        CHECK(counts_add(tc, rows[i][0], 1, rows[i][1], strlen(rows[i][1]), "", 0) == 0);
}

static const pmi_entry *find(const pmi_table *t, const token_counts *tc,
                             const char *cls, const char *tok)
{
    for (size_t i = 0; i < t->nclasses; i++) {
        if (strcmp(vocab_str(tc->classes, t->classes[i].class_id), cls) != 0)
            continue;
        for (size_t j = 0; j < t->classes[i].n; j++)
            if (strcmp(vocab_str(tc->tokens, t->classes[i].entries[j].token), tok) == 0)
                return &t->classes[i].entries[j];
    }
    return NULL;
}

/* A small file's whole content. */
static const char *slurp(const char *path)
{
    static char buf[4096];
    FILE *fp = fopen(path, "rb");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (fp)
        fclose(fp);
    buf[n] = '\0';
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fputs(text, fp) >= 0);
    fclose(fp);
}

/* The rows above as a prepared TSV, through the whole runs. */
static void runs(void)
{
    char dir[] = "/tmp/tells-unit-runs.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char in[300], counts[300], direct[300], merged[300], lengths[300], empty[300];
    snprintf(in, sizeof in, "%s/in.tsv", dir);
    snprintf(counts, sizeof counts, "%s/in.counts", dir);
    snprintf(direct, sizeof direct, "%s/direct.tsv", dir);
    snprintf(merged, sizeof merged, "%s/merged.tsv", dir);
    snprintf(lengths, sizeof lengths, "%s/lengths.tsv", dir);
    snprintf(empty, sizeof empty, "%s/empty.tsv", dir);
    FILE *fp = fopen(in, "wb");
    CHECK(fp != NULL);
    fputs("id\tsplit\tlabel\tpremise\thypothesis\n", fp);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fprintf(fp, "%zu\tdev\t%s\tp\t%s\n", i, rows[i][0], rows[i][1]);
    fclose(fp);
    write_text(empty, "id\tsplit\tlabel\tpremise\thypothesis\n");
    tells_error err;
    char *files[] = {in, in, empty};

    /* The table from the corpus read twice equals the one from its counts
       summed twice. */
    pmi_job job = {.field = FIELD_HYPOTHESIS, .opt = {false, 1, 1.0}, .top = 2, .threads = 1};
    CHECK(pmi_run(&job, files, 2, direct, &err) == 0);
    /* As tests/pmi-reference.awk computes them. */
    CHECK_STR(slurp(direct), "class\ttoken\tpmi\tcount\tclass_share\n"
                             "c\td\t0.941106\t2\t1.000000\n"
                             "c\tc\t0.540568\t4\t1.000000\n"
                             "e\ta\t0.830075\t6\t1.000000\n"
                             "e\tb\t-0.029747\t2\t0.500000\n"
                             "n\tb\t0.777608\t2\t1.000000\n"
                             "n\tc\t0.125531\t2\t1.000000\n");
    pmi_job emit = job;
    emit.emit_counts = true;
    CHECK(pmi_run(&emit, files, 1, counts, &err) == 0);
    pmi_job from = job;
    from.from_counts = true;
    char *twice[] = {counts, counts};
    CHECK(pmi_run(&from, twice, 2, merged, &err) == 0);
    CHECK_STR(slurp(merged), slurp(direct));
    /* A counts file is no prepared TSV, and no input is no table. */
    CHECK(pmi_run(&job, twice, 1, merged, &err) < 0 && err.code == TELLS_E_NOT_PREPARED);
    CHECK(pmi_run(&job, files + 2, 1, merged, &err) < 0);
    CHECK_STR(err.msg, "no examples in the input");
    CHECK_STR(err.file, empty);
    CHECK_STR(slurp(merged), slurp(direct));  /* left as it was */

    /* Hypothesis lengths (3, 2 | 2 | 3 tokens), classes in byte order. */
    CHECK(lengths_run(files, 1, FIELD_HYPOTHESIS, false, lengths, &err) == 0);
    CHECK_STR(slurp(lengths), "class\tn\tmean\tmedian\tsd\n"
                              "c\t1\t3.000000\t3.000000\t0.000000\n"
                              "e\t2\t2.500000\t2.500000\t0.707107\n"
                              "n\t1\t2.000000\t2.000000\t0.000000\n"
                              "all\t4\t2.500000\t2.500000\t0.577350\n");
    CHECK(lengths_run(files + 2, 1, FIELD_BOTH, false, lengths, &err) < 0);
    CHECK_STR(err.msg, "no examples in the input");
    /* Both texts: one premise token more each. */
    CHECK(lengths_run(files, 1, FIELD_BOTH, false, lengths, &err) == 0);
    CHECK_STR(slurp(lengths), "class\tn\tmean\tmedian\tsd\n"
                              "c\t1\t4.000000\t4.000000\t0.000000\n"
                              "e\t2\t3.500000\t3.500000\t0.707107\n"
                              "n\t1\t3.000000\t3.000000\t0.000000\n"
                              "all\t4\t3.500000\t3.500000\t0.577350\n");

    unlink(in);
    unlink(counts);
    unlink(direct);
    unlink(merged);
    unlink(lengths);
    unlink(empty);
    CHECK(rmdir(dir) == 0);
}

/* zero_order_walk over made-up values: tokens 0..5 in groups {0 1} {2}
   {3 4} {5}. */
static double walk_value[6];
static size_t walk_taken[8], walk_n;

static int walk_take(size_t t, void *ctx, double *value)
{
    (void)ctx;
    walk_taken[walk_n++] = t;
    *value = walk_value[t];
    return 1;
}

static void walk_drop(void *ctx)
{
    (void)ctx;
    walk_n--;
}

static void walks(void)
{
    size_t tok[] = {0, 1, 2, 3, 4, 5}, end[] = {2, 2, 3, 5, 5, 6}, mark[6] = {0};
    zero_order z = {tok, end, 6};
    double v[] = {5, 5, 4, 4, 4, 3};
    memcpy(walk_value, v, sizeof v);
    /* Two rows from the first group; the next group's lower value ends
       the walk. */
    walk_n = 0;
    CHECK(zero_order_walk(&z, 2, mark, 1, walk_take, walk_drop, NULL) == 2);
    CHECK(walk_n == 2 && walk_taken[0] == 0 && walk_taken[1] == 1);
    /* Three rows: the third from group {2}, and group {3 4} has the same
       value, so it may rank by name before it: taken too. */
    walk_n = 0;
    CHECK(zero_order_walk(&z, 3, mark, 1, walk_take, walk_drop, NULL) == 5);
    CHECK(walk_n == 5 && walk_taken[2] == 2 && walk_taken[3] == 3 && walk_taken[4] == 4);
    /* Marked tokens (present in the class) are passed over. */
    mark[0] = 7;
    walk_n = 0;
    CHECK(zero_order_walk(&z, 1, mark, 7, walk_take, walk_drop, NULL) == 1);
    CHECK(walk_n == 1 && walk_taken[0] == 1);
    /* A value that rises along the walk: -2, the caller ranks every token. */
    walk_value[2] = 6;
    walk_n = 0;
    CHECK(zero_order_walk(&z, 3, mark, 1, walk_take, walk_drop, NULL) == -2);
    CHECK(walk_n == 2);
}

int main(void)
{
    walks();
    runs();
    token_counts tc;
    fill(&tc);
    pmi_table t;
    pmi_options opt = {false, 1, 1.0, 0};
    CHECK(pmi_compute(&tc, &opt, &t) == 0);
    CHECK(t.nclasses == 3 && t.kept == 4);
    /* Smoothed counts (class c, e, n): a 1 4 1, b 1 2 2, c 3 2 2, d 2 1 1;
       row sums 6 5 7 4, column sums 7 9 6, total 22. */
    const pmi_entry *e = find(&t, &tc, "e", "a");
    CHECK(e && e->count == 3);
    CHECK_NEAR(e->pmi, log2(4.0 * 22 / (6 * 9)), 1e-12);
    CHECK_NEAR(e->class_share, 1.0, 0);
    e = find(&t, &tc, "c", "c");
    CHECK(e && e->count == 2);
    CHECK_NEAR(e->pmi, log2(3.0 * 22 / (7 * 7)), 1e-12);
    e = find(&t, &tc, "n", "a");
    CHECK(e && e->count == 0);
    CHECK_NEAR(e->pmi, log2(1.0 * 22 / (6 * 6)), 1e-12);
    CHECK_NEAR(e->class_share, 0.0, 0);
    /* Classes in byte order, entries by PMI descending. */
    CHECK_STR(vocab_str(tc.classes, t.classes[0].class_id), "c");
    CHECK_STR(vocab_str(tc.tokens, t.classes[0].entries[0].token), "d");
    pmi_free(&t);

    /* Binary counts: a 2 in e; with min count 2, d (1) is dropped. */
    pmi_options bin = {true, 2, 1.0, 0};
    CHECK(pmi_compute(&tc, &bin, &t) == 0);
    CHECK(t.kept == 3);
    e = find(&t, &tc, "e", "a");
    CHECK(e && e->count == 2);
    /* Smoothed: a 1 3 1, b 1 2 2, c 2 2 2; sums 5 5 6; columns 4 7 5; 16. */
    CHECK_NEAR(e->pmi, log2(3.0 * 16 / (5 * 7)), 1e-12);
    CHECK(find(&t, &tc, "c", "d") == NULL);
    pmi_free(&t);

    /* Counts written and merged back twice equal doubled counts. */
    char path[] = "/tmp/tells-unit-counts.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    tells_error err;
    CHECK(counts_write(&tc, fp, &err) == 0);
    fclose(fp);
    token_counts merged;
    CHECK(counts_init(&merged, FIELD_HYPOTHESIS) == 0);
    CHECK(counts_merge_file(&merged, path, &err) == 0);
    CHECK(counts_merge_file(&merged, path, &err) == 0);
    long a = vocab_find(merged.tokens, "a", 1), ce = vocab_find(merged.classes, "e", 1);
    CHECK(a >= 0 && ce >= 0);
    uint64_t count, docs;
    counts_get(&merged, (size_t)ce, (size_t)a, &count, &docs);
    CHECK(count == 6 && docs == 4);
    CHECK(merged.examples[ce] == 4);
    counts_free(&merged);

    token_counts other;
    CHECK(counts_init(&other, FIELD_PREMISE) == 0);
    CHECK(counts_merge_file(&other, path, &err) < 0);
    CHECK(err.line == 2);
    counts_free(&other);
    unlink(path);
    counts_free(&tc);
    CHECK_DONE();
}
