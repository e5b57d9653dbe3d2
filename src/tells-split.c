/* tells-split: keep or drop rows of a prepared TSV by id file or split. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/idfile.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/prepared.h"

static void usage(void)
{
    printf("Usage: tells-split [OPTION]... [FILE]\n"
"Keep or drop the rows of a prepared TSV (FILE, or stdin when absent or\n"
"'-') whose id is listed in an id file (one id per line, as tells-aflite\n"
"writes them) or whose split is named. Rows keep their order.\n"
"\n"
"  -k, --keep IDFILE         keep only rows whose id is in IDFILE\n"
"  -d, --drop IDFILE         drop rows whose id is in IDFILE\n"
"  -s, --split NAMES         keep only rows of these splits (comma-separated)\n"
"  -x, --exclude-split NAMES drop rows of these splits\n"
"      --missing FILE        write the ids of the id files that no row had\n"
"      --strict              ids not found in the input are an error\n"
"      --no-header           the input has no header line\n"
"  -o, --output FILE         write here, atomically [stdout]\n"
"  -q, --quiet               do not report ids not found\n"
"      --help                display this help and exit\n"
"      --version             output version information and exit\n"
"\n"
"Ids of an id file that no input row has are counted on stderr (and with\n"
"--strict make the run fail, leaving no -o output).\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-split --keep difficult.ids --split test prepared.tsv | tells-pmi\n");
}

enum { OPT_MISSING = 256, OPT_STRICT, OPT_NO_HEADER, OPT_HELP, OPT_VERSION };

static const struct option long_options[] = {
    {"keep", required_argument, NULL, 'k'},
    {"drop", required_argument, NULL, 'd'},
    {"split", required_argument, NULL, 's'},
    {"exclude-split", required_argument, NULL, 'x'},
    {"missing", required_argument, NULL, OPT_MISSING},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

/* Whether name is one of the comma-separated names in list. */
static bool in_list(const char *list, const char *name, size_t len)
{
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == len && memcmp(p, name, len) == 0)
            return true;
        if (!comma)
            break;
        p = comma + 1;
    }
    return false;
}

typedef struct filter {
    const char *keep_path, *drop_path;
    id_set keep, drop;
    bool has_keep, has_drop;
    const char *splits, *exclude;
} filter;

static bool wanted(filter *f, const prepared_row *row)
{
    const char *id = row->field[PREP_ID], *split = row->field[PREP_SPLIT];
    size_t idl = row->len[PREP_ID], sl = row->len[PREP_SPLIT];
    /* Match both id sets first, so every listed id is marked as seen. */
    bool keep = !f->has_keep || id_set_match(&f->keep, id, idl);
    bool drop = f->has_drop && id_set_match(&f->drop, id, idl);
    if (!keep || drop)
        return false;
    if (f->splits && !in_list(f->splits, split, sl))
        return false;
    return !(f->exclude && in_list(f->exclude, split, sl));
}

static int filter_rows(filter *f, const char *path, bool no_header, FILE *fp,
                       tells_error *err)
{
    prepared_reader r;
    if (prepared_open(&r, path, no_header, err) < 0)
        return -1;
    if (!no_header) {
        fputs(PREPARED_HEADER, fp);
        if (r.extra_header)
            fprintf(fp, "\t%s", r.extra_header);
        putc('\n', fp);
    }
    prepared_row row;
    int rc;
    while ((rc = prepared_next(&r, &row, err)) == 1)
        if (wanted(f, &row) && prepared_write_row(fp, &row) < 0) {
            rc = tells_error_io(err, NULL, 0, "write error");
            break;
        }
    prepared_close(&r);
    return rc < 0 ? -1 : 0;
}

static size_t report_unseen(const id_set *s, const char *path, bool quiet,
                            FILE *missing)
{
    size_t unseen = id_set_unseen(s);
    if (unseen && !quiet)
        cli_warn("%s: %zu of %zu ids not found in the input", display_name(path), unseen,
                 vocab_size(s->ids));
    for (size_t i = 0; missing && i < vocab_size(s->ids); i++)
        if (!s->seen[i])
            fprintf(missing, "%s\n", vocab_str(s->ids, i));
    return unseen;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-split");
    cli_hint(TELLS_E_NOT_PREPARED, "--no-header for headerless input");
    filter f = {0};
    const char *output = NULL, *missing_path = NULL;
    bool strict = false, no_header = false, quiet = false;
    int c;
    while ((c = getopt_long(argc, argv, "k:d:s:x:o:q", long_options, NULL)) != -1) {
        switch (c) {
        case 'k': f.keep_path = optarg; break;
        case 'd': f.drop_path = optarg; break;
        case 's':
        case 'x':
            if (optarg[0] == '\0' || strstr(optarg, ",,") || optarg[0] == ',' ||
                optarg[strlen(optarg) - 1] == ',')
                cli_usage_error("invalid split list '%s'", optarg);
            *(c == 's' ? &f.splits : &f.exclude) = optarg;
            break;
        case OPT_MISSING: missing_path = optarg; break;
        case OPT_STRICT: strict = true; break;
        case OPT_NO_HEADER: no_header = true; break;
        case 'o': output = optarg; break;
        case 'q': quiet = true; break;
        case OPT_HELP: usage(); return 0;
        case OPT_VERSION: cli_version(); return 0;
        default: cli_try_help();
        }
    }
    if (argc - optind > 1)
        cli_usage_error("extra operand '%s'", argv[optind + 1]);
    if (!f.keep_path && !f.drop_path && !f.splits && !f.exclude)
        cli_usage_error("nothing to select: give --keep, --drop, --split or "
                        "--exclude-split");
    const char *input = optind < argc ? argv[optind] : "-";

    tells_error err;
    tells_error_clear(&err);
    int rc = 0;
    if (f.keep_path && (rc = id_set_load(&f.keep, f.keep_path, &err)) == 0)
        f.has_keep = true;
    if (rc == 0 && f.drop_path && (rc = id_set_load(&f.drop, f.drop_path, &err)) == 0)
        f.has_drop = true;
    out_file out = {0}, missing = {0};
    if (rc == 0)
        rc = out_open(&out, output, &err);
    if (rc == 0 && missing_path && (rc = out_open(&missing, missing_path, &err)) < 0)
        out_abort(&out);
    if (rc == 0 && (rc = filter_rows(&f, input, no_header, out.fp, &err)) == 0) {
        size_t unseen = 0;
        if (f.has_keep)
            unseen += report_unseen(&f.keep, f.keep_path, quiet, missing.fp);
        if (f.has_drop)
            unseen += report_unseen(&f.drop, f.drop_path, quiet, missing.fp);
        /* The list of missing ids is kept even when --strict fails: that
           is when it is needed. */
        if (missing_path && out_commit(&missing, &err) < 0)
            rc = -1;
        else if (strict && unseen)
            rc = tells_error_set(&err, NULL, 0, "%zu ids not found in the input "
                                 "(--strict)", unseen);
    }
    if (rc == 0)
        rc = out_commit(&out, &err);
    if (rc < 0) {
        out_abort(&out);
        out_abort(&missing);
        cli_report(&err);
    }
    if (f.has_keep)
        id_set_free(&f.keep);
    if (f.has_drop)
        id_set_free(&f.drop);
    return rc < 0 ? EXIT_DATA : 0;
}
