/* The study's report: DIR/report.html, one self-contained page a person
   reads first (the verdicts in plain sentences, then a section per
   analysis with its table and figure), and DIR/figures/, each figure's
   data (NAME.dat), gnuplot script (NAME.gp) and drawing (NAME.svg), so
   that a user can restyle a figure and draw it again with
   `cd DIR/figures && gnuplot NAME.gp`.

   The page has no JavaScript, loads nothing from the network and has no
   external style sheet; the SVGs are inlined. Every piece of corpus text
   in it (tokens, class names, file names, heuristic names) is escaped, so
   that a hypothesis such as "<script>" shows as text and makes no
   element; in the figures' data files double quotes become two single
   quotes (gnuplot would read them as quoting). */
#ifndef TELLS_REPORT_H
#define TELLS_REPORT_H

#include <stdio.h>

#include "analysis/study.h"
#include "base/error.h"

/* Writes the figures (when the study's configuration asks for them and
   gnuplot runs) and report.html into dir. */
int study_report(study_result *r, const char *dir, tells_error *err);

/* Writes s to fp with &, <, >, " and ' as character references. */
void html_escape(FILE *fp, const char *s);
/* Copies the SVG file svg into the page from its <svg element on. */
void svg_inline(FILE *fp, FILE *svg);

/* Draws the scripts names[0..n) (NAME.gp in dir, each writing NAME.svg)
   with one gnuplot process run in dir; its messages end up in
   dir/gnuplot.log. An io error when gnuplot cannot be started, a data
   error naming the log's last line when it fails. */
int figures_draw(const char *gnuplot, const char *dir, const char *const *names, size_t n,
                 tells_error *err);

#endif
