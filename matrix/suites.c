// SPDX-License-Identifier: GPL-2.0
#include "suites.h"

#include "parse.h"
#include "subject.h"

#include <string.h>

const struct suite kwm_suites[] = {
	{
		.name = "kunit",
		.kind = SUITE_KTAP,
		.modules = "kw_worker+kw_worker_kunit",
		.seconds = 30,
		.kernels = "plain,kcsan,kasan",
		.by_default = true,
	},
	{
		/* The kernel and the series' modules, W=1 on the series' files. */
		.name = "build",
		.kind = SUITE_BUILD,
		.modules = "",
		.kernels = "plain",
		.by_default = true,
	},
	{
		/* sparse over the series' C files, as built for the target. */
		.name = "sparse",
		.kind = SUITE_SPARSE,
		.modules = "",
		.kernels = "plain",
		.by_default = true,
	},
	{
		/* checkpatch --strict on the series, once per kernel version. */
		.name = "checkpatch",
		.kind = SUITE_CHECKPATCH,
		.modules = "",
		.kernels = "plain",
		.by_default = true,
	},
	{
		/* What each platform can show: read before the mutants. */
		.name = "calibrate",
		.kind = SUITE_KTAP,
		.modules = "kw_calibrate",
		.seconds = 30,
		/* -d shared among its shapes: a longer run sees rarer ones. */
		.duration_module = "kw_calibrate",
		.kernels = "plain",
		.by_default = true,
	},
	{
		/*
		 * The same shapes on a weakly ordered machine in software
		 * (calibrate/kw_emu.h): every unfenced shape must show weak
		 * outcomes there, and every fenced one none.
		 */
		.name = "calibrate-emu",
		.kind = SUITE_KTAP,
		.modules = "emu/kw_calibrate",
		.seconds = 30,
		.duration_module = "kw_calibrate",
		.same_everywhere = true,
		.kernels = "plain",
		.by_default = true,
	},
/*
 * And the test of that test: the emulation with smp_wmb() made a no-op
 * must let MP+wmb+rmb through, and the cell catch it.  Only that shape
 * runs, until its first forbidden outcome (kw_calibrate's only=).
 */
#define NO_WMB_SHAPE	"MP+wmb+rmb"
	{
		.name = "detector-emu-no-wmb",
		.kind = SUITE_DETECTOR,
		.modules = "emu/kw_calibrate",
		.seconds = 30,
		.duration_module = "kw_calibrate",
		.must_fire = NO_WMB_SHAPE,
		.own_params = "kw_calibrate.emu_broken=wmb,kw_calibrate.only=" NO_WMB_SHAPE,
		.kernels = "plain",
		.by_default = true,
	},
#undef NO_WMB_SHAPE
/*
 * And of the calibration's wait limit: with its second side lost after
 * one round (stall=), the first gives up within wait_limit and the shape
 * fails, where a lost side once kept a guest spinning until its bound.
 */
#define STUCK_SHAPE	"SB"
	{
		.name = "detector-calibrate-stuck",
		.kind = SUITE_DETECTOR,
		.modules = "emu/kw_calibrate",
		.seconds = 10,
		.duration_module = "kw_calibrate",
		.must_fire = STUCK_SHAPE,
		.own_params = "kw_calibrate.stall=1,kw_calibrate.wait_limit=1,"
			      "kw_calibrate.only=" STUCK_SHAPE,
		.kernels = "plain",
		.by_default = true,
	},
#undef STUCK_SHAPE
	{
		/*
		 * The memory model's own litmus tests (the tree's and
		 * litmus/'s, or kwmatrix litmus FILE...), run as klitmus7
		 * runs them: a "Never" test with a weak outcome fails.
		 */
		.name = "litmus",
		.kind = SUITE_KTAP,
		.modules = "kw_litmus",
		.seconds = 60,
		.duration_module = "kw_litmus",
		.litmus_side = 1 + LITMUS_NATIVE,
		.kernels = "plain",
		.by_default = true,
	},
	{
		/*
		 * The same tests on the emulated machine: the proof, by tests
		 * nobody here wrote, that its kills come from executions the
		 * memory model allows.
		 */
		.name = "litmus-emu",
		.kind = SUITE_KTAP,
		.modules = "emu/kw_litmus",
		.seconds = 60,
		.duration_module = "kw_litmus",
		.litmus_side = 1 + LITMUS_EMULATED,
		.same_everywhere = true,
		.kernels = "plain",
		.by_default = true,
	},
/*
 * The emulated machine as the mutants are hunted on it (steer=1,
 * calibrate/kw_litmus.h): racing threads, cuts at every barrier's site,
 * the hunts' windows (EMULATED_WINDOWS below).  Its "Never" tests must
 * stay Never there too, or a hunt's kill may be an execution the memory
 * model forbids.  Not by default, and no kill's validation yet: its
 * guest sometimes stops between two tests (docs/litmus.md).
 */
#define LITMUS_STEERED							\
	"kw_litmus.steer=1,kw_litmus.emu_direct=litmus,"		\
	"kw_litmus.emu_direct_us=2000,kw_litmus.emu_delay_us=50,"	\
	"kw_litmus.emu_stall_one_in=2,kw_litmus.emu_pause_one_in=16"
	{
		.name = "litmus-emu-steered",
		.kind = SUITE_KTAP,
		.modules = "emu/kw_litmus",
		.seconds = 60,
		.duration_module = "kw_litmus",
		.own_params = LITMUS_STEERED,
		.same_everywhere = true,
		.kernels = "plain",
		.by_default = false,
	},
/*
 * And the test of that test: with a barrier made a no-op, a "Never" test
 * that needs it must show weak outcomes, and the cell catch it.
 */
#define LITMUS_DETECTOR(mode, mode_params, barrier, test, dflt)	\
	{								\
		.name = "detector-litmus-emu-" mode "no-" barrier,	\
		.kind = SUITE_DETECTOR,					\
		.modules = "emu/kw_litmus",				\
		.seconds = 60,						\
		.duration_module = "kw_litmus",				\
		.must_fire = test,					\
		.own_params = mode_params "kw_litmus.emu_broken=" barrier \
			      ",kw_litmus.only=" test,			\
		.kernels = "plain",					\
		.by_default = dflt,					\
	}
	LITMUS_DETECTOR("", "", "wmb", "MP+fencewmbonceonce+fencermbonceonce", true),
	LITMUS_DETECTOR("", "", "rmb", "MP+fencewmbonceonce+fencermbonceonce", true),
	LITMUS_DETECTOR("", "", "mb", "SB+fencembonceonces", true),
	/* And in the hunts' mode (not by default either, as its suite). */
	LITMUS_DETECTOR("steered-", LITMUS_STEERED ",", "wmb",
			"MP+fencewmbonceonce+fencermbonceonce", false),
#undef LITMUS_DETECTOR
#undef LITMUS_STEERED
	{
		.name = "torture",
		.kind = SUITE_KTAP,
		.modules = "torture+kw_worker+kw_worker_torture",
		.seconds = 30,
		.duration_module = "kw_worker_torture",
		.kernels = "plain,kcsan",
		.by_default = true,
	},
	{
		/* The series without its fixes: the seed's own findings. */
		.name = "torture-seed",
		.kind = SUITE_FINDING,
		.modules = "torture+seed/kw_worker+kw_worker_torture",
		.seconds = 30,
		.duration_module = "kw_worker_torture",
		/*
		 * Its finding: a queueing made before a flush had not run.
		 * Its first violation is the XFAIL, the whole of what the run
		 * shows: the run ends there, as a detector's does.
		 */
		.must_fire = "completion",
		.own_params = "kw_worker_torture.stop_at=completion",
		.kernels = "plain",
		.by_default = true,
	},
/*
 * A barrier mutant of one version: @prefix "" for the series, "seed-"
 * for the seed, whose completion check fails anyway (torture-seed), so
 * that only its other checks kill.  The seed's run where torture-seed
 * does: on the plain kernels.
 */
#define MUTANT(prefix, version, finding, on, tag, shape_name)		\
	{								\
		.name = "mutant-" prefix tag,				\
		.kind = SUITE_MUTANT,					\
		.modules = "torture+" VARIANT_NAME(prefix, tag) "/" SUBJECT_MODULE \
			   "+kw_worker_torture",			\
		.seconds = 30,						\
		.duration_module = "kw_worker_torture",			\
		.mutant_of = tag,					\
		.subject = version,					\
		.known_finding = finding,				\
		.shape = shape_name,					\
		.calibrated_by = "calibrate",				\
		.kernels = on,						\
		.by_default = true,					\
	}
#define SERIES_MUTANT(tag, shape)					\
	MUTANT("", "series", NULL, "plain,kcsan", tag, shape),
#define SEED_MUTANT(tag, shape)						\
	MUTANT(SEED_PREFIX, "seed", "completion", "plain", tag, shape),
	/* Each barrier of subject.h, with the shape that shows it missing. */
	KWM_BARRIERS(SERIES_MUTANT)
	KWM_BARRIERS(SEED_MUTANT)
#undef SEED_MUTANT
#undef SERIES_MUTANT
#undef MUTANT
/*
 * The window of a lost wake-up under patch 5's lock is the worker's few
 * operations between its done_seq store and the unlock that commits it:
 * a store buffer that stalls up to 50 us there, one drain in two, opens
 * it; a drain that stalls half way opens the flusher's stale reads.  The
 * seed's flusher reads data after done_seq with no barrier between only
 * on wait_event()'s first check, just after flush-b0's: a pause after a
 * full barrier, one in sixteen, lets the worker publish in between.
 */
/*
 * How long a needed barrier's mutant is hunted there: steered
 * (emu_direct=, calibrate/kw_emu_subject.h), every kill so far came
 * within 1 s, the liveness check's own 500 ms included (docs: make bench
 * BENCH_ONLY=kills).  Twenty times that, for a loaded host.
 */
#define EMULATED_HUNT_SECONDS	20
#define EMULATED_WINDOWS						\
	"kw_worker_emu.emu_delay_us=50 kw_worker_emu.emu_stall_one_in=2 "	\
	"kw_worker_emu.emu_pause_one_in=16"
	{
		/*
		 * The series and the torture on the weakly ordered machine in
		 * software (calibrate/kw_emu_subject.h): it must stay clean,
		 * or the machine is weaker than the memory model.
		 */
		.name = "torture-emu",
		.kind = SUITE_KTAP,
		.modules = "torture+emu-series/kw_worker_emu",
		.seconds = 30,
		.duration_module = "kw_worker_emu",
		.params = EMULATED_WINDOWS,
		/* The control: each barrier's steering in turn finds nothing. */
		.own_params = "kw_worker_emu.emu_direct=each",
		.same_everywhere = true,
		.kernels = "plain",
		.by_default = true,
	},
/*
 * A barrier mutant of one version on that machine, which calibrate-emu
 * shows reorders every unfenced shape: one that gets through SURVIVED.
 */
/* The seed fails completion anyway (patch 4 fixes it): that ends no hunt. */
#define SEED_HUNT_PAST	",kw_worker_emu.hunt_past=completion"
#define EMULATED_MUTANT(prefix, version, finding, hunt_past, tag)	\
	{								\
		.name = "mutant-emu-" prefix tag,			\
		.kind = SUITE_MUTANT,					\
		.modules = "torture+emu-" VARIANT_NAME(prefix, tag) "/"	\
			   EMULATED_MODULE,				\
		.seconds = 30,						\
		.duration_module = "kw_worker_emu",		\
		.mutant_of = tag,					\
		.subject = version,					\
		.known_finding = finding,				\
		.calibrated_by = "calibrate-emu",			\
		.emulated = true,					\
		/* Its kills stand only on a machine the litmus tests passed. */ \
		.validated_by = "litmus-emu",				\
		.params = EMULATED_WINDOWS,				\
		.hunt_seconds = EMULATED_HUNT_SECONDS,		\
		.own_params = "kw_worker_emu.emu_direct=" tag hunt_past, \
		.kernels = "plain",					\
		.by_default = true,					\
	}
#define SERIES_EMULATED_MUTANT(tag, shape)				\
	EMULATED_MUTANT("", "series", NULL, "", tag),
#define SEED_EMULATED_MUTANT(tag, shape)				\
	EMULATED_MUTANT(SEED_PREFIX, "seed", "completion", SEED_HUNT_PAST, tag),
	KWM_BARRIERS(SERIES_EMULATED_MUTANT)
	KWM_BARRIERS(SEED_EMULATED_MUTANT)
#undef SEED_EMULATED_MUTANT
#undef SERIES_EMULATED_MUTANT
#undef EMULATED_MUTANT
	{
		/*
		 * The test of a COVERED cell: the series without worker-b0 and
		 * without patch 5's handoff, which the model says covers it,
		 * must then be killed (its work's data seen stale).
		 */
		.name = "detector-emu-uncovered-worker-b0",
		.kind = SUITE_DETECTOR,
		.modules = "torture+emu-uncovered-worker-b0/kw_worker_emu",
		.seconds = 30,
		.duration_module = "kw_worker_emu",
		.must_fire = "visibility",
		.params = EMULATED_WINDOWS,
		.hunt_seconds = EMULATED_HUNT_SECONDS,
		.own_params = "kw_worker_emu.emu_direct=worker-b0" SEED_HUNT_PAST,
		.kernels = "plain",
		.by_default = true,
	},
#define DETECTOR(variant, check, kernel, own)				\
	{								\
		.name = "detector-" variant,				\
		.kind = SUITE_DETECTOR,					\
		.modules = "torture+" variant "/kw_worker+kw_worker_torture", \
		.seconds = 30,						\
		.duration_module = "kw_worker_torture",			\
		.must_fire = check,					\
		.kernels = kernel,					\
		.own_params = own,					\
		.by_default = true,					\
	}
/*
 * A break per torture check, which it must catch on any platform.  Its
 * first catch is the kill: the torture ends there (stop_at=, patch 3).
 */
#define CHECK_DETECTOR(variant, check)					\
	DETECTOR(variant, check, "plain", "kw_worker_torture.stop_at=" check)
	CHECK_DETECTOR("no-wakeup", "liveness"),
	CHECK_DETECTOR("early-done", "completion"),
	CHECK_DETECTOR("early-wake", "visibility"),
	CHECK_DETECTOR("stays-pending", "requeue"),
#undef CHECK_DETECTOR
	/* And one per oracle, which its oracle must catch. */
	DETECTOR("plain-done-seq", "kcsan", "kcsan", NULL),
#define FREE_AFTER_FLUSH(suite, kind_of, variant, oracle)		\
	{								\
		.name = suite,						\
		.kind = kind_of,					\
		.modules = "torture+" variant "kw_worker+kw_worker_torture", \
		.seconds = 30,						\
		.duration_module = "kw_worker_torture",			\
		.kernels = "kasan",					\
		.params = "kw_worker_torture.nfreers=2",		\
		.must_fire = oracle,					\
		.by_default = true,					\
	}
	/* What users do: free a work once flush_kw_work() has returned. */
	FREE_AFTER_FLUSH("torture-free", SUITE_KTAP, "", NULL),
	/* The same with the worker's last touches made slow. */
	FREE_AFTER_FLUSH("torture-free-wide", SUITE_KTAP, "late-wake/", NULL),
	/*
	 * And on the seed, where they come after the flusher may free: the
	 * finding of patch 5, which KASAN must catch.
	 */
	FREE_AFTER_FLUSH("torture-free-seed", SUITE_DETECTOR, "seed-late-wake/", "kasan"),
#undef FREE_AFTER_FLUSH
#undef DETECTOR
};

const int kwm_nr_suites = sizeof(kwm_suites) / sizeof(kwm_suites[0]);

const char *suite_kind_name(enum suite_kind kind)
{
	static const char *const names[SUITE_NR_KINDS] = {
		[SUITE_KTAP] = "ktap", [SUITE_FINDING] = "finding",
		[SUITE_MUTANT] = "mutant", [SUITE_DETECTOR] = "detector",
		[SUITE_BUILD] = "build", [SUITE_SPARSE] = "sparse",
		[SUITE_CHECKPATCH] = "checkpatch",
	};

	return names[kind];
}

bool suite_in_guest(const struct suite *s)
{
	return s->kind < SUITE_BUILD;
}

const struct suite *suite_find(const char *name)
{
	for (int i = 0; i < kwm_nr_suites; i++)
		if (!strcmp(kwm_suites[i].name, name))
			return &kwm_suites[i];
	return NULL;
}
