// SPDX-License-Identifier: GPL-2.0
/*
 * The module's C: per test, a struct of its variables (each on a cache
 * line of its own, as klitmus7 lays them out) with its registers after
 * them, a function per thread, its initial state and its exists clause;
 * then the table calibrate/kw_litmus.h runs.  A test the emulated
 * machine cannot run is compiled only natively.
 */
#define _GNU_SOURCE
#include "litmus.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static char *c_string(const char *s)
{
	char *out = xstrdup("\"");

	for (; *s; s++)
		xappendf(&out, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
	xappendf(&out, "\"");
	return out;
}

static int nr_regs(const struct litmus_test *t)
{
	int n = 0;

	for (int i = 0; i < t->nr_threads; i++)
		n += t->threads[i].nr_regs;
	return n;
}

static void emit_struct(char **out, const struct litmus_test *t, int id)
{
	xappendf(out, "struct kwl_t%d {\n", id);
	for (int i = 0; i < t->nr_vars; i++) {
		const struct litmus_var *v = &t->vars[i];
		bool pointer = v->type[strlen(v->type) - 1] == '*';

		xappendf(out, "\t%s%s%s ____cacheline_aligned;\n", v->type,
			 pointer ? "" : " ", v->name);
	}
	/* At least one: a test may have no registers (exists on variables). */
	xappendf(out, "\tlong kwl_out[%d] ____cacheline_aligned;\n};\n\n",
		 nr_regs(t) ? nr_regs(t) : 1);
}

static void emit_init(char **out, const struct litmus_test *t, int id)
{
	xappendf(out, "static void kwl_t%d_init(void *kwl_p)\n{\n"
		 "\tstruct kwl_t%d *kwl_in = kwl_p;\n\n"
		 "\tmemset(kwl_in->kwl_out, 0, sizeof(kwl_in->kwl_out));\n", id, id);
	/* Every variable written, so that the emulated machine has its history. */
	for (int i = 0; i < t->nr_vars; i++) {
		const struct litmus_var *v = &t->vars[i];
		const char *init = v->init ? v->init : "0";

		if (!strcmp(v->type, "spinlock_t"))
			xappendf(out, "\tspin_lock_init(&kwl_in->%s);\n", v->name);
		else if (!strcmp(v->type, "atomic_t"))
			xappendf(out, "\tatomic_set(&kwl_in->%s, %s);\n", v->name, init);
		else if (!strcmp(v->type, "int *") && !v->init)
			xappendf(out, "\tWRITE_ONCE(kwl_in->%s, NULL);\n", v->name);
		else if (!strcmp(v->type, "int *") && *init != '&')
			/* herd7 takes a number for a pointer: "int *z = 1". */
			xappendf(out, "\tWRITE_ONCE(kwl_in->%s, (int *)(uintptr_t)%s);\n",
				 v->name, init);
		else
			xappendf(out, "\tWRITE_ONCE(kwl_in->%s, %s);\n", v->name, init);
	}
	xappendf(out, "}\n\n");
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool is_reg(const struct litmus_thread *th, const char *name, size_t n)
{
	for (int r = 0; r < th->nr_regs; r++)
		if (strlen(th->regs[r].name) == n && !strncmp(th->regs[r].name, name, n))
			return true;
	return false;
}

static bool starts_declaration(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	for (int i = 0; i < litmus_nr_reg_types; i++)
		if (!strncmp(p, litmus_reg_types[i], strlen(litmus_reg_types[i])) &&
		    !ident_char(p[strlen(litmus_reg_types[i])]))
			return true;
	return false;
}

/* Whether the register just before @next (and @prev before it) is written there. */
static bool written(const char *prev_start, const char *prev, const char *next)
{
	while (isspace((unsigned char)*next))
		next++;
	while (prev > prev_start && isspace((unsigned char)prev[-1]))
		prev--;
	/* "*r1 = 1": a store through it, a use. */
	if (prev > prev_start && prev[-1] == '*')
		return false;
	if (prev - prev_start >= 2 && (!strncmp(prev - 2, "++", 2) || !strncmp(prev - 2, "--", 2)))
		return true;
	if (!strncmp(next, "++", 2) || !strncmp(next, "--", 2) ||
	    !strncmp(next, "<<=", 3) || !strncmp(next, ">>=", 3))
		return true;
	if (*next == '=')
		return next[1] != '=';
	return *next && strchr("+-*/%&|^", *next) && next[1] == '=';
}

/*
 * @th's body with each use of a register marked: kwl_dep(r1).  A
 * register holds what the body loaded, so an access whose address it
 * takes part in is an address dependency, which the emulated machine
 * follows only where it is told (calibrate/kw_litmus.h).  Not marked: a
 * register being declared or written ("r1 = ...", "r1++"), no use.
 */
static char *marked_body(const struct litmus_thread *th)
{
	const char *body = th->body;
	bool declaration = starts_declaration(body), initializer = false;
	char *out = xstrdup("");
	int depth = 0;

	for (const char *p = body; *p;) {
		size_t n = 0;

		if (ident_char(*p) && (p == body || !ident_char(p[-1])))
			while (ident_char(p[n]))
				n++;
		if (n) {
			bool use = is_reg(th, p, n) && !written(body, p, p + n) &&
				   !(declaration && !initializer && !depth);

			xappendf(&out, use ? "kwl_dep(%.*s)" : "%.*s", (int)n, p);
			p += n;
			continue;
		}
		xappendf(&out, "%c", *p);
		depth += (*p == '(') - (*p == ')');
		if (*p == ';' || *p == '{' || *p == '}') {
			declaration = starts_declaration(p + 1);
			initializer = false;
		} else if (declaration && !depth && *p == '=' && p[1] != '=') {
			initializer = true;
		} else if (declaration && !depth && *p == ',') {
			initializer = false;
		}
		p++;
	}
	return out;
}

static void emit_thread(char **out, const struct litmus_test *t, int id, int nr,
			int first_reg)
{
	const struct litmus_thread *th = &t->threads[nr];
	char *params = xstrdup(th->params), *save = NULL, *body;

	xappendf(out, "static void kwl_t%d_p%d(void *kwl_p)\n{\n"
		 "\tstruct kwl_t%d *kwl_in = kwl_p;\n", id, nr, id);
	for (char *p = strtok_r(params, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char *name = p + strlen(p);

		while (name > p && name[-1] == ' ')
			*--name = '\0';
		while (name > p && name[-1] != '*' && name[-1] != ' ')
			name--;
		xappendf(out, "\t%s __maybe_unused = &kwl_in->%s;\n",
			 p + strspn(p, " \t\n"), name);
	}
	free(params);
	/* Registers the body uses without declaring them, as herd7 allows. */
	for (int r = 0; r < th->nr_regs; r++) {
		const struct litmus_reg *reg = &th->regs[r];

		const char *space = reg->type && reg->type[strlen(reg->type) - 1] == '*' ? "" : " ";

		if (!reg->type)
			continue;
		if (reg->pointer && reg->init && *reg->init != '&')
			xappendf(out, "\t%s%s%s = (%s)(uintptr_t)%s;\n", reg->type, space,
				 reg->name, reg->type, reg->init);
		else
			xappendf(out, "\t%s%s%s = %s;\n", reg->type, space, reg->name,
				 reg->init ? reg->init : reg->pointer ? "NULL" : "0");
	}
	body = marked_body(th);
	xappendf(out, "\n\t{\n%s\n", body);
	free(body);
	for (int r = 0; r < th->nr_regs; r++)
		xappendf(out, "\tkwl_in->kwl_out[%d] = (long)%s%s;\n", first_reg + r,
			 th->regs[r].pointer ? "(uintptr_t)" : "", th->regs[r].name);
	xappendf(out, "\t}\n}\n\n");
}

static void emit_exists(char **out, const struct litmus_test *t, int id)
{
	xappendf(out, "static bool kwl_t%d_exists(const void *kwl_p)\n{\n"
		 "\tconst struct kwl_t%d *kwl_in = kwl_p;\n\n"
		 "\treturn %s;\n}\n\n", id, id, t->exists);
}

static void emit_functions(char **out, const struct litmus_test *t, int id)
{
	int first_reg = 0;

	xappendf(out, "/* %s */\n", t->path);
	if (t->skip_emulated)
		xappendf(out, "#ifndef KWC_EMULATE\n");
	emit_struct(out, t, id);
	emit_init(out, t, id);
	for (int i = 0; i < t->nr_threads; i++) {
		emit_thread(out, t, id, i, first_reg);
		first_reg += t->threads[i].nr_regs;
	}
	emit_exists(out, t, id);
	if (t->skip_emulated)
		xappendf(out, "#endif\n\n");
}

static void emit_row(char **out, const struct litmus_test *t, int id)
{
	char *name = c_string(t->name);
	char *result = c_string(t->result ? t->result : "");
	char *skip = c_string(t->skip ? t->skip :
			      t->skip_emulated ? t->skip_emulated : "");
	char *shape = xasprintf("%.*s", (int)litmus_shape_len(t->name), t->name);
	char *shape_string = c_string(shape);

	xappendf(out, "\t{\n\t\t.name = %s,\n\t\t.shape = %s,\n\t\t.result = %s,\n",
		 name, shape_string, result);
	if (t->result_by) {
		char *by = c_string(t->result_by);

		xappendf(out, "\t\t.result_by = %s,\n", by);
		free(by);
	}
	if (t->skip) {
		xappendf(out, "\t\t.skip = %s,\n\t},\n", skip);
		goto out;
	}
	if (t->skip_emulated)
		xappendf(out, "#ifdef KWC_EMULATE\n\t\t.skip = %s,\n#else\n", skip);
	xappendf(out, "\t\t.threads = %d,\n\t\t.size = sizeof(struct kwl_t%d),\n"
		 "\t\t.instances = %d,\n"
		 "\t\t.init = kwl_t%d_init,\n\t\t.exists = kwl_t%d_exists,\n\t\t.p = {",
		 t->nr_threads, id, t->slow ? 8 : 0, id, id);
	for (int i = 0; i < t->nr_threads; i++)
		xappendf(out, "%s kwl_t%d_p%d", i ? "," : "", id, i);
	xappendf(out, " },\n");
	if (t->skip_emulated)
		xappendf(out, "#endif\n");
	xappendf(out, "\t},\n");
out:
	free(name);
	free(shape);
	free(shape_string);
	free(result);
	free(skip);
}

char *litmus_module_source(const struct litmus_test *tests, int n)
{
	char *out = xstrdup("// SPDX-License-Identifier: GPL-2.0\n"
			    "/* Generated by kwmatrix (matrix/litmus_emit.c) from the tests named below. */\n"
			    "#include \"" LITMUS_HARNESS "\"\n\n"
			    /*
			     * herd7 lets an int hold an address; C truncates it, and the
			     * load through it oopses the guest: such a test must not
			     * compile, and is left out (litmus_refuse.c).
			     */
			    "#pragma GCC diagnostic error \"-Wint-conversion\"\n\n");

	for (int i = 0; i < n; i++)
		if (!tests[i].skip)
			emit_functions(&out, &tests[i], i);
	xappendf(&out, "static const struct kwl_test kwl_tests[] = {\n");
	for (int i = 0; i < n; i++)
		emit_row(&out, &tests[i], i);
	xappendf(&out, "};\n\nKWL_MODULE(kwl_tests);\n");
	return out;
}
