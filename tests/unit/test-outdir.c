/* The files of a run (base/ioplan.h): the same file by any name, new
   files, folders holding inputs, the second guard of the atomic outputs;
   and output folders (base/outdir.h): made, replaced only when a run
   made them, removed by their manifest, checked again at the swap. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "base/ioplan.h"
#include "base/lineio.h"
#include "base/outdir.h"
#include "base/outfile.h"

static char dir[] = "/tmp/tells-unit-outdir.XXXXXX";

static char *at(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void put(const char *name, const char *text)
{
    FILE *fp = fopen(at(name), "w");
    CHECK(fp && fputs(text, fp) >= 0);
    if (fp)
        fclose(fp);
}

static char *get(const char *name)
{
    static char buf[256];
    FILE *fp = fopen(at(name), "r");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    buf[n] = '\0';
    if (fp)
        fclose(fp);
    return buf;
}

/* The message of checking one input and two outputs ("" when none). */
static const char *verdict(const char *in, const char *out1, const char *out2)
{
    static tells_error err;
    io_plan p;
    io_plan_init(&p);
    io_input(&p, "FILE", in);
    io_output(&p, "--output", out1);
    io_output(&p, "--other", out2);
    tells_error_clear(&err);
    int rc = io_plan_check(&p, &err);
    io_plan_free(&p);
    CHECK((rc == 0) == (err.kind == TELLS_ERR_NONE));
    CHECK(rc == 0 || err.kind == TELLS_ERR_USAGE);
    return err.msg;
}

static void plans(void)
{
    put("in", "x\n");
    CHECK(mkdir(at("sub"), 0777) == 0);
    CHECK(symlink("in", at("link")) == 0);
    CHECK(link(at("in"), at("hard")) == 0);
    CHECK(symlink("sub/later", at("dangling")) == 0);
    char buf[1024];

    CHECK_STR(verdict(at("in"), at("out"), NULL), "");
    snprintf(buf, sizeof buf, "--output names an input (FILE): %s", at("in"));
    CHECK_STR(verdict(at("in"), at("in"), NULL), buf);
    CHECK_STR(verdict(at("in"), at("link"), NULL), buf);
    CHECK_STR(verdict(at("in"), at("hard"), NULL), buf);
    CHECK_STR(verdict(at("in"), at("sub/../in"), NULL), buf);
    snprintf(buf, sizeof buf, "--other names an input (FILE): %s", at("in"));
    CHECK_STR(verdict(at("in"), "-", at("./in")), buf);
    /* New files: the same name in the same folder, links followed. */
    snprintf(buf, sizeof buf, "--output and --other name the same file: %s",
             at("sub/../new"));
    CHECK_STR(verdict(at("in"), at("new"), at("sub/../new")), buf);
    snprintf(buf, sizeof buf, "--output and --other name the same file: %s",
             at("sub/later"));
    CHECK_STR(verdict(at("in"), at("dangling"), at("sub/later")), buf);
    CHECK_STR(verdict(at("in"), at("new"), at("sub/new")), "");
    /* Not regular files, folders that are not there, standard output
       twice: not compared. */
    CHECK_STR(verdict("/dev/null", "/dev/null", "/dev/null"), "");
    CHECK_STR(verdict(at("in"), at("nowhere/x"), at("nowhere/x")), "");
    CHECK_STR(verdict(at("in"), "-", "-"), "");
    CHECK_STR(verdict(NULL, NULL, NULL), "");

    /* An output folder holding an input, at any depth. */
    put("sub/deep", "y\n");
    io_plan p;
    tells_error err;
    io_plan_init(&p);
    io_input(&p, "--batch", at("sub/../sub/deep"));
    io_output_dir(&p, "--output", at("sub/"));
    CHECK(io_plan_check(&p, &err) == -1);
    snprintf(buf, sizeof buf, "--output names a folder holding an input (--batch): %s",
             at("sub/../sub/deep"));
    CHECK_STR(err.msg, buf);
    io_plan_free(&p);
    io_plan_init(&p);
    io_input(&p, "FILE", at("in"));
    io_output_dir(&p, "--output", at("sub"));
    CHECK(io_plan_check(&p, &err) == 0);
    io_plan_free(&p);
    /* An id file's checksum, and an id file on standard output. */
    io_plan_init(&p);
    io_output_idfile(&p, "--easy", at("e"));
    io_output(&p, "--scores", at("e.sha256"));
    CHECK(io_plan_check(&p, &err) == -1);
    snprintf(buf, sizeof buf, "the checksum of --easy and --scores name the same file: %s",
             at("e.sha256"));
    CHECK_STR(err.msg, buf);
    io_plan_free(&p);
    io_plan_init(&p);
    io_output_idfile(&p, "--easy", "-");
    CHECK(io_plan_check(&p, &err) == -1);
    CHECK_STR(err.msg, "--easy needs a file (it writes a checksum file beside it)");
    io_plan_free(&p);

    /* The second guard: a file read is not replaced; one written is. */
    line_reader r;
    CHECK(line_reader_open(&r, at("in"), 0, &err) == 0);
    line_reader_close(&r);
    CHECK(io_is_input(at("link")));
    out_file o;
    CHECK(out_open(&o, at("hard"), &err) == -1);
    snprintf(buf, sizeof buf, "%s", at("hard"));
    CHECK_STR(err.file, buf);
    CHECK_STR(err.msg, "is an input of this run: not replaced");
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK(out_open(&o, at("written"), &err) == 0 && fputs("w\n", o.fp) >= 0 &&
          out_commit(&o, &err) == 0);
    CHECK(line_reader_open(&r, at("written"), 0, &err) == 0);
    line_reader_close(&r);
    CHECK(!io_is_input(at("written")));
    CHECK(out_open(&o, at("written"), &err) == 0 && out_commit(&o, &err) == 0);
    CHECK_STR(get("in"), "x\n");
    unlink(at("written"));
    unlink(at("sub/deep"));
    unlink(at("dangling"));
    unlink(at("hard"));
    unlink(at("link"));
    unlink(at("in"));
    rmdir(at("sub"));
}

