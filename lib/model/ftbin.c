#include <config.h>
#include "model/ftbin.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/ioplan.h"

/* Limits of the format as libfasttext 0.9.2 reads it, and sanity limits
   (see ftbin.h). */
enum {
    MAX_ENTRIES = 30000000,     /* fastText's MAX_VOCAB_SIZE */
    MAX_WORD = 65536,           /* bytes of one dictionary entry */
    MAX_MAXN = 64,
    MAX_WORD_NGRAMS = 100,
    MAX_BUCKET = 1000000000,
    KSUB = 256                  /* centroids per product sub-quantizer */
};
/* The hierarchical softmax treats counts from 1e15 up as its "no node
   yet" marker and then builds a tree with cycles. */
static const int64_t MAX_COUNT = 1000000000000000LL;
static const int64_t MAX_TOTAL = (int64_t)1 << 62;

typedef struct reader {
    FILE *fp;
    const char *name;
    int64_t pos, size;
    tells_error *err;
    ftbin_tape *tape;   /* NULL: nothing recorded */
} reader;

/* Keeps n bytes read at file offset at on the tape: 1, or -1 with err
   set when out of memory. */
static int record(reader *r, const void *buf, size_t n, int64_t at)
{
    ftbin_tape *t = r->tape;
    if (!t)
        return 1;
    if (ARRAY_RESERVE(t->bytes, t->cap, t->n + n) < 0)
        return tells_error_nomem(r->err, r->name, 0);
    ftbin_span *last = t->nspans ? &t->span[t->nspans - 1] : NULL;
    if (!last || last->at + last->len != at) {
        if (ARRAY_RESERVE(t->span, t->span_cap, t->nspans + 1) < 0)
            return tells_error_nomem(r->err, r->name, 0);
        last = &t->span[t->nspans++];
        *last = (ftbin_span){at, 0, t->n};
    }
    memcpy(t->bytes + t->n, buf, n);
    t->n += n;
    last->len += (int64_t)n;
    return 1;
}

/* Reads n bytes: 1, 0 when the file ends first, -1 with err set on a read
   error. */
static int get(reader *r, void *buf, size_t n)
{
    if ((int64_t)n > r->size - r->pos)
        return 0;
    size_t got = fread(buf, 1, n, r->fp);
    r->pos += (int64_t)got;
    if (got == n)
        return record(r, buf, n, r->pos - (int64_t)n);
    if (ferror(r->fp))
        return tells_error_io(r->err, r->name, 0, "read error: %s", strerror(errno));
    return 0;   /* the file shrank while we read it */
}

/* One byte: getc, since the dictionary is read a byte at a time. */
static int get8(reader *r, int8_t *v)
{
    if (r->pos >= r->size)
        return 0;
    int c = getc(r->fp);
    if (c == EOF)
        return ferror(r->fp) ? tells_error_io(r->err, r->name, 0, "read error: %s",
                                              strerror(errno))
                             : 0;
    r->pos++;
    *v = (int8_t)c;
    return record(r, v, 1, r->pos - 1);
}
static int get32(reader *r, int32_t *v) { return get(r, v, sizeof *v); }
static int get64(reader *r, int64_t *v) { return get(r, v, sizeof *v); }

/* Skips n bytes: as get. */
static int skip(reader *r, int64_t n)
{
    if (n > r->size - r->pos)
        return 0;
    if (fseeko(r->fp, (off_t)n, SEEK_CUR) != 0)
        return tells_error_io(r->err, r->name, 0, "read error: %s", strerror(errno));
    r->pos += n;
    return 1;
}

static int64_t left(const reader *r) { return r->size - r->pos; }

