// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "build.h"
#include "emu_callees.h"
#include "fs.h"
#include "hash.h"
#include "litmus.h"
#include "proc.h"
#include "variants.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STAMP_CONFIG	".kwm-configured"
#define STAMP_BUILT	".kwm-built"
#define STAMP_TESTS	"kwm/tests.digest"
#define STAMP_INITRAMFS	"kwm/initramfs.digest"
#define W1_STATUS	"kwmatrix: make W=1 exited with "
#define KEY_VERSION	"kwmatrix-build-2"
/* Bump when the initramfs layout or the variants' build changes. */
#define OUTPUTS_VERSION	"kwmatrix-outputs-5"

int build_plan(struct build *b, const struct target *t,
	       const struct oracle *oracle, const struct build_env *env,
	       struct fragment_set *frags)
{
	char *common = xasprintf("%s/arch-configs/common.config", env->repo);
	char *arch = xasprintf("%s/arch-configs/%s.config", env->repo, t->name);
	char *extra = oracle ? xasprintf("%s/arch-configs/oracles/%s.config",
					 env->repo, oracle->name) : NULL;
	const char *paths[] = { common, arch, extra };
	char *cmd = xasprintf("%sgcc --version", t->cross_compile);
	struct kwm_hash *h;
	int ret;

	memset(b, 0, sizeof(*b));
	b->target = t;
	b->oracle = oracle;
	b->name = xasprintf("%s%s%s%s", t->name, env->src->tag, oracle ? "+" : "",
			    oracle ? oracle->name : "");
	b->toolchain = cmd_output_line(cmd);
	free(cmd);
	ret = fragments_load(frags, paths, oracle ? 3 : 2);
	free(common);
	free(arch);
	free(extra);
	if (ret)
		return -1;

	h = hash_new();
	hash_add_str(h, KEY_VERSION);
	hash_add_str(h, env->src->package);
	hash_add_str(h, env->src->version);
	hash_add_str(h, t->kernel_arch);
	hash_add_str(h, t->image);
	hash_add_str(h, b->toolchain);
	for (int i = 0; i < frags->files.n; i++) {
		const char *base = strrchr(frags->files.v[i], '/');

		hash_add_str(h, base ? base + 1 : frags->files.v[i]);
		hash_add_file(h, frags->files.v[i]);
	}
	hash_add_str(h, env->series->builtin_digest);
	hash_final(h, b->key);

	b->dir = xasprintf("%s/build/%s-%.16s", env->cache, b->name, b->key);
	b->image = xasprintf("%s/%s", b->dir, t->image);
	b->initramfs = xasprintf("%s/kwm/initramfs.cpio", b->dir);
	return 0;
}

/* The kernel's make in its O= folder, reproducibly stamped. */
static char **make_argv(const struct build *b, const struct build_env *env,
			const char *target1, const char *target2)
{
	char **argv = kbuild_argv(b->target, env->src->tree);

	argv_add(&argv, "-j%d", env->jobs);
	argv_add(&argv, "O=%s", b->dir);
	/* Fixed, so that the same inputs make the same image; date -d reads it. */
	argv_add(&argv, "KBUILD_BUILD_TIMESTAMP=1970-01-01 00:00:00 UTC");
	argv_add(&argv, "KBUILD_BUILD_HOST=kwmatrix");
	if (target1)
		argv_add(&argv, "%s", target1);
	if (target2)
		argv_add(&argv, "%s", target2);
	return argv;
}

static int run_make(const struct build *b, const struct build_env *env,
		    const char *target1, const char *target2)
{
	char **argv = make_argv(b, env, target1, target2);
	int ret = run_cmd(argv, b->log, NULL);

	argv_free(argv);
	return ret;
}

/* The first compiler or make errors in the build log. */
static char *error_excerpt(const char *log)
{
	char *text = read_file(log, NULL), *out = xstrdup(""), *line, *save;
	int kept = 0;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && kept < 20;
	     line = strtok_r(NULL, "\n", &save)) {
		/* Compiler, make and modpost ("ERROR: modpost: ... undefined!"). */
		if (!strstr(line, "error") && !strstr(line, "Error") &&
		    !strstr(line, "ERROR") && !strstr(line, "undefined reference"))
			continue;
		xappendf(&out, "%s\n", line);
		kept++;
	}
	free(text);
	return out;
}

