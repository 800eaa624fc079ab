/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kw_litmus: the harness of the module kwmatrix generates from LKMM
 * litmus tests (matrix/litmus_emit.c writes the tests; this runs them).
 *
 * As klitmus7 does: each thread of a test is a kthread that runs its
 * side over an array of instances, the threads meeting before and after
 * each round; then the exists clause is counted over the instances.
 * Natively the threads race from a go flag, each after a random few
 * hundred cycles of its own.  Built with KWC_EMULATE, the bodies run on
 * the weakly ordered machine of kw_emu.h, one thread after another per
 * instance in a random order (the others' stores still buffered, their
 * loads free to be stale), as kw_calibrate.c runs its shapes.
 *
 * One KTAP case per test: a "Never" test with a weak outcome is "not
 * ok"; a skipped test says why; and a "# kwl:" line carries its counts.
 */
#ifndef KW_LITMUS_H
#define KW_LITMUS_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#ifdef KWC_EMULATE
#include "kw_emu.h"
#define KWL_MODE	"emulated"
#define KWL_MIN_ROUNDS	2

/*
 * steer=1 runs the tests as the emulated mutants are hunted: the threads
 * race on their own CPUs, each instance's from a common start, and every
 * barrier's site (after it, as kw_emu_subject.h marks the subject's) is
 * now and then a cut (kwe_cut(): the stores buffered so far held to the
 * next full barrier, loads the oldest allowed) or a wait for the other
 * threads to pass a site of the same instance.  The windows come from
 * the module's emu_* parameters, which the suite sets as the hunts'.
 * Only the "Never" tests run: none may show its outcome.
 */
static bool kwl_steer;
module_param_named(steer, kwl_steer, bool, 0444);
MODULE_PARM_DESC(steer, "Emulated: the hunts' mode, for the Never tests (racing threads, cuts at barriers)");

/*
 * Unsteered, the layer, not the CPUs, reorders: the threads, which take
 * turns, share one CPU, so that a turn's hand-off is a context switch
 * there and not a wait for another vCPU that the host may have
 * descheduled.
 */
#define KWL_CPU(thread)	(kwl_steer ? (thread) % num_online_cpus() : 0)

/*
 * A use of a register, whose value the body loaded (litmus_emit.c marks
 * each): an address dependency, maybe, which the layer follows
 * (kwe_depend_on()).
 */
#define kwl_dep(r)	({ kwe_depend_on(); (r); })

/* The one site a body has, after each barrier and at its start. */
#define KWL_SITE	"litmus"
static void kwl_site(void);
#undef smp_mb
#define smp_mb()		do { kwe_smp_mb(); kwl_site(); } while (0)
#undef smp_wmb
#define smp_wmb()		do { kwe_smp_wmb(); kwl_site(); } while (0)
#undef smp_rmb
#define smp_rmb()		do { kwe_smp_rmb(); kwl_site(); } while (0)
#undef smp_store_release
#define smp_store_release(p, v)						\
	do { kwe_fence_release(); WRITE_ONCE(*(p), v); kwl_site(); } while (0)
#undef smp_load_acquire
#define smp_load_acquire(p)						\
	({ typeof(*(p)) __v = READ_ONCE(*(p)); kwe_fence_rmb(); kwl_site(); __v; })

/* Calls out of the layer: full barriers on both sides (kw_emu.h's rule). */
#define KWL_OUTSIDE(call)	do { kwe_fence_full(); call; kwe_fence_full(); } while (0)

static inline int kwl_spin_is_locked(spinlock_t *lock)
{
	int locked;

	KWL_OUTSIDE(locked = spin_is_locked(lock));
	return locked;
}

#undef spin_lock
#define spin_lock(l)		KWL_OUTSIDE((spin_lock)(l))
#undef spin_unlock
#define spin_unlock(l)		KWL_OUTSIDE((spin_unlock)(l))
#undef spin_is_locked
#define spin_is_locked(l)	kwl_spin_is_locked(l)
#undef smp_mb__after_spinlock
#define smp_mb__after_spinlock() kwe_smp_mb()
#undef rcu_read_lock
#define rcu_read_lock()		KWL_OUTSIDE((rcu_read_lock)())
#undef rcu_read_unlock
#define rcu_read_unlock()	KWL_OUTSIDE((rcu_read_unlock)())
#undef synchronize_rcu
#define synchronize_rcu()	KWL_OUTSIDE((synchronize_rcu)())

