/* The inside of analysis/templates, shared by its pieces and by nothing
   else (other modules see templates.h):
     templates.c         test types and the placeholders' grammar
     templates-load.c    template tables: columns, rows and their checks
     templates-bases.c   the base template of each template
     templates-fill.c    fill-in lists and generators
     templates-expand.c  sampling, the count of the cases, expansion
   Names with external linkage start with tpl_. */
#ifndef TELLS_TEMPLATES_IMPL_H
#define TELLS_TEMPLATES_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/templates.h"

/* ---- placeholders (templates.c) ---- */

/* Scans a placeholder at s: sets *name, *len and *article and returns
   the length of the whole "{...}", or 0 when s does not start one. */
size_t tpl_placeholder_at(const char *s, const char **name, size_t *len, bool *article);
/* Adds the placeholders of premise (may be NULL), then of text, to t's
   slots, each once; -1 when out of memory. */
int tpl_add_slots(template_row *t, const char *premise, const char *text);

/* ---- fill-ins (templates-fill.c) ---- */

/* The list that fills slot of a template of capability cap, or NULL;
   *col gets 1 when the slot is a pair's second name. */
const fill_list *tpl_find_fill(const fill_set *f, const char *cap, const char *slot,
                               size_t *col);

#endif
