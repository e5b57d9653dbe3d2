/* Counting and PMI on a corpus small enough to check by hand, and the
   counts file round trip. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "stats/counts.h"
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

int main(void)
{
    token_counts tc;
    fill(&tc);
    pmi_table t;
    pmi_options opt = {false, 1, 1.0};
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
    pmi_options bin = {true, 2, 1.0};
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
    CHECK(counts_write(&tc, fp) == 0);
    fclose(fp);
    token_counts merged;
    tells_error err;
    CHECK(counts_init(&merged, FIELD_HYPOTHESIS) == 0);
    CHECK(counts_merge_file(&merged, path, &err) == 0);
    CHECK(counts_merge_file(&merged, path, &err) == 0);
    long a = vocab_find(merged.tokens, "a", 1), ce = vocab_find(merged.classes, "e", 1);
    CHECK(a >= 0 && ce >= 0);
    CHECK(merged.count[ce][a] == 6 && merged.docs[ce][a] == 4);
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
