/* tells-run: capability tests from templates and test trees, and a
   model's scores on easy and difficult partitions. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/capability.h"
#include "analysis/templates.h"
#include "analysis/testtree.h"
#include "base/alloc.h"
#include "base/dataset.h"
#include "base/outfile.h"
#include "cli.h"
#include "model/classifier.h"
#include "text/tokenize.h"

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
"                           TSV; @time-pairs: related spans of one unit, the\n"
"                           first shorter; @time-pairs:duration: of any units\n"
"                           by duration (2 days, 3 weeks)\n"
"      --sample NAME=N      use N values of NAME's list, drawn once [all]\n"
"      --sample-per-base [CAP=]N  N variations per base template, for every\n"
"                           capability or CAP; 'all' keeps all [all]\n"
"      --seed N             seed of the sampling [0]\n"
"      --max-cases N        refuse templates that would make more than N cases\n"
"                           (counted before expanding) [5000000]\n"
"      --emit-cases FILE    write the cases, one input line each (a pair as\n"
"                           premise<TAB>hypothesis), for --predictions made\n"
"                           elsewhere; without a model, only that. The text\n"
"                           as written unless --model-text prepared\n"
"\n"
"Model (one of; with --tree, repeat it for runs of one model trained with\n"
"other seeds, which are pooled):\n"
"  -m, --model FILE         fastText model (.bin)\n"
"      --model-cmd CMD      a process (sh -c CMD) that reads one input line per\n"
"                           case and answers one line: LABEL, or LABEL and one\n"
"                           probability per class in --classes order (each\n"
"                           from 0 to 1, summing to 1 within 0.01)\n"
"      --predictions FILE   answers in the same format, one per line of\n"
"                           --emit-cases\n"
"      --classes LIST       the classes of --model-cmd or --predictions,\n"
"                           comma-separated, each once [the test labels\n"
"                           after --labels, byte order]\n"
"      --labels MAP         template labels to model classes: FROM=TO,...\n"
"      --model-text TEXT    what the model reads: raw (the text as written) or\n"
"                           prepared (tokenised and lowercased as tells-prep)\n"
"                           [prepared for --model, a fastText model trained\n"
"                           on prepared text; raw for --model-cmd and\n"
"                           --predictions]\n"
"      --tokenizer NAME     the tokenizer of prepared text: default or\n"
"                           whitespace (as tells-prep; giving one implies\n"
"                           --model-text prepared), or none (--model-text\n"
"                           raw) [default]\n"
"      --batch N            lines per exchange with --model-cmd [512]\n"
"      --timeout SECONDS    how long --model-cmd may take for each answer, and\n"
"                           to exit after its last; 0 waits for ever [60]\n"
"\n"
"Reports:\n"
"  -o, --output FILE        write the table here, atomically [stdout]\n"
"      --by-template        pass rates per template instead of the summary\n"
"      --by-fill NAME       pass rates per value of {NAME} instead\n"
"      --failures FILE      failing cases as CSV, atomically\n"
"      --redact             no text: --failures without premise and text,\n"
"                           --by-template without text\n"
"      --fail-under RATE    exit 1 when a row's pass rate is below RATE\n"
"\n"
"Held-out data:\n"
"      --eval FILE          a prepared TSV: add the model's recall of each\n"
"                           test's label beside its pass rate\n"
"      --eval-split NAME    only rows of this split [all rows]\n"
"      --input MODE         hypothesis, or pair (premise and hypothesis)\n"
"                           [hypothesis]\n"
"      --partition NAME=IDFILE  score the full set and the rows whose id is in\n"
"                           IDFILE (one id per line, or a NumPy .npy array\n"
"                           of strings); repeatable\n"
"      --eval-output FILE   where the held-out table goes (with --templates or\n"
"                           --tree, which need it for --partition) [as -o]\n"
"\n"
"Test trees:\n"
"      --tree FILE          AdaTest CSV: topic, input, output, label (pass or\n"
"                           fail), or the paper's topic, type, value1, value2\n"
"                           ({} should output {}, {} should not output {},\n"
"                           {} should have the same output as {}); other\n"
"                           rows are skipped\n"
"      --changed-output RULE  a labelled row whose output the model does not\n"
"                           give: skip (unscored, counted as changed, as\n"
"                           AdaTest) or flip (a pass row fails, a fail row\n"
"                           passes) [skip]\n"
"      --before-model FILE, --before-model-cmd CMD, --before-predictions FILE\n"
"                           an earlier model to compare topic by topic;\n"
"                           repeat it for several seeds\n"
"      --threshold RATE     failure rate above which a topic fails [0.2]\n"
"      --alpha Q            false discovery rate for fixed/broken [0.05]\n"
"      --bootstrap N        paired-bootstrap resamples [5000]\n"
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
"topic (each after its parent, counting its subtopics' tests), tests,\n"
"failures, failure_rate, changed; with a before model, both rates, the\n"
"change, p_value (paired bootstrap), q_value (Benjamini-Hochberg), status\n"
"(fixed, broken or -), changed_before, changed_after. Several seeds are\n"
"pooled: failures over every scored run of every test. Rates and scores\n"
"with 6 decimals.\n"
"\n"
"Exit status: 0 success, 1 bad data, a model failure or --fail-under,\n"
"2 usage error.\n"
"\n"
"Examples:\n"
"  # a classifier of the bundled ADE posts, then the ADE templates against it\n"
"  P=corpora/ade-posts A=corpora/ade-templates E=$A/entities\n"
"  tells-prep -q --id-field id --label-field label --premise-field '' \\\n"
"    --hypothesis-field text --split train $P/train.jsonl --split test $P/test.jsonl \\\n"
"    -o posts.tsv\n"
"  tells-baseline -q --model fasttext --epoch 25 --save-model ade.bin posts.tsv\n"
"  tells-run --templates $A/templates_all.csv --bases $A/templates_base.csv \\\n"
"    --fill ade=$E/ades.txt --fill PosSent:ade=$E/ades_mild.txt \\\n"
"    --fill drug=$E/drugs.txt --fill time_entity=@time \\\n"
"    --pairs time_entity_s,time_entity_l=@time-pairs \\\n"
"    --sample time_entity=7 --sample time_entity_s=7 \\\n"
"    --sample-per-base 1 --sample-per-base Beneff=all --model ade.bin\n"
"  # a hypothesis-only model scored on the quick start's AFLite partitions\n"
"  S=study/synthetic\n"
"  tells-baseline -q --model fasttext --save-model hyp.bin $S/prepared.tsv\n"
"  tells-run --eval $S/prepared.tsv --eval-split test --model hyp.bin \\\n"
"    --partition easy=$S/easy.ids --partition difficult=$S/difficult.ids\n");
}

enum {
    OPT_BASES = 256, OPT_FILL, OPT_PAIRS, OPT_SAMPLE, OPT_PER_BASE, OPT_SEED, OPT_EMIT,
    OPT_MODEL_CMD, OPT_PREDICTIONS, OPT_CLASSES, OPT_LABELS, OPT_TOKENIZER, OPT_BATCH,
    OPT_BY_TEMPLATE, OPT_BY_FILL, OPT_FAILURES, OPT_FAIL_UNDER, OPT_EVAL, OPT_EVAL_SPLIT,
    OPT_INPUT, OPT_PARTITION, OPT_EVAL_OUTPUT, OPT_TREE, OPT_BEFORE_MODEL,
    OPT_BEFORE_CMD, OPT_BEFORE_PRED, OPT_THRESHOLD, OPT_ALPHA, OPT_BOOTSTRAP, OPT_TIMEOUT,
    OPT_MAX_CASES, OPT_MODEL_TEXT, OPT_CHANGED, OPT_REDACT
};

static const struct option long_options[] = {
    {"templates", required_argument, NULL, 't'},
    {"bases", required_argument, NULL, OPT_BASES},
    {"fill", required_argument, NULL, OPT_FILL},
    {"pairs", required_argument, NULL, OPT_PAIRS},
    {"sample", required_argument, NULL, OPT_SAMPLE},
    {"sample-per-base", required_argument, NULL, OPT_PER_BASE},
    {"seed", required_argument, NULL, OPT_SEED},
    {"max-cases", required_argument, NULL, OPT_MAX_CASES},
    {"emit-cases", required_argument, NULL, OPT_EMIT},
    {"model", required_argument, NULL, 'm'},
    {"model-cmd", required_argument, NULL, OPT_MODEL_CMD},
    {"predictions", required_argument, NULL, OPT_PREDICTIONS},
    {"classes", required_argument, NULL, OPT_CLASSES},
    {"labels", required_argument, NULL, OPT_LABELS},
    {"tokenizer", required_argument, NULL, OPT_TOKENIZER},
    {"model-text", required_argument, NULL, OPT_MODEL_TEXT},
    {"changed-output", required_argument, NULL, OPT_CHANGED},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"output", required_argument, NULL, 'o'},
    {"by-template", no_argument, NULL, OPT_BY_TEMPLATE},
    {"by-fill", required_argument, NULL, OPT_BY_FILL},
    {"failures", required_argument, NULL, OPT_FAILURES},
    {"redact", no_argument, NULL, OPT_REDACT},
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
    CLI_QUIET_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

/* Which model: the option that named it and its argument. */
typedef struct model_spec {
    int kind;            /* 'm', OPT_MODEL_CMD, OPT_PREDICTIONS; 0 none */
    const char *arg;
    const char *option;
} model_spec;

