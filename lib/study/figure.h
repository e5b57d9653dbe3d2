/* The figures of the study's reports (study/report.h, study/capstudy.h):
   each a data file NAME.dat and a gnuplot script NAME.gp in the figures
   folder, drawn to NAME.svg by one gnuplot run, so that a user can
   restyle a figure and draw it again with `cd DIR/figures && gnuplot
   NAME.gp`. In the data files double quotes become two single quotes
   and tabs and line ends spaces (gnuplot would read them as quoting or
   separators); in the scripts every string from the corpus is quoted. */
#ifndef TELLS_STUDY_FIGURE_H
#define TELLS_STUDY_FIGURE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

enum { FIGURES_MAX = 32 };

/* The figures of one report, as they are written. */
typedef struct figset {
    const char *dir;                  /* DIR/figures */
    const char *names[FIGURES_MAX];   /* static strings */
    size_t n;
} figset;

/* Writes a figure's data or script; a and b are the caller's. -1 on a
   write error (ferror) or out of memory. */
typedef int (*fig_writer)(FILE *fp, const void *a, const void *b);

/* Writes DIR/figures/NAME.dat and NAME.gp, each atomically, and lists
   the figure for figures_draw. */
int figure_add(figset *f, const char *name, fig_writer data, fig_writer script,
               const void *a, const void *b, tells_error *err);

/* The same for a figure whose script is the same whatever the data: the
   shared head (fig_script_head, width by height) and body. */
int figure_add_fixed(figset *f, const char *name, fig_writer data, int width, int height,
                     const char *body, const void *a, const void *b, tells_error *err);

/* Draws the figures of f with one gnuplot process run in f->dir; its
   messages end up in f->dir/gnuplot.log. An io error when gnuplot
   cannot be started, a data error naming the log's last line when it
   fails (tagged TELLS_E_LOG: the log says more). */
int figures_draw(const char *gnuplot, const figset *f, tells_error *err);

/* The terminal and look every figure shares; SVG ids start with the
   figure's name, so that the figures inlined in one page share none. */
void fig_script_head(FILE *fp, const char *name, int width, int height);
/* A string in a data file, and one in a script (single-quoted). */
void fig_data_string(FILE *fp, const char *s);
void fig_script_string(FILE *fp, const char *s);

/* Bars with 95% intervals from NAME.dat (a header, then label, value,
   low, high, ...), values from 0 to 1, as many bars as rows; rotate
   tilts the labels. */
typedef struct fig_bars {
    const char *name;
    int width, height;
    const char *ylabel;
    bool rotate;
} fig_bars;
void fig_bars_script(FILE *fp, const fig_bars *b);
/* A figure of such bars: data from data, the script from b. */
int figure_add_bars(figset *f, const fig_bars *b, fig_writer data, const void *x,
                    const void *y, tells_error *err);
/* A row of such data: label, value, low, high, then n unless n is -1. */
void fig_bars_row(FILE *fp, const char *label, double value, double low, double high, long n);

/* A tick step of 1, 2, 2.5 or 5 times a power of ten that cuts span into
   at most `intervals` parts, so that tick labels have room. */
double fig_tick_step(double span, int intervals);

/* Tick labels are cut to FIG_LABEL_CHARS characters (the last an
   ellipsis), so that they keep clear of each other; the tables beside
   the figures have the full text. */
enum { FIG_LABEL_CHARS = 16 };
/* s as fig_data_string writes it, cut to max_chars characters. */
void fig_label_string(FILE *fp, const char *s, size_t max_chars);

/* Ranked horizontal bars, one panel per class (tokens, log-odds): the
   head, then one x scale from lo to hi (widened to include 0) with room
   for at most five tick labels, and the same left margin, for every
   panel; then fig_panel per panel, index counting the data file's
   blocks (rank, label, value), and "unset multiplot". */
void fig_panels_head(FILE *fp, const char *name, size_t panels, const char *xlabel,
                     double lo, double hi);
void fig_panel(FILE *fp, const char *name, const char *title, size_t index);

#endif