#else
#define KWL_MODE	"native"
/* On hardware, the dependency orders the access itself. */
#define kwl_dep(r)	(r)
#define kwl_steer	false
#define KWL_MIN_ROUNDS	8
/* Spread over the CPUs, as klitmus7 does: racing, not queueing. */
#define KWL_CPU(thread)	((thread) % num_online_cpus())
#define kwe_native(on)		do { } while (0)
#define kwe_thread_exit()	do { } while (0)
#define kwe_emulation_lost()	false
#define kwe_setup()		0
#define kwe_teardown()		do { } while (0)
#endif

/*
 * rcu_assign_pointer() as the memory model defines it (its
 * linux-kernel.def): a release, even of NULL, which the kernel's macro
 * stores plainly; a test judged by the model must run the model's.
 */
#undef rcu_assign_pointer
#define rcu_assign_pointer(p, v)	smp_store_release(&(p), (v))

#define KWL_THREADS	8	/* LITMUS_MAX_THREADS in matrix/litmus.h */
#define KWL_MODE_TEXT	(kwl_steer ? KWL_MODE ", steered" : KWL_MODE)
/* The figures' word for a test nothing gives an expected result. */
#define KWL_NO_RESULT	"none"
/* The driver reads these lines: KWM_LITMUS_FIGURES in include/kwm_protocol.h. */
#define KWL_FIGURES	"# kwl: "

struct kwl_test {
	const char *name;
	const char *shape;		/* "SB": its name's first part (litmus_shape_len()) */
	const char *result;		/* the test's "Result:", herd7's, or "": none */
	const char *result_by;		/* where a result not in the test came from */
	const char *skip;		/* why it does not run here, or NULL */
	int threads;
	size_t size;			/* of one instance */
	unsigned int instances;		/* at most, or 0: the module's */
	void (*init)(void *in);
	bool (*exists)(const void *in);
	void (*p[KWL_THREADS])(void *in);
};

MODULE_DESCRIPTION("LKMM litmus tests, generated by kwmatrix, run " KWL_MODE);
MODULE_LICENSE("GPL");

static int duration = 10;
module_param(duration, int, 0444);
MODULE_PARM_DESC(duration, "Seconds for all tests, shared equally (but for the brief ones)");
static int instances = 256;
module_param(instances, int, 0444);
MODULE_PARM_DESC(instances, "Litmus instances per round");
static int start_jitter = 256;
module_param(start_jitter, int, 0444);
MODULE_PARM_DESC(start_jitter, "Most cpu_relax() calls each thread waits before a round");
static char *only = "";
module_param(only, charp, 0444);
MODULE_PARM_DESC(only, "Run only the test of this name (default: all)");

/* Where the threads of one instance meet under emulation, and their order. */
struct kwl_meet {
	atomic_t gate;
	atomic_t turn;
	u8 rank[KWL_THREADS];
};

static struct {
	const struct kwl_test *test;
	char *mem;
	struct kwl_meet *meet;
	unsigned int n;
	unsigned long jiffies;		/* each test's share */
	atomic_t arrived;
	int sense, go;
	bool done;
	unsigned long runs, weak;
	unsigned int ms;		/* the test's time */
	bool never;			/* the test's Result: is Never */
	struct rnd_state rnd;
	struct completion finished[KWL_THREADS];
	struct task_struct *task[KWL_THREADS];
	void *key[KWL_THREADS];		/* the instance its body runs on, or NULL */
} kwl;

/*
 * A waiting thread gives its CPU to the others at once: a test may have
 * more threads than the guest has CPUs, and a spin that only yields at
 * the next tick makes each hand-off cost one.
 */
static void kwl_wait(void)
{
	cpu_relax();
	yield();
}

static void *kwl_instance(unsigned int i)
{
	return kwl.mem + (size_t)i * kwl.test->size;
}

/* Sense-reversing barrier for the test's threads; they may outnumber CPUs. */
static void kwl_sync(int *sense)
{
	*sense = !*sense;
	if (atomic_inc_return(&kwl.arrived) == kwl.test->threads) {
		atomic_set(&kwl.arrived, 0);
		/* The last to arrive releases the others' acquire below. */
		smp_store_release(&kwl.sense, *sense);
	} else {
		/* Pairs with the release above: the round's state is seen. */
		while (smp_load_acquire(&kwl.sense) != *sense)
			kwl_wait();
	}
}