/* A run into dir writing the files named (a '/' makes a folder). */
static int make_run(const char *path, const char *const *files, size_t n, tells_error *err)
{
    out_dir d;
    if (out_dir_open(&d, path, ".mark", err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", d.tmp, files[i]);
        size_t len = strlen(p);
        if (p[len - 1] == '/') {
            CHECK(mkdir(p, 0777) == 0);
        } else {
            FILE *fp = fopen(p, "w");
            CHECK(fp != NULL);
            if (fp) {
                fprintf(fp, "%s\n", files[i]);
                fclose(fp);
            }
        }
    }
    int rc = out_dir_commit(&d, err);
    CHECK(rc < 0 || d.kept == NULL);
    out_dir_close(&d);
    return rc;
}

static void folders(void)
{
    tells_error err;
    const char *first[] = {"a.tsv", "figs/", "figs/x.svg", "old.tsv"};
    const char *second[] = {"a.tsv", "figs/", "figs/y.svg"};
    char buf[1024];
    /* A new folder, with its manifest and the mode of a plain mkdir. */
    CHECK(make_run(at("out"), first, 4, &err) == 0);
    CHECK_STR(get("out/.mark"),
              "# tells: every file and folder a run wrote here (f file, d folder); the run\n"
              "# replaces this folder only while it holds nothing else\n"
              "d figs\nf a.tsv\nf figs/x.svg\nf old.tsv\n");
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    CHECK(stat(at("out"), &st) == 0 && (st.st_mode & 0777) == (0777 & ~mask));
    /* Replaced by a run that writes other files: the old ones go. */
    CHECK(make_run(at("out/"), second, 3, &err) == 0);
    CHECK(access(at("out/old.tsv"), F_OK) != 0 && access(at("out/figs/x.svg"), F_OK) != 0);
    CHECK_STR(get("out/figs/y.svg"), "figs/y.svg\n");
    /* A file the run did not write: refused, before and at the swap. */
    put("out/notes", "mine\n");
    CHECK(make_run(at("out"), first, 4, &err) == -1);
    snprintf(buf, sizeof buf, "%s", at("out"));
    CHECK_STR(err.file, buf);
    CHECK_STR(err.msg, "cannot replace it: it holds notes, which tells did not write there");
    CHECK_STR(get("out/notes"), "mine\n");
    unlink(at("out/notes"));
    out_dir d;
    CHECK(out_dir_open(&d, at("out"), ".mark", &err) == 0);
    put("out/figs/late", "mine\n");
    CHECK(out_dir_commit(&d, &err) == -1);
    CHECK_STR(err.msg, "cannot replace it: it holds figs/late, which tells did not write "
                       "there");
    out_dir_close(&d);
    CHECK_STR(get("out/figs/late"), "mine\n");
    CHECK_STR(get("out/a.tsv"), "a.tsv\n");
    unlink(at("out/figs/late"));
    /* A manifest naming files outside the folder is none: nothing
       outside it is ever removed. */
    put("precious", "mine\n");
    const char *outside[] = {"f ../precious\n", "f figs/../../precious\n", "f /precious\n",
                             "f ./a.tsv\n", "d figs//\n"};
    for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) {
        char mark[1024];
        snprintf(mark, sizeof mark, "%s%s", get("out/.mark"), outside[i]);
        put("out/.mark", mark);
        CHECK(make_run(at("out"), first, 4, &err) == -1);
        CHECK_STR(err.msg, "cannot replace it: its .mark is not a list of files tells "
                           "wrote there");
        CHECK_STR(get("precious"), "mine\n");
        mark[strlen(mark) - strlen(outside[i])] = '\0';
        put("out/.mark", mark);
    }
    /* A damaged manifest is none. */
    put("out/.mark", "# tells: every file\n");
    CHECK(make_run(at("out"), first, 4, &err) == -1);
    CHECK_STR(err.msg, "cannot replace it: its .mark is not a list of files tells wrote "
                       "there");
    /* No manifest at all. */
    unlink(at("out/.mark"));
    CHECK(make_run(at("out"), first, 4, &err) == -1);
    CHECK_STR(err.msg, "cannot replace it: it is not empty and has no .mark, so tells did "
                       "not make it");
    /* Something else named as the manifest: a file of the user's, a
       folder, a link. */
    CHECK(mkdir(at("own"), 0777) == 0);
    put("own/.mark", "my notes\n");
    CHECK(make_run(at("own"), first, 1, &err) == -1);
    CHECK_STR(err.msg, "cannot replace it: its .mark is not a list of files tells wrote "
                       "there");
    CHECK_STR(get("own/.mark"), "my notes\n");
    unlink(at("own/.mark"));
    CHECK(mkdir(at("own/.mark"), 0777) == 0);
    CHECK(make_run(at("own"), first, 1, &err) == -1);
    CHECK_STR(err.msg, "cannot replace it: its .mark is not a list of files tells wrote "
                       "there");
    rmdir(at("own/.mark"));
    CHECK(symlink("../out/.mark", at("own/.mark")) == 0);
    CHECK(make_run(at("own"), first, 1, &err) == -1);
    unlink(at("own/.mark"));
    rmdir(at("own"));
    /* Not a folder; an empty folder; a link to a folder (the link stays). */
    put("file", "f\n");
    CHECK(make_run(at("file"), first, 4, &err) == -1);
    CHECK_STR(err.msg, "cannot replace it: not a folder");
    CHECK(mkdir(at("empty"), 0777) == 0);
    CHECK(make_run(at("empty"), first, 1, &err) == 0);
    CHECK(symlink("empty", at("to-empty")) == 0);
    CHECK(make_run(at("to-empty/"), second, 1, &err) == 0);
    CHECK(lstat(at("to-empty"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_STR(get("empty/a.tsv"), "a.tsv\n");
    /* Nothing left beside them. */
    const char *gone[] = {"out/a.tsv", "out/old.tsv", "out/figs/x.svg", "out/figs/y.svg",
                          "out/.mark", "empty/a.tsv", "empty/.mark", "file", "to-empty",
                          "precious"};
    for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
        unlink(at(gone[i]));
    rmdir(at("out/figs"));
    rmdir(at("out"));
    rmdir(at("empty"));
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    plans();
    folders();
    CHECK(rmdir(dir) == 0);  /* nothing left behind */
    CHECK_DONE();
}