static int truncated(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int truncated(reader *r, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return tells_error_set(r->err, r->name, 0, "truncated fastText model (%s)", why);
}

/* Reads with call; on a short file, the truncation message the rest of
   the arguments give. */
#define NEED(r, call, ...)                                                   \
    do {                                                                     \
        int need_rc_ = (call);                                               \
        if (need_rc_ < 0)                                                    \
            return -1;                                                       \
        if (need_rc_ == 0)                                                   \
            return truncated((r), __VA_ARGS__);                              \
    } while (0)

/* ---- the arguments ---- */

typedef struct int_arg {
    const char *name;
    int32_t lo, hi;
} int_arg;

static int check_args(reader *r, ftbin_info *in)
{
    int32_t *field[] = {&in->dim, &in->ws, &in->epoch, &in->min_count, &in->neg,
                        &in->word_ngrams, &in->loss, &in->model, &in->bucket, &in->minn,
                        &in->maxn, &in->lr_update_rate};
    static const int_arg arg[] = {
        {"dim", 1, FTBIN_MAX_DIM},  {"ws", 0, 10000},
        {"epoch", 0, 1000000},      {"minCount", 0, 1000000000},
        {"neg", 0, 10000},          {"wordNgrams", 0, MAX_WORD_NGRAMS},
        {"loss", FTBIN_LOSS_HS, FTBIN_LOSS_OVA},
        {"model", FTBIN_MODEL_CBOW, FTBIN_MODEL_SUPERVISED},
        {"bucket", 0, MAX_BUCKET},  {"minn", 0, MAX_MAXN},
        {"maxn", 0, MAX_MAXN},      {"lrUpdateRate", 0, INT32_MAX},
    };
    for (size_t k = 0; k < sizeof arg / sizeof *arg; k++)
        NEED(r, get32(r, field[k]), "the file ends in the arguments");
    NEED(r, get(r, &in->t, sizeof in->t), "the file ends in the arguments");
    for (size_t k = 0; k < sizeof arg / sizeof *arg; k++)
        if (*field[k] < arg[k].lo || *field[k] > arg[k].hi)
            return tells_error_set(r->err, r->name, 0, "fastText model with %s %d (expected "
                                   "%d to %d)", arg[k].name, (int)*field[k], (int)arg[k].lo,
                                   (int)arg[k].hi);
    if (!isfinite(in->t))
        return tells_error_set(r->err, r->name, 0, "fastText model with t %g (expected a "
                               "finite number)", in->t);
    if (in->minn > in->maxn)
        return tells_error_set(r->err, r->name, 0, "fastText model with minn %d greater than "
                               "maxn %d", (int)in->minn, (int)in->maxn);
    /* libfasttext ignores the character n-grams of old supervised models. */
    in->maxn_used = in->version == 11 && in->model == FTBIN_MODEL_SUPERVISED ? 0 : in->maxn;
    /* Without buckets, hashing an n-gram divides by zero. */
    if (in->bucket == 0 && in->maxn_used > 0)
        return tells_error_set(r->err, r->name, 0, "fastText model with character n-grams "
                               "(maxn %d) but no buckets", (int)in->maxn_used);
    if (in->bucket == 0 && in->word_ngrams > 1 && in->model == FTBIN_MODEL_SUPERVISED)
        return tells_error_set(r->err, r->name, 0, "fastText model with word n-grams "
                               "(wordNgrams %d) but no buckets", (int)in->word_ngrams);
    return 0;
}

/* ---- the dictionary ---- */

/* How many character n-grams libfasttext computes for a word of chars
   characters, counting the "<" and ">" it adds (Dictionary::
   computeSubwords): lengths minn to maxn, but no single character at
   either end. */
static int64_t ngram_count(int64_t chars, int32_t minn, int32_t maxn)
{
    int64_t lo = minn > 1 ? minn : 1, hi = maxn;
    if (hi < lo)
        return 0;
    int64_t top = chars < hi ? chars : hi, n = 0;
    if (top >= lo)
        n = (top - lo + 1) * (top - lo + 2) / 2;
    if (chars > hi)
        n += (chars - hi) * (hi - lo + 1);
    if (lo == 1)
        n -= 2;
    return n;
}

/* Reads entry k (from 0) of the dictionary; *ids grows by the subword ids
   libfasttext keeps for it, *total by its count. */
static int check_entry(reader *r, const ftbin_info *in, int32_t k, int64_t *ids,
                       int64_t *total)
{
    char head[5];
    int64_t len = 0, chars = 2;
    for (;;) {
        int8_t c = 0;
        NEED(r, get8(r, &c), "the dictionary claims %d entries, the file ends in entry %d",
             (int)in->entries, (int)k + 1);
        if (c == 0)
            break;
        if (len < (int64_t)sizeof head)
            head[len] = (char)c;
        if (++len > MAX_WORD)
            return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary entry "
                                   "%d is longer than %d bytes", (int)k + 1, MAX_WORD);
        chars += ((unsigned char)c & 0xC0) != 0x80;
    }
    int64_t count;
    int8_t type;
    NEED(r, get64(r, &count), "the dictionary claims %d entries, the file ends in entry %d",
         (int)in->entries, (int)k + 1);
    NEED(r, get8(r, &type), "the dictionary claims %d entries, the file ends in entry %d",
         (int)in->entries, (int)k + 1);
    if (type != 0 && type != 1)
        return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary entry %d "
                               "has type %d (expected 0, a word, or 1, a label)", (int)k + 1,
                               (int)type);
    /* Words come first, then labels: libfasttext asserts a word's id is
       below nwords and finds a label's at nwords + its number. */
    if (type == 1 && k < in->nwords)
        return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary entry %d "
                               "is a label among its %d words", (int)k + 1, (int)in->nwords);
    if (type == 0 && k >= in->nwords)
        return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary entry %d "
                               "is a word among its %d labels", (int)k + 1, (int)in->nlabels);
    if (count < 0 || count >= MAX_COUNT)
        return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary entry %d "
                               "has count %lld (expected 0 to 10^15)", (int)k + 1,
                               (long long)count);
    /* The hierarchical softmax adds counts up in 64 bits. */
    if (count > MAX_TOTAL - *total)
        return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary counts "
                               "add up to more than 2^62");
    *total += count;
    bool eos = len == 4 && memcmp(head, "</s>", 4) == 0;
    *ids += 1 + (eos ? 0 : ngram_count(chars, in->minn, in->maxn_used));
    return 0;
}

