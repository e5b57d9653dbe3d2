/* tells-audit: does a new annotation batch bring new or stronger shortcuts? */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/audit.h"
#include "analysis/heuristics.h"
#include "text/pairshape.h"
#include "base/outfile.h"
#include "cli.h"
#include "text/redact.h"
#include "model/baseline.h"

static void usage(void)
{
    printf("Usage: tells-audit [OPTION]... --reference REF BATCH...\n"
"Audit new annotation batches (prepared TSVs) against a reference corpus\n"
"(a prepared TSV) before they are merged: does a batch bring new or stronger\n"
"shortcuts? Per batch file, or per value of --group-column (an annotator or\n"
"batch column of the prepared TSV), it reports:\n"
"  predictability  accuracy of a hypothesis-only fastText model (word bigrams,\n"
"                  10 dimensions, buckets sized to the text, fastText's other\n"
"                  defaults) trained on the reference, against the\n"
"                  reference's own cross-validated accuracy (one-sided\n"
"                  two-proportion z-test), and the mean probability of the\n"
"                  gold label;\n"
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
"                  of the batch, exactly or but for stopwords and word order;\n"
"  shared_ids      rows with an id the reference has: the batch repeats the\n"
"                  reference (a warning on stderr and in the detail when any).\n"
"All tests of a group are corrected together (Benjamini-Hochberg).\n"
"\n"
"  -r, --reference FILE     the reference corpus (required)\n"
"  -g, --group-column NAME  audit each value of this column separately\n"
"      --model FILE         reuse a model saved by --save-model (with its\n"
"                           cross-validated figures in FILE.ref)\n"
"      --save-model FILE    save the reference model and FILE.ref\n"
"      --folds K            cross-validation folds on the reference [5]\n"
CLI_GROUP_BY_HELP
"      --seed N             fastText and fold seed [0]\n"
"      --threads N          fastText threads; 1 is deterministic [1]\n"
"      --alpha A            false discovery rate [0.05]\n"
"      --min-count N        batch examples holding a token to test it [5]\n"
"      --pseudo X           reference pseudo-examples per token [10]\n"
"      --predictable P      flag examples whose gold label gets P or more\n"
"                           from the hypothesis-only model [0.9]\n"
"      --top N              reference top-PMI tokens per class [15]\n"
"  -m, --mesh FILE          MeSH tree file of the heuristics, linked as by\n"
"                           tells-heur --mesh: headings on exact tokens, with\n"
"                           the built-in heuristics for MeSH 2017\n"
"                           [DATA/" CLI_MESH2024_FILE " with its entry terms,\n"
"                           on stems]\n"
"      --terms FILE         MeSH entry-term file of the heuristics\n"
"                           [DATA/" CLI_TERMS2024_FILE " without --mesh]\n"
"      --no-terms           the heuristics link headings only\n"
"      --stem, --no-stem    the heuristics match Snowball stems, or exact\n"
"                           tokens [--stem without --mesh]\n"
"  -H, --heuristics FILE    add the heuristics defined in FILE (tells-heur's\n"
"                           format) to the built-in ones; repeatable\n"
"      --no-heuristics      no heuristic check\n"
"      --negation FILE      the negation cues of the pair checks (overlap and\n"
"                           added negation by class, batch against\n"
"                           reference) [DATA/lexicons/negation-triggers.txt]\n"
"      --no-pairs           no pair check\n"
"      --flags FILE         write per-example flags, worst first\n"
"      --redact             a token is named only when it occurs in examples\n"
"                           of at least K premises of the reference and the\n"
"                           batches; the others read token:[withheld]\n"
"      --min-examples K     with --redact: that K [10]\n"
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
"p_value, q_value (3 significant digits), significant, detail; tokens are\n"
"listed only when significant (with --redact, a token of fewer than K\n"
"premises as token:[withheld]). --flags: group, id, gold, p_gold, flags\n"
"(comma-separated: predictable, token:W, heuristic:NAME, duplicate:ID,\n"
"near-duplicate:ID), most flags first. DATA is $TELLS_DATA\n"
"when set and not empty (a source tree's corpora folder serves), else the\n"
"folder make install filled:\n"
"  %s\n"
"\n"
"Exit status: 0 success, 1 bad data, a runtime failure or a --fail-on gate,\n"
"2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q -o ref.tsv --split train corpora/synthetic/train.jsonl\n"
"  tools/tells-synth --seed 7 --plant stat=neutral:150 --id-prefix b7 --replace -o b7\n"
"  tells-prep -q -o batch.tsv --split new b7/train.jsonl\n"
"  tells-audit --reference ref.tsv --save-model ref.bin --flags flags.tsv batch.tsv\n"
"  # a gate in a pipeline: exit 1 when the batch has a new or stronger token tell\n"
"  tells-audit --reference ref.tsv --model ref.bin --fail-on tokens batch.tsv \\\n"
"    >/dev/null || echo 'batch b7 refused'\n",
           CLI_PKGDATADIR);
}

