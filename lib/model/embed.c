#include <config.h>
#include "model/embed.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/number.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "base/tasks.h"
#include "base/vocab.h"
#include "model/baseline.h"
#include "stats/subsample.h"

/* Vector text files have long lines: 300 numbers of up to ~15 characters;
   EMBED_MAX_DIM of them fit easily. */
enum { VEC_MAX_LINE = 1 << 22 };

int embed_input_parse(const char *name, embed_input *in)
{
    if (strcmp(name, "hypothesis") == 0)
        *in = EMBED_HYPOTHESIS;
    else if (strcmp(name, "premise") == 0)
        *in = EMBED_PREMISE;
    else if (strcmp(name, "pair") == 0)
        *in = EMBED_PAIR;
    else
        return -1;
    return 0;
}

int embed_pair_parse(const char *name, embed_pair *p)
{
    if (strcmp(name, "sum") == 0)
        *p = EMBED_PAIR_SUM;
    else if (strcmp(name, "concat") == 0)
        *p = EMBED_PAIR_CONCAT;
    else
        return -1;
    return 0;
}

/* ---- the token types a dataset uses ---- */

static int add_types(vocab *types, const char *text)
{
    size_t len;
    for (const char *p = text, *s; (s = prepared_next_token(&p, &len));)
        if (vocab_intern(types, s, len) < 0)
            return -1;
    return 0;
}

static int collect_types(const dataset *d, embed_input in, vocab *types)
{
    for (size_t i = 0; i < d->n; i++) {
        if (in != EMBED_HYPOTHESIS && add_types(types, d->ex[i].premise) < 0)
            return -1;
        if (in != EMBED_PREMISE && add_types(types, d->ex[i].hypothesis) < 0)
            return -1;
    }
    return 0;
}

/* The vectors of the types: dim numbers per type, and whether it has one. */
typedef struct type_vectors {
    float *v;
    bool *has;
    size_t dim;
} type_vectors;

static void type_vectors_free(type_vectors *tv)
{
    free(tv->v);
    free(tv->has);
    memset(tv, 0, sizeof *tv);
}

static int type_vectors_alloc(type_vectors *tv, size_t ntypes, size_t dim)
{
    tv->dim = dim;
    tv->v = array_new(ntypes * dim, sizeof *tv->v);
    tv->has = array_new(ntypes, sizeof *tv->has);
    if (!tv->v || !tv->has) {
        type_vectors_free(tv);
        return -1;
    }
    return 0;
}

/* ---- fastText .bin ---- */

static bool is_fasttext_bin(const char *path)
{
    FILE *fp = fopen(path, "rb");
    unsigned char b[4];
    bool yes = fp && fread(b, 1, 4, fp) == 4 &&
               (b[0] | b[1] << 8 | b[2] << 16 | (unsigned long)b[3] << 24) == 793712314UL;
    if (fp)
        fclose(fp);
    return yes;
}

static int vectors_from_bin(const char *path, const vocab *types, type_vectors *tv,
                            tells_error *err)
{
    ft_model *m = ft_load(path, err);
    if (!m)
        return -1;
    int rc = 0;
    size_t n = vocab_size(types), dim = (size_t)ft_dimension(m);
    if (type_vectors_alloc(tv, n, dim) < 0)
        rc = tells_error_nomem(err, path, 0);
    for (size_t t = 0; rc == 0 && t < n; t++) {
        int got = ft_word_vector(m, vocab_str(types, t), tv->v + t * dim, err);
        if (got < 0) {
            rc = -1;
            if (err && !err->file[0])
                snprintf(err->file, sizeof err->file, "%s", path);
        }
        tv->has[t] = got > 0;
    }
    for (size_t k = 0; rc == 0 && k < n * dim; k++)
        if (!isfinite(tv->v[k]))
            rc = tells_error_set(err, path, 0, "the vector of '%s' is not finite",
                                 vocab_str(types, k / dim));
    ft_free(m);
    if (rc < 0)
        type_vectors_free(tv);
    return rc;
}

/* ---- .vec and GloVe text ---- */

/* Number of space-separated fields of s (trailing spaces ignored). */
static size_t count_fields(const char *s)
{
    size_t n = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        n++;
        while (*s && *s != ' ')
            s++;
    }
    return n;
}

