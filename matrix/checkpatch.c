// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "checkpatch.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"
#include "proc.h"

void checkpatch_run(const char *repo, const char *series_dir,
		    const char *release, const char *cache, const char *log)
{
	char *cmd = xasprintf("KWMATRIX_CACHE='%s' '%s/patch/checkpatch.sh' '%s' '%s' >'%s' 2>&1; "
			      "echo \"" CHECKPATCH_STATUS "$?\" >>'%s'",
			      cache, repo, release, series_dir, log, log);

	run_shell(cmd, NULL);
	free(cmd);
}
