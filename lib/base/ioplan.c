#include <config.h>
#include "base/ioplan.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/outfile.h"

typedef enum { IO_IN, IO_OUT, IO_OUT_DIR } io_kind;

struct io_entry {
    io_kind kind;
    char *role, *path;
};

static bool is_std(const char *path) { return strcmp(path, "-") == 0; }

void io_plan_init(io_plan *p)
{
    p->e = NULL;
    p->n = p->cap = 0;
    p->nomem = 0;
    p->refused = NULL;
}

static void add(io_plan *p, io_kind kind, const char *role, const char *path)
{
    if (!path)
        return;
    if (ARRAY_RESERVE(p->e, p->cap, p->n + 1) < 0) {
        p->nomem = 1;
        return;
    }
    io_entry *e = &p->e[p->n];
    e->kind = kind;
    e->role = strdup(role);
    e->path = strdup(path);
    if (!e->role || !e->path) {
        free(e->role);
        free(e->path);
        p->nomem = 1;
        return;
    }
    p->n++;
}

void io_input(io_plan *p, const char *role, const char *path) { add(p, IO_IN, role, path); }
void io_output(io_plan *p, const char *role, const char *path) { add(p, IO_OUT, role, path); }
void io_output_dir(io_plan *p, const char *role, const char *path)
{
    add(p, IO_OUT_DIR, role, path);
}

void io_output_idfile(io_plan *p, const char *role, const char *path)
{
    if (!path)
        return;
    /* The checksum file needs a name beside a file: not standard output,
       a device (/dev/null.sha256) or a descriptor (/dev/stdout.sha256). */
    struct stat st;
    bool direct = false;
    char *target = is_std(path) ? NULL : out_resolve_links(path, &direct);
    bool file = !is_std(path) && !direct &&
                (!target || stat(target, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
    free(target);
    if (!file && !p->refused && !(p->refused = strdup(role)))
        p->nomem = 1;
    add(p, IO_OUT, role, path);
    size_t nr = strlen(role) + 32, np = strlen(path) + 8;
    char *r = malloc(nr), *q = malloc(np);
    if (r && q) {
        snprintf(r, nr, "the checksum of %s", role);
        snprintf(q, np, "%s.sha256", path);
        add(p, IO_OUT, r, q);
    } else {
        p->nomem = 1;
    }
    free(r);
    free(q);
}

void io_plan_free(io_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->e[i].role);
        free(p->e[i].path);
    }
    free(p->e);
    free(p->refused);
    io_plan_init(p);
}

/* ---- what a path names ---- */

typedef enum { KEY_NONE, KEY_FILE, KEY_DIR, KEY_NEW } key_kind;

typedef struct key {
    key_kind kind;
    dev_t dev;          /* the file's, the folder's, or (NEW) its folder's */
    ino_t ino;
    char *name;         /* NEW: the name it would get in that folder */
    char *shown;        /* the path as messages show it */
} key;


/* The file behind standard input or output, for messages: its path when
   the system says it, else "-". */
static char *std_name(int fd)
{
    char link[64], buf[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    if (n <= 0)
        return strdup("-");
    buf[n] = '\0';
    return strdup(buf);
}

/* The folder part of path ("." when it has none) and its last name. */
static int split_path(const char *path, char **dir, char **base)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    size_t cut = len;
    while (cut > 0 && path[cut - 1] != '/')
        cut--;
    *base = strndup(path + cut, len - cut);
    if (cut == 0)
        *dir = strdup(".");
    else if (cut == 1)
        *dir = strdup("/");
    else
        *dir = strndup(path, cut - 1);
    if (!*dir || !*base) {
        free(*dir);
        free(*base);
        return -1;
    }
    return 0;
}

/* -1 only when out of memory; a path that names nothing to compare gets
   KEY_NONE. */
static int make_key(const io_entry *e, key *k)
{
    memset(k, 0, sizeof *k);
    struct stat st;
    if (is_std(e->path)) {
        int fd = e->kind == IO_IN ? STDIN_FILENO : STDOUT_FILENO;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            return 0;
        if (!(k->shown = std_name(fd)))
            return -1;
        k->kind = KEY_FILE;
        k->dev = st.st_dev;
        k->ino = st.st_ino;
        return 0;
    }
    if (!(k->shown = strdup(e->path)))
        return -1;
    if (stat(e->path, &st) == 0) {
        if (S_ISREG(st.st_mode))
            k->kind = KEY_FILE;
        else if (S_ISDIR(st.st_mode) && e->kind != IO_OUT)
            k->kind = KEY_DIR;
        else
            return 0;
        k->dev = st.st_dev;
        k->ino = st.st_ino;
        return 0;
    }
    /* An input that is not there is no file to keep: reading it says so. */
    if (errno != ENOENT || e->kind == IO_IN)
        return 0;
    /* Not there yet: where it would be created, links followed. */
    bool direct;
    char *target = out_resolve_links(e->path, &direct);
    if (!target)
        return errno == ENOMEM ? -1 : 0;
    char *dir, *base;
    int rc = split_path(target, &dir, &base);
    free(target);
    if (rc < 0)
        return -1;
    if (!direct && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && base[0]) {
        k->kind = KEY_NEW;
        k->dev = st.st_dev;
        k->ino = st.st_ino;
        k->name = base;
    } else {
        free(base);
    }
    free(dir);
    return 0;
}

