/* tells-pairs: pair-level artifacts (overlap, negation, numbers, length
   difference) and their association with the label. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pairs.h"
#include "base/outfile.h"
#include "cli.h"

#define DEFAULT_CUES "lexicons/negation-triggers.txt"

static void usage(void)
{
    printf("Usage: tells-pairs [OPTION]... PREPARED.tsv\n"
"How each hypothesis was made from its premise, and whether that tells the\n"
"label: word overlap, the hypothesis as a run of the premise, negation and\n"
"numbers the premise lacks, length difference, MeSH concepts new, more general\n"
"or more specific (every feature is defined in man tells-pairs). Writes, per\n"
"feature, its association with the label: Kruskal-Wallis for shares and\n"
"counts, with each class's mean and median; for flags, chi-squared on the\n"
"flagged examples by class, exact when an expected count is under 5, with\n"
"each class's share.\n"
"\n"
"  -o, --output FILE      the association table, atomically [stdout]\n"
"  -f, --features FILE    also every example's features: id, split, label\n"
"                         and one column per feature\n"
"  -c, --classifier FILE  also a logistic regression over the pair features\n"
"                         alone against the majority class (McNemar's exact\n"
"                         one-sided test): one row\n"
"      --negation FILE    the negation cues, one phrase per line\n"
"                         [DATA/" DEFAULT_CUES "]\n"
"  -m, --mesh FILE        MeSH tree file of the concept features (new_concept,\n"
"                         more_general, more_specific), its headings on exact\n"
"                         tokens [DATA/" CLI_MESH2024_FILE " with its entry\n"
"                         terms, on stems, as tells-heur links]\n"
"      --terms FILE       MeSH entry-term file [DATA/" CLI_TERMS2024_FILE "\n"
"                         without --mesh]\n"
"      --no-terms         headings only\n"
"      --stem, --no-stem  match Snowball stems, or exact tokens [--stem\n"
"                         without --mesh]\n"
"      --no-mesh          no concept features (their columns are 0, untested)\n"
"      --train NAME       the classifier's training split [train, when there is\n"
"                         another split]\n"
"      --eval NAME        the split it is scored on [test, else dev, else the\n"
"                         first other]\n"
"      --folds K          cross-validation without a training split [5]\n"
"      --group-by G       premise: the hypotheses of one premise share a fold;\n"
"                         none: rows apart [premise]\n"
"      --seed N           the folds' deal, and the draws of an exact test too\n"
"                         large to enumerate [1]\n"
"      --threads N        the classifier's threads; any gives the same\n"
"                         result [1]\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Output: TSV with header feature, kind (share, flag or count), test\n"
"(kruskal_wallis, chi2, exact or monte-carlo), statistic, df, p, then per\n"
"class in byte order CLASS_mean, CLASS_median and CLASS_n (a flag's mean is\n"
"the class's share flagged, its n the flagged examples, its median '-').\n"
"The classifier's row: design, n, accuracy, majority_label,\n"
"majority_accuracy, only_model_right, only_majority_right, p, mde,\n"
"train_accuracy. Numbers with 6 decimals, p with 3 significant digits.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep --split dev corpora/snli/snli_1.0_dev.jsonl -o snli.tsv\n"
"  tells-pairs -c classifier.tsv snli.tsv\n");
}

enum { OPT_NEGATION = 256, OPT_TRAIN, OPT_EVAL, OPT_FOLDS, OPT_GROUP_BY, OPT_SEED,
       OPT_THREADS, OPT_NO_MESH };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"features", required_argument, NULL, 'f'},
    {"classifier", required_argument, NULL, 'c'},
    {"negation", required_argument, NULL, OPT_NEGATION},
    {"mesh", required_argument, NULL, 'm'},
    {"no-mesh", no_argument, NULL, OPT_NO_MESH},
    CLI_LINKING_OPTIONS,
    {"train", required_argument, NULL, OPT_TRAIN},
    {"eval", required_argument, NULL, OPT_EVAL},
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"seed", required_argument, NULL, OPT_SEED},
    {"threads", required_argument, NULL, OPT_THREADS},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    const char *output, *features, *classifier, *train, *eval, *input;
    char *negation;
    size_t folds;
    fold_grouping group;
    cli_linking link;
    bool no_mesh;
    heur_sources src;          /* the tree file and entry terms */
    unsigned long seed;
    int threads;
} config;

