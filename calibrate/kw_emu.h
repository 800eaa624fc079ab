/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kw_emu: a weakly ordered machine, in software, for the code that
 * includes this header after every kernel header.
 *
 * QEMU on an x86 host reorders only a plain store with a later load, and
 * KCSAN's weak-memory mode only delays plain stores within a function.
 * This layer reorders what a weakly ordered CPU may, within what the
 * kernel's memory model allows, for the accesses it sees:
 *
 *  - a WRITE_ONCE() (and atomic_set(), the release stores) waits in its
 *    thread's store buffer and commits later, in any order with the
 *    thread's other buffered stores, unless a barrier orders them;
 *  - a READ_ONCE() (and atomic_read(), the acquire loads) returns the
 *    thread's own buffered store if it has one, else the location's
 *    current value or an older one from its history: any value still current after the thread's
 *    last read-ordering barrier and not older than what the thread read
 *    or wrote there before (coherence); a value written where the layer
 *    does not see it (an initial value, kzalloc(), a plain store) joins
 *    the history when the layer next touches the location, so a load may
 *    still return an initial value after another thread's first store;
 *  - smp_wmb() commits the buffer; smp_rmb() moves the thread's horizon
 *    to now; smp_mb() and every value-returning RMW do both;
 *    smp_load_acquire() moves the horizon after its load, and
 *    smp_store_release() commits the buffer before it buffers its store
 *    (and leaves the horizon: later loads may still be stale);
 *  - a non-value-returning RMW (atomic_inc()) is done at once, while the
 *    thread's buffered stores may still pass it;
 *  - everything the layer does not see counts as a full barrier: a spin
 *    lock, a wake-up, any call out of the instrumented code it wraps.  So
 *    the machine is never weaker than the memory model allows, only
 *    sometimes stronger (a lock is a full barrier here, an acquire there).
 *
 * Address dependencies are followed only where the code says so, with
 * kwe_depend_on() before an access through a value it loaded (the
 * litmus module marks every use of a register, kw_litmus.h's kwl_dep());
 * elsewhere a load through a pointer just loaded may see a stale value,
 * which the memory model forbids, so code relying on one unmarked must
 * not run under emulation.
 *
 * Windows are widened on purpose: a buffered store may wait up to
 * emu_max_age operations of its thread, and a thread about to drain its
 * buffer at a full barrier, or half way through a drain, stalls up to
 * emu_delay_us once in emu_stall_one_in, with (the rest of) its stores
 * still unseen, as a slow store buffer would; and it pauses as long
 * after a full barrier once in emu_pause_one_in, so that its next loads
 * may miss what others commit meanwhile.  emu_broken=wmb,
 * rmb or mb makes that barrier a no-op, to show that a test of the layer
 * can fail.
 *
 * Directed (emu_direct=<tag>, for the module that names its sites, as
 * kw_emu_subject.h does): at the site of a barrier, kwe_cut() holds the
 * stores the thread buffered so far until its next full barrier, where
 * they commit last, once others have loaded them (or emu_direct_us has
 * passed); its loads until then take the oldest value allowed; and
 * kwe_await() lets a thread wait, at a site, for another to pass a site.
 * Each is one of the executions the layer allows anyway, chosen every
 * time rather than once in a while, as OZZ's scheduling hints do.  A
 * thread that waits with stores buffered spins with preemption off: a
 * context switch would order them for the next task on its CPU.
 *
 * The anchors: OZZ's OEMU (SOSP 2024) delays stores and versions loads
 * in the kernel the same way; tsan11's rules bound which stale value a
 * load may return (the history after the last fence, coherence per
 * location).
 */
#ifndef KW_EMU_H
#define KW_EMU_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

static unsigned int emu_max_age = 32;
module_param(emu_max_age, uint, 0444);
MODULE_PARM_DESC(emu_max_age, "Most operations a store waits in its buffer");
static unsigned int emu_delay_us = 2;
module_param(emu_delay_us, uint, 0444);
MODULE_PARM_DESC(emu_delay_us, "Most microseconds a full barrier stalls before it drains");
static unsigned int emu_stall_one_in = 8;
module_param(emu_stall_one_in, uint, 0444);
MODULE_PARM_DESC(emu_stall_one_in, "A drain stalls once in this many (0: never)");
static unsigned int emu_pause_one_in;
module_param(emu_pause_one_in, uint, 0444);
MODULE_PARM_DESC(emu_pause_one_in, "A full barrier is followed by a pause once in this many (0: never)");
static char *emu_direct = "";
module_param(emu_direct, charp, 0444);
MODULE_PARM_DESC(emu_direct, "A barrier's tag, or each in turn: steer the threads to the reordering it forbids");
static unsigned int emu_direct_us = 20000;
module_param(emu_direct_us, uint, 0444);
MODULE_PARM_DESC(emu_direct_us, "Most microseconds a steered thread waits for another");
static char *emu_broken = "";
module_param(emu_broken, charp, 0444);
MODULE_PARM_DESC(emu_broken, "wmb, rmb or mb: make that barrier a no-op (a test of the tests)");

#define KWE_THREADS	16
#define KWE_BUFFER	8
#define KWE_SEEN	32
#define KWE_LOCS	8192	/* a power of two */
#define KWE_HISTORY	8

struct kwe_store {
	void *addr;
	u64 val;
	u32 born;		/* the thread's operation count then */
	u8 size;
	bool held;		/* kwe_cut(): commits last, at the next full barrier */
};

struct kwe_thread {
	struct task_struct *task;
	int nr;
	struct kwe_store buf[KWE_BUFFER];
	u64 horizon;		/* stale values must be current after this */
	struct {
		const void *addr;
		u64 seq;
	} seen[KWE_SEEN];
	int next_seen;
	u32 ops;
	bool native;		/* kwe_native(): plain hardware for now */
	bool oldest;		/* kwe_cut(): loads take the oldest value allowed */
	const void *cut_key;	/* kwe_cut()'s key, named when its window opens */
	u64 cut_pass;		/* kwe_pass_seq at kwe_cut() */
	const void *awaiting;	/* the key kwe_await() waits on, or NULL */
	unsigned int cut_loads;	/* others' loads of the held stores to wait for */
	struct rnd_state rnd;
};

/* One committed value: current from @from until @until (0: still is). */
struct kwe_value {
	u64 val, from, until;
};

struct kwe_loc {
	const void *addr;
	int n;
	struct kwe_value v[KWE_HISTORY];
};

/* The open window of a thread's held stores (kwe_window()): one at a time. */
static struct {
	struct kwe_thread *owner;
	int n;
	const void *addr[KWE_BUFFER];
	atomic_t loads;		/* by other threads, since it opened */
} kwe_win;

/* The last sites passed (kwe_pass()), newest at kwe_pass_seq. */
#define KWE_PASSES	32
static struct {
	u64 seq;
	const char *site;
	const void *key;
	struct task_struct *task;
} kwe_passes[KWE_PASSES];
static u64 kwe_pass_seq;

/* What the steering did, for the log: how often each wait was met. */
static struct {
	atomic_t awaits, awaits_met, windows, windows_met, partner_here;
} kwe_steered;

static struct kwe_thread kwe_threads[KWE_THREADS];
/* Operations done unemulated because every slot was taken: never silent. */
static atomic_t kwe_unslotted;
static struct kwe_loc *kwe_locs;
static DEFINE_RAW_SPINLOCK(kwe_lock);
static u64 kwe_seq;
static bool kwe_no_wmb, kwe_no_rmb, kwe_no_mb;

static int kwe_setup(void)
{
	kwe_no_wmb = !strcmp(emu_broken, "wmb");
	kwe_no_rmb = !strcmp(emu_broken, "rmb");
	kwe_no_mb = !strcmp(emu_broken, "mb");
	atomic_set(&kwe_unslotted, 0);
	kwe_locs = vzalloc(KWE_LOCS * sizeof(*kwe_locs));
	return kwe_locs ? 0 : -ENOMEM;
}

static void kwe_teardown(void)
{
	/* The driver reads this line: KWM_STEERING_FIGURES in include/kwm_protocol.h. */
	if (*emu_direct)
		pr_info("# kwe: steered=%s awaits=%d met=%d windows=%d met=%d partner_on_same_cpu=%d\n",
			emu_direct, atomic_read(&kwe_steered.awaits),
			atomic_read(&kwe_steered.awaits_met),
			atomic_read(&kwe_steered.windows),
			atomic_read(&kwe_steered.windows_met),
			atomic_read(&kwe_steered.partner_here));
	memset(&kwe_steered, 0, sizeof(kwe_steered));
	memset(kwe_passes, 0, sizeof(kwe_passes));
	memset(&kwe_win, 0, sizeof(kwe_win));
	vfree(kwe_locs);
	kwe_locs = NULL;
	memset(kwe_threads, 0, sizeof(kwe_threads));
}

/* The calling thread's machine state, or NULL: then nothing is buffered. */
static struct kwe_thread *kwe_self(void)
{
	for (int i = 0; i < KWE_THREADS; i++) {
		struct kwe_thread *t = &kwe_threads[i];
		struct task_struct *owner = READ_ONCE(t->task);

		if (owner == current)
			return t;
		if (!owner && !cmpxchg(&t->task, NULL, current)) {
			prandom_seed_state(&t->rnd, get_random_u64() + i);
			return t;
		}
	}
	atomic_inc(&kwe_unslotted);
	return NULL;
}

static u32 kwe_random(struct kwe_thread *t, u32 below)
{
	return below ? prandom_u32_state(&t->rnd) % below : 0;
}

static u64 kwe_read_mem(const void *addr, int size)
{
	switch (size) {
	case 1: return READ_ONCE(*(const u8 *)addr);
	case 2: return READ_ONCE(*(const u16 *)addr);
	case 4: return READ_ONCE(*(const u32 *)addr);
	default: return READ_ONCE(*(const u64 *)addr);
	}
}

static void kwe_write_mem(void *addr, u64 val, int size)
{
	switch (size) {
	case 1:
		WRITE_ONCE(*(u8 *)addr, val);
		break;
	case 2:
		WRITE_ONCE(*(u16 *)addr, val);
		break;
	case 4:
		WRITE_ONCE(*(u32 *)addr, val);
		break;
	default:
		WRITE_ONCE(*(u64 *)addr, val);
		break;
	}
}

/*
 * The history of @addr, made if @make; under kwe_lock.  NULL if full, or
 * before kwe_setup(): then memory alone holds the value.
 */
static struct kwe_loc *kwe_find(const void *addr, bool make)
{
	unsigned long h = hash_ptr((void *)addr, 32) & (KWE_LOCS - 1);

	for (int probe = 0; kwe_locs && probe < KWE_LOCS; probe++) {
		struct kwe_loc *l = &kwe_locs[(h + probe) & (KWE_LOCS - 1)];

		if (l->addr == addr)
			return l;
		if (!l->addr) {
			if (!make)
				return NULL;
			l->addr = addr;
			return l;
		}
	}
	return NULL;
}

/* What @t has read or written at @addr: its coherence point there. */
static u64 *kwe_seen(struct kwe_thread *t, const void *addr)
{
	int i = t->next_seen;

	for (int j = 0; j < KWE_SEEN; j++)
		if (t->seen[j].addr == addr)
			return &t->seen[j].seq;
	/* Forgetting a location is safe only if its point joins the horizon. */
	t->horizon = max(t->horizon, t->seen[i].seq);
	t->next_seen = (i + 1) % KWE_SEEN;
	t->seen[i].addr = addr;
	t->seen[i].seq = 0;
	return &t->seen[i].seq;
}

/*
 * Memory's value of @addr, made the newest of its history if the history
 * does not end with it; under kwe_lock.  Memory disagrees when code the
 * layer does not see wrote it (kzalloc(), init_kw_work(), a plain store),
 * or the layer never saw the location: the value is then its initial
 * one, or one whose place among the others is unknown.  What came before
 * it is forgotten, so no load can go back past it (coherence); what is
 * written after it may be missed in its favour, as an initial value may
 * be.  Returns the entry, or NULL where the table is full.
 */
static struct kwe_value *kwe_adopt(struct kwe_loc *l, const void *addr, int size)
{
	u64 val = kwe_read_mem(addr, size);

	if (!l)
		return NULL;
	if (!l->n || l->v[l->n - 1].val != val) {
		l->n = 1;
		l->v[0] = (struct kwe_value){ .val = val, .from = ++kwe_seq };
	}
	return &l->v[l->n - 1];
}

/* Make @val the current value of @addr, remembered; under kwe_lock. */
static u64 kwe_publish(void *addr, u64 val, int size)
{
	struct kwe_loc *l = kwe_find(addr, true);
	u64 seq;

	kwe_adopt(l, addr, size);
	seq = ++kwe_seq;
	if (l) {
		if (l->n == KWE_HISTORY) {
			memmove(&l->v[0], &l->v[1], sizeof(l->v[0]) * (KWE_HISTORY - 1));
			l->n--;
		}
		if (l->n)
			l->v[l->n - 1].until = seq;
		l->v[l->n++] = (struct kwe_value){ .val = val, .from = seq };
	}
	kwe_write_mem(addr, val, size);
	return seq;
}

static void kwe_commit(struct kwe_thread *t, int i)
{
	struct kwe_store s = t->buf[i];
	unsigned long flags;
	u64 seq;

	t->buf[i] = t->buf[--t->nr];
	raw_spin_lock_irqsave(&kwe_lock, flags);
	seq = kwe_publish(s.addr, s.val, s.size);
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
	*kwe_seen(t, s.addr) = seq;
}

/* Once in @one_in, the thread waits up to emu_delay_us. */
static void kwe_pause(struct kwe_thread *t, unsigned int one_in)
{
	if (emu_delay_us && one_in && !kwe_random(t, one_in))
		udelay(kwe_random(t, emu_delay_us + 1));
}

/* A slow store buffer: the thread waits with its stores unseen. */
static void kwe_stall(struct kwe_thread *t)
{
	if (t->nr)
		kwe_pause(t, emu_stall_one_in);
}

/*
 * Every buffered store, in an order of the layer's choosing, and now and
 * then slowly: the others see some of them for a while, not all.
 */
static void kwe_drain(struct kwe_thread *t)
{
	while (t->nr) {
		kwe_commit(t, kwe_random(t, t->nr));
		kwe_stall(t);
	}
}

/* One more operation of @t: stores that waited long enough commit. */
static void kwe_tick(struct kwe_thread *t)
{
	t->ops++;
	for (int i = 0; i < t->nr; i++)
		if (t->ops - t->buf[i].born > emu_max_age && !t->buf[i].held)
			kwe_commit(t, i--);
}

/*
 * Spin until @cond, or emu_direct_us: busy, so that the caller may hold
 * a lock or have preemption off.  Whether @cond came true.
 */
#define kwe_spin_until(cond)						\
({									\
	u64 __end = ktime_get_ns() + (u64)emu_direct_us * NSEC_PER_USEC;	\
	bool __met;							\
									\
	while (!(__met = (cond)) && ktime_get_ns() < __end)		\
		udelay(1);						\
	__met;								\
})

static void kwe_pass(const char *site, const void *key)
{
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&kwe_lock, flags);
	i = kwe_pass_seq++ % KWE_PASSES;
	kwe_passes[i].site = site;
	kwe_passes[i].key = key;
	kwe_passes[i].task = current;
	smp_store_release(&kwe_passes[i].seq, kwe_pass_seq);
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
}

