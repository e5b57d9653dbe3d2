/* The fastText shim: a real model loads and gives the vectors fastText
   prints; a saved model is byte for byte what fastText saves; damaged
   files and failing writes are errors with a message, never a crash. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "model/baseline.h"
#include "model/ftbin.h"
#include "model/ftshim.h"

static char *srcdir_path(const char *rel)
{
    static char buf[4096];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/%s", top ? top : ".", rel);
    return buf;
}

/* Copies the first n bytes of src to dst. */
static void truncated_copy(const char *src, const char *dst, long n)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    CHECK(in && out);
    for (long i = 0; i < n; i++) {
        int c = getc(in);
        if (c == EOF)
            break;
        putc(c, out);
    }
    fclose(in);
    fclose(out);
}

static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void check_error(const tells_error *err, tells_error_kind kind, const char *want)
{
    char got[2048];
    tells_error_format(err, got, sizeof got);
    CHECK(err->kind == kind);
    CHECK_STR(got, want);
}

/* A tiny supervised model: its labels are entries the word-vector code
   must not take for words. */
/* Trains the tiny yes/no model on DIR/train.txt (removed afterwards). */
static ft_model *train_yes_no(const char *dir, int word_ngrams)
{
    char text[4096];
    snprintf(text, sizeof text, "%s/train.txt", dir);
    FILE *fp = fopen(text, "w");
    CHECK(fp != NULL);
    for (int i = 0; fp && i < 20; i++)
        fprintf(fp, "__label__yes good fine nice\n__label__no bad awful poor\n");
    if (fp)
        fclose(fp);
    ft_train_args a = {.mode = "supervised", .epoch = 5, .dim = 4, .min_count = 1,
                       .threads = 1, .seed = 1, .bucket = 1000, .word_ngrams = word_ngrams};
    tells_error err;
    tells_error_clear(&err);
    ft_model *m = ft_train(text, &a, &err);
    CHECK(m != NULL);
    unlink(text);
    return m;
}

static void supervised_model(const char *dir)
{
    char bin[4096];
    snprintf(bin, sizeof bin, "%s/sup.bin", dir);
    tells_error err;
    tells_error_clear(&err);
    ft_model *m = train_yes_no(dir, 2);
    if (!m)
        return;
    CHECK(ft_nlabels(m) == 2);
    float v[4], probs[2];
    CHECK(ft_word_vector(m, "good", v, &err) == 1);
    /* A label is no word, and an unknown word without n-grams has no
       vector. */
    CHECK(ft_word_vector(m, "__label__yes", v, &err) == 0);
    CHECK(v[0] == 0 && v[3] == 0);
    CHECK(ft_word_vector(m, "zzz", v, &err) == 0);
    CHECK(ft_predict(m, "good fine", probs, &err) == 0);
    /* Saved and loaded again: the same file ftbin_check accepts. */
    FILE *fp = fopen(bin, "wb");
    CHECK(fp && ft_write(m, fp, &err) == 0);
    CHECK(fp && fclose(fp) == 0);
    ftbin_info info;
    CHECK(ftbin_check(bin, &info, &err) == 0);
    CHECK(info.model == FTBIN_MODEL_SUPERVISED && info.nlabels == 2 && info.dim == 4);
    CHECK(info.input_rows == info.nwords + 1000 && info.output_rows == 2);
    ft_model *back = ft_load(bin, &err);
    CHECK(back != NULL);
    if (back) {
        float again[2];
        CHECK(ft_predict(back, "good fine", again, &err) == 0);
        CHECK_NEAR(again[0], probs[0], 1e-6);
        CHECK(ft_word_vector(back, "__label__no", v, &err) == 0);
        ft_free(back);
    }
    ft_free(m);
    unlink(bin);
}

/* The file checked is the model loaded: after ftbin_check_tape, changes
   to the file reach libfasttext only in the matrices' contents. A label
   renamed in place (same length) after the check is not seen; a file
   that grew loads as checked; one that shrank is an error. */
