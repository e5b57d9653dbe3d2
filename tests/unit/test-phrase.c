/* Phrase merging: token boundaries, longest match first. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "text/phrase.h"

static tok_options opt = {TOKENIZER_DEFAULT, false, false};

static void add(phrase_set *ps, const char *phrase)
{
    token_list t;
    token_list_init(&t);
    CHECK(tokenize(&opt, phrase, strlen(phrase), &t) == 0);
    CHECK(phrase_set_add(ps, &t) == 0);
    token_list_free(&t);
}

static const char *merged(const phrase_set *ps, const char *text)
{
    static char buf[1024];
    token_list in, out;
    token_list_init(&in);
    token_list_init(&out);
    tokenize(&opt, text, strlen(text), &in);
    CHECK(phrase_set_merge(ps, &in, &out) == 0);
    buf[0] = '\0';
    for (size_t i = 0; i < out.n; i++) {
        if (i)
            strcat(buf, " ");
        strcat(buf, token_at(&out, i));
    }
    token_list_free(&in);
    token_list_free(&out);
    return buf;
}

int main(void)
{
    phrase_set *ps = phrase_set_new();
    add(ps, "Brain Injury");
    add(ps, "traumatic brain injury");
    add(ps, "heart failure");
    add(ps, "congestive heart failure with reduced ejection fraction");
    add(ps, "aspirin");             /* one token: nothing to merge */
    add(ps, "brain injury");        /* the same phrase again */
    CHECK(phrase_set_size(ps) == 4);

    CHECK_STR(merged(ps, "A traumatic brain injury, not a brain injury."),
              "a traumatic_brain_injury not a brain_injury");
    /* A longer phrase that does not complete falls back to the longest
       one that does. */
    CHECK_STR(merged(ps, "congestive heart failure with fever"),
              "congestive heart_failure with fever");
    CHECK_STR(merged(ps, "brain heart failure brain"), "brain heart_failure brain");
    CHECK_STR(merged(ps, "injury brain"), "injury brain");
    CHECK_STR(merged(ps, ""), "");
    phrase_set_free(ps);
    CHECK_DONE();
}
