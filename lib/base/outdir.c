#include <config.h>
#include "base/outdir.h"

#include <dirent.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/ioplan.h"
#include "base/outfile.h"
#include "base/tempfile.h"

enum { MAX_DEPTH = 8, MAX_MANIFEST = 1 << 24 };

static const char MANIFEST_HEAD[] =
    "# tells: every file and folder a run wrote here (f file, d folder); the run\n"
    "# replaces this folder only while it holds nothing else\n";

/* ---- listings: "f path" and "d path", relative to the folder ---- */

typedef struct listing {
    char **e;
    size_t n, cap;
} listing;

static void listing_free(listing *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->e[i]);
    free(l->e);
    memset(l, 0, sizeof *l);
}

static int listing_add(listing *l, char type, const char *rel)
{
    if (ARRAY_RESERVE(l->e, l->cap, l->n + 1) < 0)
        return -1;
    size_t n = strlen(rel) + 3;
    if (!(l->e[l->n] = malloc(n)))
        return -1;
    snprintf(l->e[l->n++], n, "%c %s", type, rel);
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void listing_sort(listing *l)
{
    if (l->n)
        qsort(l->e, l->n, sizeof *l->e, cmp_entry);
}

static bool listing_has(const listing *l, const char *entry)
{
    return l->n && bsearch(&entry, l->e, l->n, sizeof *l->e, cmp_entry) != NULL;
}

/* Everything under root/rel (rel "" for root itself), but the manifest
   at the top: 'f' for regular files, 'd' for folders, '?' for anything
   else. -1 with err set when a folder cannot be read. */
static int list_tree(const char *root, const char *rel, const char *mark, int depth,
                     listing *l, const char *shown, tells_error *err)
{
    size_t n = strlen(root) + strlen(rel) + 2;
    char *dir = malloc(n);
    if (!dir)
        return tells_error_nomem(err, NULL, 0);
    snprintf(dir, n, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = opendir(dir);
    free(dir);
    if (!d)
        return tells_error_io(err, shown, 0, "cannot read the folder: %s", strerror(errno));
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
            (!rel[0] && strcmp(name, mark) == 0))
            continue;
        size_t m = strlen(rel) + strlen(name) + 2;
        char *sub = malloc(m);
        if (!sub) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        snprintf(sub, m, "%s%s%s", rel, rel[0] ? "/" : "", name);
        size_t pn = strlen(root) + m + 1;
        char *full = malloc(pn);
        struct stat st;
        char type = '?';
        if (!full) {
            rc = tells_error_nomem(err, NULL, 0);
        } else {
            snprintf(full, pn, "%s/%s", root, sub);
            if (lstat(full, &st) == 0)
                type = S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd' : '?';
            free(full);
            if (strchr(sub, '\n'))
                type = '?';
            if (listing_add(l, type, sub) < 0)
                rc = tells_error_nomem(err, NULL, 0);
            else if (type == 'd' && depth < MAX_DEPTH)
                rc = list_tree(root, sub, mark, depth + 1, l, shown, err);
            else if (type == 'd')
                rc = tells_error_io(err, shown, 0, "cannot replace it: folders nested more "
                                    "than %d deep", MAX_DEPTH);
        }
        free(sub);
    }
    if (rc == 0 && errno)
        rc = tells_error_io(err, shown, 0, "cannot read the folder: %s", strerror(errno));
    closedir(d);
    return rc;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* A path as list_tree writes them: names joined by single slashes, none
   of them "." or "..". */
static bool plain_path(const char *p)
{
    for (;;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        if (!p[n])
            return true;
        p += n + 1;
    }
}

/* The manifest of the folder at dir: 1 read, 0 none (or not one), -1
   with err set. */
static int read_manifest(const char *dir, const char *mark, listing *l, tells_error *err)
{
    char *path = join(dir, mark);
    if (!path)
        return tells_error_nomem(err, NULL, 0);
    struct stat st;
    FILE *fp = lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < MAX_MANIFEST
                   ? fopen(path, "r")
                   : NULL;
    free(path);
    if (!fp)
        return 0;
    char *text = malloc((size_t)st.st_size + 1);
    size_t len = text ? fread(text, 1, (size_t)st.st_size, fp) : 0;
    fclose(fp);
    if (!text)
        return tells_error_nomem(err, NULL, 0);
    text[len] = '\0';
    size_t head = sizeof MANIFEST_HEAD - 1;
    int rc = len >= head && memcmp(text, MANIFEST_HEAD, head) == 0 && memchr(text, 0, len) == NULL;
    for (char *line = text + head, *nl; rc == 1 && *line; line = nl + 1) {
        if (!(nl = strchr(line, '\n'))) {
            rc = 0;     /* cut short */
            break;
        }
        *nl = '\0';
        if (nl - line < 3 || (line[0] != 'f' && line[0] != 'd') || line[1] != ' ' ||
            !plain_path(line + 2))
            rc = 0;
        else if (listing_add(l, line[0], line + 2) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    free(text);
    if (rc != 1)
        listing_free(l);
    listing_sort(l);
    return rc;
}

int out_dir_check(const char *path, const char *shown, const char *mark, tells_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        /* Not there: making it says whether it can be. */
        return errno == ENOENT || errno == ENOTDIR
                   ? 0
                   : tells_error_io(err, shown, 0, "cannot write: %s", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return tells_error_io(err, shown, 0, "cannot replace it: not a folder");
    listing have = {0}, made = {0};
    int rc = list_tree(path, "", mark, 1, &have, shown, err);
    int m = rc == 0 ? read_manifest(path, mark, &made, err) : 0;
    char *mp = join(path, mark);
    bool marked = mp && lstat(mp, &st) == 0;
    free(mp);
    if (m < 0)
        rc = -1;
    else if (rc == 0 && m == 0 && marked)
        rc = tells_error_io(err, shown, 0, "cannot replace it: its %s is not a list of "
                            "files tells wrote there", mark);
    else if (rc == 0 && m == 0 && have.n)
        rc = tells_error_io(err, shown, 0, "cannot replace it: it is not empty and has no "
                            "%s, so tells did not make it", mark);
    for (size_t i = 0; rc == 0 && m == 1 && i < have.n; i++)
        if (!listing_has(&made, have.e[i]))
            rc = tells_error_io(err, shown, 0, "cannot replace it: it holds %s, which tells "
                                "did not write there", have.e[i] + 2);
    listing_free(&have);
    listing_free(&made);
    return rc;
}

/* ---- open, commit ---- */

static char *strip_slashes(const char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    return strndup(path, len);
}

int out_dir_open(out_dir *d, const char *path, const char *mark, tells_error *err)
{
    memset(d, 0, sizeof *d);
    d->mark = mark;
    char *norm = strip_slashes(path);
    if (!norm || !(d->path = strdup(path))) {
        free(norm);
        return tells_error_nomem(err, NULL, 0);
    }
    bool direct;
    char *target = out_resolve_links(norm, &direct);
    free(norm);
    if (!target) {
        int e = errno;
        out_dir_close(d);
        return e == ENOMEM ? tells_error_nomem(err, NULL, 0)
                           : tells_error_io(err, path, 0, "cannot write: %s", strerror(e));
    }
    struct stat st;
    if (direct) {
        free(target);
        out_dir_close(d);
        return tells_error_io(err, path, 0, "cannot replace it: not a folder");
    }
    if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* "." and ".." become the folder's name. */
        char *real = realpath(target, NULL);
        if (real) {
            free(target);
            target = real;
        }
    }
    d->target = target;
    if (strcmp(target, "/") == 0) {
        out_dir_close(d);
        return tells_error_io(err, path, 0, "cannot replace it: it is the root folder");
    }
    if (lstat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* A folder on a device of its own cannot be renamed aside. */
        char *parent = join(target, "..");
        struct stat up;
        bool mount = parent && stat(parent, &up) == 0 && up.st_dev != st.st_dev;
        free(parent);
        if (mount) {
            out_dir_close(d);
            return tells_error_io(err, path, 0, "cannot replace it: it is a mount point");
        }
    }
    if (out_dir_check(target, path, mark, err) < 0) {
        out_dir_close(d);
        return -1;
    }
    size_t n = strlen(target) + 16;
    if (!(d->tmp = malloc(n))) {
        out_dir_close(d);
        return tells_error_nomem(err, NULL, 0);
    }
    snprintf(d->tmp, n, "%s.tmp-XXXXXX", target);
    if (temp_create_dir(d->tmp) < 0) {
        int e = errno;
        free(d->tmp);
        d->tmp = NULL;
        out_dir_close(d);
        return tells_error_io(err, path, 0, "cannot create a folder beside it: %s",
                              strerror(e));
    }
    /* mkdtemp makes it 0700: give it the mode a plain mkdir would. */
    chmod(d->tmp, 0777 & ~out_umask());
    return 0;
}

static int write_manifest(const out_dir *d, tells_error *err)
{
    listing l = {0};
    int rc = list_tree(d->tmp, "", d->mark, 1, &l, d->path, err);
    listing_sort(&l);
    char *path = rc == 0 ? join(d->tmp, d->mark) : NULL;
    if (rc == 0 && !path)
        rc = tells_error_nomem(err, NULL, 0);
    FILE *fp = rc == 0 ? fopen(path, "w") : NULL;
    if (rc == 0 && !fp)
        rc = tells_error_io(err, d->path, 0, "cannot write its list of files: %s",
                            strerror(errno));
    if (fp) {
        fputs(MANIFEST_HEAD, fp);
        for (size_t i = 0; i < l.n; i++)
            if (l.e[i][0] == '?')
                rc = tells_error_io(err, d->path, 0, "cannot list %s as written",
                                    l.e[i] + 2);
            else
                fprintf(fp, "%s\n", l.e[i]);
        if ((fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0) && rc == 0)
            rc = tells_error_io(err, d->path, 0, "cannot write its list of files: %s",
                                strerror(errno));
        if (fclose(fp) != 0 && rc == 0)
            rc = tells_error_io(err, d->path, 0, "cannot write its list of files: %s",
                                strerror(errno));
    }
    free(path);
    listing_free(&l);
    return rc;
}

/* Removes the file or (flags AT_REMOVEDIR) folder rel under the folder
   open as root, every folder on the way opened without following a
   link: a folder swapped for a link meanwhile leads nowhere. Files this
   run read stay. */
static void remove_at(int root, const char *rel, int flags)
{
    char *copy = strdup(rel);
    if (!copy)
        return;
    int cur = root;
    char *name = copy;
    for (char *slash; cur >= 0 && (slash = strchr(name, '/')); name = slash + 1) {
        *slash = '\0';
        int next = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (cur != root)
            close(cur);
        cur = next;
    }
    struct stat st;
    if (cur >= 0 && fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        (flags || !io_is_input_stat(&st)))
        unlinkat(cur, name, flags);
    if (cur >= 0 && cur != root)
        close(cur);
    free(copy);
}

/* Removes what is in the old folder and listed in its manifest, never
   what the list alone says (it cannot name a file outside the folder),
   then the manifest and the folder: 0, or -1 when something else keeps
   it. */
static int remove_listed(const char *dir, const char *mark)
{
    tells_error ignored;
    listing made = {0}, have = {0};
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root >= 0 && read_manifest(dir, mark, &made, &ignored) == 1 &&
        list_tree(dir, "", mark, 1, &have, dir, &ignored) == 0) {
        listing_sort(&have);
        for (size_t i = 0; i < have.n; i++)
            if (have.e[i][0] == 'f' && listing_has(&made, have.e[i]))
                remove_at(root, have.e[i] + 2, 0);
        /* Sorted, a folder comes before what it holds: backwards, after. */
        for (size_t i = have.n; i-- > 0;)
            if (have.e[i][0] == 'd' && listing_has(&made, have.e[i]))
                remove_at(root, have.e[i] + 2, AT_REMOVEDIR);
        struct stat st;
        if (fstatat(root, mark, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            unlinkat(root, mark, 0);
    }
    listing_free(&made);
    listing_free(&have);
    if (root >= 0)
        close(root);
    return rmdir(dir);
}

/* Puts the new folder in place, the old one first renamed to old (a
   mkdtemp template) when there is one: as one step for the signals that
   remove the new folder, never the old one aside and the new one gone. */
static int swap_in(out_dir *d, char *old, tells_error *err)
{
    sigset_t saved;
    temp_block_signals(&saved);
    int rc = 0;
    if (old && (!mkdtemp(old) || rename(d->target, old) != 0)) {
        int e = errno;
        rmdir(old);
        rc = tells_error_io(err, d->path, 0, "cannot move the old folder aside: %s",
                            strerror(e));
    } else if (rename(d->tmp, d->target) != 0) {
        int e = errno;
        if (old)
            rename(old, d->target);
        rc = tells_error_io(err, d->path, 0, "cannot put the new folder in place: %s",
                            strerror(e));
    } else {
        temp_untrack_dir(d->tmp);
        free(d->tmp);
        d->tmp = NULL;
    }
    temp_restore_signals(&saved);
    return rc;
}

int out_dir_commit(out_dir *d, tells_error *err)
{
    if (write_manifest(d, err) < 0)
        return -1;
    struct stat st;
    if (lstat(d->target, &st) != 0)
        return swap_in(d, NULL, err);
    /* It may have changed while the run ran. */
    if (out_dir_check(d->target, d->path, d->mark, err) < 0)
        return -1;
    size_t n = strlen(d->target) + 16;
    char *old = malloc(n);
    if (!old)
        return tells_error_nomem(err, NULL, 0);
    snprintf(old, n, "%s.old-XXXXXX", d->target);
    if (swap_in(d, old, err) < 0) {
        free(old);
        return -1;
    }
    if (remove_listed(old, d->mark) == 0)
        free(old);
    else
        d->kept = old;
    return 0;
}

void out_dir_close(out_dir *d)
{
    if (d->tmp)
        temp_remove_dir(d->tmp);
    free(d->tmp);
    free(d->target);
    free(d->path);
    free(d->kept);
    memset(d, 0, sizeof *d);
}
