/* Line-by-line reading of files or standard input with line numbers.
   Accepts LF and CRLF line ends and a last line without a newline;
   refuses lines longer than a limit instead of growing without bound.
   A UTF-8 byte-order mark at the start of the input is dropped: every
   format tells reads is UTF-8 text, and editors on Windows write one.
   (A reader opened at an offset other than 0 sees no start.) */
#ifndef TELLS_LINEIO_H
#define TELLS_LINEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

enum { LINE_MAX_DEFAULT = 1 << 20 };  /* 1 MiB */

typedef struct line_reader {
    FILE *fp;
    bool owns_fp;
    char name[1024];   /* file name used in messages; "-" is "stdin" */
    char *buf;
    size_t cap, start, end;
    size_t chunk;          /* bytes read at a time: less for small files */
    size_t max_line;
    long lineno;
    bool eof;
    uint64_t pos;          /* file offset of the next unread byte */
    uint64_t line_start;   /* file offset of the line last returned */
    char blank[1];         /* the blank first line of line_reader_header */
} line_reader;

/* path "-" or NULL reads standard input (see stdin_claim). */
int line_reader_open(line_reader *r, const char *path, size_t max_line,
                     tells_error *err);
/* Standard input can be read once: every reader of it claims it first,
   and a second claim in the process ("-" given for two inputs, or for
   one that is read twice) is a usage error, "stdin: already read for
   another input", rather than an empty second input. 0 on the first
   claim. */
int stdin_claim(tells_error *err);
/* Opens a regular file positioned at byte offset. */
int line_reader_open_at(line_reader *r, const char *path, size_t max_line,
                        uint64_t offset, tells_error *err);
/* Returns 1 with *line (NUL-terminated, no line end) and *len set,
   0 at end of input, -1 on error. The line stays valid until the next
   call. */
int line_reader_next(line_reader *r, char **line, size_t *len,
                     tells_error *err);
void line_reader_close(line_reader *r);

/* Whether a line holds nothing but spaces and tabs. */
bool line_is_blank(const char *s, size_t len);
/* line_reader_next for the first line of a format with a header: an
   input of blank lines only reads as empty (0), not as a malformed
   header. A blank first line before other lines is returned (as "");
   r->lineno is past it then, so header errors name line 1. */
int line_reader_header(line_reader *r, char **line, size_t *len, tells_error *err);

/* The name to use in messages for a path ("-" becomes "stdin"). */
const char *display_name(const char *path);

#endif
