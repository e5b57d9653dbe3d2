/* e^x and log x over arrays of floats, four or eight at a time with
   glibc's vector math library (libmvec) where configure found it, so that
   the solver's softmax costs less than its GEMMs. Every element goes
   through the same routine whatever its position or the array's length
   (the tail is padded), so results do not depend on how rows are cut into
   blocks or threads. */
#ifndef TELLS_VMATH_H
#define TELLS_VMATH_H

#include <stddef.h>

/* x[i] = e^x[i], i < n. */
void vmath_exp(float *x, size_t n);
/* x[i] = log x[i], i < n. */
void vmath_log(float *x, size_t n);

#endif