static void parse_args(int argc, char **argv, config *c)
{
    *c = (config){.folds = 5, .group = GROUP_BY_PREMISE, .seed = 1, .threads = 1};
    c->link.stem = -1;
    int ch;
    while ((ch = getopt_long(argc, argv, "o:f:c:m:", long_options, NULL)) != -1) {
        if (cli_linking_option(ch, &c->link) || cli_common_option(ch, usage, NULL))
            continue;
        switch (ch) {
        case 'o': c->output = optarg; break;
        case 'f': c->features = optarg; break;
        case 'c': c->classifier = optarg; break;
        case OPT_NEGATION: c->negation = cli_strdup(optarg); break;
        case OPT_TRAIN: c->train = optarg; break;
        case OPT_EVAL: c->eval = optarg; break;
        case OPT_FOLDS: c->folds = (size_t)cli_long("--folds", optarg, 2, 1000); break;
        case OPT_GROUP_BY: c->group = cli_group_by(optarg); break;
        case OPT_SEED: c->seed = (unsigned long)cli_long("--seed", optarg, 0, 2147483647); break;
        case OPT_THREADS: c->threads = (int)cli_long("--threads", optarg, 1, 64); break;
        case 'm': c->link.mesh = optarg; break;
        case OPT_NO_MESH: c->no_mesh = true; break;
        default: cli_try_help();
        }
    }
    int n;
    char **files = cli_operands(argc, argv, &n);
    if (n != 1)
        cli_usage_error("one prepared TSV is needed, not %d", n);
    c->input = files[0];
    cli_linking_check(&c->link);
    if (c->no_mesh && (c->link.mesh || c->link.terms || c->link.no_terms || c->link.stem >= 0))
        cli_usage_error("--no-mesh excludes --mesh, --terms, --no-terms, --stem and --no-stem");
    if (!c->no_mesh)
        cli_linking_sources(&c->link, false, &c->src);
    if (!c->negation && !(c->negation = cli_data_file(DEFAULT_CUES)))
        cli_die("out of memory");
}

static void check_io(const config *c)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "PREPARED.tsv", c->input);
    io_input(&io, "--negation", c->negation);
    if (!c->no_mesh)
        cli_linking_io(&c->src, &io);
    io_output(&io, "--output", c->output ? c->output : "-");
    if (c->features)
        io_output(&io, "--features", c->features);
    if (c->classifier)
        io_output(&io, "--classifier", c->classifier);
    cli_check_io(&io);
}

typedef struct assoc_out {
    const pair_assoc *a;
    const dataset *d;
    const size_t *order;
} assoc_out;

static int write_assoc(FILE *fp, void *ctx, tells_error *err)
{
    assoc_out *o = ctx;
    return pairs_write_assoc(fp, o->a, o->d, o->order, err);
}

typedef struct features_out {
    const dataset *d;
    const double *x;
} features_out;

static int write_features(FILE *fp, void *ctx, tells_error *err)
{
    features_out *o = ctx;
    return pairs_write_features(fp, o->d, o->x, err);
}

typedef struct model_out {
    const pair_model *m;
    const dataset *d;
    const char *design;
} model_out;

