/* What the corpus generators (tells-synth, tells-synth-ade) share: a
   random stream per generated item, JSON string output and the command
   line's numbers. Program-side code, like src/cli.c: it may print and
   exit. Files are written with the library's base layer (out_write). */
#ifndef TELLS_SYNTH_H
#define TELLS_SYNTH_H

#include <stdint.h>
#include <stdio.h>

#include "base/outfile.h"

/* splitmix64, seeded per (seed, item, stream), so that every item is
   generated independently of all the others and an option that changes
   one item leaves the rest as they were. */
typedef struct synth_rng { uint64_t s; } synth_rng;

void synth_rng_init(synth_rng *r, uint64_t seed, uint64_t item, uint64_t stream);
uint64_t synth_rng_next(synth_rng *r);
/* Uniform in [0, n) without modulo bias. */
uint32_t synth_below(synth_rng *r, uint32_t n);

/* JSON string contents: only '"' and '\\' need escaping, since the
   generators write printable ASCII only. */
void synth_put_json(FILE *fp, const char *s);

/* A decimal number in [lo, hi], or a usage error naming opt. */
uint64_t synth_parse_num(const char *opt, const char *s, uint64_t lo, uint64_t hi);

/* --version: "PROG (tells) VERSION". */
void synth_version(void);
/* The checks after the options: no operand (argv[optind] would be one),
   an output folder given and not empty. */
void synth_check_args(int argc, int optind, const char *outdir);

/* mkdir -p; exits with a message on failure. */
void synth_make_dir(const char *dir);

/* Writes DIR/NAME atomically through write (out_write); exits with a
   message on failure. */
void synth_write_file(const char *dir, const char *name, out_writer write, void *ctx);

#endif
