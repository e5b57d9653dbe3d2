#include <config.h>
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tells_error_clear(tells_error *err)
{
    if (err) {
        err->file[0] = '\0';
        err->line = 0;
        err->msg[0] = '\0';
    }
}

int tells_error_setv(tells_error *err, const char *file, long line,
                     const char *fmt, va_list ap)
{
    if (!err)
        return -1;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return -1;
}

int tells_error_set(tells_error *err, const char *file, long line,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tells_error_setv(err, file, line, fmt, ap);
    va_end(ap);
    return -1;
}

void tells_error_format(const tells_error *err, char *buf, size_t size)
{
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%ld: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, size, "%s", err->msg);
}
