/* tells-heur: do annotators' heuristics give the label away? */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "text/concepts.h"
#include "analysis/heuristics.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "base/vocab.h"

#define MESH_FILE CLI_MESH_FILE
#define BUILTIN_FILE CLI_HEURISTICS_FILE

static void usage(void)
{
    printf("Usage: tells-heur [OPTION]... [FILE]...\n"
"Test whether pairs that satisfy an annotator heuristic are spread evenly\n"
"over the classes of a prepared TSV (FILE, or stdin when FILE is absent or\n"
"'-'; several files are read as one corpus). Concepts are MeSH descriptors\n"
"found in the text by their terms (longest match first, case-insensitive,\n"
"also inside merged tokens such as brain_injury).\n"
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
"  -m, --mesh FILE          MeSH tree file (Tree Number<TAB>Desc Ui<TAB>Term)\n"
"                           [DATA/" MESH_FILE "]\n"
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
"  -p, --pairs FILE         also write every pair that satisfies a heuristic,\n"
"                           with the concepts and cues that made it, atomically\n"
"      --digits N           significant digits of p-values [2]\n"
"  -o, --output FILE        write the table here, atomically [stdout]\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"DATA is $TELLS_DATA when set and not empty (a source tree's corpora folder\n"
"serves), else the folder make install filled:\n"
"  %s\n"
"\n"
"Output: TSV with header heuristic, n, chi2, df, p_value, top_class,\n"
"top_share, then one column per class (byte order) with the number of\n"
"satisfying pairs of that class. n is their sum; chi2 is Pearson's\n"
"goodness-of-fit statistic against the expected shares over every class\n"
"read, df the classes less one; top_share is the top class's count over n.\n"
"A heuristic no pair satisfies has '-' for the test and the top class.\n"
"--pairs writes id, split, label, heuristic, premise_concepts,\n"
"hypothesis_concepts, cues.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --mesh corpora/mesh/mtrees2017.txt -o synth.tsv \\\n"
"    --split train corpora/synthetic/train.jsonl \\\n"
"    --split dev corpora/synthetic/dev.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl\n"
"  TELLS_DATA=corpora tells-heur --pairs synth-pairs.tsv synth.tsv\n"
"  tells-prep -q -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl \\\n"
"    | TELLS_DATA=corpora tells-heur --expected class-prior\n",
           BUILTIN_FILE, CLI_PKGDATADIR);
}

enum {
    OPT_SYNONYMS = 256, OPT_NO_BUILTIN, OPT_DIRECTION, OPT_EXPECTED, OPT_DIGITS,
    OPT_HELP, OPT_VERSION
};

static const struct option long_options[] = {
    {"mesh", required_argument, NULL, 'm'},
    {"synonyms", required_argument, NULL, OPT_SYNONYMS},
    {"heuristics", required_argument, NULL, 'H'},
    {"no-builtin", no_argument, NULL, OPT_NO_BUILTIN},
    {"hypernym-direction", required_argument, NULL, OPT_DIRECTION},
    {"split", required_argument, NULL, 's'},
    {"expected", required_argument, NULL, OPT_EXPECTED},
    {"pairs", required_argument, NULL, 'p'},
    {"digits", required_argument, NULL, OPT_DIGITS},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

typedef struct names {
    const char **v;
    size_t n;
} names;

static void names_push(names *s, const char *name)
{
    const char **v = realloc(s->v, (s->n + 1) * sizeof *v);
    if (!v) {
        cli_warn("out of memory");
        exit(EXIT_DATA);
    }
    v[s->n++] = name;
    s->v = v;
}

typedef struct run {
    heuristic_set *hs;
    heur_tally tally;
    vocab *splits;             /* --split names; NULL: every row */
    uint64_t *split_rows;
    FILE *pairs;               /* or NULL */
    heur_text premise, hypothesis;
    heur_witness witness;
    bool *holds;
    char *last_premise;        /* premises repeat: analyse each once */
    size_t last_len, last_cap;
    heur_expect expect;
    int digits;
} run;

static int read_rows(run *ru, const char *path, tells_error *err)
{
    prepared_reader pr;
    if (prepared_open(&pr, path, false, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    while ((rc = prepared_next(&pr, &row, err)) == 1) {
        if (ru->splits) {
            long s = vocab_find(ru->splits, row.field[PREP_SPLIT],
                                row.len[PREP_SPLIT]);
            if (s < 0)
                continue;
            ru->split_rows[s]++;
        }
        size_t plen = row.len[PREP_PREMISE];
        const char *ptext = row.field[PREP_PREMISE];
        if (!(ru->last_premise && plen == ru->last_len &&
              memcmp(ptext, ru->last_premise, plen) == 0)) {
            if (plen + 1 > ru->last_cap) {
                char *b = realloc(ru->last_premise, plen + 1);
                if (!b) {
                    rc = tells_error_nomem(err, pr.lr.name, row.lineno);
                    break;
                }
                ru->last_premise = b;
                ru->last_cap = plen + 1;
            }
            memcpy(ru->last_premise, ptext, plen + 1);
            ru->last_len = plen;
            if (heur_text_analyse(&ru->premise, ru->hs, ptext, plen) < 0) {
                rc = tells_error_nomem(err, pr.lr.name, row.lineno);
                break;
            }
        }
        if (heur_text_analyse(&ru->hypothesis, ru->hs, row.field[PREP_HYPOTHESIS],
                              row.len[PREP_HYPOTHESIS]) < 0) {
            rc = tells_error_nomem(err, pr.lr.name, row.lineno);
            break;
        }
        for (size_t h = 0; h < ru->hs->n && rc == 1; h++) {
            int ok = heuristic_holds(ru->hs, h, &ru->premise, &ru->hypothesis,
                                     ru->pairs ? &ru->witness : NULL);
            if (ok < 0)
                rc = tells_error_nomem(err, pr.lr.name, row.lineno);
            ru->holds[h] = ok > 0;
            if (ok > 0 && ru->pairs) {
                fprintf(ru->pairs, "%s\t%s\t%s\t%s\t", row.field[PREP_ID],
                        row.field[PREP_SPLIT], row.field[PREP_LABEL],
                        ru->hs->v[h].name);
                heur_witness_write(ru->pairs, ru->hs, h, &ru->witness,
                                   &ru->premise, &ru->hypothesis);
                fputc('\n', ru->pairs);
            }
        }
        if (rc < 0)
            break;
        if (heur_tally_add(&ru->tally, row.field[PREP_LABEL], row.len[PREP_LABEL],
                           ru->holds) < 0) {
            rc = tells_error_nomem(err, pr.lr.name, row.lineno);
            break;
        }
    }
    prepared_close(&pr);
    return rc < 0 ? -1 : 0;
}

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    run *ru = ctx;
    return heur_table_write(fp, ru->hs, &ru->tally, ru->expect, ru->digits);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-heur");
    const char *mesh = NULL, *output = NULL, *pairs = NULL;
    names synonyms = {0}, heur_files = {0}, splits = {0};
    bool builtin = true, general = true;
    heur_expect expect = EXPECT_UNIFORM;
    int digits = 2;
    int c;
    while ((c = getopt_long(argc, argv, "m:H:s:p:o:", long_options, NULL)) != -1) {
        switch (c) {
        case 'm': mesh = optarg; break;
        case OPT_SYNONYMS: names_push(&synonyms, optarg); break;
        case 'H': names_push(&heur_files, optarg); break;
        case OPT_NO_BUILTIN: builtin = false; break;
        case OPT_DIRECTION:
            if (strcmp(optarg, "general") == 0)
                general = true;
            else if (strcmp(optarg, "specific") == 0)
                general = false;
            else
                cli_usage_error("invalid --hypernym-direction '%s' (general or "
                                "specific)", optarg);
            break;
        case 's': names_push(&splits, optarg); break;
        case OPT_EXPECTED:
            if (heur_expect_parse(optarg, &expect) < 0)
                cli_usage_error("invalid --expected '%s' (uniform or class-prior)",
                                optarg);
            break;
        case 'p': pairs = optarg; break;
        case OPT_DIGITS: digits = (int)cli_long("--digits", optarg, 1, 17); break;
        case 'o': output = optarg; break;
        case OPT_HELP: usage(); return 0;
        case OPT_VERSION: cli_version(); return 0;
        default: cli_try_help();
        }
    }
    if (!builtin && heur_files.n == 0)
        cli_usage_error("--no-builtin needs --heuristics FILE");
    bool pairs_stdout = pairs && strcmp(pairs, "-") == 0;
    if (pairs_stdout && (!output || strcmp(output, "-") == 0))
        cli_usage_error("--pairs - needs --output FILE for the table");
    if (pairs && output && strcmp(pairs, output) == 0 && !pairs_stdout)
        cli_usage_error("--pairs and --output name the same file");
    int nfiles;
    char **files = cli_operands(argc, argv, &nfiles);

    tells_error err;
    tells_error_clear(&err);
    char *mesh_default = mesh ? NULL : cli_data_file(MESH_FILE);
    char *builtin_file = builtin ? cli_data_file(BUILTIN_FILE) : NULL;
    concept_index *ci = NULL;
    heuristic_set hs;
    run ru = {.hs = &hs, .expect = expect, .digits = digits};
    out_file pairs_out = {0};
    bool pairs_open = false;
    heur_text_init(&ru.premise);
    heur_text_init(&ru.hypothesis);
    heuristic_set_init(&hs, NULL);

    int rc = 0;
    if ((!mesh && !mesh_default) || (builtin && !builtin_file))
        rc = tells_error_nomem(&err, NULL, 0);
    if (rc == 0 && !mesh)
        rc = cli_check_data_file(mesh_default, &err);
    if (rc == 0 && !(ci = concept_index_load(mesh ? mesh : mesh_default, &err)))
        rc = -1;
    for (size_t i = 0; i < synonyms.n && rc == 0; i++)
        rc = concept_index_add_synonyms(ci, synonyms.v[i], &err);
    hs.ci = ci;
    hs.general = general;
    if (rc == 0 && builtin && (rc = cli_check_data_file(builtin_file, &err)) == 0)
        rc = heuristic_set_load(&hs, builtin_file, &err);
    for (size_t i = 0; i < heur_files.n && rc == 0; i++)
        rc = heuristic_set_load(&hs, heur_files.v[i], &err);

    if (rc == 0 && heur_tally_init(&ru.tally, hs.n) < 0)
        rc = tells_error_nomem(&err, NULL, 0);
    if (rc == 0 && !(ru.holds = calloc(hs.n, sizeof *ru.holds)))
        rc = tells_error_nomem(&err, NULL, 0);
    if (rc == 0 && splits.n) {
        ru.splits = vocab_new();
        ru.split_rows = calloc(splits.n, sizeof *ru.split_rows);
        if (!ru.splits || !ru.split_rows)
            rc = tells_error_nomem(&err, NULL, 0);
        for (size_t i = 0; i < splits.n && rc == 0; i++)
            if (vocab_intern(ru.splits, splits.v[i], strlen(splits.v[i])) < 0)
                rc = tells_error_nomem(&err, NULL, 0);
    }
    if (rc == 0 && pairs) {
        if ((rc = out_open(&pairs_out, pairs, &err)) == 0) {
            pairs_open = true;
            ru.pairs = pairs_out.fp;
            fputs("id\tsplit\tlabel\theuristic\tpremise_concepts\t"
                  "hypothesis_concepts\tcues\n", ru.pairs);
        }
    }
    for (int i = 0; i < nfiles && rc == 0; i++)
        rc = read_rows(&ru, files[i], &err);
    const char *source = nfiles == 1 ? display_name(files[0]) : NULL;
    for (size_t i = 0; ru.splits && i < vocab_size(ru.splits) && rc == 0; i++)
        if (ru.split_rows[i] == 0)
            rc = tells_error_set(&err, source, 0, "no examples in split '%s'",
                                 vocab_str(ru.splits, i));
    if (rc == 0 && vocab_size(ru.tally.classes) == 0)
        rc = tells_error_set(&err, source, 0, "no examples in the input");
    if (rc == 0 && pairs_open) {
        rc = out_commit(&pairs_out, &err);
        pairs_open = false;
    }
    if (rc == 0)
        rc = out_write(output, write_table, &ru, &err);
    if (pairs_open)
        out_abort(&pairs_out);
    if (rc < 0)
        cli_report(&err);

    free(ru.last_premise);
    free(ru.holds);
    free(ru.split_rows);
    vocab_free(ru.splits);
    heur_witness_free(&ru.witness);
    heur_text_free(&ru.premise);
    heur_text_free(&ru.hypothesis);
    heur_tally_free(&ru.tally);
    heuristic_set_free(&hs);
    concept_index_free(ci);
    free(mesh_default);
    free(builtin_file);
    free(synonyms.v);
    free(heur_files.v);
    free(splits.v);
    return rc < 0 ? EXIT_DATA : 0;
}