static int fail(struct build *b, const char *what)
{
	b->error = xasprintf("%s build: %s failed (see %s)", b->name,
			     what, b->log);
	b->excerpt = error_excerpt(b->log);
	return -1;
}

static int configure(struct build *b, const struct build_env *env,
		     const struct fragment_set *frags)
{
	char *stamp = xasprintf("%s/%s", b->dir, STAMP_CONFIG);
	char *dotconfig = xasprintf("%s/.config", b->dir);
	char *merge = NULL;
	struct strlist problems = { 0 };
	int ret = -1;

	if (path_exists(stamp)) {
		ret = 0;
		goto out;
	}
	/* A half-configured folder from an interrupted run is started over. */
	rm_rf(b->dir);
	if (mkdir_p(b->dir)) {
		b->error = xasprintf("cannot create %s (fix: check KWMATRIX_CACHE is writable)",
				     b->dir);
		goto out;
	}
	if (run_make(b, env, "tinyconfig", NULL)) {
		fail(b, "make tinyconfig");
		goto out_remove;
	}
	merge = xasprintf("cd '%s' && ARCH=%s CROSS_COMPILE=%s scripts/kconfig/merge_config.sh -m -O '%s' '%s'",
			  env->src->tree, b->target->kernel_arch,
			  b->target->cross_compile, b->dir, dotconfig);
	for (int i = 0; i < frags->files.n; i++) {
		xappendf(&merge, " '%s'", frags->files.v[i]);
	}
	if (run_shell(merge, b->log)) {
		fail(b, "merge_config.sh");
		goto out_remove;
	}
	if (run_make(b, env, "olddefconfig", NULL)) {
		fail(b, "make olddefconfig");
		goto out_remove;
	}
	if (config_check(frags, dotconfig, &problems)) {
		char *list = xstrdup("");

		for (int i = 0; i < problems.n; i++) {
			xappendf(&list, "  %s\n", problems.v[i]);
		}
		b->error = xasprintf("%s: %d requested config symbols did not survive merging (fix: add what they depend on to the fragment)",
				     b->name, problems.n);
		b->excerpt = list;
		goto out_remove;
	}
	if (write_file_atomic(stamp, "", 0)) {
		b->error = xasprintf("cannot write %s (fix: check free space)", stamp);
		goto out_remove;
	}
	ret = 0;
	goto out;

out_remove:
	rm_rf(b->dir);
out:
	strlist_free(&problems);
	free(merge);
	free(stamp);
	free(dotconfig);
	return ret;
}

/* Those of @family that the guest loads: the only ones built (variants_build()). */
static void list_module_family(char **list, const struct build *b,
			       const struct module_family *family)
{
	struct strlist names = { 0 };

	family->names(&names);
	for (int i = 0; i < names.n; i++)
		if (strlist_has(&b->module_dirs, names.v[i]) &&
		    !strlist_has(&b->not_applicable, names.v[i]))
			xappendf(list, "dir /lib/kw/%s 0755 0 0\n"
				 "file /lib/kw/%s/%s.ko %s/kwm/%s/%s/%s.ko 0644 0 0\n",
				 names.v[i], names.v[i], family->module, b->dir,
				 family->folder, names.v[i], family->module);
	strlist_free(&names);
}

/* The series' modules, as modules.order lists them, for the cpio list. */
static void list_series_modules(char **list, const struct build *b)
{
	char *order = xasprintf("%s/modules.order", b->dir);
	char *text = read_file(order, NULL), *line, *save;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *base = strrchr(line, '/'), *ext = strrchr(line, '.');

		base = base ? base + 1 : line;
		/* 6.1 lists lib/foo.ko, 6.12 lib/foo.o: the module is the .ko. */
		if (!ext || ext < base || (strcmp(ext, ".o") && strcmp(ext, ".ko")))
			continue;
		xappendf(list, "file /lib/kw/%.*s.ko %s/%.*s.ko 0644 0 0\n",
			 (int)(ext - base), base, b->dir, (int)(ext - line), line);
	}
	free(text);
	free(order);
}

