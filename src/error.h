/* Error reports from the library: a file, a line and one sentence.
   The library never prints; program mains turn these into
   "tells-x: FILE:LINE: message" on stderr. */
#ifndef TELLS_ERROR_H
#define TELLS_ERROR_H

#include <stdarg.h>
#include <stddef.h>

typedef struct tells_error {
    char file[1024];  /* "" when the error is not about a file */
    long line;        /* 0 when not about one line */
    char msg[1024];
} tells_error;

void tells_error_clear(tells_error *err);
/* Sets err (which may be NULL) and returns -1, so callers can write
   "return tells_error_set(...)". */
int tells_error_set(tells_error *err, const char *file, long line,
                    const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int tells_error_setv(tells_error *err, const char *file, long line,
                     const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* Formats "FILE:LINE: msg", "FILE: msg" or "msg" into buf. */
void tells_error_format(const tells_error *err, char *buf, size_t size);

#endif
