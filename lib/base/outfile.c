#include <config.h>
#include "base/outfile.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ioplan.h"
#include "base/tempfile.h"

enum { OUT_BUFFER = 1 << 16, MAX_LINKS = 40 };

/* The number N of a descriptor's path, /dev/fd/N or /proc/P/fd/N (P
   self, thread-self or this process's id), or -1; *other is set for
   another process's. */
static int descriptor_number(const char *path, bool *other)
{
    const char *rest = NULL;
    *other = false;
    if (strncmp(path, "/dev/fd/", 8) == 0) {
        rest = path + 8;
    } else if (strncmp(path, "/proc/", 6) == 0) {
        const char *p = path + 6, *slash = strchr(p, '/');
        if (!slash || strncmp(slash, "/fd/", 4) != 0)
            return -1;
        size_t n = (size_t)(slash - p);
        char self[32];
        int len = snprintf(self, sizeof self, "%ld", (long)getpid());
        if (!(n == 4 && strncmp(p, "self", 4) == 0) &&
            !(n == 11 && strncmp(p, "thread-self", 11) == 0) &&
            !((size_t)len == n && strncmp(p, self, n) == 0)) {
            if (strspn(p, "0123456789") != n)
                return -1;
            *other = true;
        }
        rest = slash + 4;
    }
    if (!rest || !*rest || strspn(rest, "0123456789") != strlen(rest) || strlen(rest) > 9)
        return -1;
    return atoi(rest);
}

/* A link that stands for an open descriptor (/dev/fd/N, /proc/self/fd/N,
   and so /dev/stdout) or an anonymous pipe or socket: not a file to
   replace. Any other link, under /proc too, is followed. */
static bool descriptor_link(const char *link_path, const char *target)
{
    bool other;
    if (descriptor_number(link_path, &other) >= 0)
        return true;
    return target[0] != '/' && strstr(target, ":[") != NULL;  /* pipe:[N], socket:[N] */
}

