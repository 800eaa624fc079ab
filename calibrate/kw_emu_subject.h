/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kw_emu_subject: the subject (lib/kw_worker.c) and its torture
 * (lib/kw_worker_torture.c) built as one module on kw_emu's weakly
 * ordered machine.  The driver writes this module's source as this
 * header, then the subject's text, then the torture's, then
 * kw_emu_hunt.h (the hunt's end, which reads the torture's checks).
 *
 * One translation unit, so that one machine holds both: the work
 * function's stores and the flusher's reads of them, done in the torture,
 * reorder against done_seq and flushing, done in the subject.  A call
 * from one into the other (work->func(), flush_kw_work()) is no barrier.
 *
 * What the layer does not emulate counts as a full barrier, as kw_emu.h
 * says: each lock, wait-queue, scheduler, clock and torture-library call
 * below drains the caller's buffer and moves its horizon on both sides,
 * which is at least what it orders on hardware.  Every other symbol the
 * module takes from the kernel is listed in kw_emu_callees.tsv with why
 * it orders nothing; the driver fails the build on one that is not.  The header's inline functions
 * (list_empty(), INIT_LIST_HEAD(), init_kw_work()) are compiled before
 * the layer and stay real; only the accesses written out in the two
 * files go through it.
 *
 * A task's ->__state stays real: the scheduler reads it outside the
 * layer, and a state change left in a store buffer would lose wake-ups
 * the code does not lose.  set_current_state() is a full barrier, as on
 * hardware (it is what covers flush-b0 in prepare_to_wait_event()).
 */
#ifndef KW_EMU_SUBJECT_H
#define KW_EMU_SUBJECT_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/freezer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/kw_worker.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/torture.h>
#include <linux/wait.h>

/* Before the layer: these keep the kernel's own accesses. */
static inline void kwe_real_set_state(unsigned int state)
{
	/* As set_current_state(): ordered against the wait's re-check. */
	smp_store_mb(current->__state, state);
}

static inline void kwe_real___set_state(unsigned int state)
{
	WRITE_ONCE(current->__state, state);
}

/*
 * Whether memory says @work has a queueing not done yet: read outside
 * the layer, for the steering alone (a thread waits at a site only for a
 * work that someone will finish), never for the subject's own logic.
 */
static inline bool kwe_real_pending(const struct kw_work *work)
{
	return READ_ONCE(work->queue_seq) != READ_ONCE(work->done_seq);
}

#include "kw_emu.h"

/* A call out of the instrumented code: a full barrier on each side. */
#define KWE_CALL(call)							\
	({ typeof(call) __kwe_ret; kwe_fence_full(); __kwe_ret = (call);	\
	   kwe_fence_full(); __kwe_ret; })
#define KWE_CALL_VOID(call)						\
	do { kwe_fence_full(); call; kwe_fence_full(); } while (0)

#undef set_current_state
#define set_current_state(s)	KWE_CALL_VOID(kwe_real_set_state(s))
#undef __set_current_state
#define __set_current_state(s)	kwe_real___set_state(s)

#define spin_lock(l)		KWE_CALL_VOID((spin_lock)(l))
#define spin_unlock(l)		KWE_CALL_VOID((spin_unlock)(l))
#define spin_lock_irq(l)	KWE_CALL_VOID((spin_lock_irq)(l))
#define spin_unlock_irq(l)	KWE_CALL_VOID((spin_unlock_irq)(l))
#define prepare_to_wait_event(wq, e, s)	KWE_CALL((prepare_to_wait_event)(wq, e, s))
#define finish_wait(wq, e)	KWE_CALL_VOID((finish_wait)(wq, e))
#define __wake_up(wq, m, nr, k)	KWE_CALL((__wake_up)(wq, m, nr, k))
#define schedule()		KWE_CALL_VOID((schedule)())
#define schedule_timeout_interruptible(t)				\
	KWE_CALL((schedule_timeout_interruptible)(t))
#define schedule_timeout_uninterruptible(t)				\
	KWE_CALL((schedule_timeout_uninterruptible)(t))
#define kthread_should_stop()	KWE_CALL((kthread_should_stop)())
/* The timekeeper's seqcount reads have smp_rmb() of their own. */
#undef ktime_get_ns
#define ktime_get_ns()		KWE_CALL(ktime_get_ns())
#define torture_must_stop()	KWE_CALL((torture_must_stop)())
/* The torture's counters: real atomics, the value-returning ones fenced. */
#define atomic_long_inc_return(v)	KWE_CALL((atomic_long_inc_return)(v))
#define stutter_wait(title)	KWE_CALL((stutter_wait)(title))

