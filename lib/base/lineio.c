#include <config.h>
#include "base/lineio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/ioplan.h"

enum { READ_CHUNK = 1 << 20 };

const char *display_name(const char *path)
{
    return (!path || strcmp(path, "-") == 0) ? "stdin" : path;
}

int stdin_claim(tells_error *err)
{
    static bool claimed;
    if (__atomic_exchange_n(&claimed, true, __ATOMIC_RELAXED))
        return tells_error_setk(err, TELLS_ERR_USAGE, "stdin", 0, "already read for another "
                                "input ('-' can stand for one input only)");
    return 0;
}

int line_reader_open_at(line_reader *r, const char *path, size_t max_line,
                        uint64_t offset, tells_error *err)
{
    if (line_reader_open(r, path, max_line, err) < 0)
        return -1;
    if (offset && fseeko(r->fp, (off_t)offset, SEEK_SET) != 0) {
        int e = errno;
        line_reader_close(r);
        return tells_error_io(err, display_name(path), 0, "cannot seek: %s",
                               strerror(e));
    }
    r->pos = offset;
    return 0;
}

int line_reader_open(line_reader *r, const char *path, size_t max_line,
                     tells_error *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", display_name(path));
    if (!path || strcmp(path, "-") == 0) {
        if (stdin_claim(err) < 0)
            return -1;
        r->fp = stdin;
    } else {
        r->fp = fopen(path, "rb");
        if (!r->fp)
            return tells_error_io(err, r->name, 0, "cannot open: %s",
                                   strerror(errno));
        r->owns_fp = true;
    }
    io_note_read(fileno(r->fp));
    r->max_line = max_line ? max_line : LINE_MAX_DEFAULT;
    /* A small regular file gets a buffer its size: many small files are
       read in a run (lexicons, id files, the fuzzers' inputs). */
    r->chunk = READ_CHUNK;
    struct stat st;
    if (fstat(fileno(r->fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
        (uint64_t)st.st_size < READ_CHUNK / 2)
        r->chunk = 2 * ((size_t)st.st_size + 4096);
    r->cap = r->chunk + 1;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        line_reader_close(r);
        return tells_error_nomem(err, r->name, 0);
    }
    return 0;
}

void line_reader_close(line_reader *r)
{
    if (r->owns_fp && r->fp)
        fclose(r->fp);
    r->fp = NULL;
    free(r->buf);
    r->buf = NULL;
}

/* Moves the unread tail to the front and reads more; returns bytes read,
   0 at end of file, -1 on error. */
static long refill(line_reader *r, tells_error *err)
{
    size_t tail = r->end - r->start;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, tail);
        r->start = 0;
        r->end = tail;
    }
    /* Room for half a chunk and the terminating NUL at least. */
    if (ARRAY_RESERVE(r->buf, r->cap, r->end + 1 + r->chunk / 2) < 0)
        return tells_error_nomem(err, r->name, r->lineno + 1);
    size_t n = fread(r->buf + r->end, 1, r->cap - 1 - r->end, r->fp);
    if (n == 0 && ferror(r->fp))
        return tells_error_io(err, r->name, r->lineno + 1, "read error: %s",
                               strerror(errno));
    r->end += n;
    return (long)n;
}

static int too_long(line_reader *r, tells_error *err)
{
    return tells_error_set(err, r->name, r->lineno + 1,
                           "line longer than %zu bytes", r->max_line);
}

static const char utf8_bom[3] = {'\xEF', '\xBB', '\xBF'};

/* Hands out the line of n bytes at r->start (its end not included) and
   moves past it and its skip-byte line end. */
static int take_line(line_reader *r, char **line, size_t *len, size_t n, size_t skip)
{
    char *s = r->buf + r->start;
    r->start += n + skip;
    r->line_start = r->pos;
    r->pos += n + skip;
    if (n > 0 && s[n - 1] == '\r')
        n--;
    s[n] = '\0';
    if (r->line_start == 0 && n >= 3 && memcmp(s, utf8_bom, 3) == 0) {
        s += 3;
        n -= 3;
    }
    *line = s;
    *len = n;
    r->lineno++;
    return 1;
}

int line_reader_next(line_reader *r, char **line, size_t *len,
                     tells_error *err)
{
    size_t scanned = 0;
    for (;;) {
        char *from = r->buf + r->start + scanned;
        char *nl = memchr(from, '\n', r->end - r->start - scanned);
        if (nl) {
            size_t n = (size_t)(nl - (r->buf + r->start));
            if (n > r->max_line)
                return too_long(r, err);
            return take_line(r, line, len, n, 1);
        }
        scanned = r->end - r->start;
        if (scanned > r->max_line)
            return too_long(r, err);
        if (r->eof) {
            if (scanned == 0)
                return 0;
            /* A last line without a newline is still a line. */
            return take_line(r, line, len, scanned, 0);
        }
        long got = refill(r, err);
        if (got < 0)
            return -1;
        if (got == 0)
            r->eof = true;
    }
}

bool line_is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return true;
}

int line_reader_header(line_reader *r, char **line, size_t *len, tells_error *err)
{
    int rc = line_reader_next(r, line, len, err);
    if (rc != 1 || !line_is_blank(*line, *len))
        return rc;
    char *next;
    size_t n;
    while ((rc = line_reader_next(r, &next, &n, err)) == 1)
        if (!line_is_blank(next, n)) {
            r->blank[0] = '\0';
            *line = r->blank;
            *len = 0;
            return 1;
        }
    return rc;
}
