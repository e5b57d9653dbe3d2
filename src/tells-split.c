/* tells-split: keep or drop rows of a prepared TSV by id file or split. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/rowsel.h"

static void usage(void)
{
    printf("Usage: tells-split [OPTION]... [FILE]\n"
"Keep or drop the rows of a prepared TSV (FILE, or stdin when absent or\n"
"'-') whose id is listed in an id file (one id per line, as tells-aflite\n"
"writes them, or a NumPy .npy array of strings such as the MedNLI study's\n"
"partition_ids) or whose split is named. Rows keep their order.\n"
"\n"
"  -k, --keep IDFILE         keep only rows whose id is in IDFILE\n"
"  -d, --drop IDFILE         drop rows whose id is in IDFILE\n"
"  -s, --split NAMES         keep only rows of these splits (comma-separated)\n"
"  -x, --exclude-split NAMES drop rows of these splits\n"
"  -w, --within SPLIT        --keep and --drop apply to this split's rows;\n"
"                            the other splits' rows pass [every row]\n"
"      --missing FILE        write the ids of the id files that no row had\n"
"      --strict              ids not found in the input are an error\n"
"      --no-header           the input has no header line\n"
"  -o, --output FILE         write here, atomically [stdout]\n"
"  -q, --quiet               do not report ids not found\n"
"      --help                display this help and exit\n"
"      --version             output version information and exit\n"
"\n"
"Ids of an id file that no input row has are counted on stderr (and with\n"
"--strict make the run fail, leaving no -o output); an id listed twice in\n"
"an id file counts once. An input without rows is an error, and so are,\n"
"with --keep or --drop, an id on two rows of the input, and a split named in\n"
"--split, --exclude-split or --within that the input has no row of (the\n"
"message names the splits it has).\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  cd study/synthetic   # after tools/quickstart\n"
"  tells-split --keep difficult.ids --split test prepared.tsv\n"
"  tells-split --drop easy.ids --within train -o hard-train.tsv prepared.tsv\n");
}

enum { OPT_MISSING = 256, OPT_STRICT, OPT_NO_HEADER };

static const struct option long_options[] = {
    {"keep", required_argument, NULL, 'k'},
    {"drop", required_argument, NULL, 'd'},
    {"split", required_argument, NULL, 's'},
    {"exclude-split", required_argument, NULL, 'x'},
    {"within", required_argument, NULL, 'w'},
    {"missing", required_argument, NULL, OPT_MISSING},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"output", required_argument, NULL, 'o'},
    CLI_QUIET_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    row_selection sel;
    const char *input, *output, *missing_path;
    bool strict, no_header;
    cli_verbosity v;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){0};
    row_selection *sel = &cfg->sel;
    tells_error err;
    tells_error_clear(&err);
    int c;
    while ((c = getopt_long(argc, argv, "k:d:s:x:w:o:q", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, &cfg->v))
            continue;
        switch (c) {
        case 'k': sel->keep_path = optarg; break;
        case 'd': sel->drop_path = optarg; break;
        case 's':
        case 'x':
        case 'w':
            if (split_list_check(optarg, &err) < 0)
                cli_fail(&err);
            if (c == 'w' && strchr(optarg, ','))
                cli_usage_error("--within takes one split, not '%s'", optarg);
            *(c == 's' ? &sel->splits : c == 'x' ? &sel->exclude : &sel->within) = optarg;
            break;
        case OPT_MISSING: cfg->missing_path = optarg; break;
        case OPT_STRICT: cfg->strict = true; break;
        case OPT_NO_HEADER: cfg->no_header = true; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    if (argc - optind > 1)
        cli_usage_error("extra operand '%s'", argv[optind + 1]);
    if (sel->within && !sel->keep_path && !sel->drop_path)
        cli_usage_error("--within needs --keep or --drop");
    if (!sel->keep_path && !sel->drop_path && !sel->splits && !sel->exclude)
        cli_usage_error("nothing to select: give --keep, --drop, --split or "
                        "--exclude-split");
    cfg->input = optind < argc ? argv[optind] : "-";
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "FILE", cfg->input);
    io_input(&io, "--keep", cfg->sel.keep_path);
    io_input(&io, "--drop", cfg->sel.drop_path);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    io_output(&io, "--missing", cfg->missing_path);
    cli_check_io(&io);
}

static void warn_unseen(const id_set *ids, const char *path)
{
    size_t unseen = id_set_unseen(ids);
    if (unseen)
        cli_warn("%s: %zu of %zu ids not found in the input", display_name(path), unseen,
                 id_set_size(ids));
}

/* Copies the selected rows to the output and the ids no row had to
   --missing; on failure, neither is left. */
static int select_rows(config *cfg, tells_error *err)
{
    row_selection *sel = &cfg->sel;
    out_file out = {0}, missing = {0};
    int rc = out_open(&out, cfg->output, err);
    if (rc == 0 && cfg->missing_path)
        rc = out_open(&missing, cfg->missing_path, err);
    if (rc == 0)
        rc = row_selection_copy(sel, cfg->input, cfg->no_header, out.fp, missing.fp, err);
    if (rc == 0) {
        if (!cfg->v.quiet) {
            warn_unseen(&sel->keep, sel->keep_path);
            warn_unseen(&sel->drop, sel->drop_path);
        }
        /* The list of missing ids is kept even when --strict fails: that
           is when it is needed. */
        size_t unseen = row_selection_unseen(sel);
        if (cfg->missing_path && out_commit(&missing, err) < 0)
            rc = -1;
        else if (cfg->strict && unseen)
            rc = tells_error_set(err, NULL, 0, "%zu ids not found in the input "
                                 "(--strict)", unseen);
    }
    if (rc == 0)
        rc = out_commit(&out, err);
    if (rc < 0) {
        out_abort(&out);
        out_abort(&missing);
    }
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-split");
    cli_hint(TELLS_E_NOT_PREPARED, "--no-header for headerless input");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (row_selection_load(&cfg.sel, &err) < 0)
        cli_fail(&err);
    int rc = select_rows(&cfg, &err);
    row_selection_free(&cfg.sel);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