/* A model, or with --tree several runs of it (seeds), pooled. */
enum { MAX_RUNS = 64 };
typedef struct model_runs {
    model_spec run[MAX_RUNS];
    size_t n;
} model_runs;

/* What text a model reads. */
typedef enum { TEXT_DEFAULT, TEXT_RAW, TEXT_PREPARED } model_text;

typedef struct options {
    const char *templates, *bases, *emit, *output, *by_fill, *failures;
    const char *eval, *eval_split, *eval_output, *tree, *classes;
    fill_set fills;
    expand_options expand;
    label_map labels;
    tok_options tok;
    model_text text;          /* --model-text, or what --tokenizer implies */
    model_text tokenizer;     /* what --tokenizer implies */
    tree_changed_rule changed;
    bool by_template, pair;
    bool redact;               /* no text in --failures or --by-template */
    cli_verbosity v;
    double fail_under;
    size_t batch;
    model_cmd_options cmd;
    model_runs models, befores;
    model_spec model;         /* the first of models */
    partition *parts;
    size_t nparts, parts_cap;
    tree_compare_options cmp;
    /* --fill, --pairs and --partition as given, read once the run's files
       are checked (room for argc each). */
    const char **fill_spec, **part_spec;
    bool *fill_pair;
    size_t nfill_specs, npart_specs;
} options;

