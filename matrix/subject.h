/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subject's vocabulary, in one place: its file and module, the
 * versions judged, its barriers with the calibration shape that shows
 * each one missing, and how a variant without a barrier is named.  The
 * build (variants.c), the suites (suites.c) and the judges read it here.
 */
#ifndef KWM_SUBJECT_H
#define KWM_SUBJECT_H

#define SUBJECT_FILE	"lib/kw_worker.c"
#define SUBJECT_MODULE	"kw_worker"

/* Its tests' modules: the torture, the calibration, both under emulation. */
#define TORTURE_FILE		"lib/kw_worker_torture.c"
#define CALIBRATION_MODULE	"kw_calibrate"
#define EMULATED_MODULE		"kw_worker_emu"

/*
 * Each barrier: the tag in its comment ("mb flush-b0 paired with ..."),
 * and the shape whose weak outcome a mutant without it lets through (the
 * calibrate suite's).  Expanded with X(tag, shape) into the tag table
 * below and the mutant suites (suites.c).
 */
#define KWM_BARRIERS(X)					\
	X("worker-b0", "MP+rmb")			\
	X("worker-b1", "SB+mb-plain+wait")		\
	X("flush-b0", "SB+mb-atomic")			\
	X("flush-b1", "MP+wmb")

extern const char *const kwm_barrier_tags[];
extern const int kwm_nr_barrier_tags;

/*
 * The versions judged: the seed (the series without its "# fix"
 * patches) and the series.  A version's variants are in folders named
 * with its prefix: seed-no-flush-b0/, no-flush-b0/.
 */
#define SEED_PREFIX	"seed-"
extern const char *const kwm_subject_versions[];	/* "seed", "series" */
extern const int kwm_nr_subject_versions;

/* "seed-" for the seed, "" for the series. */
const char *subject_version_prefix(const char *version);

/* The folder of a version's variant without barrier @tag, as a literal. */
#define VARIANT_NAME(prefix, tag)	prefix "no-" tag

/* The same at run time: "seed-no-flush-b0" (free it). */
char *variant_name(const char *prefix, const char *tag);

#endif
