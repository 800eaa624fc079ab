// SPDX-License-Identifier: GPL-2.0
/*
 * kw_calibrate: which reorderings can this platform show at all?
 *
 * Store-buffering (SB) and message-passing (MP) litmus shapes, written
 * with the kernel's own primitives, each with and without its barriers.
 * As in klitmus7, two kthreads on two CPUs run their side over an array
 * of instances, meeting at a barrier before and after each round, so
 * that they race on the same instance at the same time.  Each round
 * starts on a go flag that both wait for, then each side waits a random
 * few hundred cycles of its own, so that neither always leads: the one
 * that left the barrier last would otherwise start first, and an MP
 * reader that always reads before the writer stores sees nothing weak.
 * Results live on cache lines of their own, away from x and y.  A weak outcome
 * of a shape whose barriers are all present is a failure; the rates of
 * the others say what a missing barrier could show on this platform.
 *
 * Built with KWC_EMULATE defined (kwmatrix stages it so, as emu/), every
 * access and barrier goes through kw_emu.h, a weakly ordered machine in
 * software: then every unfenced shape must show weak outcomes (else the
 * emulation reorders less than it claims) and every fenced one none
 * (else it is unsound).  Its figures are "# kwc-emu:" lines.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#ifdef KWC_EMULATE
#include "kw_emu.h"
#define KWC_MARK	"kwc-emu"
#else
#define KWC_MARK	"kwc"
#define kwe_native(on)	do { } while (0)
#define kwe_thread_exit()	do { } while (0)
#define kwe_emulation_lost()	false
#define KWE_THREADS	0
#define kwe_real_read(v)	atomic_read(v)
#define kwe_real_inc_return(v)	atomic_inc_return(v)
#endif

/*
 * Rounds each shape runs at least, however slow the host: enough runs to
 * judge.  Under emulation every instance is a hand-off between the two
 * sides, slow on a busy host, and weak outcomes are common (2 % for the
 * rarest shape): fewer rounds do, and a shorter share of the duration
 * (a fifth of a second gives that shape about 20; natively one can be a
 * thousand times rarer).
 */
#ifdef KWC_EMULATE
#define KWC_MIN_ROUNDS	4
#define KWC_MIN_SHARE	(HZ / 5)
#else
#define KWC_MIN_ROUNDS	16
#define KWC_MIN_SHARE	HZ
#endif

MODULE_DESCRIPTION("Litmus calibration: observable SB and MP reorderings");
MODULE_LICENSE("GPL");

static int duration = 10;
module_param(duration, int, 0444);
MODULE_PARM_DESC(duration, "Seconds for all shapes, shared equally (at least 1 each, 0.2 emulated)");
static int start_jitter = 256;
module_param(start_jitter, int, 0444);
MODULE_PARM_DESC(start_jitter, "Most cpu_relax() calls each side waits before a round");
static int instances = 512;
module_param(instances, int, 0444);
MODULE_PARM_DESC(instances, "Litmus instances per round");
/*
 * A test of the calibration (emu_broken=) asks for the one shape it must
 * catch, whose first forbidden outcome is the catch: the run ends there.
 */
static char *only = "";
module_param(only, charp, 0444);
MODULE_PARM_DESC(only, "Run only the shape of this name, a forbidden one until its first weak outcome");
static int wait_limit = 30;
module_param(wait_limit, int, 0444);
MODULE_PARM_DESC(wait_limit, "Seconds a side waits for the other before both stop and the shape fails");
/* The test of wait_limit: one side stops showing up, as a lost one would. */
static bool stall;
module_param(stall, bool, 0444);
MODULE_PARM_DESC(stall, "Test of wait_limit: the second side stops after its first round");

struct kwc_instance {
	int x ____cacheline_aligned;
	atomic_t ax;
	int y ____cacheline_aligned;
	int r0 ____cacheline_aligned;	/* off the shared lines */
	int r1;
	atomic_t gate;			/* under emulation: both sides meet here, */
	atomic_t turn;			/* then the other waits for the lead */
	int lead;
};

struct kwc_shape {
	const char *name;
	bool forbidden;		/* every barrier present: weak is a bug */
	int baseline;		/* forbidden: the unfenced shape that must show */
	bool mp;		/* weak is r0 == 1 && r1 == 0, else both 0 */
	void (*p0)(struct kwc_instance *in);
	void (*p1)(struct kwc_instance *in);
};

