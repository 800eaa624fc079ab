/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's API for calibrate/kw_emu.h to compile on
 * the host, one thread at a time: tests/test_emu.c plays each kernel
 * thread in turn by setting current.  Nothing here is concurrent.
 */
#ifndef KWM_KERNEL_SHIM_H
#define KWM_KERNEL_SHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef struct { int counter; } atomic_t;
typedef struct { int locked; } raw_spinlock_t;
struct task_struct { int cpu; };
struct rnd_state { u64 s; };

extern struct task_struct *current;

#define __maybe_unused		__attribute__((unused))
#define NSEC_PER_USEC		1000ULL
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))
#define smp_mb()		__sync_synchronize()
#define smp_rmb()		__sync_synchronize()
#define smp_wmb()		__sync_synchronize()
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define cmpxchg(p, o, n)	__sync_val_compare_and_swap(p, o, n)
#define DEFINE_RAW_SPINLOCK(l)	raw_spinlock_t l
#define raw_spin_lock_irqsave(l, f)	((void)(l), (f) = 0)
#define raw_spin_unlock_irqrestore(l, f) ((void)(l), (void)(f))
#define preempt_disable()	do { } while (0)
#define preempt_enable()	do { } while (0)
#define preemptible()		1
#define udelay(us)		((void)(us))
#define usleep_range(a, b)	do { } while (0)
#define task_cpu(t)		((t)->cpu)
#define raw_smp_processor_id()	(current->cpu)
#define module_param(n, t, p)
#define MODULE_PARM_DESC(n, d)
#define pr_info(...)		printf(__VA_ARGS__)
#define vzalloc(n)		calloc(1, (n))
#define vfree(p)		free(p)

/* Functions, as in the kernel: kw_emu.h defines macros of these names. */
static inline int atomic_read(const atomic_t *v)
{
	return READ_ONCE(v->counter);
}

static inline void atomic_set(atomic_t *v, int i)
{
	WRITE_ONCE(v->counter, i);
}

static inline void atomic_inc(atomic_t *v)
{
	__sync_add_and_fetch(&v->counter, 1);
}

static inline int atomic_inc_return(atomic_t *v)
{
	return __sync_add_and_fetch(&v->counter, 1);
}

static inline u64 ktime_get_ns(void)
{
	static u64 now;

	return now += 1000;
}

static inline u32 prandom_u32_state(struct rnd_state *r)
{
	r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(r->s >> 33);
}

static inline void prandom_seed_state(struct rnd_state *r, u64 seed)
{
	r->s = seed;
}

static inline u64 get_random_u64(void)
{
	return 42;
}

static inline unsigned long hash_ptr(void *p, int bits)
{
	return ((uintptr_t)p * 0x61C8864680B583EBULL) >> (64 - bits);
}

#endif
