/* tells-run: capability tests from templates and test trees, and a
   model's scores on easy and difficult partitions. */
#include <config.h>

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/capability.h"
#include "model/classifier.h"
#include "cli.h"
#include "base/dataset.h"
#include "base/idfile.h"
#include "base/outfile.h"
#include "analysis/templates.h"
#include "analysis/testtree.h"
#include "text/tokenize.h"
#include "base/vocab.h"

static void usage(void)
{
    printf("Usage: tells-run [OPTION]... --templates FILE MODEL\n"
"  or:  tells-run [OPTION]... --tree FILE MODEL [--before-model ...]\n"
"  or:  tells-run [OPTION]... --eval PREPARED.tsv MODEL --partition NAME=IDFILE...\n"
"Test a classifier with capability tests (CheckList-style templates filled\n"
"with entity lists, or an AdaTest test tree), and score it on held-out data\n"
"and on easy/difficult partitions (AFLite's id files).\n"
"\n"
"Templates:\n"
"  -t, --templates FILE     CSV (the ADE_templates format: unnamed index,\n"
"                           capability, label, template) or TSV (.tsv) with\n"
"                           capability, label, template and optional base,\n"
"                           name, type (MFT, INV, DIR), premise, vary, class,\n"
"                           direction (up, down, same), tolerance columns.\n"
"                           Placeholders {name}; {a:name} adds 'a' or 'an'\n"
"      --bases FILE         group the templates into variations of these base\n"
"                           templates (the most similar one with the same\n"
"                           capability, label and placeholders)\n"
"      --fill [CAP:]NAME=FILE  values of {NAME}, one per line, for every\n"
"                           capability or only CAP; FILE @time is the built-in\n"
"                           1 day ... 25 months; repeatable\n"
"      --pairs [CAP:]A,B=FILE  fill {A} and {B} together from a two-column\n"
"                           TSV; @time-pairs: related spans, the first shorter\n"
"      --sample NAME=N      use N values of NAME's list, drawn once [all]\n"
"      --sample-per-base [CAP=]N  N variations per base template, for every\n"
"                           capability or CAP; 'all' keeps all [all]\n"
"      --seed N             seed of the sampling [0]\n"
"      --emit-cases FILE    write the cases, one input line each (a pair as\n"
"                           premise<TAB>hypothesis), for --predictions made\n"
"                           elsewhere; without a model, only that\n"
"\n"
"Model (one of):\n"
"  -m, --model FILE         fastText model (.bin)\n"
"      --model-cmd CMD      a process (sh -c CMD) that reads one input line per\n"
"                           case and answers one line: LABEL, or LABEL and one\n"
"                           probability per class in --classes order\n"
"      --predictions FILE   answers in the same format, one per line of\n"
"                           --emit-cases\n"
"      --classes LIST       the classes of --model-cmd or --predictions\n"
"                           [the test labels after --labels, byte order]\n"
"      --labels MAP         template labels to model classes: FROM=TO,...\n"
"      --tokenizer NAME     default or whitespace (as tells-prep), or none to\n"
"                           send the text as written [default]\n"
"      --batch N            lines per exchange with --model-cmd [512]\n"
"\n"
"Reports:\n"
"  -o, --output FILE        write the table here, atomically [stdout]\n"
"      --by-template        pass rates per template instead of the summary\n"
"      --by-fill NAME       pass rates per value of {NAME} instead\n"
"      --failures FILE      failing cases as CSV, atomically\n"
"      --fail-under RATE    exit 1 when a row's pass rate is below RATE\n"
"\n"
"Held-out data:\n"
"      --eval FILE          a prepared TSV: add the model's recall of each\n"
"                           test's label beside its pass rate\n"
"      --eval-split NAME    only rows of this split [all rows]\n"
"      --input MODE         hypothesis, or pair (premise and hypothesis)\n"
"                           [hypothesis]\n"
"      --partition NAME=IDFILE  score the full set and the rows whose id is in\n"
"                           IDFILE; repeatable\n"
"      --eval-output FILE   where that table goes with --templates or --tree\n"
"                           [stdout when neither is given]\n"
"\n"
"Test trees:\n"
"      --tree FILE          AdaTest CSV (topic, input, output, label columns;\n"
"                           label pass or fail; other rows are skipped)\n"
"      --before-model FILE, --before-model-cmd CMD, --before-predictions FILE\n"
"                           an earlier model to compare topic by topic\n"
"      --threshold RATE     failure rate above which a topic fails [0.1]\n"
"      --alpha Q            false discovery rate for fixed/broken [0.05]\n"
"      --bootstrap N        paired-bootstrap resamples [1000]\n"
"\n"
"  -q, --quiet              no notes on stderr\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Expansion: templates in file order, each the cartesian product of its\n"
"placeholders' values in order of first appearance (the first varies\n"
"slowest). MFT: a case passes when predicted as its label. INV: cases that\n"
"differ only in the 'vary' placeholder must get one prediction. DIR: the\n"
"probability of 'class' must not fall (up), rise (down) or move (same) by\n"
"more than 'tolerance' from the group's first case. An INV or DIR group\n"
"passes or fails as a whole; its cases count as it does.\n"
"\n"
"Output: TSV with a header. Summary: capability, label, type, placeholders,\n"
"templates, cases, passed, pass_rate[, heldout_recall]. --by-template:\n"
"template, capability, label, type, base, cases, passed, pass_rate, text.\n"
"--by-fill: capability (then 'all'), the value, cases, passed, pass_rate.\n"
"Partitions: partition (full first), n, accuracy, micro_f1, macro_f1,\n"
"recall_LABEL..., then change_ of each (partition minus full). Trees:\n"
"topic, tests, failures, failure_rate; with a before model, both rates, the\n"
"change, p_value (paired bootstrap), q_value (Benjamini-Hochberg) and status\n"
"(fixed, broken or -). Rates and scores with 6 decimals.\n"
"\n"
"Exit status: 0 success, 1 bad data, a model failure or --fail-under,\n"
"2 usage error.\n"
"\n"
"Examples:\n"
"  A=corpora/ade-templates E=$A/entities\n"
"  tells-run --templates $A/templates_all.csv --bases $A/templates_base.csv \\\n"
"    --fill ade=$E/ades.txt --fill PosSent:ade=$E/ades_mild.txt \\\n"
"    --fill drug=$E/drugs.txt --fill time_entity=@time \\\n"
"    --pairs time_entity_s,time_entity_l=@time-pairs \\\n"
"    --sample time_entity=7 --sample time_entity_s=7 \\\n"
"    --sample-per-base 1 --sample-per-base Beneff=all --model ade.bin\n"
"  tells-run --eval synth.tsv --eval-split test --model hyp.bin \\\n"
"    --partition easy=easy.ids --partition difficult=difficult.ids\n");
}