static void changed_after_check(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/race.bin", dir);
    tells_error err;
    tells_error_clear(&err);
    ft_model *m = train_yes_no(dir, 0);
    if (!m)
        return;
    FILE *fp = fopen(path, "wb");
    CHECK(fp && ft_write(m, fp, &err) == 0);
    CHECK(fp && fclose(fp) == 0);
    ft_free(m);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    char *bytes = malloc((size_t)st.st_size);
    fp = fopen(path, "rb");
    CHECK(bytes && fp && fread(bytes, 1, (size_t)st.st_size, fp) == (size_t)st.st_size);
    fclose(fp);
    const char *yes = memmem(bytes, (size_t)st.st_size, "__label__yes", 12);
    CHECK(yes != NULL);
    long at = yes ? (long)(yes - bytes) + 11 : 0;

    for (int change = 0; change < 3; change++) {
        /* A fresh copy, checked, then changed before libfasttext reads it. */
        fp = fopen(path, "wb");
        CHECK(fp && fwrite(bytes, 1, (size_t)st.st_size, fp) == (size_t)st.st_size);
        CHECK(fp && fclose(fp) == 0);
        fp = fopen(path, "rb");
        CHECK(fp != NULL);
        ftbin_tape tape;
        tells_error_clear(&err);
        CHECK(ftbin_check_tape(fp, path, NULL, &tape, &err) == 0);
        FILE *w = fopen(path, "r+b");
        CHECK(w != NULL);
        if (change == 0)   /* the label "yes" becomes "yez" in place */
            CHECK(fseek(w, at, SEEK_SET) == 0 && putc('z', w) == 'z');
        else if (change == 1)   /* more bytes after the model */
            CHECK(fseek(w, 0, SEEK_END) == 0 && fputs("tail", w) >= 0);
        else
            CHECK(ftruncate(fileno(w), st.st_size / 2) == 0);
        CHECK(fclose(w) == 0);
        m = ft_load_checked(fp, path, &tape, &err);
        if (change < 2) {
            CHECK(m != NULL);
            if (m) {
                CHECK(ft_nlabels(m) == 2);
                for (int l = 0; l < ft_nlabels(m); l++) {
                    const char *label = ft_label(m, l);
                    CHECK(strcmp(label, "yes") == 0 || strcmp(label, "no") == 0);
                }
            }
        } else {
            CHECK(m == NULL);
            char want[8192];
            snprintf(want, sizeof want, "%s: the fastText model changed while it was read",
                     path);
            check_error(&err, TELLS_ERR_DATA, want);
        }
        ft_free(m);
        ftbin_tape_free(&tape);
        fclose(fp);
    }
    free(bytes);
    unlink(path);
}

static int write_nothing(FILE *fp, void *ctx, tells_error *err)
{
    (void)fp, (void)ctx, (void)err;
    return 0;
}

static int write_fails(FILE *fp, void *ctx, tells_error *err)
{
    (void)fp, (void)ctx;
    return tells_error_nomem(err, NULL, 0);
}

/* The line ctx (with its newline), 50 times. */
static int write_line(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    for (int i = 0; i < 50; i++)
        if (fputs(ctx, fp) == EOF)
            return -1;
    return 0;
}

static char line_words[] = "alpha beta gamma delta\n",
            line_other_words[] = "alpha beta gamma epsilon zeta\n";

/* fasttext_train_text: the temporary file goes, whatever happens. */
static void train_text(const char *dir)
{
    char tmpdir[4096];
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", dir);
    CHECK(mkdir(tmpdir, 0700) == 0);
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TMPDIR", tmpdir, 1);
    ft_train_args a = {.mode = "skipgram", .epoch = 1, .dim = 3, .min_count = 1,
                       .threads = 1, .seed = 1, .bucket = 100};
    tells_error err;
    tells_error_clear(&err);
    CHECK(fasttext_train_text(write_nothing, NULL, &a, &err) == NULL);
    check_error(&err, TELLS_ERR_DATA, "no text to train fastText on");
    CHECK(fasttext_train_text(write_fails, NULL, &a, &err) == NULL);
    check_error(&err, TELLS_ERR_NOMEM, "out of memory");
    ft_model *m = fasttext_train_text(write_line, line_words, &a, &err);
    CHECK(m != NULL);
    if (m) {
        CHECK(ft_dimension(m) == 3);
        ft_free(m);
    }
    CHECK(rmdir(tmpdir) == 0);   /* empty */
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
}

/* ft_write_joined: the joined model's vectors are the parts' side by
   side, for a known word and for one made of n-grams only, and it loads
   as a model of the summed dimension. Models of other words are refused
   before anything is written. */
