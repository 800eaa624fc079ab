/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boots guests in their QEMU system emulators, as many at once as the
 * host has CPUs for their vCPUs, each within its time bound.
 */
#ifndef KWM_BOOT_H
#define KWM_BOOT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "targets.h"

#define GUEST_VCPUS	2

struct guest {
	const struct target *target;
	const char *name;	/* the column: "arm64+kcsan" */
	int column;		/* its index, for progress.c */
	char **argv;
	char *command;		/* argv as one shell line, to reproduce it */
	char *machine;		/* QEMU's options but the payload and console */
	char *kernel, *initrd, *append;
	/* Turns what the runner wrote to qemu_log into console_log, or NULL. */
	void (*collect)(struct guest *g);
	struct {
		long offset;		/* of qemu_log, collected so far */
		int passed, failed;	/* the runner's own test cases */
		char *verdict;		/* its job's, once it has one */
	} runner;
	char *runner_note;	/* the runner's own verdict, for the cell */
	const char *accel;	/* "kvm" or "tcg" */
	char *accel_note;	/* why, for the cell: "TCG: /dev/kvm: No such file" */
	char *console_log;
	char *qemu_log;		/* QEMU's own messages */
	double bound;		/* seconds */

	int nr_suites;		/* for progress: "suite 3 of 7" */
	int suites_started;
	double checked;		/* when the console was last read */

	pid_t pid;
	double started, first_ktap, ended;	/* seconds since start */
	bool ran, timed_out, interrupted;
	int exit_status;	/* -1 if killed by a signal */
};

/*
 * "kvm" where the host runs @t's own architecture and can open /dev/kvm
 * (KWMATRIX_KVM_DEVICE names another node, for the tests), else "tcg";
 * *@note says why, for the cell (free it).
 */
const char *guest_accel(const struct target *t, char **note);

/* @accel and @accel_note: guest_accel()'s, decided when the guest was planned. */
void guest_prepare(struct guest *g, const struct target *t,
		   const char *accel, const char *accel_note,
		   const char *kernel, const char *initrd, const char *append,
		   const char *console_log, const char *qemu_log, double bound);
/*
 * Run every guest, @slots at a time.  Returns early, killing the guests,
 * once *@stop is set (Ctrl-C, SIGTERM).
 */
/*
 * Guests boot as they become ready, @slots at a time: the first @nr of
 * @guests may boot; a caller that readies more raises @nr.
 */
struct guest_pool {
	struct guest *guests;
	int nr;			/* ready to boot */
	int next;		/* booted so far */
	int running, slots;
	double t0;
};

void guests_start(struct guest_pool *pool, struct guest *guests, int slots);
/*
 * One step: boot ready guests into free slots, reap those that ended,
 * kill those past their bound, or all of them once *@stop is set.
 */
void guests_poll(struct guest_pool *pool, volatile sig_atomic_t *stop);
/* Every ready guest has booted and ended. */
bool guests_idle(const struct guest_pool *pool);
/* Sleep until the next step is due. */
void guests_wait(void);
void guest_free(struct guest *g);

#endif
