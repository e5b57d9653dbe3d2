/* tells-audit: does a new annotation batch bring new or stronger shortcuts? */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/audit.h"
#include "cli.h"
#include "text/concepts.h"
#include "analysis/heuristics.h"
#include "base/lineio.h"
#include "base/outfile.h"

static void usage(void)
{
    printf("Usage: tells-audit [OPTION]... --reference REF BATCH...\n"
"Audit new annotation batches (prepared TSVs) against a reference corpus\n"
"(a prepared TSV) before they are merged: does a batch bring new or stronger\n"
"shortcuts? Per batch file, or per value of --group-column (an annotator or\n"
"batch column of the prepared TSV), it reports:\n"
"  predictability  accuracy of a hypothesis-only fastText model (word bigrams,\n"
"                  200,000 n-gram buckets, fastText's other defaults) trained on the\n"
"                  reference, against the reference's own cross-validated\n"
"                  accuracy (one-sided two-proportion z-test), and the mean\n"
"                  probability of the gold label;\n"
"  self_predictability  the batch's own cross-validated hypothesis-only\n"
"                  accuracy, against that of 3 random runs of consecutive\n"
"                  reference rows of the same size (a shortcut the reference\n"
"                  lacks shows here; 25 epochs on both sides);\n"
"  token:W         tokens whose label association is new or stronger than in\n"
"                  the reference (chi-squared homogeneity of the class\n"
"                  distribution of the examples holding W; the reference row\n"
"                  gets --pseudo examples spread as its label prior);\n"
"  tell_share      share of hypotheses holding one of the reference's top-PMI\n"
"                  tokens (one-sided two-proportion z-test);\n"
"  label_balance   label distribution (chi-squared homogeneity);\n"
"  length:CLASS    hypothesis length by class (Welch's t-test);\n"
"  heuristic:NAME  pairs that satisfy an annotator heuristic of tells-heur\n"
"                  (hypernym, probable-cause, everything-fine), by class,\n"
"                  and those that do not (chi-squared homogeneity); found\n"
"                  only when the batch uses it more, or more for its class;\n"
"  duplicates, near_duplicates  hypotheses equal to one of the reference or\n"
"                  of the batch, exactly or but for stopwords and word order.\n"
"All tests of a group are corrected together (Benjamini-Hochberg).\n"
"\n"
"  -r, --reference FILE     the reference corpus (required)\n"
"  -g, --group-column NAME  audit each value of this column separately\n"
"      --model FILE         reuse a model saved by --save-model (with its\n"
"                           cross-validated figures in FILE.ref)\n"
"      --save-model FILE    save the reference model and FILE.ref\n"
"      --folds K            cross-validation folds on the reference [5]\n"
"      --seed N             fastText and fold seed [0]\n"
"      --threads N          fastText threads; 1 is deterministic [1]\n"
"      --alpha A            false discovery rate [0.05]\n"
"      --min-count N        batch examples holding a token to test it [5]\n"
"      --pseudo X           reference pseudo-examples per token [10]\n"
"      --predictable P      flag examples whose gold label gets P or more\n"
"                           from the hypothesis-only model [0.9]\n"
"      --top N              reference top-PMI tokens per class [15]\n"
"  -m, --mesh FILE          MeSH tree file of the heuristics\n"
"                           [DATA/" CLI_MESH_FILE "]\n"
"  -H, --heuristics FILE    add the heuristics defined in FILE (tells-heur's\n"
"                           format) to the built-in ones; repeatable\n"
"      --no-heuristics      no heuristic check\n"
"      --flags FILE         write per-example flags, worst first\n"
"      --fail-on LIST       exit 1 when a significant finding of these kinds\n"
"                           (or any duplicate) is made: any, predictability,\n"
"                           tokens, tell-share, balance, length, duplicates,\n"
"                           heuristics\n"
"  -o, --output FILE        write the summary here, atomically [stdout]\n"
"  -q, --quiet              no progress on stderr\n"
"      --progress           progress even when stderr is not a terminal\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Output: TSV with header group, check, batch, reference, statistic, df,\n"
"p_value, q_value, significant, detail; tokens are listed only when\n"
"significant. --flags: group, id, gold, p_gold, flags (comma-separated:\n"
"predictable, token:W, heuristic:NAME, duplicate:ID, near-duplicate:ID),\n"
"most flags first. DATA is $TELLS_DATA when set and not empty (a source\n"
"tree's corpora folder serves), else the folder make install filled:\n"
"  %s\n"
"\n"
"Exit status: 0 success, 1 bad data, a runtime failure or a --fail-on gate,\n"
"2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q -o ref.tsv --split train corpora/synthetic/train.jsonl\n"
"  tools/tells-synth --seed 7 --plant stat=neutral:150 --id-prefix b7 -o b7\n"
"  tells-prep -q -o batch.tsv --split new b7/train.jsonl\n"
"  tells-audit --reference ref.tsv --save-model ref.bin --flags flags.tsv batch.tsv\n"
"  tells-audit --reference ref.tsv --model ref.bin --fail-on tokens batch.tsv\n",
           CLI_PKGDATADIR);
}

