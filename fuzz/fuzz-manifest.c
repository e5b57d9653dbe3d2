/* The manifest of an output folder (base/outdir.h): a folder holding
   a.tsv, figs/ and figs/x.svg, and the input as its .tells-study. Whether
   the folder may be replaced must follow from the manifest: yes only
   when it lists all three, each with its kind. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "base/outdir.h"

/* Whether the manifest has the line "LINE\n" after its first two. */
static bool lists(const uint8_t *data, size_t size, const char *line)
{
    size_t n = strlen(line);
    const uint8_t *p = data, *end = data + size;
    for (int skip = 0; skip < 2 && p < end; skip++) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    while (p < end) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return false;
        if ((size_t)(nl - p) == n && memcmp(p, line, n) == 0)
            return true;
        p = nl + 1;
    }
    return false;
}

static void put(const char *path)
{
    FILE *fp = fopen(path, "w");
    if (!fp || fclose(fp) != 0)
        fuzz_fail("harness", "cannot write a file of the folder");
}

FUZZ_TARGET(manifest)
{
    static char dir[4096], sub[4200], file[4200], mark[4200];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", fuzz_path("out"));
        snprintf(sub, sizeof sub, "%s/figs", dir);
        if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || (mkdir(sub, 0777) != 0 && errno != EEXIST))
            fuzz_fail("harness", "cannot make the folder");
        snprintf(file, sizeof file, "%s/a.tsv", dir);
        put(file);
        snprintf(file, sizeof file, "%s/figs/x.svg", dir);
        put(file);
        snprintf(mark, sizeof mark, "%s/.tells-study", dir);
    }
    FILE *fp = fopen(mark, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
        fuzz_fail("harness", "cannot write the manifest");
    tells_error err;
    tells_error_clear(&err);
    int rc = out_dir_check(dir, "out", ".tells-study", &err);
    bool all = lists(data, size, "f a.tsv") && lists(data, size, "d figs") &&
               lists(data, size, "f figs/x.svg");
    if (rc == 0 && !all)
        fuzz_fail("out_dir_check", "a folder replaced whose manifest does not list it all");
    fuzz_check(rc, &err, "out_dir_check");
    return 0;
}