/* kwmatrix's own modules (build_made_module()), for the cpio list. */
static void list_test_modules(char **list, const struct build *b)
{
	/* The calibration and the litmus tests, natively and under emulation (emu/). */
	xappendf(list, "file /lib/kw/%s.ko %s/kwm/calibrate/%s.ko 0644 0 0\n"
		 "dir /lib/kw/emu 0755 0 0\n"
		 "file /lib/kw/emu/%s.ko %s/kwm/calibrate-emu/%s.ko 0644 0 0\n"
		 "file /lib/kw/%s.ko %s/kwm/litmus/%s.ko 0644 0 0\n"
		 "file /lib/kw/emu/%s.ko %s/kwm/litmus-emu/%s.ko 0644 0 0\n",
		 CALIBRATION_MODULE, b->dir, CALIBRATION_MODULE,
		 CALIBRATION_MODULE, b->dir, CALIBRATION_MODULE,
		 LITMUS_MODULE, b->dir, LITMUS_MODULE,
		 LITMUS_MODULE, b->dir, LITMUS_MODULE);
	for (int f = 0; f < kwm_nr_module_families; f++)
		list_module_family(list, b, &kwm_module_families[f]);
}

/* The init binary, the modules and a cpio list for gen_init_cpio. */
static int build_initramfs(struct build *b, const struct build_env *env)
{
	char *kwm = xasprintf("%s/kwm", b->dir);
	char *init = xasprintf("%s/init", kwm);
	char *list_path = xasprintf("%s/initramfs.list", kwm);
	char *list = xasprintf("dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n"
			       "dir /proc 0755 0 0\ndir /sys 0755 0 0\n"
			       "dir /lib 0755 0 0\ndir /lib/kw 0755 0 0\n"
			       "file /init %s 0755 0 0\n", init);
	char *cmd;
	int ret = -1;

	mkdir_p(kwm);
	/*
	 * Always made again (-B): its digest, not make's timestamps, says it
	 * is stale, and another checkout sharing the cache may have built it
	 * later from an older init.c.
	 */
	cmd = xasprintf("make -s -B -C '%s/initramfs' CROSS_COMPILE=%s OUT='%s'",
			env->repo, b->target->cross_compile, init);
	if (run_shell(cmd, b->log)) {
		fail(b, "the guest init");
		goto out;
	}
	list_series_modules(&list, b);
	if (b->test_modules)
		list_test_modules(&list, b);
	if (write_file_atomic(list_path, list, strlen(list))) {
		fail(b, "writing the initramfs list");
		goto out;
	}
	free(cmd);
	cmd = xasprintf("'%s/usr/gen_init_cpio' '%s' > '%s.tmp' && mv '%s.tmp' '%s'",
			b->dir, list_path, b->initramfs, b->initramfs,
			b->initramfs);
	if (run_shell(cmd, b->log)) {
		fail(b, "gen_init_cpio");
		goto out;
	}
	ret = 0;
out:
	free(cmd);
	free(kwm);
	free(init);
	free(list_path);
	free(list);
	return ret;
}

bool build_made_module(const char *module, size_t len)
{
	return memchr(module, '/', len) ||
	       (len == strlen(CALIBRATION_MODULE) &&
		!strncmp(module, CALIBRATION_MODULE, len)) ||
	       (len == strlen(LITMUS_MODULE) && !strncmp(module, LITMUS_MODULE, len));
}

/*
 * What the kernel's stamp records: the series' diffs (its modules are
 * built with the kernel; its commit messages are not built) and what
 * runs sparse over it (an edit of it checks the series again).
 */
static void series_digest(const struct build_env *env, char out[KWM_HASH_HEX])
{
	struct kwm_hash *h = hash_new();
	char *sparse = xasprintf("%s/%s", env->repo, SPARSE_WRAPPER);

	hash_add_str(h, OUTPUTS_VERSION);
	hash_add_str(h, env->series->code_digest);
	hash_add_file(h, sparse);
	hash_final(h, out);
	free(sparse);
}

