/* The fastText shim: a real model loads and gives the vectors fastText
   prints; damaged files are refused with a message, never a crash. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "model/ftshim.h"

static char *srcdir_path(const char *rel)
{
    static char buf[4096];
    const char *top = getenv("top_srcdir");
    snprintf(buf, sizeof buf, "%s/%s", top ? top : ".", rel);
    return buf;
}

/* Copies the first n bytes of src to dst. */
static void truncated_copy(const char *src, const char *dst, long n)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    CHECK(in && out);
    for (long i = 0; i < n; i++) {
        int c = getc(in);
        if (c == EOF)
            break;
        putc(c, out);
    }
    fclose(in);
    fclose(out);
}

int main(void)
{
    char err[512];
    char bin[4096];
    snprintf(bin, sizeof bin, "%s", srcdir_path("corpora/vectors/toy-model.bin"));
    ft_model *m = ft_load(bin, err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        CHECK_DONE();
    }
    CHECK(ft_dimension(m) == 5);
    /* The first row of toy-model.vec, as print-word-vectors wrote it. */
    float v[5];
    const float the[5] = {0.068811f, 0.26619f, 0.026622f, -0.2588f, -0.00044401f};
    CHECK(ft_word_vector(m, "the", v) == 0);
    for (int i = 0; i < 5; i++)
        CHECK_NEAR(v[i], the[i], 1e-5);
    /* An unknown word still gets a vector (subwords, or zeros). */
    CHECK(ft_word_vector(m, "zzzunknownzzz", v) == 0);
    ft_free(m);

    char tmp[] = "/tmp/tells-ftshim.XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    close(fd);
    truncated_copy(bin, tmp, 2000);
    CHECK(ft_load(tmp, err, sizeof err) == NULL);
    CHECK_STR(err, "truncated fastText model");
    truncated_copy(bin, tmp, 6);
    CHECK(ft_load(tmp, err, sizeof err) == NULL);
    CHECK_STR(err, "not a fastText .bin model");
    truncated_copy(srcdir_path("corpora/vectors/toy-model.vec"), tmp, 100000);
    CHECK(ft_load(tmp, err, sizeof err) == NULL);
    CHECK_STR(err, "not a fastText .bin model");
    unlink(tmp);
    CHECK(ft_load("/nonexistent/model.bin", err, sizeof err) == NULL);
    CHECK_STR(err, "cannot open: No such file or directory");
    CHECK_DONE();
}
