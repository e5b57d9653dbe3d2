#include <config.h>
#include "study/figure.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/outfile.h"

extern char **environ;

static void data_chars(FILE *fp, const char *s, const char *end)
{
    for (; s < end; s++)
        if (*s == '"')
            fputs("''", fp);
        else
            putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, fp);
}

void fig_data_string(FILE *fp, const char *s)
{
    data_chars(fp, s, s + strlen(s));
}

/* Single-quoted, where only ' is special (written twice). */
void fig_script_string(FILE *fp, const char *s)
{
    putc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            putc('\'', fp);
        putc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
    }
    putc('\'', fp);
}

void fig_script_head(FILE *fp, const char *name, int width, int height)
{
    char id[64];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof id; i++)
        id[i] = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')
                    ? name[i]
                    : '_';
    id[i] = '\0';
    fprintf(fp,
            "# %s.svg from %s.dat: edit and run `gnuplot %s.gp` to draw it again.\n"
            "reset\n"
            "set terminal svg size %d,%d name 'fig_%s' font 'sans,11' noenhanced "
            "background rgb 'white'\n"
            "set output '%s.svg'\n"
            "set datafile separator '\\t'\n"
            "set border 3 lc rgb '#555555'\n"
            "set tics nomirror\n"
            "set grid ytics lc rgb '#dddddd'\n"
            "set style fill solid 0.8 noborder\n",
            name, name, name, width, height, id, name);
}

/* Every bar carries its value above its interval, so that a bar too
   short to see still reads as a value and not as missing data. */
void fig_bars_script(FILE *fp, const fig_bars *b)
{
    fig_script_head(fp, b->name, b->width, b->height);
    fputs("set ylabel ", fp);
    fig_script_string(fp, b->ylabel);
    fprintf(fp, "\nset yrange [0:1.12]\nset ytics 0,0.2,1\nset boxwidth 0.6\n%s"
                "set autoscale xfix\nset offsets 0.25, 0.25, 0, 0\n"
                "plot '%s.dat' skip 1 using 0:2:xtic(1) with boxes lc rgb '#6b8fc7' "
                "notitle, \\\n     '' skip 1 using 0:2:3:4 with yerrorbars lc rgb '#222222' "
                "pt 0 notitle, \\\n     '' skip 1 using 0:($4 > $2 ? $4 : $2):"
                "(sprintf('%%.3f', $2)) with labels offset 0,0.7 notitle\n",
            b->rotate ? "set xtics rotate by -30\n" : "", b->name);
}

double fig_tick_step(double span, int intervals)
{
    if (!(span > 0) || intervals < 1)
        return 1;
    double raw = span / intervals, p = pow(10, floor(log10(raw)));
    static const double nice[] = {1, 2, 2.5, 5, 10};
    for (size_t i = 0; i < sizeof nice / sizeof nice[0]; i++)
        if (nice[i] * p >= raw * (1 - 1e-9))
            return nice[i] * p;
    return 10 * p;
}

void fig_label_string(FILE *fp, const char *s, size_t max_chars)
{
    /* One walk: where the max_chars-th character starts is the cut, used
       once a character after it shows the string is longer. */
    const char *cut = s;
    size_t chars = 0;
    for (const char *p = s; *p; p++) {
        if (((unsigned char)*p & 0xC0) == 0x80)
            continue;
        if (++chars == max_chars) {
            cut = p;
        } else if (chars > max_chars) {
            data_chars(fp, s, cut);
            fputs("\xe2\x80\xa6", fp); /* an ellipsis */
            return;
        }
    }
    fig_data_string(fp, s);
}

void fig_panels_head(FILE *fp, const char *name, size_t panels, const char *xlabel,
                     double lo, double hi)
{
    size_t shown = panels ? panels : 1;
    fig_script_head(fp, name, 300 * (int)(shown < 4 ? shown : 4), 360);
    if (!(hi > lo))
        hi = lo + 1;
    double pad = 0.05 * (hi - lo);
    lo = lo < 0 ? lo - pad : 0;
    hi = hi > 0 ? hi + pad : 0;
    fprintf(fp, "set multiplot layout 1,%zu\nset xlabel ", shown);
    fig_script_string(fp, xlabel);
    fprintf(fp, "\nunset grid\nset grid xtics lc rgb '#dddddd'\n"
                "set xrange [%.6g:%.6g]\nset xtics %.6g\nset lmargin %d\nset ytics scale 0\n",
            lo, hi, fig_tick_step(hi - lo, 4), FIG_LABEL_CHARS + 2);
}

void fig_panel(FILE *fp, const char *name, const char *title, size_t index)
{
    fputs("set title ", fp);
    fig_script_string(fp, title);
    fprintf(fp, "\nplot '%s.dat' index %zu using 3:1:(0):3:($1-0.4):($1+0.4):"
                "ytic(2) with boxxyerror lc %zu notitle\n",
            name, index, index + 1);
}