/* Which of @b's variants the guest loads, in the families' order. */
static void hash_module_dirs(struct kwm_hash *h, const struct build *b)
{
	for (int f = 0; f < kwm_nr_module_families; f++) {
		struct strlist names = { 0 };

		kwm_module_families[f].names(&names);
		for (int i = 0; i < names.n; i++)
			if (strlist_has(&b->module_dirs, names.v[i]))
				hash_add_str(h, names.v[i]);
		strlist_free(&names);
	}
}

/*
 * What the test modules' stamp records: the kernel's, the driver's
 * tables of variants, which of them the guest loads, and the
 * repository's files the modules are made of.  Not the init: only the
 * initramfs holds it (see below).
 */
static void tests_digest(const struct build *b, const struct build_env *env,
			 const char *series, char out[KWM_HASH_HEX])
{
	static const char *const inputs[] = {
		"calibrate/" CALIBRATION_MODULE ".c",
		"calibrate/" EMULATION_HEADER,
		"calibrate/" EMULATED_SUBJECT_HEADER,
		"calibrate/" EMULATED_HUNT_HEADER,
		"calibrate/" LITMUS_HARNESS,
		/* The modules are checked against it (emu_callees.h). */
		EMU_CALLEES,
	};
	struct kwm_hash *h = hash_new();
	char *calibration;

	hash_add_str(h, series);
	/* The variants are made by the driver's own tables: they count too. */
	variants_hash_tables(h);
	hash_module_dirs(h, b);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		char *path = xasprintf("%s/%s", env->repo, inputs[i]);

		hash_add_file(h, path);
		free(path);
	}
	/* The litmus module: what it was generated into. */
	calibration = litmus_source(env, NULL, NULL);
	hash_add_str(h, calibration ? calibration : "");
	free(calibration);
	hash_final(h, out);
}

/* The initramfs holds the built modules and the init: both digests. */
static void initramfs_digest(const struct build_env *env, const char *built,
			     char out[KWM_HASH_HEX])
{
	struct kwm_hash *h = hash_new();
	char *folder = xasprintf("%s/initramfs", env->repo);
	char *protocol = xasprintf("%s/include/kwm_protocol.h", env->repo);
	struct dirent **names;
	int n = scandir(folder, &names, NULL, alphasort);

	hash_add_str(h, built);
	/* Every file the init is made of: its sources and its Makefile. */
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", folder, names[i]->d_name);

		if (names[i]->d_name[0] != '.' && strcmp(names[i]->d_name, "init")) {
			hash_add_str(h, names[i]->d_name);
			hash_add_file(h, path);
		}
		free(path);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	hash_add_file(h, protocol);
	hash_final(h, out);
	free(protocol);
	free(folder);
}

/* Whether @name in the build folder records @digest (and @output exists). */
static bool stamp_is(const struct build *b, const char *name, const char *digest,
		     const char *output)
{
	char *stamp = xasprintf("%s/%s", b->dir, name);
	char *recorded = read_file(stamp, NULL);
	bool current = recorded && !strcmp(recorded, digest) &&
		       (!output || path_exists(output));

	free(recorded);
	free(stamp);
	return current;
}

/* Until it is written again, what @name records is not to be used. */
static void stamp_remove(const struct build *b, const char *name)
{
	char *stamp = xasprintf("%s/%s", b->dir, name);

	unlink(stamp);
	free(stamp);
}

static int stamp_write(struct build *b, const char *name, const char *digest)
{
	char *stamp = xasprintf("%s/%s", b->dir, name);
	int ret = write_file_atomic(stamp, digest, strlen(digest));

	if (ret)
		b->error = xasprintf("cannot write %s (fix: check free space)", stamp);
	free(stamp);
	return ret ? -1 : 0;
}

/* Build the initramfs, then record what it was built from. */
static int make_initramfs(struct build *b, const struct build_env *env,
			  const char *digest)
{
	stamp_remove(b, STAMP_INITRAMFS);
	if (build_initramfs(b, env))
		return -1;
	return stamp_write(b, STAMP_INITRAMFS, digest);
}

/*
 * A make of the series' C files as @suffix targets ("kernel/kthread.s"),
 * with @flag1 and @flag2 (W=1, C=2).  KBUILD_NOCMDDEP=1: a changed
 * command line alone remakes nothing, or the new flags would remake what
 * kbuild prepares first (modpost, asm-offsets, the vDSO: 2.8 s of 3.6 for
 * W=1 on arm64), and the next make would remake it back.  So targets that
 * only this make makes (@ours: W=1's .s files) are removed first, to be
 * compiled, and their warnings seen, every time.
 */
