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

/* Tokenises text (valid UTF-8) into out, which is cleared first.
   Returns -1 when out of memory. */
int tokenize(const tok_options *opt, const char *text, size_t len,
             token_list *out);

#endif
