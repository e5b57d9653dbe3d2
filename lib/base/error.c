#include <config.h>
#include "base/error.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void tells_error_clear(tells_error *err)
{
    if (err) {
        err->kind = TELLS_ERR_NONE;
        err->code = TELLS_E_GENERIC;
        err->subject[0] = '\0';
        err->file[0] = '\0';
        err->line = 0;
        err->column = 0;
        err->msg[0] = '\0';
    }
}

/* Data quoted in a message must not break its line or act on a
   terminal: control characters other than tab become C escapes. */
static void escape_controls(char *s, size_t size)
{
    char out[4096];  /* both callers pass 1024 bytes; an escape is 4 */
    size_t n = 0;
    bool changed = false;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < sizeof out; p++) {
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
            n += (size_t)snprintf(out + n, sizeof out - n, *p == '\n' ? "\\n"
                                  : *p == '\r' ? "\\r" : "\\x%02x", *p);
            changed = true;
        } else {
            out[n++] = (char)*p;
        }
    }
    if (!changed)
        return;
    out[n] = '\0';
    if (n >= size) {
        n = size - 1;
        /* Not in the middle of an escape or a UTF-8 sequence. */
        while (n > 0 && ((out[n] & 0xc0) == 0x80))
            n--;
        size_t back = n;
        while (back > 0 && n - back < 4 && out[back] != '\\')
            back--;
        if (out[back] == '\\' && n - back < 4)
            n = back;
    }
    memcpy(s, out, n);
    s[n] = '\0';
}

int tells_error_setv(tells_error *err, tells_error_kind kind, const char *file,
                     long line, const char *fmt, va_list ap)
{
    if (!err)
        return -1;
    /* The file name may be err->file itself (an error re-raised with a
       new message): copy it before writing. */
    char name[sizeof err->file];
    snprintf(name, sizeof name, "%s", file ? file : "");
    escape_controls(name, sizeof name);
    memcpy(err->file, name, sizeof name);
    err->kind = kind;
    err->code = TELLS_E_GENERIC;
    err->subject[0] = '\0';
    err->line = line;
    err->column = 0;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    escape_controls(err->msg, sizeof err->msg);
    return -1;
}

int tells_error_setk(tells_error *err, tells_error_kind kind, const char *file,
                     long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tells_error_setv(err, kind, file, line, fmt, ap);
    va_end(ap);
    return -1;
}

int tells_error_set(tells_error *err, const char *file, long line,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tells_error_setv(err, TELLS_ERR_DATA, file, line, fmt, ap);
    va_end(ap);
    return -1;
}

int tells_error_usage(tells_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tells_error_setv(err, TELLS_ERR_USAGE, NULL, 0, fmt, ap);
    va_end(ap);
    return -1;
}

int tells_error_io(tells_error *err, const char *file, long line,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tells_error_setv(err, TELLS_ERR_IO, file, line, fmt, ap);
    va_end(ap);
    return -1;
}

int tells_error_nomem(tells_error *err, const char *file, long line)
{
    return tells_error_setk(err, TELLS_ERR_NOMEM, file, line, "out of memory");
}

void tells_error_tag(tells_error *err, tells_error_code code, const char *subject)
{
    if (!err)
        return;
    err->code = code;
    snprintf(err->subject, sizeof err->subject, "%s", subject ? subject : "");
}

void tells_error_at_column(tells_error *err, long col)
{
    if (err)
        err->column = col;
}

void tells_error_prefix(tells_error *err, const char *prefix)
{
    tells_error_prefix_sep(err, prefix, ": ");
}

void tells_error_prefix_sep(tells_error *err, const char *prefix, const char *sep)
{
    if (!err)
        return;
    char msg[sizeof err->msg * 2];
    snprintf(msg, sizeof msg, "%s%s%s", prefix, sep, err->msg);
    size_t n = strlen(msg);
    if (n >= sizeof err->msg)
        n = sizeof err->msg - 1;
    memcpy(err->msg, msg, n);
    err->msg[n] = '\0';
}

void tells_error_format(const tells_error *err, char *buf, size_t size)
{
    if (err->file[0] && err->line > 0 && err->column > 0)
        snprintf(buf, size, "%s:%ld:%ld: %s", err->file, err->line, err->column, err->msg);
    else if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%ld: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, size, "%s", err->msg);
}
