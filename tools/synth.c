#include <config.h>
#include "synth.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "cli.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t synth_rng_next(synth_rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return mix64(r->s);
}

void synth_rng_init(synth_rng *r, uint64_t seed, uint64_t item, uint64_t stream)
{
    r->s = mix64(seed ^ mix64(item * 0x9e3779b97f4a7c15ULL + mix64(stream + 1)));
}

uint32_t synth_below(synth_rng *r, uint32_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = synth_rng_next(r);
    while (x >= limit);
    return (uint32_t)(x % n);
}

void synth_put_json(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', fp);
        fputc(*s, fp);
    }
}

uint64_t synth_parse_num(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    uint64_t v = 0;
    if (!*s)
        cli_usage_error("invalid %s value ''", opt);
    for (const char *c = s; *c; c++) {
        if (!isdigit((unsigned char)*c) || v > (UINT64_MAX - 9) / 10)
            cli_usage_error("invalid %s value '%s'", opt, s);
        v = v * 10 + (uint64_t)(*c - '0');
    }
    if (v < lo || v > hi)
        cli_usage_error("%s must be between %llu and %llu, not '%s'", opt,
                        (unsigned long long)lo, (unsigned long long)hi, s);
    return v;
}

void synth_version(void)
{
    printf("%s (%s) %s\n", cli_program(), PACKAGE_NAME, PACKAGE_VERSION);
}

void synth_check_args(int argc, int optind, const char *outdir)
{
    if (optind < argc)
        cli_usage_error("unexpected argument; use -o DIR for the output");
    if (!outdir)
        cli_usage_error("missing required option --output");
    if (!*outdir)
        cli_usage_error("--output must not be empty");
}

void synth_make_dir(const char *dir)
{
    tells_error err;
    tells_error_clear(&err);
    char *d = strdup(dir);
    if (!d) {
        tells_error_nomem(&err, dir, 0);
        cli_fail(&err);
    }
    for (char *s = d + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST) {
            tells_error_io(&err, d, 0, "cannot create: %s", strerror(errno));
            free(d);
            cli_fail(&err);
        }
        *s = c;
        if (!c)
            break;
    }
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
        tells_error_set(&err, d, 0, "not a directory");
        free(d);
        cli_fail(&err);
    }
    free(d);
}

void synth_write_file(const char *dir, const char *name, out_writer write, void *ctx)
{
    tells_error err;
    tells_error_clear(&err);
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path) {
        tells_error_nomem(&err, dir, 0);
        cli_fail(&err);
    }
    snprintf(path, len, "%s/%s", dir, name);
    int rc = out_write(path, write, ctx, &err);
    free(path);
    if (rc < 0)
        cli_fail(&err);
}