static bool same(const key *a, const key *b)
{
    if (a->kind == KEY_NONE || a->kind != b->kind || a->dev != b->dev || a->ino != b->ino)
        return false;
    return a->kind != KEY_NEW || strcmp(a->name, b->name) == 0;
}

/* Whether the file of input e (key k) lies inside the folder of key dir. */
static bool inside(const io_entry *e, const key *k, const key *dir)
{
    if (dir->kind != KEY_DIR || (k->kind != KEY_FILE && k->kind != KEY_DIR))
        return false;
    char *real = realpath(is_std(e->path) ? "/proc/self/fd/0" : e->path, NULL);
    if (!real)
        return false;
    bool found = false;
    for (char *slash = strrchr(real, '/'); slash && !found; slash = strrchr(real, '/')) {
        if (slash == real)
            slash[1] = '\0';
        else
            *slash = '\0';
        struct stat st;
        found = stat(real, &st) == 0 && st.st_dev == dir->dev && st.st_ino == dir->ino;
        if (slash == real)
            break;
    }
    free(real);
    return found;
}

static const char *role_of(const io_entry *e)
{
    if (is_std(e->path))
        return e->kind == IO_IN ? "standard input" : "standard output";
    return e->role;
}

int io_plan_check(const io_plan *p, tells_error *err)
{
    if (p->nomem)
        return tells_error_nomem(err, NULL, 0);
    if (p->refused)
        return tells_error_usage(err, "%s needs a file (it writes a checksum file beside it)",
                                 p->refused);
    key *k = calloc(p->n ? p->n : 1, sizeof *k);
    if (!k)
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < p->n; i++)
        if (make_key(&p->e[i], &k[i]) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; rc == 0 && j < p->n; j++) {
        const io_entry *out = &p->e[j];
        if (out->kind == IO_IN)
            continue;
        for (size_t i = 0; rc == 0 && i < p->n; i++) {
            const io_entry *in = &p->e[i];
            if (in->kind != IO_IN)
                continue;
            if (same(&k[j], &k[i]))
                rc = tells_error_usage(err, "%s names an input (%s): %s", role_of(out),
                                       role_of(in), k[i].shown);
            else if (out->kind == IO_OUT_DIR && inside(in, &k[i], &k[j]))
                rc = tells_error_usage(err, "%s names a folder holding an input (%s): %s",
                                       role_of(out), role_of(in), k[i].shown);
        }
        /* Several outputs to standard output are the program's own
           business (as when it is a terminal). */
        for (size_t i = 0; rc == 0 && i < j; i++)
            if (p->e[i].kind != IO_IN && !(is_std(p->e[i].path) && is_std(out->path)) &&
                same(&k[i], &k[j]))
                rc = tells_error_usage(err, "%s and %s name the same file: %s",
                                       role_of(&p->e[i]), role_of(out), k[j].shown);
    }
    for (size_t i = 0; i < p->n; i++) {
        free(k[i].name);
        free(k[i].shown);
    }
    free(k);
    return rc;
}

/* ---- the files this process read and wrote ---- */

/* A file by its inode and its change time: an inode freed and used
   again for a new file is another file. */
typedef struct seen_file {
    dev_t dev;
    ino_t ino;
    struct timespec ctime;
    bool ours;          /* put in place by this process */
} seen_file;

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static seen_file *seen;
static size_t nseen, seen_cap;

static seen_file *find_seen(const struct stat *st)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen[i].dev == st->st_dev && seen[i].ino == st->st_ino &&
            seen[i].ctime.tv_sec == st->st_ctim.tv_sec &&
            seen[i].ctime.tv_nsec == st->st_ctim.tv_nsec)
            return &seen[i];
    return NULL;
}

static void note(const struct stat *stp, bool ours)
{
    struct stat st = *stp;
    if (!S_ISREG(st.st_mode))
        return;
    pthread_mutex_lock(&seen_lock);
    seen_file *f = find_seen(&st);
    if (f)
        f->ours |= ours;
    else if (ARRAY_RESERVE(seen, seen_cap, nseen + 1) == 0)
        seen[nseen++] = (seen_file){st.st_dev, st.st_ino, st.st_ctim, ours};
    /* Out of memory: the up-front check (io_plan_check) still stands. */
    pthread_mutex_unlock(&seen_lock);
}

void io_note_read(int fd)
{
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0)
        note(&st, false);
}

void io_note_written(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        note(&st, true);
}

bool io_is_input_stat(const struct stat *st)
{
    if (!S_ISREG(st->st_mode))
        return false;
    pthread_mutex_lock(&seen_lock);
    const seen_file *f = find_seen(st);
    bool input = f && !f->ours;
    pthread_mutex_unlock(&seen_lock);
    return input;
}

bool io_is_input(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && io_is_input_stat(&st);
}

bool io_is_input_fd(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && io_is_input_stat(&st);
}