enum {
    OPT_MODEL = 256, OPT_SAVE, OPT_FOLDS, OPT_SEED, OPT_THREADS, OPT_ALPHA, OPT_MIN,
    OPT_PSEUDO, OPT_PREDICTABLE, OPT_TOP, OPT_FLAGS, OPT_FAIL, OPT_PROGRESS,
    OPT_NO_HEURISTICS, OPT_HELP, OPT_VERSION
};

static const struct option long_options[] = {
    {"reference", required_argument, NULL, 'r'},
    {"group-column", required_argument, NULL, 'g'},
    {"model", required_argument, NULL, OPT_MODEL},
    {"save-model", required_argument, NULL, OPT_SAVE},
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"min-count", required_argument, NULL, OPT_MIN},
    {"pseudo", required_argument, NULL, OPT_PSEUDO},
    {"predictable", required_argument, NULL, OPT_PREDICTABLE},
    {"top", required_argument, NULL, OPT_TOP},
    {"mesh", required_argument, NULL, 'm'},
    {"heuristics", required_argument, NULL, 'H'},
    {"no-heuristics", no_argument, NULL, OPT_NO_HEURISTICS},
    {"flags", required_argument, NULL, OPT_FLAGS},
    {"fail-on", required_argument, NULL, OPT_FAIL},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

/* --fail-on kinds, as bits. */
static const char *const gate_names[] = {
    "any", "predictability", "tokens", "tell-share", "balance", "length", "duplicates",
    "heuristics"
};
enum { NGATES = sizeof gate_names / sizeof gate_names[0] };

static unsigned parse_gates(const char *arg)
{
    unsigned gates = 0;
    char *list = strdup(arg);
    for (char *t = list ? strtok(list, ",") : NULL; t; t = strtok(NULL, ",")) {
        size_t k = 0;
        while (k < NGATES && strcmp(t, gate_names[k]) != 0)
            k++;
        if (k == NGATES)
            cli_usage_error("invalid --fail-on kind '%s' (any, predictability, tokens, "
                            "tell-share, balance, length, duplicates, heuristics)", t);
        gates |= 1u << k;
    }
    free(list);
    if (!gates)
        cli_usage_error("invalid --fail-on list '%s'", arg);
    return gates;
}

/* The gate a finding belongs to. */
static size_t gate_of(const finding *f)
{
    static const struct { const char *prefix; size_t gate; } map[] = {
        {"predictability", 1}, {"self_predictability", 1}, {"token:", 2}, {"tell_share", 3},
        {"label_balance", 4}, {"length:", 5}, {"duplicates", 6}, {"near_duplicates", 6},
        {"heuristic:", 7},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(f->check, map[i].prefix, strlen(map[i].prefix)) == 0)
            return map[i].gate;
    return 0;
}

static bool gate_fails(const finding *f, unsigned gates)
{
    size_t g = gate_of(f);
    bool hit = g == 6 ? f->batch > 0 : f->significant;
    return hit && (gates & 1u || (g && gates & (1u << g)));
}

static void progress(const char *msg, void *user)
{
    if (*(const bool *)user)
        cli_warn("%s", msg);
}

typedef struct run {
    audit_options opt;
    const char *reference, *group_column, *model, *save_model, *flags, *output;
    const char *mesh;
    const char **heur_files;
    size_t nheur_files;
    bool no_heuristics;
    concept_index *ci;
    heuristic_set hs;
    unsigned gates;
    bool show_progress;
    audit_reference ref;
    dataset *batches;
    size_t nbatches;
    audit_group *groups;
    size_t ngroups;
} run;

