#include <config.h>
#include "study/page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char STYLE[] =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "color:#222;line-height:1.45}"
    "h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f3f3f3}"
    ".yes{color:#a00;font-weight:bold}.no{color:#276b27;font-weight:bold}"
    ".headline{font-size:1.15em;padding:.8em 1em;border-left:.4em solid #888;background:#f7f7f7}"
    ".headline.found{border-color:#a00}.headline.clear{border-color:#276b27}"
    ".headline.warned{border-color:#c80}"
    ".redacted{padding:.6em 1em;border:2px dashed #555;background:#fffbe6}"
    "figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}"
    "figcaption{font-size:.9em;color:#444}"
    ".nofig{color:#a00}";

void html_escape(FILE *fp, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&#39;", fp); break;
        default: putc(*s, fp);
        }
}

void svg_inline(FILE *fp, FILE *svg)
{
    /* From the <svg element on: the XML declaration and DOCTYPE have no
       place inside HTML. */
    char buf[1 << 14];
    size_t n;
    bool started = false;
    while ((n = fread(buf, 1, sizeof buf - 1, svg)) > 0) {
        buf[n] = '\0';
        char *from = buf;
        if (!started) {
            char *at = strstr(buf, "<svg");
            if (!at)
                continue;
            from = at;
            started = true;
        }
        fwrite(from, 1, n - (size_t)(from - buf), fp);
    }
}

void page_head(FILE *fp, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
          "tells study: ", fp);
    html_escape(fp, title);
    fprintf(fp, "</title>\n<style>%s</style>\n</head>\n<body>\n", STYLE);
}

void page_foot(FILE *fp)
{
    fprintf(fp, "<p>Made by tells %s.</p>\n</body>\n</html>\n", PACKAGE_VERSION);
}

void page_figure(const page *pg, const char *name, const char *caption)
{
    FILE *fp = pg->fp;
    fputs("<figure id=\"fig-", fp);
    html_escape(fp, name);
    fputs("\">\n", fp);
    FILE *svg = NULL;
    if (pg->drawn) {
        size_t len = strlen(pg->figdir) + strlen(name) + 6;
        char *path = malloc(len);
        if (path) {
            snprintf(path, len, "%s/%s.svg", pg->figdir, name);
            svg = fopen(path, "rb");
            free(path);
        }
    }
    if (svg) {
        svg_inline(fp, svg);
        fclose(svg);
    } else {
        fputs("<p class=\"nofig\">(figure not drawn: ", fp);
        html_escape(fp, pg->why_not ? pg->why_not : "its drawing is missing");
        fputs(")</p>\n", fp);
    }
    fputs("<figcaption>", fp);
    fputs(caption, fp);
    fputs(" Data and script: <code>figures/", fp);
    html_escape(fp, name);
    fputs(".dat</code>, <code>figures/", fp);
    html_escape(fp, name);
    fputs(".gp</code>.</figcaption>\n</figure>\n", fp);
}

void page_para(const page *pg, const char *s)
{
    fputs("<p>", pg->fp);
    html_escape(pg->fp, s);
    fputs("</p>\n", pg->fp);
}

void page_cell_num(FILE *fp, double x, int decimals)
{
    if (isnan(x))
        fputs("<td class=\"n\">-</td>", fp);
    else
        fprintf(fp, "<td class=\"n\">%.*f</td>", decimals, x);
}

void page_cell_p(FILE *fp, pvalue p)
{
    char buf[64];
    pvalue_format(p, 3, buf, sizeof buf);
    fprintf(fp, "<td class=\"n\">%s</td>", buf);
}

void page_cell_text(FILE *fp, const char *s)
{
    fputs("<td>", fp);
    html_escape(fp, s);
    fputs("</td>", fp);
}
