// SPDX-License-Identifier: GPL-2.0
/* .litmus files to a module's C, and the module's figures back. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "herd7.h"
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

/*
 * Every use of a register is marked for the emulated machine (kwl_dep()),
 * which follows it as an address dependency: in an access, a copy, an
 * index, a declaration's initializer; not where it is declared or
 * written.  A comment's text is no use.
 */
static void every_register_use_is_marked(void **state)
{
	static const char text[] =
		"C dep\n\n(* Result: Never *)\n\n{ y=z; }\n\n"
		"P0(int *x, int **y)\n{\n\tWRITE_ONCE(*x, 1);\n\trcu_assign_pointer(*y, x);\n}\n\n"
		"P1(int *x, int **y)\n{\n\tint *r0;\n\tint r1;\n\n\trcu_read_lock();\n"
		"\tr0 = rcu_dereference(*y); // :))\n\tint *r2 = r0, r3 = READ_ONCE(*r2);\n"
		"\tr1 = READ_ONCE(*(x + (r3 & 0)));\n\tr1 = *r0;\n\tr1++;\n\t*r0 = 2;\n"
		"\tif (r1 == 0)\n\t\tr0 = x;\n\trcu_read_unlock();\n}\n\n"
		"exists (1:r0=x /\\ 1:r1=0)\n";
	struct litmus_test t;
	char *c;

	(void)state;
	parse_ok(text, &t);
	assert_null(t.skip);
	assert_null(t.skip_emulated);
	c = litmus_module_source(&t, 1);
	assert_non_null(strstr(c, "\tint *r0;\n\tint r1;\n"));
	assert_non_null(strstr(c, "\tr0 = rcu_dereference(*y);"));
	assert_null(strstr(c, "// :))"));
	assert_non_null(strstr(c, "\tint *r2 = kwl_dep(r0), r3 = READ_ONCE(*kwl_dep(r2));\n"));
	assert_non_null(strstr(c, "\tr1 = READ_ONCE(*(x + (kwl_dep(r3) & 0)));\n"));
	assert_non_null(strstr(c, "\tr1 = *kwl_dep(r0);\n"));
	assert_non_null(strstr(c, "\tr1++;\n"));
	assert_non_null(strstr(c, "\t*kwl_dep(r0) = 2;\n"));
	assert_non_null(strstr(c, "\tif (kwl_dep(r1) == 0)\n\t\tr0 = x;\n"));
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

/*
 * A folder of tests nobody here wrote, as herd7 reads them: diy7's
 * header lines, registers without declarations, a register that starts
 * as an address, a test whose C does not compile, and a LISA test.
 * Each runs, or is one skipped test that says why; none sinks the rest.
 */
static const char *const fixtures[] = {
	"tests/data/litmus/diy7-header.litmus",
	"tests/data/litmus/does-not-compile.litmus",
	"tests/data/litmus/lisa.litmus",
	"tests/data/litmus/pointer-register.litmus",
	"tests/data/litmus/undeclared-registers.litmus",
};
#define NR_FIXTURES (sizeof(fixtures) / sizeof(*fixtures))

static struct litmus_test *collect_fixtures(int *n)
{
	struct litmus_test *t = NULL;
	char *error = NULL;

	assert_int_equal(litmus_collect("/nonexistent", "/nonexistent", (char *const *)fixtures,
					NR_FIXTURES, &t, n, &error), 0);
	assert_null(error);
	assert_int_equal(*n, NR_FIXTURES);
	return t;
}

static void what_herd7_reads_is_read(void **state)
{
	struct litmus_test *t;
	char *c;
	int n;

	(void)state;
	t = collect_fixtures(&n);
	/* diy7's lines, and two spaces after the C. */
	assert_string_equal(t[0].name, "MP+fencewmbonceonce+fencermbonceonce+diy7");
	assert_null(t[0].skip);
	/* "int r0; int r1;" on one line: two registers. */
	assert_int_equal(t[0].threads[1].nr_regs, 2);
	/* A LISA test is one skipped row, named after its file. */
	assert_string_equal(t[2].name, "lisa");
	assert_non_null(t[2].skip);
	assert_non_null(strstr(t[2].skip, "a LISA test, not the LKMM's C"));
	/* The initial state's 1:r1=y: a pointer register, declared by the module. */
	assert_null(t[3].skip);
	assert_string_equal(t[3].threads[1].regs[2].name, "r1");
	assert_string_equal(t[3].threads[1].regs[2].type, "int *");
	assert_string_equal(t[3].threads[1].regs[2].init, "&kwl_in->y");
	/* Never loaded: a load through it is no address dependency. */
	assert_null(t[3].skip_emulated);
	/* Registers used without a declaration: an int each, in its thread. */
	assert_null(t[4].skip);
	assert_string_equal(t[4].threads[0].regs[0].type, "int");
	assert_string_equal(t[4].exists, "(kwl_in->kwl_out[0] == 0 && kwl_in->kwl_out[1] == 0)");
	litmus_test_free(&t[4]);
	/* herd's ~ binds to the atom after it. */
	parse_ok("C neg\n{}\nP0(int *x)\n{\n\tr0 = READ_ONCE(*x);\n}\n"
		 "exists (~0:r0=2 /\\ ~(x=1 \\/ x=2))\n", &t[4]);
	assert_string_equal(t[4].exists, "(!(kwl_in->kwl_out[0] == 2) && !((long)kwl_in->x == 1 || (long)kwl_in->x == 2))");
	c = litmus_module_source(t, n);
	assert_non_null(strstr(c, "\tint *r1 = &kwl_in->y;\n"));
	assert_non_null(strstr(c, "\tint r0 = 0;\n"));
	assert_non_null(strstr(c, ".skip = \"" "a LISA test"));
	free(c);
	litmus_tests_free(t, n);
}

/* Eight threads run; a ninth is a skip that says so. */
static void eight_threads_and_no_more(void **state)
{
	char *text = xstrdup("C eight\n{}\n");
	struct litmus_test t;
	char *error = NULL;

	(void)state;
	for (int i = 0; i < 9; i++) {
		xappendf(&text, "P%d(int *x)\n{\n\tWRITE_ONCE(*x, %d);\n}\n", i, i);
		if (i == 7) {
			char *eight = xasprintf("%sexists (x=1)\n", text);

			assert_int_equal(litmus_parse("eight.litmus", eight, &t, &error), 0);
			assert_null(t.skip);
			litmus_test_free(&t);
			free(eight);
		}
	}
	xappendf(&text, "exists (x=1)\n");
	assert_int_equal(litmus_parse("nine.litmus", text, &t, &error), 0);
	assert_non_null(t.skip);
	assert_non_null(strstr(t.skip, "more than 8 threads"));
	litmus_test_free(&t);
	free(text);
}

/*
 * A test whose C does not compile: the compiler's errors, in the test's
 * own lines or in a header its code expanded, name the test; it is then
 * skipped with the error, and the others are built again.
 */
static void a_test_that_does_not_compile_is_left_out(void **state)
{
	struct litmus_test *t;
	char *c, *log, *tsv = xstrdup("# made from test\n"), *again;
	const char *hit;
	long line = 1;
	int n;

	(void)state;
	t = collect_fixtures(&n);
	c = litmus_module_source(t, n);
	hit = strstr(c, "atomic_inc(y);");
	assert_non_null(hit);
	for (const char *p = c; p < hit; p++)
		line += *p == '\n';
	log = xasprintf("/b/kwm/groups/0/litmus/kw_litmus.c: In function \xe2\x80\x98kwl_t1_p0\xe2\x80\x99:\n"
			"/b/kwm/groups/0/litmus/kw_litmus.c:%ld:20: error: passing argument 1 of "
			"\xe2\x80\x98" "atomic_inc\xe2\x80\x99 from incompatible pointer type\n"
			"/b/kwm/groups/1/litmus-emu/kw_litmus.c: In function \xe2\x80\x98kwl_t4_p1\xe2\x80\x99:\n"
			"/b/include/linux/compiler.h:9:1: error: made up, in a header\n"
			/* The harness's own, or the top level: no test's. */
			"/b/kwm/groups/1/litmus-emu/kw_litmus.h: In function \xe2\x80\x98kwl_thread\xe2\x80\x99:\n"
			"/b/kwm/groups/1/litmus-emu/kw_litmus.h:9:1: error: in the harness\n"
			"/b/kwm/groups/1/litmus-emu/kw_litmus.c: At top level:\n"
			"/b/include/linux/compiler.h:9:1: error: made up, at the top\n",
			line);
	assert_int_equal(litmus_refusals_from_log(log, c, c, t, n, &tsv), 2);
	/* The same errors again add nothing: each round must leave out more. */
	assert_int_equal(litmus_refusals_from_log(log, c, c, t, n, &tsv), 0);
	litmus_apply_refusals(t, n, tsv);
	assert_non_null(t[1].skip);
	assert_string_equal(t[1].skip, "its C does not compile: passing argument 1 of "
			    "'atomic_inc' from incompatible pointer type");
	assert_null(t[4].skip);
	assert_non_null(strstr(t[4].skip_emulated, "does not compile on the emulated machine: made up"));
	assert_null(t[0].skip);
	again = litmus_module_source(t, n);
	assert_null(strstr(again, "atomic_inc(y);"));
	free(again);
	free(log);
	free(tsv);
	free(c);
	litmus_tests_free(t, n);
}

/* Not one test in the batch: that alone is an error. */
static void a_batch_of_no_tests_is_an_error(void **state)
{
	static char *const lisa[] = { "tests/data/litmus/lisa.litmus" };
	struct litmus_test *t = NULL;
	char *error = NULL;
	int n = 0;

	(void)state;
	assert_int_equal(litmus_collect("/nonexistent", "/nonexistent", lisa, 1, &t, &n, &error), -1);
	assert_non_null(error);
	assert_non_null(strstr(error, "LISA"));
	assert_null(t);
	free(error);
}

/*
 * A test without Result: takes herd7's verdict, here from its record
 * beside it (herd7 kept off PATH); one without a record has none, and
 * the module says so rather than pass it.
 */
static void no_result_takes_herd7s_record_or_none(void **state)
{
	char tree[] = "/tmp/kwm-truth-XXXXXX";
	char *model, *lkmm, *a, *b, *text, *c;
	struct herd7_records records = { 0 };
	struct herd7_record r = {
		.herd7 = "7.57", .verdict = "Never", .states = "-",
		.date = "2026-12-07", .name = "diy7", .command = HERD7_COMMAND,
	};
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	char *files[2];
	struct litmus_test *t;
	char *error = NULL;
	int n;

	(void)state;
	assert_non_null(mkdtemp(tree));
	model = xasprintf("%s/tools/memory-model", tree);
	assert_int_equal(mkdir_p(model), 0);
	free(model);
	model = xasprintf("%s/tools/memory-model/linux-kernel.cat", tree);
	assert_int_equal(write_file_atomic(model, "a model\n", 8), 0);
	lkmm = herd7_model_digest(tree);
	assert_non_null(lkmm);
	/* Two copies of a test without Result:, one of them recorded. */
	text = read_file("tests/data/litmus/diy7-header.litmus", NULL);
	a = xasprintf("%s/a.litmus", tree);
	b = xasprintf("%s/b.litmus", tree);
	assert_int_equal(write_file_atomic(a, text, strlen(text)), 0);
	xappendf(&text, "(* another text, so another test *)\n");
	assert_int_equal(write_file_atomic(b, text, strlen(text)), 0);
	free(text);
	text = read_file(a, NULL);
	hash_text(text, r.test);
	free(text);
	r.lkmm = lkmm;
	herd7_records_put(&records, &r);
	text = xasprintf("%s/" LITMUS_TRUTH_RECORDS, tree);
	assert_int_equal(herd7_records_write(text, &records), 0);
	free(text);
	setenv("PATH", "/nonexistent", 1);
	files[0] = a;
	files[1] = b;
	assert_int_equal(litmus_collect("/nonexistent", "/nonexistent", files, 2, &t, &n, &error), 0);
	litmus_truth(t, n, tree);
	if (path)
		setenv("PATH", path, 1);
	assert_string_equal(t[0].result, "Never");
	assert_non_null(strstr(t[0].result_by, "recorded 2026-12-07"));
	assert_null(t[1].result);
	c = litmus_module_source(t, n);
	assert_non_null(strstr(c, ".result_by = \"herd7 7.57, recorded 2026-12-07\""));
	assert_non_null(strstr(c, ".result = \"\","));
	free(c);
	litmus_tests_free(t, n);
	herd7_records_free(&records);
	rm_rf(tree);
	free(lkmm);
	free(model);
	free(a);
	free(b);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(store_buffering_parses),
		cmocka_unit_test(initial_state_and_variables_in_exists),
		cmocka_unit_test(unknown_primitive_is_skipped_with_its_name),
		cmocka_unit_test(every_register_use_is_marked),
		cmocka_unit_test(shapes_group_tests_by_name),
		cmocka_unit_test(malformed_files_are_errors),
		cmocka_unit_test(figures_come_from_their_suite_only),
		cmocka_unit_test(what_herd7_reads_is_read),
		cmocka_unit_test(eight_threads_and_no_more),
		cmocka_unit_test(a_test_that_does_not_compile_is_left_out),
		cmocka_unit_test(a_batch_of_no_tests_is_an_error),
		cmocka_unit_test(no_result_takes_herd7s_record_or_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