static int write_model(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const model_out *o = ctx;
    const pair_model *m = o->m;
    char p[32];
    pvalue_format(m->p, 3, p, sizeof p);
    fputs("design\tn\taccuracy\tmajority_label\tmajority_accuracy\tonly_model_right\t"
          "only_majority_right\tp\tmde\ttrain_accuracy\n", fp);
    fprintf(fp, "%s\t%zu\t%.6f\t%s\t%.6f\t%lu\t%lu\t%s\t%.6f\t%.6f\n", o->design, m->n,
            m->n ? (double)m->right / (double)m->n : 0, vocab_str(o->d->labels, m->majority_label),
            m->n ? (double)m->majority_right / (double)m->n : 0, m->only_model,
            m->only_majority, p, m->mde, m->train_accuracy);
    return 0;
}

static int by_name(const void *a, const void *b, void *ctx)
{
    const vocab *v = ctx;
    return strcmp(vocab_str(v, *(const size_t *)a), vocab_str(v, *(const size_t *)b));
}

/* The concept index of the MeSH features, or NULL with err set. */
static concept_index *open_index(const heur_sources *src, tells_error *err)
{
    if (src->mesh_in_data && cli_check_data_file(src->mesh, err) < 0)
        return NULL;
    if (src->terms_in_data && cli_check_data_file(src->terms, err) < 0)
        return NULL;
    concept_options co = {.terms = src->terms, .stem = src->stem};
    return concept_index_open(src->mesh, &co, err);
}

static int run(const config *c, tells_error *err)
{
    dataset d;
    if (dataset_load(&d, c->input, err) < 0)
        return -1;
    int rc = dataset_require_examples(&d, err);
    pair_shaper *ps = rc == 0 ? pair_shaper_load(c->negation, err) : NULL;
    concept_index *ci = NULL;
    if (ps && !c->no_mesh) {
        if ((ci = open_index(&c->src, err)))
            pair_shaper_set_concepts(ps, ci);
        else {
            pair_shaper_free(ps);
            ps = NULL;
        }
    }
    double *x = ps ? pairs_compute(&d, ps, err) : NULL;
    size_t k = vocab_size(d.labels);
    size_t *order = calloc(k ? k : 1, sizeof *order);
    int *part = calloc(d.n ? d.n : 1, sizeof *part);
    pair_assoc a[PAIR_NFEATURES] = {0};
    pair_model m = {0};
    bool assoc = false;
    if (!x || !order || !part) {
        if (x)
            rc = tells_error_nomem(err, NULL, 0);
        else
            rc = -1;
        goto done;
    }
    for (size_t i = 0; i < k; i++)
        order[i] = i;
    qsort_r(order, k, sizeof *order, by_name, d.labels);
    if ((rc = pairs_associate(&d, NULL, d.n, x, order, k, c->seed, a, err)) < 0)
        goto done;
    assoc = true;
    char design[300];
    size_t models = 0;
    if (c->classifier &&
        ((rc = pairs_plan(&d, c->train, c->eval, c->folds, c->group, c->seed, part, &models,
                          design, sizeof design, err)) < 0 ||
         (rc = pairs_classify(&d, x, part, models, c->threads, &m, err)) < 0))
        goto done;
    features_out fo = {&d, x};
    if (c->features && (rc = out_write(c->features, write_features, &fo, err)) < 0)
        goto done;
    model_out mo = {&m, &d, design};
    if (c->classifier && (rc = out_write(c->classifier, write_model, &mo, err)) < 0)
        goto done;
    assoc_out ao = {a, &d, order};
    rc = out_write(c->output ? c->output : "-", write_assoc, &ao, err);
done:
    if (assoc)
        for (size_t f = 0; f < PAIR_NFEATURES; f++)
            pairs_assoc_free(&a[f]);
    pair_model_free(&m);
    free(part);
    free(order);
    free(x);
    pair_shaper_free(ps);
    concept_index_free(ci);
    dataset_free(&d);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-pairs");
    config c;
    parse_args(argc, argv, &c);
    check_io(&c);
    tells_error err;
    tells_error_clear(&err);
    int rc = run(&c, &err);
    free(c.negation);
    cli_linking_free(&c.link);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