static int make_series_files(const struct build *b, const struct build_env *env,
			     const char *flag1, const char *flag2,
			     const char *suffix, bool ours, const char *log)
{
	char **argv = make_argv(b, env, flag1, flag2);
	int ret;

	argv_add(&argv, "KBUILD_NOCMDDEP=1");
	for (int i = 0; i < env->series->files.n; i++) {
		const char *f = env->series->files.v[i];
		size_t len = strlen(f);

		if (len < 3 || strcmp(f + len - 2, ".c"))
			continue;
		argv_add(&argv, "%.*s%s", (int)(len - 2), f, suffix);
		if (ours) {
			char *target = xasprintf("%s/%.*s%s", b->dir, (int)(len - 2), f, suffix);

			unlink(target);
			free(target);
		}
	}
	unlink(log);
	ret = run_cmd(argv, log, NULL);
	argv_free(argv);
	return ret;
}

/* Note in b->steps that @what took the time since *@since. */
static void step_done(struct build *b, const char *what, double *since)
{
	double now = now_seconds();

	xappendf(&b->steps, "%s%s %.1f s", b->steps ? ", " : "", what, now - *since);
	*since = now;
}

char *build_w1_log(const struct build *b)
{
	return xasprintf("%s/kwm/w1.log", b->dir);
}

/*
 * Run @make_check (a make over the series' files) into @log in the build
 * folder, unless it is there already; the make's exit status is its last
 * line.  A make that did not exit (stopped by a signal) leaves no log: its
 * output says nothing about the series.  True if it ran now.
 */
static bool check_once(const struct build *b, const struct build_env *env, const char *log,
		       int (*make_check)(const struct build *b,
					 const struct build_env *env, const char *log),
		       const char *status_mark)
{
	char *tmp = xasprintf("%s.tmp", log), *kwm = xasprintf("%s/kwm", b->dir);
	bool ran = !path_exists(log);
	int status = 0;
	FILE *f;

	if (ran) {
		mkdir_p(kwm);
		status = make_check(b, env, tmp);
		f = status >= 0 ? fopen(tmp, "a") : NULL;
		if (f) {
			fprintf(f, "%s%d\n", status_mark, status);
			fclose(f);
			rename(tmp, log);
		}
		unlink(tmp);
	}
	free(kwm);
	free(tmp);
	return ran;
}

/*
 * The series' own C files, compiled again with W=1 into assembly (.s), so
 * that the objects the kernel uses keep their flags.  Any warning fails.
 */
static int make_w1(const struct build *b, const struct build_env *env, const char *log)
{
	return make_series_files(b, env, "W=1", NULL, ".s", true, log);
}

/* The "build" suite's W=1 pass: any warning in the series fails the build. */
static int check_w1(struct build *b, const struct build_env *env, double *step)
{
	char *log = build_w1_log(b), *text, *status;
	int warnings = 0, ret = 0;

	if (check_once(b, env, log, make_w1, W1_STATUS))
		step_done(b, "W=1", step);
	text = read_file(log, NULL);
	status = text ? strstr(text, W1_STATUS) : NULL;
	/* W=1 also rebuilds what the kernel prepares first: not ours. */
	for (char *line = text, *nl; line && *line; line = nl + !!*nl) {
		nl = strchrnul(line, '\n');
		warnings += series_diagnostic(&env->series->files, line, nl - line);
	}
	if (!status || atoi(status + strlen(W1_STATUS)) || warnings) {
		b->error = xasprintf("%s: the series' files do not build cleanly with W=1: %d warnings (see %s)",
				     b->name, warnings, log);
		b->excerpt = text;
		text = NULL;
		/* Made again next time: a failed make may have been interrupted. */
		if (!warnings)
			unlink(log);
		ret = -1;
	}
	free(text);
	free(log);
	return ret;
}

