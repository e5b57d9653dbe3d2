#include <config.h>
#include "text/redact.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <nettle/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/prepared.h"
#include "base/u64map.h"
#include "base/vocab.h"
#include "text/tokenize.h"

#include "text/ownwords.inc"

/* ---- words ---- */

static bool word_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80;
}

/* Keys of u64map are below UINT64_MAX. */
static uint64_t key_of(uint64_t h) { return h >> 1; }

static uint64_t mix(uint64_t a, uint64_t b)
{
    return vocab_hash_final(a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL);
}

/* A word (next_word): its hash and whether it is digits alone. */
typedef struct word_buf {
    char w[256];        /* the word's first 255 bytes, for messages */
    size_t len;         /* its whole length */
    uint64_t hash;
    bool digits;        /* digits only */
} word_buf;

/* The length of a character beyond ASCII at s[i] that is ignored inside
   a word (soft hyphen, zero-width spaces and joiners, direction marks,
   the word joiner, the BOM), or 0. */
static size_t ignorable(const unsigned char *u, size_t left)
{
    if (left >= 2 && u[0] == 0xc2 && u[1] == 0xad)
        return 2;
    if (left >= 3 && u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x8b && u[2] <= 0x8f)
        return 3;
    if (left >= 3 && u[0] == 0xe2 && u[1] == 0x81 && u[2] >= 0xa0 && u[2] <= 0xa4)
        return 3;
    if (left >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
        return 3;
    return 0;
}

/* The length of a separator beyond ASCII at s[i] (0: none): Latin-1's
   punctuation and symbols (not the letters ª µ º), × and ÷, U+2000 to
   U+2BFF (spaces, dashes, quotes, arrows, mathematical and technical
   symbols, dingbats), CJK punctuation, full-width ASCII punctuation and
   U+1F000 to U+1FFFF (emoji and pictographs). */
static size_t wide_separator(const unsigned char *u, size_t left)
{
    if (left >= 2 && u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0xbf && u[1] != 0xaa &&
        u[1] != 0xb5 && u[1] != 0xba)
        return 2;
    if (left >= 2 && u[0] == 0xc3 && (u[1] == 0x97 || u[1] == 0xb7))
        return 2;
    if (left >= 3 && u[0] == 0xe2 && u[1] >= 0x80 && u[1] <= 0xaf)
        return 3;
    if (left >= 3 && u[0] == 0xe3 && u[1] == 0x80)
        return 3;
    if (left >= 3 && u[0] == 0xef && u[1] == 0xbc &&
        ((u[2] >= 0x80 && u[2] <= 0x8f) || (u[2] >= 0x9a && u[2] <= 0xa0)))
        return 3;
    if (left >= 4 && u[0] == 0xf0 && u[1] == 0x9f)
        return 4;
    return 0;
}

static size_t next_word(const char *s, size_t len, size_t i, word_buf *w, size_t *start)
{
    const unsigned char *u = (const unsigned char *)s;
    for (;;) {
        size_t k;
        if (i >= len)
            break;
        if (!word_byte(u[i]))
            i++;
        else if ((k = ignorable(u + i, len - i)) > 0 || (k = wide_separator(u + i, len - i)) > 0)
            i += k;
        else
            break;
    }
    *start = i;
    uint64_t h = VOCAB_HASH_INIT;
    w->len = 0;
    w->digits = true;
    while (i < len && word_byte(u[i])) {
        size_t k = ignorable(u + i, len - i);
        if (k) {
            i += k;
            continue;
        }
        if (wide_separator(u + i, len - i))
            break;
        /* Lowercased as the tokenizer lowercases. */
        unsigned char folded[2];
        size_t took = tok_fold_char(u + i, len - i, folded);
        for (size_t b = 0; b < took; b++) {
            unsigned char x = folded[b];
            h = vocab_hash_step(h, x);
            if (w->len < sizeof w->w - 1)
                w->w[w->len] = (char)x;
            w->len++;
            if (x < '0' || x > '9')
                w->digits = false;
        }
        i += took;
    }
    w->w[w->len < sizeof w->w - 1 ? w->len : sizeof w->w - 1] = '\0';
    w->hash = vocab_hash_final(h);
    return i;
}

static int own_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

bool redact_own_word(const char *word, size_t len)
{
    char w[256];
    if (len >= sizeof w)
        return false;
    memcpy(w, word, len);
    w[len] = '\0';
    return bsearch(w, own_words, sizeof own_words / sizeof *own_words, sizeof *own_words,
                   own_cmp) != NULL;
}

/* ---- the gate ---- */

/* ---- premises ---- */

int premise_tally_init(premise_tally *t)
{
    memset(t, 0, sizeof *t);
    if (u64map_init(&t->seen) < 0 || u64map_init(&t->counts) < 0 ||
        !(t->premises = vocab_new())) {
        premise_tally_free(t);
        return -1;
    }
    return 0;
}

void premise_tally_free(premise_tally *t)
{
    vocab_free(t->premises);
    u64map_free(&t->seen);
    u64map_free(&t->counts);
    memset(t, 0, sizeof *t);
}

long premise_tally_group(premise_tally *t, const char *premise, size_t len)
{
    /* Past any premise's id: a group of its own. */
    if (!premise || len == 0 || (len == 1 && premise[0] == CORPUS_NO_PREMISE[0]))
        return (1L << 40) + (long)t->alone++;
    return vocab_intern(t->premises, premise, len);
}

int premise_tally_add(premise_tally *t, uint64_t key, long group)
{
    uint64_t v, seen = key_of(mix(key, (uint64_t)group));
    if (u64map_get(&t->seen, seen, &v))
        return 0;
    if (u64map_put(&t->seen, seen, 1) < 0 || u64map_add(&t->counts, key_of(mix(key, ~0ULL)), 1) < 0)
        return -1;
    return 0;
}

size_t premise_tally_count(const premise_tally *t, uint64_t key)
{
    uint64_t v = 0;
    u64map_get(&t->counts, key_of(mix(key, ~0ULL)), &v);
    return (size_t)v;
}

/* ---- the gate ---- */

struct redact_gate {
    size_t k;
    premise_tally tally;       /* tokens, by vocab_hash */
};

redact_gate *redact_gate_new(const dataset *d, size_t k, tells_error *err)
{
    redact_gate *g = calloc(1, sizeof *g);
    if (!g || premise_tally_init(&g->tally) < 0) {
        free(g);
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    g->k = k;
    if (d && redact_gate_add(g, d, err) < 0) {
        redact_gate_free(g);
        return NULL;
    }
    return g;
}

int redact_gate_add(redact_gate *g, const dataset *d, tells_error *err)
{
    for (size_t i = 0; i < d->n; i++) {
        const example *e = &d->ex[i];
        long p = premise_tally_group(&g->tally, e->premise, strlen(e->premise));
        if (p < 0)
            return tells_error_nomem(err, NULL, 0);
        const char *texts[2] = {e->premise, e->hypothesis};
        for (int t = 0; t < 2; t++) {
            const char *s = texts[t], *b;
            size_t blen;
            while ((b = prepared_next_token(&s, &blen)))
                if (premise_tally_add(&g->tally, vocab_hash(b, blen), p) < 0)
                    return tells_error_nomem(err, NULL, 0);
        }
    }
    return 0;
}

void redact_gate_free(redact_gate *g)
{
    if (!g)
        return;
    premise_tally_free(&g->tally);
    free(g);
}

size_t redact_gate_k(const redact_gate *g) { return g ? g->k : 0; }

int redact_token_cmp(const redact_gate *g, const vocab *tokens, size_t a, size_t b)
{
    if (g) {
        bool sa = redact_gate_ok(g, vocab_str(tokens, a), vocab_len(tokens, a));
        bool sb = redact_gate_ok(g, vocab_str(tokens, b), vocab_len(tokens, b));
        if (sa != sb)
            return sa ? -1 : 1;
    }
    return strcmp(vocab_str(tokens, a), vocab_str(tokens, b));
}

bool redact_gate_ok(const redact_gate *g, const char *tok, size_t len)
{
    if (!g)
        return true;
    if (premise_tally_count(&g->tally, vocab_hash(tok, len)) < g->k)
        return false;
    /* A token of REDACT_NGRAM words or more (a merged phrase) would be a
       run of the corpus's words: withheld, however frequent. */
    size_t words = 0, i = 0, start;
    word_buf w;
    while ((i = next_word(tok, len, i, &w, &start), w.len > 0))
        words++;
    return words < REDACT_NGRAM;
}

const char *redact_gate_name(const redact_gate *g, const char *tok, size_t len)
{
    return redact_gate_ok(g, tok, len) ? tok : REDACT_WITHHELD;
}

bool redact_gate_text_ok(const redact_gate *g, const char *text)
{
    if (!g)
        return true;
    const char *s = text, *b;
    size_t len;
    while ((b = prepared_next_token(&s, &len)))
        if (!redact_gate_ok(g, b, len))
            return false;
    return true;
}

/* ---- keyed ids ---- */

int redact_key_load(redact_key *k, const char *path, tells_error *err)
{
    memset(k, 0, sizeof *k);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tells_error_io(err, path, 0, "cannot open: %s", strerror(errno));
    uint8_t buf[4096];
    size_t n = fread(buf, 1, sizeof buf, fp);
    bool more = n == sizeof buf && fgetc(fp) != EOF;
    int bad = ferror(fp);
    fclose(fp);
    if (bad)
        return tells_error_io(err, path, 0, "cannot read");
    if (more)
        return tells_error_set(err, path, 0, "a key file holds at most %zu bytes", sizeof buf);
    if (n < REDACT_KEY_MIN)
        return tells_error_set(err, path, 0,
                               "a key needs at least %d bytes, this file has %zu (make one "
                               "with: head -c 32 /dev/urandom > FILE)",
                               REDACT_KEY_MIN, n);
    if (!(k->bytes = malloc(n)))
        return tells_error_nomem(err, path, 0);
    memcpy(k->bytes, buf, n);
    k->len = n;
    return 0;
}

void redact_key_free(redact_key *k)
{
    free(k->bytes);
    k->bytes = NULL;
    k->len = 0;
}

void redact_id_hash(const redact_key *k, const char *id, size_t len, char out[REDACT_ID_HEX + 1])
{
    struct hmac_sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    hmac_sha256_set_key(&ctx, k->len, k->bytes);
    hmac_sha256_update(&ctx, len, (const uint8_t *)id);
    hmac_sha256_digest(&ctx, sizeof digest, digest);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < REDACT_ID_HEX / 2; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[REDACT_ID_HEX] = '\0';
}

/* ---- the leak index ---- */

struct leak_index {
    size_t n, k;
    u64map ngrams;      /* n-gram hash -> source (file << 40 | line) */
    premise_tally words; /* words, by their hash */
    u64map allowed;     /* words that are not corpus text (leak_index_allow) */
    char **files;
    size_t nfiles;
};

leak_index *leak_index_new(size_t n, size_t k, tells_error *err)
{
    leak_index *ix = calloc(1, sizeof *ix);
    if (!ix || u64map_init(&ix->ngrams) < 0 || premise_tally_init(&ix->words) < 0 ||
        u64map_init(&ix->allowed) < 0) {
        leak_index_free(ix);
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    ix->n = n < 2 ? 2 : n > 32 ? 32 : n;
    ix->k = k;
    return ix;
}

void leak_index_free(leak_index *ix)
{
    if (!ix)
        return;
    u64map_free(&ix->ngrams);
    premise_tally_free(&ix->words);
    u64map_free(&ix->allowed);
    for (size_t i = 0; i < ix->nfiles; i++)
        free(ix->files[i]);
    free(ix->files);
    free(ix);
}

static long file_index(leak_index *ix, const char *file)
{
    if (ix->nfiles && strcmp(ix->files[ix->nfiles - 1], file) == 0)
        return (long)ix->nfiles - 1;
    char **nf = realloc(ix->files, (ix->nfiles + 1) * sizeof *nf);
    if (!nf)
        return -1;
    ix->files = nf;
    if (!(ix->files[ix->nfiles] = strdup(file)))
        return -1;
    return (long)ix->nfiles++;
}

/* One sentence's n-grams and words. */
static int index_text(leak_index *ix, const char *s, size_t len, long premise, uint64_t source)
{
    uint64_t ring[64];
    size_t nw = 0, start;
    word_buf w;
    size_t i = 0;
    while ((i = next_word(s, len, i, &w, &start)), w.len > 0) {
        uint64_t v;
        if (premise_tally_add(&ix->words, w.hash, premise) < 0)
            return -1;
        ring[nw % 64] = w.hash;
        nw++;
        if (nw >= ix->n) {
            uint64_t h = 0;
            for (size_t j = nw - ix->n; j < nw; j++)
                h = mix(h, ring[j % 64]);
            if (!u64map_get(&ix->ngrams, key_of(h), &v) &&
                u64map_put(&ix->ngrams, key_of(h), source) < 0)
                return -1;
        }
    }
    return 0;
}

int leak_index_add(leak_index *ix, const char *premise, size_t premise_len,
                   const char *hypothesis, size_t hypothesis_len, const char *file, long line,
                   tells_error *err)
{
    long f = file_index(ix, file ? file : "-");
    long p = premise_tally_group(&ix->words, premise, premise ? premise_len : 0);
    if (f < 0 || p < 0)
        return tells_error_nomem(err, file, line);
    uint64_t source = (uint64_t)f << 40 | ((uint64_t)(line > 0 ? line : 0) & ((1ULL << 40) - 1));
    if ((premise && index_text(ix, premise, premise_len, p, source) < 0) ||
        index_text(ix, hypothesis, hypothesis_len, p, source) < 0)
        return tells_error_nomem(err, file, line);
    return 0;
}

int leak_index_add_corpus(leak_index *ix, const char *path, corpus_format fmt,
                          const corpus_fields *fields, bool skip_invalid, tells_error *err)
{
    static const corpus_fields prepared = {"id", "label", "premise", "hypothesis"};
    if (prepared_file_is(path)) {
        fmt = FORMAT_TSV;
        fields = &prepared;
    } else if (fmt == FORMAT_AUTO) {
        fmt = corpus_format_guess(path);
    }
    if (leak_index_allow(ix, path, err) < 0)
        return -1;
    corpus_reader *r;
    if (corpus_open(&r, path, fmt, fields, 1 << 26, err) < 0)
        return -1;
    raw_example ex;
    int rc;
    size_t n = 0;
    for (;;) {
        rc = corpus_next(r, &ex, err);
        if (rc < 0 && skip_invalid && corpus_error_is_local(r))
            continue;
        if (rc != 1)
            break;
        n++;
        if (leak_index_add(ix, ex.no_premise ? NULL : ex.premise,
                           ex.no_premise ? 0 : ex.premise_len, ex.hypothesis,
                           ex.hypothesis_len, path, ex.lineno, err) < 0 ||
            leak_index_allow(ix, ex.label, err) < 0) {
            rc = -1;
            break;
        }
    }
    corpus_close(r);
    if (rc == 0 && n == 0)
        return tells_error_set(err, path, 0, "no example read: nothing to check against "
                               "(are the field names right?)");
    return rc < 0 ? -1 : 0;
}

int leak_index_add_dataset(leak_index *ix, const dataset *d, tells_error *err)
{
    for (size_t i = 0; i < vocab_size(d->labels); i++)
        if (leak_index_allow(ix, vocab_str(d->labels, i), err) < 0)
            return -1;
    for (size_t i = 0; i < vocab_size(d->splits); i++)
        if (leak_index_allow(ix, vocab_str(d->splits, i), err) < 0)
            return -1;
    if (d->source && leak_index_allow(ix, d->source, err) < 0)
        return -1;
    for (size_t i = 0; i < d->n; i++) {
        const example *e = &d->ex[i];
        bool none = strcmp(e->premise, CORPUS_NO_PREMISE) == 0;
        if (leak_index_add(ix, none ? NULL : e->premise, none ? 0 : strlen(e->premise),
                           e->hypothesis, strlen(e->hypothesis), d->source, e->line, err) < 0)
            return -1;
    }
    return 0;
}

int leak_index_allow(leak_index *ix, const char *text, tells_error *err)
{
    size_t i = 0, start, len = strlen(text);
    word_buf w;
    while ((i = next_word(text, len, i, &w, &start)), w.len > 0)
        if (u64map_put(&ix->allowed, key_of(w.hash), 1) < 0)
            return tells_error_nomem(err, NULL, 0);
    return 0;
}

size_t leak_index_premises(const leak_index *ix, const char *word, size_t len)
{
    word_buf w;
    size_t start;
    next_word(word, len, 0, &w, &start);
    return w.len ? premise_tally_count(&ix->words, w.hash) : 0;
}

/* ---- the scan ---- */

typedef struct scan {
    const leak_index *ix;
    leak_finding *f;
    const char *path;
    bool found;
} scan;

static void finding(scan *sc, leak_kind kind, long line, const char *fragment)
{
    leak_finding *f = sc->f;
    memset(f, 0, sizeof *f);
    f->kind = kind;
    snprintf(f->file, sizeof f->file, "%s", sc->path);
    f->line = line;
    snprintf(f->fragment, sizeof f->fragment, "%s", fragment);
    sc->found = true;
}

/* One segment: a field, a text node or an attribute value. */
static void scan_segment(scan *sc, const char *s, size_t len, long line)
{
    const leak_index *ix = sc->ix;
    word_buf ring[64];
    size_t nw = 0, start, i = 0;
    word_buf w;
    while (!sc->found && (i = next_word(s, len, i, &w, &start), w.len > 0)) {
        ring[nw % 64] = w;
        nw++;
        uint64_t v = 0;
        if (!w.digits && !u64map_get(&ix->allowed, key_of(w.hash), &v) &&
            !redact_own_word(w.w, w.len)) {
            v = premise_tally_count(&ix->words, w.hash);
            if (v > 0 && v < ix->k) {
                finding(sc, LEAK_RARE_WORD, line, w.w);
                sc->f->premises = (size_t)v;
                sc->f->k = ix->k;
                return;
            }
        }
        if (nw < ix->n || ix->n > 64)
            continue;
        uint64_t h = 0, src;
        bool numbers = true;
        for (size_t j = nw - ix->n; j < nw; j++) {
            h = mix(h, ring[j % 64].hash);
            numbers = numbers && ring[j % 64].digits;
        }
        if (numbers || !u64map_get(&ix->ngrams, key_of(h), &src))
            continue;
        char frag[512];
        size_t o = 0;
        for (size_t j = nw - ix->n; j < nw && o < sizeof frag - 1; j++)
            o += (size_t)snprintf(frag + o, sizeof frag - o, "%s%s", j > nw - ix->n ? " " : "",
                                  ring[j % 64].w);
        finding(sc, LEAK_NGRAM, line, frag);
        size_t fi = (size_t)(src >> 40);
        snprintf(sc->f->source, sizeof sc->f->source, "%s", fi < ix->nfiles ? ix->files[fi] : "-");
        sc->f->source_line = (long)(src & ((1ULL << 40) - 1));
    }
}

/* Text: each tab-separated field of each line. */
static void scan_text(scan *sc, const char *buf, size_t len)
{
    long line = 1;
    size_t b = 0;
    for (size_t i = 0; i <= len && !sc->found; i++) {
        if (i == len || buf[i] == '\t' || buf[i] == '\n') {
            scan_segment(sc, buf + b, i - b, line);
            b = i + 1;
            if (i < len && buf[i] == '\n')
                line++;
        }
    }
}

/* Binary: runs of 4 or more printable bytes, and of printable characters
   stored as 2- or 4-byte little-endian code units (UTF-16 text, NumPy's
   strings). */
static void scan_binary(scan *sc, const char *buf, size_t len)
{
    size_t b = 0;
    for (size_t i = 0; i <= len && !sc->found; i++) {
        bool pr = i < len && (unsigned char)buf[i] >= 0x20 && (unsigned char)buf[i] < 0x7f;
        if (!pr) {
            if (i - b >= 4)
                scan_segment(sc, buf + b, i - b, 1);
            b = i + 1;
        }
    }
    char *run = malloc(len / 2 + 1);
    if (!run)
        return;
    static const size_t widths[] = {2, 4};
    for (size_t wi = 0; wi < 2 && !sc->found; wi++) {
        size_t w = widths[wi];
        for (size_t a = 0; a < w && !sc->found; a++) {
            size_t n = 0;
            for (size_t i = a; i <= len && !sc->found; i += w) {
                bool pr = i + w <= len && (unsigned char)buf[i] >= 0x20 &&
                          (unsigned char)buf[i] < 0x7f;
                for (size_t k = 1; pr && k < w; k++)
                    pr = buf[i + k] == 0;
                if (pr) {
                    run[n++] = buf[i];
                    continue;
                }
                if (n >= 4)
                    scan_segment(sc, run, n, 1);
                n = 0;
            }
        }
    }
    free(run);
}

/* Markup. */
static const char *const inline_tags[] = {"a",  "abbr", "b",  "code", "em",  "i",     "kbd",
                                          "mark", "q",  "s",  "small", "span", "strong", "sub",
                                          "sup", "tspan", "tt", "u",   "var", NULL};

static bool is_inline(const char *name, size_t len)
{
    for (size_t i = 0; inline_tags[i]; i++)
        if (strlen(inline_tags[i]) == len && strncasecmp(inline_tags[i], name, len) == 0)
            return true;
    return false;
}

/* Appends the UTF-8 of code point c. */
static size_t put_utf8(char *o, unsigned long c)
{
    if (c < 0x80) {
        o[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (char)(0xc0 | c >> 6);
        o[1] = (char)(0x80 | (c & 63));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (char)(0xe0 | c >> 12);
        o[1] = (char)(0x80 | ((c >> 6) & 63));
        o[2] = (char)(0x80 | (c & 63));
        return 3;
    }
    o[0] = (char)(0xf0 | c >> 18);
    o[1] = (char)(0x80 | ((c >> 12) & 63));
    o[2] = (char)(0x80 | ((c >> 6) & 63));
    o[3] = (char)(0x80 | (c & 63));
    return 4;
}

/* s[0..len) with character references decoded into out (room for len
   bytes: a reference is never shorter than what it stands for). */
static size_t decode_refs(const char *s, size_t len, char *out)
{
    static const struct { const char *name; unsigned long c; } named[] = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", 0xa0},
        {"shy", 0xad}};
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        if (s[i] == '&') {
            size_t j = i + 1;
            while (j < len && j - i < 12 && s[j] != ';')
                j++;
            if (j < len && s[j] == ';') {
                unsigned long c = 0;
                bool ok = false;
                if (j > i + 2 && s[i + 1] == '#') {
                    char *end;
                    char tmp[16];
                    size_t m = j - i - 2;
                    memcpy(tmp, s + i + 2, m);
                    tmp[m] = '\0';
                    c = (tmp[0] == 'x' || tmp[0] == 'X') ? strtoul(tmp + 1, &end, 16)
                                                         : strtoul(tmp, &end, 10);
                    ok = *end == '\0' && c > 0 && c < 0x110000;
                } else {
                    for (size_t k = 0; k < sizeof named / sizeof *named; k++)
                        if (strlen(named[k].name) == j - i - 1 &&
                            strncmp(named[k].name, s + i + 1, j - i - 1) == 0) {
                            c = named[k].c;
                            ok = true;
                        }
                }
                if (ok && put_utf8(out + o, c) <= j - i + 1) {
                    o += put_utf8(out + o, c);
                    i = j + 1;
                    continue;
                }
            }
        }
        out[o++] = s[i++];
    }
    return o;
}

static void markup_segment(scan *sc, const char *s, size_t len, long line)
{
    char *d = malloc(len + 1);
    if (!d) {
        scan_segment(sc, s, len, line);   /* undecoded, still scanned */
        return;
    }
    size_t n = decode_refs(s, len, d);
    scan_segment(sc, d, n, line);
    free(d);
}

static long lines_in(const char *s, size_t from, size_t to, long line)
{
    for (size_t i = from; i < to; i++)
        if (s[i] == '\n')
            line++;
    return line;
}

static void scan_markup(scan *sc, const char *buf, size_t len)
{
    long line = 1, tline = 1;
    bool started = false;
    char *seg = malloc(len + 1);   /* the segment's text, tags dropped */
    size_t sn = 0;
    if (!seg)
        return;
    size_t i = 0;
    while (i < len && !sc->found) {
        if (buf[i] != '<') {
            /* The segment's line: that of its first character that is not
               white space. */
            if (!started && !strchr(" \t\r\n", buf[i])) {
                tline = line;
                started = true;
            }
            if (buf[i] == '\n')
                line++;
            seg[sn++] = buf[i++];
            continue;
        }
        /* A comment, a declaration, or a tag. */
        size_t j;
        if (len - i >= 4 && memcmp(buf + i, "<!--", 4) == 0) {
            /* A comment: a segment of its own (a reader of the file sees
               it). */
            const char *e = memmem(buf + i + 4, len - i - 4, "-->", 3);
            j = e ? (size_t)(e - buf) : len;
            if (sn) {
                markup_segment(sc, seg, sn, tline);
                sn = 0;
                started = false;
            }
            markup_segment(sc, buf + i + 4, j - i - 4, line);
            j = e ? j + 3 : len;
            line = lines_in(buf, i, j, line);
            i = j;
            continue;
        }
        j = i + 1;
        bool closing = j < len && buf[j] == '/';
        if (closing)
            j++;
        size_t nb = j;
        while (j < len && (word_byte((unsigned char)buf[j]) || buf[j] == '-' || buf[j] == ':'))
            j++;
        size_t nlen = j - nb;
        if (!is_inline(buf + nb, nlen) && sn) {
            markup_segment(sc, seg, sn, tline);
            sn = 0;
            started = false;
        }
        /* Attributes, up to '>' (quoted values may hold '>'). */
        while (j < len && buf[j] != '>' && !sc->found) {
            if (!word_byte((unsigned char)buf[j])) {
                j++;
                continue;
            }
            size_t ab = j;
            while (j < len && (word_byte((unsigned char)buf[j]) || buf[j] == '-' || buf[j] == ':'))
                j++;
            size_t alen = j - ab;
            while (j < len && (buf[j] == ' ' || buf[j] == '\n' || buf[j] == '\t'))
                j++;
            if (j >= len || buf[j] != '=')
                continue;
            j++;
            while (j < len && (buf[j] == ' ' || buf[j] == '\n' || buf[j] == '\t'))
                j++;
            size_t vb, ve;
            if (j < len && (buf[j] == '"' || buf[j] == '\'')) {
                char q = buf[j++];
                vb = j;
                while (j < len && buf[j] != q)
                    j++;
                ve = j;
                if (j < len)
                    j++;
            } else {
                vb = j;
                while (j < len && buf[j] != '>' && buf[j] != ' ' && buf[j] != '\n')
                    j++;
                ve = j;
            }
            bool shown = (alen == 5 && strncasecmp(buf + ab, "title", 5) == 0) ||
                         (alen == 3 && strncasecmp(buf + ab, "alt", 3) == 0) ||
                         (alen == 10 && strncasecmp(buf + ab, "aria-label", 10) == 0);
            if (shown)
                markup_segment(sc, buf + vb, ve - vb, lines_in(buf, i, vb, line));
        }
        if (j < len)
            j++;
        line = lines_in(buf, i, j, line);
        i = j;
        /* <style> and <script>: their contents, read as text (no tags
           inside), each line a segment. */
        if (!closing && ((nlen == 5 && strncasecmp(buf + nb, "style", 5) == 0) ||
                         (nlen == 6 && strncasecmp(buf + nb, "script", 6) == 0))) {
            char endtag[16];
            snprintf(endtag, sizeof endtag, "</%.*s", (int)nlen, buf + nb);
            size_t k = i;
            while (k + nlen + 2 <= len && strncasecmp(buf + k, endtag, nlen + 2) != 0)
                k++;
            if (k + nlen + 2 > len)
                k = len;
            for (size_t b = i, e; b < k && !sc->found; b = e + 1) {
                for (e = b; e < k && buf[e] != '\n'; e++)
                    ;
                scan_segment(sc, buf + b, e - b, line);
                if (e < k)
                    line++;
            }
            i = k;
        }
    }
    if (sn && !sc->found)
        markup_segment(sc, seg, sn, tline);
    free(seg);
}

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

int leak_scan_buffer(const leak_index *ix, const char *path, const char *buf, size_t len,
                     leak_finding *f)
{
    scan sc = {.ix = ix, .f = f, .path = path};
    if (memchr(buf, '\0', len))
        scan_binary(&sc, buf, len);
    else if (has_ext(path, ".html") || has_ext(path, ".htm") || has_ext(path, ".svg"))
        scan_markup(&sc, buf, len);
    else
        scan_text(&sc, buf, len);
    return sc.found ? 1 : 0;
}

int leak_scan_file(const leak_index *ix, const char *path, leak_finding *f, tells_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tells_error_io(err, path, 0, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536) {
            size_t nc = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, nc);
            if (!nb) {
                free(buf);
                fclose(fp);
                return tells_error_nomem(err, path, 0);
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return tells_error_io(err, path, 0, "cannot read");
    }
    int rc = leak_scan_buffer(ix, path, buf, n, f);
    free(buf);
    return rc;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct walk {
    const leak_index *ix;
    leak_found_fn found;
    void *user;
    long hits, files;
    bool stop;
} walk;

static int walk_path(walk *w, const char *p, tells_error *err);

static int walk_dir(walk *w, const char *dir, tells_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return tells_error_io(err, dir, 0, "cannot open the folder: %s", strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = tells_error_nomem(err, dir, 0);
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = tells_error_nomem(err, dir, 0);
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; rc == 0 && !w->stop && i < n; i++) {
        size_t plen = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(plen);
        if (!p) {
            rc = tells_error_nomem(err, dir, 0);
            break;
        }
        snprintf(p, plen, "%s/%s", dir, names[i]);
        rc = walk_path(w, p, err);
        free(p);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

static int walk_path(walk *w, const char *p, tells_error *err)
{
    struct stat st;
    if (lstat(p, &st) != 0)
        return tells_error_io(err, p, 0, "cannot read: %s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return walk_dir(w, p, err);
    if (!S_ISREG(st.st_mode))
        return tells_error_set(err, p, 0, "neither a file nor a folder: not scanned");
    leak_finding f;
    int rc = leak_scan_file(w->ix, p, &f, err);
    if (rc < 0)
        return -1;
    w->files++;
    if (rc == 1) {
        w->hits++;
        if (!w->found(&f, w->user))
            w->stop = true;
    }
    return 0;
}

long leak_scan_path(const leak_index *ix, const char *path, leak_found_fn found, void *user,
                    long *files, tells_error *err)
{
    walk w = {.ix = ix, .found = found, .user = user};
    int rc = walk_path(&w, path, err);
    if (files)
        *files = w.files;
    return rc < 0 ? -1 : w.hits;
}

void leak_finding_text(const leak_finding *f, char *buf, size_t size)
{
    if (f->kind == LEAK_NGRAM)
        snprintf(buf, size, "'%s' is corpus text (%s:%ld)", f->fragment, f->source,
                 f->source_line);
    else
        snprintf(buf, size, "'%s' is a corpus word of %zu premise%s, fewer than %zu",
                 f->fragment, f->premises, f->premises == 1 ? "" : "s", f->k);
}