enum {
    OPT_BASES = 256, OPT_FILL, OPT_PAIRS, OPT_SAMPLE, OPT_PER_BASE, OPT_SEED, OPT_EMIT,
    OPT_MODEL_CMD, OPT_PREDICTIONS, OPT_CLASSES, OPT_LABELS, OPT_TOKENIZER, OPT_BATCH,
    OPT_BY_TEMPLATE, OPT_BY_FILL, OPT_FAILURES, OPT_FAIL_UNDER, OPT_EVAL, OPT_EVAL_SPLIT,
    OPT_INPUT, OPT_PARTITION, OPT_EVAL_OUTPUT, OPT_TREE, OPT_BEFORE_MODEL,
    OPT_BEFORE_CMD, OPT_BEFORE_PRED, OPT_THRESHOLD, OPT_ALPHA, OPT_BOOTSTRAP, OPT_HELP,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"templates", required_argument, NULL, 't'},
    {"bases", required_argument, NULL, OPT_BASES},
    {"fill", required_argument, NULL, OPT_FILL},
    {"pairs", required_argument, NULL, OPT_PAIRS},
    {"sample", required_argument, NULL, OPT_SAMPLE},
    {"sample-per-base", required_argument, NULL, OPT_PER_BASE},
    {"seed", required_argument, NULL, OPT_SEED},
    {"emit-cases", required_argument, NULL, OPT_EMIT},
    {"model", required_argument, NULL, 'm'},
    {"model-cmd", required_argument, NULL, OPT_MODEL_CMD},
    {"predictions", required_argument, NULL, OPT_PREDICTIONS},
    {"classes", required_argument, NULL, OPT_CLASSES},
    {"labels", required_argument, NULL, OPT_LABELS},
    {"tokenizer", required_argument, NULL, OPT_TOKENIZER},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"output", required_argument, NULL, 'o'},
    {"by-template", no_argument, NULL, OPT_BY_TEMPLATE},
    {"by-fill", required_argument, NULL, OPT_BY_FILL},
    {"failures", required_argument, NULL, OPT_FAILURES},
    {"fail-under", required_argument, NULL, OPT_FAIL_UNDER},
    {"eval", required_argument, NULL, OPT_EVAL},
    {"eval-split", required_argument, NULL, OPT_EVAL_SPLIT},
    {"input", required_argument, NULL, OPT_INPUT},
    {"partition", required_argument, NULL, OPT_PARTITION},
    {"eval-output", required_argument, NULL, OPT_EVAL_OUTPUT},
    {"tree", required_argument, NULL, OPT_TREE},
    {"before-model", required_argument, NULL, OPT_BEFORE_MODEL},
    {"before-model-cmd", required_argument, NULL, OPT_BEFORE_CMD},
    {"before-predictions", required_argument, NULL, OPT_BEFORE_PRED},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