/* SB: each side stores, then loads the other side's variable. */
static void sb_p0(struct kwc_instance *in)
{
	WRITE_ONCE(in->x, 1);
	in->r0 = READ_ONCE(in->y);
}

static void sb_p1(struct kwc_instance *in)
{
	WRITE_ONCE(in->y, 1);
	in->r1 = READ_ONCE(in->x);
}

static void sb_mb_p0(struct kwc_instance *in)
{
	WRITE_ONCE(in->x, 1);
	smp_mb(); /* the barrier under test */
	in->r0 = READ_ONCE(in->y);
}

static void sb_mb_p1(struct kwc_instance *in)
{
	WRITE_ONCE(in->y, 1);
	smp_mb(); /* the barrier under test */
	in->r1 = READ_ONCE(in->x);
}

/* The flusher's side of flush-b0: an atomic increment, then a load. */
static void sb_atomic_p0(struct kwc_instance *in)
{
	atomic_inc(&in->ax);
	in->r0 = READ_ONCE(in->y);
}

static void sb_atomic_mb_p0(struct kwc_instance *in)
{
	atomic_inc(&in->ax);
	smp_mb__after_atomic(); /* the barrier under test */
	in->r0 = READ_ONCE(in->y);
}

/*
 * flush_kw_work() loads done_seq twice: in wait_event()'s first test, and
 * again after prepare_to_wait() has taken the wait queue's lock.  Both
 * loads must miss the worker's store for a wake-up to be lost, so this,
 * with the worker's side below, is the shape worker-b1 guards in the
 * subject.
 */
static DEFINE_SPINLOCK(kwc_wait_lock);

static void sb_atomic_mb_wait_p0(struct kwc_instance *in)
{
	unsigned long flags;

	atomic_inc(&in->ax);
	smp_mb__after_atomic(); /* the barrier under test */
	in->r0 = READ_ONCE(in->y);
	if (in->r0)
		return;
	spin_lock_irqsave(&kwc_wait_lock, flags);
	spin_unlock_irqrestore(&kwc_wait_lock, flags);
	in->r0 = READ_ONCE(in->y);
}

/* The worker's side of worker-b1: a plain store, then the atomic's value. */
static void sb_plain_p1(struct kwc_instance *in)
{
	WRITE_ONCE(in->y, 1);
	in->r1 = atomic_read(&in->ax);
}

/*
 * The same as kw_worker_fn() goes on: a few instructions after reading
 * flushing, set_current_state() is a full barrier, which ends the window
 * in which its done_seq store can still be unseen.
 */
static void sb_plain_then_mb_p1(struct kwc_instance *in)
{
	WRITE_ONCE(in->y, 1);
	in->r1 = atomic_read(&in->ax);
	smp_mb(); /* set_current_state() at the top of the worker's loop */
}

static void sb_plain_mb_p1(struct kwc_instance *in)
{
	WRITE_ONCE(in->y, 1);
	smp_mb(); /* the barrier under test */
	in->r1 = atomic_read(&in->ax);
}

/* MP: data then flag, against flag then data. */
static void mp_p0(struct kwc_instance *in)
{
	WRITE_ONCE(in->x, 1);
	WRITE_ONCE(in->y, 1);
}

static void mp_wmb_p0(struct kwc_instance *in)
{
	WRITE_ONCE(in->x, 1);
	smp_wmb(); /* the barrier under test */
	WRITE_ONCE(in->y, 1);
}

static void mp_p1(struct kwc_instance *in)
{
	in->r0 = READ_ONCE(in->y);
	in->r1 = READ_ONCE(in->x);
}

static void mp_rmb_p1(struct kwc_instance *in)
{
	in->r0 = READ_ONCE(in->y);
	smp_rmb(); /* the barrier under test */
	in->r1 = READ_ONCE(in->x);
}

/*
 * A fenced shape is only a test where its unfenced baseline (run before
 * it) showed weak outcomes; elsewhere it cannot fail, and says so.
 */
