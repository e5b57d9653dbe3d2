#include <config.h>
#include "stats/counts.h"
#include "text/redact.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/number.h"
#include "base/prepared.h"
#include "base/u64map.h"

#define COUNTS_MAGIC "tells-counts\t1"

int counts_init(token_counts *tc, text_field field)
{
    memset(tc, 0, sizeof *tc);
    tc->field = field;
    tc->tokens = vocab_new();
    tc->classes = vocab_new();
    if (!tc->tokens || !tc->classes) {
        counts_free(tc);
        return -1;
    }
    return 0;
}

void counts_free(token_counts *tc)
{
    free(tc->dense);
    free(tc->cells);
    free(tc->examples);
    free(tc->stamp);
    free(tc->scratch);
    vocab_free(tc->tokens);
    vocab_free(tc->classes);
    memset(tc, 0, sizeof *tc);
}

/* Grows a per-token or per-class array from old to cap entries, zeroed. */
static int grow_array(uint64_t **a, size_t old, size_t cap)
{
    uint64_t *p = array_resize_zeroed(*a, old, cap, sizeof *p);
    if (!p)
        return -1;
    *a = p;
    return 0;
}

/* Makes room for token id tok in the per-token arrays. Cells name tokens
   and classes in 32 bits. */
static int ensure_token(token_counts *tc, size_t tok)
{
    if (tok < tc->token_cap)
        return 0;
    if (tok >= UINT32_MAX)
        return -1;
    size_t cap = array_capacity(tc->token_cap, tok + 1, 4096);
    if (cap > SIZE_MAX / COUNTS_DENSE)
        return -1;
    counts_pair *dense = array_resize_zeroed(tc->dense, tc->token_cap * COUNTS_DENSE,
                                             cap * COUNTS_DENSE, sizeof *dense);
    if (!dense)
        return -1;
    tc->dense = dense;
    if (grow_array(&tc->stamp, tc->token_cap, cap) < 0)
        return -1;
    tc->token_cap = cap;
    return 0;
}

static long class_id(token_counts *tc, const char *label, size_t len)
{
    size_t before = vocab_size(tc->classes);
    if (before >= tc->class_cap) {
        if (before >= UINT32_MAX)
            return -1;
        size_t cap = array_capacity(tc->class_cap, before + 1, 8);
        if (grow_array(&tc->examples, tc->class_cap, cap) < 0)
            return -1;
        tc->class_cap = cap;
    }
    return vocab_intern(tc->classes, label, len);
}

/* The slot of (token, class): Fibonacci hashing of the pair, linear
   probing. */
static inline size_t cell_slot(const token_counts *tc, uint32_t token, uint32_t cls)
{
    uint64_t h = ((uint64_t)token << 32 | cls) * 0x9E3779B97F4A7C15ULL;
    size_t mask = tc->nslots - 1, i = (size_t)(h >> 32) & mask;
    while (tc->cells[i].count && (tc->cells[i].token != token || tc->cells[i].cls != cls))
        i = (i + 1) & mask;
    return i;
}

static int grow_cells(token_counts *tc)
{
    size_t old = tc->nslots, nslots = old ? old * 2 : 1024;
    counts_cell *was = tc->cells;
    tc->cells = array_new(nslots, sizeof *tc->cells);
    if (!tc->cells) {
        tc->cells = was;
        return -1;
    }
    tc->nslots = nslots;
    for (size_t i = 0; i < old; i++)
        if (was[i].count)
            tc->cells[cell_slot(tc, was[i].token, was[i].cls)] = was[i];
    free(was);
    return 0;
}

/* The cell of (token, class), made (count 0) if new: its count must be
   raised before the next call. NULL when out of memory. */
static inline counts_cell *cell_for(token_counts *tc, size_t token, size_t cls)
{
    if ((tc->nhashed + 1) * 2 > tc->nslots && grow_cells(tc) < 0)
        return NULL;
    counts_cell *cell = &tc->cells[cell_slot(tc, (uint32_t)token, (uint32_t)cls)];
    if (!cell->count) {
        cell->token = (uint32_t)token;
        cell->cls = (uint32_t)cls;
        cell->docs = 0;
        tc->nhashed++;
        tc->ncells++;
    }
    return cell;
}