/* Whether a thread passed @site with @key after pass number @since. */
static bool kwe_passed(const char *site, const void *key, u64 since)
{
	for (int i = 0; i < KWE_PASSES; i++) {
		u64 seq = smp_load_acquire(&kwe_passes[i].seq);

		if (seq > since && kwe_passes[i].key == key &&
		    kwe_passes[i].site && !strcmp(kwe_passes[i].site, site) &&
		    READ_ONCE(kwe_passes[i].seq) == seq)
			return true;
	}
	return false;
}

/* As kwe_spin_until(), asleep between looks: for a thread that holds nothing. */
#define kwe_sleep_until(cond)						\
({									\
	u64 __end = ktime_get_ns() + (u64)emu_direct_us * NSEC_PER_USEC;	\
	bool __met;							\
									\
	while (!(__met = (cond)) && ktime_get_ns() < __end)		\
		usleep_range(2, 5);					\
	__met;								\
})

/*
 * Whether the thread other than the caller that last passed a site with
 * @key is on the caller's CPU: then it cannot come while the caller
 * spins, and the caller does not wait for it.
 */
static bool kwe_partner_here(const void *key)
{
	struct task_struct *partner = NULL;
	u64 last = 0;

	for (int i = 0; i < KWE_PASSES; i++) {
		u64 seq = smp_load_acquire(&kwe_passes[i].seq);

		if (seq > last && kwe_passes[i].key == key &&
		    kwe_passes[i].task != current) {
			last = seq;
			partner = READ_ONCE(kwe_passes[i].task);
		}
	}
	if (partner && task_cpu(partner) == raw_smp_processor_id()) {
		atomic_inc(&kwe_steered.partner_here);
		return true;
	}
	return false;
}