enum {
    OPT_MODEL = 256, OPT_SAVE, OPT_FOLDS, OPT_GROUP_BY, OPT_SEED, OPT_THREADS, OPT_ALPHA, OPT_MIN,
    OPT_PSEUDO, OPT_PREDICTABLE, OPT_TOP, OPT_FLAGS, OPT_FAIL, OPT_NO_HEURISTICS, OPT_NEGATION,
    OPT_NO_PAIRS
};

static const struct option long_options[] = {
    {"reference", required_argument, NULL, 'r'},
    {"group-column", required_argument, NULL, 'g'},
    {"model", required_argument, NULL, OPT_MODEL},
    {"save-model", required_argument, NULL, OPT_SAVE},
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
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
    {"negation", required_argument, NULL, OPT_NEGATION},
    {"no-pairs", no_argument, NULL, OPT_NO_PAIRS},
    CLI_LINKING_OPTIONS,
    {"flags", required_argument, NULL, OPT_FLAGS},
    {"fail-on", required_argument, NULL, OPT_FAIL},
    CLI_REDACT_OPTIONS,
    {"output", required_argument, NULL, 'o'},
    CLI_QUIET_OPTION,
    CLI_PROGRESS_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

/* The --fail-on list: gate kinds, as bits. */
static unsigned parse_gates(const char *arg)
{
    unsigned gates = 0;
    char *list = cli_strdup(arg);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
        int g = audit_gate_find(t);
        if (g < 0) {
            char kinds[256] = "";
            for (int k = 0; k < AUDIT_NGATES; k++)
                snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s",
                         k ? ", " : "", audit_gate_name((audit_gate)k));
            cli_usage_error("invalid --fail-on kind '%s' (%s)", t, kinds);
        }
        gates |= 1u << g;
    }
    free(list);
    if (!gates)
        cli_usage_error("invalid --fail-on list '%s'", arg);
    return gates;
}

typedef struct run {
    audit_options opt;
    const char *reference, *group_column, *model, *save_model, *flags, *output;
    cli_linking link;
    char **heur_files;         /* room for argc */
    size_t nheur_files;
    bool no_heuristics, no_pairs;
    char *negation;            /* the pair features' cues */
    heuristic_set hs;
    heur_sources src;          /* where the heuristics come from */
    unsigned gates;
    bool show_progress;
    audit_reference ref;
    audit_report report;
    cli_redact redact;
    redact_gate *gate;
} run;