/* Adds count and docs to (token, class), a token below token_cap; count
   0 adds nothing (no cell holds 0). */
static int cell_add(token_counts *tc, size_t token, size_t cls, uint64_t count, uint64_t docs)
{
    if (!count)
        return 0;
    if (cls < COUNTS_DENSE) {
        counts_pair *e = &tc->dense[token * COUNTS_DENSE + cls];
        tc->ncells += !e->count;
        e->count += count;
        e->docs += docs;
        return 0;
    }
    counts_cell *cell = cell_for(tc, token, cls);
    if (!cell)
        return -1;
    cell->count += count;
    cell->docs += docs;
    return 0;
}

void counts_get(const token_counts *tc, size_t cls, size_t token, uint64_t *count,
                uint64_t *docs)
{
    *count = *docs = 0;
    if (cls < COUNTS_DENSE && token < vocab_size(tc->tokens)) {
        *count = tc->dense[token * COUNTS_DENSE + cls].count;
        *docs = tc->dense[token * COUNTS_DENSE + cls].docs;
        return;
    }
    if (!tc->nslots || token >= UINT32_MAX || cls >= UINT32_MAX)
        return;
    const counts_cell *cell = &tc->cells[cell_slot(tc, (uint32_t)token, (uint32_t)cls)];
    *count = cell->count;
    *docs = cell->docs;
}

int counts_cells(const token_counts *tc, bool by_token, const size_t *token_rank,
                 const size_t *class_rank, counts_cell **cells, size_t **first)
{
    size_t nt = vocab_size(tc->tokens), nc = vocab_size(tc->classes);
    size_t ngroups = by_token ? nt : nc, nminor = by_token ? nc : nt;
    size_t n = tc->ncells;
    counts_cell *tmp = array_new(n, sizeof *tmp), *out = array_new(n, sizeof *out);
    size_t *pos = array_new((nminor > ngroups ? nminor : ngroups) + 1, sizeof *pos);
    *first = array_new(ngroups + 1, sizeof **first);
    *cells = out;
    if (!tmp || !out || !pos || !*first) {
        free(tmp);
        free(out);
        free(pos);
        free(*first);
        *cells = NULL;
        *first = NULL;
        return -1;
    }
    /* Every cell into out, then two stable counting sorts: by the minor
       key into tmp, then by the group into out. */
    size_t k = 0;
    for (size_t t = 0; t < nt; t++)
        for (size_t c = 0; c < COUNTS_DENSE; c++) {
            const counts_pair *e = &tc->dense[t * COUNTS_DENSE + c];
            if (e->count)
                out[k++] = (counts_cell){(uint32_t)t, (uint32_t)c, e->count, e->docs};
        }
    for (size_t i = 0; i < tc->nslots; i++)
        if (tc->cells[i].count)
            out[k++] = tc->cells[i];
#define CELL_TOKEN(c) (token_rank ? token_rank[(c).token] : (c).token)
#define CELL_CLASS(c) (class_rank ? class_rank[(c).cls] : (c).cls)
#define CELL_MINOR(c) (by_token ? CELL_CLASS(c) : CELL_TOKEN(c))
#define CELL_MAJOR(c) (by_token ? CELL_TOKEN(c) : CELL_CLASS(c))
    for (size_t i = 0; i < n; i++)
        pos[CELL_MINOR(out[i]) + 1]++;
    for (size_t m = 0; m < nminor; m++)
        pos[m + 1] += pos[m];
    for (size_t i = 0; i < n; i++)
        tmp[pos[CELL_MINOR(out[i])]++] = out[i];
    size_t *f = *first;
    for (size_t i = 0; i < n; i++)
        f[CELL_MAJOR(tmp[i]) + 1]++;
    for (size_t g = 0; g < ngroups; g++)
        f[g + 1] += f[g];
    memcpy(pos, f, ngroups * sizeof *pos);
    for (size_t i = 0; i < n; i++)
        out[pos[CELL_MAJOR(tmp[i])]++] = tmp[i];
#undef CELL_TOKEN
#undef CELL_CLASS
#undef CELL_MINOR
#undef CELL_MAJOR
    free(tmp);
    free(pos);
    return 0;
}