static void kwl_reset(void)
{
	for (unsigned int i = 0; i < kwl.n; i++) {
		struct kwl_meet *m = &kwl.meet[i];
		int threads = kwl.test->threads;

		kwl.test->init(kwl_instance(i));
		atomic_set(&m->gate, 0);
		atomic_set(&m->turn, 0);
		/* A random order of the threads: Fisher-Yates. */
		for (int k = 0; k < threads; k++)
			m->rank[k] = k;
		for (int k = threads - 1; k > 0; k--) {
			int j = prandom_u32_state(&kwl.rnd) % (k + 1);

			swap(m->rank[k], m->rank[j]);
		}
	}
}

static void kwl_count(void)
{
	for (unsigned int i = 0; i < kwl.n; i++)
		kwl.weak += kwl.test->exists(kwl_instance(i));
	kwl.runs += kwl.n;
}

static void kwl_start(long id, int round, struct rnd_state *rnd)
{
	u32 spins;

	/* Thread 0 starts the round; the acquire pairs with its release. */
	if (id == 0)
		smp_store_release(&kwl.go, round);
	while (smp_load_acquire(&kwl.go) != round)
		kwl_wait();
	for (spins = prandom_u32_state(rnd) % (start_jitter + 1); spins; spins--)
		cpu_relax();
}

#ifdef KWC_EMULATE
/*
 * All meet, then each runs in its rank's turn: the layer does the rest.
 * Steered, they all run at once.
 */
static void kwl_meet(struct kwl_meet *m, long id)
{
	kwe_real_inc_return(&m->gate);
	while (kwe_real_read(&m->gate) < kwl.test->threads)
		kwl_wait();
	kwe_native(true);
	kwe_native(false);
	while (!kwl_steer && kwe_real_read(&m->turn) != m->rank[id])
		kwl_wait();
}

/* A barrier's site in a body, steered: a cut, or a wait for the others. */
static void kwl_site(void)
{
	struct kwe_thread *t;
	void *key = NULL;

	for (int i = 0; kwl_steer && i < KWL_THREADS; i++)
		if (kwl.task[i] == current)
			key = kwl.key[i];
	t = key ? kwe_self() : NULL;
	if (!t || t->native)
		return;
	kwe_pass(KWL_SITE, key);
	if (kwe_random(t, 2))
		kwe_cut(key, 1);
	else if (kwe_random(t, 2))
		kwe_await(KWL_SITE, key);
}

/*
 * Before the next thread's turn, each buffered store commits or not, at
 * random: a store buffer drains when it will, in any order where no
 * barrier orders it (smp_wmb() has emptied the buffer, so none here is
 * ordered against another).  The threads after it see some of them.
 */
static void kwl_leave(struct kwl_meet *m)
{
	struct kwe_thread *t = kwe_self();

	for (int i = 0; t && i < t->nr; i++)
		if (!t->buf[i].held && kwe_random(t, 2))
			kwe_commit(t, i--);
	kwe_real_inc_return(&m->turn);
}
#else
static void kwl_meet(struct kwl_meet *m, long id)
{
}

static void kwl_site(void)
{
}

static void kwl_leave(struct kwl_meet *m)
{
}
#endif

static int kwl_thread(void *arg)
{
	long id = (long)arg;
	unsigned long end = jiffies + kwl.jiffies;
	struct rnd_state rnd;
	int sense = 0, round = 0;
	bool more;

	prandom_seed_state(&rnd, get_random_u64() + id);
	kwl.task[id] = current;
	/* The harness runs on plain hardware: only the bodies are emulated. */
	kwe_native(true);
	do {
		kwl_sync(&sense);
		kwl_start(id, ++round, &rnd);
		for (unsigned int i = 0; i < kwl.n; i++) {
			kwl_meet(&kwl.meet[i], id);
			kwl.key[id] = kwl_instance(i);
			/* The start is a site too: a body may have no barrier. */
			kwl_site();
			kwl.test->p[id](kwl_instance(i));
			kwl.key[id] = NULL;
			kwl_leave(&kwl.meet[i]);
		}
		kwe_native(true);
		kwl_sync(&sense);
		if (id == 0) {
			kwl_count();
			kwl_reset();
			/* A "Never" test seen weak has failed: no need for more. */
			WRITE_ONCE(kwl.done, (time_after(jiffies, end) ||
					      (kwl.never && kwl.weak)) &&
				   round >= KWL_MIN_ROUNDS);
		}
		kwl_sync(&sense);
		more = !READ_ONCE(kwl.done);
	} while (more);
	/* Its slot back to the layer, then the real complete() (kw_calibrate.c). */
	kwe_thread_exit();
	(complete)(&kwl.finished[id]);
	return 0;
}

