/* The features of a premise-aware linear model: a rough version of
   Bowman et al. (2015)'s lexicalized classifier, for fastText (a linear
   softmax over a bag of features) to read as words.

   From the prepared tokens (space-separated) of premise P and hypothesis
   H, in this order:
     p:W      every token of P, and h:W every token of H (side-marked);
     new:W    every token of H that P does not have;
     x:A|B    each distinct token A of P that H lacks with each distinct
              token B of H that P lacks (cross-unigrams of the words that
              differ), in text order, at most PAIR_MAX_CROSS;
     ov:K     K = floor(10 x the share of H's tokens that P has), 0..10;
     allov    when P has every token of H;
     ld:D     |P| - |H| in tokens, clipped to -5 .. 20.
   Word n-grams over this sequence mean nothing: train with word_ngrams 1
   (fasttext_train_rows does for INPUT_PAIR_FEATURES). */
#ifndef TELLS_MODEL_PAIRFEAT_H
#define TELLS_MODEL_PAIRFEAT_H

#include <stddef.h>

enum { PAIR_MAX_CROSS = 128 };

/* The features of (premise, hypothesis) into *buf (grown as needed,
   *cap its size); -1 when out of memory. */
int pair_features(const char *premise, const char *hypothesis, char **buf, size_t *cap);

#endif
