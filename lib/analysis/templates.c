/* Templates (analysis/templates.h): test types and the placeholders'
   grammar, which the other pieces read through templates-impl.h:
   loading in templates-load.c, bases in templates-bases.c, fill-ins in
   templates-fill.c, expansion in templates-expand.c. */
#include <config.h>
#include "analysis/templates.h"
#include "analysis/templates-impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

const char *test_type_name(test_type t)
{
    return t == TEST_INV ? "INV" : t == TEST_DIR ? "DIR" : "MFT";
}

/* ---- placeholders ---- */

/* The grammar: a placeholder is "{" ["a:"] NAME "}", NAME being
   [A-Za-z_][A-Za-z0-9_]*; braces are for nothing else. template_check
   refuses every other brace when a table is read, so that expansion
   only ever meets well-formed placeholders. */

/* ASCII whatever the locale. */
static bool name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9');
}

/* The 1-based column of byte offset at in s, in characters. */
static size_t column_of(const char *s, size_t at)
{
    size_t col = 1;
    for (size_t i = 0; i < at; i++)
        col += ((unsigned char)s[i] & 0xC0) != 0x80;
    return col;
}

/* At most 40 bytes of s[0..len) for a message, cut at a character. */
static int shown_len(const char *s, size_t len)
{
    if (len <= 40)
        return (int)len;
    len = 40;
    while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
        len--;
    return (int)len;
}

/* A syntax error at a column of a template's field: FILE:LINE:COLUMN. */
__attribute__((format(printf, 6, 7)))
static int syntax_error(tells_error *err, const char *file, long line, const char *field,
                        size_t column, const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tells_error_set(err, file, line, "%s%s%s", msg, field ? " in the " : "", field ? field : "");
    tells_error_at_column(err, (long)column);
    return -1;
}

int template_check(const char *text, const char *file, long line, const char *field,
                   tells_error *err)
{
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == '}')
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'}' without an opening '{'");
        if (text[i] != '{')
            continue;
        if (text[i + 1] == '{')
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'{{' (braces only enclose placeholders: {name} or {a:name})");
        size_t end = i + 1;
        while (text[end] && text[end] != '}' && text[end] != '{')
            end++;
        if (!text[end])
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'{' without a closing '}'");
        if (text[end] == '{') {
            /* "{a{b}}" nests; "{ade on {drug}" leaves the first open. */
            bool nested = true;
            for (size_t k = i + 1; k < end; k++)
                nested &= name_char(text[k]) || text[k] == ':';
            if (nested)
                return syntax_error(err, file, line, field, column_of(text, end),
                                    "'{' inside a placeholder");
            return syntax_error(err, file, line, field, column_of(text, i),
                                "'{' without a closing '}'");
        }
        const char *in = text + i + 1;
        size_t len = end - i - 1;
        if (len == 0)
            return syntax_error(err, file, line, field, column_of(text, i),
                                "empty placeholder '{}'");
        const char *colon = memchr(in, ':', len);
        const char *name = in;
        if (colon) {
            if (colon - in != 1 || in[0] != 'a')
                return syntax_error(err, file, line, field, column_of(text, i + 1),
                                    "unknown prefix '%.*s:' (only {a:name}, for the article)",
                                    shown_len(in, (size_t)(colon - in)), in);
            name = colon + 1;
            if (name == text + end)
                return syntax_error(err, file, line, field, column_of(text, i),
                                    "'{a:}' without a placeholder name");
        }
        size_t nlen = (size_t)(text + end - name);
        bool ok = name_start(name[0]);
        for (size_t k = 1; ok && k < nlen; k++)
            ok = name_char(name[k]);
        if (!ok)
            return syntax_error(err, file, line, field, column_of(text, (size_t)(name - text)),
                                "bad placeholder name '%.*s' (letters, digits and '_', not "
                                "starting with a digit)",
                                shown_len(name, nlen), name);
        i = end;
    }
    return 0;
}

/* Scans a placeholder at s ('{'): sets *name, *len and *article and
   returns the length of the whole "{...}", or 0 when s does not start
   one (text that passed template_check has no other brace). */
size_t tpl_placeholder_at(const char *s, const char **name, size_t *len,
                          bool *article)
{
    if (s[0] != '{')
        return 0;
    size_t i = 1;
    *article = false;
    if (s[1] == 'a' && s[2] == ':') {
        *article = true;
        i = 3;
    }
    size_t start = i;
    if (!name_start(s[i]))
        return 0;
    while (name_char(s[i]))
        i++;
    if (s[i] != '}')
        return 0;
    *name = s + start;
    *len = i - start;
    return i + 1;
}

/* The placeholders of the premise (may be NULL), then of the text. */
int tpl_add_slots(template_row *t, const char *premise, const char *text)
{
    size_t cap = 0;
    const char *texts[2] = {premise, text};
    for (int i = 0; i < 2; i++)
        for (const char *p = texts[i]; p && *p; p++) {
            const char *name;
            size_t len;
            bool art;
            size_t k = tpl_placeholder_at(p, &name, &len, &art);
            if (!k)
                continue;
            bool seen = false;
            for (size_t j = 0; j < t->nslots; j++)
                if (strlen(t->slots[j]) == len && memcmp(t->slots[j], name, len) == 0)
                    seen = true;
            if (!seen) {
                if (ARRAY_RESERVE(t->slots, cap, t->nslots + 1) < 0 ||
                    !(t->slots[t->nslots] = strndup(name, len)))
                    return -1;
                t->nslots++;
            }
            p += k - 1;
        }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *template_slot_set(const template_row *t)
{
    char **sorted = malloc((t->nslots + 1) * sizeof *sorted);
    if (!sorted)
        return NULL;
    size_t total = 1;
    for (size_t k = 0; k < t->nslots; k++) {
        sorted[k] = t->slots[k];
        total += strlen(t->slots[k]) + 1;
    }
    qsort(sorted, t->nslots, sizeof *sorted, cmp_str);
    char *out = malloc(total + 1);
    if (out) {
        out[0] = '\0';
        for (size_t k = 0; k < t->nslots; k++) {
            if (k)
                strcat(out, ",");
            strcat(out, sorted[k]);
        }
        if (t->nslots == 0)
            strcpy(out, "-");
    }
    free(sorted);
    return out;
}