/*
 * Directed runs (emu_direct=<tag>): the driver marks each barrier's site
 * in the subject, after the barrier or where it was cut (kwe_site(), with
 * the work as key), the start of a flush ("flush-entry") and the end of
 * a queueing's stores ("queued").  For the
 * barrier named, the row below makes the execution that needs it happen
 * every time the threads meet on a work: the barrier's thread cuts there
 * (kwe_cut(): its stores so far held, its loads the oldest allowed), and
 * each wait lets the other side run its part in between.  With the
 * barrier in place (the control), the same steering must find nothing.
 * emu_direct=each takes the rows in turn, a quarter second each.
 */
struct kwe_wait {
	const char *at;		/* a thread at this site ... */
	const char *until;	/* ... waits for another to pass this one */
	bool newest_first;	/* its newest store seen first, the others not */
};

static const struct kwe_plan {
	const char *cut;
	unsigned int window_loads;	/* loads of the held stores that end its window */
	struct kwe_wait waits[3];
} kwe_plans[] = {
	/*
	 * MP, the writer's side: done_seq commits before func()'s stores,
	 * and the flusher's first check comes in between.
	 */
	{ "worker-b0", 1, { { "flush-b0", KWE_WINDOW } } },
	/*
	 * SB: the flusher increments flushing after the worker's last
	 * barrier, the worker reads it old, and the flusher checks done_seq
	 * twice (wait_event()'s first check and its re-check after
	 * set_current_state()) before the worker's store commits.
	 */
	{ "worker-b1", 2, { { "flush-entry", "worker-b1" }, { "worker-b1", "flush-b0" } } },
	/* SB, the flusher's side: its first check reads done_seq old. */
	{ "flush-b0", 0, { { "flush-entry", "worker-b1" } } },
	/*
	 * MP, the reader's side: the flusher's horizon is from flush-b0's
	 * barrier, and its first check comes once the worker has published.
	 * On a work's first queueing by another thread, the queuer's
	 * queue_seq is seen before its work->worker, until the flusher has
	 * passed flush-b0: with flush-b1 gone, the flusher's horizon is
	 * still from flush-b0, so it may read work->worker NULL, and skip
	 * patch 5's lock.
	 */
	{ "flush-b1", 0, { { "flush-b0", "worker-b1" },
			   { "queued", "flush-b0", true } } },
};

/* The row emu_direct names, or NULL: not steered. */
static const struct kwe_plan *kwe_plan(void)
{
	int n = ARRAY_SIZE(kwe_plans);

	if (!strcmp(emu_direct, "each"))
		return &kwe_plans[(jiffies / (HZ / 4)) % n];
	for (int i = 0; i < n; i++)
		if (!strcmp(emu_direct, kwe_plans[i].cut))
			return &kwe_plans[i];
	return NULL;
}

static void __maybe_unused kwe_site(const char *site, const void *key)
{
	const struct kwe_plan *plan = kwe_plan();

	if (!plan)
		return;
	if (!strcmp(site, plan->cut))
		kwe_cut(key, plan->window_loads);
	kwe_pass(site, key);
	for (int i = 0; i < ARRAY_SIZE(plan->waits); i++) {
		const struct kwe_wait *w = &plan->waits[i];

		if (!w->at || strcmp(w->at, site))
			continue;
		/* Just queued: pending, though memory may not say so yet. */
		if (w->newest_first)
			kwe_commit_newest_await(w->until, key);
		else if (kwe_real_pending(key))
			kwe_await(w->until, key);
	}
}

/* The layer, and a steered run's barrier checked before anything starts. */
static int kwe_subject_setup(void)
{
	if (*emu_direct && !kwe_plan()) {
		pr_err("kw_worker_emu: emu_direct=%s names no barrier of kwe_plans[] (fix: a barrier's tag, or each)\n",
		       emu_direct);
		return -EINVAL;
	}
	return kwe_setup();
}

/*
 * The subject's entry points under names of their own, so that this
 * module loads beside the real kw_worker and exports nothing it does.
 */
#define kw_worker_fn		kwe_kw_worker_fn
#define queue_kw_work		kwe_queue_kw_work
#define flush_kw_work		kwe_flush_kw_work

int kw_worker_fn(void *worker_ptr);
bool queue_kw_work(struct kw_worker *worker, struct kw_work *work);
void flush_kw_work(struct kw_work *work);

/* Whether a violation ends the hunt (kw_emu_hunt.h, after the torture). */
static bool kwt_hunt_over(void);

#endif