/* Fails with err; a usage error is about the value of option opt, which
   goes in front of the message, followed by sep. */
static void fail_value(const char *opt, const char *sep, tells_error *err)
{
    if (err->kind == TELLS_ERR_USAGE)
        tells_error_prefix_sep(err, opt, sep);
    cli_fail(err);
}

static void set_model(model_runs *m, int kind, const char *arg, const char *option)
{
    if (m->n == MAX_RUNS)
        cli_usage_error("%s: at most %d runs of a model", option, MAX_RUNS);
    /* sh -c '' would run, read nothing and exit 0: no model at all. */
    if (kind == OPT_MODEL_CMD && model_cmd_blank(arg))
        cli_usage_error("%s: the command is empty", option);
    m->run[m->n++] = (model_spec){kind, arg, option};
}

static void add_sample(options *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec)
        cli_usage_error("--sample: expected NAME=N, not '%s'", spec);
    size_t n = (size_t)cli_long("--sample", eq + 1, 1, 1000000000L);
    tells_error err;
    tells_error_clear(&err);
    if (expand_add_sample(&o->expand, spec, (size_t)(eq - spec), n, &err) < 0)
        cli_fail(&err);
}

static void add_per_base(options *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    const char *num = eq ? eq + 1 : spec;
    if (eq == spec)
        cli_usage_error("--sample-per-base: expected [CAPABILITY=]N, not '%s'", spec);
    size_t n = strcmp(num, "all") == 0
                   ? 0
                   : (size_t)cli_long("--sample-per-base", num, 1, 1000000000L);
    tells_error err;
    tells_error_clear(&err);
    if (expand_add_per_base(&o->expand, eq ? spec : NULL, eq ? (size_t)(eq - spec) : 0, n,
                            &err) < 0)
        cli_fail(&err);
}

/* The IDFILE of a --partition NAME=IDFILE; a usage error when there is
   none. */
static const char *partition_file(const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        cli_usage_error("--partition: expected NAME=IDFILE, not '%s'", spec);
    /* As tells-baseline: a name is a cell of the partitions table. */
    if (strcspn(spec, "\t\n\r") < (size_t)(eq - spec) ||
        ((size_t)(eq - spec) == 4 && strncmp(spec, "full", 4) == 0))
        cli_usage_error("invalid partition name '%.*s'", (int)(eq - spec), spec);
    return eq + 1;
}

static void add_partition(options *o, const char *spec)
{
    const char *eq = partition_file(spec) - 1;
    tells_error err;
    tells_error_clear(&err);
    if (ARRAY_RESERVE(o->parts, o->parts_cap, o->nparts + 1) < 0)
        tells_error_nomem(&err, NULL, 0);
    else if (partition_load(&o->parts[o->nparts], spec, (size_t)(eq - spec), eq + 1, &err) == 0)
        o->nparts++;
    if (err.kind != TELLS_ERR_NONE)
        cli_fail(&err);
}