/* "WORDS DIMENSIONS", both decimal digits only (no sign or space before
   them: strtoul would wrap " -5"), DIMENSIONS positive. */
static bool parse_header(const char *s, unsigned long *words, unsigned long *dim)
{
    char *e;
    uint64_t w, d;
    if (number_u64(s, &e, ULONG_MAX, &w) < 0 || *e != ' ')
        return false;
    s = e + 1;
    if (number_u64(s, &e, ULONG_MAX, &d) < 0)
        return false;
    while (*e == ' ')
        e++;
    *words = (unsigned long)w;
    *dim = (unsigned long)d;
    return *e == '\0' && *dim > 0;
}

static int vectors_from_text(const char *path, const vocab *types, type_vectors *tv,
                             tells_error *err)
{
    line_reader r;
    if (line_reader_open(&r, path, VEC_MAX_LINE, err) < 0)
        return -1;
    size_t n = vocab_size(types), dim = 0;
    unsigned long hwords = 0, hdim = 0, words = 0;
    bool header = false;
    long header_line = 0;
    char *line;
    size_t len;
    int rc, got;
    while ((got = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = 0;
        if (len == 0 || strspn(line, " ") == len)
            continue;
        if (text_line_check(line, len, r.name, r.lineno, err) < 0) {
            rc = -1;
            goto done;
        }
        if (!header && words == 0 && dim == 0 && parse_header(line, &hwords, &hdim)) {
            if (hdim > EMBED_MAX_DIM) {
                rc = tells_error_set(err, r.name, r.lineno, "the header gives %lu dimensions "
                                     "(at most %d)", hdim, EMBED_MAX_DIM);
                goto done;
            }
            header = true;
            header_line = r.lineno;
            dim = hdim;
            continue;
        }
        if (*line == ' ' || strchr(line, '\t')) {
            rc = tells_error_set(err, r.name, r.lineno,
                                 "expected a word and its numbers separated by single spaces");
            goto done;
        }
        char *sp = strchr(line, ' ');
        size_t wlen = sp ? (size_t)(sp - line) : len;
        size_t nums = sp ? count_fields(sp) : 0;
        if (nums == 0) {
            rc = tells_error_set(err, r.name, r.lineno, "a word without numbers");
            goto done;
        }
        if (dim == 0 && nums > EMBED_MAX_DIM) {
            rc = tells_error_set(err, r.name, r.lineno, "%zu numbers (at most %d dimensions)",
                                 nums, EMBED_MAX_DIM);
            goto done;
        }
        if (dim == 0)
            dim = nums;
        if (nums != dim) {
            if (header)
                rc = tells_error_set(err, r.name, r.lineno, "%zu numbers, but the header "
                                     "(line %ld) gives %zu dimensions", nums, header_line, dim);
            else
                rc = tells_error_set(err, r.name, r.lineno, "%zu numbers, but the first "
                                     "vector has %zu", nums, dim);
            goto done;
        }
        words++;
        if (!tv->v && type_vectors_alloc(tv, n, dim) < 0) {
            rc = tells_error_nomem(err, r.name, r.lineno);
            goto done;
        }
        long t = vocab_find(types, line, wlen);
        if (t < 0 || tv->has[t])
            continue;   /* unused, or listed before: the first vector wins */
        float *v = tv->v + (size_t)t * dim;
        const char *p = sp;
        for (size_t k = 0; k < dim; k++) {
            char *e;
            v[k] = strtof(p, &e);
            if (e == p || (*e != ' ' && *e != '\0')) {
                rc = tells_error_set(err, r.name, r.lineno, "number %zu is not a number", k + 1);
                goto done;
            }
            if (!isfinite(v[k])) {
                rc = tells_error_set(err, r.name, r.lineno, "number %zu is not finite", k + 1);
                goto done;
            }
            p = e;
        }
        tv->has[t] = true;
    }
    rc = got;
    if (rc == 0 && header && words != hwords)
        rc = tells_error_set(err, r.name, header_line, "the header gives %lu words, the file "
                             "has %lu", hwords, words);
    if (rc == 0 && words == 0)
        rc = tells_error_set(err, r.name, 0, "no vectors in the file");
done:
    line_reader_close(&r);
    if (rc < 0)
        type_vectors_free(tv);
    return rc < 0 ? -1 : 0;
}

/* ---- averaging ---- */

/* Adds the mean of text's token vectors to out (dim numbers); a token
   without a vector counts as zero unless skip_oov. */
static void mean_into(const char *text, const vocab *types, const type_vectors *tv,
                      bool skip_oov, float *out, double *acc, embed_stats *st)
{
    size_t dim = tv->dim, count = 0;
    memset(acc, 0, dim * sizeof *acc);
    size_t len;
    for (const char *p = text, *s; (s = prepared_next_token(&p, &len));) {
        long t = vocab_find(types, s, len);
        st->tokens++;
        if (t < 0 || !tv->has[t]) {
            st->oov_tokens++;
            if (!skip_oov)
                count++;
            continue;
        }
        const float *v = tv->v + (size_t)t * dim;
        for (size_t k = 0; k < dim; k++)
            acc[k] += v[k];
        count++;
    }
    if (count == 0) {
        st->empty++;
        return;
    }
    for (size_t k = 0; k < dim; k++)
        out[k] += (float)(acc[k] / (double)count);
}

int embed_dataset(const dataset *d, const char *vectors_path, const embed_options *o,
                  npy_matrix *out, embed_stats *st, tells_error *err)
{
    memset(out, 0, sizeof *out);
    memset(st, 0, sizeof *st);
    vocab *types = vocab_new();
    type_vectors tv = {0};
    if (!types || collect_types(d, o->input, types) < 0) {
        vocab_free(types);
        return tells_error_nomem(err, NULL, 0);
    }
    if (o->progress) {
        char msg[256];
        snprintf(msg, sizeof msg, "reading the vectors of %zu token types from %s",
                 vocab_size(types), vectors_path);
        o->progress(msg, o->progress_user);
    }
    int rc = is_fasttext_bin(vectors_path) ? vectors_from_bin(vectors_path, types, &tv, err)
                                           : vectors_from_text(vectors_path, types, &tv, err);
    if (rc < 0) {
        vocab_free(types);
        return -1;
    }
    size_t dim = tv.dim;
    size_t width = o->input == EMBED_PAIR && o->pair == EMBED_PAIR_CONCAT ? 2 * dim : dim;
    float *m = array_new(d->n * width, sizeof *m);
    double *acc = malloc(dim * sizeof *acc + 1);
    if (!m || !acc) {
        free(m);
        free(acc);
        type_vectors_free(&tv);
        vocab_free(types);
        return tells_error_setk(err, TELLS_ERR_NOMEM, NULL, 0, "out of memory for a %zu x %zu "
                                "matrix", d->n, width);
    }
    st->types = vocab_size(types);
    for (size_t t = 0; t < st->types; t++)
        st->oov_types += !tv.has[t];
    for (size_t i = 0; i < d->n; i++) {
        float *row = m + i * width;
        const example *e = &d->ex[i];
        switch (o->input) {
        case EMBED_HYPOTHESIS:
            mean_into(e->hypothesis, types, &tv, o->skip_oov, row, acc, st);
            break;
        case EMBED_PREMISE:
            mean_into(e->premise, types, &tv, o->skip_oov, row, acc, st);
            break;
        case EMBED_PAIR:
            mean_into(e->premise, types, &tv, o->skip_oov, row, acc, st);
            mean_into(e->hypothesis, types, &tv, o->skip_oov,
                      o->pair == EMBED_PAIR_CONCAT ? row + dim : row, acc, st);
            break;
        }
    }
    free(acc);
    type_vectors_free(&tv);
    vocab_free(types);
    *out = (npy_matrix){m, d->n, width};
    return 0;
}

/* ---- vectors trained on the dataset's own text ---- */

/* Calls fn on each distinct premise and hypothesis of d, in the order
   first met among the rows by id (a premise read by three annotators
   once; the same order for any order of the input's rows): the text the
   vectors are trained on. -1 when fn fails, or out of memory (err set). */
static int each_distinct_text(const dataset *d, int (*fn)(const char *text, void *ctx),
                              void *ctx, tells_error *err)
{
    vocab *seen = vocab_new();
    size_t *rows = dataset_rows_by_id(d, NULL, d->n);
    if (!seen || !rows) {
        vocab_free(seen);
        free(rows);
        return tells_error_nomem(err, NULL, 0);
    }
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < d->n; r++) {
        size_t i = rows[r];
        const char *text[2] = {d->ex[i].premise, d->ex[i].hypothesis};
        for (int s = 0; s < 2 && rc == 0; s++) {
            size_t before = vocab_size(seen);
            if (vocab_intern(seen, text[s], strlen(text[s])) < 0)
                rc = tells_error_nomem(err, NULL, 0);
            else if (vocab_size(seen) > before)
                rc = fn(text[s], ctx);
        }
    }
    vocab_free(seen);
    free(rows);
    return rc;
}

