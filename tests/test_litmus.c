// SPDX-License-Identifier: GPL-2.0
/* .litmus files to a module's C, and the module's figures back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "litmus.h"
#include "parse.h"
#include "util.h"

static const char sb[] =
	"C SB+fencembonceonces\n\n"
	"(*\n * Result: Never\n *\n * Store buffering, fenced.\n *)\n\n"
	"{}\n\n"
	"P0(int *x, int *y)\n{\n\tint r0;\n\n\tWRITE_ONCE(*x, 1);\n\tsmp_mb();\n"
	"\tr0 = READ_ONCE(*y);\n}\n\n"
	"P1(int *x, int *y) // the other side\n{\n\tint r0;\n\n\tWRITE_ONCE(*y, 1);\n"
	"\tsmp_mb();\n\tr0 = READ_ONCE(*x);\n}\n\n"
	"exists (0:r0=0 /\\ 1:r0=0) (* Bad outcome. *)\n";

static void parse_ok(const char *text, struct litmus_test *t)
{
	char *error = NULL;

	assert_int_equal(litmus_parse("t.litmus", text, t, &error), 0);
	assert_null(error);
}

static void store_buffering_parses(void **state)
{
	struct litmus_test t;

	(void)state;
	parse_ok(sb, &t);
	assert_string_equal(t.name, "SB+fencembonceonces");
	assert_string_equal(t.result, "Never");
	assert_int_equal(t.nr_threads, 2);
	assert_int_equal(t.nr_vars, 2);
	assert_int_equal(t.threads[1].nr_regs, 1);
	assert_string_equal(t.threads[1].regs[0].name, "r0");
	/* Each thread's r0 is its own slot. */
	assert_string_equal(t.exists, "(kwl_in->kwl_out[0] == 0 && kwl_in->kwl_out[1] == 0)");
	assert_null(t.skip);
	assert_null(t.skip_emulated);
	litmus_test_free(&t);
}

static void initial_state_and_variables_in_exists(void **state)
{
	static const char text[] =
		"C init\n\n{\n\tint x = 1;\n\tint *y = &x;\n\tatomic_t v = ATOMIC_INIT(2);\n\tz=x;\n}\n\n"
		"P0(int *x, int **y, atomic_t *v)\n{\n\tint *r0;\n\n\tr0 = READ_ONCE(*y);\n}\n\n"
		"exists (0:r0=x /\\ v=2 /\\ x=1)\n";
	struct litmus_test t;
	char *c;

	(void)state;
	parse_ok(text, &t);
	assert_null(t.skip);
	assert_int_equal(t.nr_vars, 4);
	assert_string_equal(t.vars[1].type, "int *");
	assert_string_equal(t.vars[1].init, "&kwl_in->x");
	assert_string_equal(t.vars[2].init, "2");
	assert_true(t.threads[0].regs[0].pointer);
	assert_non_null(strstr(t.exists, "kwl_in->kwl_out[0] == (long)(uintptr_t)&kwl_in->x"));
	assert_non_null(strstr(t.exists, "(long)kwl_in->v.counter == 2"));
	c = litmus_module_source(&t, 1);
	/* The module groups tests by shape as the judge does. */
	assert_non_null(strstr(c, ".shape = \"" ));
	assert_non_null(strstr(c, "atomic_set(&kwl_in->v, 2);"));
	assert_non_null(strstr(c, "WRITE_ONCE(kwl_in->y, &kwl_in->x);"));
	assert_non_null(strstr(c, "int **y __maybe_unused = &kwl_in->y;"));
	assert_non_null(strstr(c, "kwl_in->kwl_out[0] = (long)(uintptr_t)r0;"));
	free(c);
	litmus_test_free(&t);
}

/* What the module cannot run is skipped, and says why; never passed. */
static void unknown_primitive_is_skipped_with_its_name(void **state)
{
	struct litmus_test t;
	char *text = xstrdup(sb), *c;

	(void)state;
	memcpy(strstr(text, "smp_mb();"), "frob_x();", 9);
	parse_ok(text, &t);
	assert_non_null(t.skip);
	assert_non_null(strstr(t.skip, "frob_x()"));
	c = litmus_module_source(&t, 1);
	/* No body: only its row, with the reason. */
	assert_null(strstr(c, "kwl_t0_p0"));
	assert_non_null(strstr(c, ".skip = \"uses frob_x()"));
	free(c);
	litmus_test_free(&t);
	free(text);
}

