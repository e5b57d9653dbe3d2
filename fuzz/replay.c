/* Runs saved inputs through the harnesses without libFuzzer, so that
   make check replays the regression inputs and the seeds (under the
   sanitizers too, in a sanitizer build):
     replay [-v] HARNESS FILE|FOLDER...   every file, a folder's in name order
     replay --list                        the harnesses' names
   An input that crashes the harness crashes this program; one that runs
   longer than $FUZZ_REPLAY_TIMEOUT seconds (20) ends it with status 1. */
#include <config.h>
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"

typedef int (*fuzz_entry)(const uint8_t *data, size_t size);

static const struct harness {
    const char *name;
    fuzz_entry run;
} harnesses[] = {
#define FUZZ_ROW(name) {#name, fuzz_##name},
    FUZZ_HARNESSES(FUZZ_ROW)
};

/* Large allocations are findings, as libFuzzer's -malloc_limit_mb=512
   makes them, when this runs under AddressSanitizer. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "max_allocation_size_mb=512:allocator_may_return_null=0";
}

static const char *current = "";
static unsigned timeout_seconds = 20;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "replay: timeout on ";
    ssize_t w = write(2, msg, sizeof msg - 1);
    w = write(2, current, strlen(current));
    w = write(2, "\n", 1);
    (void)w;
    _exit(1);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(fuzz_entry run, const char *path, bool verbose)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 0, len = 0;
    uint8_t *data = NULL;
    for (;;) {
        if (ARRAY_RESERVE_MIN(data, cap, len + 4096, 4096) < 0) {
            fprintf(stderr, "replay: %s: out of memory\n", path);
            free(data);
            fclose(fp);
            return -1;
        }
        size_t got = fread(data + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(fp);
    fclose(fp);
    if (bad) {
        fprintf(stderr, "replay: %s: read error\n", path);
        free(data);
        return -1;
    }
    if (verbose)
        printf("replay %s\n", path);
    fflush(stdout);
    current = path;
    alarm(timeout_seconds);
    /* A copy of exactly len bytes, so that reading past the input is
       caught as libFuzzer's copy would catch it. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(data);
        return -1;
    }
    memcpy(exact, data, len);
    free(data);
    run(exact, len);
    free(exact);
    alarm(0);
    return 0;
}

static int run_path(fuzz_entry run, const char *path, bool verbose)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(run, path, verbose);
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        if (ARRAY_RESERVE(names, cap, n + 1) < 0) {
            rc = -1;
            break;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            rc = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(dir);
    if (rc < 0)
        fprintf(stderr, "replay: %s: out of memory\n", path);
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            rc = run_file(run, names[i], verbose);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    size_t nharness = sizeof harnesses / sizeof harnesses[0];
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < nharness; i++)
            printf("%s\n", harnesses[i].name);
        return 0;
    }
    bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    int first = verbose ? 2 : 1;
    if (argc - first < 2) {
        fprintf(stderr, "usage: replay [-v] HARNESS FILE|FOLDER...\n"
                        "       replay --list\n");
        return 2;
    }
    const char *env = getenv("FUZZ_REPLAY_TIMEOUT");
    if (env && atoi(env) > 0)
        timeout_seconds = (unsigned)atoi(env);
    signal(SIGALRM, on_alarm);
    /* Harness names as files have them: corpus-jsonl for corpus_jsonl. */
    char name[64];
    snprintf(name, sizeof name, "%s", argv[first]);
    for (char *p = name; *p; p++)
        if (*p == '-')
            *p = '_';
    const struct harness *h = NULL;
    for (size_t i = 0; i < nharness; i++)
        if (strcmp(harnesses[i].name, name) == 0)
            h = &harnesses[i];
    if (!h) {
        fprintf(stderr, "replay: no harness '%s' (replay --list)\n", argv[first]);
        return 2;
    }
    int rc = 0;
    for (int i = first + 1; i < argc; i++)
        if (run_path(h->run, argv[i], verbose) < 0)
            rc = 1;
    return rc;
}
