/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kw_emu_subject: the subject (lib/kw_worker.c) and its torture
 * (lib/kw_worker_torture.c) built as one module on kw_emu's weakly
 * ordered machine.  The driver writes this module's source as this
 * header, then the subject's text, then the torture's.
 *
 * One translation unit, so that one machine holds both: the work
 * function's stores and the flusher's reads of them, done in the torture,
 * reorder against done_seq and flushing, done in the subject.  A call
 * from one into the other (work->func(), flush_kw_work()) is no barrier.
 *
 * What the layer does not emulate counts as a full barrier, as kw_emu.h
 * says: each lock, wait-queue, scheduler and torture-library call below
 * drains the caller's buffer and moves its horizon on both sides, which
 * is at least what it orders on hardware.  The header's inline functions
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
#define torture_must_stop()	KWE_CALL((torture_must_stop)())
/* The torture's counters: real atomics, the value-returning ones fenced. */
#define atomic_long_inc_return(v)	KWE_CALL((atomic_long_inc_return)(v))
#define stutter_wait(title)	KWE_CALL((stutter_wait)(title))

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

#endif
