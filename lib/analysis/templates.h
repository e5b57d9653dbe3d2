/* Capability tests from templates (CheckList style): template tables,
   fill-in lists, sampling, and the expansion of templates into cases.
   Nothing here knows about models; see capability.h for scoring. */
#ifndef TELLS_TEMPLATES_H
#define TELLS_TEMPLATES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

typedef enum { TEST_MFT, TEST_INV, TEST_DIR } test_type;
typedef enum { DIR_UP, DIR_DOWN, DIR_SAME } test_direction;

const char *test_type_name(test_type t);

/* One row of a template table. Texts keep their placeholders: {name},
   or {a:name} for the value with the right English article; NAME is
   [A-Za-z_][A-Za-z0-9_]*, and braces are for nothing else. */
typedef struct template_row {
    char *name;          /* the `name` column, else the unnamed index
                            column of the ADE CSV, else the row number */
    char *capability;
    char *label;         /* "" when the test has none (INV, DIR) */
    char *text;          /* the hypothesis, or the only text */
    char *premise;       /* NULL unless the table has a premise column */
    char *base;          /* variation group; NULL until assigned */
    test_type type;
    char *vary;          /* INV, DIR: the placeholder the cases vary in */
    char *dir_class;     /* DIR: the class whose probability must move */
    test_direction direction;
    double tolerance;    /* DIR */
    long line;
    /* Placeholders in order of first appearance, premise first. */
    char **slots;
    size_t nslots;
} template_row;

typedef struct template_set {
    template_row *row;
    size_t n;
    char *source;        /* file name for messages */
} template_set;

/* Reads the ADE_templates CSV as distributed (an unnamed index column,
   capability, label, template) or our own CSV/TSV with the columns
   capability, label, template and optional base, name, type (MFT, INV,
   DIR), premise, vary, class, direction (up, down, same) and tolerance.
   TSV when path ends in .tsv or .tab, else CSV.
   Every template and premise must pass template_check. */
int templates_load(template_set *s, const char *path, tells_error *err);
void templates_free(template_set *s);

/* Checks the placeholders of text, the field (NULL: the template, else
   its name, as "premise") of a table's row at file:line: an unclosed
   '{', a stray '}', "{{", "{}", "{a:}", a prefix other than "a:", a bad
   name or a '{' inside a placeholder is a data error reported as
   FILE:LINE:COLUMN (err->file is "FILE:LINE", err->line the column),
   COLUMN counting characters of the field from 1. */
int template_check(const char *text, const char *file, long line, const char *field,
                   tells_error *err);

/* Assigns every template without a base to the template of bases (the
   base table, e.g. templates_base.csv) with the same capability, label
   and placeholder set whose text is most similar: the largest
   2 LCS / (m + n) over tokens (words, punctuation and placeholders),
   ties to the first. A template with no such base is an error. */
int templates_assign_bases(template_set *s, const template_set *bases,
                           tells_error *err);

/* The sorted, comma-joined placeholder set of a template ("ade,drug"). */
char *template_slot_set(const template_row *t);

/* Fill-in values for one placeholder (or two filled together). */
typedef struct fill_list {
    char *capability;    /* NULL: every capability */
    char *names[2];      /* names[1] NULL unless a pair */
    char **values;       /* n (pairs: 2n, row-major) */
    size_t n;
    size_t nvalues;      /* strings in values */
    char *source;
} fill_list;

typedef struct fill_set {
    fill_list *list;
    size_t n, cap;
} fill_set;

/* Built-in generators: "@time" gives "1 day", "2 days", ... "25 months"
   (numbers 1-25 with days, weeks and months, singular for 1);
   "@time-pairs" gives related pairs: the same unit, the first number
   smaller than the second ("2 days", "5 days"); "@time-pairs:duration"
   relates spans across units by duration (a week 7 days, a month
   365.2425 / 12), the first strictly shorter ("2 days", "3 weeks"), in
   @time's order of the first, then of the second. */
#define FILL_TIME "@time"
#define FILL_TIME_PAIRS "@time-pairs"
#define FILL_TIME_PAIRS_DURATION "@time-pairs:duration"

