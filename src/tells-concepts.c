/* tells-concepts: the MeSH descriptors the heuristics see in each text. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fields.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "cli.h"
#include "text/concepts.h"
#include "text/redact.h"
#include "text/tokenize.h"

static void usage(void)
{
    printf("Usage: tells-concepts [OPTION]... [FILE]...\n"
"Show the MeSH descriptors linked in the premises and hypotheses of a\n"
"prepared TSV (FILE, or stdin when FILE is absent or '-'; several files are\n"
"read in turn), or in lines of text (--text): the links tells-heur's\n"
"heuristics see, for review and for use elsewhere.\n"
"\n"
"A descriptor is linked where the text has one of its terms: its heading in\n"
"the tree file (also uninverted: \"Anemia, Sickle Cell\" as \"sickle cell\n"
"anemia\") or an entry term of the entry-term file (\"heart attack\" for\n"
"D009203 Myocardial Infarction), on whole tokens, longest match first,\n"
"case-insensitively, on Snowball English stems (\"smokes\" meets \"smoking\"),\n"
"also inside tokens merged with '_' (brain_injury).\n"
"\n"
"Concepts:\n"
"  -m, --mesh FILE          MeSH tree file (Tree Number<TAB>Desc Ui<TAB>Term),\n"
"                           linked as before MeSH 2024 became the default: its\n"
"                           headings on exact tokens [DATA/" CLI_MESH2024_FILE "\n"
"                           with its entry terms, on stems]\n"
"      --terms FILE         MeSH entry-term file [DATA/" CLI_TERMS2024_FILE "\n"
"                           without --mesh]\n"
"      --no-terms           headings only\n"
"      --stem, --no-stem    match Snowball stems, or exact tokens [--stem\n"
"                           without --mesh]\n"
"      --synonyms FILE      extra terms, TERM<TAB>DESCRIPTOR per line;\n"
"                           repeatable\n"
"\n"
"Input and output:\n"
"  -T, --text               the input is lines of text, not a prepared TSV:\n"
"                           each is tokenised as tells-prep --keep-case does;\n"
"                           id is the line number, field 'text'; blank lines\n"
"                           are skipped\n"
"  -F, --field NAME         hypothesis, premise or both [both]\n"
"      --stats              write what the index holds instead (KEY<TAB>VALUE)\n"
"      --redact             no text: a row per descriptor linked in examples\n"
"                           of at least K premises (below)\n"
"      --min-examples K     with --redact: that K [10]\n"
"  -o, --output FILE        write here, atomically [stdout]\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"DATA is $TELLS_DATA when set and not empty (a source tree's corpora folder\n"
"serves), else the folder make install filled:\n"
"  %s\n"
"\n"
"Output: TSV with header id, field, start, end, text, descriptor, name,\n"
"tree_numbers; one row per link, in text order: the row's id, premise or\n"
"hypothesis, the link's first and one-past-last token (counted from 0 over\n"
"the text's tokens split at spaces and at '_'), those tokens as written,\n"
"the descriptor's id, its heading and its tree numbers (comma-separated).\n"
"A term of several descriptors links each of them, unless some are spelled\n"
"exactly as the text: then only those.\n"
"\n"
"With --redact, no text and no row per example: header descriptor,\n"
"tree_numbers, examples, premises (no heading: its words may be rarer in\n"
"the corpus than the descriptor); one row per descriptor linked in\n"
"examples of at least K premises (--min-examples, 10 by default; a line of\n"
"--text, or a row without a premise, is its own), by descriptor id;\n"
"examples and premises count the rows and the distinct premises that link\n"
"it.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  echo 'He smokes and had a heart attack.' | TELLS_DATA=corpora tells-concepts -T\n"
"  tells-prep -q --split dev corpora/snli/snli_1.0_dev.jsonl \\\n"
"    | TELLS_DATA=corpora tells-concepts -F hypothesis\n",
           CLI_PKGDATADIR);
}

enum { OPT_SYNONYMS = 256, OPT_STATS };

static const struct option long_options[] = {
    {"mesh", required_argument, NULL, 'm'},
    CLI_LINKING_OPTIONS,
    {"synonyms", required_argument, NULL, OPT_SYNONYMS},
    {"text", no_argument, NULL, 'T'},
    {"field", required_argument, NULL, 'F'},
    {"stats", no_argument, NULL, OPT_STATS},
    CLI_REDACT_OPTIONS,
    {"output", required_argument, NULL, 'o'},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    const char *output;
    bool stats, text;
    text_field field;
    cli_linking link;
    char **synonyms;          /* room for argc */
    size_t nsynonyms;
    char **files;
    size_t nfiles;
    heur_sources src;         /* the tree file, entry terms and synonyms */
    cli_redact redact;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.link = {.stem = -1}, .field = FIELD_BOTH};
    if (!(cfg->synonyms = calloc((size_t)argc, sizeof *cfg->synonyms)))
        cli_die("out of memory");
    int c;
    while ((c = getopt_long(argc, argv, "m:TF:o:", long_options, NULL)) != -1) {
        if (cli_linking_option(c, &cfg->link) || cli_common_option(c, usage, NULL) ||
            cli_redact_option(c, &cfg->redact))
            continue;
        switch (c) {
        case 'm': cfg->link.mesh = optarg; break;
        case OPT_SYNONYMS: cfg->synonyms[cfg->nsynonyms++] = optarg; break;
        case 'T': cfg->text = true; break;
        case 'F':
            if (text_field_parse(optarg, &cfg->field) < 0)
                cli_usage_error("invalid --field '%s' (hypothesis, premise or both)",
                                optarg);
            break;
        case OPT_STATS: cfg->stats = true; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    cli_linking_check(&cfg->link);
    cli_redact_check(&cfg->redact);
    if (cfg->stats && cfg->redact.on)
        cli_usage_error("--stats writes no corpus text: no --redact with it");
    if (cfg->text && cfg->field != FIELD_BOTH)
        cli_usage_error("--field is for prepared TSVs, not --text");
    int nfiles;
    cfg->files = cli_operands(argc, argv, &nfiles);
    cfg->nfiles = (size_t)nfiles;
    if (cfg->stats && (optind < argc || cfg->text))
        cli_usage_error("--stats reads no input");
    cli_linking_sources(&cfg->link, false, &cfg->src);
    cfg->src.synonyms = cfg->synonyms;
    cfg->src.nsynonyms = cfg->nsynonyms;
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    for (size_t i = 0; !cfg->stats && i < cfg->nfiles; i++)
        io_input(&io, "FILE", cfg->files[i]);
    cli_linking_io(&cfg->src, &io);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

typedef struct job {
    const concept_index *ci;
    char **files;
    size_t nfiles;
    bool text;
    text_field field;
    concept_hits hits;
    token_list toks;
    char *joined;
    size_t joined_cap;
    /* --redact: per descriptor, the rows and the premises that link it. */
    bool redact;
    size_t k;
    premise_tally examples, premises;
    size_t row;               /* the current row, counted from 0 */
    long premise;             /* its premise's group */
} job;

/* --redact: counts the hits of the current row once per descriptor. */
static int count_hits(job *j)
{
    for (size_t i = 0; i < j->hits.n; i++) {
        uint32_t c = j->hits.v[i].concept;
        if (premise_tally_add(&j->examples, c, (long)j->row) < 0 ||
            premise_tally_add(&j->premises, c, j->premise) < 0)
            return -1;
    }
    return 0;
}

static int link_one(FILE *fp, job *j, const char *id, const char *field,
                    const char *text, size_t len)
{
    if (concept_link_text(j->ci, text, len, &j->hits) < 0)
        return -1;
    if (j->redact)
        return count_hits(j);
    concept_hits_write(fp, j->ci, &j->hits, id, field);
    return 0;
}

/* The row's premise, for --redact: its text in a prepared TSV, the row
   itself with --text. */
static int set_row(job *j, size_t row, const char *premise, size_t len)
{
    j->row = row;
    if (!j->redact)
        return 0;
    j->premise = premise_tally_group(&j->premises, premise, len);
    return j->premise < 0 ? -1 : 0;
}

static int ui_cmp(const void *a, const void *b, void *ci)
{
    return strcmp(concept_ui(ci, *(const uint32_t *)a), concept_ui(ci, *(const uint32_t *)b));
}

/* --redact's table. */
static int write_redacted(FILE *fp, const job *j, tells_error *err)
{
    size_t n = concept_count(j->ci), m = 0;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    for (size_t c = 0; c < n; c++)
        if (premise_tally_count(&j->premises, c) >= j->k)
            order[m++] = (uint32_t)c;
    qsort_r(order, m, sizeof *order, ui_cmp, (void *)j->ci);
    fputs("descriptor\ttree_numbers\texamples\tpremises\n", fp);
    for (size_t i = 0; i < m; i++) {
        uint32_t c = order[i];
        fprintf(fp, "%s\t", concept_ui(j->ci, c));
        size_t nt = concept_ntrees(j->ci, c);
        for (size_t k = 0; k < nt; k++)
            fprintf(fp, "%s%s", k ? "," : "", concept_tree(j->ci, c, k));
        fprintf(fp, "\t%zu\t%zu\n", premise_tally_count(&j->examples, c),
                premise_tally_count(&j->premises, c));
    }
    free(order);
    return 0;
}

static int link_prepared(FILE *fp, job *j, const char *path, size_t *rows,
                         tells_error *err)
{
    prepared_reader pr;
    if (prepared_open(&pr, path, false, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    while ((rc = prepared_next(&pr, &row, err)) == 1) {
        if (set_row(j, *rows, row.field[PREP_PREMISE], row.len[PREP_PREMISE]) < 0) {
            rc = tells_error_nomem(err, pr.lr.name, row.lineno);
            break;
        }
        (*rows)++;
        const char *id = row.field[PREP_ID];
        if ((j->field != FIELD_HYPOTHESIS &&
             link_one(fp, j, id, "premise", row.field[PREP_PREMISE], row.len[PREP_PREMISE]) < 0) ||
            (j->field != FIELD_PREMISE &&
             link_one(fp, j, id, "hypothesis", row.field[PREP_HYPOTHESIS],
                      row.len[PREP_HYPOTHESIS]) < 0)) {
            rc = tells_error_nomem(err, pr.lr.name, row.lineno);
            break;
        }
    }
    prepared_close(&pr);
    return rc < 0 ? -1 : 0;
}

static int link_lines(FILE *fp, job *j, const char *path, size_t *rows, tells_error *err)
{
    static const tok_options cased = {.kind = TOKENIZER_DEFAULT, .keep_case = true};
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *line;
    size_t len;
    int rc;
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        if ((rc = text_line_check(line, len, r.name, r.lineno, err)) < 0)
            break;
        /* A blank line is no example: input of blank lines only has none. */
        if (line_is_blank(line, len))
            continue;
        if (set_row(j, *rows, NULL, 0) < 0) {
            rc = tells_error_nomem(err, r.name, r.lineno);
            break;
        }
        (*rows)++;
        char id[32];
        size_t jlen = 0;
        snprintf(id, sizeof id, "%ld", r.lineno);
        if (tokenize(&cased, line, len, &j->toks) < 0 ||
            token_list_join(&j->toks, &j->joined, &jlen, &j->joined_cap) < 0 ||
            link_one(fp, j, id, "text", j->joined ? j->joined : "", jlen) < 0) {
            rc = tells_error_nomem(err, r.name, r.lineno);
            break;
        }
    }
    line_reader_close(&r);
    return rc < 0 ? -1 : 0;
}

static int write_links(FILE *fp, void *ctx, tells_error *err)
{
    job *j = ctx;
    if (!j->redact)
        fputs("id\tfield\tstart\tend\ttext\tdescriptor\tname\ttree_numbers\n", fp);
    size_t rows = 0;
    for (size_t i = 0; i < j->nfiles; i++) {
        int rc = j->text ? link_lines(fp, j, j->files[i], &rows, err)
                         : link_prepared(fp, j, j->files[i], &rows, err);
        if (rc < 0)
            return -1;
    }
    if (rows == 0)
        return prepared_empty_error(err, j->files, j->nfiles);
    if (j->redact && write_redacted(fp, j, err) < 0)
        return -1;
    return out_status(fp, err);
}

static int write_stats(FILE *fp, void *ctx, tells_error *err)
{
    const concept_index *ci = ctx;
    const concept_stats *s = concept_index_stats(ci);
    fprintf(fp, "descriptors\t%zu\ntree_numbers\t%zu\nterm_rows\t%zu\nterms\t%zu\n"
            "permuted_skipped\t%zu\nunknown_rows\t%zu\nunknown_descriptors\t%zu\n"
            "abbreviations\t%zu\nkeys\t%zu\nambiguous_keys\t%zu\n",
            s->descriptors, s->tree_numbers, s->term_rows, s->terms, s->permuted_skipped,
            s->unknown_rows, s->unknown_descriptors, s->abbreviations, s->keys,
            s->ambiguous_keys);
    return out_status(fp, err);
}

/* The concept index, with the synonyms. */
static concept_index *open_index(const config *cfg, tells_error *err)
{
    const heur_sources *src = &cfg->src;
    if (src->mesh_in_data && cli_check_data_file(src->mesh, err) < 0)
        return NULL;
    if (src->terms_in_data && cli_check_data_file(src->terms, err) < 0)
        return NULL;
    concept_options co = {.terms = src->terms, .stem = src->stem};
    concept_index *ci = concept_index_open(src->mesh, &co, err);
    for (size_t i = 0; ci && i < cfg->nsynonyms; i++)
        if (concept_index_add_synonyms(ci, cfg->synonyms[i], err) < 0) {
            concept_index_free(ci);
            return NULL;
        }
    return ci;
}

/* The links of every input, or with --stats what the index holds. */
static int concepts(const config *cfg, tells_error *err)
{
    concept_index *ci = open_index(cfg, err);
    if (!ci)
        return -1;
    job j = {.ci = ci, .files = cfg->files, .nfiles = cfg->nfiles, .text = cfg->text,
             .field = cfg->field, .redact = cfg->redact.on, .k = cfg->redact.k};
    if (j.redact &&
        (premise_tally_init(&j.examples) < 0 || premise_tally_init(&j.premises) < 0))
        cli_die("out of memory");
    int rc = cfg->stats ? out_write(cfg->output, write_stats, ci, err)
                        : out_write(cfg->output, write_links, &j, err);
    concept_hits_free(&j.hits);
    token_list_free(&j.toks);
    free(j.joined);
    if (j.redact) {
        premise_tally_free(&j.examples);
        premise_tally_free(&j.premises);
    }
    concept_index_free(ci);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-concepts");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    int rc = concepts(&cfg, &err);
    cli_linking_free(&cfg.link);
    free(cfg.synonyms);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
