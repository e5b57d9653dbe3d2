/* ftbin_check: real models pass (the toy word-vector model, a supervised
   model trained here, and quantized models built here, which libfasttext
   then loads and uses); a model cut at every byte, and every field of the
   layout set out of range, is refused with its message. The layout is
   walked here independently of ftbin.c, and the offsets it reports are
   compared with these. */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "check.h"
#include "model/ftbin.h"
#include "model/ftshim.h"

/* ---- model files in memory ---- */

typedef struct buf {
    unsigned char *b;
    size_t n, cap;
} buf;

/* Room for n more bytes (and a spare one). */
static void reserve(buf *b, size_t n)
{
    if (ARRAY_RESERVE(b->b, b->cap, b->n + n + 1) < 0)
        exit(1);
}

static buf slurp(const char *path)
{
    buf r = {NULL, 0, 0};
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    if (!fp)
        exit(1);
    fseek(fp, 0, SEEK_END);
    size_t n = (size_t)ftell(fp);
    rewind(fp);
    reserve(&r, n);
    r.n = n;
    CHECK(fread(r.b, 1, r.n, fp) == r.n);
    fclose(fp);
    return r;
}

static buf copy(const buf *b)
{
    buf r = {NULL, 0, 0};
    reserve(&r, b->n);
    memcpy(r.b, b->b, b->n);
    r.n = b->n;
    return r;
}

static buf prefix(const buf *b, size_t n)
{
    buf r = copy(b);
    r.n = n;
    return r;
}

static void append(buf *b, const void *p, size_t n)
{
    reserve(b, n);
    memcpy(b->b + b->n, p, n);
    b->n += n;
}

static void insert(buf *b, size_t at, const void *p, size_t n)
{
    reserve(b, n);
    memmove(b->b + at + n, b->b + at, b->n - at);
    memcpy(b->b + at, p, n);
    b->n += n;
}

static void add8(buf *b, int8_t v) { append(b, &v, 1); }
static void add32(buf *b, int32_t v) { append(b, &v, 4); }
static void add64(buf *b, int64_t v) { append(b, &v, 8); }
static void addf(buf *b, float v) { append(b, &v, 4); }

static int32_t get32(const buf *b, size_t at)
{
    int32_t v;
    memcpy(&v, b->b + at, 4);
    return v;
}
static int64_t get64(const buf *b, size_t at)
{
    int64_t v;
    memcpy(&v, b->b + at, 8);
    return v;
}

/* Copies of b with one field changed. */
static buf with8(const buf *b, size_t at, int8_t v)
{
    buf r = copy(b);
    memcpy(r.b + at, &v, 1);
    return r;
}
static buf with32(const buf *b, size_t at, int32_t v)
{
    buf r = copy(b);
    memcpy(r.b + at, &v, 4);
    return r;
}
static buf with64(const buf *b, size_t at, int64_t v)
{
    buf r = copy(b);
    memcpy(r.b + at, &v, 8);
    return r;
}
static buf withf64(const buf *b, size_t at, double v)
{
    buf r = copy(b);
    memcpy(r.b + at, &v, 8);
    return r;
}

/* ---- the layout, walked here ---- */

enum { AT_ARGS = 8, AT_DICT = 64, AT_ENTRIES = 92 };
/* Offsets of the arguments, in file order. */
enum { A_DIM, A_WS, A_EPOCH, A_MINCOUNT, A_NEG, A_WORDNGRAMS, A_LOSS, A_MODEL, A_BUCKET,
       A_MINN, A_MAXN, A_LRUPDATE, A_T };
#define ARG(k) ((size_t)AT_ARGS + 4 * (k))
/* The dictionary header. */
#define D_SIZE (AT_DICT + 0)
#define D_NWORDS (AT_DICT + 4)
#define D_NLABELS (AT_DICT + 8)
#define D_NTOKENS (AT_DICT + 12)
#define D_PRUNEIDX (AT_DICT + 20)

typedef struct layout {
    size_t entry[64];    /* start of each entry (the toy models have few) */
    size_t nentries;
    size_t pruneidx, quant, input, qout, output, end;
} layout;

/* Walks a dense model. */
static layout walk(const buf *b)
{
    layout L;
    memset(&L, 0, sizeof L);
    size_t p = AT_ENTRIES;
    L.nentries = (size_t)get32(b, D_SIZE);
    CHECK(L.nentries <= 64);
    for (size_t k = 0; k < L.nentries && k < 64; k++) {
        L.entry[k] = p;
        p += strlen((const char *)b->b + p) + 1 + 8 + 1;
    }
    L.pruneidx = p;
    int64_t pruned = get64(b, D_PRUNEIDX);
    p += pruned > 0 ? 8 * (size_t)pruned : 0;
    L.quant = p;
    L.input = p + 1;
    p = L.input + 16 + 4 * (size_t)(get64(b, L.input) * get64(b, L.input + 8));
    L.qout = p;
    L.output = p + 1;
    L.end = L.output + 16 + 4 * (size_t)(get64(b, L.output) * get64(b, L.output + 8));
    CHECK(L.end == b->n);
    return L;
}