static const struct kwc_shape kwc_shapes[] = {
	{ "SB", false, -1, false, sb_p0, sb_p1 },
	{ "SB+mbs", true, 0, false, sb_mb_p0, sb_mb_p1 },
	{ "SB+mb-plain", false, -1, false, sb_atomic_mb_p0, sb_plain_p1 },
	{ "SB+mb-plain+wait", false, -1, false, sb_atomic_mb_wait_p0, sb_plain_then_mb_p1 },
	{ "SB+mb-atomic", false, -1, false, sb_atomic_p0, sb_plain_mb_p1 },
	{ "SB+atomic+mbs", true, 2, false, sb_atomic_mb_p0, sb_plain_mb_p1 },
	{ "MP", false, -1, true, mp_p0, mp_p1 },
	{ "MP+wmb", false, -1, true, mp_wmb_p0, mp_p1 },
	{ "MP+rmb", false, -1, true, mp_p0, mp_rmb_p1 },
	{ "MP+wmb+rmb", true, 6, true, mp_wmb_p0, mp_rmb_p1 },
};

static unsigned long kwc_weak_of[ARRAY_SIZE(kwc_shapes)];

static struct kwc_instance *kwc_in;
static const struct kwc_shape *kwc_shape;
static atomic_t kwc_arrived;
static int kwc_sense;
static int kwc_go;		/* the round that may start */
static bool kwc_done;
static unsigned long kwc_runs, kwc_weak;
static struct completion kwc_finished[2];

/*
 * A side that has waited wait_limit for the other gives up on it: both
 * stop, and the shape's line says where.  Once a 6.12 guest's
 * calibrate-emu spun on one CPU for ten minutes, until the driver
 * stopped it, and nothing said where.
 */
static atomic_t kwc_lost;
static const char *kwc_lost_at;
static long kwc_lost_side;
static int kwc_lost_instance;

static bool kwc_gave_up(long id, unsigned long since, const char *at, int instance)
{
	if (kwe_real_read(&kwc_lost))
		return true;
	if (time_before(jiffies, since + wait_limit * HZ))
		return false;
	if (kwe_real_inc_return(&kwc_lost) == 1) {
		kwc_lost_at = at;
		kwc_lost_side = id;
		kwc_lost_instance = instance;
	}
	return true;
}

/* Sense-reversing barrier for the two threads; false if one gave up. */
static bool kwc_sync(long id, int *sense)
{
	unsigned long since = jiffies;

	*sense = !*sense;
	if (atomic_inc_return(&kwc_arrived) == 2) {
		atomic_set(&kwc_arrived, 0);
		smp_store_release(&kwc_sense, *sense);
		return !kwe_real_read(&kwc_lost);
	}
	while (smp_load_acquire(&kwc_sense) != *sense) {
		if (kwc_gave_up(id, since, "the meeting between rounds", -1))
			return false;
		cpu_relax();
	}
	return true;
}

static void kwc_reset(void)
{
	int i;

	for (i = 0; i < instances; i++) {
		WRITE_ONCE(kwc_in[i].x, 0);
		WRITE_ONCE(kwc_in[i].y, 0);
		atomic_set(&kwc_in[i].ax, 0);
		atomic_set(&kwc_in[i].gate, 0);
		atomic_set(&kwc_in[i].turn, 0);
		kwc_in[i].lead = get_random_u32() & 1;
		kwc_in[i].r0 = -1;
		kwc_in[i].r1 = -1;
	}
}

static void kwc_count(void)
{
	int i;

	for (i = 0; i < instances; i++) {
		struct kwc_instance *in = &kwc_in[i];

		if (kwc_shape->mp ? in->r0 == 1 && in->r1 == 0 :
				    in->r0 == 0 && in->r1 == 0)
			kwc_weak++;
	}
	kwc_runs += instances;
}

/*
 * A forbidden shape whose baseline showed nothing here cannot fail: it
 * runs its KWC_MIN_ROUNDS only (natively MP+wmb+rmb, whose share was a
 * second of every native calibration).
 */
static bool kwc_brief;

/* Each shape's share of the duration. */
static unsigned long kwc_shape_jiffies(void)
{
	unsigned long shapes = *only ? 1 : ARRAY_SIZE(kwc_shapes);

	if (kwc_brief)
		return 0;
	return max_t(unsigned long, KWC_MIN_SHARE, duration * HZ / shapes);
}

/* Whether the shape's run has shown what it can: see only. */
static bool kwc_caught(void)
{
	return *only && kwc_shape->forbidden && kwc_weak;
}

/*
 * Both sides wait for round @round's go flag, then a random while of
 * their own: who runs first changes from round to round.
 */
static bool kwc_start(long id, int round, struct rnd_state *rnd)
{
	unsigned long since = jiffies;
	u32 spins;

	if (id == 0)
		smp_store_release(&kwc_go, round);
	while (smp_load_acquire(&kwc_go) != round) {
		if (kwc_gave_up(id, since, "a round's go flag", -1))
			return false;
		cpu_relax();
	}
	for (spins = prandom_u32_state(rnd) % (start_jitter + 1); spins; spins--)
		cpu_relax();
	return true;
}