static int put_text(const char *text, void *ctx)
{
    FILE *fp = ctx;
    return fputs(text, fp) == EOF || putc('\n', fp) == EOF ? -1 : 0;
}

/* The distinct premises and hypotheses of a dataset, one a line. */
static int write_texts(FILE *fp, void *ctx, tells_error *err)
{
    return each_distinct_text(ctx, put_text, fp, err);
}

int embed_train_vectors(const dataset *d, const char *path, const ft_train_args *args,
                        tells_error *err)
{
    ft_train_args a = *args;
    a.mode = "skipgram";
    ft_model *m = fasttext_train_text(write_texts, (void *)d, &a, err);
    if (!m)
        return -1;
    int rc = fasttext_save(m, path, err);
    ft_free(m);
    return rc;
}

typedef struct vector_part {
    const dataset *d;
    ft_train_args args;
    ft_model *m;
    tells_error err;
} vector_part;

static void *train_part(void *arg)
{
    vector_part *p = arg;
    p->m = fasttext_train_text(write_texts, (void *)p->d, &p->args, &p->err);
    return NULL;
}

typedef struct joined {
    int n;
    ft_model *m[EMBED_MAX_PARTS];
} joined;

/* An out_writer (base/outfile.h) of the parts joined. */
static int write_joined(FILE *fp, void *ctx, tells_error *err)
{
    const joined *j = ctx;
    return ft_write_joined(j->m, j->n, fp, err);
}