char *out_resolve_links(const char *path, bool *direct)
{
    char *cur = strdup(path);
    *direct = false;
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        if (hops == MAX_LINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char link[4096];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        link[n] = '\0';
        if (descriptor_link(cur, link)) {
            *direct = true;
            return cur;
        }
        char *next;
        const char *slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash) {
            next = strdup(link);
        } else {
            size_t dirlen = (size_t)(slash - cur) + 1;
            next = malloc(dirlen + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dirlen);
                memcpy(next + dirlen, link, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* A file this run read is never replaced, nor written in place
   (base/ioplan.h). */
static int input_refused(const char *path, tells_error *err)
{
    return tells_error_setk(err, TELLS_ERR_USAGE, path, 0,
                            "is an input of this run: not replaced");
}

static int input_kept(const char *path, tells_error *err)
{
    return tells_error_setk(err, TELLS_ERR_USAGE, path, 0,
                            "is an input of this run: not written");
}

/* Writes a device, FIFO or descriptor in place: nothing to replace. A
   descriptor of this process is used as it is open (a copy of it), so
   that "-o /dev/stdout >> log" appends to log as the shell opened it,
   where opening the path again would write from its start. */
static int open_direct(out_file *o, const char *open_path, tells_error *err)
{
    bool other;
    int n = descriptor_number(open_path, &other);
    int fd = n >= 0 && !other ? fcntl(n, F_DUPFD_CLOEXEC, 3)
                              : open(open_path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return tells_error_io(err, o->path, 0, "cannot open: %s", strerror(errno));
    if (io_is_input_fd(fd)) {
        close(fd);
        return input_kept(o->path, err);
    }
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        int e = errno;
        close(fd);
        return tells_error_io(err, o->path, 0, "cannot open: %s", strerror(e));
    }
    return 0;
}

int out_open(out_file *o, const char *path, tells_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        /* "tells-x ... >> list" onto a file named inside an input. */
        if (io_is_input_fd(STDOUT_FILENO))
            return input_kept("stdout", err);
        o->fp = stdout;
        return 0;
    }
    if (!(o->path = strdup(path)))
        return tells_error_nomem(err, path, 0);
    bool direct;
    char *target = out_resolve_links(path, &direct);
    if (!target) {
        int e = errno;
        out_abort(o);
        return e == ENOMEM ? tells_error_nomem(err, path, 0)
                           : tells_error_io(err, path, 0, "cannot open: %s", strerror(e));
    }
    struct stat st;
    bool exists = stat(target, &st) == 0;
    int rc = 0;
    if (direct || (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
        rc = open_direct(o, target, err);
        free(target);
        if (rc < 0)
            out_abort(o);
        else
            setvbuf(o->fp, NULL, _IOFBF, OUT_BUFFER);
        return rc;
    }
    if (exists && S_ISDIR(st.st_mode))
        rc = tells_error_io(err, path, 0, "cannot write: it is a directory");
    else if (exists && io_is_input(target))
        rc = input_refused(path, err);
    else if (exists && ((st.st_mode & 0222) == 0 || access(target, W_OK) != 0))
        /* As GNU sort -o does, and for root too: a file without write
           permission is one somebody meant to keep. */
        rc = tells_error_io(err, path, 0, "cannot write: %s",
                            (st.st_mode & 0222) == 0 ? "the file is read-only"
                                                     : strerror(errno));
    if (rc < 0) {
        free(target);
        out_abort(o);
        return -1;
    }
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = slash ? slash + 1 : target;
    size_t size = strlen(target) + 16;
    o->target = target;
    o->tmp_path = malloc(size);
    if (!o->tmp_path) {
        out_abort(o);
        return tells_error_nomem(err, path, 0);
    }
    snprintf(o->tmp_path, size, "%.*s.%s.XXXXXX", (int)dirlen, target, base);
    int fd = temp_create(o->tmp_path, path, err);
    if (fd < 0) {
        free(o->tmp_path);
        o->tmp_path = NULL;
        out_abort(o);
        return -1;
    }
    if (exists) {
        /* The replacement keeps the old file's mode and, when we may
           give it, its owner. */
        fchmod(fd, st.st_mode & 07777);
        if (fchown(fd, st.st_uid, st.st_gid) != 0) {
            /* Not ours to give: the file becomes the writer's. */
        }
    } else {
        /* mkstemp makes the file 0600; give it the mode a plain create
           would. */
        fchmod(fd, 0666 & ~out_umask());
    }
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        int e = errno;
        close(fd);
        out_abort(o);
        return tells_error_io(err, path, 0, "cannot open: %s", strerror(e));
    }
    setvbuf(o->fp, NULL, _IOFBF, OUT_BUFFER);
    return 0;
}

/* A commit's first half: flushed, synced and closed, so that nothing
   but the rename is left; on failure the output is discarded. */
static int out_finish(out_file *o, tells_error *err)
{
    if (!o->path) {
        if (fflush(o->fp) != 0 || ferror(o->fp))
            return tells_error_io(err, "stdout", 0, "write error: %s", strerror(errno));
        return 0;
    }
    if (!o->fp)
        return 0;   /* finished already */
    int failed = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno;
    /* A file that is to replace another must be on disk before it does. */
    if (!failed && o->tmp_path && fsync(fileno(o->fp)) != 0 && errno != EINVAL) {
        failed = 1;
        e = errno;
    }
    if (fclose(o->fp) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    o->fp = NULL;
    if (failed) {
        tells_error_io(err, o->path, 0, "write error: %s", strerror(e));
        out_abort(o);
        return -1;
    }
    return 0;
}

/* The second half: renamed into place, unless the target is a file this
   run read (base/ioplan.h). */
static int out_place(out_file *o, tells_error *err)
{
    if (!o->path)
        return 0;
    if (o->tmp_path && io_is_input(o->target)) {
        input_refused(o->path, err);
        out_abort(o);
        return -1;
    }
    if (o->tmp_path && rename(o->tmp_path, o->target) != 0) {
        tells_error_io(err, o->path, 0, "write error: %s", strerror(errno));
        out_abort(o);
        return -1;
    }
    if (o->tmp_path) {
        temp_untrack(o->tmp_path);
        io_note_written(o->target);
    }
    free(o->tmp_path);
    free(o->target);
    free(o->path);
    o->tmp_path = o->target = o->path = NULL;
    return 0;
}

int out_commit(out_file *o, tells_error *err)
{
    if (out_finish(o, err) < 0)
        return -1;
    return out_place(o, err);
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
    /* Every output written out first, then every rename: a write error
       in any (a full disk, a device) leaves all the old files. */
    int rc = 0;
    for (size_t i = 0; i < s->n && rc == 0; i++)
        rc = out_finish(&s->f[i], err);
    /* Nor does a file the run read stop the set halfway. */
    for (size_t i = 0; i < s->n && rc == 0; i++)
        if (s->f[i].tmp_path && io_is_input(s->f[i].target))
            rc = input_refused(s->f[i].path, err);
    for (size_t i = 0; i < s->n; i++)
        if (rc == 0 && out_place(&s->f[i], err) < 0)
            rc = -1;
        else if (rc < 0)
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

static pthread_once_t umask_once = PTHREAD_ONCE_INIT;
static mode_t process_umask;

static void read_umask(void)
{
    process_umask = umask(0);
    umask(process_umask);
}

mode_t out_umask(void)
{
    pthread_once(&umask_once, read_umask);
    return process_umask;
}

void out_abort(out_file *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    if (o->tmp_path)
        temp_remove(o->tmp_path);
    free(o->tmp_path);
    free(o->target);
    free(o->path);
    o->tmp_path = o->target = o->path = NULL;
}