#ifdef KWC_EMULATE
/*
 * Under emulation the layer, not the host's scheduling, decides what is
 * reordered: both sides meet at each instance, then one of them, chosen
 * at random per instance, runs its side first and the other runs after.
 * The lead's stores stay buffered while the other runs (the signal is a
 * real atomic the layer does not see), and the last instance's stores
 * until both have arrived at the next, so the other's loads may miss
 * them; stale loads do the rest.
 */
static bool kwc_meet(struct kwc_instance *in, long id)
{
	unsigned long since = jiffies;

	kwe_real_inc_return(&in->gate);
	while (kwe_real_read(&in->gate) < 2) {
		if (kwc_gave_up(id, since, "an instance's gate", in - kwc_in))
			return false;
		cpu_relax();
	}
	kwe_native(true);
	kwe_native(false);
	if (id != in->lead)
		while (!kwe_real_read(&in->turn)) {
			if (kwc_gave_up(id, since, "the lead's turn", in - kwc_in))
				return false;
			cpu_relax();
		}
	return true;
}

static void kwc_leave(struct kwc_instance *in, long id)
{
	if (id == in->lead)
		kwe_real_inc_return(&in->turn);
}
#else
/* On hardware the round's start is the only meeting: the sides race. */
static bool kwc_meet(struct kwc_instance *in, long id)
{
	return true;
}

static void kwc_leave(struct kwc_instance *in, long id)
{
}
#endif

static int kwc_thread(void *arg)
{
	long id = (long)arg;
	unsigned long end = jiffies + kwc_shape_jiffies();
	struct rnd_state rnd;
	int sense = 0, round = 0, i;
	bool more;

	prandom_seed_state(&rnd, get_random_u64() + id);
	/* The harness is plain hardware even under emulation: only the shapes run on it. */
	kwe_native(true);
	do {
		/* stall=: this side is lost after its first round. */
		if (stall && id == 1 && round) {
			while (!kwe_real_read(&kwc_lost))
				schedule_timeout_uninterruptible(1);
			break;
		}
		if (!kwc_sync(id, &sense) || !kwc_start(id, ++round, &rnd))
			break;
		for (i = 0; i < instances; i++) {
			if (!kwc_meet(&kwc_in[i], id))
				break;
			if (id == 0)
				kwc_shape->p0(&kwc_in[i]);
			else
				kwc_shape->p1(&kwc_in[i]);
			kwc_leave(&kwc_in[i], id);
		}
		kwe_native(true);
		if (!kwc_sync(id, &sense))
			break;
		if (id == 0) {
			kwc_count();
			kwc_reset();
			WRITE_ONCE(kwc_done, kwc_caught() ||
				   (time_after(jiffies, end) &&
				    round >= KWC_MIN_ROUNDS));
		}
		if (!kwc_sync(id, &sense))
			break;
		more = !READ_ONCE(kwc_done);
	} while (more);
	kwe_native(true);
	/*
	 * Each shape's threads are new: their slots go back to the layer,
	 * and the real complete() follows, not the layer's, which would
	 * take a slot again and keep it (the flaky zero of MP+rmb on
	 * arm64@6.12: by the ninth shape no slot was left, unless new
	 * threads happened to reuse an old task_struct).
	 */
	kwe_thread_exit();
	(complete)(&kwc_finished[id]);
	return 0;
}

static int kwc_run_shape(const struct kwc_shape *shape)
{
	struct task_struct *t[2];
	long i;

	kwc_shape = shape;
	kwc_runs = 0;
	kwc_weak = 0;
	kwc_done = false;
	kwc_sense = 0;
	kwc_go = 0;
	atomic_set(&kwc_arrived, 0);
	atomic_set(&kwc_lost, 0);
	kwc_reset();
	for (i = 0; i < 2; i++) {
		init_completion(&kwc_finished[i]);
		t[i] = kthread_create(kwc_thread, (void *)i, "kw_calibrate/%ld", i);
		if (IS_ERR(t[i]))
			return PTR_ERR(t[i]);
		kthread_bind(t[i], cpumask_nth(i, cpu_online_mask));
	}
	wake_up_process(t[0]);
	wake_up_process(t[1]);
	wait_for_completion(&kwc_finished[0]);
	wait_for_completion(&kwc_finished[1]);
	return 0;
}

