/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boots a guest through LAVA, the lab engine KernelCI uses, instead of
 * QEMU directly: one job for LAVA's qemu device type with the same
 * kernel, initramfs (the modules are inside) and command line, run here
 * by lava-run; and the same job as a template for a real board.  The
 * console comes back from lava-run's log, so the matrix judges it as it
 * judges any other.
 */
#ifndef KWM_LAVA_H
#define KWM_LAVA_H

#include <stdbool.h>

#include "boot.h"

#define LAVA_RUN	"lava-run"
#define LAVA_PACKAGE	"lava-dispatcher"

/*
 * Write lava-job.yaml, lava-device.yaml and lava-board-job.yaml for the
 * prepared guest @g (column @name) into @dir, for a lab to take; if @run,
 * make @g boot through lava-run on them.  -1 if a file cannot be written.
 */
int lava_prepare(struct guest *g, const char *dir, const char *name, bool run);

#endif