static void parse_args(int argc, char **argv, run *r)
{
    audit_options_default(&r->opt);
    bool quiet = false, forced = false;
    int c;
    while ((c = getopt_long(argc, argv, "r:g:o:qm:H:", long_options, NULL)) != -1) {
        switch (c) {
        case 'r': r->reference = optarg; break;
        case 'g': r->group_column = optarg; break;
        case OPT_MODEL: r->model = optarg; break;
        case OPT_SAVE: r->save_model = optarg; break;
        case OPT_FOLDS: r->opt.folds = (size_t)cli_long("--folds", optarg, 2, 1000); break;
        case OPT_SEED: r->opt.ft.seed = (int)cli_long("--seed", optarg, 0, INT_MAX); break;
        case OPT_THREADS: r->opt.ft.threads = (int)cli_long("--threads", optarg, 1, 256); break;
        case OPT_ALPHA:
            r->opt.alpha = cli_double("--alpha", optarg, 0.0);
            if (r->opt.alpha <= 0 || r->opt.alpha >= 1)
                cli_usage_error("invalid value '%s' for --alpha (expected 0 < A < 1)", optarg);
            break;
        case OPT_MIN: r->opt.min_count = (uint64_t)cli_long("--min-count", optarg, 1, LONG_MAX); break;
        case OPT_PSEUDO: r->opt.pseudo = cli_double("--pseudo", optarg, 0.0); break;
        case OPT_PREDICTABLE:
            r->opt.predictable = cli_double("--predictable", optarg, 0.0);
            if (r->opt.predictable > 1)
                cli_usage_error("invalid value '%s' for --predictable (expected 0 to 1)", optarg);
            break;
        case OPT_TOP: r->opt.top_pmi = (size_t)cli_long("--top", optarg, 1, LONG_MAX); break;
        case OPT_FLAGS: r->flags = optarg; break;
        case 'm': r->mesh = optarg; break;
        case 'H': {
            const char **v = realloc(r->heur_files, (r->nheur_files + 1) * sizeof *v);
            if (!v) {
                cli_warn("out of memory");
                exit(EXIT_DATA);
            }
            v[r->nheur_files++] = optarg;
            r->heur_files = v;
            break;
        }
        case OPT_NO_HEURISTICS: r->no_heuristics = true; break;
        case OPT_FAIL: r->gates = parse_gates(optarg); break;
        case 'o': r->output = optarg; break;
        case 'q': quiet = true; break;
        case OPT_PROGRESS: forced = true; break;
        case OPT_HELP: usage(); exit(0);
        case OPT_VERSION: cli_version(); exit(0);
        default: cli_try_help();
        }
    }
    if (!r->reference)
        cli_usage_error("no reference: give --reference FILE");
    if (optind == argc)
        cli_usage_error("no batch to audit");
    if (r->model && r->save_model)
        cli_usage_error("--model and --save-model cannot be combined");
    if (r->no_heuristics && (r->mesh || r->nheur_files))
        cli_usage_error("--no-heuristics excludes --mesh and --heuristics");
    r->show_progress = cli_show_progress(quiet, forced);
    r->opt.progress = progress;
    r->opt.progress_user = &r->show_progress;
}

