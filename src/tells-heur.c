/* tells-heur: do annotators' heuristics give the label away? */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/heuristics.h"
#include "base/outfile.h"
#include "cli.h"

#define MESH_FILE CLI_MESH2024_FILE
#define TERMS_FILE CLI_TERMS2024_FILE
#define BUILTIN_FILE CLI_HEURISTICS2024_FILE

static void usage(void)
{
    printf("Usage: tells-heur [OPTION]... [FILE]...\n"
"Test whether pairs that satisfy an annotator heuristic are spread evenly\n"
"over the classes of a prepared TSV (FILE, or stdin when FILE is absent or\n"
"'-'; several files are read as one corpus). Concepts are MeSH descriptors\n"
"found in the text by their headings and entry terms (longest match first,\n"
"case-insensitive, on Snowball stems, also inside merged tokens such as\n"
"brain_injury); tells-concepts shows the links.\n"
"\n"
"Built-in heuristics (defined in the data folder's %s):\n"
"  hypernym         a hypothesis concept is a MeSH ancestor of a premise\n"
"                   concept (its tree number is a proper prefix of the\n"
"                   other's on a '.' boundary)\n"
"  probable-cause   the premise has a concept under C, D, E or F and the\n"
"                   hypothesis one under the cause prefixes (smoking,\n"
"                   substance use, mental disorders, alcohol, overweight,\n"
"                   homelessness)\n"
"  everything-fine  premise and hypothesis share a concept (not a stop-listed\n"
"                   one such as Patients) and the hypothesis has a negation\n"
"                   or health cue (no, denies, does not have, normal, ...)\n"
"\n"
"Concepts and heuristics:\n"
"  -m, --mesh FILE          MeSH tree file (Tree Number<TAB>Desc Ui<TAB>Term),\n"
"                           linked as before MeSH 2024 became the default: its\n"
"                           headings on exact tokens, with the built-in\n"
"                           heuristics for MeSH 2017 (DATA/" CLI_HEURISTICS_FILE ")\n"
"                           [DATA/" MESH_FILE " with its entry terms, on stems]\n"
"      --terms FILE         MeSH entry-term file (tells-concepts(1))\n"
"                           [DATA/" TERMS_FILE " without --mesh]\n"
"      --no-terms           headings only\n"
"      --stem, --no-stem    match Snowball stems, or exact tokens [--stem\n"
"                           without --mesh]\n"
"      --synonyms FILE      extra terms, TERM<TAB>DESCRIPTOR per line;\n"
"                           repeatable\n"
"  -H, --heuristics FILE    add the heuristics defined in FILE; one named as a\n"
"                           built-in replaces it; repeatable\n"
"      --no-builtin         only the heuristics of --heuristics files\n"
"      --hypernym-direction DIR  general: the hypothesis concept is the\n"
"                           ancestor (the study's definition); specific: it is\n"
"                           the descendant (what the study's code tested)\n"
"                           [general]\n"
"\n"
"Test and output:\n"
"  -s, --split NAME         only rows of split NAME; repeatable [all rows]\n"
"      --expected WHAT      uniform: every class equally likely; class-prior:\n"
"                           as the classes' shares of all rows read [uniform]\n"
"      --seed N             seed of the exact test's draws when it has too many\n"
"                           outcomes to enumerate [1]\n"
"  -p, --pairs FILE         also write every pair that satisfies a heuristic,\n"
"                           with the concepts and cues that made it, atomically\n"
"      --redact             --pairs without the concepts and cues (they come\n"
"                           from the text): id, split, label, heuristic\n"
"      --digits N           significant digits of p-values [2]\n"
"  -o, --output FILE        write the table here, atomically [stdout]\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"DATA is $TELLS_DATA when set and not empty (a source tree's corpora folder\n"
"serves), else the folder make install filled:\n"
"  %s\n"
"\n"
"Output: TSV with header heuristic, n, chi2, df, p_value, test, top_class,\n"
"top_share, then one column per class (byte order) with the number of\n"
"satisfying pairs of that class. n is their sum; chi2 is Pearson's\n"
"goodness-of-fit statistic against the expected shares over every class\n"
"read, df the classes less one; top_share is the top class's count over n.\n"
"test says what gave p_value: chi2 (every expected count at least 5), exact\n"
"(the exact multinomial test, every outcome enumerated) or monte-carlo (the\n"
"exact test from 100,000 draws seeded with --seed, past 1,000,000 outcomes).\n"
"A heuristic no pair satisfies has '-' for the test and the top class.\n"
"--pairs writes id, split, label, heuristic, premise_concepts,\n"
"hypothesis_concepts, cues (with --redact: id, split, label, heuristic).\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --mesh corpora/mesh/mtrees2017.txt -o synth.tsv \\\n"
"    --split train corpora/synthetic/train.jsonl \\\n"
"    --split dev corpora/synthetic/dev.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl\n"
"  TELLS_DATA=corpora tells-heur --pairs synth-pairs.tsv synth.tsv\n"
"  TELLS_DATA=corpora tells-heur --mesh corpora/mesh/mtrees2017.txt synth.tsv\n"
"  tells-prep -q -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl \\\n"
"    | TELLS_DATA=corpora tells-heur --expected class-prior\n",
           BUILTIN_FILE, CLI_PKGDATADIR);
}

enum {
    OPT_SYNONYMS = 256, OPT_NO_BUILTIN, OPT_DIRECTION, OPT_EXPECTED, OPT_SEED, OPT_DIGITS,
    OPT_REDACT
};

static const struct option long_options[] = {
    {"mesh", required_argument, NULL, 'm'},
    {"synonyms", required_argument, NULL, OPT_SYNONYMS},
    CLI_LINKING_OPTIONS,
    {"heuristics", required_argument, NULL, 'H'},
    {"no-builtin", no_argument, NULL, OPT_NO_BUILTIN},
    {"hypernym-direction", required_argument, NULL, OPT_DIRECTION},
    {"split", required_argument, NULL, 's'},
    {"expected", required_argument, NULL, OPT_EXPECTED},
    {"seed", required_argument, NULL, OPT_SEED},
    {"pairs", required_argument, NULL, 'p'},
    {"redact", no_argument, NULL, OPT_REDACT},
    {"digits", required_argument, NULL, OPT_DIGITS},
    {"output", required_argument, NULL, 'o'},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    const char *output, *pairs;
    cli_linking link;
    /* The values of the repeatable options, each list with room for argc
       in one allocation (values). */
    char **values, **synonyms, **heur_files, **splits;
    size_t nsynonyms, nheur_files, nsplits;
    bool builtin, general;
    heur_expect expect;
    unsigned long seed;
    int digits;
    bool redact;
    char **files;
    int nfiles;
    heur_sources src;         /* where the concepts and heuristics come from */
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.link = {.stem = -1}, .builtin = true, .general = true,
                    .expect = EXPECT_UNIFORM, .seed = 1, .digits = 2};
    if (!(cfg->values = calloc(3 * (size_t)argc, sizeof *cfg->values)))
        cli_die("out of memory");
    cfg->synonyms = cfg->values;
    cfg->heur_files = cfg->values + argc;
    cfg->splits = cfg->values + 2 * argc;
    int c;
    while ((c = getopt_long(argc, argv, "m:H:s:p:o:", long_options, NULL)) != -1) {
        if (cli_linking_option(c, &cfg->link) || cli_common_option(c, usage, NULL))
            continue;
        switch (c) {
        case 'm': cfg->link.mesh = optarg; break;
        case OPT_SYNONYMS: cfg->synonyms[cfg->nsynonyms++] = optarg; break;
        case 'H': cfg->heur_files[cfg->nheur_files++] = optarg; break;
        case OPT_NO_BUILTIN: cfg->builtin = false; break;
        case OPT_DIRECTION:
            if (strcmp(optarg, "general") == 0)
                cfg->general = true;
            else if (strcmp(optarg, "specific") == 0)
                cfg->general = false;
            else
                cli_usage_error("invalid --hypernym-direction '%s' (general or "
                                "specific)", optarg);
            break;
        case 's': cfg->splits[cfg->nsplits++] = optarg; break;
        case OPT_EXPECTED:
            if (heur_expect_parse(optarg, &cfg->expect) < 0)
                cli_usage_error("invalid --expected '%s' (uniform or class-prior)",
                                optarg);
            break;
        case OPT_SEED:
            cfg->seed = (unsigned long)cli_long("--seed", optarg, 0, 2147483647);
            break;
        case 'p': cfg->pairs = optarg; break;
        case OPT_REDACT: cfg->redact = true; break;
        case OPT_DIGITS: cfg->digits = (int)cli_long("--digits", optarg, 1, 17); break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    cli_linking_check(&cfg->link);
    if (!cfg->builtin && cfg->nheur_files == 0)
        cli_usage_error("--no-builtin needs --heuristics FILE");
    bool pairs_stdout = cfg->pairs && strcmp(cfg->pairs, "-") == 0;
    if (pairs_stdout && (!cfg->output || strcmp(cfg->output, "-") == 0))
        cli_usage_error("--pairs - needs --output FILE for the table");
    cfg->files = cli_operands(argc, argv, &cfg->nfiles);
    cfg->src = (heur_sources){
        .synonyms = cfg->synonyms, .nsynonyms = cfg->nsynonyms,
        .definitions = cfg->heur_files, .ndefinitions = cfg->nheur_files,
        .general = cfg->general,
    };
    cli_linking_sources(&cfg->link, cfg->builtin, &cfg->src);
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    for (int i = 0; i < cfg->nfiles; i++)
        io_input(&io, "FILE", cfg->files[i]);
    cli_linking_io(&cfg->src, &io);
    io_output(&io, "--pairs", cfg->pairs);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

/* Counts the pairs that satisfy each heuristic (writing them to --pairs)
   and writes the table. */
static int heur(const config *cfg, tells_error *err)
{
    heuristic_set hs;
    heur_tally tally = {0};
    out_file pairs_out = {0};
    bool pairs_open = false;
    int rc = heuristic_set_open(&hs, &cfg->src, err);
    if (rc == 0 && cfg->pairs)
        pairs_open = (rc = out_open(&pairs_out, cfg->pairs, err)) == 0;
    heur_count_options count = {.splits = cfg->splits, .nsplits = cfg->nsplits,
                                .pairs = pairs_open ? pairs_out.fp : NULL,
                                .pairs_redacted = cfg->redact};
    if (rc == 0)
        rc = heur_count_files(&hs, cfg->files, (size_t)cfg->nfiles, &count, &tally, err);
    if (rc == 0 && pairs_open) {
        rc = out_commit(&pairs_out, err);
        pairs_open = false;
    }
    heur_table table = {.hs = &hs, .tally = &tally, .expect = cfg->expect,
                        .digits = cfg->digits, .seed = cfg->seed};
    if (rc == 0)
        rc = out_write(cfg->output, heur_table_write, &table, err);
    if (pairs_open)
        out_abort(&pairs_out);
    heur_tally_free(&tally);
    heuristic_set_free(&hs);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-heur");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    int rc = heur(&cfg, &err);
    cli_linking_free(&cfg.link);
    free(cfg.values);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