/* ---- checking ---- */

static char scratch[4096];

static int check_buf(const buf *b, ftbin_info *info, tells_error *err)
{
    FILE *fp = fopen(scratch, "wb");
    CHECK(fp && fwrite(b->b, 1, b->n, fp) == b->n);
    CHECK(fp && fclose(fp) == 0);
    tells_error_clear(err);
    return ftbin_check(scratch, info, err);
}

static void expect_ok(int line, const buf *b)
{
    tells_error err;
    if (check_buf(b, NULL, &err) != 0) {
        fprintf(stderr, "%s:%d: refused: %s\n", __FILE__, line, err.msg);
        check_failures++;
    }
}

/* Expects "SCRATCH: msg", a data error; frees b. */
static void expect_msg(int line, buf b, const char *msg)
{
    tells_error err;
    char got[8192], want[8192];
    int rc = check_buf(&b, NULL, &err);
    tells_error_format(&err, got, sizeof got);
    snprintf(want, sizeof want, "%s: %s", scratch, msg);
    if (rc != -1 || err.kind != TELLS_ERR_DATA || strcmp(got, want) != 0) {
        fprintf(stderr, "%s:%d: got \"%s\" (rc %d, kind %d), want \"%s\"\n", __FILE__, line,
                got, rc, (int)err.kind, want);
        check_failures++;
    }
    free(b.b);
}
#define EXPECT_OK(b) expect_ok(__LINE__, b)
#define EXPECT_MSG(b, msg) expect_msg(__LINE__, b, msg)

/* Every cut of b short of its end is refused as truncated (or, under 4
   bytes, as no model at all). */
static void every_cut(int line, const buf *b)
{
    for (size_t n = 0; n < b->n; n++) {
        buf cut = prefix(b, n);
        tells_error err;
        int rc = check_buf(&cut, NULL, &err);
        const char *want = n < 4 ? "not a fastText .bin model" : "truncated fastText model (";
        if (rc != -1 || strncmp(err.msg, want, strlen(want)) != 0) {
            fprintf(stderr, "%s:%d: cut at %zu: \"%s\"\n", __FILE__, line, n, err.msg);
            check_failures++;
        }
        free(cut.b);
    }
}

/* ---- the toy word-vector model ---- */