static int kwl_run(const struct kwl_test *test)
{
	struct task_struct *threads[KWL_THREADS];
	unsigned long start = jiffies;
	int ret = 0;
	long i;

	/* The layer first: the harness's own stores below go through it. */
	if (kwe_setup())
		return -ENOMEM;
	kwe_native(true);
	kwl.test = test;
	memset(kwl.task, 0, sizeof(kwl.task));
	memset(kwl.key, 0, sizeof(kwl.key));
	kwl.never = !strcmp(test->result, "Never");
	kwl.n = test->instances ? min_t(unsigned int, test->instances, instances) : instances;
	kwl.mem = kvcalloc(kwl.n, test->size, GFP_KERNEL);
	kwl.meet = kvcalloc(kwl.n, sizeof(*kwl.meet), GFP_KERNEL);
	kwl.runs = 0;
	kwl.weak = 0;
	kwl.ms = 0;
	kwl.done = false;
	kwl.sense = 0;
	kwl.go = 0;
	atomic_set(&kwl.arrived, 0);
	if (!kwl.mem || !kwl.meet) {
		ret = -ENOMEM;
		goto out_layer;
	}
	kwl_reset();
	for (i = 0; i < test->threads; i++) {
		init_completion(&kwl.finished[i]);
		threads[i] = kthread_create(kwl_thread, (void *)i, "kw_litmus/%ld", i);
		if (IS_ERR(threads[i])) {
			ret = PTR_ERR(threads[i]);
			/* Not woken yet: stopped before they run. */
			while (i--)
				kthread_stop(threads[i]);
			goto out_layer;
		}
		kthread_bind(threads[i], cpumask_nth(KWL_CPU(i), cpu_online_mask));
	}
	for (i = 0; i < test->threads; i++)
		wake_up_process(threads[i]);
	for (i = 0; i < test->threads; i++)
		wait_for_completion(&kwl.finished[i]);
	kwl.ms = jiffies_to_msecs(jiffies - start);
	if (kwe_emulation_lost())
		ret = -EBUSY;
out_layer:
	kwe_thread_exit();
	kwe_teardown();
	kvfree(kwl.mem);
	kvfree(kwl.meet);
	return ret;
}

/* Named by only=, or every test; steered, only the "Never" ones. */
static bool kwl_chosen(const struct kwl_test *t)
{
	if (*only)
		return !strcmp(only, t->name);
	return !kwl_steer || !strcmp(t->result, "Never");
}

/*
 * Whether "Never" test @t can fail here: some "Sometimes" test of its
 * shape showed its weak outcome (@weak_of, the figures so far), or none
 * is in the row to say.  If one ran and showed nothing, this machine
 * does not reorder that shape at all, and the fenced test only runs its
 * KWL_MIN_ROUNDS ("brief"): its share would be spent on no evidence.
 */
static bool kwl_can_fail(const struct kwl_test *tests, int n, const struct kwl_test *t,
			 const unsigned long *weak_of)
{
	bool has_sibling = false;

	for (int i = 0; i < n; i++) {
		/* A sibling that did not run here (steered: none do) says nothing. */
		if (tests[i].skip || !kwl_chosen(&tests[i]) ||
		    strcmp(tests[i].result, "Sometimes") || strcmp(tests[i].shape, t->shape))
			continue;
		if (weak_of[i])
			return true;
		has_sibling = true;
	}
	return !has_sibling;
}

#define KWL_BRIEF	"; brief: no Sometimes test of its shape showed its weak outcome here"

