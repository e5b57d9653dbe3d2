/* A minimal check harness for the library's unit tests: failures are
   counted and reported with file and line; the exit status tells
   Automake's test driver. */
#ifndef TELLS_CHECK_H
#define TELLS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

/* A temporary file holding text, its name in path; unlink it when done.
   Exits when it cannot be written. */
static inline const char *check_temp_file(char *path, size_t size, const char *text)
{
    snprintf(path, size, "%s/tells-unit.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp || fputs(text, fp) == EOF || fclose(fp) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    return path;
}

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

#define CHECK_STR(got, want)                                                 \
    do {                                                                     \
        const char *g_ = (got), *w_ = (want);                                \
        if (strcmp(g_, w_) != 0) {                                           \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__,    \
                    __LINE__, g_, w_);                                       \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

#define CHECK_NEAR(got, want, tol)                                           \
    do {                                                                     \
        double g_ = (got), w_ = (want);                                      \
        if (!(fabs(g_ - w_) <= (tol))) {                                     \
            fprintf(stderr, "%s:%d: got %.17g, want %.17g\n", __FILE__,      \
                    __LINE__, g_, w_);                                       \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

#define CHECK_DONE() return check_failures ? 1 : 0

/* tests/data/REL under $top_srcdir (the build runs tests from the build
   tree); four calls' results stay valid at once. */
static inline const char *data_path(const char *rel)
{
    static char buf[4][4096];
    static int k;
    const char *top = getenv("top_srcdir");
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/tests/data/%s", top ? top : ".", rel);
    return buf[k];
}

#endif