static void parse_args(int argc, char **argv, run *r)
{
    audit_options_default(&r->opt);
    r->link.stem = -1;
    if (!(r->heur_files = calloc((size_t)argc, sizeof *r->heur_files)))
        cli_die("out of memory");
    cli_verbosity v = {0};
    int c;
    while ((c = getopt_long(argc, argv, "r:g:o:qm:H:", long_options, NULL)) != -1) {
        if (cli_linking_option(c, &r->link) || cli_common_option(c, usage, &v) ||
            cli_redact_option(c, &r->redact))
            continue;
        switch (c) {
        case 'r': r->reference = optarg; break;
        case 'g': r->group_column = optarg; break;
        case OPT_MODEL: r->model = optarg; break;
        case OPT_SAVE: r->save_model = optarg; break;
        case OPT_FOLDS: r->opt.folds = (size_t)cli_long("--folds", optarg, 2, 1000); break;
        case OPT_GROUP_BY: r->opt.group = cli_group_by(optarg); break;
        case OPT_SEED: r->opt.ft.seed = (int)cli_long("--seed", optarg, 0, INT_MAX); break;
        case OPT_THREADS: r->opt.ft.threads = (int)cli_long("--threads", optarg, 1, 256); break;
        case OPT_ALPHA:
            r->opt.alpha = cli_double_range("--alpha", optarg, 0, 1, CLI_OPEN);
            break;
        case OPT_MIN: r->opt.min_count = (uint64_t)cli_long("--min-count", optarg, 1, LONG_MAX); break;
        case OPT_PSEUDO: r->opt.pseudo = cli_double("--pseudo", optarg, 0.0); break;
        case OPT_PREDICTABLE:
            r->opt.predictable = cli_double_range("--predictable", optarg, 0, 1, CLI_CLOSED);
            break;
        case OPT_TOP: r->opt.top_pmi = (size_t)cli_long("--top", optarg, 1, LONG_MAX); break;
        case OPT_FLAGS: r->flags = optarg; break;
        case 'm': r->link.mesh = optarg; break;
        case 'H': r->heur_files[r->nheur_files++] = optarg; break;
        case OPT_NO_HEURISTICS: r->no_heuristics = true; break;
        case OPT_NEGATION:
            free(r->negation);
            r->negation = cli_strdup(optarg);
            break;
        case OPT_NO_PAIRS: r->no_pairs = true; break;
        case OPT_FAIL: r->gates = parse_gates(optarg); break;
        case 'o': r->output = optarg; break;
        default: cli_try_help();
        }
    }
    cli_redact_check(&r->redact);
    if (!r->reference)
        cli_usage_error("no reference: give --reference FILE");
    if (optind == argc)
        cli_usage_error("no batch to audit");
    if (r->model && r->save_model)
        cli_usage_error("--model and --save-model cannot be combined");
    if (r->no_heuristics && (r->link.mesh || r->link.terms || r->link.no_terms ||
                             r->link.stem >= 0 || r->nheur_files))
        cli_usage_error("--no-heuristics excludes --mesh, --terms, --no-terms, --stem, "
                        "--no-stem and --heuristics");
    cli_linking_check(&r->link);
    if (r->no_pairs && r->negation)
        cli_usage_error("--no-pairs excludes --negation");
    if (!r->no_pairs && !r->negation &&
        !(r->negation = cli_data_file("lexicons/negation-triggers.txt")))
        cli_die("out of memory");
    r->show_progress = cli_show_progress(v.quiet, v.progress);
    r->opt.progress = cli_progress;
    r->opt.progress_user = &r->show_progress;
    r->src = (heur_sources){.definitions = r->heur_files, .ndefinitions = r->nheur_files,
                            .general = true};
    if (!r->no_heuristics)
        cli_linking_sources(&r->link, true, &r->src);
}

/* "PATH.ref", or NULL for NULL. */
static char *with_ref(const char *path)
{
    if (!path)
        return NULL;
    char *p = malloc(strlen(path) + 5);
    if (!p)
        cli_die("out of memory");
    sprintf(p, "%s.ref", path);
    return p;
}

