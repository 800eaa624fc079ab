/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A guest's initrd for one run: the build's initramfs with one more file,
 * what the guest's init reads beside the kernel command line, which is
 * too short for a run's plan (1024 bytes on riscv).  The kernel unpacks
 * cpio archives laid end to end, so the build's stays as it is.
 */
#ifndef KWM_INITRD_H
#define KWM_INITRD_H

/*
 * Write @out: @base, then a newc archive holding @text as @name.  Written
 * whole or not at all; -1 if it cannot be.
 */
int initrd_with_file(const char *base, const char *name, const char *text,
		     const char *out);

#endif
