// SPDX-License-Identifier: GPL-2.0
#include "kbuild.h"
#include "proc.h"

char **kbuild_argv(const struct target *t, const char *dir)
{
	char **argv = NULL;

	argv_add(&argv, "make");
	argv_add(&argv, "-C%s", dir);
	argv_add(&argv, "ARCH=%s", t->kernel_arch);
	argv_add(&argv, "CROSS_COMPILE=%s", t->cross_compile);
	argv_add(&argv, "CC=ccache %sgcc", t->cross_compile);
	return argv;
}