/* Which model: the option that named it and its argument. */
typedef struct model_spec {
    int kind;            /* 'm', OPT_MODEL_CMD, OPT_PREDICTIONS; 0 none */
    const char *arg;
    const char *option;
} model_spec;

typedef struct options {
    const char *templates, *bases, *emit, *output, *by_fill, *failures;
    const char *eval, *eval_split, *eval_output, *tree, *classes;
    fill_set fills;
    expand_options expand;
    label_map labels;
    tok_options tok;
    bool raw_text, by_template, pair, quiet;
    double fail_under;
    size_t batch;
    model_spec model, before;
    char **part_names;
    id_set *parts;
    size_t nparts;
    tree_compare_options cmp;
} options;

static void fatal(const tells_error *err)
{
    cli_report(err);
    exit(EXIT_DATA);
}

static void set_model(model_spec *m, int kind, const char *arg, const char *option)
{
    if (m->kind)
        cli_usage_error("%s and %s: give one model", m->option, option);
    m->kind = kind;
    m->arg = arg;
    m->option = option;
}

static void add_sample(options *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec)
        cli_usage_error("--sample: expected NAME=N, not '%s'", spec);
    sample_spec *s = realloc(o->expand.samples, (o->expand.nsamples + 1) * sizeof *s);
    if (!s || !(s[o->expand.nsamples].name = strndup(spec, (size_t)(eq - spec)))) {
        cli_warn("out of memory");
        exit(EXIT_DATA);
    }
    s[o->expand.nsamples].n = (size_t)cli_long("--sample", eq + 1, 1, 1000000000L);
    o->expand.samples = s;
    o->expand.nsamples++;
}