/* An address dependency runs natively, never on the emulated machine. */
static void dependency_is_native_only(void **state)
{
	static const char text[] =
		"C dep\n\n(* Result: Never *)\n\n{ y=z; }\n\n"
		"P0(int *x, int **y)\n{\n\tWRITE_ONCE(*x, 1);\n\trcu_assign_pointer(*y, x);\n}\n\n"
		"P1(int *x, int **y)\n{\n\tint *r0;\n\tint r1;\n\n\trcu_read_lock();\n"
		"\tr0 = rcu_dereference(*y);\n\tr1 = READ_ONCE(*r0);\n\trcu_read_unlock();\n}\n\n"
		"exists (1:r0=x /\\ 1:r1=0)\n";
	struct litmus_test t;
	char *c;

	(void)state;
	parse_ok(text, &t);
	assert_null(t.skip);
	assert_non_null(t.skip_emulated);
	assert_non_null(strstr(t.skip_emulated, "address dependency"));
	c = litmus_module_source(&t, 1);
	assert_non_null(strstr(c, "#ifndef KWC_EMULATE\nstruct kwl_t0"));
	assert_non_null(strstr(c, "#ifdef KWC_EMULATE\n\t\t.skip = \"rcu_dereference()"));
	free(c);
	litmus_test_free(&t);
}

/* A shape is the name's first part; "2+2W" is one shape, not "2". */
static void shapes_group_tests_by_name(void **state)
{
	(void)state;
	assert_int_equal(litmus_shape_len("SB+fencembonceonces"), 2);
	assert_int_equal(litmus_shape_len("2+2W+poonceonces"), 4);
	assert_int_equal(litmus_shape_len("Z6.0+pooncelock+pooncelock+pombonce"), 4);
	assert_int_equal(litmus_shape_len("flush-b0+worker-b1"), 8);
	assert_int_equal(litmus_shape_len("no-flush-b0"), 11);
}

static void malformed_files_are_errors(void **state)
{
	static const char *const bad[] = {
		"X86 SB\n{}\nP0 | P1 ;\n",
		"C no-state\nP0(int *x)\n{\n}\nexists (x=1)\n",
		"C no-exists\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n",
		"C unclosed\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct litmus_test t;
		char *error = NULL;

		assert_int_equal(litmus_parse("bad.litmus", bad[i], &t, &error), -1);
		assert_non_null(error);
		assert_non_null(strstr(error, "bad.litmus"));
		free(error);
		litmus_test_free(&t);
	}
}

/* Only the named suite's figures: a detector's broken machine is not the table's. */
static void figures_come_from_their_suite_only(void **state)
{
	static const char log[] =
		"# kwm-suite: litmus\r\n"
		"    # kwl: mode=native test=SB result=Sometimes runs=4096 weak=3 ms=220\n"
		"    # kwl: mode=native test=D result=Never runs=0 weak=0 ms=0 skip=uses x(), which\n"
		"# kwm-suite-end: litmus\n"
		"# kwm-suite: litmus-emu\n"
		"    # kwl: mode=emulated test=SB result=Sometimes runs=512 weak=260 ms=3000\r\n"
		"# kwm-suite-end: litmus-emu\n"
		"# kwm-suite: detector-litmus-emu-no-mb\n"
		"    # kwl: mode=emulated test=SB+mbs result=Never runs=512 weak=400 ms=10\n"
		"# kwm-suite-end: detector-litmus-emu-no-mb\n";
	struct litmus_row *rows = NULL;
	int n = 0;

	(void)state;
	n = parse_litmus(log, "litmus", &rows, n);
	n = parse_litmus(log, "litmus-emu", &rows, n);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].test, "SB");
	assert_int_equal(rows[0].side[LITMUS_NATIVE].weak, 3);
	assert_int_equal(rows[0].side[LITMUS_EMULATED].weak, 260);
	assert_int_equal(rows[0].side[LITMUS_EMULATED].ms, 3000);
	assert_string_equal(rows[1].side[LITMUS_NATIVE].skip, "uses x(), which");
	assert_false(rows[1].side[LITMUS_EMULATED].seen);
	litmus_rows_free(rows, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(store_buffering_parses),
		cmocka_unit_test(initial_state_and_variables_in_exists),
		cmocka_unit_test(unknown_primitive_is_skipped_with_its_name),
		cmocka_unit_test(dependency_is_native_only),
		cmocka_unit_test(shapes_group_tests_by_name),
		cmocka_unit_test(malformed_files_are_errors),
		cmocka_unit_test(figures_come_from_their_suite_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