/* The model's stderr goes on to ours as it comes, long lines whole; an
   unfinished last line is ended, so that what we print starts a line. */
static void pass_stderr(void *ctx, const char *text, size_t len, bool line_end)
{
    (void)ctx;
    fwrite(text, 1, len, stderr);
    if (line_end && (len == 0 || (text[len - 1] != '\n' && text[len - 1] != '\r')))
        fputc('\n', stderr);
}

/* The file of a --fill or --pairs [CAP:]NAME=FILE, or NULL for a
   built-in list (@time) or a malformed one (fill_add says why). */
static const char *fill_file(const char *spec)
{
    const char *eq = strchr(spec, '=');
    return eq && eq[1] && eq[1] != '@' ? eq + 1 : NULL;
}

/* Every file the run reads and writes, before any is read. */
static void check_io(const options *o)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "--templates", o->templates);
    io_input(&io, "--bases", o->bases);
    for (size_t i = 0; i < o->nfill_specs; i++)
        io_input(&io, o->fill_pair[i] ? "--pairs" : "--fill", fill_file(o->fill_spec[i]));
    io_input(&io, "--tree", o->tree);
    io_input(&io, "--eval", o->eval);
    for (size_t i = 0; i < o->npart_specs; i++)
        io_input(&io, "--partition", partition_file(o->part_spec[i]));
    const model_runs *runs[] = {&o->models, &o->befores};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < runs[k]->n; i++)
            if (runs[k]->run[i].kind != OPT_MODEL_CMD)
                io_input(&io, runs[k]->run[i].option, runs[k]->run[i].arg);
    io_output(&io, "--output", o->output ? o->output : "-");
    io_output(&io, "--eval-output", o->eval_output);
    io_output(&io, "--failures", o->failures);
    io_output(&io, "--emit-cases", o->emit);
    cli_check_io(&io);
}

/* The options of templates and their cases; false for any other. */
static bool template_option(int c, options *o)
{
    switch (c) {
    case 't': o->templates = optarg; return true;
    case OPT_BASES: o->bases = optarg; return true;
    case OPT_FILL:
    case OPT_PAIRS:
        o->fill_pair[o->nfill_specs] = c == OPT_PAIRS;
        o->fill_spec[o->nfill_specs++] = optarg;
        return true;
    case OPT_SAMPLE: add_sample(o, optarg); return true;
    case OPT_PER_BASE: add_per_base(o, optarg); return true;
    case OPT_SEED:
        o->expand.seed = (unsigned long)cli_long("--seed", optarg, 0, 4294967295L);
        o->cmp.seed = o->expand.seed;
        return true;
    case OPT_MAX_CASES:
        o->expand.max_cases = (size_t)cli_long("--max-cases", optarg, 1, LONG_MAX);
        return true;
    case OPT_EMIT: o->emit = optarg; return true;
    default: return false;
    }
}

/* The options of the model and of what it reads; false for any other. */
static bool model_option(int c, options *o)
{
    tells_error err;
    tells_error_clear(&err);
    switch (c) {
    case 'm': set_model(&o->models, 'm', optarg, "--model"); return true;
    case OPT_MODEL_CMD: set_model(&o->models, c, optarg, "--model-cmd"); return true;
    case OPT_PREDICTIONS: set_model(&o->models, c, optarg, "--predictions"); return true;
    case OPT_CLASSES: o->classes = optarg; return true;
    case OPT_LABELS:
        if (label_map_parse(&o->labels, optarg, &err) < 0)
            fail_value("--labels", ": ", &err);
        return true;
    case OPT_TOKENIZER:
        o->tokenizer = strcmp(optarg, "none") == 0 ? TEXT_RAW : TEXT_PREPARED;
        if (o->tokenizer == TEXT_PREPARED && tokenizer_parse(optarg, &o->tok.kind) < 0)
            cli_usage_error("invalid --tokenizer '%s' (default, whitespace or none)", optarg);
        return true;
    case OPT_MODEL_TEXT:
        if (strcmp(optarg, "raw") != 0 && strcmp(optarg, "prepared") != 0)
            cli_usage_error("invalid --model-text '%s' (raw or prepared)", optarg);
        o->text = strcmp(optarg, "raw") == 0 ? TEXT_RAW : TEXT_PREPARED;
        return true;
    case OPT_BATCH: o->batch = (size_t)cli_long("--batch", optarg, 1, 1000000); return true;
    case OPT_TIMEOUT: o->cmd.timeout = cli_double("--timeout", optarg, 0); return true;
    default: return false;
    }
}

