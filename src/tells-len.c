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

enum { OPT_NO_HEADER = 256, OPT_HELP, OPT_VERSION };

static const struct option long_options[] = {
    {"field", required_argument, NULL, 'F'},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

int main(int argc, char **argv)
{
    cli_init(argv, "tells-len");
    cli_hint(TELLS_E_NOT_PREPARED, "--no-header for headerless input");
    text_field field = FIELD_HYPOTHESIS;
    bool no_header = false;
    const char *output = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "F:o:", long_options, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (text_field_parse(optarg, &field) < 0)
                cli_usage_error("invalid field '%s' (hypothesis, premise or both)",
                                optarg);
            break;
        case OPT_NO_HEADER: no_header = true; break;
        case 'o': output = optarg; break;
        case OPT_HELP: usage(); return 0;
        case OPT_VERSION: cli_version(); return 0;
        default: cli_try_help();
        }
    }
    int nfiles;
    char **files = cli_operands(argc, argv, &nfiles);
    io_plan io;
    io_plan_init(&io);
    for (int i = 0; i < nfiles; i++)
        io_input(&io, "FILE", files[i]);
    io_output(&io, "--output", output ? output : "-");
    cli_check_io(&io);
    tells_error err;
    tells_error_clear(&err);
    if (lengths_run(files, (size_t)nfiles, field, no_header, output, &err) < 0)
        cli_fail(&err);
    return 0;
}
