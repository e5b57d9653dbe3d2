/* Error reports from the library: a kind, a file, a line and one
   sentence. The library never prints or exits; a program turns these
   into "tells-x: FILE:LINE: message" on stderr and picks its exit
   status from the kind alone (usage 2, every other kind 1), never from
   the text. Messages describe the data or the value that is wrong; the
   program, which knows which option supplied it, adds that name. */
#ifndef TELLS_ERROR_H
#define TELLS_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tells_error_kind {
    TELLS_ERR_NONE = 0,   /* cleared: nothing went wrong (yet) */
    TELLS_ERR_DATA,       /* an input's content is wrong */
    TELLS_ERR_USAGE,      /* a value the caller passed is malformed or out
                             of range: a usage error when it came from the
                             command line */
    TELLS_ERR_IO,         /* the system refused: open, read, write, a
                             process or a thread */
    TELLS_ERR_NOMEM       /* out of memory */
} tells_error_kind;

/* Conditions on which a program may advise in terms of its own options
   (see cli_hint): the library's message stays about the data. */
typedef enum tells_error_code {
    TELLS_E_GENERIC = 0,
    TELLS_E_NOT_PREPARED,   /* the first line is no prepared-TSV header */
    TELLS_E_NOT_COUNTS,     /* not a counts file */
    TELLS_E_NO_FILL,        /* a placeholder without values; subject: its name */
    TELLS_E_NOT_A_CLASS,    /* a test label the model does not have */
    TELLS_E_FEW_ANSWERS,    /* a predictions file ended before the cases */
    TELLS_E_NO_EVAL_SPLIT,  /* no split but the training one; subject: it */
    TELLS_E_TOO_MANY_CASES, /* templates would make more cases than allowed */
    TELLS_E_LOG             /* the file named is a log that says more */
} tells_error_code;

typedef struct tells_error {
    tells_error_kind kind;
    tells_error_code code;
    char subject[128];  /* what the code is about (a name), or "" */
    char file[1024];  /* "" when the error is not about a file */
    long line;        /* 0 when not about one line */
    long column;      /* 0 when not about one column (in characters) */
    char msg[1024];
} tells_error;

void tells_error_clear(tells_error *err);

/* Each setter fills err (which may be NULL) and returns -1, so callers
   can write "return tells_error_data(...)". */
int tells_error_setk(tells_error *err, tells_error_kind kind, const char *file,
                     long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int tells_error_setv(tells_error *err, tells_error_kind kind, const char *file,
                     long line, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
/* A data error: the common case, hence the short name. */
int tells_error_set(tells_error *err, const char *file, long line,
                    const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A bad value from the caller; no file. */
int tells_error_usage(tells_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The system refused; the message usually ends with strerror(errno). */
int tells_error_io(tells_error *err, const char *file, long line,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "out of memory", at file and line when they are known. */
int tells_error_nomem(tells_error *err, const char *file, long line);

/* Marks the error just set as condition code about subject (may be
   NULL); the setters above reset both. */
void tells_error_tag(tells_error *err, tells_error_code code, const char *subject);

/* Marks the error just set as being at column col of its line. */
void tells_error_at_column(tells_error *err, long col);

/* Puts "prefix: " before the message (an option name, a context). */
void tells_error_prefix(tells_error *err, const char *prefix);
/* Puts prefix and sep before the message ("--sample" " " "drug=5: ..."). */
void tells_error_prefix_sep(tells_error *err, const char *prefix, const char *sep);
/* Formats "FILE:LINE:COLUMN: msg", "FILE:LINE: msg", "FILE: msg" or
   "msg" into buf. */
void tells_error_format(const tells_error *err, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