/* The parts' seeds: streams of their own (not seed + k, which the next
   seed's parts would share). */
enum { VECTOR_PART_STREAM = 0x766563 };

int embed_train_vectors_parts(const dataset *d, const char *path, const ft_train_args *args,
                              int parts, size_t threads, tells_error *err)
{
    if (parts < 1 || parts > EMBED_MAX_PARTS || args->dim <= 0 || args->dim % parts != 0)
        return tells_error_set(err, NULL, 0, "%d dimensions cannot be trained in %d parts",
                               args->dim, parts);
    vector_part p[EMBED_MAX_PARTS];
    pthread_t th[EMBED_MAX_PARTS];
    bool started[EMBED_MAX_PARTS] = {false};
    for (int k = 0; k < parts; k++) {
        p[k] = (vector_part){.d = d, .args = *args};
        p[k].args.mode = "skipgram";
        p[k].args.dim = args->dim / parts;
        p[k].args.threads = 1;
        p[k].args.seed = (int)(subsample_stream((uint64_t)(unsigned)args->seed,
                                                VECTOR_PART_STREAM, (uint64_t)k) &
                               0x7fffffff);
        tells_error_clear(&p[k].err);
    }
    /* Parts 1 .. on threads of their own, part 0 on the caller's; on one
       thread, in turn. Each thread of their own is held from the pool
       (base/tasks.h), so that jobs running meanwhile use one fewer. */
    size_t side = threads > 1 ? threads - 1 : 0;
    for (int k = 1; k < parts && (size_t)k <= side; k++) {
        tasks_hold_thread();
        started[k] = pthread_create(&th[k], NULL, train_part, &p[k]) == 0;
        if (!started[k])
            tasks_release_thread();
    }
    train_part(&p[0]);
    for (int k = 1; k < parts; k++) {
        if (started[k]) {
            pthread_join(th[k], NULL);
            tasks_release_thread();
        } else {
            train_part(&p[k]);
        }
    }
    int rc = 0;
    for (int k = 0; k < parts && rc == 0; k++)
        if (!p[k].m) {
            *err = p[k].err;
            rc = -1;
        }
    joined j = {parts, {NULL}};
    for (int k = 0; k < parts; k++)
        j.m[k] = p[k].m;
    if (rc == 0)
        rc = out_write(fasttext_model_path(path), write_joined, &j, err);
    for (int k = 0; k < parts; k++)
        ft_free(p[k].m);
    return rc;
}