/* The options of the reports and of held-out data; false for any other. */
static bool report_option(int c, options *o)
{
    switch (c) {
    case 'o': o->output = optarg; return true;
    case OPT_BY_TEMPLATE: o->by_template = true; return true;
    case OPT_BY_FILL: o->by_fill = optarg; return true;
    case OPT_FAILURES: o->failures = optarg; return true;
    case OPT_REDACT: o->redact = true; return true;
    case OPT_FAIL_UNDER:
        o->fail_under = cli_double_range("--fail-under", optarg, 0, 1, CLI_CLOSED);
        return true;
    case OPT_EVAL: o->eval = optarg; return true;
    case OPT_EVAL_SPLIT: o->eval_split = optarg; return true;
    case OPT_INPUT:
        if (strcmp(optarg, "pair") != 0 && strcmp(optarg, "hypothesis") != 0)
            cli_usage_error("invalid --input '%s' (hypothesis or pair)", optarg);
        o->pair = strcmp(optarg, "pair") == 0;
        return true;
    case OPT_PARTITION:
        partition_file(optarg);
        o->part_spec[o->npart_specs++] = optarg;
        return true;
    case OPT_EVAL_OUTPUT: o->eval_output = optarg; return true;
    default: return false;
    }
}

/* The options of test trees; false for any other. */
static bool tree_option(int c, options *o)
{
    switch (c) {
    case OPT_TREE: o->tree = optarg; return true;
    case OPT_CHANGED:
        if (strcmp(optarg, "skip") != 0 && strcmp(optarg, "flip") != 0)
            cli_usage_error("invalid --changed-output '%s' (skip or flip)", optarg);
        o->changed = strcmp(optarg, "skip") == 0 ? TREE_CHANGED_SKIP : TREE_CHANGED_FLIP;
        return true;
    case OPT_BEFORE_MODEL: set_model(&o->befores, 'm', optarg, "--before-model"); return true;
    case OPT_BEFORE_CMD:
        set_model(&o->befores, OPT_MODEL_CMD, optarg, "--before-model-cmd");
        return true;
    case OPT_BEFORE_PRED:
        set_model(&o->befores, OPT_PREDICTIONS, optarg, "--before-predictions");
        return true;
    case OPT_THRESHOLD:
        o->cmp.threshold = cli_double_range("--threshold", optarg, 0, 1, CLI_CLOSED);
        return true;
    case OPT_ALPHA:
        o->cmp.alpha = cli_double_range("--alpha", optarg, 0, 1, CLI_OPEN);
        return true;
    case OPT_BOOTSTRAP:
        o->cmp.samples = (size_t)cli_long("--bootstrap", optarg, 1, 100000000L);
        return true;
    default: return false;
    }
}

/* The usage errors of options that do not go together, or are missing. */
static void check_options(options *o)
{
    if (o->text && o->tokenizer && o->text != o->tokenizer)
        cli_usage_error("--model-text %s and --tokenizer %s: give one",
                        o->text == TEXT_RAW ? "raw" : "prepared",
                        o->tokenizer == TEXT_RAW ? "none" : "default or whitespace");
    if (!o->text)
        o->text = o->tokenizer;
    if (o->models.n)
        o->model = o->models.run[0];
    if (!o->tree && o->models.n > 1)
        cli_usage_error("%s and %s: give one model (runs of several seeds are pooled "
                        "with --tree)", o->models.run[0].option, o->models.run[1].option);
    if (o->templates && o->tree)
        cli_usage_error("--templates and --tree: give one");
    if (!o->templates && !o->tree && !o->eval)
        cli_usage_error("nothing to do: give --templates, --tree or --eval");
    if (!o->model.kind && !(o->templates && o->emit))
        cli_usage_error("no model: give --model, --model-cmd or --predictions");
    if (o->befores.n && !o->tree)
        cli_usage_error("%s compares test trees: give --tree", o->befores.run[0].option);
    if (o->eval && o->model.kind == OPT_PREDICTIONS)
        cli_usage_error("--eval needs a model to run: --model or --model-cmd");
    if (o->npart_specs && !o->eval)
        cli_usage_error("--partition needs --eval");
    if (o->npart_specs && (o->templates || o->tree) && !o->eval_output)
        cli_usage_error("--partition with --templates or --tree needs --eval-output");
    if ((o->by_template || o->by_fill || o->failures || o->fail_under >= 0 || o->bases ||
         o->emit) && !o->templates)
        cli_usage_error("--by-template, --by-fill, --failures, --fail-under, --bases "
                        "and --emit-cases need --templates");
    if (o->by_template && o->by_fill)
        cli_usage_error("--by-template and --by-fill: give one");
    if (o->redact && o->emit)
        cli_usage_error("--emit-cases writes the cases' text: not with --redact");
}