/* Whether a thread other than @t waits, in kwe_await(), on @key. */
static bool kwe_waited_on(const struct kwe_thread *t, const void *key)
{
	for (int i = 0; i < KWE_THREADS; i++)
		if (&kwe_threads[i] != t && READ_ONCE(kwe_threads[i].awaiting) == key)
			return true;
	return false;
}

/* Whether a thread other than the caller passed a site with @key after @since. */
static bool kwe_passed_by_other(const void *key, u64 since)
{
	for (int i = 0; i < KWE_PASSES; i++)
		if (smp_load_acquire(&kwe_passes[i].seq) > since &&
		    kwe_passes[i].key == key && kwe_passes[i].task != current)
			return true;
	return false;
}

static bool kwe_holds(const struct kwe_thread *t)
{
	for (int i = 0; t && i < t->nr; i++)
		if (t->buf[i].held)
			return true;
	return false;
}

/*
 * Wait until another thread passes @site with @key, up to emu_direct_us:
 * only timing, which any run may have.  A thread that holds stores for a
 * cut spins with preemption off, and only while another thread waits on
 * @key from another CPU; any other lets its stores go and sleeps between
 * looks.
 */
static bool __maybe_unused kwe_await(const char *site, const void *key)
{
	struct kwe_thread *t = kwe_self();
	u64 since = READ_ONCE(kwe_pass_seq);
	bool met = false;

	if (!t || t->native)
		return false;
	atomic_inc(&kwe_steered.awaits);
	if (!kwe_holds(t) && preemptible()) {
		kwe_drain(t);
		WRITE_ONCE(t->awaiting, key);
		met = kwe_sleep_until(kwe_passed(site, key, since));
		WRITE_ONCE(t->awaiting, NULL);
	} else {
		preempt_disable();
		if (kwe_waited_on(t, key) && !kwe_partner_here(key))
			met = kwe_spin_until(kwe_passed(site, key, since));
		preempt_enable();
	}
	if (met)
		atomic_inc(&kwe_steered.awaits_met);
	return met;
}