static void join_models(const char *dir)
{
    ft_train_args a = {.mode = "skipgram", .epoch = 1, .dim = 3, .min_count = 1,
                       .threads = 1, .seed = 1, .bucket = 100};
    tells_error err;
    tells_error_clear(&err);
    ft_model *m[3];
    m[0] = fasttext_train_text(write_line, line_words, &a, &err);
    a.seed = 2;
    a.dim = 2;
    m[1] = fasttext_train_text(write_line, line_words, &a, &err);
    m[2] = fasttext_train_text(write_line, line_other_words, &a, &err);
    CHECK(m[0] && m[1] && m[2]);
    if (!m[0] || !m[1] || !m[2])
        return;
    const char *words[] = {"beta", "betamax"};
    float vp[2][3], vq[2][2], vj[5];
    for (int w = 0; w < 2; w++) {
        CHECK(ft_word_vector(m[0], words[w], vp[w], &err) == 1);
        CHECK(ft_word_vector(m[1], words[w], vq[w], &err) == 1);
    }
    char bin[4096];
    snprintf(bin, sizeof bin, "%s/joined.bin", dir);
    FILE *fp = fopen(bin, "wb");
    CHECK(fp != NULL);
    ft_model *other[2] = {m[0], m[2]};
    CHECK(fp && ft_write_joined(other, 2, fp, &err) == -1);
    check_error(&err, TELLS_ERR_DATA, "fastText models to join differ in their words or rows");
    CHECK(fp && ftell(fp) == 0);
    CHECK(fp && ft_write_joined(m, 2, fp, &err) == 0);
    CHECK(fp && fclose(fp) == 0);
    ft_model *j = ft_load(bin, &err);
    CHECK(j && ft_dimension(j) == 5);
    for (int w = 0; j && w < 2; w++) {
        CHECK(ft_word_vector(j, words[w], vj, &err) == 1);
        for (int k = 0; k < 3; k++)
            CHECK(vj[k] == vp[w][k]);
        for (int k = 0; k < 2; k++)
            CHECK(vj[3 + k] == vq[w][k]);
    }
    /* One model joined is that model. */
    char one[4096];
    snprintf(one, sizeof one, "%s/one.bin", dir);
    fp = fopen(one, "wb");
    CHECK(fp && ft_write_joined(m, 1, fp, &err) == 0);
    CHECK(fp && fclose(fp) == 0);
    CHECK(fasttext_save(m[0], bin, &err) == 0);
    CHECK(same_bytes(one, bin));
    unlink(bin);
    unlink(one);
    ft_free(j);
    for (int k = 0; k < 3; k++)
        ft_free(m[k]);
}

/* Word w (0 to 999) spelt in letters: its digits as a to j below 500,
   as k to t from 500, so that the two halves share no character
   n-gram. */
static void word_name(unsigned w, char *buf)
{
    char digits[8];
    int n = snprintf(digits, sizeof digits, "%u", w);
    for (int i = 0; i < n; i++)
        buf[i] = (char)((w < 500 ? 'a' : 'k') + (digits[i] - '0'));
    buf[n] = '\0';
}

/* 400 lines of 10 words of those 1,000: rare enough that fastText's
   subsampling keeps most of them. */
static int write_many(FILE *fp, void *ctx, tells_error *err)
{
    (void)ctx, (void)err;
    unsigned x = 1;
    char word[8];
    for (int i = 0; i < 400; i++)
        for (int j = 0; j < 10; j++) {
            x = x * 1103515245u + 12345u;
            word_name((x >> 8) % 1000, word);
            if (fprintf(fp, "%s%c", word, j == 9 ? '\n' : ' ') < 0)
                return -1;
        }
    return 0;
}

/* Skipgram with centre words: every word a centre is fastText's own
   training, byte for byte; no word a centre leaves the input rows as
   they were drawn, however long it trains; with half the words centres,
   they move and (but for n-grams hashed to a bucket of theirs) the
   others keep their rows. */
