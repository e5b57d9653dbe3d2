/* Shared plumbing for the program mains: the one place that prints
   errors and decides exit codes (0 ok, 1 data or runtime failure,
   2 usage error). */
#ifndef TELLS_CLI_H
#define TELLS_CLI_H

#include <math.h>   /* INFINITY, for cli_double_range */
#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/ioplan.h"
#include "analysis/heuristics.h"
#include "model/folds.h"
#include "model/ftshim.h"
#include "text/prep.h"

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* Also sets argv[0], so getopt's own messages use the same name
   however the program was invoked, and makes exit and every signal that
   would end the program (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT,
   SIGXFSZ, ...: temp_signals of base/tempfile.h) remove the temporary
   files first (a signal the caller ignores stays ignored). */
void cli_init(char **argv, const char *program_name);
const char *cli_program(void);
/* Prints "prog: FILE:LINE: msg" for a library error. */
void cli_report(const tells_error *err);
/* The exit status for an error's kind: 2 for a usage error, else 1. */
int cli_exit_status(const tells_error *err);
/* Reports err and exits with cli_exit_status; a usage error also gets
   the "Try" line. An error whose kind was never set is reported as an
   internal error (the library failed without saying why). */
void cli_fail(const tells_error *err) __attribute__((noreturn));
/* cli_fail for an error about the value of option opt: a usage error's
   message gets "OPT: " in front (other kinds are not the value's fault). */
void cli_fail_option(const char *opt, tells_error *err) __attribute__((noreturn));
/* Prints "prog: msg" and exits 1. */
void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* strdup that exits with "out of memory" on failure. */
char *cli_strdup(const char *s);
/* Advice this program gives, in its own options' terms, when the library
   reports condition code: cli_report appends " (TEXT)" to the message,
   with %s in TEXT replaced by the error's subject. Register at start. */
void cli_hint(tells_error_code code, const char *text);

/* Prints "prog: msg". */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "prog: msg" and the "Try" line, then exits 2. */
void cli_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* Prints "Try 'prog --help' for more information." and exits 2. */
void cli_try_help(void) __attribute__((noreturn));
void cli_version(void);

/* Checks the files a run will read and write (base/ioplan.h) before
   any work and frees the plan: an output that names an input or another
   output is a usage error (exit 2). */
void cli_check_io(io_plan *p);

/* Option argument parsers: on a bad value, a usage error naming the
   option and saying what it takes ("invalid value 'ARG' for OPT
   (expected ...)").

   cli_long: an integer from min to max, "expected an integer from MIN to
   MAX", or ">= MIN" when max is LONG_MAX (a bound nobody means), unless
   the value is beyond it (then the range with LONG_MAX). */
long cli_long(const char *opt, const char *arg, long min, long max);
/* --group-by: "premise" or "none" (model/folds.h). */
fold_grouping cli_group_by(const char *arg);
/* Its --help lines. */
#define CLI_GROUP_BY_HELP                                                       \
    "      --group-by G         premise: the hypotheses of one premise share a\n" \
    "                           fold (by its exact text); none: rows apart\n"     \
    "                           [premise]\n"
/* cli_double_range: a finite number from min to max, each end included
   unless open has CLI_OPEN_MIN or CLI_OPEN_MAX; min -INFINITY or max
   INFINITY for no bound. The message states the range as it is: "a
   number > 0 and <= 1", "from 0 to 1", ">= 0", "> 0", or "a number".
   A number below the normal doubles (1e-320) is a number, taken as
   strtod gives it; one too small for any double (1e-400, not 0) or too
   large for one (1e400, when max is INFINITY) is refused, saying so. */
enum { CLI_CLOSED = 0, CLI_OPEN_MIN = 1, CLI_OPEN_MAX = 2, CLI_OPEN = 3 };
double cli_double_range(const char *opt, const char *arg, double min, double max,
                        int open);
/* cli_double_range from min, included, up. */
double cli_double(const char *opt, const char *arg, double min);

/* The operands after the options, or a lone "-" (stdin) when there are
   none. */
char **cli_operands(int argc, char **argv, int *n);

/* The data folder (the MeSH tree file, the heuristics' lexicons, the
   bundled corpora): $TELLS_DATA when set and not empty; else, for a
   program run from the build tree it was built in, the source tree's
   corpora/ (recorded by configure), so that it works before make
   install; else where make install put them (CLI_PKGDATADIR). */
