#include <config.h>
#include "idfile.h"

#include <stdlib.h>
#include <string.h>

#include "lineio.h"
#include "utf8.h"

int id_set_load(id_set *s, const char *path, tells_error *err)
{
    memset(s, 0, sizeof *s);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    s->ids = vocab_new();
    int rc = s->ids ? 0 : tells_error_set(err, r.name, 0, "out of memory");
    char *line;
    size_t len;
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = 0;
        if (len == 0)
            continue;
        if (memchr(line, '\t', len) || strlen(line) != len)
            rc = tells_error_set(err, r.name, r.lineno,
                                 "an id file has one id per line (found a tab or NUL)");
        else if (utf8_invalid_offset(line, len) != (size_t)-1)
            rc = tells_error_set(err, r.name, r.lineno, "invalid UTF-8");
        else if (vocab_intern(s->ids, line, len) < 0)
            rc = tells_error_set(err, r.name, r.lineno, "out of memory");
    }
    line_reader_close(&r);
    if (rc == 0) {
        s->seen = calloc(vocab_size(s->ids) + 1, sizeof *s->seen);
        if (!s->seen)
            rc = tells_error_set(err, display_name(path), 0, "out of memory");
    }
    if (rc < 0) {
        id_set_free(s);
        return -1;
    }
    return 0;
}

void id_set_free(id_set *s)
{
    vocab_free(s->ids);
    free(s->seen);
    s->ids = NULL;
    s->seen = NULL;
}

bool id_set_match(id_set *s, const char *id, size_t len)
{
    long k = vocab_find(s->ids, id, len);
    if (k < 0)
        return false;
    s->seen[k] = true;
    return true;
}

size_t id_set_unseen(const id_set *s)
{
    size_t n = 0;
    for (size_t i = 0; i < vocab_size(s->ids); i++)
        n += !s->seen[i];
    return n;
}