uint64_t *counts_token_totals(const token_counts *tc, bool docs)
{
    size_t nt = vocab_size(tc->tokens);
    uint64_t *total = array_new(nt, sizeof *total);
    for (size_t t = 0; total && t < nt; t++)
        for (size_t c = 0; c < COUNTS_DENSE; c++)
            total[t] += docs ? tc->dense[t * COUNTS_DENSE + c].docs
                             : tc->dense[t * COUNTS_DENSE + c].count;
    for (size_t i = 0; total && i < tc->nslots; i++)
        if (tc->cells[i].count)
            total[tc->cells[i].token] += docs ? tc->cells[i].docs : tc->cells[i].count;
    return total;
}

/* Bytes of the UTF-8 sequence at s (1 for a stray byte) and whether its
   character is a word character of COUNTS_TOKENS_WORDS. */
static size_t word_char(const unsigned char *s, const unsigned char *end, bool *word)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                c == '_';
        return 1;
    }
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if ((size_t)(end - s) < n)
        n = (size_t)(end - s);
    unsigned cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t i = 1; i < n; i++)
        cp = (cp << 6) | (s[i] & 0x3Fu);
    /* Latin-1 letters and digits (ª µ º ¹ ² ³ ¼ ½ ¾) are word characters
       in Python; its other punctuation and symbols are not. */
    bool latin1_punct = cp >= 0x80 && cp <= 0xBF && cp != 0xAA && cp != 0xB5 && cp != 0xBA &&
                        cp != 0xB2 && cp != 0xB3 && cp != 0xB9 && !(cp >= 0xBC && cp <= 0xBE);
    *word = !(latin1_punct || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x206F) ||
              (cp >= 0x3000 && cp <= 0x303F));
    return n;
}

/* COUNTS_TOKENS_WORDS: the words of text (lowercased runs of two or more
   word characters) separated by single spaces, in tc->scratch. */
static int analyse_words(token_counts *tc, const char *text, size_t len, size_t *out_len)
{
    if (ARRAY_RESERVE(tc->scratch, tc->scratch_cap, len + 1) < 0)
        return -1;
    const unsigned char *s = (const unsigned char *)text, *end = s + len;
    char *o = tc->scratch;
    size_t used = 0;
    while (s < end) {
        bool word;
        size_t n = word_char(s, end, &word);
        if (!word) {
            s += n;
            continue;
        }
        size_t start = used, chars = 0;
        while (s < end && (n = word_char(s, end, &word), word)) {
            for (size_t i = 0; i < n; i++)
                o[used++] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
            /* Latin-1 capitals (U+00C0-U+00DE but the sign U+00D7) are
               lowercased too: C3 80-9E becomes C3 A0-BE. */
            if (n == 2 && s[0] == 0xC3 && s[1] >= 0x80 && s[1] <= 0x9E && s[1] != 0x97)
                o[used - 1] = (char)(s[1] + 0x20);
            s += n;
            chars++;
        }
        if (chars < 2)
            used = start;
        else
            o[used++] = ' ';
    }
    *out_len = used;
    return 0;
}

static int count_text(token_counts *tc, size_t c, const char *s, size_t len)
{
    if (tc->analyzer == COUNTS_TOKENS_WORDS) {
        if (analyse_words(tc, s, len, &len) < 0)
            return -1;
        s = tc->scratch;
    }
    const char *end = s + len;
    while (s < end) {
        /* Find the token's end and hash it in the same pass: tokens are
           short, and this loop is the whole cost of tells-pmi. */
        uint64_t h = VOCAB_HASH_INIT;
        const char *stop = s;
        while (stop < end && *stop != ' ')
            h = vocab_hash_step(h, (unsigned char)*stop++);
        if (stop > s) {
            long t = vocab_intern_hashed(tc->tokens, s, (size_t)(stop - s),
                                         vocab_hash_final(h));
            if (t < 0)
                return -1;
            if ((size_t)t >= tc->token_cap && ensure_token(tc, (size_t)t) < 0)
                return -1;
            uint64_t *count, *docs;
            if (c < COUNTS_DENSE) {
                counts_pair *e = &tc->dense[(size_t)t * COUNTS_DENSE + c];
                tc->ncells += !e->count;
                count = &e->count;
                docs = &e->docs;
            } else {
                counts_cell *cell = cell_for(tc, (size_t)t, c);
                if (!cell)
                    return -1;
                count = &cell->count;
                docs = &cell->docs;
            }
            ++*count;
            if (tc->stamp[t] != tc->rows) {
                tc->stamp[t] = tc->rows;
                ++*docs;
            }
        }
        s = stop + 1;
    }
    return 0;
}