static int check_dictionary(reader *r, ftbin_info *in)
{
    const char *ends = "the file ends in the dictionary's header";
    NEED(r, get32(r, &in->entries), "%s", ends);
    NEED(r, get32(r, &in->nwords), "%s", ends);
    NEED(r, get32(r, &in->nlabels), "%s", ends);
    NEED(r, get64(r, &in->ntokens), "%s", ends);
    NEED(r, get64(r, &in->pruneidx_size), "%s", ends);
    /* An empty dictionary makes libfasttext divide by zero in its hash
       table. */
    if (in->entries < 1 || in->entries > MAX_ENTRIES)
        return tells_error_set(r->err, r->name, 0, "fastText model with a dictionary of %d "
                               "entries (expected 1 to %d)", (int)in->entries, MAX_ENTRIES);
    if (in->nwords < 0 || in->nlabels < 0 ||
        (int64_t)in->nwords + in->nlabels != in->entries)
        return tells_error_set(r->err, r->name, 0, "fastText model whose dictionary has %d "
                               "entries for %d words and %d labels", (int)in->entries,
                               (int)in->nwords, (int)in->nlabels);
    /* The output matrix has a row per label (supervised) or word (else). */
    if (in->model == FTBIN_MODEL_SUPERVISED && in->nlabels == 0)
        return tells_error_set(r->err, r->name, 0, "supervised fastText model without labels");
    if (in->model != FTBIN_MODEL_SUPERVISED && in->nwords == 0)
        return tells_error_set(r->err, r->name, 0, "fastText word-vector model without words");
    if (in->ntokens < 0)
        return tells_error_set(r->err, r->name, 0, "fastText model with ntokens %lld "
                               "(expected 0 or more)", (long long)in->ntokens);
    if (in->pruneidx_size < -1 || in->pruneidx_size > INT32_MAX - in->nwords)
        return tells_error_set(r->err, r->name, 0, "fastText model with pruneidx_size %lld "
                               "(expected -1 to %d)", (long long)in->pruneidx_size,
                               (int)(INT32_MAX - in->nwords));
    in->at_entries = r->pos;
    /* libfasttext keeps the ids of every entry's character n-grams: they
       must not take much more memory than the file itself. */
    int64_t ids = 0, max_ids = 2 * r->size + (16 << 20), total = 0;
    for (int32_t k = 0; k < in->entries; k++) {
        if (check_entry(r, in, k, &ids, &total) < 0)
            return -1;
        if (ids > max_ids)
            return tells_error_set(r->err, r->name, 0, "fastText model whose character "
                                   "n-grams (minn %d, maxn %d) would take more than %lld MB",
                                   (int)in->minn, (int)in->maxn_used,
                                   (long long)(max_ids * 4 >> 20));
    }
    in->at_pruneidx = r->pos;
    for (int64_t k = 0; k < in->pruneidx_size; k++) {
        int32_t pair[2];
        NEED(r, get(r, pair, sizeof pair), "the pruned index claims %lld pairs, the file ends "
             "in pair %lld", (long long)in->pruneidx_size, (long long)k + 1);
        if (pair[0] < 0 || pair[0] >= in->bucket)
            return tells_error_set(r->err, r->name, 0, "fastText model whose pruned index pair "
                                   "%lld names n-gram %d, not one of its %d buckets",
                                   (long long)k + 1, (int)pair[0], (int)in->bucket);
        if (pair[1] < 0 || pair[1] >= in->pruneidx_size)
            return tells_error_set(r->err, r->name, 0, "fastText model whose pruned index pair "
                                   "%lld names row %d, not one of its %lld n-gram rows",
                                   (long long)k + 1, (int)pair[1],
                                   (long long)in->pruneidx_size);
    }
    return 0;
}