/*
 * Wait, with stores buffered and preemption off, until another thread
 * passes @site with @key, up to emu_direct_us: first the newest store
 * commits alone, and the older ones stay unseen meanwhile, as a store
 * buffer that drains out of order leaves them.  Only where another
 * thread, on another CPU, lately passed a site with @key: one that
 * polls the location the newest store writes.
 */
static bool __maybe_unused kwe_commit_newest_await(const char *site,
						   const void *key)
{
	struct kwe_thread *t = kwe_self();
	u64 since = READ_ONCE(kwe_pass_seq);
	bool met = false;
	int newest = 0;

	if (!t || t->native || !t->nr)
		return false;
	for (int i = 1; i < t->nr; i++)
		if (t->buf[i].born > t->buf[newest].born)
			newest = i;
	atomic_inc(&kwe_steered.awaits);
	preempt_disable();
	kwe_commit(t, newest);
	if (kwe_passed_by_other(key, since > KWE_PASSES ? since - KWE_PASSES : 0) &&
	    !kwe_partner_here(key))
		met = kwe_spin_until(kwe_passed(site, key, since));
	preempt_enable();
	if (met)
		atomic_inc(&kwe_steered.awaits_met);
	return met;
}

/*
 * The site of a barrier that is not there (or is: the control): the
 * stores buffered so far are held to the next full barrier, and loads
 * take the oldest value allowed until a barrier moves the horizon.  At
 * that full barrier, they commit once @loads loads of theirs by other
 * threads are done; the window is named @key.
 */