static void parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->tok.kind = TOKENIZER_DEFAULT;
    o->fail_under = -1;
    o->batch = 512;
    o->cmd = (model_cmd_options){MODEL_TIMEOUT_DEFAULT, pass_stderr, NULL};
    o->expand.max_cases = EXPAND_MAX_CASES_DEFAULT;
    o->cmp = (tree_compare_options){TREE_THRESHOLD_DEFAULT, 0.05, TREE_SAMPLES_DEFAULT, 0};
    o->changed = TREE_CHANGED_SKIP;
    o->fill_spec = calloc((size_t)argc, sizeof *o->fill_spec);
    o->part_spec = calloc((size_t)argc, sizeof *o->part_spec);
    o->fill_pair = calloc((size_t)argc, sizeof *o->fill_pair);
    if (!o->fill_spec || !o->part_spec || !o->fill_pair)
        cli_die("out of memory");
    int c;
    while ((c = getopt_long(argc, argv, "t:m:o:q", long_options, NULL)) != -1)
        if (!template_option(c, o) && !model_option(c, o) && !report_option(c, o) &&
            !tree_option(c, o) && !cli_common_option(c, usage, &o->v))
            cli_try_help();
    if (optind < argc)
        cli_usage_error("unexpected operand '%s'", argv[optind]);
    check_options(o);
}

/* The lists of --fill and --pairs and the id files of --partition, read
   once the run's files are checked. */
static void read_lists(options *o)
{
    tells_error err;
    tells_error_clear(&err);
    for (size_t i = 0; i < o->nfill_specs; i++)
        if (fill_add(&o->fills, o->fill_spec[i], o->fill_pair[i], &err) < 0)
            fail_value(o->fill_pair[i] ? "--pairs" : "--fill", ": ", &err);
    for (size_t i = 0; i < o->npart_specs; i++)
        add_partition(o, o->part_spec[i]);
}

static void options_free(options *o)
{
    fill_set_free(&o->fills);
    expand_options_free(&o->expand);
    label_map_free(&o->labels);
    for (size_t p = 0; p < o->nparts; p++)
        partition_free(&o->parts[p]);
    free(o->parts);
    free(o->fill_spec);
    free(o->part_spec);
    free(o->fill_pair);
}

/* What a run holds: freed at its end; on failure the model is stopped
   and the outputs discarded before the error is reported. */
typedef struct run {
    template_set ts, bases;
    case_set cs;
    test_tree tr;
    dataset d;
    input_lines lines[3];     /* by model_text: the cases' or tests' inputs */
    bool have_lines[3];
    class_list classes;
    heldout h;
    double *recall;
    out_set outs;
    classifier *c;
} run;

static void run_fail(run *r, tells_error *err)
{
    classifier_abort(r->c);
    out_set_abort(&r->outs);
    cli_fail(err);
}

static void run_free(run *r)
{
    free(r->recall);
    heldout_free(&r->h);
    for (int t = 0; t < 3; t++)
        input_lines_free(&r->lines[t]);
    class_list_free(&r->classes);
    cases_free(&r->cs);
    templates_free(&r->ts);
    templates_free(&r->bases);
    tree_free(&r->tr);
    dataset_free(&r->d);
}

static FILE *open_output(run *r, const char *path)
{
    tells_error err;
    tells_error_clear(&err);
    FILE *fp = out_set_open(&r->outs, path, &err);
    if (!fp)
        run_fail(r, &err);
    return fp;
}

/* Opens the model m names as r->c, for total cases in all. */
static void open_model(run *r, const options *o, const model_spec *m, size_t total)
{
    tells_error err;
    tells_error_clear(&err);
    const class_list *k = &r->classes;
    int rc = m->kind == 'm' ? classifier_open_fasttext(&r->c, m->arg, &err)
             : m->kind == OPT_MODEL_CMD
                 ? classifier_open_command(&r->c, m->arg, k->name, k->n, &err)
                 : classifier_open_predictions(&r->c, m->arg, k->name, k->n, &err);
    if (rc < 0) {
        r->c = NULL;
        run_fail(r, &err);
    }
    classifier_command_options(r->c, &o->cmd);
    classifier_expect(r->c, total);
}