/* Run test @t, numbered @nr, and print its KTAP case; 1 if it failed. */
static int kwl_run_one(const struct kwl_test *t, int nr, bool brief)
{
	bool never = !strcmp(t->result, "Never");
	unsigned long share = kwl.jiffies;
	int ret;

	kwl.runs = 0;
	kwl.weak = 0;
	if (t->skip) {
		pr_info("    " KWL_FIGURES
			"mode=%s test=%s result=%s runs=0 weak=0 ms=0 skip=%s\n",
			KWL_MODE, t->name, *t->result ? t->result : KWL_NO_RESULT, t->skip);
		pr_info("    ok %d %s # SKIP %s\n", nr, t->name, t->skip);
		return 0;
	}
	if (brief)
		kwl.jiffies = 0;
	ret = kwl_run(t);
	kwl.jiffies = share;
	pr_info("    " KWL_FIGURES "mode=%s test=%s result=%s runs=%lu weak=%lu ms=%u%s\n",
		KWL_MODE, t->name, *t->result ? t->result : KWL_NO_RESULT, kwl.runs,
		kwl.weak, kwl.ms, brief ? " brief=1" : "");
	if (ret) {
		pr_info("    not ok %d %s # %s\n", nr, t->name,
			ret == -EBUSY ?
			"a thread ran outside the emulation: its slots were taken" :
			"no memory or no thread for it");
		return 1;
	}
	if (never && kwl.weak) {
		pr_info("    not ok %d %s # Never, yet %lu weak outcomes in %lu runs (%s)\n",
			nr, t->name, kwl.weak, kwl.runs, KWL_MODE_TEXT);
		return 1;
	}
	/* Nothing says what it should do: seen, never passed. */
	if (!*t->result) {
		pr_info("    ok %d %s # SKIP no expected result (no Result: line, no herd7 verdict or record): %lu weak in %lu runs (%s)\n",
			nr, t->name, kwl.weak, kwl.runs, KWL_MODE_TEXT);
		return 0;
	}
	pr_info("    ok %d %s # %s%s%s%s: %lu weak in %lu runs (%s)%s\n",
		nr, t->name, t->result, t->result_by ? " (" : "",
		t->result_by ? t->result_by : "", t->result_by ? ")" : "",
		kwl.weak, kwl.runs, KWL_MODE_TEXT, brief ? KWL_BRIEF : "");
	return 0;
}

/*
 * The "Never" tests after the others, so that the figures of the
 * "Sometimes" ones decide which can fail here (kwl_can_fail()); the KTAP
 * cases are numbered in the order they ran.  A test named by only= runs
 * its share whatever the others showed: a detector needs its time.
 */
static int kwl_run_all(const struct kwl_test *tests, int n)
{
	unsigned long *weak_of = kcalloc(n, sizeof(*weak_of), GFP_KERNEL);
	int ran = 0, failed = 0, listed = 0, nr = 0;

	if (!weak_of)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		bool chosen = kwl_chosen(&tests[i]);

		listed += chosen;
		ran += chosen && !tests[i].skip;
	}
	if (!listed) {
		pr_err("kw_litmus: no test is named %s\n", only);
		kfree(weak_of);
		return -EINVAL;
	}
	kwl.jiffies = max_t(unsigned long, 1, duration * HZ / max(ran, 1));
	prandom_seed_state(&kwl.rnd, get_random_u64());
	pr_info("    KTAP version 1\n");
	pr_info("    # Subtest: kw_litmus\n");
	pr_info("    1..%d\n", listed);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			const struct kwl_test *t = &tests[i];
			bool never = !strcmp(t->result, "Never");

			if (!kwl_chosen(t) || never != pass)
				continue;
			failed += kwl_run_one(t, ++nr, never && !*only &&
					      !kwl_can_fail(tests, n, t, weak_of));
			weak_of[i] = kwl.weak;
		}
	}
	pr_info("%sok 1 kw_litmus\n", failed ? "not " : "");
	kfree(weak_of);
	return 0;
}

/* The generated file ends with KWL_MODULE(its table). */
#define KWL_MODULE(table)					\
static int __init kwl_init(void)				\
{								\
	if (duration <= 0 || instances <= 0 || start_jitter < 0) { \
		pr_err("kw_litmus: needs duration > 0, instances > 0 and start_jitter >= 0\n"); \
		return -EINVAL;					\
	}							\
	return kwl_run_all(table, ARRAY_SIZE(table));		\
}								\
static void __exit kwl_exit(void)				\
{								\
}								\
module_init(kwl_init);						\
module_exit(kwl_exit)

#endif