static int __init kwc_init(void)
{
	int i, ret, failed = 0;

	kwe_native(true);
	if (duration <= 0 || instances <= 0 || start_jitter < 0 || wait_limit <= 0 ||
	    num_online_cpus() < 2) {
		pr_err("kw_calibrate: needs duration > 0, instances > 0, start_jitter >= 0, wait_limit > 0 and two CPUs\n");
		return -EINVAL;
	}
	for (i = 0; *only && i < ARRAY_SIZE(kwc_shapes); i++)
		if (!strcmp(only, kwc_shapes[i].name))
			break;
	if (i == ARRAY_SIZE(kwc_shapes)) {
		pr_err("kw_calibrate: no shape is named %s\n", only);
		return -EINVAL;
	}
	kwc_in = kcalloc(instances, sizeof(*kwc_in), GFP_KERNEL);
	if (!kwc_in)
		return -ENOMEM;
#ifdef KWC_EMULATE
	if (kwe_setup()) {
		kfree(kwc_in);
		return -ENOMEM;
	}
#endif

	pr_info("    KTAP version 1\n");
	pr_info("    # Subtest: kw_calibrate\n");
	pr_info("    1..%zu\n", ARRAY_SIZE(kwc_shapes));
	for (i = 0; i < ARRAY_SIZE(kwc_shapes); i++) {
		const struct kwc_shape *s = &kwc_shapes[i];
		unsigned long per_million;

		if (*only && strcmp(only, s->name)) {
			pr_info("    ok %d %s # SKIP not asked for (only=%s)\n",
				i + 1, s->name, only);
			continue;
		}
		kwc_brief = !*only && s->forbidden && !kwc_weak_of[s->baseline];
		ret = kwc_run_shape(s);
		if (ret) {
			kfree(kwc_in);
			return ret;
		}
		per_million = kwc_runs ? kwc_weak * 1000000 / kwc_runs : 0;
		kwc_weak_of[i] = kwc_weak;
		pr_info("    # " KWC_MARK ": shape=%s forbidden=%d runs=%lu weak=%lu per_million=%lu\n",
			s->name, s->forbidden, kwc_runs, kwc_weak, per_million);
		if (kwe_real_read(&kwc_lost)) {
			failed++;
			if (kwc_lost_instance >= 0)
				pr_info("    # " KWC_MARK ": stuck at instance %d of %d\n",
					kwc_lost_instance, instances);
			pr_info("    not ok %d %s # stuck: side %ld waited %d s for the other at %s, and both stopped\n",
				i + 1, s->name, kwc_lost_side, wait_limit, kwc_lost_at);
		} else if (IS_ENABLED(KWC_EMULATE) && kwe_emulation_lost()) {
			/* A shape run outside the layer shows nothing about it. */
			failed++;
			pr_info("    not ok %d %s # emulated, yet a thread ran outside the layer: its %d slots were taken\n",
				i + 1, s->name, KWE_THREADS);
		} else if (s->forbidden && kwc_weak) {
			failed++;
			pr_info("    not ok %d %s # %lu forbidden weak outcomes in %lu runs\n",
				i + 1, s->name, kwc_weak, kwc_runs);
		} else if (IS_ENABLED(KWC_EMULATE) && !s->forbidden && !kwc_weak) {
			/* The emulation claims to reorder this: it must show it. */
			failed++;
			pr_info("    not ok %d %s # emulated, yet no weak outcome in %lu runs\n",
				i + 1, s->name, kwc_runs);
		} else if (s->forbidden && !kwc_weak_of[s->baseline]) {
			pr_info("    ok %d %s # SKIP unobservable here: %s showed no weak outcome either (%d rounds)\n",
				i + 1, s->name, kwc_shapes[s->baseline].name, KWC_MIN_ROUNDS);
		} else {
			pr_info("    ok %d %s # %lu weak in %lu runs (%s)\n", i + 1,
				s->name, kwc_weak, kwc_runs,
				s->forbidden ? "forbidden" : "allowed");
		}
	}
	pr_info("%sok 1 kw_calibrate\n", failed ? "not " : "");
	kfree(kwc_in);
#ifdef KWC_EMULATE
	kwe_teardown();
#endif
	return 0;
}

static void __exit kwc_exit(void)
{
}

module_init(kwc_init);
module_exit(kwc_exit);