/* ---- the matrices ---- */

typedef struct matrix_want {
    const char *name;        /* "input" or "output" */
    int64_t rows;
    const char *rows_are;    /* "the 122 of its 22 words and 100 buckets" */
} matrix_want;

static int check_shape(reader *r, const ftbin_info *in, const matrix_want *w, int64_t m,
                       int64_t n)
{
    if (n != in->dim)
        return tells_error_set(r->err, r->name, 0, "fastText model whose %s matrix has %lld "
                               "columns, not its dim %d", w->name, (long long)n, (int)in->dim);
    if (m != w->rows)
        return tells_error_set(r->err, r->name, 0, "fastText model whose %s matrix has %lld "
                               "rows, not %s", w->name, (long long)m, w->rows_are);
    return 0;
}

static int check_dense(reader *r, const ftbin_info *in, const matrix_want *w)
{
    int64_t m, n;
    NEED(r, get64(r, &m), "the file ends in the %s matrix's header", w->name);
    NEED(r, get64(r, &n), "the file ends in the %s matrix's header", w->name);
    if (check_shape(r, in, w, m, n) < 0)
        return -1;
    int64_t bytes = m * n * 4;
    if (bytes > left(r))
        return truncated(r, "the %s matrix claims %lld x %lld numbers, the file has %lld of "
                         "their %lld bytes", w->name, (long long)m, (long long)n,
                         (long long)left(r), (long long)bytes);
    NEED(r, skip(r, bytes), "the file ends in the %s matrix", w->name);
    return 0;
}

/* A product quantizer of dim dimensions (ProductQuantizer::load): its
   sub-quantizers must tile the dimensions exactly, or libfasttext reads
   centroids beyond its array. */
static int check_pq(reader *r, const matrix_want *w, const char *what, int32_t dim,
                    int32_t *nsubq_out)
{
    int32_t pq_dim, nsubq, dsub, lastdsub;
    NEED(r, get32(r, &pq_dim), "the file ends in the %s matrix's %s", w->name, what);
    NEED(r, get32(r, &nsubq), "the file ends in the %s matrix's %s", w->name, what);
    NEED(r, get32(r, &dsub), "the file ends in the %s matrix's %s", w->name, what);
    NEED(r, get32(r, &lastdsub), "the file ends in the %s matrix's %s", w->name, what);
    if (pq_dim != dim || dsub < 1 || dsub > dim || nsubq != (dim + dsub - 1) / dsub ||
        lastdsub != dim - (nsubq - 1) * dsub)
        return tells_error_set(r->err, r->name, 0, "fastText model whose %s matrix has an "
                               "inconsistent %s (dim %d, nsubq %d, dsub %d, lastdsub %d)",
                               w->name, what, (int)pq_dim, (int)nsubq, (int)dsub,
                               (int)lastdsub);
    int64_t bytes = (int64_t)dim * KSUB * 4;
    if (bytes > left(r))
        return truncated(r, "the %s matrix's %s claims %lld centroid numbers, the file has "
                         "%lld of their %lld bytes", w->name, what, (long long)dim * KSUB,
                         (long long)left(r), (long long)bytes);
    NEED(r, skip(r, bytes), "the file ends in the %s matrix's %s", w->name, what);
    *nsubq_out = nsubq;
    return 0;
}

