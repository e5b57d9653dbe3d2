/* The logistic-regression ensemble against scikit-learn's
   LogisticRegression() (tests/data/logreg-ref.tsv, written by
   tests/ref/aflite_ref.py fixtures), the same bits for any number of
   threads, warm starts, held-out counts; and the .npy reader and writer. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model/logreg.h"
#include "model/vmath.h"
#include "base/npy.h"
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>


/* The reference coefficients of one case: outputs x 6 numbers. */
static int read_ref(const char *want_case, double *coef)
{
    FILE *fp = fopen(data_path("logreg-ref.tsv"), "r");
    CHECK(fp != NULL);
    if (!fp)
        return 0;
    char line[4096], name[64];
    int outputs = 0, o;
    if (!fgets(line, sizeof line, fp))   /* header */
        return 0;
    while (fgets(line, sizeof line, fp)) {
        int off;
        if (sscanf(line, "%63s %d%n", name, &o, &off) != 2 || strcmp(name, want_case) != 0)
            continue;
        char *p = line + off;
        for (int k = 0; k < 6; k++)
            coef[o * 6 + k] = strtod(p, &p);
        outputs++;
    }
    fclose(fp);
    return outputs;
}

/* scikit-learn's objective, in double: the log loss of rows 0-149 plus
   half the squared weights (not the intercepts), C = 1. */
static double objective(const double *coef, size_t outs, const float *x, const int *y)
{
    double f = 0;
    for (int i = 0; i < 150; i++) {
        double z[3];
        for (size_t o = 0; o < outs; o++) {
            z[o] = coef[o * 6 + 5];
            for (int k = 0; k < 5; k++)
                z[o] += coef[o * 6 + k] * x[i * 5 + k];
        }
        if (outs == 1) {
            double v = z[0];
            f += (v > 0 ? v + log1p(exp(-v)) : log1p(exp(v))) - (y[i] ? v : 0);
        } else {
            double mx = fmax(z[0], fmax(z[1], z[2]));
            f += mx + log(exp(z[0] - mx) + exp(z[1] - mx) + exp(z[2] - mx)) - z[y[i]];
        }
    }
    for (size_t o = 0; o < outs; o++)
        for (int k = 0; k < 5; k++)
            f += 0.5 * coef[o * 6 + k] * coef[o * 6 + k];
    return f;
}

static double max_abs(const double *v, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fabs(v[i]) > m ? fabs(v[i]) : m;
    return m;
}

/* The Newton decrement g^T H^-1 g / 2 of scikit-learn's objective (three
   classes, rows 0-149 of x, 5 features) at coef, in double: how far the
   weights are from the optimum whatever the solver did. */
static double newton_decrement(const double *coef, const double *x, const int *y)
{
    enum { K = 3, D1 = 6, P = K * D1 };
    double g[P] = {0}, h[P * P] = {0};
    for (int i = 0; i < 150; i++) {
        double xi[D1], z[K], p[K], mx = -INFINITY, sum = 0;
        for (int k = 0; k < 5; k++)
            xi[k] = x[i * 5 + k];
        xi[5] = 1;
        for (int o = 0; o < K; o++) {
            z[o] = 0;
            for (int k = 0; k < D1; k++)
                z[o] += coef[o * D1 + k] * xi[k];
            mx = fmax(mx, z[o]);
        }
        for (int o = 0; o < K; o++)
            sum += p[o] = exp(z[o] - mx);
        for (int o = 0; o < K; o++)
            p[o] /= sum;
        for (int o = 0; o < K; o++)
            for (int k = 0; k < D1; k++) {
                g[o * D1 + k] += (p[o] - (y[i] == o)) * xi[k];
                for (int o2 = 0; o2 < K; o2++)
                    for (int k2 = 0; k2 < D1; k2++)
                        h[(o * D1 + k) * P + o2 * D1 + k2] +=
                            ((o == o2) * p[o] - p[o] * p[o2]) * xi[k] * xi[k2];
            }
    }
    for (int o = 0; o < K; o++)
        for (int k = 0; k < 5; k++) {
            g[o * D1 + k] += coef[o * D1 + k];
            h[(o * D1 + k) * P + o * D1 + k] += 1;
        }
    /* The intercepts' curvature is singular along (1, 1, 1): solve with
       a ridge far below the curvature there. */
    for (int k = 0; k < P; k++)
        h[k * P + k] += 1e-9;
    gsl_matrix_view hv = gsl_matrix_view_array(h, P, P);
    gsl_vector_view gv = gsl_vector_view_array(g, P);
    gsl_vector *u = gsl_vector_alloc(P);
    double dec = INFINITY;
    if (u && gsl_linalg_cholesky_decomp1(&hv.matrix) == 0 &&
        gsl_linalg_cholesky_solve(&hv.matrix, &gv.vector, u) == 0) {
        gsl_blas_ddot(&gv.vector, u, &dec);
        dec /= 2;
    }
    gsl_vector_free(u);
    return dec;
}

