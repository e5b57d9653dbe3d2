/* The tokeniser every tells program shares, so that a token means the
   same thing in preparation, phrase learning and lexicon matching. */
#ifndef TELLS_TOKENIZE_H
#define TELLS_TOKENIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum { TOKENIZER_DEFAULT, TOKENIZER_WHITESPACE } tokenizer_kind;

typedef struct tok_options {
    tokenizer_kind kind;
    bool keep_case;
    bool keep_punct;   /* default tokenizer only */
} tok_options;

/* Tokens as NUL-terminated strings in one buffer. */
typedef struct token_list {
    char *buf;
    size_t used, cap;
    size_t *off, *len;
    size_t n, ncap;
} token_list;

void token_list_init(token_list *t);
void token_list_free(token_list *t);
void token_list_clear(token_list *t);
static inline const char *token_at(const token_list *t, size_t i)
{
    return t->buf + t->off[i];
}
/* Appends a token; returns -1 when out of memory. */
int token_list_push(token_list *t, const char *s, size_t len);
/* Appends parts joined by sep as one token. */
int token_list_push_joined(token_list *t, const token_list *src, size_t from,
                           size_t count, char sep);
/* Appends the tokens separated by single spaces to *buf (of *cap bytes,
   *len used), growing it; -1 when out of memory. */
int token_list_join(const token_list *t, char **buf, size_t *len, size_t *cap);

/* Parses "default" or "whitespace"; returns -1 if neither. */
int tokenizer_parse(const char *name, tokenizer_kind *kind);
/* The character at s[0..len) lowercased as the tokenizer lowercases
   text (ASCII letters, and Latin-1's U+00C0 to U+00DE but U+00D7): its
   1 or 2 bytes into out; returns how many bytes of s it took (1 or 2). A
   byte of anything else is itself. */
static inline size_t tok_fold_char(const unsigned char *s, size_t len, unsigned char out[2])
{
    if (s[0] == 0xC3 && len > 1 && s[1] >= 0x80 && s[1] <= 0x9E && s[1] != 0x97) {
        out[0] = 0xC3;
        out[1] = (unsigned char)(s[1] + 0x20);  /* U+00C0..U+00DE to U+00E0..U+00FE */
        return 2;
    }
    out[0] = (unsigned char)(s[0] >= 'A' && s[0] <= 'Z' ? s[0] + ('a' - 'A') : s[0]);
    return 1;
}

/* Tokenises text (valid UTF-8) into out, which is cleared first.
   Returns -1 when out of memory. */
int tokenize(const tok_options *opt, const char *text, size_t len,
             token_list *out);

#endif
