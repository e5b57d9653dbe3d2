#include <config.h>
#include "text/tokenize.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void token_list_init(token_list *t) { memset(t, 0, sizeof *t); }

void token_list_free(token_list *t)
{
    free(t->buf);
    free(t->off);
    free(t->len);
    token_list_init(t);
}

void token_list_clear(token_list *t)
{
    t->used = 0;
    t->n = 0;
}

/* Room for one more token of `bytes` bytes (its NUL included). Only a
   comparison each unless something must grow. */
static int reserve(token_list *t, size_t bytes)
{
    if (ARRAY_RESERVE_MIN(t->buf, t->cap, t->used + bytes, 256) < 0)
        return -1;
    if (t->n < t->ncap)
        return 0;
    /* off and len share ncap: len grows first, on a copy of it, so that
       ncap only counts once both have grown. */
    size_t len_cap = t->ncap;
    return ARRAY_RESERVE_MIN(t->len, len_cap, t->n + 1, 32) < 0 ||
           ARRAY_RESERVE_MIN(t->off, t->ncap, t->n + 1, 32) < 0 ? -1 : 0;
}

int token_list_push(token_list *t, const char *s, size_t len)
{
    if (reserve(t, len + 1) < 0)
        return -1;
    memcpy(t->buf + t->used, s, len);
    t->buf[t->used + len] = '\0';
    t->off[t->n] = t->used;
    t->len[t->n] = len;
    t->n++;
    t->used += len + 1;
    return 0;
}

int token_list_push_joined(token_list *t, const token_list *src, size_t from,
                           size_t count, char sep)
{
    size_t total = 0;
    for (size_t i = from; i < from + count; i++)
        total += src->len[i] + 1;
    if (reserve(t, total) < 0)
        return -1;
    char *p = t->buf + t->used;
    for (size_t i = from; i < from + count; i++) {
        if (i > from)
            *p++ = sep;
        memcpy(p, token_at(src, i), src->len[i]);
        p += src->len[i];
    }
    *p = '\0';
    t->off[t->n] = t->used;
    t->len[t->n] = (size_t)(p - (t->buf + t->used));
    t->n++;
    t->used += t->len[t->n - 1] + 1;
    return 0;
}

int token_list_join(const token_list *t, char **buf, size_t *len, size_t *cap)
{
    /* Tokens are stored NUL-separated: the joined text is the buffer with
       each NUL made a space. */
    if (ARRAY_RESERVE_MIN(*buf, *cap, *len + t->used + 1, 1024) < 0)
        return -1;
    if (t->n == 0)
        return 0;
    char *dst = *buf + *len;
    memcpy(dst, t->buf, t->used - 1);
    for (size_t i = 1; i < t->n; i++)
        dst[t->off[i] - 1] = ' ';
    *len += t->used - 1;
    return 0;
}

int tokenizer_parse(const char *name, tokenizer_kind *kind)
{
    if (strcmp(name, "default") == 0)
        *kind = TOKENIZER_DEFAULT;
    else if (strcmp(name, "whitespace") == 0)
        *kind = TOKENIZER_WHITESPACE;
    else
        return -1;
    return 0;
}

/* Length of a whitespace character at s (ASCII or U+00A0), else 0. */
static size_t space_len(const unsigned char *s, const unsigned char *end)
{
    switch (*s) {
    case ' ': case '\t': case '\n': case '\r': case '\v': case '\f':
        return 1;
    case 0xC2:
        return (s + 1 < end && s[1] == 0xA0) ? 2 : 0;
    default:
        return 0;
    }
}

/* Multibyte UTF-8 counts as a letter: clinical text has few non-ASCII
   symbols, and splitting accented words would be worse. */
static int is_word_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static int is_connector(unsigned char c)
{
    return c == '\'' || c == '-' || c == '.';
}

/* Appends text[0..len) lowercased (ASCII and Latin-1 letters) unless
   keep_case. */
static int push_cased(token_list *t, const tok_options *opt,
                      const unsigned char *s, size_t len)
{
    if (token_list_push(t, (const char *)s, len) < 0)
        return -1;
    if (opt->keep_case)
        return 0;
    /* tok_fold_char, its one-byte cases from a table built with it. */
    static unsigned char lower[256];
    if (!lower['a'])
        for (int c = 0; c < 256; c++) {
            unsigned char b = (unsigned char)c, out[2];
            tok_fold_char(&b, 1, out);
            lower[c] = out[0];
        }
    unsigned char *p = (unsigned char *)t->buf + t->off[t->n - 1];
    for (size_t i = 0; i < len; i++) {
        p[i] = lower[p[i]];
        if (p[i] == 0xC3)
            i += tok_fold_char(p + i, len - i, p + i) - 1;
    }
    return 0;
}

static int tokenize_whitespace(const tok_options *opt, const unsigned char *s,
                               const unsigned char *end, token_list *out)
{
    while (s < end) {
        size_t sp = space_len(s, end);
        if (sp) {
            s += sp;
            continue;
        }
        const unsigned char *start = s;
        while (s < end && !space_len(s, end))
            s++;
        if (push_cased(out, opt, start, (size_t)(s - start)) < 0)
            return -1;
    }
    return 0;
}

static int tokenize_default(const tok_options *opt, const unsigned char *s,
                            const unsigned char *end, token_list *out)
{
    while (s < end) {
        size_t sp = space_len(s, end);
        if (sp) {
            s += sp;
            continue;
        }
        const unsigned char *start = s;
        if (is_word_byte(*s)) {
            /* A word: word bytes, plus ' - . standing between two of them. */
            while (s < end) {
                if (is_word_byte(*s) && !space_len(s, end))
                    s++;
                else if (is_connector(*s) && s + 1 < end &&
                         is_word_byte(s[1]) && !space_len(s + 1, end))
                    s++;
                else
                    break;
            }
            if (push_cased(out, opt, start, (size_t)(s - start)) < 0)
                return -1;
        } else {
            /* One punctuation character is one token. */
            s++;
            if (opt->keep_punct &&
                token_list_push(out, (const char *)start, 1) < 0)
                return -1;
        }
    }
    return 0;
}

int tokenize(const tok_options *opt, const char *text, size_t len,
             token_list *out)
{
    token_list_clear(out);
    const unsigned char *s = (const unsigned char *)text;
    if (opt->kind == TOKENIZER_WHITESPACE)
        return tokenize_whitespace(opt, s, s + len, out);
    return tokenize_default(opt, s, s + len, out);
}