static void add_per_base(options *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    const char *num = eq ? eq + 1 : spec;
    base_sample *b = realloc(o->expand.per_base, (o->expand.nper_base + 1) * sizeof *b);
    if (!b) {
        cli_warn("out of memory");
        exit(EXIT_DATA);
    }
    o->expand.per_base = b;
    b += o->expand.nper_base++;
    b->capability = eq ? strndup(spec, (size_t)(eq - spec)) : NULL;
    if (eq == spec)
        cli_usage_error("--sample-per-base: expected [CAPABILITY=]N, not '%s'", spec);
    b->n = strcmp(num, "all") == 0 ? 0
                                   : (size_t)cli_long("--sample-per-base", num, 1, 1000000000L);
}

static void add_partition(options *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        cli_usage_error("--partition: expected NAME=IDFILE, not '%s'", spec);
    char **names = realloc(o->part_names, (o->nparts + 1) * sizeof *names);
    id_set *parts = names ? realloc(o->parts, (o->nparts + 1) * sizeof *parts) : NULL;
    if (names)
        o->part_names = names;
    if (!names || !parts) {
        cli_warn("out of memory");
        exit(EXIT_DATA);
    }
    o->parts = parts;
    tells_error err;
    tells_error_clear(&err);
    if (!(o->part_names[o->nparts] = strndup(spec, (size_t)(eq - spec))) ||
        id_set_load(&o->parts[o->nparts], eq + 1, &err) < 0)
        fatal(&err);
    o->nparts++;
}