static int check_quantized(reader *r, const ftbin_info *in, const matrix_want *w)
{
    int8_t qnorm;
    int64_t m, n;
    int32_t codesize;
    NEED(r, get8(r, &qnorm), "the file ends in the %s matrix's header", w->name);
    NEED(r, get64(r, &m), "the file ends in the %s matrix's header", w->name);
    NEED(r, get64(r, &n), "the file ends in the %s matrix's header", w->name);
    NEED(r, get32(r, &codesize), "the file ends in the %s matrix's header", w->name);
    if (qnorm != 0 && qnorm != 1)
        return tells_error_set(r->err, r->name, 0, "fastText model whose quantized %s matrix "
                               "has qnorm %d (expected 0 or 1)", w->name, (int)qnorm);
    if (check_shape(r, in, w, m, n) < 0)
        return -1;
    if (codesize < 0)
        return tells_error_set(r->err, r->name, 0, "fastText model whose quantized %s matrix "
                               "has codesize %d", w->name, (int)codesize);
    if (codesize > left(r))
        return truncated(r, "the %s matrix claims %d codes, the file has %lld of them",
                         w->name, (int)codesize, (long long)left(r));
    NEED(r, skip(r, codesize), "the file ends in the %s matrix's codes", w->name);
    int32_t nsubq;
    if (check_pq(r, w, "product quantizer", in->dim, &nsubq) < 0)
        return -1;
    /* A row's codes are nsubq bytes from row * nsubq. */
    if (codesize != m * nsubq)
        return tells_error_set(r->err, r->name, 0, "fastText model whose quantized %s matrix "
                               "has %d codes, not %lld for %lld rows of %d sub-quantizers",
                               w->name, (int)codesize, (long long)(m * nsubq), (long long)m,
                               (int)nsubq);
    if (qnorm) {
        if (m > left(r))
            return truncated(r, "the %s matrix claims %lld norm codes, the file has %lld of "
                             "them", w->name, (long long)m, (long long)left(r));
        NEED(r, skip(r, m), "the file ends in the %s matrix's norm codes", w->name);
        if (check_pq(r, w, "norm quantizer", 1, &nsubq) < 0)
            return -1;
    }
    return 0;
}

