/* tells-len: text length by class. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "stats/describe.h"

static void usage(void)
{
    printf("Usage: tells-len [OPTION]... [FILE]...\n"
"Length in tokens of the hypothesis (or another field) by class, over a\n"
"prepared TSV (FILE, or stdin when absent or '-'): annotators often write\n"
"longer neutral hypotheses and shorter entailed ones.\n"
"\n"
"  -F, --field NAME   hypothesis, premise or both (their sum) [hypothesis]\n"
"      --no-header    the input has no header line\n"
"  -o, --output FILE  write here, atomically [stdout]\n"
"      --help         display this help and exit\n"
"      --version      output version information and exit\n"
"\n"
"Output: TSV with header class, n, mean, median, sd; one row per class in\n"
"byte order, then an 'all' row; sd is the sample standard deviation (n-1),\n"
"0 for a single example; numbers with 6 decimals. (A class itself named\n"
"'all' would be ambiguous with that row.)\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl | tells-len\n");
}

enum { OPT_NO_HEADER = 256 };

static const struct option long_options[] = {
    {"field", required_argument, NULL, 'F'},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"output", required_argument, NULL, 'o'},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    text_field field;
    bool no_header;
    const char *output;
    char **files;
    int nfiles;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.field = FIELD_HYPOTHESIS};
    int c;
    while ((c = getopt_long(argc, argv, "F:o:", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, NULL))
            continue;
        switch (c) {
        case 'F':
            if (text_field_parse(optarg, &cfg->field) < 0)
                cli_usage_error("invalid field '%s' (hypothesis, premise or both)",
                                optarg);
            break;
        case OPT_NO_HEADER: cfg->no_header = true; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    cfg->files = cli_operands(argc, argv, &cfg->nfiles);
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    for (int i = 0; i < cfg->nfiles; i++)
        io_input(&io, "FILE", cfg->files[i]);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-len");
    cli_hint(TELLS_E_NOT_PREPARED, "--no-header for headerless input");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (lengths_run(cfg.files, (size_t)cfg.nfiles, cfg.field, cfg.no_header, cfg.output,
                    &err) < 0)
        cli_fail(&err);
    return 0;
}
