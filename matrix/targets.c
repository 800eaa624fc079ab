// SPDX-License-Identifier: GPL-2.0
#include "targets.h"

#include <string.h>

/*
 * QEMU settings per target.  The time bound covers firmware, boot and
 * power-off; the driver adds what the suites ask for on top.  Every guest
 * gets multi-threaded TCG and two vCPUs (see boot.c).
 */
const struct target kwm_targets[] = {
	/*
	 * First of the default columns: its kernel builds fastest from
	 * scratch here (docs/figures.md), so a new user's first answer, the
	 * first column's cells and the verdicts they decide, comes soonest.
	 */
	{
		.name = "riscv64",
		.kernel_arch = "riscv",
		.cross_compile = "riscv64-linux-gnu-",
		.cross_package = "gcc-riscv64-linux-gnu",
		.image = "arch/riscv/boot/Image",
		.qemu = "qemu-system-riscv64",
		.qemu_package = "qemu-system-misc",
		.qemu_args = "-M virt -m 512",
		.console = "ttyS0",
		/*
		 * The early boot on the 8250 of the device tree too: a guest
		 * once stayed silent after OpenSBI (1 boot in 33 here), and
		 * only earlycon would have shown where it stopped.
		 */
		.early_console = "earlycon",
		.firmware = "/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin",
		.firmware_package = "qemu-system-data",
		.lava_arch = "riscv64",
		.boot_seconds = 60,
		.by_default = true,
	},
	{
		.name = "arm64",
		.kernel_arch = "arm64",
		.cross_compile = "aarch64-linux-gnu-",
		.cross_package = "gcc-aarch64-linux-gnu",
		.image = "arch/arm64/boot/Image",
		.qemu = "qemu-system-aarch64",
		.qemu_package = "qemu-system-arm",
		.qemu_args = "-M virt -cpu cortex-a72 -m 512",
		.console = "ttyAMA0",
		.lava_arch = "arm64",
		.boot_seconds = 60,
		.by_default = true,
	},
	{
		.name = "ppc64le",
		.kernel_arch = "powerpc",
		.cross_compile = "powerpc64le-linux-gnu-",
		.cross_package = "gcc-powerpc64le-linux-gnu",
		.image = "vmlinux",
		.qemu = "qemu-system-ppc64",
		.qemu_package = "qemu-system-ppc",
		/*
		 * QEMU's Virtual Open Firmware, not SLOF: the kernel's own
		 * prom_init needs only its client interface, and a guest is
		 * up in 1.4 s instead of 8 s (-s kunit, 2026-12-07).
		 */
		.qemu_args = "-M pseries,x-vof=on -cpu power8 -m 512",
		.console = "hvc0",
		.firmware = "/usr/share/qemu/vof.bin",
		.firmware_package = "qemu-system-data",
		.lava_arch = "ppc64",
		.boot_seconds = 90,
		.by_default = true,
	},
	{
		/*
		 * The strongly ordered reference: TSO forbids every reordering
		 * the barriers guard but store->load, and the only target whose
		 * guest can run natively on this kind of host.
		 */
		.name = "x86_64",
		.kernel_arch = "x86",
		.cross_compile = "x86_64-linux-gnu-",
		.cross_package = "gcc",
		.image = "arch/x86/boot/bzImage",
		.qemu = "qemu-system-x86_64",
		.qemu_package = "qemu-system-x86",
		.qemu_args = "-M q35 -m 512",
		.console = "ttyS0",
		.kvm_host = "x86_64",
		.lava_arch = "x86_64",
		.boot_seconds = 60,
	},
#define BUILD_ONLY(target, arch, prefix, package)			\
	{								\
		.name = target,						\
		.kernel_arch = arch,					\
		.cross_compile = prefix,				\
		.cross_package = package,				\
		.image = "vmlinux",					\
	}
	/*
	 * Build only: the series and its modules must compile, with W=1
	 * and sparse, for every architecture a maintainer may send it to.
	 */
	BUILD_ONLY("armhf", "arm", "arm-linux-gnueabihf-", "gcc-arm-linux-gnueabihf"),
	BUILD_ONLY("s390x", "s390", "s390x-linux-gnu-", "gcc-s390x-linux-gnu"),
	BUILD_ONLY("powerpc", "powerpc", "powerpc-linux-gnu-", "gcc-powerpc-linux-gnu"),
	BUILD_ONLY("mips64el", "mips", "mips64el-linux-gnuabi64-", "gcc-mips64el-linux-gnuabi64"),
	BUILD_ONLY("sparc64", "sparc", "sparc64-linux-gnu-", "gcc-sparc64-linux-gnu"),
	BUILD_ONLY("alpha", "alpha", "alpha-linux-gnu-", "gcc-alpha-linux-gnu"),
	BUILD_ONLY("hppa", "parisc", "hppa-linux-gnu-", "gcc-hppa-linux-gnu"),
	BUILD_ONLY("m68k", "m68k", "m68k-linux-gnu-", "gcc-m68k-linux-gnu"),
	BUILD_ONLY("sh4", "sh", "sh4-linux-gnu-", "gcc-sh4-linux-gnu"),
#undef BUILD_ONLY
};

const int kwm_nr_targets = sizeof(kwm_targets) / sizeof(kwm_targets[0]);

const struct target *target_find(const char *name)
{
	int i;

	for (i = 0; i < kwm_nr_targets; i++)
		if (!strcmp(kwm_targets[i].name, name))
			return &kwm_targets[i];
	return NULL;
}