static void centre_words(const char *dir)
{
    ft_train_args a = {.mode = "skipgram", .epoch = 2, .dim = 4, .min_count = 1,
                       .threads = 1, .seed = 7, .bucket = 1000000};
    tells_error err;
    tells_error_clear(&err);
    enum { WORDS = 1001 };
    char names[WORDS][8];
    const char *all[WORDS];
    for (unsigned w = 0; w < 1000; w++) {
        word_name(w, names[w]);
        all[w] = names[w];
    }
    all[1000] = "</s>";
    const char *none[] = {"omega"};
    ft_model *own = fasttext_train_text(write_many, NULL, &a, &err);
    a.centres = all;
    a.ncentres = WORDS;
    ft_model *every = fasttext_train_text(write_many, NULL, &a, &err);
    a.ncentres = 500;   /* the words spelt a to j */
    ft_model *part = fasttext_train_text(write_many, NULL, &a, &err);
    a.centres = none;
    a.ncentres = 1;
    ft_model *idle = fasttext_train_text(write_many, NULL, &a, &err);
    a.epoch = 6;
    ft_model *idle6 = fasttext_train_text(write_many, NULL, &a, &err);
    CHECK(own && every && part && idle && idle6);
    if (!own || !every || !part || !idle || !idle6)
        return;
    char p1[4096], p2[4096];
    snprintf(p1, sizeof p1, "%s/own.bin", dir);
    snprintf(p2, sizeof p2, "%s/every.bin", dir);
    CHECK(fasttext_save(own, p1, &err) == 0);
    CHECK(fasttext_save(every, p2, &err) == 0);
    CHECK(same_bytes(p1, p2));
    unlink(p1);
    unlink(p2);
    float v[4][4];
    int trained = 0, centres_moved = 0, others_kept = 0, same_idle = 0;
    for (int w = 0; w < 1000; w++) {
        CHECK(ft_word_vector(own, all[w], v[0], &err) == 1);
        CHECK(ft_word_vector(part, all[w], v[1], &err) == 1);
        CHECK(ft_word_vector(idle, all[w], v[2], &err) == 1);
        CHECK(ft_word_vector(idle6, all[w], v[3], &err) == 1);
        same_idle += memcmp(v[2], v[3], sizeof v[2]) == 0;
        trained += memcmp(v[0], v[2], sizeof v[0]) != 0;
        if (w < 500)
            centres_moved += memcmp(v[1], v[2], sizeof v[1]) != 0;
        else
            others_kept += memcmp(v[1], v[2], sizeof v[1]) == 0;
    }
    CHECK(same_idle == 1000);
    CHECK(trained == 1000);
    CHECK(centres_moved == 500);
    CHECK(others_kept > 450);
    ft_free(own);
    ft_free(every);
    ft_free(part);
    ft_free(idle);
    ft_free(idle6);
}

int main(void)
{
    tells_error err;
    tells_error_clear(&err);
    char bin[4096];
    snprintf(bin, sizeof bin, "%s", srcdir_path("corpora/vectors/toy-model.bin"));
    ft_model *m = ft_load(bin, &err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK_DONE();
    }
    CHECK(ft_dimension(m) == 5);
    /* The first row of toy-model.vec, as print-word-vectors wrote it. */
    float v[5];
    const float the[5] = {0.068811f, 0.26619f, 0.026622f, -0.2588f, -0.00044401f};
    CHECK(ft_word_vector(m, "the", v, &err) == 1);
    for (int i = 0; i < 5; i++)
        CHECK_NEAR(v[i], the[i], 1e-5);
    /* An unknown word gets the vector of its character n-grams. */
    CHECK(ft_word_vector(m, "zzzunknownzzz", v, &err) == 1);

    char dir[] = "/tmp/tells-ftshim.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/model.bin", dir);

    /* ft_write writes what fastText wrote. */
    FILE *fp = fopen(tmp, "wb");
    CHECK(fp && ft_write(m, fp, &err) == 0);
    CHECK(fp && fclose(fp) == 0);
    CHECK(same_bytes(tmp, bin));
    /* A stream that fails is a write error. */
    fp = fopen(tmp, "rb");
    CHECK(fp != NULL);
    tells_error_clear(&err);
    CHECK(ft_write(m, fp, &err) == -1);
    check_error(&err, TELLS_ERR_IO, "write error: Bad file descriptor");
    fclose(fp);
    ft_free(m);

    truncated_copy(bin, tmp, 2000);
    CHECK(ft_load(tmp, &err) == NULL);
    char want[8192];
    snprintf(want, sizeof want, "%s: truncated fastText model (the input matrix claims 122 x "
             "5 numbers, the file has 1584 of their 2440 bytes)", tmp);
    check_error(&err, TELLS_ERR_DATA, want);
    truncated_copy(bin, tmp, 6);
    CHECK(ft_load(tmp, &err) == NULL);
    snprintf(want, sizeof want, "%s: truncated fastText model (the file ends in its version)",
             tmp);
    check_error(&err, TELLS_ERR_DATA, want);
    truncated_copy(srcdir_path("corpora/vectors/toy-model.vec"), tmp, 100000);
    CHECK(ft_load(tmp, &err) == NULL);
    snprintf(want, sizeof want, "%s: not a fastText .bin model", tmp);
    check_error(&err, TELLS_ERR_DATA, want);
    unlink(tmp);
    CHECK(ft_load("/nonexistent/model.bin", &err) == NULL);
    check_error(&err, TELLS_ERR_IO, "/nonexistent/model.bin: cannot open: No such file or "
                "directory");
    CHECK(ft_load(dir, &err) == NULL);
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", dir);
    check_error(&err, TELLS_ERR_IO, want);

    supervised_model(dir);
    changed_after_check(dir);
    train_text(dir);
    join_models(dir);
    centre_words(dir);
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
