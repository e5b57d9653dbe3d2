/* UTF-8 validation against RFC 3629's edge cases. */
#include <config.h>

#include "check.h"
#include "base/utf8.h"

static size_t off(const char *s) { return utf8_invalid_offset(s, strlen(s)); }

int main(void)
{
    const size_t ok = (size_t)-1;
    CHECK(off("plain ascii text, long enough to use the fast path") == ok);
    CHECK(off("caf\xC3\xA9") == ok);                 /* é */
    CHECK(off("\xE2\x80\x93") == ok);                /* – */
    CHECK(off("\xF0\x9F\x98\x80") == ok);            /* emoji */
    CHECK(off("\xF4\x8F\xBF\xBF") == ok);            /* U+10FFFF */
    CHECK(off("abc\xC0\x80") == 3);                  /* overlong NUL */
    CHECK(off("\xE0\x80\xAF") == 0);                 /* overlong */
    CHECK(off("ab\xED\xA0\x80") == 2);               /* surrogate */
    CHECK(off("\xF4\x90\x80\x80") == 0);             /* past U+10FFFF */
    CHECK(off("\xF5\x80\x80\x80") == 0);
    CHECK(off("abcdefgh\x80") == 8);                 /* lone continuation */
    CHECK(off("x\xC3") == 1);                        /* truncated */
    CHECK(off("\xE2\x80") == 0);
    CHECK(off("\xE2\x28\xA1") == 0);                 /* bad continuation */
    CHECK(off("\xFF") == 0);
    /* The cases, and the edges around them. */
    CHECK(off("a\xC0\xAF") == 1);                   /* overlong '/' */
    CHECK(off("\xC1\xBF") == 0);                    /* overlong, two bytes */
    CHECK(off("\xF0\x8F\xBF\xBF") == 0);            /* overlong, four bytes */
    CHECK(off("\xED\xBF\xBF") == 0);                /* last surrogate */
    CHECK(off("\xED\x9F\xBF") == ok);               /* U+D7FF */
    CHECK(off("\xEE\x80\x80") == ok);               /* U+E000 */
    CHECK(off("\xEF\xBB\xBF" "bom") == ok);          /* a mark is valid text */
    /* text_invalid_offset also refuses NUL, also past the fast path. */
    CHECK(text_invalid_offset("abc", 3) == ok);
    CHECK(text_invalid_offset("abcdefghij\0k", 12) == 10);
    CHECK(utf8_invalid_offset("abcdefghij\0k", 12) == ok);
    CHECK(text_invalid_offset("abcdefgh\xE0\x80\xAF", 11) == 8);
    CHECK_DONE();
}
