#include <config.h>
#include "base/utf8.h"

#include <stdint.h>
#include <string.h>

static size_t invalid_offset(const char *str, size_t len, int nul_ok)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        /* Skip ASCII eight bytes at a time: the common case. */
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            /* A high bit set, or (when refused) a zero byte. */
            if ((w & 0x8080808080808080ULL) ||
                (!nul_ok && ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL)))
                break;
            i += 8;
        }
        if (i >= len)
            break;
        unsigned c = s[i];
        if (c == 0 && !nul_ok)
            return i;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned lo = 0x80, hi = 0xBF;  /* range of the second byte */
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else
            return i;
        if (i + need >= len)  /* truncated sequence */
            return i;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (size_t k = 2; k <= need; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += need + 1;
    }
    return (size_t)-1;
}

size_t utf8_invalid_offset(const char *s, size_t len)
{
    return invalid_offset(s, len, 1);
}

size_t text_invalid_offset(const char *s, size_t len)
{
    return invalid_offset(s, len, 0);
}
