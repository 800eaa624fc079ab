/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One target's build: a kernel build directory in the cache, named by a
 * key over everything vmlinux depends on, configured once, then brought
 * up to date by make (only modules, when only the subject or its tests
 * changed), and the guest's initramfs beside it.
 */
#ifndef KWM_BUILD_H
#define KWM_BUILD_H

#include "config.h"
#include "kbuild.h"

#include <stddef.h>

/*
 * The build key and paths of @t's kernel, with @oracle's fragment merged
 * last if not NULL; nothing is built.  -1 on bad fragments.
 */
int build_plan(struct build *b, const struct target *t,
	       const struct oracle *oracle, const struct build_env *env,
	       struct fragment_set *frags);
/* No configured kernel in its folder yet: the build starts from scratch. */
bool build_is_cold(const struct build *b);

/*
 * A build from scratch configured, and its make's first part run (make
 * prepare: kbuild's host tools and generated headers), ahead of the rest:
 * mostly one process at a time, so several side by side fill the CPUs one
 * leaves idle.  -1 with @b->error set; build_run() then fails at once.
 */
int build_prepare(struct build *b, const struct build_env *env,
		  const struct fragment_set *frags);

/*
 * Whether @module (@len bytes: a path under the initramfs's /lib/kw,
 * without .ko) is one of kwmatrix's own, made after the kernel by
 * variants.c: the calibration and litmus modules and those in folders.
 */
bool build_made_module(const char *module, size_t len);

/*
 * Configure if needed, then make; kwmatrix's own modules too where
 * @b->test_modules, W=1 and sparse over the series where @b->w1_check and
 * @b->sparse_check.  -1 with b->error set on failure (W=1 warnings too).
 */
int build_run(struct build *b, const struct build_env *env,
	      const struct fragment_set *frags);
void build_free(struct build *b);

#define SPARSE		"sparse"
/* kbuild's CHECK: sparse, with what Debian's cannot parse cut (riscv's -march) */
#define SPARSE_WRAPPER	"scripts/sparse.sh"
#define SPARSE_MISSING	"kwmatrix: sparse is not installed (fix: apt-get install sparse)"
#define SPARSE_STATUS	"kwmatrix: make C=2 exited with "

/* Where the plain kernel's sparse and W=1 outputs are kept (free them). */
char *build_sparse_log(const struct build *b);
char *build_w1_log(const struct build *b);

#endif
