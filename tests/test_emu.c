// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate/kw_emu.h on the host, through tests/emu_shim: the weakly
 * ordered machine's rules for what a load may return, checked one thread
 * at a time (the test plays each kernel thread by setting current).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kw_emu.h"

struct task_struct *current;
static struct task_struct writer = { .cpu = 0 }, reader = { .cpu = 1 };
static u32 x;

static void as(struct task_struct *t)
{
	current = t;
}

/* The reader's next loads take the oldest value allowed, as a cut does. */
static void oldest_from_now(void)
{
	kwe_cut(&x, 0);
}

static int setup(void **state)
{
	(void)state;
	return kwe_setup();
}

static int teardown(void **state)
{
	(void)state;
	kwe_teardown();
	return 0;
}

/*
 * An initial value, which the layer never saw written, is still there to
 * be read after another thread's first store, as the memory model allows
 * to a reader that nothing orders after that store; once a read barrier
 * does, it is gone.
 */
static void an_initial_value_is_readable_as_stale(void **state)
{
	(void)state;
	x = 0;
	as(&reader);
	kwe_fence_rmb();
	as(&writer);
	WRITE_ONCE(x, 1);
	kwe_fence_full();
	as(&reader);
	oldest_from_now();
	assert_int_equal(READ_ONCE(x), 0);
	kwe_fence_rmb();
	assert_int_equal(READ_ONCE(x), 1);
}

/*
 * A write the layer did not see (a plain store, kzalloc(), an init) is
 * the newest value once read: a later load of the same thread never goes
 * back past it to a value the layer saw before it (CoRR).
 */
static void coherence_holds_across_an_unseen_write(void **state)
{
	(void)state;
	as(&writer);
	WRITE_ONCE(x, 1);
	kwe_fence_full();
	x = 2;
	as(&reader);
	kwe_fence_rmb();
	assert_int_equal(READ_ONCE(x), 2);
	as(&writer);
	WRITE_ONCE(x, 3);
	kwe_fence_full();
	as(&reader);
	oldest_from_now();
	assert_int_equal(READ_ONCE(x), 2);
}

/*
 * MP with an address dependency on the reader's side: once the reader
 * has loaded the pointer the writer published after its data, an access
 * through that pointer (kwe_depend_on()) cannot return the data's old
 * value.  Without it, the oldest value allowed is the old one: what the
 * dependency is there to forbid.
 */
#define ROUNDS	64
static u32 data[ROUNDS];
static u32 *ptr[ROUNDS];

static int mp_through_a_loaded_pointer(bool depend)
{
	int stale = 0, seen = 0;

	for (int i = 0; i < ROUNDS; i++) {
		u32 *r1;

		/* Plain stores, unseen: each round starts from these. */
		data[i] = 0;
		ptr[i] = NULL;
		as(&reader);
		kwe_fence_rmb();
		as(&writer);
		WRITE_ONCE(data[i], 1);
		kwe_fence_wmb();
		WRITE_ONCE(ptr[i], &data[i]);
		kwe_fence_full();
		as(&reader);
		r1 = READ_ONCE(ptr[i]);
		if (r1 != &data[i])
			continue;
		seen++;
		oldest_from_now();
		if (depend)
			kwe_depend_on();
		stale += READ_ONCE(*r1) == 0;
		kwe_fence_rmb();
	}
	assert_true(seen > 0);
	return stale;
}

static void a_dependency_orders_the_access_through_a_loaded_pointer(void **state)
{
	(void)state;
	assert_int_equal(mp_through_a_loaded_pointer(true), 0);
	/* The test can fail: without the dependency, the old data shows. */
	assert_true(mp_through_a_loaded_pointer(false) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(an_initial_value_is_readable_as_stale,
						setup, teardown),
		cmocka_unit_test_setup_teardown(coherence_holds_across_an_unseen_write,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_dependency_orders_the_access_through_a_loaded_pointer,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
