#include <config.h>
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OUT_BUFFER = 1 << 16 };

int out_open(out_file *o, const char *path, tells_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->fp = stdout;
        return 0;
    }
    o->path = strdup(path);
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t size = strlen(path) + 16;
    o->tmp_path = malloc(size);
    if (!o->path || !o->tmp_path) {
        out_abort(o);
        return tells_error_nomem(err, path, 0);
    }
    snprintf(o->tmp_path, size, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
    int fd = mkstemp(o->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(o->tmp_path);
        o->tmp_path = NULL;
        out_abort(o);
        return tells_error_io(err, path, 0, "cannot create: %s", strerror(e));
    }
    /* mkstemp makes the file 0600; give it the mode a plain create would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        close(fd);
        out_abort(o);
        return tells_error_io(err, path, 0, "cannot open: %s", strerror(errno));
    }
    setvbuf(o->fp, NULL, _IOFBF, OUT_BUFFER);
    return 0;
}

int out_commit(out_file *o, tells_error *err)
{
    const char *name = o->path ? o->path : "stdout";
    if (!o->path) {
        if (fflush(o->fp) != 0 || ferror(o->fp))
            return tells_error_io(err, name, 0, "write error: %s",
                                   strerror(errno));
        return 0;
    }
    int failed = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno;
    if (fclose(o->fp) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    o->fp = NULL;
    if (!failed && rename(o->tmp_path, o->path) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed) {
        /* Set the message first: out_abort frees the name. */
        tells_error_io(err, name, 0, "write error: %s", strerror(e));
        out_abort(o);
        return -1;
    }
    free(o->tmp_path);
    free(o->path);
    o->tmp_path = o->path = NULL;
    return 0;
}

int out_status(FILE *fp, tells_error *err)
{
    if (!ferror(fp))
        return 0;
    return errno ? tells_error_io(err, NULL, 0, "write error: %s", strerror(errno))
                 : tells_error_io(err, NULL, 0, "write error");
}

/* An error of a writer: named after the output when it names no file. */
static void name_output(const out_file *o, tells_error *err)
{
    const char *name = o->path ? o->path : "stdout";
    if (!err)
        return;
    if (err->kind == TELLS_ERR_NONE)
        tells_error_io(err, name, 0, "write error");
    else if (!err->file[0])
        snprintf(err->file, sizeof err->file, "%s", name);
}

int out_write(const char *path, out_writer write, void *ctx, tells_error *err)
{
    out_file o;
    if (out_open(&o, path, err) < 0)
        return -1;
    tells_error_clear(err);
    if (write(o.fp, ctx, err) < 0 || out_status(o.fp, err) < 0) {
        name_output(&o, err);
        out_abort(&o);
        return -1;
    }
    return out_commit(&o, err);
}

FILE *out_set_open(out_set *s, const char *path, tells_error *err)
{
    if (s->n == OUT_SET_MAX) {
        tells_error_usage(err, "more than %d outputs", OUT_SET_MAX);
        return NULL;
    }
    if (out_open(&s->f[s->n], path, err) < 0)
        return NULL;
    return s->f[s->n++].fp;
}

int out_set_commit(out_set *s, tells_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < s->n; i++)
        if (rc == 0 && out_commit(&s->f[i], err) < 0)
            rc = -1;
        else
            out_abort(&s->f[i]);
    s->n = 0;
    return rc;
}

void out_set_abort(out_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        out_abort(&s->f[i]);
    s->n = 0;
}

void out_abort(out_file *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    if (o->tmp_path)
        unlink(o->tmp_path);
    free(o->tmp_path);
    free(o->path);
    o->tmp_path = o->path = NULL;
}
