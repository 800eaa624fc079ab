/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the emulated subject calls out of line: every symbol its module
 * takes from the kernel must be listed in EMU_CALLEES with how the
 * emulated machine treats it, so that no call that orders memory on
 * hardware goes by unseen (calibrate/kw_emu_subject.h).
 */
#ifndef KWM_EMU_CALLEES_H
#define KWM_EMU_CALLEES_H

#define EMU_CALLEES	"calibrate/kw_emu_callees.tsv"

/*
 * The symbols of @nm_output ("nm -u" of a module: "U name" lines) that
 * @table (EMU_CALLEES' text) does not list, comma-separated, or NULL if
 * every one is; *@bad_line gets the table's first malformed line, or 0.
 */
char *emu_callees_unlisted(const char *table, const char *nm_output, int *bad_line);

/*
 * Check the emulated modules under @root (each folder's EMULATED_MODULE
 * object; a build without them has none) with @nm against @repo's
 * EMU_CALLEES.  NULL if all are listed, else why not (free it), naming
 * the fix.
 */
char *emu_callees_check(const char *repo, const char *nm, const char *root);

#endif