static void __maybe_unused kwe_cut(const void *key, unsigned int loads)
{
	struct kwe_thread *t = kwe_self();

	if (!t || t->native)
		return;
	for (int i = 0; i < t->nr; i++)
		t->buf[i].held = true;
	t->oldest = true;
	t->cut_key = key;
	t->cut_loads = loads;
	t->cut_pass = READ_ONCE(kwe_pass_seq);
}

/* A load of @addr by @t: counted if another thread's window holds it. */
static void kwe_window_load(struct kwe_thread *t, const void *addr)
{
	struct kwe_thread *owner = READ_ONCE(kwe_win.owner);

	if (!owner || owner == t)
		return;
	for (int i = 0; i < READ_ONCE(kwe_win.n) && i < KWE_BUFFER; i++)
		if (READ_ONCE(kwe_win.addr[i]) == addr) {
			atomic_inc(&kwe_win.loads);
			return;
		}
}

/* The site of a passed window, for kwe_await(). */
#define KWE_WINDOW	"window"

/*
 * At a full barrier after kwe_cut(): the stores after the cut commit
 * first (the removed barrier would have kept them last), then the held
 * ones wait, unseen, for others' loads of them; then all commit.  With
 * preemption off from here to the end of the drain.
 */
static void kwe_window(struct kwe_thread *t)
{
	unsigned long flags;
	bool open = false;
	int i;

	for (i = 0; i < t->nr; i++)
		if (!t->buf[i].held)
			kwe_commit(t, i--);
	preempt_disable();
	raw_spin_lock_irqsave(&kwe_lock, flags);
	if (!kwe_win.owner && t->nr) {
		for (i = 0; i < t->nr; i++)
			kwe_win.addr[i] = t->buf[i].addr;
		kwe_win.n = t->nr;
		atomic_set(&kwe_win.loads, 0);
		WRITE_ONCE(kwe_win.owner, t);
		open = true;
	}
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
	if (open) {
		kwe_pass(KWE_WINDOW, t->cut_key);
		atomic_inc(&kwe_steered.windows);
		/* Only for a partner: one waiting, or one met since the cut. */
		if ((kwe_waited_on(t, t->cut_key) ||
		     kwe_passed_by_other(t->cut_key, t->cut_pass)) &&
		    !kwe_partner_here(t->cut_key) &&
		    kwe_spin_until(atomic_read(&kwe_win.loads) >= (int)t->cut_loads))
			atomic_inc(&kwe_steered.windows_met);
		WRITE_ONCE(kwe_win.owner, NULL);
	}
	kwe_drain(t);
	preempt_enable();
}

