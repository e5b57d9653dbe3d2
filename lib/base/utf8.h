/* UTF-8 validation. */
#ifndef TELLS_UTF8_H
#define TELLS_UTF8_H

#include <stddef.h>

/* Byte offset of the first byte that is not part of well-formed UTF-8
   (RFC 3629: no overlongs, surrogates or code points past U+10FFFF),
   or (size_t)-1 when s is valid. */
size_t utf8_invalid_offset(const char *s, size_t len);
/* The same, also refusing NUL bytes: no tells text format may hold one. */
size_t text_invalid_offset(const char *s, size_t len);

#endif