const char *cli_data_dir(void);
/* The default concept index of tells-heur, tells-study and
   tells-concepts: MeSH 2024 with its entry terms, linked on stems, and
   the built-in heuristics checked against it. */
#define CLI_MESH2024_FILE "mesh/mtrees2024.txt"
#define CLI_TERMS2024_FILE "mesh/desc2024-terms.tsv"
#define CLI_HEURISTICS2024_FILE "lexicons/heuristics-2024.heur"
/* MeSH 2017 and the built-in heuristics checked against it: what --mesh
   FILE pairs with (the linking of earlier runs), and tells-audit's. */
#define CLI_MESH_FILE "mesh/mtrees2017.txt"
#define CLI_HEURISTICS_FILE "lexicons/heuristics.heur"
extern const char *const CLI_PKGDATADIR;

/* How the heuristics link text to MeSH, as --mesh, --terms, --no-terms
   and --stem/--no-stem give it (stem -1: not given), for tells-heur,
   tells-audit and tells-concepts alike. */
typedef struct cli_linking {
    const char *mesh, *terms;
    bool no_terms;
    int stem;
    char *owned[3];
} cli_linking;
/* --terms, --no-terms, --stem and --no-stem (--mesh, whose short form
   differs between programs, is each program's own): CLI_LINKING_OPTIONS
   in the long options, and each option passed to cli_linking_option,
   which takes those four (false for any other). Start with stem -1. */
enum { CLI_OPT_TERMS = 1010, CLI_OPT_NO_TERMS, CLI_OPT_STEM, CLI_OPT_NO_STEM };
#define CLI_LINKING_OPTIONS                                  \
    {"terms", required_argument, NULL, CLI_OPT_TERMS},       \
    {"no-terms", no_argument, NULL, CLI_OPT_NO_TERMS},       \
    {"stem", no_argument, NULL, CLI_OPT_STEM},               \
    {"no-stem", no_argument, NULL, CLI_OPT_NO_STEM}
bool cli_linking_option(int c, cli_linking *l);
/* The usage errors of those options (--terms with --no-terms). */
void cli_linking_check(const cli_linking *l);
/* Sets src's tree file, entry terms, stemming and (when builtin) built-in
   definitions: without --mesh, MeSH 2024 with its entry terms on stems
   and the built-ins for 2024; with --mesh FILE, that file's headings on
   exact tokens and the built-ins for 2017 (the linking of earlier runs).
   Dies when out of memory. */
void cli_linking_sources(cli_linking *l, bool builtin, heur_sources *src);
void cli_linking_free(cli_linking *l);
/* Adds the files src reads to p as inputs: the tree file (--mesh), the
   entry terms (--terms), the definitions (--heuristics), the synonyms
   (--synonyms) and the built-in definitions. */
void cli_linking_io(const heur_sources *src, io_plan *p);
/* DATA/rel; caller frees; NULL when out of memory. */
char *cli_data_file(const char *rel);
/* 0 when path exists, else an error with a hint on how to find it. */
int cli_check_data_file(const char *path, tells_error *err);

/* How a corpus is read, the options tells-prep and tells-study share:
   --split NAME FILE, --format, the four --*-field options, --labels,
   --skip-invalid and --tokenizer. Put CLI_CORPUS_OPTIONS in the long
   options and "+s:f:t:" in the short ones ('+': FILE after --split NAME
   is the option's), and pass every option to cli_corpus_option first. */
enum {
    CLI_OPT_ID_FIELD = 1000, CLI_OPT_LABEL_FIELD, CLI_OPT_PREMISE_FIELD,
    CLI_OPT_HYPOTHESIS_FIELD, CLI_OPT_LABELS, CLI_OPT_SKIP_INVALID
};
#define CLI_CORPUS_OPTIONS                                                   \
    {"split", required_argument, NULL, 's'},                                 \
    {"format", required_argument, NULL, 'f'},                                \
    {"id-field", required_argument, NULL, CLI_OPT_ID_FIELD},                 \
    {"label-field", required_argument, NULL, CLI_OPT_LABEL_FIELD},           \
    {"premise-field", required_argument, NULL, CLI_OPT_PREMISE_FIELD},       \
    {"hypothesis-field", required_argument, NULL, CLI_OPT_HYPOTHESIS_FIELD}, \
    {"labels", required_argument, NULL, CLI_OPT_LABELS},                     \
    {"skip-invalid", no_argument, NULL, CLI_OPT_SKIP_INVALID},               \
    {"tokenizer", required_argument, NULL, 't'}

