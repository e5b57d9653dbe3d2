/* The pages of the study's reports (study/report.h, study/capstudy.h):
   one self-contained HTML page each, with one stylesheet, no JavaScript,
   nothing loaded from the network, the figures' SVGs inlined. Every piece
   of corpus text (tokens, class names, file names, heuristic names) goes
   through html_escape, so that a hypothesis such as "<script>" shows as
   text and makes no element. */
#ifndef TELLS_STUDY_PAGE_H
#define TELLS_STUDY_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/stattest.h"

typedef struct page {
    FILE *fp;
    const char *figdir;        /* DIR/figures */
    bool drawn;                /* the figures exist */
    const char *why_not;       /* when not drawn */
} page;

/* Writes s to fp with &, <, >, " and ' as character references. */
void html_escape(FILE *fp, const char *s);
/* Copies the SVG file svg into the page from its <svg element on. */
void svg_inline(FILE *fp, FILE *svg);

/* From <!DOCTYPE html> to <body>, the title "tells study: TITLE" (escaped)
   and the stylesheet; and from "Made by tells VERSION" to </html>. */
void page_head(FILE *fp, const char *title);
void page_foot(FILE *fp);

/* A figure: its SVG inlined (or why it was not drawn), then caption (HTML
   written as it is) and where its data and script are. */
void page_figure(const page *pg, const char *name, const char *caption);
/* <p>s</p>, s escaped. */
void page_para(const page *pg, const char *s);

/* Table cells: a number with decimals ("-" for NaN), a p-value with 3
   significant digits, escaped text. */
void page_cell_num(FILE *fp, double x, int decimals);
void page_cell_p(FILE *fp, pvalue p);
void page_cell_text(FILE *fp, const char *s);

#endif
