/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the driver knows about each architecture.  Everything that differs
 * between targets is a row of the table in targets.c plus a fragment in
 * arch-configs/<name>.config; no other code names an architecture.
 */
#ifndef KWM_TARGETS_H
#define KWM_TARGETS_H

#include <stdbool.h>

struct target {
	const char *name;		/* also arch-configs/<name>.config */
	const char *kernel_arch;	/* ARCH= */
	const char *cross_compile;	/* CROSS_COMPILE= */
	const char *cross_package;	/* Debian package of the cross gcc */
	const char *image;		/* kernel image, relative to O= */
	const char *qemu;		/* system emulator; NULL: build only */
	const char *qemu_package;
	const char *qemu_args;		/* machine, CPU and memory */
	const char *console;		/* console= device */
	const char *early_console;	/* more of the command line, or NULL */
	const char *firmware;		/* file QEMU loads by default, or NULL */
	const char *firmware_package;
	const char *kvm_host;		/* uname -m that may boot it with KVM */
	const char *lava_arch;		/* LAVA's context: arch, for lava.c */
	int boot_seconds;		/* time bound for boot and power-off */
	bool by_default;		/* in a run without -t; all are nightly */
};

extern const struct target kwm_targets[];
extern const int kwm_nr_targets;

const struct target *target_find(const char *name);

#endif