static void toy_model(const buf *toy)
{
    char msg[512];
    layout L = walk(toy);
    ftbin_info in;
    tells_error err;
    CHECK(check_buf(toy, &in, &err) == 0);
    CHECK(in.version == 12 && in.dim == 5 && in.model == FTBIN_MODEL_CBOW);
    CHECK(in.loss == FTBIN_LOSS_NS && in.minn == 3 && in.maxn == 6 && in.maxn_used == 6);
    CHECK(in.bucket == 100 && in.entries == 22 && in.nwords == 22 && in.nlabels == 0);
    CHECK(in.pruneidx_size == -1 && !in.quant_input && !in.quant_output);
    CHECK(in.input_rows == 122 && in.output_rows == 22);
    CHECK(in.at_args == AT_ARGS && in.at_dict == AT_DICT && in.at_entries == AT_ENTRIES);
    CHECK(in.at_pruneidx == (int64_t)L.pruneidx && in.at_quant_flag == (int64_t)L.quant);
    CHECK(in.at_input == (int64_t)L.input && in.at_qout_flag == (int64_t)L.qout);
    CHECK(in.at_output == (int64_t)L.output && in.file_size == (int64_t)L.end);

    /* Cut at every section boundary, and a few bytes into each. */
    EXPECT_MSG(prefix(toy, 0), "not a fastText .bin model");
    EXPECT_MSG(prefix(toy, 4), "truncated fastText model (the file ends in its version)");
    EXPECT_MSG(prefix(toy, 6), "truncated fastText model (the file ends in its version)");
    EXPECT_MSG(prefix(toy, AT_ARGS),
               "truncated fastText model (the file ends in the arguments)");
    EXPECT_MSG(prefix(toy, AT_ARGS + 5),
               "truncated fastText model (the file ends in the arguments)");
    EXPECT_MSG(prefix(toy, ARG(A_T) + 4),
               "truncated fastText model (the file ends in the arguments)");
    EXPECT_MSG(prefix(toy, AT_DICT),
               "truncated fastText model (the file ends in the dictionary's header)");
    EXPECT_MSG(prefix(toy, D_PRUNEIDX + 7),
               "truncated fastText model (the file ends in the dictionary's header)");
    for (size_t k = 0; k < L.nentries; k++) {
        snprintf(msg, sizeof msg, "truncated fastText model (the dictionary claims 22 entries, "
                 "the file ends in entry %zu)", k + 1);
        EXPECT_MSG(prefix(toy, L.entry[k]), msg);
        EXPECT_MSG(prefix(toy, L.entry[k] + 2), msg);
        size_t nul = L.entry[k] + strlen((const char *)toy->b + L.entry[k]);
        EXPECT_MSG(prefix(toy, nul + 1), msg);       /* in the count */
        EXPECT_MSG(prefix(toy, nul + 9), msg);       /* before the type */
    }
    EXPECT_MSG(prefix(toy, L.quant),
               "truncated fastText model (the file ends before the input matrix)");
    EXPECT_MSG(prefix(toy, L.input),
               "truncated fastText model (the file ends in the input matrix's header)");
    EXPECT_MSG(prefix(toy, L.input + 12),
               "truncated fastText model (the file ends in the input matrix's header)");
    EXPECT_MSG(prefix(toy, L.input + 16), "truncated fastText model (the input matrix claims "
               "122 x 5 numbers, the file has 0 of their 2440 bytes)");
    EXPECT_MSG(prefix(toy, L.input + 17), "truncated fastText model (the input matrix claims "
               "122 x 5 numbers, the file has 1 of their 2440 bytes)");
    EXPECT_MSG(prefix(toy, L.qout),
               "truncated fastText model (the file ends before the output matrix)");
    EXPECT_MSG(prefix(toy, L.output),
               "truncated fastText model (the file ends in the output matrix's header)");
    EXPECT_MSG(prefix(toy, L.output + 16), "truncated fastText model (the output matrix claims "
               "22 x 5 numbers, the file has 0 of their 440 bytes)");
    EXPECT_MSG(prefix(toy, L.end - 1), "truncated fastText model (the output matrix claims "
               "22 x 5 numbers, the file has 439 of their 440 bytes)");
    every_cut(__LINE__, toy);
    buf longer = copy(toy);
    add8(&longer, 0);
    EXPECT_MSG(longer, "fastText model with 1 more byte after its output matrix");
    longer = copy(toy);
    add32(&longer, 0);
    EXPECT_MSG(longer, "fastText model with 4 more bytes after its output matrix");

    /* The header. */
    EXPECT_MSG(with32(toy, 0, 793712315), "not a fastText .bin model");
    EXPECT_MSG(with32(toy, 4, 13), "fastText model format 13 is newer than this libfasttext "
               "reads");
    EXPECT_MSG(with32(toy, 4, 10), "unknown fastText model format 10");
    EXPECT_MSG(with32(toy, 4, -1), "unknown fastText model format -1");
    buf v11 = with32(toy, 4, 11);
    EXPECT_OK(&v11);
    free(v11.b);

    /* Each argument out of range. */
    EXPECT_MSG(with32(toy, ARG(A_DIM), -3), "fastText model with dim -3 (expected 1 to 10000)");
    EXPECT_MSG(with32(toy, ARG(A_DIM), 0), "fastText model with dim 0 (expected 1 to 10000)");
    EXPECT_MSG(with32(toy, ARG(A_DIM), 1000000000),
               "fastText model with dim 1000000000 (expected 1 to 10000)");
    EXPECT_MSG(with32(toy, ARG(A_WS), -1), "fastText model with ws -1 (expected 0 to 10000)");
    EXPECT_MSG(with32(toy, ARG(A_EPOCH), -1),
               "fastText model with epoch -1 (expected 0 to 1000000)");
    EXPECT_MSG(with32(toy, ARG(A_MINCOUNT), -1),
               "fastText model with minCount -1 (expected 0 to 1000000000)");
    EXPECT_MSG(with32(toy, ARG(A_NEG), -1), "fastText model with neg -1 (expected 0 to 10000)");
    EXPECT_MSG(with32(toy, ARG(A_WORDNGRAMS), -1),
               "fastText model with wordNgrams -1 (expected 0 to 100)");
    EXPECT_MSG(with32(toy, ARG(A_WORDNGRAMS), 101),
               "fastText model with wordNgrams 101 (expected 0 to 100)");
    EXPECT_MSG(with32(toy, ARG(A_LOSS), 0), "fastText model with loss 0 (expected 1 to 4)");
    EXPECT_MSG(with32(toy, ARG(A_LOSS), 5), "fastText model with loss 5 (expected 1 to 4)");
    EXPECT_MSG(with32(toy, ARG(A_MODEL), 0), "fastText model with model 0 (expected 1 to 3)");
    EXPECT_MSG(with32(toy, ARG(A_MODEL), 4), "fastText model with model 4 (expected 1 to 3)");
    EXPECT_MSG(with32(toy, ARG(A_BUCKET), -5),
               "fastText model with bucket -5 (expected 0 to 1000000000)");
    EXPECT_MSG(with32(toy, ARG(A_BUCKET), 2000000000),
               "fastText model with bucket 2000000000 (expected 0 to 1000000000)");
    EXPECT_MSG(with32(toy, ARG(A_MINN), -1), "fastText model with minn -1 (expected 0 to 64)");
    EXPECT_MSG(with32(toy, ARG(A_MAXN), 65), "fastText model with maxn 65 (expected 0 to 64)");
    EXPECT_MSG(with32(toy, ARG(A_LRUPDATE), -1),
               "fastText model with lrUpdateRate -1 (expected 0 to 2147483647)");
    EXPECT_MSG(withf64(toy, ARG(A_T), NAN), "fastText model with t nan (expected a finite "
               "number)");
    EXPECT_MSG(withf64(toy, ARG(A_T), -INFINITY), "fastText model with t -inf (expected a "
               "finite number)");
    EXPECT_MSG(with32(toy, ARG(A_MINN), 7), "fastText model with minn 7 greater than maxn 6");
    EXPECT_MSG(with32(toy, ARG(A_BUCKET), 0),
               "fastText model with character n-grams (maxn 6) but no buckets");
    /* A supervised model hashes word n-grams into the buckets. */
    buf sup = with32(toy, ARG(A_MODEL), FTBIN_MODEL_SUPERVISED);
    buf b = with32(&sup, ARG(A_MAXN), 0);
    buf b2 = with32(&b, ARG(A_MINN), 0);
    buf b3 = with32(&b2, ARG(A_WORDNGRAMS), 2);
    EXPECT_MSG(with32(&b3, ARG(A_BUCKET), 0),
               "fastText model with word n-grams (wordNgrams 2) but no buckets");
    free(b.b);
    free(b2.b);
    free(b3.b);
    /* Shapes the arguments give the matrices. */
    EXPECT_MSG(with32(toy, ARG(A_DIM), 6), "fastText model whose input matrix has 5 columns, "
               "not its dim 6");
    EXPECT_MSG(with32(toy, ARG(A_BUCKET), 101), "fastText model whose input matrix has 122 "
               "rows, not the 123 of its 22 words and 101 buckets");

    /* The dictionary. */
    EXPECT_MSG(with32(toy, D_SIZE, 0),
               "fastText model with a dictionary of 0 entries (expected 1 to 30000000)");
    EXPECT_MSG(with32(toy, D_SIZE, 30000001),
               "fastText model with a dictionary of 30000001 entries (expected 1 to 30000000)");
    EXPECT_MSG(with32(toy, D_SIZE, 23),
               "fastText model whose dictionary has 23 entries for 22 words and 0 labels");
    EXPECT_MSG(with32(toy, D_NWORDS, -1),
               "fastText model whose dictionary has 22 entries for -1 words and 0 labels");
    b = with32(toy, D_NWORDS, 23);
    EXPECT_MSG(with32(&b, D_NLABELS, -1),
               "fastText model whose dictionary has 22 entries for 23 words and -1 labels");
    free(b.b);
    EXPECT_MSG(copy(&sup), "supervised fastText model without labels");
    free(sup.b);
    b = with32(toy, D_NWORDS, 0);
    EXPECT_MSG(with32(&b, D_NLABELS, 22), "fastText word-vector model without words");
    free(b.b);
    b = with32(toy, D_NWORDS, 21);
    EXPECT_MSG(with32(&b, D_NLABELS, 1),
               "fastText model whose dictionary entry 22 is a word among its 1 labels");
    free(b.b);
    EXPECT_MSG(with64(toy, D_NTOKENS, -1),
               "fastText model with ntokens -1 (expected 0 or more)");
    EXPECT_MSG(with64(toy, D_PRUNEIDX, -2),
               "fastText model with pruneidx_size -2 (expected -1 to 2147483625)");
    EXPECT_MSG(with64(toy, D_PRUNEIDX, 3000000000LL),
               "fastText model with pruneidx_size 3000000000 (expected -1 to 2147483625)");
    size_t e3 = L.entry[2] + strlen((const char *)toy->b + L.entry[2]) + 1;
    EXPECT_MSG(with8(toy, e3 + 8, 1),
               "fastText model whose dictionary entry 3 is a label among its 22 words");
    EXPECT_MSG(with8(toy, e3 + 8, 2), "fastText model whose dictionary entry 3 has type 2 "
               "(expected 0, a word, or 1, a label)");
    EXPECT_MSG(with8(toy, e3 + 8, -1), "fastText model whose dictionary entry 3 has type -1 "
               "(expected 0, a word, or 1, a label)");
    EXPECT_MSG(with64(toy, e3, -1), "fastText model whose dictionary entry 3 has count -1 "
               "(expected 0 to 10^15)");
    EXPECT_MSG(with64(toy, e3, 1000000000000000LL), "fastText model whose dictionary entry 3 "
               "has count 1000000000000000 (expected 0 to 10^15)");
    /* An entry of 65537 bytes. */
    char *word = malloc(65537);
    memset(word, 'a', 65537);
    b = copy(toy);
    insert(&b, L.entry[0], word, 65537);
    EXPECT_MSG(b, "fastText model whose dictionary entry 1 is longer than 65536 bytes");
    b = copy(toy);
    insert(&b, L.entry[0], word, 65536 - strlen((const char *)toy->b + L.entry[0]));
    EXPECT_OK(&b);
    free(b.b);
    /* Words whose n-grams would take far more memory than the file. */
    b = with32(toy, ARG(A_MINN), 1);
    b2 = with32(&b, ARG(A_MAXN), 64);
    free(b.b);
    for (int k = 4; k >= 0; k--)
        insert(&b2, L.entry[k], word, 60000);
    long long max_mb = (long long)((2 * (int64_t)b2.n + (16 << 20)) * 4 >> 20);
    snprintf(msg, sizeof msg, "fastText model whose character n-grams (minn 1, maxn 64) would "
             "take more than %lld MB", max_mb);
    EXPECT_MSG(b2, msg);
    free(word);
    /* Counts that add up beyond 64 bits: 5000 entries of 10^15 - 1. */
    b = prefix(toy, AT_ENTRIES);
    memcpy(b.b + D_SIZE, &(int32_t){5000}, 4);
    memcpy(b.b + D_NWORDS, &(int32_t){5000}, 4);
    for (int k = 0; k < 5000; k++) {
        append(&b, "w", 2);
        add64(&b, 999999999999999LL);
        add8(&b, 0);
    }
    EXPECT_MSG(b, "fastText model whose dictionary counts add up to more than 2^62");

    /* The pruned index: only with a quantized input matrix. */
    EXPECT_MSG(with64(toy, D_PRUNEIDX, 0), "fastText model with a pruned dictionary but an "
               "input matrix that is not quantized");
    b = with64(toy, D_PRUNEIDX, 1);
    int32_t pair[2] = {100, 0};
    insert(&b, L.pruneidx, pair, sizeof pair);
    EXPECT_MSG(b, "fastText model whose pruned index pair 1 names n-gram 100, not one of its "
               "100 buckets");
    b = with64(toy, D_PRUNEIDX, 1);
    pair[0] = 5, pair[1] = 1;
    insert(&b, L.pruneidx, pair, sizeof pair);
    EXPECT_MSG(b, "fastText model whose pruned index pair 1 names row 1, not one of its 1 "
               "n-gram rows");
    b = with64(toy, D_PRUNEIDX, 1);
    pair[1] = -1;
    insert(&b, L.pruneidx, pair, sizeof pair);
    EXPECT_MSG(b, "fastText model whose pruned index pair 1 names row -1, not one of its 1 "
               "n-gram rows");
    b = with64(toy, D_PRUNEIDX, 2);
    pair[1] = 0;
    insert(&b, L.pruneidx, pair, sizeof pair);
    b.n = L.pruneidx + 12;
    EXPECT_MSG(b, "truncated fastText model (the pruned index claims 2 pairs, the file ends in "
               "pair 2)");
    b = with64(toy, D_PRUNEIDX, 1);
    insert(&b, L.pruneidx, pair, sizeof pair);
    EXPECT_MSG(b, "fastText model with a pruned dictionary but an input matrix that is not "
               "quantized");

    /* The flags and the matrices. */
    EXPECT_MSG(with8(toy, L.quant, 2), "fastText model with quantization flag 2 (expected 0 or "
               "1)");
    EXPECT_MSG(with8(toy, L.qout, 2), "fastText model with qout flag 2 (expected 0 or 1)");
    b = with8(toy, L.qout, 1);   /* ignored without a quantized input */
    EXPECT_OK(&b);
    free(b.b);
    EXPECT_MSG(with64(toy, L.input, 123), "fastText model whose input matrix has 123 rows, not "
               "the 122 of its 22 words and 100 buckets");
    EXPECT_MSG(with64(toy, L.input, 1000000000000LL), "fastText model whose input matrix has "
               "1000000000000 rows, not the 122 of its 22 words and 100 buckets");
    EXPECT_MSG(with64(toy, L.input, -1), "fastText model whose input matrix has -1 rows, not "
               "the 122 of its 22 words and 100 buckets");
    EXPECT_MSG(with64(toy, L.input + 8, 4), "fastText model whose input matrix has 4 columns, "
               "not its dim 5");
    EXPECT_MSG(with64(toy, L.output, 21), "fastText model whose output matrix has 21 rows, not "
               "the 22 of its words");
    EXPECT_MSG(with64(toy, L.output + 8, -5), "fastText model whose output matrix has -5 "
               "columns, not its dim 5");
}