/* Checks the model's end (a command's exit, a predictions file used up). */
static void finish_model(run *r)
{
    tells_error err;
    tells_error_clear(&err);
    classifier *c = r->c;
    r->c = NULL;
    if (c && classifier_finish(c, &err) < 0)
        run_fail(r, &err);
}

/* The text a model m reads: what --model-text or --tokenizer chose,
   else prepared for a fastText model (trained on prepared text) and the
   text as written for any other; m NULL: --emit-cases's. */
static model_text text_for(const options *o, const model_spec *m)
{
    if (o->text)
        return o->text;
    return m && m->kind == 'm' ? TEXT_PREPARED : TEXT_RAW;
}

/* The input lines of the cases or the tree as text t reads them, made on
   first use. */
static const input_lines *lines_for(run *r, const options *o, model_text t)
{
    if (r->have_lines[t])
        return &r->lines[t];
    tells_error err;
    tells_error_clear(&err);
    const tok_options *tok = t == TEXT_PREPARED ? &o->tok : NULL;
    if ((o->templates ? case_lines(&r->cs, tok, &r->lines[t], &err)
                      : tree_lines(&r->tr, tok, &r->lines[t], &err)) < 0)
        run_fail(r, &err);
    r->have_lines[t] = true;
    return &r->lines[t];
}

/* The outcomes of the tree's tests for every run of a model. */
static unsigned char **tree_model_outcomes(run *r, const options *o, const model_runs *m)
{
    tells_error err;
    tells_error_clear(&err);
    unsigned char **out = array_new(m->n, sizeof *out);
    if (!out) {
        tells_error_nomem(&err, NULL, 0);
        run_fail(r, &err);
    }
    for (size_t k = 0; k < m->n; k++) {
        const input_lines *l = lines_for(r, o, text_for(o, &m->run[k]));
        open_model(r, o, &m->run[k], r->tr.ninputs);
        if (tree_failures(&r->tr, r->c, l->v, o->batch, o->changed, &out[k], &err) < 0)
            run_fail(r, &err);
        finish_model(r);
    }
    return out;
}

static void free_outcomes(unsigned char **runs, size_t n)
{
    for (size_t k = 0; runs && k < n; k++)
        free(runs[k]);
    free(runs);
}

/* The capability tests' reports; *below counts the summary rows under
   --fail-under, whatever table is shown. */
static void report_templates(run *r, const options *o, FILE *out, FILE *fail_out,
                             size_t *below)
{
    tells_error err;
    tells_error_clear(&err);
    run_results res;
    const input_lines *l = lines_for(r, o, text_for(o, &o->model));
    if (run_cases(&res, &r->cs, &r->ts, &o->labels, r->c, l->v, o->batch, &err) < 0)
        run_fail(r, &err);
    report_context x = {&r->ts, &r->cs, &res, &o->labels, r->c, o->eval ? r->recall : NULL,
                        o->redact};
    int rc = o->by_template ? report_by_template(out, &x, &err)
             : o->by_fill   ? report_by_fill(out, &x, o->by_fill, &err)
                            : report_summary(out, &x, &err);
    summary sm;
    if (rc == 0 && o->fail_under >= 0 && (rc = summary_compute(&sm, &x, &err)) == 0) {
        *below = summary_below(&sm, o->fail_under);
        summary_free(&sm);
    }
    if (rc == 0 && fail_out)
        report_failures(fail_out, &x);
    run_results_free(&res);
    if (rc < 0) {
        /* report_by_fill's data error is about the placeholder --by-fill named. */
        if (o->by_fill && err.kind == TELLS_ERR_DATA)
            tells_error_prefix_sep(&err, "--by-fill", " ");
        run_fail(r, &err);
    }
}

/* The templates and their cases (written out at once by --emit-cases
   without a model), or the test tree. */
static void load_tests(run *r, const options *o)
{
    tells_error err;
    tells_error_clear(&err);
    if (o->templates) {
        if (templates_load(&r->ts, o->templates, &err) < 0 ||
            (o->bases && (templates_load(&r->bases, o->bases, &err) < 0 ||
                          templates_assign_bases(&r->ts, &r->bases, &err) < 0)))
            cli_fail(&err);
        if (samples_check(&o->fills, &o->expand, &err) < 0)
            fail_value("--sample", " ", &err);
        if (cases_expand(&r->cs, &r->ts, &o->fills, &o->expand, &err) < 0)
            cli_fail(&err);
        /* The cases as --emit-cases writes them: as written unless told. */
        const input_lines *emit = lines_for(r, o, text_for(o, NULL));
        if (o->emit && !o->model.kind && input_lines_write(o->emit, emit, &err) < 0)
            cli_fail(&err);
    }
    if (o->tree && tree_load(&r->tr, o->tree, &err) < 0)
        cli_fail(&err);
}