static void parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->tok.kind = TOKENIZER_DEFAULT;
    o->fail_under = -1;
    o->batch = 512;
    o->cmp = (tree_compare_options){0.1, 0.05, 1000, 0};
    tells_error err;
    tells_error_clear(&err);
    int c;
    while ((c = getopt_long(argc, argv, "t:m:o:q", long_options, NULL)) != -1) {
        switch (c) {
        case 't': o->templates = optarg; break;
        case OPT_BASES: o->bases = optarg; break;
        case OPT_FILL:
        case OPT_PAIRS:
            if (fill_add(&o->fills, optarg, c == OPT_PAIRS, &err) < 0) {
                if (err.file[0] || err.line)
                    fatal(&err);
                cli_usage_error("%s: %s", c == OPT_PAIRS ? "--pairs" : "--fill", err.msg);
            }
            break;
        case OPT_SAMPLE: add_sample(o, optarg); break;
        case OPT_PER_BASE: add_per_base(o, optarg); break;
        case OPT_SEED:
            o->expand.seed = (unsigned long)cli_long("--seed", optarg, 0, 4294967295L);
            o->cmp.seed = o->expand.seed;
            break;
        case OPT_EMIT: o->emit = optarg; break;
        case 'm': set_model(&o->model, 'm', optarg, "--model"); break;
        case OPT_MODEL_CMD: set_model(&o->model, c, optarg, "--model-cmd"); break;
        case OPT_PREDICTIONS: set_model(&o->model, c, optarg, "--predictions"); break;
        case OPT_BEFORE_MODEL: set_model(&o->before, 'm', optarg, "--before-model"); break;
        case OPT_BEFORE_CMD: set_model(&o->before, OPT_MODEL_CMD, optarg, "--before-model-cmd"); break;
        case OPT_BEFORE_PRED: set_model(&o->before, OPT_PREDICTIONS, optarg, "--before-predictions"); break;
        case OPT_CLASSES: o->classes = optarg; break;
        case OPT_LABELS:
            if (label_map_parse(&o->labels, optarg, &err) < 0)
                cli_usage_error("%s", err.msg);
            break;
        case OPT_TOKENIZER:
            o->raw_text = strcmp(optarg, "none") == 0;
            if (!o->raw_text && tokenizer_parse(optarg, &o->tok.kind) < 0)
                cli_usage_error("invalid --tokenizer '%s' (default, whitespace or none)", optarg);
            break;
        case OPT_BATCH: o->batch = (size_t)cli_long("--batch", optarg, 1, 1000000); break;
        case 'o': o->output = optarg; break;
        case OPT_BY_TEMPLATE: o->by_template = true; break;
        case OPT_BY_FILL: o->by_fill = optarg; break;
        case OPT_FAILURES: o->failures = optarg; break;
        case OPT_FAIL_UNDER:
            o->fail_under = cli_double("--fail-under", optarg, 0);
            if (o->fail_under > 1)
                cli_usage_error("--fail-under must be at most 1, not '%s'", optarg);
            break;
        case OPT_EVAL: o->eval = optarg; break;
        case OPT_EVAL_SPLIT: o->eval_split = optarg; break;
        case OPT_INPUT:
            if (strcmp(optarg, "pair") != 0 && strcmp(optarg, "hypothesis") != 0)
                cli_usage_error("invalid --input '%s' (hypothesis or pair)", optarg);
            o->pair = strcmp(optarg, "pair") == 0;
            break;
        case OPT_PARTITION: add_partition(o, optarg); break;
        case OPT_EVAL_OUTPUT: o->eval_output = optarg; break;
        case OPT_TREE: o->tree = optarg; break;
        case OPT_THRESHOLD:
            o->cmp.threshold = cli_double("--threshold", optarg, 0);
            if (o->cmp.threshold > 1)
                cli_usage_error("--threshold must be at most 1, not '%s'", optarg);
            break;
        case OPT_ALPHA:
            o->cmp.alpha = cli_double("--alpha", optarg, 0);
            if (o->cmp.alpha <= 0 || o->cmp.alpha >= 1)
                cli_usage_error("--alpha must be between 0 and 1, not '%s'", optarg);
            break;
        case OPT_BOOTSTRAP:
            o->cmp.samples = (size_t)cli_long("--bootstrap", optarg, 1, 100000000L);
            break;
        case 'q': o->quiet = true; break;
        case OPT_HELP: usage(); exit(0);
        case OPT_VERSION: cli_version(); exit(0);
        default: cli_try_help();
        }
    }
    if (optind < argc)
        cli_usage_error("unexpected operand '%s'", argv[optind]);
    if (o->templates && o->tree)
        cli_usage_error("--templates and --tree: give one");
    if (!o->templates && !o->tree && !o->eval)
        cli_usage_error("nothing to do: give --templates, --tree or --eval");
    if (!o->model.kind && !(o->templates && o->emit))
        cli_usage_error("no model: give --model, --model-cmd or --predictions");
    if (o->before.kind && !o->tree)
        cli_usage_error("%s compares test trees: give --tree", o->before.option);
    if (o->eval && o->model.kind == OPT_PREDICTIONS)
        cli_usage_error("--eval needs a model to run: --model or --model-cmd");
    if (o->nparts && !o->eval)
        cli_usage_error("--partition needs --eval");
    if (o->nparts && (o->templates || o->tree) && !o->eval_output)
        cli_usage_error("--partition with --templates or --tree needs --eval-output");
    if ((o->by_template || o->by_fill || o->failures || o->fail_under >= 0 || o->bases ||
         o->emit) && !o->templates)
        cli_usage_error("--by-template, --by-fill, --failures, --fail-under, --bases "
                        "and --emit-cases need --templates");
    if (o->by_template && o->by_fill)
        cli_usage_error("--by-template and --by-fill: give one");
}

/* ---- classes ---- */

typedef struct strings {
    char **v;
    size_t n;
} strings;

static void strings_add(strings *s, const char *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], x) == 0)
            return;
    char **v = realloc(s->v, (s->n + 1) * sizeof *v);
    if (!v || !(v[s->n] = strdup(x))) {
        cli_warn("out of memory");
        exit(EXIT_DATA);
    }
    s->v = v;
    s->n++;
}