/* ---- a supervised model, trained here ---- */

static buf supervised(const char *dir)
{
    char text[4096], bin[4096];
    snprintf(text, sizeof text, "%s/train.txt", dir);
    snprintf(bin, sizeof bin, "%s/sup.bin", dir);
    FILE *fp = fopen(text, "w");
    CHECK(fp != NULL);
    for (int i = 0; i < 10; i++)
        fprintf(fp, "__label__yes good fine nice\n__label__no bad awful poor\n"
                "__label__maybe so so\n");
    fclose(fp);
    ft_train_args a = {.mode = "supervised", .epoch = 5, .dim = 5, .min_count = 1,
                       .threads = 1, .seed = 1, .bucket = 300, .word_ngrams = 2};
    tells_error err;
    ft_model *m = ft_train(text, &a, &err);
    CHECK(m != NULL);
    if (!m)
        exit(1);
    fp = fopen(bin, "wb");
    CHECK(fp && ft_write(m, fp, &err) == 0);
    CHECK(fp && fclose(fp) == 0);
    ft_free(m);
    buf b = slurp(bin);
    unlink(text);
    unlink(bin);
    return b;
}

static void supervised_model(const buf *sup)
{
    layout L = walk(sup);
    ftbin_info in;
    tells_error err;
    CHECK(check_buf(sup, &in, &err) == 0);
    int32_t nwords = get32(sup, D_NWORDS);
    CHECK(in.model == FTBIN_MODEL_SUPERVISED && in.nlabels == 3 && in.nwords == nwords);
    CHECK(in.input_rows == nwords + 300 && in.output_rows == 3 && in.maxn_used == 0);
    every_cut(__LINE__, sup);
    char msg[512];
    snprintf(msg, sizeof msg, "fastText model whose output matrix has %d rows, not the 3 of its "
             "labels", (int)nwords);
    EXPECT_MSG(with64(sup, L.output, (int64_t)nwords), msg);
    snprintf(msg, sizeof msg, "fastText model whose dictionary entry %d is a word among its 3 "
             "labels", (int)nwords + 1);
    EXPECT_MSG(with8(sup, L.entry[nwords] + strlen((const char *)sup->b + L.entry[nwords]) + 9,
                     0), msg);
    /* Version 11 supervised models have no character n-grams for
       libfasttext, whatever maxn says. */
    buf b = with32(sup, 4, 11);
    buf b2 = with32(&b, ARG(A_MAXN), 6);
    CHECK(check_buf(&b2, &in, &err) == 0);
    CHECK(in.maxn == 6 && in.maxn_used == 0);
    free(b2.b);
    b2 = with32(sup, ARG(A_MAXN), 6);
    CHECK(check_buf(&b2, &in, &err) == 0 && in.maxn_used == 6);
    free(b.b);
    free(b2.b);
}

