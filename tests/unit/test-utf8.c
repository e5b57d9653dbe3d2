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
    CHECK_DONE();
}