typedef struct cli_corpus {
    prep_options *prep;        /* gets the fields, format, labels, ... */
    prep_input *inputs;        /* gets the --split inputs: room for argc */
    size_t ninputs;
} cli_corpus;
/* Takes option c (getopt_long's, with optarg; --split's FILE is
   argv[optind++]) when it is one of those; false when it is not. Usage
   errors exit. */
bool cli_corpus_option(int c, int argc, char **argv, cli_corpus *cc);
/* Adds each --split FILE to p as an input ("--split NAME"). */
void cli_corpus_io(const cli_corpus *cc, io_plan *p);
/* Frees the label list that --labels made. */
void cli_corpus_free(cli_corpus *cc);

/* --redact and --min-examples K, for the programs that can write corpus
   text (text/redact.h): CLI_REDACT_OPTIONS in the long options, every
   option passed to cli_redact_option first. */
enum { CLI_OPT_REDACT = 1120, CLI_OPT_MIN_EXAMPLES };
#define CLI_REDACT_OPTIONS                                        \
    {"redact", no_argument, NULL, CLI_OPT_REDACT},                \
    {"min-examples", required_argument, NULL, CLI_OPT_MIN_EXAMPLES}
typedef struct cli_redact {
    bool on;
    size_t k;                  /* [REDACT_MIN_EXAMPLES] */
    bool k_given;
} cli_redact;
bool cli_redact_option(int c, cli_redact *r);
/* --min-examples without --redact is a usage error. */
void cli_redact_check(const cli_redact *r);
/* The gate of a prepared TSV's tokens (NULL without --redact); exits 1 on
   an error. */
struct redact_gate *cli_redact_gate(const cli_redact *r, const char *prepared);

/* Whether progress should be shown: -q wins, then --progress, else
   only when stderr is a terminal. */
bool cli_show_progress(bool quiet, bool forced);
/* The progress callback of the library's options (progress and
   progress_user): prints "prog: MSG" when user is NULL or points to a
   true bool (cli_show_progress's answer, for a library that always
   calls it). */
void cli_progress(const char *msg, void *user);

/* The rows every program's long options end with, in this order:
   -q/--quiet and --progress where the program has them, then --help and
   --version (CLI_COMMON_OPTIONS), then the terminator. Each option is
   passed to cli_common_option, which takes those four. */
enum { CLI_OPT_HELP = 1100, CLI_OPT_VERSION, CLI_OPT_PROGRESS };
#define CLI_QUIET_OPTION {"quiet", no_argument, NULL, 'q'}
#define CLI_PROGRESS_OPTION {"progress", no_argument, NULL, CLI_OPT_PROGRESS}
#define CLI_COMMON_OPTIONS                          \
    {"help", no_argument, NULL, CLI_OPT_HELP},      \
    {"version", no_argument, NULL, CLI_OPT_VERSION}
/* What -q and --progress set. */
typedef struct cli_verbosity {
    bool quiet, progress;
} cli_verbosity;
/* Takes option c when it is one of the common ones: --help calls usage
   and --version prints the version, each then exiting 0; -q and
   --progress set *v (NULL in a program that has neither, which then
   leaves 'q' to its own options). False for any other option. */
bool cli_common_option(int c, void (*usage)(void), cli_verbosity *v);

/* The fastText training options of tells-baseline and tells-pvi, as rows
   of their long options: --word-ngrams (1 to 10), --epoch (1 to
   100,000), --lr (> 0), --dim (1 to 10,000), --bucket (1 to 10^8) and
   --threads (1 to 256). cli_fasttext_option takes option c into *ft
   when it is one of them; false for any other option. */
enum {
    CLI_OPT_NGRAMS = 1110, CLI_OPT_EPOCH, CLI_OPT_LR, CLI_OPT_DIM, CLI_OPT_BUCKET,
    CLI_OPT_THREADS
};
#define CLI_FASTTEXT_OPTIONS                                    \
    {"word-ngrams", required_argument, NULL, CLI_OPT_NGRAMS},   \
    {"epoch", required_argument, NULL, CLI_OPT_EPOCH},          \
    {"lr", required_argument, NULL, CLI_OPT_LR},                \
    {"dim", required_argument, NULL, CLI_OPT_DIM},              \
    {"bucket", required_argument, NULL, CLI_OPT_BUCKET},        \
    {"threads", required_argument, NULL, CLI_OPT_THREADS}
bool cli_fasttext_option(int c, ft_train_args *ft);

#endif