/* ---- quantized models, built here from the supervised one ---- */

/* A QuantMatrix of m rows: codes, a product quantizer of sub-vectors of
   dsub numbers, and with qnorm the norms' codes and quantizer. */
static void add_quantized(buf *b, int64_t m, int32_t dim, int32_t dsub, bool qnorm)
{
    int32_t nsubq = (dim + dsub - 1) / dsub;
    add8(b, qnorm);
    add64(b, m);
    add64(b, dim);
    add32(b, (int32_t)(m * nsubq));
    for (int64_t i = 0; i < m * nsubq; i++)
        add8(b, (int8_t)(i * 37));
    add32(b, dim);
    add32(b, nsubq);
    add32(b, dsub);
    add32(b, dim - (nsubq - 1) * dsub);
    for (int i = 0; i < dim * 256; i++)
        addf(b, (float)((i % 13) - 6) / 20);
    if (qnorm) {
        for (int64_t i = 0; i < m; i++)
            add8(b, (int8_t)(i * 11));
        add32(b, 1);
        add32(b, 1);
        add32(b, 1);
        add32(b, 1);
        for (int i = 0; i < 256; i++)
            addf(b, 1 + (float)i / 256);
    }
}

typedef struct quant_layout {
    size_t quant, input, codes, pq, centroids, norm_codes, npq, qout, output, end;
} quant_layout;

