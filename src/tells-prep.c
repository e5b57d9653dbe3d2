/* tells-prep: NLI corpora (JSONL, CSV, TSV) to the prepared TSV. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "text/redact.h"
#include "base/lineio.h"
#include "text/prep.h"

static void usage(void)
{
    printf("Usage: tells-prep [OPTION]... --split NAME FILE [--split NAME FILE]...\n"
"Read NLI corpora (JSONL like MedNLI/SNLI, or CSV/TSV with a header row) and\n"
"write the prepared TSV every tells program reads:\n"
"  id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis\n"
"with text as tokens joined by single spaces. Ids come from the id field,\n"
"else SPLITN (N = 0-based position of the record within its split).\n"
"Examples whose label is '-' or empty are skipped and counted on stderr;\n"
"an input that gives no example is an error. A leading UTF-8 byte-order\n"
"mark is dropped; invalid UTF-8 (overlong forms, surrogates, unpaired\n"
"surrogate escapes in JSON) and columns named twice are errors.\n"
"\n"
"Inputs:\n"
"  -s, --split NAME FILE    read FILE ('-' for stdin) as split NAME; repeatable\n"
"  -f, --format FMT         jsonl, csv, tsv or auto (by extension: .csv, .tsv,\n"
"                           else jsonl) [auto]\n"
"      --id-field NAME      id field or column [pairID]; optional in the data\n"
"      --label-field NAME   label field or column [gold_label]\n"
"      --premise-field NAME premise field or column [sentence1]; '' for a\n"
"                           single-text corpus (the premise column holds '-')\n"
"      --hypothesis-field NAME  hypothesis field or column [sentence2]\n"
"      --labels LIST        comma-separated allowed labels; others are an\n"
"                           error [any label]\n"
"      --skip-invalid       skip malformed records (bad JSON, missing fields,\n"
"                           empty texts, unknown labels) and count them,\n"
"                           instead of failing\n"
"      --max-line BYTES     longest input line accepted [1048576]\n"
"      --id-key FILE        replace each id by HMAC-SHA256(FILE's bytes, id),\n"
"                           the first 96 bits in hex (FILE: 16 bytes or more),\n"
"                           as tells-study --id-key does [the corpus's ids]\n"
"\n"
"Tokens:\n"
"  -t, --tokenizer NAME     'default': words split from punctuation, keeping\n"
"                           ' - . between letters or digits (x-ray, 1.5);\n"
"                           'whitespace': split on whitespace only, for\n"
"                           pre-tokenised corpora such as SNLI [default]\n"
"      --keep-case          do not lowercase (ASCII and Latin-1 letters)\n"
"      --keep-punct         keep punctuation tokens (default tokenizer)\n"
"      --phrases FILE       merge these phrases (one per line) into single\n"
"                           tokens joined by '_'; repeatable\n"
"      --mesh FILE          merge the terms of this MeSH tree file likewise\n"
"                           (longest match first: brain injury -> brain_injury)\n"
"\n"
"Output:\n"
"  -o, --output FILE        write here, atomically [stdout]\n"
"  -q, --quiet              no counts on stderr\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep --tokenizer whitespace --split dev corpora/snli/snli_1.0_dev.jsonl \\\n"
"    | tells-pmi --smoothing 100 --top 10\n"
"  tells-prep --mesh corpora/mesh/mtrees2017.txt -o synth.tsv \\\n"
"    --split train corpora/synthetic/train.jsonl --split dev corpora/synthetic/dev.jsonl\n");
}

enum { OPT_MAX_LINE = 256, OPT_KEEP_CASE, OPT_KEEP_PUNCT, OPT_PHRASES, OPT_MESH, OPT_ID_KEY };

static const struct option long_options[] = {
    CLI_CORPUS_OPTIONS,
    {"max-line", required_argument, NULL, OPT_MAX_LINE},
    {"keep-case", no_argument, NULL, OPT_KEEP_CASE},
    {"keep-punct", no_argument, NULL, OPT_KEEP_PUNCT},
    {"phrases", required_argument, NULL, OPT_PHRASES},
    {"mesh", required_argument, NULL, OPT_MESH},
    {"id-key", required_argument, NULL, OPT_ID_KEY},
    {"output", required_argument, NULL, 'o'},
    CLI_QUIET_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    prep_options opt;
    cli_corpus corpus;            /* the --split inputs, into opt */
    const char **phrase_files;    /* room for argc */
    size_t nphrase_files;
    const char *output, *mesh_file, *id_key;
    cli_verbosity v;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.opt = {.fields = CORPUS_FIELDS_DEFAULT, .max_line = LINE_MAX_DEFAULT}};
    cfg->corpus = (cli_corpus){.prep = &cfg->opt,
                               .inputs = calloc((size_t)argc, sizeof *cfg->corpus.inputs)};
    cfg->phrase_files = calloc((size_t)argc, sizeof *cfg->phrase_files);
    if (!cfg->corpus.inputs || !cfg->phrase_files)
        cli_die("out of memory");
    int c;
    /* '+': stop at the first non-option, so FILE after --split NAME is ours. */
    while ((c = getopt_long(argc, argv, "+s:f:t:o:q", long_options, NULL)) != -1) {
        if (cli_corpus_option(c, argc, argv, &cfg->corpus) ||
            cli_common_option(c, usage, &cfg->v))
            continue;
        switch (c) {
        case OPT_MAX_LINE:
            cfg->opt.max_line = (size_t)cli_long("--max-line", optarg, 1, 1L << 40);
            break;
        case OPT_KEEP_CASE: cfg->opt.tok.keep_case = true; break;
        case OPT_KEEP_PUNCT: cfg->opt.tok.keep_punct = true; break;
        case OPT_PHRASES: cfg->phrase_files[cfg->nphrase_files++] = optarg; break;
        case OPT_MESH: cfg->mesh_file = optarg; break;
        case OPT_ID_KEY: cfg->id_key = optarg; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    if (optind < argc)
        cli_usage_error("unexpected argument '%s' (inputs are given as "
                        "--split NAME FILE)", argv[optind]);
    if (cfg->corpus.ninputs == 0)
        cli_usage_error("no input: give at least one --split NAME FILE");
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    cli_corpus_io(&cfg->corpus, &io);
    for (size_t i = 0; i < cfg->nphrase_files; i++)
        io_input(&io, "--phrases", cfg->phrase_files[i]);
    io_input(&io, "--mesh", cfg->mesh_file);
    io_input(&io, "--id-key", cfg->id_key);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

static void report_counts(const prep_input *in, const prep_file_stats *st, void *user)
{
    if (*(const bool *)user)
        return;
    cli_warn("%s: %ld example%s, %ld skipped without a gold label",
             display_name(in->path), st->written, st->written == 1 ? "" : "s",
             st->unlabeled);
    if (st->invalid)
        cli_warn("%s: %ld invalid record%s skipped", display_name(in->path),
                 st->invalid, st->invalid == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-prep");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    phrase_set *phrases;
    int rc = prep_load_phrases(cfg.phrase_files, cfg.nphrase_files, cfg.mesh_file,
                               &cfg.opt.tok, &phrases, &err);
    cfg.opt.phrases = phrases;
    redact_key key = {0};
    if (rc == 0 && cfg.id_key && (rc = redact_key_load(&key, cfg.id_key, &err)) == 0)
        cfg.opt.id_key = &key;
    if (rc == 0)
        rc = prep_run(&cfg.opt, cfg.corpus.inputs, cfg.corpus.ninputs, cfg.output,
                      report_counts, &cfg.v.quiet, &err);
    phrase_set_free(phrases);
    redact_key_free(&key);
    free(cfg.corpus.inputs);
    free(cfg.phrase_files);
    cli_corpus_free(&cfg.corpus);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