/* The vector e^x and log x: within a few float ulps of expf and logf, for
   every length (the tail is padded), the same bits for an element
   wherever it sits in the array. */
static void test_vmath(void)
{
    float x[37], e[37], l[37], one[1];
    for (size_t n = 0; n <= 37; n++) {
        for (size_t i = 0; i < n; i++)
            x[i] = -30.0f + 1.7f * (float)i + 0.013f * (float)n;
        memcpy(e, x, n * sizeof *x);
        vmath_exp(e, n);
        for (size_t i = 0; i < n; i++) {
            CHECK(fabs(e[i] - expf(x[i])) <= 4e-7 * expf(x[i]));
            one[0] = x[i];
            vmath_exp(one, 1);
            CHECK(one[0] == e[i]);
            l[i] = e[i];
        }
        vmath_log(l, n);
        for (size_t i = 0; i < n; i++)
            CHECK(fabs(l[i] - logf(e[i])) <= 4e-7 * fmax(1.0, fabs(logf(e[i]))));
    }
    float z[2] = {-INFINITY, 0};
    vmath_exp(z, 2);
    CHECK(z[0] == 0 && z[1] == 1);
}

int main(void)
{
    test_vmath();
    tells_error err;
    npy_matrix x;
    CHECK(npy_read(data_path("logreg-x.npy"), &x, &err) == 0);
    CHECK(x.rows == 200 && x.cols == 5);
    int y3[200], y2[200];
    FILE *fy = fopen(data_path("logreg-y.txt"), "r");
    CHECK(fy != NULL);
    for (int i = 0; fy && i < 200; i++) {
        CHECK(fscanf(fy, "%d", &y3[i]) == 1);
        y2[i] = y3[i] == 2;
    }
    if (fy)
        fclose(fy);

    /* Model 0 trains on rows 0-149 as the reference; model 1 on the
       others, so that one product serves two different training sets. */
    enum { M = 2 };
    unsigned char in_train[200 * M];
    for (int i = 0; i < 200; i++) {
        in_train[i * M + 0] = i < 150;
        in_train[i * M + 1] = i >= 150;
    }
    logreg_options o;
    logreg_options_default(&o);
    o.tol = 1e-10;
    struct { const char *name; int *y; size_t classes, outputs; } cases[] = {
        {"multinomial", y3, 3, 3}, {"binary", y2, 2, 1}};
    for (size_t c = 0; c < 2; c++) {
        double want[3 * 6], sk[3 * 6];
        char skname[64];
        snprintf(skname, sizeof skname, "%s-sklearn", cases[c].name);
        CHECK(read_ref(cases[c].name, want) == (int)cases[c].outputs);
        CHECK(read_ref(skname, sk) == (int)cases[c].outputs);
        logreg_data d = {x.data, 200, 5, 5, cases[c].y, cases[c].classes};
        logreg_stats st = {0};
        logreg_fit *f = logreg_train(&d, in_train, M, NULL, &o, &st, &err);
        CHECK(f != NULL);
        if (!f)
            continue;
        size_t outs;
        const double *got = logreg_coef(f, 0, &outs);
        CHECK(outs == cases[c].outputs);
        /* The optimum: scikit-learn's own fit stops a little short of it
           (its relative-decrease test), so the reference is the same
           objective minimised with Newton steps; our objective is at most
           scikit-learn's, and the weights are the optimum's to 1e-4 of the
           largest (float32 products on a feature of mean 40). */
        double fo = objective(got, outs, x.data, cases[c].y);
        double fsk = objective(sk, outs, x.data, cases[c].y);
        if (!(fo <= fsk))
            fprintf(stderr, "%s: objective %.12g, scikit-learn %.12g\n", cases[c].name, fo, fsk);
        CHECK(fo <= fsk);
        double scale = max_abs(want, outs * 6), worst = 0;
        for (size_t k = 0; k < outs * 6; k++)
            worst = fabs(got[k] - want[k]) > worst ? fabs(got[k] - want[k]) : worst;
        if (!(worst <= 1e-4 * scale))
            fprintf(stderr, "%s: largest difference %g of %g\n", cases[c].name, worst, scale);
        CHECK(worst <= 1e-4 * scale);
        CHECK(st.unconverged == 0);
        /* Every row gets the class scikit-learn's weights give it. */
        const double *skw = sk;
        size_t differ = 0;
        for (int i = 0; i < 200; i++) {
            int best_got = 0, best_want = 0;
            double zg[3], zw[3];
            for (size_t o2 = 0; o2 < outs; o2++) {
                zg[o2] = got[o2 * 6 + 5];
                zw[o2] = skw[o2 * 6 + 5];
                for (int k = 0; k < 5; k++) {
                    zg[o2] += got[o2 * 6 + k] * x.data[i * 5 + k];
                    zw[o2] += skw[o2 * 6 + k] * x.data[i * 5 + k];
                }
                if (outs > 1 && zg[o2] > zg[best_got])
                    best_got = (int)o2;
                if (outs > 1 && zw[o2] > zw[best_want])
                    best_want = (int)o2;
            }
            if (outs == 1) {
                best_got = zg[0] > 0;
                best_want = zw[0] > 0;
            }
            differ += best_got != best_want;
        }
        CHECK(differ == 0);
        /* Predictions of the held-out rows agree with the weights. */
        unsigned correct[200] = {0}, held[200] = {0};
        CHECK(logreg_held_out(f, &d, in_train, correct, held, NULL, &err) == 0);
        size_t disagree = 0;
        for (int i = 0; i < 200; i++) {
            CHECK(held[i] == 1);
            int model = i < 150 ? 1 : 0;
            int pred = logreg_predict(f, (size_t)model, x.data + i * 5);
            disagree += (unsigned)(pred == cases[c].y[i]) != correct[i];
        }
        CHECK(disagree == 0);
        /* Trained and counted at once: the same counts. */
        unsigned correct2[200], held2[200];
        logreg_fit *fh = logreg_train_held_out(&d, in_train, M, NULL, &o, correct2, held2,
                                               NULL, &err);
        CHECK(fh != NULL);
        CHECK(memcmp(correct, correct2, sizeof correct) == 0);
        CHECK(memcmp(held, held2, sizeof held) == 0);
        logreg_free(fh);

        /* Threads do not change a bit; a warm start reaches the same optimum
           in fewer iterations. */
        logreg_options o4 = o;
        o4.threads = 4;
        logreg_stats st4 = {0}, stw = {0};
        logreg_fit *f4 = logreg_train(&d, in_train, M, NULL, &o4, &st4, &err);
        logreg_fit *fw = logreg_train(&d, in_train, M, f, &o, &stw, &err);
        CHECK(f4 && fw);
        if (f4 && fw) {
            for (size_t j = 0; j < M; j++) {
                const double *a = logreg_coef(f, j, &outs), *b = logreg_coef(f4, j, &outs);
                CHECK(memcmp(a, b, outs * 6 * sizeof *a) == 0);
                const double *w = logreg_coef(fw, j, &outs);
                for (size_t k = 0; k < outs * 6; k++)
                    CHECK(fabs(w[k] - a[k]) <= 1e-4 * scale);
            }
            CHECK(stw.iterations < st.iterations);
        }
        logreg_free(f4);
        logreg_free(fw);
        logreg_free(f);

        /* Centred columns (as tells-aflite centres them) remove the
           ill-conditioning: the same weights to 1e-5 of the largest, and
           intercepts b + w . mean. */
        double mean[5] = {0};
        for (int i = 0; i < 200; i++)
            for (int k = 0; k < 5; k++)
                mean[k] += x.data[i * 5 + k] / 200.0;
        float xc[200 * 5];
        for (int i = 0; i < 200; i++)
            for (int k = 0; k < 5; k++)
                xc[i * 5 + k] = (float)(x.data[i * 5 + k] - mean[k]);
        logreg_data dc = {xc, 200, 5, 5, cases[c].y, cases[c].classes};
        logreg_fit *fc = logreg_train(&dc, in_train, M, NULL, &o, NULL, &err);
        CHECK(fc != NULL);
        if (fc) {
            const double *g = logreg_coef(fc, 0, &outs);
            double worst_c = 0;
            for (size_t o2 = 0; o2 < outs; o2++) {
                double b = want[o2 * 6 + 5];
                for (int k = 0; k < 5; k++) {
                    worst_c = fmax(worst_c, fabs(g[o2 * 6 + k] - want[o2 * 6 + k]));
                    b += want[o2 * 6 + k] * mean[k];
                }
                worst_c = fmax(worst_c, fabs(g[o2 * 6 + 5] - b));
            }
            if (!(worst_c <= 1e-5 * scale))
                fprintf(stderr, "%s centred: largest difference %g of %g\n", cases[c].name,
                        worst_c, scale);
            CHECK(worst_c <= 1e-5 * scale);
        }
        logreg_free(fc);
    }

    /* Four classes (the general warm Hessian): a warm start reaches the
       same weights in fewer iterations. */
    int y4[200];
    for (int i = 0; i < 200; i++)
        y4[i] = y3[i] == 2 && i % 2 ? 3 : y3[i];
    logreg_data d4 = {x.data, 200, 5, 5, y4, 4};
    logreg_stats sc = {0}, sw = {0};
    logreg_fit *cold = logreg_train(&d4, in_train, M, NULL, &o, &sc, &err);
    logreg_fit *hot = cold ? logreg_train(&d4, in_train, M, cold, &o, &sw, &err) : NULL;
    CHECK(cold && hot);
    if (cold && hot) {
        size_t outs;
        const double *a = logreg_coef(cold, 0, &outs), *b = logreg_coef(hot, 0, &outs);
        CHECK(outs == 4);
        double scale = max_abs(a, outs * 6), worst = 0;
        for (size_t k = 0; k < outs * 6; k++)
            worst = fmax(worst, fabs(a[k] - b[k]));
        CHECK(worst <= 1e-4 * scale);
        CHECK(sw.iterations < sc.iterations && sc.unconverged == 0 && sw.unconverged == 0);
    }
    logreg_free(cold);
    logreg_free(hot);

    /* Badly scaled, nearly collinear features (scales 1e4 and 1e-3, a
       column that is another plus 1e-3 of a third): the float inverse of
       the Hessian is then no preconditioner (not positive definite) and
       gets a diagonal shift. Cold and warm fits must still reach the
       optimum, by the Newton decrement computed here in double. */
    {
        float xs[200 * 5];
        double xd[200 * 5];
        for (int i = 0; i < 200; i++) {
            const float *r = x.data + i * 5;
            float v[5] = {r[0] * 1e4f, r[1] * 1e-3f, r[2], r[3], r[3] + 1e-3f * r[4]};
            for (int k = 0; k < 5; k++) {
                xs[i * 5 + k] = v[k];
                xd[i * 5 + k] = v[k];
            }
        }
        logreg_data ds = {xs, 200, 5, 5, y3, 3};
        logreg_options os;
        logreg_options_default(&os);
        logreg_stats s1 = {0}, s2 = {0};
        logreg_fit *c1 = logreg_train(&ds, in_train, M, NULL, &os, &s1, &err);
        logreg_fit *w1 = c1 ? logreg_train(&ds, in_train, M, c1, &os, &s2, &err) : NULL;
        CHECK(c1 && w1);
        if (c1 && w1) {
            size_t outs;
            double dc = newton_decrement(logreg_coef(c1, 0, &outs), xd, y3);
            double dw = newton_decrement(logreg_coef(w1, 0, &outs), xd, y3);
            if (!(dc <= 1e-4 && dw <= 1e-4))
                fprintf(stderr, "badly scaled: Newton decrement cold %g, warm %g\n", dc, dw);
            CHECK(dc <= 1e-4);
            CHECK(dw <= 1e-4);
        }
        logreg_free(c1);
        logreg_free(w1);
    }

    /* A training set of one class is refused. */
    int one[200] = {0};
    one[199] = 1;
    logreg_data d1 = {x.data, 200, 5, 5, one, 2};
    CHECK(logreg_train(&d1, in_train, M, NULL, &o, NULL, &err) == NULL);
    CHECK_STR(err.msg, "the training set of model 1 has examples of one class only");
    npy_free(&x);

    /* .npy: every layout NumPy writes reads as the same matrix. */
    const char *layouts[] = {"npy-f4.npy", "npy-f8-big.npy", "npy-fortran.npy", "npy-v2.npy"};
    for (size_t l = 0; l < 4; l++) {
        npy_matrix m;
        CHECK(npy_read(data_path(layouts[l]), &m, &err) == 0);
        CHECK(m.rows == 3 && m.cols == 4);
        for (size_t i = 0; m.data && i < 12; i++)
            CHECK(m.data[i] == (float)((double)i / 8 - 0.5));
        npy_free(&m);
    }
    npy_matrix v;
    CHECK(npy_read(data_path("npy-vector.npy"), &v, &err) == 0);
    CHECK(v.rows == 3 && v.cols == 1 && v.data && v.data[1] == (float)(4.0 / 8 - 0.5));
    npy_free(&v);

    /* What we write is what NumPy writes: the same bytes as npy-f4.npy. */
    float mat[12];
    for (int i = 0; i < 12; i++)
        mat[i] = (float)((double)i / 8 - 0.5);
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    CHECK(npy_write(mem, mat, 3, 4) == 0);
    fclose(mem);
    FILE *ref = fopen(data_path("npy-f4.npy"), "rb");
    char want[256];
    size_t n = ref ? fread(want, 1, sizeof want, ref) : 0;
    if (ref)
        fclose(ref);
    CHECK(n == size && memcmp(buf, want, n) == 0);
    free(buf);
    /* The same through the out_writer. */
    mem = open_memstream(&buf, &size);
    npy_matrix mm = {mat, 3, 4};
    CHECK(npy_write_matrix(mem, &mm, &err) == 0);
    fclose(mem);
    CHECK(n == size && memcmp(buf, want, n) == 0);
    free(buf);

    /* What cannot be read is an io error, what is no .npy a data error. */
    npy_matrix none;
    CHECK(npy_read(data_path("."), &none, &err) == -1 && err.kind == TELLS_ERR_IO);
    CHECK(strncmp(err.msg, "read error: ", 12) == 0 && none.data == NULL);
    CHECK(npy_read(data_path("logreg-y.txt"), &none, &err) == -1 && err.kind == TELLS_ERR_DATA);
    CHECK_STR(err.msg, "not a .npy file");

    /* A header that claims more than the file holds is refused before
       any memory is taken for it; rows x cols past SIZE_MAX likewise. */
    char tmp[] = "/tmp/tells-unit-npy.XXXXXX";
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    CHECK(f && npy_write_header(f, 1000000, 1000000) == 0);
    for (int i = 0; f && i < 100; i++)
        putc(0, f);
    if (f)
        fclose(f);
    CHECK(npy_read(tmp, &none, &err) == -1 && err.kind == TELLS_ERR_DATA && none.data == NULL);
    CHECK_STR(err.msg, "the header claims 4000000000000 bytes of data (a 1000000 x 1000000 "
                       "matrix), the file has 100");
    CHECK_STR(err.file, tmp);
    f = fopen(tmp, "wb");
    CHECK(f && npy_write_header(f, (size_t)1 << 62, 4) == 0);
    if (f)
        fclose(f);
    CHECK(npy_read(tmp, &none, &err) == -1);
    CHECK_STR(err.msg, "a 4611686018427387904 x 4 matrix is too large");
    /* A shape is digits: strtoull took a tab and a sign ("\t-5", 2^64 - 5
       rows) and "+5". */
    static const char *const shapes[] = {"(\t-5, 4)", "(+3, 4)"};
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        char h[128];
        int len = snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': False, "
                           "'shape': %s, }", shapes[k]);
        while (len < 117)
            h[len++] = ' ';
        h[len++] = '\n';   /* 10 + 118 = 128 bytes, as NumPy aligns them */
        f = fopen(tmp, "wb");
        CHECK(f && fwrite("\x93NUMPY\x01\x00\x76\x00", 1, 10, f) == 10 &&
              fwrite(h, 1, (size_t)len, f) == (size_t)len);
        if (f)
            fclose(f);
        CHECK(npy_read(tmp, &none, &err) == -1);
        CHECK_STR(err.msg, "malformed .npy header: bad 'shape'");
    }
    /* Exactly what it claims, and one byte more. */
    f = fopen(tmp, "wb");
    CHECK(f && npy_write(f, mat, 3, 4) == 0);
    if (f)
        fclose(f);
    CHECK(npy_read(tmp, &none, &err) == 0 && none.rows == 3 && none.cols == 4);
    npy_free(&none);
    f = fopen(tmp, "ab");
    CHECK(f && putc('x', f) == 'x');
    if (f)
        fclose(f);
    CHECK(npy_read(tmp, &none, &err) == -1);
    CHECK_STR(err.msg, "trailing data after the 3 x 4 matrix");
    unlink(tmp);

    float bad[4] = {0, 1, NAN, INFINITY};
    size_t r, c;
    CHECK(npy_find_nonfinite(bad, 2, 2, &r, &c) && r == 1 && c == 0);
    CHECK(!npy_find_nonfinite(mat, 3, 4, &r, &c));
    CHECK_DONE();
}