/* The supervised model with quantized matrices; pruned keeps 3 n-grams. */
static buf quantized(const buf *sup, bool pruned, bool qout, quant_layout *Q)
{
    layout L = walk(sup);
    int32_t nwords = get32(sup, D_NWORDS), dim = get32(sup, ARG(A_DIM));
    int32_t bucket = get32(sup, ARG(A_BUCKET));
    buf b = prefix(sup, L.pruneidx);
    if (pruned) {
        memcpy(b.b + D_PRUNEIDX, &(int64_t){3}, 8);
        int32_t pairs[6] = {17, 0, 250, 1, 3, 2};
        append(&b, pairs, sizeof pairs);
    }
    int64_t rows = nwords + (pruned ? 3 : bucket);
    Q->quant = b.n;
    add8(&b, 1);
    Q->input = b.n;
    Q->codes = Q->input + 1 + 8 + 8 + 4;
    Q->pq = Q->codes + (size_t)rows * 3;
    Q->centroids = Q->pq + 16;
    Q->norm_codes = Q->centroids + (size_t)dim * 256 * 4;
    Q->npq = Q->norm_codes + (size_t)rows;
    add_quantized(&b, rows, dim, 2, true);   /* 5 = 2 + 2 + 1 */
    Q->qout = b.n;
    CHECK(Q->qout == Q->npq + 16 + 256 * 4);
    add8(&b, qout);
    Q->output = b.n;
    if (qout) {
        add_quantized(&b, 3, dim, 5, false);
    } else {
        add64(&b, 3);
        add64(&b, dim);
        for (int i = 0; i < 3 * dim; i++)
            addf(&b, (float)i / 10);
    }
    Q->end = b.n;
    return b;
}

