/* The study's report: DIR/report.html, one self-contained page a person
   reads first (study/page.h): the corpus and how it was evaluated, the
   verdicts in plain sentences, every finding of summary.tsv, then each
   section's own part in the table's order, and the steps' times; and
   DIR/figures/, each section's figures (study/figure.h). */
#ifndef TELLS_STUDY_REPORT_H
#define TELLS_STUDY_REPORT_H

#include "base/error.h"
#include "study/study.h"

/* Writes the figures (when the study's configuration asks for them and
   gnuplot runs) and report.html into dir. */
int study_report(study_result *r, const char *dir, tells_error *err);

#endif