/* Every file the run reads and writes, before any work. */
static void check_io(const run *r, char **files, int nfiles)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "--reference", r->reference);
    io_input(&io, "--negation", r->negation);
    for (int i = 0; i < nfiles; i++)
        io_input(&io, "BATCH", files[i]);
    char *model_ref = with_ref(r->model);
    io_input(&io, "--model", r->model);
    io_input(&io, "--model", model_ref);
    if (!r->no_heuristics)
        cli_linking_io(&r->src, &io);
    const char *save = fasttext_model_path(r->save_model);
    char *save_ref = with_ref(r->save_model);
    io_output(&io, "--save-model", save);
    io_output(&io, "--save-model", save_ref);
    io_output(&io, "--flags", r->flags);
    io_output(&io, "--output", r->output ? r->output : "-");
    free(model_ref);
    free(save_ref);
    cli_check_io(&io);
}

/* The MeSH concepts and the built-in heuristics, with the user's. */
static int load_heuristics(run *r, tells_error *err)
{
    int rc = heuristic_set_open(&r->hs, &r->src, err);
    if (rc == 0)
        r->opt.heuristics = &r->hs;
    return rc;
}

static int audit(run *r, char **files, int nfiles, tells_error *err)
{
    if (!r->no_heuristics && load_heuristics(r, err) < 0)
        return -1;
    if (!r->no_pairs && !(r->opt.pairs = pair_shaper_load(r->negation, err)))
        return -1;
    if (audit_reference_load(&r->ref, r->reference, r->model, &r->opt, err) < 0)
        return -1;
    /* --redact: a token is named when the reference and the batches have
       it in examples of enough premises. */
    if (r->redact.on && !(r->gate = redact_gate_new(&r->ref.data, r->redact.k, err)))
        return -1;
    r->opt.shown = r->gate;
    if (r->save_model && audit_save_model(&r->ref, r->save_model, err) < 0)
        return -1;
    for (int i = 0; i < nfiles; i++)
        if (audit_report_add_batch(&r->report, files[i], r->group_column, nfiles > 1,
                                   err) < 0)
            return -1;
    /* The batches count too: a batch's own token is named when frequent. */
    for (size_t i = 0; r->gate && i < r->report.nbatches; i++)
        if (redact_gate_add(r->gate, r->report.batches[i], err) < 0)
            return -1;
    if (audit_report_run(&r->report, &r->ref, &r->opt, err) < 0)
        return -1;
    if (r->flags && out_write(r->flags, audit_flags_write, &r->report, err) < 0)
        return -1;
    return out_write(r->output, audit_summary_write, &r->report, err);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-audit");
    run r = {0};
    heuristic_set_init(&r.hs, NULL);
    parse_args(argc, argv, &r);
    check_io(&r, argv + optind, argc - optind);
    tells_error err;
    tells_error_clear(&err);
    int rc = audit(&r, argv + optind, argc - optind, &err);
    bool gate = false;
    for (size_t i = 0; rc == 0 && i < r.report.ngroups; i++) {
        const audit_group *g = &r.report.groups[i];
        for (size_t k = 0; k < g->nf; k++)
            if (strcmp(g->f[k].check, "shared_ids") == 0 && g->f[k].batch > 0)
                cli_warn("%s: warning: %.1f%% of the rows have an id the reference has: the "
                         "batch repeats the reference", g->name, 100 * g->f[k].batch);
    }
    for (size_t i = 0; rc == 0 && r.gates && i < r.report.ngroups; i++) {
        const audit_group *g = &r.report.groups[i];
        for (size_t k = 0; k < g->nf; k++)
            if (audit_gate_fails(&g->f[k], r.gates)) {
                cli_warn("%s: %s fails the gate", g->name, g->f[k].check);
                gate = true;
            }
    }
    audit_report_free(&r.report);
    audit_reference_free(&r.ref);
    redact_gate_free(r.gate);
    heuristic_set_free(&r.hs);
    pair_shaper_free(r.opt.pairs);
    free(r.negation);
    cli_linking_free(&r.link);
    free(r.heur_files);
    if (rc < 0)
        cli_fail(&err);
    return gate ? EXIT_DATA : 0;
}