static int add_group(run *r, const dataset *d, const char *name, size_t *rows, size_t n)
{
    audit_group *g = realloc(r->groups, (r->ngroups + 1) * sizeof *g);
    if (!g)
        return -1;
    r->groups = g;
    g = &r->groups[r->ngroups++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->data = d;
    g->rows = rows;
    g->n = n;
    return 0;
}

/* One group per batch file, or per value of the group column in it. */
static int make_groups(run *r, const dataset *d, bool name_by_file, tells_error *err)
{
    long col = r->group_column ? dataset_column(d, r->group_column) : -1;
    if (r->group_column && col < 0)
        return tells_error_set(err, d->source, 1, "no column named '%s'", r->group_column);
    vocab *values = vocab_new();
    size_t *of = malloc((d->n ? d->n : 1) * sizeof *of);
    int rc = values && of ? 0 : tells_error_nomem(err, NULL, 0);
    char buf[256];
    for (size_t i = 0; rc == 0 && i < d->n; i++) {
        const char *v = col >= 0 ? example_column(&d->ex[i], col, buf, sizeof buf) : "";
        long k = vocab_intern(values, v, strlen(v));
        if (k < 0)
            rc = tells_error_nomem(err, NULL, 0);
        of[i] = (size_t)k;
    }
    size_t *order = rc == 0 ? vocab_sorted_ids(values) : NULL;
    for (size_t j = 0; rc == 0 && order && j < vocab_size(values); j++) {
        size_t k = order[j], n = 0;
        size_t *rows = malloc(d->n * sizeof *rows);
        if (!rows) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        for (size_t i = 0; i < d->n; i++)
            if (of[i] == k)
                rows[n++] = i;
        char name[256];
        if (col < 0)
            snprintf(name, sizeof name, "%s", d->source);
        else if (name_by_file)
            snprintf(name, sizeof name, "%s:%s", d->source, vocab_str(values, k));
        else
            snprintf(name, sizeof name, "%s", vocab_str(values, k));
        if (add_group(r, d, name, rows, n) < 0) {
            free(rows);
            rc = tells_error_nomem(err, NULL, 0);
        }
    }
    free(order);
    free(of);
    vocab_free(values);
    return rc;
}

static int write_summary(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    run *r = ctx;
    audit_write_summary_header(fp);
    for (size_t i = 0; i < r->ngroups; i++)
        audit_write_summary(fp, &r->groups[i]);
    return ferror(fp) ? -1 : 0;
}

static int write_flags(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    run *r = ctx;
    audit_write_flags_header(fp);
    for (size_t i = 0; i < r->ngroups; i++)
        audit_write_flags(fp, &r->groups[i]);
    return ferror(fp) ? -1 : 0;
}

/* The MeSH concepts and the built-in heuristics, with the user's. */
static int load_heuristics(run *r, tells_error *err)
{
    char *mesh = r->mesh ? strdup(r->mesh) : cli_data_file(CLI_MESH_FILE);
    char *builtin = cli_data_file(CLI_HEURISTICS_FILE);
    int rc = mesh && builtin ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0 && !r->mesh)
        rc = cli_check_data_file(mesh, err);
    if (rc == 0 && !(r->ci = concept_index_load(mesh, err)))
        rc = -1;
    r->hs.ci = r->ci;
    if (rc == 0 && (rc = cli_check_data_file(builtin, err)) == 0)
        rc = heuristic_set_load(&r->hs, builtin, err);
    for (size_t i = 0; rc == 0 && i < r->nheur_files; i++)
        rc = heuristic_set_load(&r->hs, r->heur_files[i], err);
    if (rc == 0)
        r->opt.heuristics = &r->hs;
    free(mesh);
    free(builtin);
    return rc;
}

static int audit(run *r, char **files, int nfiles, tells_error *err)
{
    if (!r->no_heuristics && load_heuristics(r, err) < 0)
        return -1;
    if (audit_reference_load(&r->ref, r->reference, r->model, &r->opt, err) < 0)
        return -1;
    if (r->save_model && audit_save_model(&r->ref, r->save_model, err) < 0)
        return -1;
    r->batches = calloc((size_t)nfiles, sizeof *r->batches);
    if (!r->batches)
        return tells_error_nomem(err, NULL, 0);
    for (int i = 0; i < nfiles; i++) {
        if (dataset_load(&r->batches[i], files[i], err) < 0)
            return -1;
        r->nbatches++;
        if (r->batches[i].n == 0)
            return tells_error_set(err, r->batches[i].source, 0, "no examples");
        if (make_groups(r, &r->batches[i], nfiles > 1, err) < 0)
            return -1;
    }
    for (size_t i = 0; i < r->ngroups; i++) {
        if (r->show_progress)
            cli_warn("auditing %s (%zu examples)", r->groups[i].name, r->groups[i].n);
        if (audit_group_run(&r->groups[i], &r->ref, &r->opt, err) < 0)
            return -1;
    }
    if (r->flags && out_write(r->flags, write_flags, r, err) < 0)
        return -1;
    return out_write(r->output, write_summary, r, err);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-audit");
    run r = {0};
    heuristic_set_init(&r.hs, NULL);
    parse_args(argc, argv, &r);
    tells_error err;
    tells_error_clear(&err);
    int rc = audit(&r, argv + optind, argc - optind, &err);
    if (rc < 0)
        cli_report(&err);
    bool gate = false;
    for (size_t i = 0; rc == 0 && i < r.ngroups; i++)
        for (size_t k = 0; k < r.groups[i].nf; k++)
            if (r.gates && gate_fails(&r.groups[i].f[k], r.gates)) {
                cli_warn("%s: %s fails the gate", r.groups[i].name, r.groups[i].f[k].check);
                gate = true;
            }
    for (size_t i = 0; i < r.ngroups; i++)
        audit_group_free(&r.groups[i]);
    free(r.groups);
    for (size_t i = 0; i < r.nbatches; i++)
        dataset_free(&r.batches[i]);
    free(r.batches);
    audit_reference_free(&r.ref);
    heuristic_set_free(&r.hs);
    concept_index_free(r.ci);
    free(r.heur_files);
    return rc < 0 || gate ? EXIT_DATA : 0;
}
