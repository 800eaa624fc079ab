/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checkpatch --strict on the series, once per kernel version, by the
 * same patch/checkpatch.sh that maintainers run by hand.
 */
#ifndef KWM_CHECKPATCH_H
#define KWM_CHECKPATCH_H

#define CHECKPATCH		"checkpatch"
#define CHECKPATCH_OK		"checkpatch: ok "
#define CHECKPATCH_FAIL		"checkpatch: FAIL "
#define CHECKPATCH_STATUS	"kwmatrix: checkpatch.sh exited with "

/*
 * Run @repo/patch/checkpatch.sh on the series in @series_dir with the
 * checkpatch.pl of linux-source-@release in @cache; its output, then its
 * exit status, go to @log.
 */
void checkpatch_run(const char *repo, const char *series_dir,
		    const char *release, const char *cache, const char *log);

#endif
