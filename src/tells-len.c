/* tells-len: text length by class. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "base/lineio.h"
#include "stats/describe.h"
#include "base/outfile.h"

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

static int write_lengths(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    return lengths_write(ctx, true, fp);
}

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
    tells_error err;
    tells_error_clear(&err);
    length_table lt;
    if (lengths_init(&lt) < 0) {
        cli_warn("out of memory");
        return EXIT_DATA;
    }
    int nfiles;
    char **files = cli_operands(argc, argv, &nfiles);
    int rc = 0;
    for (int i = 0; i < nfiles && rc == 0; i++)
        rc = lengths_add_prepared(&lt, files[i], field, no_header, &err);
    if (rc == 0 && vocab_size(lt.classes) == 0)
        rc = tells_error_set(&err, nfiles == 1 ? display_name(files[0]) : NULL, 0,
                             "no examples in the input");
    if (rc == 0)
        rc = out_write(output, write_lengths, &lt, &err);
    if (rc < 0)
        cli_report(&err);
    lengths_free(&lt);
    return rc < 0 ? EXIT_DATA : 0;
}