int counts_add(token_counts *tc, const char *label, size_t label_len,
               const char *text, size_t len, const char *text2, size_t len2)
{
    long c = class_id(tc, label, label_len);
    if (c < 0)
        return -1;
    tc->rows++;  /* stamps are row numbers from 1, so 0 means never */
    tc->examples[c]++;
    if (count_text(tc, (size_t)c, text, len) < 0)
        return -1;
    if (tc->field == FIELD_BOTH && count_text(tc, (size_t)c, text2, len2) < 0)
        return -1;
    return 0;
}

static int count_rows(token_counts *tc, prepared_reader *r, tells_error *err)
{
    prepared_row row;
    int rc;
    int f = tc->field == FIELD_PREMISE ? PREP_PREMISE : PREP_HYPOTHESIS;
    while ((rc = prepared_next(r, &row, err)) == 1) {
        if (counts_add(tc, row.field[PREP_LABEL], row.len[PREP_LABEL],
                       row.field[f], row.len[f], row.field[PREP_PREMISE],
                       row.len[PREP_PREMISE]) < 0)
            return tells_error_nomem(err, r->lr.name, row.lineno);
    }
    return rc;
}

int counts_merge(token_counts *tc, const token_counts *other)
{
    /* Class by class, each class's tokens by id: tokens are interned in
       the order the dense table of before met them. */
    counts_cell *cells;
    size_t *first;
    if (counts_cells(other, false, NULL, NULL, &cells, &first) < 0)
        return -1;
    /* other's token ids in tc, + 1 (0: not interned yet). */
    size_t *id = array_new(vocab_size(other->tokens), sizeof *id);
    int rc = id ? 0 : -1;
    for (size_t c2 = 0; rc == 0 && c2 < vocab_size(other->classes); c2++) {
        long c = class_id(tc, vocab_str(other->classes, c2),
                          vocab_len(other->classes, c2));
        if (c < 0) {
            rc = -1;
            break;
        }
        tc->examples[c] += other->examples[c2];
        for (size_t i = first[c2]; i < first[c2 + 1]; i++) {
            size_t t2 = cells[i].token;
            if (!id[t2]) {
                long t = vocab_intern(tc->tokens, vocab_str(other->tokens, t2),
                                      vocab_len(other->tokens, t2));
                if (t < 0 || ensure_token(tc, (size_t)t) < 0) {
                    rc = -1;
                    break;
                }
                id[t2] = (size_t)t + 1;
            }
            if (cell_add(tc, id[t2] - 1, (size_t)c, cells[i].count, cells[i].docs) < 0) {
                rc = -1;
                break;
            }
        }
    }
    free(id);
    free(cells);
    free(first);
    return rc;
}

/* Below this size one thread is as fast as several. */
enum { PARALLEL_MIN_BYTES = 4 << 20, MAX_THREADS = 64 };

typedef struct range_job {
    const char *path;
    prepared_reader reader;
    bool opened;
    token_counts counts;
    tells_error err;
    int rc;
} range_job;

static void *count_range(void *arg)
{
    range_job *job = arg;
    job->rc = count_rows(&job->counts, &job->reader, &job->err);
    return NULL;
}

/* Lines before byte offset `upto`, to turn a range's line number into
   the file's (only on the error path). */
static long lines_before(const char *path, uint64_t upto)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    char buf[1 << 16];
    long lines = 0;
    uint64_t done = 0;
    while (done < upto) {
        size_t want = upto - done < sizeof buf ? (size_t)(upto - done) : sizeof buf;
        size_t n = fread(buf, 1, want, fp);
        if (n == 0)
            break;
        for (char *p = buf; (p = memchr(p, '\n', n - (size_t)(p - buf))); p++)
            lines++;
        done += n;
    }
    fclose(fp);
    return lines;
}