/*
 * Every module of modules.order as a single target (6.12 names objects
 * there, 6.1 modules): kbuild descends only into their folders and runs
 * modpost over them, which needs all of them for their symbols (the
 * torture needs kernel/torture.ko).  A single-target make removes the
 * list, which the initramfs is made from: it is put back.  -1 if there
 * is no list yet.
 */
static int make_modules_again(const struct build *b, const struct build_env *env)
{
	char *order = xasprintf("%s/modules.order", b->dir), *text = read_file(order, NULL);
	char **argv;
	int ret, n = 0;

	if (!text) {
		free(order);
		return -1;
	}
	argv = make_argv(b, env, NULL, NULL);
	for (char *line = text, *nl; *line; line = nl + !!*nl) {
		size_t len;

		nl = strchrnul(line, '\n');
		len = nl - line;
		if (len > 3 && !strncmp(line + len - 3, ".ko", 3))
			len -= 3;
		else if (len > 2 && !strncmp(line + len - 2, ".o", 2))
			len -= 2;
		else
			continue;
		argv_add(&argv, "%.*s.ko", (int)len, line);
		n++;
	}
	ret = n ? run_cmd(argv, b->log, NULL) : -1;
	if (write_file_atomic(order, text, strlen(text)))
		ret = -1;
	argv_free(argv);
	free(order);
	free(text);
	return ret;
}

bool build_is_cold(const struct build *b)
{
	char *stamp = xasprintf("%s/%s", b->dir, STAMP_CONFIG);
	bool cold = !path_exists(stamp);

	free(stamp);
	return cold;
}

char *build_sparse_log(const struct build *b)
{
	return xasprintf("%s/kwm/sparse.log", b->dir);
}

static int make_sparse(const struct build *b, const struct build_env *env, const char *log)
{
	char *check = xasprintf("CHECK=%s/%s", env->repo, SPARSE_WRAPPER);
	/* C=2 checks a file whether or not it is remade. */
	int status = make_series_files(b, env, "C=2", check, ".o", false, log);

	free(check);
	return status;
}

/*
 * The "sparse" suite: sparse (make C=2) over the series' C files of the
 * plain kernel, kept in the build folder for its cell; a missing sparse
 * is said there.  Whether it got through at all: see judge_sparse().
 */
static void check_sparse(struct build *b, const struct build_env *env, double *step)
{
	char *log = build_sparse_log(b);

	if (!in_path(SPARSE) && !path_exists(log)) {
		char *kwm = xasprintf("%s/kwm", b->dir);

		mkdir_p(kwm);
		write_file_atomic(log, SPARSE_MISSING "\n", strlen(SPARSE_MISSING) + 1);
		free(kwm);
	} else if (check_once(b, env, log, make_sparse, SPARSE_STATUS)) {
		step_done(b, "sparse", step);
	}
	free(log);
}

/*
 * The make goal of the image the guest boots, its file name: not "all",
 * which also makes what nothing here boots (ppc64's zImage wrapper, 27
 * objects and 13.5 s of a build from scratch; arm64's and riscv's
 * compressed Image).
 */
static const char *image_goal(const struct target *t)
{
	const char *slash = strrchr(t->image, '/');

	return slash ? slash + 1 : t->image;
}

/* Whether @image is not the file @before described (make linked it again). */
static bool image_changed(const char *image, const struct stat *before)
{
	struct stat now;

	return stat(image, &now) || now.st_mtim.tv_sec != before->st_mtim.tv_sec ||
	       now.st_mtim.tv_nsec != before->st_mtim.tv_nsec || now.st_ino != before->st_ino;
}

/*
 * The kernel and the series' modules.  The folder's key covers everything
 * the kernel itself is built from; a stamp that differs under the same
 * key means only what the series adds changed: then only its modules are
 * made again.  The checks of the series made on the last one go stale.
 */
