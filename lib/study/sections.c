/* The table of the study's sections (study/core.h): the order they run
   in, of their rows in summary.tsv and of their parts of the report.
   Adding a check to the study: a section file (study/sec-NAME.c, its
   descriptor section_NAME), a row here, a line in Makefile.am, its tests
   (lib/README.md, "Adding a check"). */
#include <config.h>

#include "study/core.h"

#define SECTIONS(X) \
    X(prepare)      \
    X(baselines)    \
    X(tokens)       \
    X(lengths)      \
    X(heuristics)   \
    X(pairs)        \
    X(vectors)      \
    X(aflite)       \
    X(partitions)   \
    X(heldout)      \
    X(audit)        \
    X(measures)     \
    X(logodds)

#define DECLARE(name) extern const study_section section_##name;
SECTIONS(DECLARE)

#define ROW(name) &section_##name,
const study_section *const study_sections[] = {SECTIONS(ROW)};
const size_t study_nsections = sizeof study_sections / sizeof *study_sections;