int counts_add_prepared(token_counts *tc, const char *path, bool no_header,
                        int threads, tells_error *err)
{
    prepared_reader first;
    if (prepared_open(&first, path, no_header, err) < 0)
        return -1;
    struct stat st;
    bool regular = path && strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
                   S_ISREG(st.st_mode);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads <= 1 || !regular || (uint64_t)st.st_size < PARALLEL_MIN_BYTES) {
        int rc = count_rows(tc, &first, err);
        prepared_close(&first);
        return rc < 0 ? -1 : 0;
    }
    uint64_t size = (uint64_t)st.st_size, begin = first.lr.pos;
    range_job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int rc = jobs && tid ? 0 : tells_error_nomem(err, first.lr.name, 0);
    int started = 0;
    for (int k = 0; k < threads && rc == 0; k++) {
        range_job *job = &jobs[k];
        uint64_t a = begin + (size - begin) * (uint64_t)k / (uint64_t)threads;
        uint64_t b = begin + (size - begin) * (uint64_t)(k + 1) / (uint64_t)threads;
        job->path = path;
        if (counts_init(&job->counts, tc->field) < 0)
            rc = tells_error_nomem(err, first.lr.name, 0);
        else
            job->counts.analyzer = tc->analyzer;
        if (rc < 0)
            ;
        else if (k == 0) {
            job->reader = first;
            job->reader.range_end = b;
        } else if (prepared_open_range(&job->reader, path, &first, a, b, err) < 0)
            rc = -1;
        job->opened = rc == 0;
        if (rc == 0 && pthread_create(&tid[k], NULL, count_range, job) != 0)
            rc = tells_error_io(err, first.lr.name, 0, "cannot start a thread");
        if (rc == 0)
            started++;
    }
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    /* Report the first error in file order, with the file's line number. */
    for (int k = 0; k < started && rc == 0; k++) {
        range_job *job = &jobs[k];
        if (job->rc < 0) {
            *err = job->err;
            if (k > 0 && err->line > 0)
                err->line += lines_before(path, job->reader.lr.line_start) -
                             job->reader.lr.lineno + 1;
            rc = -1;
        }
    }
    for (int k = 0; k < started && rc == 0; k++)
        if (counts_merge(tc, &jobs[k].counts) < 0)
            rc = tells_error_nomem(err, first.lr.name, 0);
    for (int k = 0; jobs && k < threads; k++) {
        if (jobs[k].opened)
            prepared_close(&jobs[k].reader);
        counts_free(&jobs[k].counts);
    }
    if (!jobs || !jobs[0].opened)
        prepared_close(&first);
    free(jobs);
    free(tid);
    return rc < 0 ? -1 : 0;
}

int counts_write(const token_counts *tc, FILE *fp, tells_error *err)
{
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    size_t *cls = vocab_sorted_ids(tc->classes);
    size_t *tok = vocab_sorted_ids(tc->tokens);
    size_t *class_rank = array_new(nc, sizeof *class_rank);
    size_t *token_rank = array_new(nt, sizeof *token_rank);
    counts_cell *cells = NULL;
    size_t *first = NULL;
    if (cls && tok && class_rank && token_rank) {
        for (size_t i = 0; i < nc; i++)
            class_rank[cls[i]] = i;
        for (size_t j = 0; j < nt; j++)
            token_rank[tok[j]] = j;
    }
    if (!cls || !tok || !class_rank || !token_rank ||
        counts_cells(tc, true, token_rank, class_rank, &cells, &first) < 0) {
        free(cls);
        free(tok);
        free(class_rank);
        free(token_rank);
        return tells_error_nomem(err, NULL, 0);
    }
    fprintf(fp, COUNTS_MAGIC "\nfield\t%s\n", text_field_name(tc->field));
    if (tc->analyzer == COUNTS_TOKENS_WORDS)
        fputs("tokens\twords\n", fp);
    for (size_t i = 0; i < nc; i++)
        fprintf(fp, "examples\t%s\t%" PRIu64 "\n", vocab_str(tc->classes, cls[i]),
                tc->examples[cls[i]]);
    fputs("token\tclass\tcount\tdocs\n", fp);
    /* Tokens in byte order, each token's classes in byte order. */
    for (size_t i = 0; i < tc->ncells; i++)
        fprintf(fp, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\n",
                vocab_str(tc->tokens, cells[i].token), vocab_str(tc->classes, cells[i].cls),
                cells[i].count, cells[i].docs);
    /* A trailer, so that a truncated shard is noticed when merging. */
    fprintf(fp, "end\t%" PRIu64 "\n", (uint64_t)tc->ncells);
    free(cls);
    free(tok);
    free(class_rank);
    free(token_rank);
    free(cells);
    free(first);
    return ferror(fp) ? -1 : 0;
}