/* libfasttext loads what ftbin_check passed, and uses it. */
static void loads(int line, const buf *b)
{
    tells_error err;
    FILE *fp = fopen(scratch, "wb");
    CHECK(fp && fwrite(b->b, 1, b->n, fp) == b->n);
    CHECK(fp && fclose(fp) == 0);
    tells_error_clear(&err);
    ft_model *m = ft_load(scratch, &err);
    if (!m) {
        fprintf(stderr, "%s:%d: ft_load: %s\n", __FILE__, line, err.msg);
        check_failures++;
        return;
    }
    float probs[3], v[5];
    CHECK(ft_nlabels(m) == 3 && ft_dimension(m) == 5);
    CHECK(ft_predict(m, "good fine unseen words here", probs, &err) == 0);
    CHECK(isfinite(probs[0]) && isfinite(probs[1]) && isfinite(probs[2]));
    CHECK(ft_word_vector(m, "good", v, &err) == 1);
    CHECK(ft_word_vector(m, "__label__yes", v, &err) == 0);
    ft_free(m);
}

static void quantized_models(const buf *sup)
{
    char msg[512];
    quant_layout Q;
    ftbin_info in;
    tells_error err;
    for (int variant = 0; variant < 4; variant++) {
        bool pruned = variant & 1, qout = variant & 2;
        buf q = quantized(sup, pruned, qout, &Q);
        CHECK(check_buf(&q, &in, &err) == 0);
        if (err.kind)
            fprintf(stderr, "variant %d: %s\n", variant, err.msg);
        CHECK(in.quant_input && in.quant_output == qout);
        CHECK(in.pruneidx_size == (pruned ? 3 : -1));
        CHECK(in.at_input == (int64_t)Q.input && in.at_output == (int64_t)Q.output);
        loads(__LINE__, &q);
        if (variant == 3)
            every_cut(__LINE__, &q);
        free(q.b);
    }

    buf q = quantized(sup, true, true, &Q);
    int32_t nwords = get32(sup, D_NWORDS);
    int64_t rows = nwords + 3;
    /* Cuts in each part of a quantized matrix. */
    EXPECT_MSG(prefix(&q, Q.input + 5),
               "truncated fastText model (the file ends in the input matrix's header)");
    snprintf(msg, sizeof msg, "truncated fastText model (the input matrix claims %lld codes, "
             "the file has 10 of them)", (long long)rows * 3);
    EXPECT_MSG(prefix(&q, Q.codes + 10), msg);
    EXPECT_MSG(prefix(&q, Q.pq + 4), "truncated fastText model (the file ends in the input "
               "matrix's product quantizer)");
    EXPECT_MSG(prefix(&q, Q.centroids + 100), "truncated fastText model (the input matrix's "
               "product quantizer claims 1280 centroid numbers, the file has 100 of their 5120 "
               "bytes)");
    snprintf(msg, sizeof msg, "truncated fastText model (the input matrix claims %lld norm "
             "codes, the file has 1 of them)", (long long)rows);
    EXPECT_MSG(prefix(&q, Q.norm_codes + 1), msg);
    EXPECT_MSG(prefix(&q, Q.npq + 8), "truncated fastText model (the file ends in the input "
               "matrix's norm quantizer)");
    EXPECT_MSG(prefix(&q, Q.npq + 20), "truncated fastText model (the input matrix's norm "
               "quantizer claims 256 centroid numbers, the file has 4 of their 1024 bytes)");
    EXPECT_MSG(prefix(&q, Q.qout),
               "truncated fastText model (the file ends before the output matrix)");
    EXPECT_MSG(prefix(&q, Q.output + 10),
               "truncated fastText model (the file ends in the output matrix's header)");

    /* Each field of a quantized matrix out of range. */
    EXPECT_MSG(with8(&q, Q.input, 2), "fastText model whose quantized input matrix has qnorm 2 "
               "(expected 0 or 1)");
    snprintf(msg, sizeof msg, "fastText model whose input matrix has %lld rows, not the %lld of "
             "its %d words and 3 pruned n-grams", (long long)rows + 1, (long long)rows,
             (int)nwords);
    EXPECT_MSG(with64(&q, Q.input + 1, rows + 1), msg);
    EXPECT_MSG(with64(&q, Q.input + 9, 4), "fastText model whose input matrix has 4 columns, "
               "not its dim 5");
    EXPECT_MSG(with32(&q, Q.input + 17, -1), "fastText model whose quantized input matrix has "
               "codesize -1");
    snprintf(msg, sizeof msg, "fastText model whose quantized input matrix has %lld codes, not "
             "%lld for %lld rows of 3 sub-quantizers", (long long)rows * 3 - 1,
             (long long)rows * 3, (long long)rows);
    buf b = with32(&q, Q.input + 17, (int32_t)(rows * 3 - 1));
    memmove(b.b + Q.codes + rows * 3 - 1, b.b + Q.codes + rows * 3, b.n - Q.codes - rows * 3);
    b.n--;
    EXPECT_MSG(b, msg);
    EXPECT_MSG(with32(&q, Q.pq, 4), "fastText model whose input matrix has an inconsistent "
               "product quantizer (dim 4, nsubq 3, dsub 2, lastdsub 1)");
    EXPECT_MSG(with32(&q, Q.pq + 4, 2), "fastText model whose input matrix has an inconsistent "
               "product quantizer (dim 5, nsubq 2, dsub 2, lastdsub 1)");
    EXPECT_MSG(with32(&q, Q.pq + 8, 0), "fastText model whose input matrix has an inconsistent "
               "product quantizer (dim 5, nsubq 3, dsub 0, lastdsub 1)");
    EXPECT_MSG(with32(&q, Q.pq + 8, 6), "fastText model whose input matrix has an inconsistent "
               "product quantizer (dim 5, nsubq 3, dsub 6, lastdsub 1)");
    EXPECT_MSG(with32(&q, Q.pq + 12, 2), "fastText model whose input matrix has an inconsistent "
               "product quantizer (dim 5, nsubq 3, dsub 2, lastdsub 2)");
    EXPECT_MSG(with32(&q, Q.npq, 2), "fastText model whose input matrix has an inconsistent "
               "norm quantizer (dim 2, nsubq 1, dsub 1, lastdsub 1)");
    EXPECT_MSG(with32(&q, Q.npq + 12, 0), "fastText model whose input matrix has an "
               "inconsistent norm quantizer (dim 1, nsubq 1, dsub 1, lastdsub 0)");
    EXPECT_MSG(with8(&q, Q.qout, 3), "fastText model with qout flag 3 (expected 0 or 1)");
    EXPECT_MSG(with64(&q, Q.output + 1, 4), "fastText model whose output matrix has 4 rows, not "
               "the 3 of its labels");
    /* A pruned n-gram row beyond the matrix. */
    EXPECT_MSG(with32(&q, Q.quant - 4, 3), "fastText model whose pruned index pair 3 names row "
               "3, not one of its 3 n-gram rows");
    free(q.b);
}

int main(void)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/corpora/vectors/toy-model.bin", top ? top : ".");
    char dir[] = "/tmp/tells-ftbin.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    snprintf(scratch, sizeof scratch, "%s/model.bin", dir);

    buf toy = slurp(path);
    toy_model(&toy);
    free(toy.b);
    buf sup = supervised(dir);
    supervised_model(&sup);
    quantized_models(&sup);
    free(sup.b);

    /* Files that are not models at all. */
    tells_error err;
    char want[8192], got[8192];
    CHECK(ftbin_check("/nonexistent/model.bin", NULL, &err) == -1);
    tells_error_format(&err, got, sizeof got);
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK_STR(got, "/nonexistent/model.bin: cannot open: No such file or directory");
    CHECK(ftbin_check(dir, NULL, &err) == -1);
    tells_error_format(&err, got, sizeof got);
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", dir);
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK_STR(got, want);
    unlink(scratch);
    rmdir(dir);
    CHECK_DONE();
}