/* Parses "[CAPABILITY:]NAME=FILE" (pair false) or "[CAPABILITY:]A,B=FILE"
   (pair true: a two-column TSV) and reads FILE, one value per line
   (blank lines skipped), or a built-in generator. A malformed spec, an
   unknown generator or one of the other arity is a usage error; FILE's
   problems are errors about FILE. */
int fill_add(fill_set *s, const char *spec, bool pair, tells_error *err);
void fill_set_free(fill_set *s);

/* Expansion settings. */
typedef struct sample_spec {
    char *name;          /* a placeholder (either one of a pair) */
    size_t n;
} sample_spec;

typedef struct base_sample {
    char *capability;    /* NULL: every capability */
    size_t n;            /* 0: all variations */
} base_sample;

typedef struct expand_options {
    sample_spec *samples;
    size_t nsamples, samples_cap;
    base_sample *per_base;   /* the last matching entry wins */
    size_t nper_base, per_base_cap;
    unsigned long seed;
    size_t max_cases;        /* refuse to make more cases; 0: no limit
                                but memory */
} expand_options;

/* A limit that keeps a run within a few GB whatever the templates. */
#define EXPAND_MAX_CASES_DEFAULT 5000000

/* Adds a sample of n values of name, or n variations per base for
   capability (NULL: every capability; n 0: all); copies the names. */
int expand_add_sample(expand_options *o, const char *name, size_t len, size_t n,
                      tells_error *err);
int expand_add_per_base(expand_options *o, const char *capability, size_t len, size_t n,
                        tells_error *err);
void expand_options_free(expand_options *o);

/* A usage error when a sample asks for more values than its list has
   ("NAME=N: only M values in FILE") or names no list ("NAME: no
   fill-in list of that name"); cases_expand checks the same first. */
int samples_check(const fill_set *f, const expand_options *o, tells_error *err);

/* One filled-in case. */
typedef struct test_case {
    size_t tmpl;         /* index into the template set */
    size_t group;        /* INV, DIR: cases with the same values but for
                            `vary` share a group; MFT: the case itself */
    bool reference;      /* DIR: the group's first case */
    char *text, *premise;
    size_t *value;       /* per template slot: index of its value */
    size_t id;           /* 0-based position of the case */
} test_case;

typedef struct case_set {
    test_case *c;
    size_t n;
    size_t ngroups;
    bool *selected;      /* per template: kept by per-base sampling */
    /* Per template slot, the fill list it draws from and the values
       chosen (after --sample), as indexes into the list. */
    const fill_list ***slot_fill;  /* [tmpl][slot] */
    size_t **slot_col;             /* [tmpl][slot]: 0, or 1 for a pair's B */
} case_set;

/* How many cases cases_expand would make, computed without expanding:
   per template kept by per-base sampling, the product of its lists'
   sizes after sampling (a pair counting once); SIZE_MAX when the
   count does not fit. The errors are those of cases_expand. */
typedef struct case_count {
    size_t total;
    size_t largest;      /* the template that makes the most */
    size_t largest_n;    /* and how many */
} case_count;

int cases_count(case_count *out, const template_set *s, const fill_set *f,
                const expand_options *o, tells_error *err);

/* Expands the templates in file order, each as the cartesian product of
   its placeholders' values in order of first appearance (the first
   varying slowest). Sampling uses GSL's mt19937, seeded from seed and the
   sampled name or base, so one setting does not shift another. A
   placeholder without a list is an error tagged TELLS_E_NO_FILL with
   its name; templates that give no case at all are an error too, and
   so are more cases than o->max_cases ("the templates would make N
   cases, more than the limit of M; ..."), tagged TELLS_E_TOO_MANY_CASES
   and refused before anything is expanded. */
int cases_expand(case_set *cs, const template_set *s, const fill_set *f,
                 const expand_options *o, tells_error *err);
void cases_free(case_set *cs);

/* The value a case gives slot k of its template. */
const char *case_value(const case_set *cs, const test_case *c, size_t k);

#endif