/* The sum of every count in tc: its side-by-side classes' and its
   hashed cells'. */
static uint64_t counts_total(const token_counts *tc)
{
    uint64_t total = 0;
    for (size_t i = 0; i < vocab_size(tc->tokens) * COUNTS_DENSE; i++)
        total += tc->dense[i].count;
    for (size_t i = 0; i < tc->nslots; i++)
        total += tc->cells[i].count;
    return total;
}

/* What merging counts files keeps: the sums of everything merged (every
   count, every example), which must fit in 64 bits so that no sum a
   measure takes of them wraps; and what the current file (one of a
   concatenation) has given, so that no examples line and no token-class
   row comes twice and no row claims more examples than its class has. */
typedef struct merge_state {
    uint64_t total, examples_total;
    long *ex_line;         /* [class]: the file's examples line, 0 none yet */
    uint64_t *ex;          /* [class]: its number of examples */
    size_t ex_cap;
    u64map rows;           /* token * classes + class: the row's line */
} merge_state;

static void merge_state_next_file(merge_state *ms)
{
    if (ms->ex_cap) {
        memset(ms->ex_line, 0, ms->ex_cap * sizeof *ms->ex_line);
        memset(ms->ex, 0, ms->ex_cap * sizeof *ms->ex);
    }
    u64map_free(&ms->rows);
}

static void merge_state_free(merge_state *ms)
{
    free(ms->ex_line);
    free(ms->ex);
    u64map_free(&ms->rows);
}

#define U64_MAX_TEXT "18446744073709551615"

/* A number of a counts file: 0, -1 when it is no number (err left for
   the caller's message), -2 (err set) when it is too large. */
static int count_field(const char *s, const char *what, const line_reader *r, uint64_t *v,
                       tells_error *err)
{
    int rc = number_u64(s, NULL, UINT64_MAX, v);
    if (rc == -2)
        tells_error_set(err, r->name, r->lineno, "%s %s is larger than " U64_MAX_TEXT, what,
                        s);
    return rc;
}