void fig_bars_row(FILE *fp, const char *label, double value, double low, double high, long n)
{
    fprintf(fp, "%s\t%.6f\t%.6f\t%.6f", label, value, low, high);
    if (n >= 0)
        fprintf(fp, "\t%ld", n);
    putc('\n', fp);
}

typedef struct fixed_script {
    const char *name, *body;
    int width, height;
} fixed_script;

static int write_fixed(FILE *fp, const void *script, const void *unused)
{
    (void)unused;
    const fixed_script *fs = script;
    fig_script_head(fp, fs->name, fs->width, fs->height);
    fputs(fs->body, fp);
    return ferror(fp) ? -1 : 0;
}

/* Writes NAME.EXT with w. */
static int write_one(const figset *f, const char *name, const char *ext, fig_writer w,
                     const void *a, const void *b, tells_error *err)
{
    size_t len = strlen(f->dir) + strlen(name) + 8;
    char *path = malloc(len);
    if (!path)
        return tells_error_nomem(err, NULL, 0);
    snprintf(path, len, "%s/%s.%s", f->dir, name, ext);
    out_file o;
    int rc = out_open(&o, path, err);
    free(path);
    if (rc < 0)
        return -1;
    if (w(o.fp, a, b) < 0) {
        out_abort(&o);
        return tells_error_nomem(err, NULL, 0);
    }
    return out_commit(&o, err);
}

static void list_figure(figset *f, const char *name)
{
    if (f->n < FIGURES_MAX)
        f->names[f->n++] = name;
}

int figure_add_fixed(figset *f, const char *name, fig_writer data, int width, int height,
                     const char *body, const void *a, const void *b, tells_error *err)
{
    fixed_script fs = {name, body, width, height};
    if (write_one(f, name, "dat", data, a, b, err) < 0 ||
        write_one(f, name, "gp", write_fixed, &fs, NULL, err) < 0)
        return -1;
    list_figure(f, name);
    return 0;
}

int figure_add(figset *f, const char *name, fig_writer data, fig_writer script,
               const void *a, const void *b, tells_error *err)
{
    if (write_one(f, name, "dat", data, a, b, err) < 0 ||
        write_one(f, name, "gp", script, a, b, err) < 0)
        return -1;
    list_figure(f, name);
    return 0;
}

static int write_bars(FILE *fp, const void *b, const void *unused)
{
    (void)unused;
    fig_bars_script(fp, b);
    return ferror(fp) ? -1 : 0;
}

int figure_add_bars(figset *f, const fig_bars *b, fig_writer data, const void *x,
                    const void *y, tells_error *err)
{
    if (write_one(f, b->name, "dat", data, x, y, err) < 0 ||
        write_one(f, b->name, "gp", write_bars, b, NULL, err) < 0)
        return -1;
    list_figure(f, b->name);
    return 0;
}

/* The last non-empty line of the log, which says what went wrong. */
static void last_line(const char *log, char *last, size_t size)
{
    line_reader lr;
    tells_error ignored;
    last[0] = '\0';
    if (line_reader_open(&lr, log, 0, &ignored) < 0)
        return;
    char *line;
    size_t len;
    while (line_reader_next(&lr, &line, &len, &ignored) == 1)
        if (len)
            snprintf(last, size, "%s", line);
    line_reader_close(&lr);
}

int figures_draw(const char *gnuplot, const figset *f, tells_error *err)
{
    if (f->n == 0)
        return 0;
    char **argv = array_new(f->n + 4, sizeof *argv);
    char (*script)[80] = malloc(f->n * sizeof *script);
    char *log = malloc(strlen(f->dir) + 16);
    if (!argv || !script || !log) {
        free(argv);
        free(script);
        free(log);
        return tells_error_nomem(err, NULL, 0);
    }
    sprintf(log, "%s/gnuplot.log", f->dir);
    argv[0] = (char *)gnuplot;
    /* Its version, first in the log, for run.json (study/provenance.c). */
    argv[1] = "-e";
    argv[2] = "print sprintf('gnuplot %.1f.%s', GPVAL_VERSION, GPVAL_PATCHLEVEL)";
    for (size_t i = 0; i < f->n; i++) {
        snprintf(script[i], sizeof script[i], "%s.gp", f->names[i]);
        argv[i + 3] = script[i];
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    posix_spawn_file_actions_addchdir_np(&fa, f->dir);
    pid_t pid;
    int e = posix_spawnp(&pid, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int rc = 0;
    if (e != 0) {
        rc = tells_error_io(err, gnuplot, 0, "cannot run it to draw the figures: %s "
                            "(install gnuplot, Debian package gnuplot-nox, or give --no-figures)",
                            strerror(e));
    } else {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            char last[512];
            last_line(log, last, sizeof last);
            rc = tells_error_set(err, log, 0, "gnuplot failed drawing the figures%s%s",
                                 last[0] ? ": " : "", last);
            tells_error_tag(err, TELLS_E_LOG, NULL);
        }
    }
    free(script);
    free(argv);
    free(log);
    return rc;
}