int embed_words_collect(const dataset *d, embed_input in, embed_words *out, tells_error *err)
{
    *out = (embed_words){NULL, NULL, 0};
    out->types = vocab_new();
    if (!out->types || collect_types(d, in, out->types) < 0 ||
        !(out->words = array_new(vocab_size(out->types) + 1, sizeof *out->words))) {
        embed_words_free(out);
        return tells_error_nomem(err, NULL, 0);
    }
    out->n = vocab_size(out->types);
    for (size_t i = 0; i < out->n; i++)
        out->words[i] = vocab_str(out->types, i);
    return 0;
}

typedef struct text_count {
    const vocab *words;        /* or NULL */
    embed_text_counts *c;
} text_count;

static int count_text(const char *text, void *ctx)
{
    text_count *t = ctx;
    size_t len;
    for (const char *p = text, *s; (s = prepared_next_token(&p, &len));) {
        t->c->tokens++;
        t->c->in_words += t->words && vocab_find(t->words, s, len) >= 0;
    }
    return 0;
}

int embed_count_text(const dataset *d, const embed_words *w, embed_text_counts *c,
                     tells_error *err)
{
    *c = (embed_text_counts){0, 0};
    text_count t = {w ? w->types : NULL, c};
    return each_distinct_text(d, count_text, &t, err);
}

void embed_words_free(embed_words *w)
{
    vocab_free(w->types);
    free(w->words);
    *w = (embed_words){NULL, NULL, 0};
}

int embed_epochs_for(size_t tokens)
{
    size_t e = tokens ? (EMBED_TOKEN_PASSES + tokens - 1) / tokens : EMBED_MAX_EPOCHS;
    return e < EMBED_MIN_EPOCHS ? EMBED_MIN_EPOCHS : e > EMBED_MAX_EPOCHS ? EMBED_MAX_EPOCHS : (int)e;
}

int embed_auto_epochs(const dataset *d)
{
    embed_text_counts c;
    /* Out of memory, the count so far decides (fewer tokens: more epochs,
       within the bounds). */
    embed_count_text(d, NULL, &c, NULL);
    return embed_epochs_for(c.tokens);
}

typedef struct vec_job {
    ft_model *m;
    const vocab *only;
} vec_job;

static int write_vec(FILE *fp, void *ctx, tells_error *err)
{
    const vec_job *j = ctx;
    int n = ft_nwords(j->m), dim = ft_dimension(j->m), kept = 0;
    float *v = malloc((size_t)dim * sizeof *v);
    int *ids = array_new((size_t)n, sizeof *ids);
    int rc = v && ids ? 0 : tells_error_nomem(err, NULL, 0);
    /* The words kept, first: the header counts them. */
    for (int i = 0; rc == 0 && i < n; i++) {
        char *word = ft_word(j->m, i);
        if (!word)
            rc = tells_error_nomem(err, NULL, 0);
        else if (!j->only || vocab_find(j->only, word, strlen(word)) >= 0)
            ids[kept++] = i;
        free(word);
    }
    if (rc == 0 && fprintf(fp, "%d %d\n", kept, dim) < 0)
        rc = -1;
    for (int k = 0; rc == 0 && k < kept; k++) {
        char *word = ft_word(j->m, ids[k]);
        if (!word) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        if (ft_word_vector(j->m, word, v, err) < 0 || fputs(word, fp) == EOF)
            rc = -1;
        free(word);
        for (int c = 0; rc == 0 && c < dim; c++)
            if (fprintf(fp, " %.6f", (double)v[c]) < 0)
                rc = -1;
        if (rc == 0 && putc('\n', fp) == EOF)
            rc = -1;
    }
    free(v);
    free(ids);
    return rc;
}

int embed_write_vec(const char *bin_path, const char *vec_path, const vocab *only,
                    tells_error *err)
{
    vec_job j = {ft_load(bin_path, err), only};
    if (!j.m)
        return -1;
    int rc = out_write(vec_path, write_vec, &j, err);
    ft_free(j.m);
    return rc;
}