static int build_kernel(struct build *b, const struct build_env *env,
			const struct fragment_set *frags, const char *digest,
			double *step)
{
	char *stamp = xasprintf("%s/%s", b->dir, STAMP_BUILT);
	char *sparse = build_sparse_log(b), *w1 = build_w1_log(b);
	bool modules_only = path_exists(stamp) && path_exists(b->image);
	int ret = -1;

	if (configure(b, env, frags))
		goto out;
	if (!b->prepared_seconds)
		step_done(b, "config", step);
	stamp_remove(b, STAMP_BUILT);
	unlink(sparse);
	unlink(w1);
	/*
	 * An edit of the subject rebuilds its modules, not a walk of the
	 * tree.  kwmatrix's own modules keep their stamp then: it names the
	 * series they were made from (tests_digest()), and the kernel they
	 * load into is the same, so a run that tries another series and
	 * comes back finds them current.
	 */
	if (modules_only && !make_modules_again(b, env)) {
		b->modules_only = true;
	} else {
		struct stat before;
		bool had_image = !stat(b->image, &before);

		if (run_make(b, env, image_goal(b->target), "modules")) {
			fail(b, "make");
			goto out;
		}
		/* A kernel linked again: what was built against it goes stale. */
		if (!had_image || image_changed(b->image, &before))
			stamp_remove(b, STAMP_TESTS);
	}
	step_done(b, b->modules_only ? "modules" : "kernel", step);
	ret = stamp_write(b, STAMP_BUILT, digest);
out:
	free(w1);
	free(sparse);
	free(stamp);
	return ret;
}

/* kwmatrix's own modules (variants.c), built against the kernel. */
static int build_test_modules(struct build *b, const struct build_env *env,
			      const char *digest, double *step)
{
	stamp_remove(b, STAMP_TESTS);
	if (variants_build(b, env))
		return -1;
	step_done(b, "variants", step);
	return stamp_write(b, STAMP_TESTS, digest);
}

int build_prepare(struct build *b, const struct build_env *env,
		  const struct fragment_set *frags)
{
	double start = now_seconds();

	if (configure(b, env, frags))
		return -1;
	if (run_make(b, env, "prepare", NULL))
		return fail(b, "make prepare");
	b->prepared_seconds = now_seconds() - start;
	xappendf(&b->steps, "config and prepare %.1f s beside the other builds",
		 b->prepared_seconds);
	return 0;
}

int build_run(struct build *b, const struct build_env *env,
	      const struct fragment_set *frags)
{
	char series[KWM_HASH_HEX], tests[KWM_HASH_HEX], init[KWM_HASH_HEX];
	double start = now_seconds(), step = start;
	bool kernel = false, made = false;
	int ret = -1;

	/* Preparing it ahead failed, and said why (build_prepare()). */
	if (b->error)
		return -1;

	series_digest(env, series);
	tests_digest(b, env, series, tests);
	/* The initramfs holds the test modules only where the suites load them. */
	initramfs_digest(env, b->test_modules ? tests : series, init);
	if (!stamp_is(b, STAMP_BUILT, series, b->image)) {
		if (build_kernel(b, env, frags, series, &step))
			goto out;
		kernel = made = true;
	}
	/* Only where their suites are asked for; kept until the series changes. */
	if (b->w1_check && check_w1(b, env, &step))
		goto out;
	if (b->sparse_check)
		check_sparse(b, env, &step);
	if (b->test_modules && !stamp_is(b, STAMP_TESTS, tests, NULL)) {
		if (build_test_modules(b, env, tests, &step))
			goto out;
		made = true;
	}
	if (b->test_modules)
		variants_not_applicable_load(b);
	/* Nothing boots a build-only target; new modules go into a new cpio. */
	if (b->target->qemu && (made || !stamp_is(b, STAMP_INITRAMFS, init, b->initramfs))) {
		if (make_initramfs(b, env, init))
			goto out;
		step_done(b, "initramfs", &step);
		made = true;
	}
	b->up_to_date = !made;
	/* Made, but not the kernel: only what the series and kwmatrix add. */
	b->modules_only = made && (!kernel || b->modules_only);
	ret = 0;
out:
	b->seconds = now_seconds() - start + b->prepared_seconds;
	return ret;
}

void build_free(struct build *b)
{
	free(b->name);
	free(b->dir);
	free(b->log);
	free(b->image);
	free(b->initramfs);
	free(b->toolchain);
	free(b->steps);
	free(b->error);
	free(b->excerpt);
	strlist_free(&b->module_dirs);
	strlist_free(&b->not_applicable);
	strlist_free(&b->not_applicable_why);
	memset(b, 0, sizeof(*b));
}