static void strings_free(strings *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The classes of a command or predictions file: --classes, else every
   label the tests and the held-out data name, in byte order. */
static void default_classes(const options *o, const template_set *ts, const test_tree *tr,
                            const dataset *d, strings *out)
{
    if (o->classes) {
        char *copy = strdup(o->classes), *save = NULL;
        for (char *c = strtok_r(copy, ",", &save); c; c = strtok_r(NULL, ",", &save))
            strings_add(out, c);
        free(copy);
        if (out->n == 0)
            cli_usage_error("--classes: no class named");
        return;
    }
    for (size_t i = 0; ts && i < ts->n; i++) {
        if (ts->row[i].type == TEST_MFT)
            strings_add(out, label_map_apply(&o->labels, ts->row[i].label));
        if (ts->row[i].type == TEST_DIR)
            strings_add(out, ts->row[i].dir_class);
    }
    for (size_t i = 0; tr && i < tr->n; i++)
        strings_add(out, tr->t[i].output);
    for (size_t i = 0; d && i < vocab_size(d->labels); i++)
        strings_add(out, vocab_str(d->labels, i));
    qsort(out->v, out->n, sizeof *out->v, cmp_str);
}

static classifier *open_model(const model_spec *m, const strings *classes)
{
    tells_error err;
    tells_error_clear(&err);
    classifier *c = NULL;
    int rc = m->kind == 'm' ? classifier_open_fasttext(&c, m->arg, &err)
             : m->kind == OPT_MODEL_CMD
                 ? classifier_open_command(&c, m->arg, classes->v, classes->n, &err)
                 : classifier_open_predictions(&c, m->arg, classes->v, classes->n, &err);
    if (rc < 0)
        fatal(&err);
    return c;
}

/* ---- outputs, committed together at the end ---- */

typedef struct outputs {
    out_file f[4];
    size_t n;
} outputs;

static FILE *output_open(outputs *outs, const char *path)
{
    tells_error err;
    tells_error_clear(&err);
    out_file *f = &outs->f[outs->n];
    if (out_open(f, path, &err) < 0) {
        for (size_t i = 0; i < outs->n; i++)
            out_abort(&outs->f[i]);
        fatal(&err);
    }
    outs->n++;
    return f->fp;
}

static void outputs_abort(outputs *outs)
{
    for (size_t i = 0; i < outs->n; i++)
        out_abort(&outs->f[i]);
}

static void outputs_commit(outputs *outs)
{
    tells_error err;
    tells_error_clear(&err);
    for (size_t i = 0; i < outs->n; i++)
        if (out_commit(&outs->f[i], &err) < 0) {
            for (size_t j = i + 1; j < outs->n; j++)
                out_abort(&outs->f[j]);
            fatal(&err);
        }
}

static void fail_with(outputs *outs, const tells_error *err)
{
    outputs_abort(outs);
    fatal(err);
}

static int write_lines(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const case_set *cs = ((void **)ctx)[0];
    char **lines = ((void **)ctx)[1];
    for (size_t i = 0; i < cs->n; i++)
        fprintf(fp, "%s\n", lines[i]);
    return ferror(fp) ? -1 : 0;
}

/* ---- the runs ---- */

/* Predicted class names of lines, for test trees. */
static char **predict_names(classifier *c, char *const *lines, size_t n, size_t batch,
                            tells_error *err)
{
    size_t K = classifier_nclasses(c);
    size_t *label = malloc((n ? n : 1) * sizeof *label);
    double *prob = malloc((batch * K) * sizeof *prob);
    char **names = calloc(n ? n : 1, sizeof *names);
    if (!label || !prob || !names) {
        tells_error_nomem(err, NULL, 0);
        goto fail;
    }
    for (size_t i = 0; i < n; i += batch) {
        size_t b = n - i < batch ? n - i : batch;
        if (classifier_predict(c, (const char *const *)lines + i, b, label + i, prob, err) < 0)
            goto fail;
    }
    for (size_t i = 0; i < n; i++)
        names[i] = (char *)classifier_class(c, label[i]);
    free(label);
    free(prob);
    return names;
fail:
    free(label);
    free(prob);
    free(names);
    return NULL;
}

static bool *tree_failures(const options *o, const model_spec *m, const test_tree *tr,
                           char *const *lines, const strings *classes, outputs *outs)
{
    tells_error err;
    tells_error_clear(&err);
    classifier *c = open_model(m, classes);
    char **names = predict_names(c, lines, tr->n, o->batch, &err);
    bool *failed = malloc(tr->n * sizeof *failed);
    if (!names || !failed) {
        if (names && !failed)
            tells_error_nomem(&err, NULL, 0);
        classifier_abort(c);
        fail_with(outs, &err);
    }
    tree_outcomes(tr, names, failed);
    free(names);
    if (classifier_finish(c, &err) < 0)
        fail_with(outs, &err);
    return failed;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-run");
    options o;
    parse_options(argc, argv, &o);
    tells_error err;
    tells_error_clear(&err);
    const tok_options *tok = o.raw_text ? NULL : &o.tok;

    template_set ts = {0}, bases = {0};
    case_set cs = {0};
    test_tree tr = {0};
    dataset d = {0};
    char **lines = NULL;
    size_t nlines = 0;
    strings classes = {0};
    double *recall = NULL;
    heldout h = {0};
    size_t below = 0;
    if (o.templates) {
        if (templates_load(&ts, o.templates, &err) < 0)
            fatal(&err);
        if (o.bases && (templates_load(&bases, o.bases, &err) < 0 ||
                        templates_assign_bases(&ts, &bases, &err) < 0))
            fatal(&err);
        if (cases_expand(&cs, &ts, &o.fills, &o.expand, &err) < 0) {
            if (!err.file[0] && !err.line && strncmp(err.msg, "--sample", 8) == 0)
                cli_usage_error("%s", err.msg);
            fatal(&err);
        }
        if (cs.n == 0) {
            tells_error_set(&err, ts.source, 0, "the templates give no cases");
            fatal(&err);
        }
        if (case_lines(&cs, tok, &lines, &err) < 0)
            fatal(&err);
        nlines = cs.n;
        if (o.emit) {
            void *ctx[2] = {&cs, lines};
            if (out_write(o.emit, write_lines, ctx, &err) < 0)
                fatal(&err);
        }
        if (!o.model.kind)
            goto done;
    }
    if (o.tree) {
        if (tree_load(&tr, o.tree, &err) < 0)
            fatal(&err);
        lines = calloc(tr.n, sizeof *lines);
        for (size_t i = 0; lines && i < tr.n; i++)
            if (!(lines[i] = input_line(tok, tr.t[i].input))) {
                lines_free(lines, i);
                lines = NULL;
            }
        if (!lines) {
            tells_error_nomem(&err, NULL, 0);
            fatal(&err);
        }
        nlines = tr.n;
    }
    if (o.eval && dataset_load(&d, o.eval, &err) < 0)
        fatal(&err);

    default_classes(&o, o.templates ? &ts : NULL, o.tree ? &tr : NULL, o.eval ? &d : NULL,
                    &classes);
    outputs outs = {0};
    FILE *main_out = (o.templates || o.tree || !o.eval_output) ? output_open(&outs, o.output)
                                                                : NULL;
    FILE *eval_out = !o.nparts ? NULL
                     : (o.templates || o.tree) ? output_open(&outs, o.eval_output)
                                               : main_out;
    FILE *fail_out = o.failures ? output_open(&outs, o.failures) : NULL;

    classifier *c = NULL;
    if (o.templates || o.eval)
        c = open_model(&o.model, &classes);
    if (o.eval) {
        recall = malloc(classifier_nclasses(c) * sizeof *recall);
        if (!recall)
            tells_error_nomem(&err, NULL, 0);
        if (!recall || heldout_predict(&h, &d, o.eval_split, o.pair, c, o.batch, &err) < 0 ||
            heldout_recall(&h, c, recall, &err) < 0) {
            classifier_abort(c);
            fail_with(&outs, &err);
        }
        for (size_t p = 0; p < o.nparts; p++)
            (void)id_set_unseen(&o.parts[p]);
        if (o.nparts && report_partitions(eval_out, &h, o.part_names, o.parts, o.nparts, &err) < 0) {
            classifier_abort(c);
            fail_with(&outs, &err);
        }
    }
    if (o.templates) {
        run_results r;
        if (run_cases(&r, &cs, &ts, &o.labels, c, lines, o.batch, &err) < 0) {
            classifier_abort(c);
            fail_with(&outs, &err);
        }
        report_context x = {&ts, &cs, &r, &o.labels, c, o.eval ? recall : NULL};
        int rc = o.by_template ? report_by_template(main_out, &x)
                 : o.by_fill   ? report_by_fill(main_out, &x, o.by_fill, &err)
                               : report_summary(main_out, &x, o.fail_under, &below);
        if (rc == 0 && fail_out)
            rc = report_failures(fail_out, &x);
        if (rc == 0 && (o.by_template || o.by_fill) && o.fail_under >= 0) {
            /* --fail-under reads the summary rows whatever table is shown. */
            FILE *null = fopen("/dev/null", "w");
            rc = null ? report_summary(null, &x, o.fail_under, &below) : -1;
            if (null)
                fclose(null);
        }
        run_results_free(&r);
        if (rc < 0) {
            if (!err.msg[0])
                tells_error_nomem(&err, NULL, 0);
            classifier_abort(c);
            fail_with(&outs, &err);
        }
    } else if (o.eval && !o.nparts && !o.tree) {
        /* Only held-out data: its per-class recall. */
        fputs("class\trecall\n", main_out);
        for (size_t k = 0; k < classifier_nclasses(c); k++) {
            if (isnan(recall[k]))
                fprintf(main_out, "%s\t-\n", classifier_class(c, k));
            else
                fprintf(main_out, "%s\t%.6f\n", classifier_class(c, k), recall[k]);
        }
    }
    if (c && classifier_finish(c, &err) < 0)
        fail_with(&outs, &err);
    if (o.tree) {
        bool *after = tree_failures(&o, &o.model, &tr, lines, &classes, &outs);
        int rc;
        if (o.before.kind) {
            bool *before = tree_failures(&o, &o.before, &tr, lines, &classes, &outs);
            rc = tree_compare(main_out, &tr, before, after, &o.cmp, &err);
            free(before);
        } else
            rc = tree_report(main_out, &tr, after);
        free(after);
        if (rc < 0) {
            if (!err.msg[0])
                tells_error_nomem(&err, NULL, 0);
            fail_with(&outs, &err);
        }
        if (!o.quiet && tr.skipped)
            cli_warn("%s: %zu rows skipped (topic markers, or labelled neither pass nor fail)",
                     tr.source, tr.skipped);
    }
    outputs_commit(&outs);

done:
    free(recall);
    heldout_free(&h);
    lines_free(lines, nlines);
    strings_free(&classes);
    cases_free(&cs);
    templates_free(&ts);
    templates_free(&bases);
    tree_free(&tr);
    if (o.eval)
        dataset_free(&d);
    fill_set_free(&o.fills);
    label_map_free(&o.labels);
    for (size_t i = 0; i < o.expand.nsamples; i++)
        free(o.expand.samples[i].name);
    free(o.expand.samples);
    for (size_t i = 0; i < o.expand.nper_base; i++)
        free(o.expand.per_base[i].capability);
    free(o.expand.per_base);
    for (size_t p = 0; p < o.nparts; p++) {
        free(o.part_names[p]);
        id_set_free(&o.parts[p]);
    }
    free(o.part_names);
    free(o.parts);
    if (o.fail_under >= 0 && below > 0) {
        cli_warn("%zu test%s below --fail-under %g", below, below == 1 ? "" : "s",
                 o.fail_under);
        return EXIT_DATA;
    }
    return 0;
}
