/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host and the guest say to each other, spelled once: the driver
 * (matrix/) writes the plan and reads the console; the guest's init
 * (initramfs/init.c) reads the one and writes the other.
 *
 * The plan is /kwm-run in the initrd (KWM_RUN_FILE), words separated by
 * spaces or newlines: a kernel command line is too short for kwm.run=,
 * and the kernel has no /proc to show the init its own (common.config).
 *
 *   kwm.run=SUITE[;SUITE...]      SUITE is NAME:MODULE[+MODULE...][:PARAMS]
 *   MODULE.PARAM=VALUE            passed to MODULE when it is loaded
 *   kwm.catch=TEXT                ends a suite early, once the kernel logs
 *   kwm.subject=MODULE            a line holding TEXT and "[MODULE]"
 *
 * PARAMS, "MODULE.PARAM=VALUE[,MODULE.PARAM=VALUE...]", are one suite's
 * own and override the plan's.  No spaces or quotes in a word: the init
 * splits on them.  One PARAM is the init's own:
 *
 *   kwm.needs_weak=SHAPE          run the suite only if the calibration
 *                                 earlier in this guest saw SHAPE's weak
 *                                 outcome, or did not report SHAPE
 *
 * Console, one marker per line, around each suite's KTAP:
 *
 *   # kwm: init started
 *   # kwm-suite: NAME
 *   ...KTAP of the suite's modules...
 *   # kwm: ended early: the kernel reported "TEXT" in [MODULE]
 *   # kwm: not run: calibration saw SHAPE 0 times in RUNS runs
 *   # kwm-suite-end: NAME
 *   # kwm-suite-seconds: NAME SECONDS
 *   # kwm-done
 *
 * SECONDS is the suite's time in the guest, from its first marker to its
 * end, to the millisecond: what each suite costs (make bench).
 */
#ifndef KWM_PROTOCOL_H
#define KWM_PROTOCOL_H

#define KWM_RUN_FILE		"/kwm-run"
#define KWM_ARG_RUN		"kwm.run="
#define KWM_ARG_CATCH		"kwm.catch="
#define KWM_ARG_SUBJECT		"kwm.subject="
#define KWM_RUN_SUITES_SEP	";"	/* between suites */
#define KWM_RUN_FIELDS_SEP	":"	/* NAME:MODULES:PARAMS */
#define KWM_RUN_MODULES_SEP	"+"	/* between a suite's modules */
#define KWM_RUN_PARAMS_SEP	","	/* between a suite's own PARAMS */
#define KWM_PARAM_NEEDS_WEAK	"kwm.needs_weak="

#define KWM_MARK_INIT		"# kwm: init started"
#define KWM_MARK_SUITE		"# kwm-suite: "
#define KWM_MARK_SUITE_END	"# kwm-suite-end: "
#define KWM_MARK_ENDED_EARLY	"# kwm: ended early: "
#define KWM_MARK_NOT_RUN	"# kwm: not run: "
#define KWM_MARK_DONE		"# kwm-done"
#define KWM_MARK_SUITE_SECONDS	"# kwm-suite-seconds: "

/*
 * Lines the test modules print among their KTAP, which the driver reads:
 * the torture's figures (patch 3, lib/kw_worker_torture.c), each
 * calibration shape's counts (calibrate/kw_calibrate.c) and each litmus
 * test's (calibrate/kw_litmus.h).
 */
#define KWM_TORTURE_STATS	"# kwt: "
#define KWM_TORTURE_FIGURES	KWM_TORTURE_STATS "seconds="
#define KWM_CALIBRATION_SHAPE	"# kwc: shape="
#define KWM_LITMUS_FIGURES	"# kwl: "
/* And the steering's (calibrate/kw_emu.h): "steered=TAG awaits=N met=N windows=N met=N ...". */
#define KWM_STEERING		"# kwe: "
#define KWM_STEERING_FIGURES	KWM_STEERING "steered="

#endif