/* The test tree's report: the model's runs, compared with the before
   model's when there is one. */
static void report_tree(run *r, const options *o, FILE *out)
{
    tells_error err;
    tells_error_clear(&err);
    unsigned char **after = tree_model_outcomes(r, o, &o->models);
    unsigned char **before = o->befores.n ? tree_model_outcomes(r, o, &o->befores) : NULL;
    const unsigned char *const *a = (const unsigned char *const *)after;
    const unsigned char *const *b = (const unsigned char *const *)before;
    int rc = before ? tree_compare_runs(out, &r->tr, b, o->befores.n, a, o->models.n, &o->cmp,
                                        &err)
                    : tree_report_runs(out, &r->tr, a, o->models.n, &err);
    free_outcomes(before, o->befores.n);
    free_outcomes(after, o->models.n);
    if (rc < 0)
        run_fail(r, &err);
    if (!o->v.quiet && r->tr.skipped)
        cli_warn(r->tr.paper_format
                 ? "%s: %zu rows skipped (topic markers, or types other than should "
                   "output, should not output and should have the same output as)"
                 : "%s: %zu rows skipped (topic markers, or labelled neither pass "
                   "nor fail)", r->tr.source, r->tr.skipped);
}

/* Runs the model on the tests and the held-out data and writes the
   reports; *below as report_templates. */
static void test_model(run *r, const options *o, size_t *below)
{
    tells_error err;
    tells_error_clear(&err);
    if (o->eval &&
        (dataset_load(&r->d, o->eval, &err) < 0 || dataset_require_examples(&r->d, &err) < 0))
        cli_fail(&err);
    if (class_list_default(&r->classes, o->classes, o->templates ? &r->ts : NULL, &o->labels,
                           o->tree ? &r->tr : NULL, o->eval ? &r->d : NULL, &err) < 0)
        fail_value("--classes", ": ", &err);

    /* Held-out data alone: its table goes to --eval-output, else -o. */
    bool tests = o->templates || o->tree;
    FILE *out = open_output(r, tests || !o->eval_output ? o->output : o->eval_output);
    FILE *eval_out = !o->nparts ? NULL : tests ? open_output(r, o->eval_output) : out;
    FILE *fail_out = o->failures ? open_output(r, o->failures) : NULL;
    /* With a model, the cases are committed with the reports, once the
       model has answered them all. */
    if (o->emit)
        input_lines_print(open_output(r, o->emit), lines_for(r, o, text_for(o, NULL)));

    if (o->eval && heldout_select(&r->h, &r->d, o->eval_split, &err) < 0)
        run_fail(r, &err);
    if (o->templates || o->eval)
        open_model(r, o, &o->model, (o->eval ? r->h.n : 0) + (o->templates ? r->cs.n : 0));
    if (o->eval &&
        (heldout_predict(&r->h, o->pair, r->c, o->batch, &err) < 0 ||
         heldout_recall(&r->h, r->c, &r->recall, &err) < 0 ||
         (o->nparts && report_partitions(eval_out, &r->h, o->parts, o->nparts, &err) < 0)))
        run_fail(r, &err);
    if (o->templates)
        report_templates(r, o, out, fail_out, below);
    else if (o->eval && !o->nparts && !o->tree)
        report_recall(out, r->c, r->recall);
    finish_model(r);
    if (o->tree)
        report_tree(r, o, out);
    if (out_set_commit(&r->outs, &err) < 0)
        cli_fail(&err);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-run");
    cli_hint(TELLS_E_NO_FILL, "give --fill %s=FILE");
    cli_hint(TELLS_E_NOT_A_CLASS, "map it with --labels");
    cli_hint(TELLS_E_FEW_ANSWERS, "the cases of --emit-cases, one line each");
    cli_hint(TELLS_E_TOO_MANY_CASES, "raise --max-cases, or draw fewer values with --sample");
    options o;
    parse_args(argc, argv, &o);
    check_io(&o);
    read_lists(&o);
    run r;
    memset(&r, 0, sizeof r);
    load_tests(&r, &o);
    size_t below = 0;
    if (o.model.kind)  /* else only --emit-cases, written */
        test_model(&r, &o, &below);
    run_free(&r);
    options_free(&o);
    if (o.fail_under >= 0 && below > 0) {
        cli_warn("%zu test%s below --fail-under %g", below, below == 1 ? "" : "s",
                 o.fail_under);
        return EXIT_DATA;
    }
    return 0;
}
