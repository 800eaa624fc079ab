/* SPDX-License-Identifier: GPL-2.0 */
/* A scratch folder per test group, made by setup and removed by teardown. */
#ifndef KWM_TEST_TMPDIR_H
#define KWM_TEST_TMPDIR_H

#include <stdlib.h>
#include <sys/stat.h>

#include "fs.h"
#include "util.h"

static char dir[] = "/tmp/kwm-test-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	chmod(dir, 0755);
	return rm_rf(dir);
}

#endif
