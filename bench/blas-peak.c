/* OpenBLAS's own single-precision GEMM rate on this machine: the peak
   bench/aflite measures tells-aflite's rate against. Usage:
   blas-peak THREADS [N] prints GFLOP/s of N x N x N products [2000];
   blas-peak --core prints the kernels OpenBLAS chose. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--core") == 0) {
        printf("%s\n", openblas_get_corename());
        return 0;
    }
    int threads = argc > 1 ? atoi(argv[1]) : 1, n = argc > 2 ? atoi(argv[2]) : 2000;
    openblas_set_num_threads(threads);
    float *a = malloc(sizeof *a * (size_t)n * n), *b = malloc(sizeof *b * (size_t)n * n),
          *c = malloc(sizeof *c * (size_t)n * n);
    if (!a || !b || !c)
        return 1;
    for (size_t i = 0; i < (size_t)n * n; i++) {
        a[i] = (float)(i % 7) * 0.1f;
        b[i] = (float)(i % 5) * 0.1f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, n, b, n, 0, c, n);
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t = now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, n, b, n, 0, c, n);
        double rate = 2.0 * n * n * (double)n / (now() - t) * 1e-9;
        best = rate > best ? rate : best;
    }
    printf("%.1f\n", best);
    free(a);
    free(b);
    free(c);
    return 0;
}