static int merge_examples(token_counts *tc, merge_state *ms, char **f, const line_reader *r,
                          tells_error *err)
{
    uint64_t ex;
    int rc = count_field(f[2], "examples", r, &ex, err);
    if (rc == -2)
        return -1;
    if (rc < 0 || f[1][0] == '\0')
        return tells_error_set(err, r->name, r->lineno, "malformed examples line");
    long c = class_id(tc, f[1], strlen(f[1]));
    if (c < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    size_t need = vocab_size(tc->classes);
    if (need > ms->ex_cap) {
        size_t cap = array_capacity(ms->ex_cap, need, 8);
        long *line = array_resize_zeroed(ms->ex_line, ms->ex_cap, cap, sizeof *line);
        if (line)
            ms->ex_line = line;
        uint64_t *n = line ? array_resize_zeroed(ms->ex, ms->ex_cap, cap, sizeof *n) : NULL;
        if (!n)
            return tells_error_nomem(err, r->name, r->lineno);
        ms->ex = n;
        ms->ex_cap = cap;
    }
    if (ms->ex_line[c])
        return tells_error_set(err, r->name, r->lineno, "examples of class '%s' given twice "
                               "(first on line %ld)", f[1], ms->ex_line[c]);
    if (ex > UINT64_MAX - ms->examples_total)
        return tells_error_set(err, r->name, r->lineno, "the examples add up to more than "
                               U64_MAX_TEXT);
    ms->examples_total += ex;
    ms->ex_line[c] = r->lineno;
    ms->ex[c] = ex;
    tc->examples[c] += ex;
    return 0;
}

static int merge_row(token_counts *tc, merge_state *ms, char **f, const line_reader *r,
                     tells_error *err)
{
    uint64_t count, docs;
    int rc = count_field(f[2], "count", r, &count, err);
    if (rc == 0)
        rc = count_field(f[3], "docs", r, &docs, err);
    if (rc == -2)
        return -1;
    if (rc < 0 || f[0][0] == '\0')
        return tells_error_set(err, r->name, r->lineno, "malformed counts row");
    long c = vocab_find(tc->classes, f[1], strlen(f[1]));
    if (c < 0 || !ms->ex_line[c])
        return tells_error_set(err, r->name, r->lineno,
                               "class '%s' has no examples line", f[1]);
    /* Each example of the class counted a token at least once if at all. */
    if (docs > count)
        return tells_error_set(err, r->name, r->lineno, "docs %" PRIu64 " is more than "
                               "count %" PRIu64, docs, count);
    if (count > 0 && docs == 0)
        return tells_error_set(err, r->name, r->lineno, "count %" PRIu64 " in no example "
                               "(docs 0)", count);
    if (docs > ms->ex[c])
        return tells_error_set(err, r->name, r->lineno, "docs %" PRIu64 " is more than the "
                               "%" PRIu64 " examples of class '%s'", docs, ms->ex[c], f[1]);
    if (count > UINT64_MAX - ms->total)
        return tells_error_set(err, r->name, r->lineno, "the counts add up to more than "
                               U64_MAX_TEXT);
    long t = vocab_intern(tc->tokens, f[0], strlen(f[0]));
    if (t < 0 || ensure_token(tc, (size_t)t) < 0 ||
        (!ms->rows.keys && u64map_init(&ms->rows) < 0))
        return tells_error_nomem(err, r->name, r->lineno);
    uint64_t key = (uint64_t)t * vocab_size(tc->classes) + (uint64_t)c, first;
    if (u64map_get(&ms->rows, key, &first))
        return tells_error_set(err, r->name, r->lineno, "token '%s' of class '%s' listed "
                               "twice (first on line %" PRIu64 ")", f[0], f[1], first);
    if (u64map_put(&ms->rows, key, (uint64_t)r->lineno) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (cell_add(tc, (size_t)t, (size_t)c, count, docs) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    ms->total += count;
    return 0;
}

int counts_merge_file(token_counts *tc, const char *path, tells_error *err)
{
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *line, *f[5];
    size_t len;
    int rc;
    bool in_rows = false, have_field = false, ended = false, words = false;
    uint64_t rows = 0;
    merge_state ms = {.total = counts_total(tc)};
    for (size_t c = 0; c < vocab_size(tc->classes); c++)
        ms.examples_total += tc->examples[c];
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = -1;
        if (text_line_check(line, len, r.name, r.lineno, err) < 0)
            break;
        /* Five fields means "more than four": no line has that many. */
        size_t n = tab_split(line, len, f, NULL, 5);
        if (ended && n == 2 && strcmp(f[0], "tells-counts") == 0 && strcmp(f[1], "1") == 0) {
            /* Counts files concatenated (cat part-* | tells-pmi
               --from-counts -): the next one starts. */
            in_rows = have_field = ended = words = false;
            rows = 0;
            merge_state_next_file(&ms);
        } else if (ended) {
            tells_error_set(err, r.name, r.lineno, "data after the end line");
            break;
        } else if (r.lineno == 1) {
            if (n != 2 || strcmp(f[0], "tells-counts") != 0 || strcmp(f[1], "1") != 0) {
                tells_error_set(err, r.name, 1, "not a tells counts file");
                tells_error_tag(err, TELLS_E_NOT_COUNTS, NULL);
                break;
            }
        } else if (!in_rows && n == 2 && strcmp(f[0], "field") == 0) {
            text_field fld;
            if (text_field_parse(f[1], &fld) < 0 || fld != tc->field) {
                tells_error_set(err, r.name, r.lineno,
                                "counts are for field '%s', not '%s'", f[1],
                                text_field_name(tc->field));
                break;
            }
            have_field = true;
        } else if (!in_rows && n == 2 && strcmp(f[0], "tokens") == 0 &&
                   strcmp(f[1], "words") == 0) {
            words = true;
        } else if (!in_rows && n == 3 && strcmp(f[0], "examples") == 0) {
            if (merge_examples(tc, &ms, f, &r, err) < 0)
                break;
        } else if (!in_rows && n == 4 && strcmp(f[0], "token") == 0) {
            if (!have_field) {
                tells_error_set(err, r.name, r.lineno, "no field line before the rows");
                break;
            }
            if (words != (tc->analyzer == COUNTS_TOKENS_WORDS)) {
                tells_error_set(err, r.name, r.lineno, words
                                ? "counts of scikit-learn words (--measure pmi-published), "
                                  "not of prepared tokens"
                                : "counts of prepared tokens, not of scikit-learn words "
                                  "(--measure pmi-published)");
                break;
            }
            in_rows = true;
        } else if (in_rows && n == 4) {
            if (merge_row(tc, &ms, f, &r, err) < 0)
                break;
            rows++;
        } else if (in_rows && n == 2 && strcmp(f[0], "end") == 0) {
            uint64_t want;
            if (number_u64(f[1], NULL, UINT64_MAX, &want) < 0 || want != rows) {
                tells_error_set(err, r.name, r.lineno,
                                "end line does not match the %" PRIu64 " rows read",
                                rows);
                break;
            }
            ended = true;
        } else {
            tells_error_set(err, r.name, r.lineno, "malformed counts line");
            break;
        }
        rc = 0;
    }
    if (rc == 0 && !ended)
        rc = tells_error_set(err, r.name, r.lineno, "truncated counts file");
    merge_state_free(&ms);
    line_reader_close(&r);
    return rc < 0 ? -1 : 0;
}

typedef struct zero_sort {
    const vocab *tokens;
    const uint64_t *total;
} zero_sort;

static int cmp_zero(const void *a, const void *b, void *arg)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const zero_sort *s = arg;
    if (s->total && s->total[x] != s->total[y])
        return s->total[x] < s->total[y] ? -1 : 1;
    return strcmp(vocab_str(s->tokens, x), vocab_str(s->tokens, y));
}

int zero_order_make(zero_order *z, const vocab *tokens, const size_t *kept, size_t nk,
                    const uint64_t *total)
{
    z->n = nk;
    z->tok = array_new(nk, sizeof *z->tok);
    z->group_end = array_new(nk, sizeof *z->group_end);
    if (!z->tok || !z->group_end) {
        zero_order_free(z);
        return -1;
    }
    if (nk)
        memcpy(z->tok, kept, nk * sizeof *kept);
    zero_sort s = {tokens, total};
    qsort_r(z->tok, nk, sizeof *z->tok, cmp_zero, &s);
    for (size_t j = nk; j-- > 0;)
        z->group_end[j] = j + 1 < nk && (!total || total[z->tok[j + 1]] == total[z->tok[j]])
                          ? z->group_end[j + 1] : j + 1;
    return 0;
}

void zero_order_free(zero_order *z)
{
    free(z->tok);
    free(z->group_end);
    memset(z, 0, sizeof *z);
}

long zero_order_walk(const zero_order *z, size_t need, const size_t *mark, size_t stamp,
                     int (*take)(size_t tok, void *ctx, double *value),
                     void (*drop)(void *ctx), void *ctx)
{
    size_t got = 0;
    bool any = false;
    double last = 0;
    for (size_t j = 0; j < z->n;) {
        size_t end = z->group_end[j], here = 0;
        bool probe = got >= need, first = true;
        for (; j < end && here < need; j++) {
            size_t t = z->tok[j];
            if (mark[t] == stamp)
                continue;
            double v;
            int r = take(t, ctx, &v);
            if (r < 0)
                return -1;
            if (r == 0)
                continue;
            if (first && any && v > last) {
                drop(ctx);
                return -2;
            }
            if (probe && !(v == last)) {
                drop(ctx);
                return (long)got;
            }
            first = probe = false;
            any = true;
            last = v;
            got++;
            here++;
        }
        j = end;
    }
    return (long)got;
}

const char *counts_token_shown(const token_counts *tc, size_t id)
{
    return redact_gate_name(tc->shown, vocab_str(tc->tokens, id), vocab_len(tc->tokens, id));
}