static void kwe_fence_full(void)
{
	struct kwe_thread *t = kwe_self();
	unsigned long flags;

	if (!t || t->native) {
		smp_mb();
		return;
	}
	/* A slow store buffer: the thread stalls with its stores unseen. */
	kwe_stall(t);
	for (int i = 0; i < t->nr; i++)
		if (t->buf[i].held) {
			kwe_window(t);
			break;
		}
	kwe_drain(t);
	t->oldest = false;
	raw_spin_lock_irqsave(&kwe_lock, flags);
	t->horizon = kwe_seq;
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
	/*
	 * And a slow thread after it: what others commit meanwhile is newer
	 * than the horizon, so the loads that follow may miss some of it.
	 * Rarely: a pause here also lets a racing writer finish.
	 */
	kwe_pause(t, emu_pause_one_in);
}

static void kwe_fence_wmb(void)
{
	struct kwe_thread *t = kwe_self();

	if (t && !t->native)
		kwe_drain(t);
	else
		smp_wmb();
}

/*
 * Before a release store: the buffer commits first.  Later loads are not
 * held back (a release is one-way), so the horizon stays where it is;
 * earlier ones were done where they stand.
 */
static void __maybe_unused kwe_fence_release(void)
{
	struct kwe_thread *t = kwe_self();

	if (t && !t->native)
		kwe_drain(t);
	else
		smp_mb();
}

static void kwe_fence_rmb(void)
{
	struct kwe_thread *t = kwe_self();
	unsigned long flags;

	if (!t || t->native) {
		smp_rmb();
		return;
	}
	t->oldest = false;
	raw_spin_lock_irqsave(&kwe_lock, flags);
	t->horizon = kwe_seq;
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
}

/*
 * An address dependency: an access through a value the thread loaded.
 * It cannot return what was overwritten before that value was written;
 * the layer keeps no record of which load gave which value (a value may
 * repeat, and a record be forgotten), so it orders as smp_rmb() does:
 * the horizon moves to now.  More than the memory model asks, never less.
 */
static void __maybe_unused kwe_depend_on(void)
{
	kwe_fence_rmb();
}

/* Whether some operation ran outside the layer: every slot was taken. */
static bool __maybe_unused kwe_emulation_lost(void)
{
	return atomic_read(&kwe_unslotted) != 0;
}

/*
 * The calling thread runs on plain hardware until kwe_native(false):
 * for a harness's own synchronisation, which is not under test and must
 * not crawl through the layer's lock.  Its stores are still recorded, so
 * the history stays true to memory.
 */
static void __maybe_unused kwe_native(bool on)
{
	struct kwe_thread *t = kwe_self();
	unsigned long flags;

	if (!t)
		return;
	kwe_drain(t);
	t->native = on;
	raw_spin_lock_irqsave(&kwe_lock, flags);
	t->horizon = kwe_seq;
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
	smp_mb();
}