static int check_matrices(reader *r, ftbin_info *in)
{
    int8_t flag;
    char rows_are[160];
    in->at_quant_flag = r->pos;
    NEED(r, get8(r, &flag), "the file ends before the input matrix");
    if (flag != 0 && flag != 1)
        return tells_error_set(r->err, r->name, 0, "fastText model with quantization flag %d "
                               "(expected 0 or 1)", (int)flag);
    in->quant_input = flag;
    bool pruned = in->pruneidx_size >= 0;
    if (pruned && !in->quant_input)
        return tells_error_set(r->err, r->name, 0, "fastText model with a pruned dictionary "
                               "but an input matrix that is not quantized");
    /* Rows: the words, then the n-gram buckets (or the pruned n-grams). */
    if (pruned) {
        in->input_rows = (int64_t)in->nwords + in->pruneidx_size;
        snprintf(rows_are, sizeof rows_are, "the %lld of its %d words and %lld pruned n-grams",
                 (long long)in->input_rows, (int)in->nwords, (long long)in->pruneidx_size);
    } else {
        in->input_rows = (int64_t)in->nwords + in->bucket;
        snprintf(rows_are, sizeof rows_are, "the %lld of its %d words and %d buckets",
                 (long long)in->input_rows, (int)in->nwords, (int)in->bucket);
    }
    matrix_want input = {"input", in->input_rows, rows_are};
    in->at_input = r->pos;
    if ((in->quant_input ? check_quantized(r, in, &input) : check_dense(r, in, &input)) < 0)
        return -1;

    in->at_qout_flag = r->pos;
    NEED(r, get8(r, &flag), "the file ends before the output matrix");
    if (flag != 0 && flag != 1)
        return tells_error_set(r->err, r->name, 0, "fastText model with qout flag %d "
                               "(expected 0 or 1)", (int)flag);
    /* libfasttext reads a quantized output only after a quantized input. */
    in->quant_output = in->quant_input && flag;
    bool supervised = in->model == FTBIN_MODEL_SUPERVISED;
    in->output_rows = supervised ? in->nlabels : in->nwords;
    snprintf(rows_are, sizeof rows_are, "the %d of its %s", supervised ? (int)in->nlabels
             : (int)in->nwords, supervised ? "labels" : "words");
    matrix_want output = {"output", in->output_rows, rows_are};
    in->at_output = r->pos;
    return in->quant_output ? check_quantized(r, in, &output) : check_dense(r, in, &output);
}

/* ---- the file ---- */

void ftbin_tape_free(ftbin_tape *tape)
{
    free(tape->bytes);
    free(tape->span);
    memset(tape, 0, sizeof *tape);
}

int ftbin_check_file(FILE *fp, const char *name, ftbin_info *out, tells_error *err)
{
    return ftbin_check_tape(fp, name, out, NULL, err);
}

int ftbin_check_tape(FILE *fp, const char *name, ftbin_info *out, ftbin_tape *tape,
                     tells_error *err)
{
    if (tape)
        memset(tape, 0, sizeof *tape);
    ftbin_info in;
    memset(&in, 0, sizeof in);
    struct stat st;
    if (fstat(fileno(fp), &st) != 0)
        return tells_error_io(err, name, 0, "cannot read: %s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return tells_error_io(err, name, 0, "cannot read: %s", strerror(EISDIR));
    /* The sizes are checked against the file's: a pipe has none. */
    if (!S_ISREG(st.st_mode))
        return tells_error_set(err, name, 0, "a fastText model must be a regular file");
    if (fseeko(fp, 0, SEEK_SET) != 0)
        return tells_error_io(err, name, 0, "cannot read: %s", strerror(errno));
    reader r = {fp, name, 0, (int64_t)st.st_size, err, tape};
    in.file_size = r.size;
    if (tape)
        tape->size = r.size;
    int32_t magic;
    int rc = get32(&r, &magic);
    if (rc < 0)
        return -1;
    if (rc == 0 || magic != FTBIN_MAGIC)
        return tells_error_set(err, name, 0, "not a fastText .bin model");
    NEED(&r, get32(&r, &in.version), "the file ends in its version");
    if (in.version > FTBIN_VERSION)
        return tells_error_set(err, name, 0, "fastText model format %d is newer than this "
                               "libfasttext reads", (int)in.version);
    /* 11 is the first format with a magic number. */
    if (in.version < 11)
        return tells_error_set(err, name, 0, "unknown fastText model format %d",
                               (int)in.version);
    in.at_args = r.pos;
    if (check_args(&r, &in) < 0)
        return -1;
    in.at_dict = r.pos;
    if (check_dictionary(&r, &in) < 0 || check_matrices(&r, &in) < 0)
        return -1;
    if (r.pos != r.size)
        return tells_error_set(err, name, 0, "fastText model with %lld more byte%s after its "
                               "output matrix", (long long)(r.size - r.pos),
                               r.size - r.pos == 1 ? "" : "s");
    if (out)
        *out = in;
    return 0;
}

int ftbin_check(const char *path, ftbin_info *info, tells_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tells_error_io(err, path, 0, "cannot open: %s", strerror(errno));
    io_note_read(fileno(fp));
    int rc = ftbin_check_file(fp, path, info, err);
    fclose(fp);
    return rc;
}
