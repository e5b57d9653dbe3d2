/* Phrase merging: token boundaries, longest match first; phrases loaded
   for and merged by corpus preparation, and learned from a prepared
   TSV. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "text/collocations.h"
#include "text/phrase.h"
#include "text/prep.h"

static tok_options opt = {TOKENIZER_DEFAULT, false, false};

static void add(phrase_set *ps, const char *phrase)
{
    token_list t;
    token_list_init(&t);
    CHECK(tokenize(&opt, phrase, strlen(phrase), &t) == 0);
    CHECK(phrase_set_add(ps, &t) == 0);
    token_list_free(&t);
}

static const char *merged(const phrase_set *ps, const char *text)
{
    static char buf[1024];
    token_list in, out;
    token_list_init(&in);
    token_list_init(&out);
    tokenize(&opt, text, strlen(text), &in);
    CHECK(phrase_set_merge(ps, &in, &out) == 0);
    buf[0] = '\0';
    for (size_t i = 0; i < out.n; i++) {
        if (i)
            strcat(buf, " ");
        strcat(buf, token_at(&out, i));
    }
    token_list_free(&in);
    token_list_free(&out);
    return buf;
}

static char dir[] = "/tmp/tells-unit-phrase.XXXXXX";

/* The path of a file in dir. */
typedef struct path {
    char s[300];
} path;

static path file(const char *name)
{
    path p;
    snprintf(p.s, sizeof p.s, "%s/%s", dir, name);
    return p;
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fputs(text, fp) >= 0);
    fclose(fp);
}

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

static void count_report(const prep_input *in, const prep_file_stats *st, void *user)
{
    (void)in;
    prep_file_stats *sum = user;
    sum->written += st->written;
    sum->unlabeled += st->unlabeled;
    sum->invalid += st->invalid;
}

/* A corpus prepared with phrases from a phrase file. */
static void preparation(void)
{
    path phrases = file("phrases.txt"), nosuch_path = file("nosuch.txt"),
         train = file("train.jsonl"), bad_path = file("bad.jsonl");
    tells_error err;
    phrase_set *ps;
    CHECK(prep_load_phrases(NULL, 0, NULL, &opt, &ps, &err) == 0 && ps == NULL);
    write_text(phrases.s, "# learned\nheart failure\t12\nchest pain\n");
    const char *files[] = {phrases.s};
    CHECK(prep_load_phrases(files, 1, NULL, &opt, &ps, &err) == 0);
    CHECK(ps && phrase_set_size(ps) == 2);
    const char *nosuch[] = {nosuch_path.s};
    phrase_set *none = NULL;
    CHECK(prep_load_phrases(nosuch, 1, NULL, &opt, &none, &err) < 0 && none == NULL);
    CHECK(err.kind == TELLS_ERR_IO);

    write_text(train.s,
               "{\"pairID\": \"p1\", \"gold_label\": \"neutral\", "
               "\"sentence1\": \"Heart failure, chest pain.\", \"sentence2\": \"Fine.\"}\n"
               "{\"gold_label\": \"-\", \"sentence1\": \"a\", \"sentence2\": \"b\"}\n"
               "{\"gold_label\": \"entailment\", \"sentence1\": \"Chest  pain\", "
               "\"sentence2\": \"pain\"}\n");
    prep_options po = {.tok = opt, .fields = CORPUS_FIELDS_DEFAULT, .phrases = ps};
    prep_input in[] = {{"train", train.s}};
    prep_file_stats sum = {0};
    CHECK(prep_run(&po, in, 1, file("out.tsv").s, count_report, &sum, &err) == 0);
    CHECK(sum.written == 2 && sum.unlabeled == 1 && sum.invalid == 0);
    /* The third record's positional id counts the unlabelled one. */
    CHECK_STR(slurp(file("out.tsv").s),
              "id\tsplit\tlabel\tpremise\thypothesis\n"
              "p1\ttrain\tneutral\theart_failure chest_pain\tfine\n"
              "train2\ttrain\tentailment\tchest_pain\tpain\n");

    /* An error leaves no output behind. */
    write_text(bad_path.s, "{\"gold_label\": \"n\", \"sentence1\": \"a\"}\n");
    prep_input bad[] = {{"dev", bad_path.s}};
    CHECK(prep_run(&po, bad, 1, file("bad.tsv").s, NULL, NULL, &err) < 0);
    CHECK_STR(err.msg, "missing field 'sentence2'");
    CHECK(err.line == 1 && err.kind == TELLS_ERR_DATA);
    CHECK(access(file("bad.tsv").s, F_OK) != 0);
    phrase_set_free(ps);

    /* The bigram "x y" in every text: score 6 / (6 * 6) * 12 = 2. */
    write_text(file("xy.tsv").s, "id\tsplit\tlabel\tpremise\thypothesis\n"
                                 "1\td\tn\tx y\tx y\n2\td\tn\tx y\tx y\n3\td\tn\tx y\tx y\n");
    colloc_options co = {.delta = 0, .threshold = 1, .min_count = 1, .passes = 1,
                         .field = FIELD_BOTH};
    CHECK(colloc_run(file("xy.tsv").s, false, &co, true, file("xy.txt").s, &err) == 0);
    CHECK_STR(slurp(file("xy.txt").s), "# phrase\tcount\tscore\nx y\t6\t2.000000\n");
    co.threshold = 2;
    CHECK(colloc_run(file("xy.tsv").s, false, &co, false, file("xy.txt").s, &err) == 0);
    CHECK_STR(slurp(file("xy.txt").s), "");

    const char *made[] = {"phrases.txt", "train.jsonl", "out.tsv", "bad.jsonl", "xy.tsv",
                          "xy.txt"};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        unlink(file(made[i]).s);
    CHECK(rmdir(dir) == 0);
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    preparation();
    phrase_set *ps = phrase_set_new();
    add(ps, "Brain Injury");
    add(ps, "traumatic brain injury");
    add(ps, "heart failure");
    add(ps, "congestive heart failure with reduced ejection fraction");
    add(ps, "aspirin");             /* one token: nothing to merge */
    add(ps, "brain injury");        /* the same phrase again */
    CHECK(phrase_set_size(ps) == 4);

    CHECK_STR(merged(ps, "A traumatic brain injury, not a brain injury."),
              "a traumatic_brain_injury not a brain_injury");
    /* A longer phrase that does not complete falls back to the longest
       one that does. */
    CHECK_STR(merged(ps, "congestive heart failure with fever"),
              "congestive heart_failure with fever");
    CHECK_STR(merged(ps, "brain heart failure brain"), "brain heart_failure brain");
    CHECK_STR(merged(ps, "injury brain"), "injury brain");
    CHECK_STR(merged(ps, ""), "");
    phrase_set_free(ps);
    CHECK_DONE();
}