/*
 * The calling thread is done with the layer: its stores commit and its
 * slot is free for the next thread.  A thread that never says so keeps
 * its slot, and once all are taken new threads run unemulated (counted
 * in kwe_unslotted).  After it, the thread must call nothing the layer
 * wraps (complete(), wake_up_process(), a lock): that would take a slot
 * again, for good.
 */
static void __maybe_unused kwe_thread_exit(void)
{
	struct kwe_thread *t = kwe_self();

	if (!t)
		return;
	kwe_drain(t);
	/* @task comes first: the rest is cleared while the slot is still ours. */
	BUILD_BUG_ON(offsetof(struct kwe_thread, task));
	memset((char *)t + sizeof(t->task), 0, sizeof(*t) - sizeof(t->task));
	smp_store_release(&t->task, NULL);
}

static void kwe_store(void *addr, u64 val, int size)
{
	struct kwe_thread *t = kwe_self();
	unsigned long flags;
	bool held;
	int i;

	if (!t || t->native) {
		raw_spin_lock_irqsave(&kwe_lock, flags);
		kwe_publish(addr, val, size);
		raw_spin_unlock_irqrestore(&kwe_lock, flags);
		return;
	}
	kwe_tick(t);
	/* A newer store to a buffered location takes its place. */
	for (i = 0; i < t->nr && t->buf[i].addr != addr; i++)
		;
	if (i == t->nr && t->nr == KWE_BUFFER)
		kwe_commit(t, kwe_random(t, t->nr));
	/* A newer store to a held location is held as well, not after it. */
	held = i < t->nr && t->buf[i].held;
	if (i >= t->nr)
		i = t->nr++;
	t->buf[i] = (struct kwe_store){ .addr = addr, .val = val, .size = size,
					.born = t->ops, .held = held };
	/*
	 * Now and then a store leaves early, ahead of older ones; not when
	 * steered, where a store stays for the window it is steered to.
	 */
	if (!*emu_direct && !kwe_random(t, 4))
		kwe_commit(t, kwe_random(t, t->nr));
}

static u64 kwe_load(const void *addr, int size)
{
	struct kwe_thread *t = kwe_self();
	struct kwe_value *pick = NULL;
	struct kwe_loc *l;
	unsigned long flags;
	u64 val, *seen, floor;
	int stale = 0;

	if (!t || t->native) {
		val = kwe_read_mem(addr, size);
		smp_rmb();	/* as an acquire: the harness waits on these */
		return val;
	}
	kwe_tick(t);
	for (int i = t->nr - 1; i >= 0; i--)
		if (t->buf[i].addr == addr)
			return t->buf[i].val;
	seen = kwe_seen(t, addr);
	floor = max(t->horizon, *seen);
	raw_spin_lock_irqsave(&kwe_lock, flags);
	l = kwe_find(addr, true);
	/* What others wrote unseen since becomes the newest value. */
	if (kwe_adopt(l, addr, size)) {
		for (int i = 0; i < l->n - 1; i++)
			stale += l->v[i].until > floor;
		/*
		 * Half the time the current value, else a stale one at random;
		 * after kwe_cut(), the oldest one allowed.
		 */
		if (stale && (t->oldest || kwe_random(t, 2))) {
			int k = t->oldest ? 0 : kwe_random(t, stale);

			for (int i = 0; i < l->n - 1; i++)
				if (l->v[i].until > floor && !k--)
					pick = &l->v[i];
		} else {
			pick = &l->v[l->n - 1];
		}
		val = pick->val;
		*seen = max(*seen, pick->from);
	} else {
		/* No room to remember it: memory's value, and nothing older. */
		val = kwe_read_mem(addr, size);
		t->horizon = max(t->horizon, kwe_seq);
	}
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
	kwe_window_load(t, addr);
	return val;
}

/*
 * The barriers the instrumented code names; emu_broken breaks only these,
 * never those inside the layer's locks, RMWs and acquire/release.
 */
static void __maybe_unused kwe_smp_mb(void)
{
	if (!kwe_no_mb)
		kwe_fence_full();
}

static void __maybe_unused kwe_smp_wmb(void)
{
	if (!kwe_no_wmb)
		kwe_fence_wmb();
}

static void __maybe_unused kwe_smp_rmb(void)
{
	if (!kwe_no_rmb)
		kwe_fence_rmb();
}

