// SPDX-License-Identifier: GPL-2.0
#include "oracles.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "fs.h"

const struct oracle kwm_oracles[] = {
	{
		.name = "kcsan",
		.title = "KCSAN",
		.arch_select = "HAVE_ARCH_KCSAN",
		.report = "BUG: KCSAN: ",
		/*
		 * Watch one access in 100, not 4000: the default caught no race
		 * on done_seq in 10 s of torture; this catches it in seconds.
		 */
		.cmdline = "kcsan.skip_watch=100",
		/*
		 * And it samples: the planted race on done_seq was reported
		 * 4 times in 10 s, and not at all in one 5 s run.
		 */
		.min_seconds = 15,
		/*
		 * The CI machine once saw no report in 15 s on arm64; here the
		 * first came after 8 s (printk.time=1): the detector runs until
		 * KCSAN reports on the subject, or this long.
		 */
		.hunt_seconds = 120,
		.limits = "KCSAN reports races on plain accesses only, and delays a store only within its own function: it never makes a load early",
	},
	{
		.name = "kasan",
		.title = "KASAN",
		.arch_select = "HAVE_ARCH_KASAN",
		.report = "BUG: KASAN: ",
		/* book3s64 with the hash MMU (QEMU's POWER8) */
		.inactive = "KASAN not enabled",
		/*
		 * Without it KASAN prints only its first report of the boot
		 * (Documentation/dev-tools/kasan.rst), and every later suite
		 * would run under an oracle that can say nothing.
		 */
		.cmdline = "kasan_multi_shot",
		.every_report = "kasan_multi_shot",
		/* "use-after-free in __wake_up_common": the caller is to blame. */
		.blame_stack = true,
		.hunt_seconds = 60,
		.limits = "KASAN sees a use after free only while the object is in its quarantine",
	},
};

const int kwm_nr_oracles = sizeof(kwm_oracles) / sizeof(kwm_oracles[0]);

const struct oracle *oracle_find(const char *name, bool *found)
{
	*found = true;
	if (!strcmp(name, "plain"))
		return NULL;
	for (int i = 0; i < kwm_nr_oracles; i++)
		if (!strcmp(kwm_oracles[i].name, name))
			return &kwm_oracles[i];
	*found = false;
	return NULL;
}

bool list_has(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !strncmp(p, name, len))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

char *oracle_unavailable(const struct oracle *o, const char *tree,
			 const char *kernel_arch, const char *package)
{
	char *path = xasprintf("%s/arch/%s/Kconfig", tree, kernel_arch);
	char *text = read_file(path, NULL), *pattern, *reason = NULL;
	const char *p;

	pattern = xasprintf("select %s", o->arch_select);
	for (p = text; p && (p = strstr(p, pattern)); p++) {
		char next = p[strlen(pattern)];

		/* Not HAVE_ARCH_KASAN_VMALLOC for HAVE_ARCH_KASAN. */
		if (next == '\n' || next == ' ' || next == '\t')
			break;
	}
	if (!text)
		reason = xasprintf("cannot read %s to see whether %s can be built", path,
				   o->title);
	else if (!p)
		reason = xasprintf("%s cannot be built for %s in %s: arch/%s/Kconfig does not select %s",
				   o->title, kernel_arch, package, kernel_arch,
				   o->arch_select);
	free(pattern);
	free(text);
	free(path);
	return reason;
}
