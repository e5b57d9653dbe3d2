/* The helpers of fuzz.h. Harness code, not library code: it may keep
   state in globals, print and abort. */
#include <config.h>
#include "fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/tempfile.h"

enum { FUZZ_MAX_FILES = 64, FUZZ_PATH = 1024 };

static char fuzz_folder[FUZZ_PATH];
static bool fuzz_own_folder;     /* made here, so removed at exit */
static char *fuzz_names[FUZZ_MAX_FILES];
static char *fuzz_paths[FUZZ_MAX_FILES];
static size_t fuzz_nfiles;

void fuzz_fail(const char *what, const char *why)
{
    fprintf(stderr, "fuzz: finding: %s: %s\n", what, why);
    fflush(stderr);
    abort();
}

static void fuzz_cleanup(void)
{
    for (size_t i = 0; i < fuzz_nfiles; i++) {
        unlink(fuzz_paths[i]);
        free(fuzz_paths[i]);
        free(fuzz_names[i]);
    }
    fuzz_nfiles = 0;
    if (fuzz_own_folder)
        rmdir(fuzz_folder);
}

static const char *folder(void)
{
    if (fuzz_folder[0])
        return fuzz_folder;
    const char *given = getenv("FUZZ_TMPDIR");
    if (given && *given) {
        snprintf(fuzz_folder, sizeof fuzz_folder, "%s", given);
    } else {
        const char *base = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : temp_dir();
        snprintf(fuzz_folder, sizeof fuzz_folder, "%s/tells-fuzz-XXXXXX", base);
        if (!mkdtemp(fuzz_folder))
            fuzz_fail(fuzz_folder, strerror(errno));
        fuzz_own_folder = true;
    }
    atexit(fuzz_cleanup);
    return fuzz_folder;
}

const char *fuzz_path(const char *name)
{
    for (size_t i = 0; i < fuzz_nfiles; i++)
        if (strcmp(fuzz_names[i], name) == 0)
            return fuzz_paths[i];
    if (strchr(name, '/') || fuzz_nfiles == FUZZ_MAX_FILES)
        fuzz_fail(name, "not a file name, or too many files");
    const char *dir = folder();
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    char *copy = strdup(name);
    if (!path || !copy)
        fuzz_fail(name, "out of memory");
    snprintf(path, len, "%s/%s", dir, name);
    fuzz_names[fuzz_nfiles] = copy;
    fuzz_paths[fuzz_nfiles++] = path;
    return path;
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
    const char *path = fuzz_path(name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        fuzz_fail(path, strerror(errno));
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fuzz_fail(path, strerror(errno));
        p += n;
        size -= (size_t)n;
    }
    if (close(fd) < 0)
        fuzz_fail(path, strerror(errno));
    return path;
}

static bool separator_at(const uint8_t *data, size_t size, size_t i)
{
    size_t len = strlen(FUZZ_SEPARATOR);
    return (i == 0 || data[i - 1] == '\n') && size - i >= len &&
           memcmp(data + i, FUZZ_SEPARATOR, len) == 0;
}

size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts, size_t max)
{
    size_t n = 0, start = 0;
    if (max == 0)
        return 0;
    for (size_t i = 0; i < size && n + 1 < max; i++)
        if (separator_at(data, size, i)) {
            parts[n].data = data + start;
            parts[n++].size = i - start;
            start = i + strlen(FUZZ_SEPARATOR);
            i = start - 1;
        }
    parts[n].data = data + start;
    parts[n++].size = size - start;
    return n;
}

size_t fuzz_split_files(const uint8_t *data, size_t size, fuzz_part *parts, char **files,
                        size_t max)
{
    size_t n = fuzz_split(data, size, parts, max);
    for (size_t k = 0; k < n; k++) {
        char name[16];
        snprintf(name, sizeof name, "%c.tsv", (char)('a' + k));
        files[k] = (char *)fuzz_file(name, parts[k].data, parts[k].size);
    }
    return n;
}

void fuzz_first_line(const fuzz_part *p, char *buf, size_t size, fuzz_part *rest)
{
    const uint8_t *nl = memchr(p->data, '\n', p->size);
    size_t len = nl ? (size_t)(nl - p->data) : p->size;
    size_t copy = len < size - 1 ? len : size - 1;
    memcpy(buf, p->data, copy);
    buf[copy] = '\0';
    rest->data = nl ? nl + 1 : p->data + p->size;
    rest->size = p->size - (size_t)(rest->data - p->data);
}

/* A control character (other than a tab) that would break the line of
   "prog: FILE:LINE: msg" or act on the terminal: a line break, a
   carriage return, an escape. */
static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
            return true;
    return false;
}

int fuzz_check(int rc, const tells_error *err, const char *what)
{
    if (rc >= 0)
        return rc;
    static int show = -1, lax = -1;
    if (show < 0) {
        const char *m = getenv("FUZZ_MESSAGES");
        show = getenv("FUZZ_SHOW_ERRORS") != NULL;
        lax = m && strcmp(m, "lax") == 0;
    }
    char msg[3072];
    tells_error_format(err, msg, sizeof msg);
    if (show)
        fprintf(stderr, "%s: %s\n", what, msg);
    if (err->kind == TELLS_ERR_NONE || err->msg[0] == '\0')
        fuzz_fail(what, "failed without an error message");
    if (!lax && has_control(msg)) {
        fprintf(stderr, "fuzz: %s: message: %s\n", what, msg);
        fuzz_fail(what, "a control character in the error message (not one clean line)");
    }
    return rc;
}

FILE *fuzz_sink_open(fuzz_sink *s)
{
    s->buf = NULL;
    s->len = 0;
    s->fp = open_memstream(&s->buf, &s->len);
    if (!s->fp)
        fuzz_fail("open_memstream", strerror(errno));
    return s->fp;
}

void fuzz_sink_close(fuzz_sink *s)
{
    if (s->fp)
        fclose(s->fp);
    free(s->buf);
    s->fp = NULL;
    s->buf = NULL;
    s->len = 0;
}