/*
 * An RMW, done at once: adds @i unless the value is @unless (when
 * @conditional); a buffered store to the same place goes first.  Returns
 * the old value.
 */
static int kwe_atomic_rmw(atomic_t *v, int i, bool conditional, int unless,
			  bool fenced)
{
	struct kwe_thread *t = kwe_self();
	unsigned long flags;
	u64 seq = 0;
	int old;

	if (fenced)
		kwe_fence_full();
	for (int j = 0; t && j < t->nr; j++)
		if (t->buf[j].addr == &v->counter)
			kwe_commit(t, j--);
	raw_spin_lock_irqsave(&kwe_lock, flags);
	old = (int)kwe_read_mem(&v->counter, sizeof(v->counter));
	if (!conditional || old != unless)
		seq = kwe_publish(&v->counter, (u32)(old + i), sizeof(v->counter));
	raw_spin_unlock_irqrestore(&kwe_lock, flags);
	if (t && seq)
		*kwe_seen(t, &v->counter) = seq;
	if (fenced)
		kwe_fence_full();
	return old;
}

static int __maybe_unused kwe_atomic_add_return(int i, atomic_t *v, bool fenced)
{
	return kwe_atomic_rmw(v, i, false, 0, fenced) + i;
}

/* Fenced either way: stronger than the model asks of a failed one, never weaker. */
static int __maybe_unused kwe_atomic_add_unless(atomic_t *v, int i, int unless)
{
	return kwe_atomic_rmw(v, i, true, unless, true) != unless;
}

/* The real ones, for a harness that must meet its partner on hardware. */
static inline int kwe_real_inc_return(atomic_t *v)
{
	return atomic_inc_return(v);
}

static inline int kwe_real_read(const atomic_t *v)
{
	return atomic_read(v);
}

/* From here on, the instrumented code's primitives are the layer's. */
#undef READ_ONCE
#define READ_ONCE(x)							\
	((typeof(x))(uintptr_t)kwe_load((const void *)&(x), sizeof(x)))
#undef WRITE_ONCE
#define WRITE_ONCE(x, val)						\
	kwe_store((void *)&(x), (u64)(uintptr_t)(val), sizeof(x))
#undef smp_mb
#define smp_mb()		kwe_smp_mb()
#undef smp_wmb
#define smp_wmb()		kwe_smp_wmb()
#undef smp_rmb
#define smp_rmb()		kwe_smp_rmb()
#undef smp_mb__before_atomic
#define smp_mb__before_atomic()	kwe_smp_mb()
#undef smp_mb__after_atomic
#define smp_mb__after_atomic()	kwe_smp_mb()
#undef smp_store_release
#define smp_store_release(p, v)	do { kwe_fence_release(); WRITE_ONCE(*(p), v); } while (0)
#undef smp_load_acquire
#define smp_load_acquire(p)	({ typeof(*(p)) __v = READ_ONCE(*(p)); kwe_fence_rmb(); __v; })
#define atomic_read(v)		((int)READ_ONCE((v)->counter))
#define atomic_read_acquire(v)	((int)smp_load_acquire(&(v)->counter))
#define atomic_set_release(v, i) smp_store_release(&(v)->counter, (i))
#define atomic_set(v, i)	WRITE_ONCE((v)->counter, (i))
#define atomic_inc(v)		((void)kwe_atomic_add_return(1, (v), false))
#define atomic_dec(v)		((void)kwe_atomic_add_return(-1, (v), false))
#define atomic_inc_return(v)	kwe_atomic_add_return(1, (v), true)
#define atomic_dec_return(v)	kwe_atomic_add_return(-1, (v), true)
#undef atomic_add_unless
#define atomic_add_unless(v, i, u) kwe_atomic_add_unless((v), (i), (u))
/* Calls out of the instrumented code: full barriers on both sides. */
#undef spin_lock_irqsave
#define spin_lock_irqsave(l, f)						\
	do { kwe_fence_full(); raw_spin_lock_irqsave(spinlock_check(l), f); kwe_fence_full(); } while (0)
#define spin_unlock_irqrestore(l, f)					\
	do { kwe_fence_full(); (spin_unlock_irqrestore)(l, f); kwe_fence_full(); } while (0)
#define wake_up_process(p)	({ kwe_fence_full(); (wake_up_process)(p); })
#define complete(c)		do { kwe_fence_full(); (complete)(c); } while (0)

#endif
