// SPDX-License-Identifier: GPL-2.0
/*
 * From a .litmus file to C: the header, the initial state, the threads
 * and the exists clause, each read as herd7's C dialect spells them in
 * the kernel's own tests.  What is read is kept as text: a thread's body
 * is C already, run as it is in a function that names its parameters.
 */
#define _GNU_SOURCE
#include "litmus.h"

#include <ctype.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "fs.h"

/*
 * What a body may call, and why the emulated machine cannot run it
 * (NULL: it can; calibrate/kw_emu.h and kw_litmus.h wrap it).
 */
static const struct primitive {
	const char *name;
	const char *not_emulated;
} primitives[] = {
	{ "READ_ONCE", NULL },
	{ "WRITE_ONCE", NULL },
	{ "smp_mb", NULL },
	{ "smp_rmb", NULL },
	{ "smp_wmb", NULL },
	{ "smp_store_release", NULL },
	{ "smp_load_acquire", NULL },
	{ "smp_mb__before_atomic", NULL },
	{ "smp_mb__after_atomic", NULL },
	{ "smp_mb__after_spinlock", NULL },
	{ "spin_lock", NULL },
	{ "spin_unlock", NULL },
	{ "spin_is_locked", NULL },
	{ "atomic_read", NULL },
	{ "atomic_set", NULL },
	{ "atomic_inc", NULL },
	{ "atomic_dec", NULL },
	{ "atomic_inc_return", NULL },
	{ "atomic_dec_return", NULL },
	{ "atomic_add_unless", NULL },
	{ "rcu_read_lock", NULL },
	{ "rcu_read_unlock", NULL },
	{ "rcu_assign_pointer", NULL },
	{ "synchronize_rcu", NULL },
	{ "rcu_dereference", NULL },
	{ "spin_trylock", "not wrapped by the emulation" },
	{ "smp_store_mb", "not wrapped by the emulation" },
	{ "xchg", "not wrapped by the emulation" },
	{ "cmpxchg", "not wrapped by the emulation" },
	{ "atomic_xchg", "not wrapped by the emulation" },
	{ "atomic_cmpxchg", "not wrapped by the emulation" },
	{ "atomic_add_return", "not wrapped by the emulation" },
	{ "atomic_fetch_add", "not wrapped by the emulation" },
};

/* The variable types a test may use: each is one C field. */
static const char *const var_types[] = {
	"int", "int *", "atomic_t", "spinlock_t",
};

const char *const litmus_reg_types[] = {
	"int", "long", "unsigned int", "unsigned long", "bool",
};
const int litmus_nr_reg_types = sizeof(litmus_reg_types) / sizeof(*litmus_reg_types);

static const char *const keywords[] = {
	"if", "while", "for", "switch", "return", "sizeof", "void",
};

static bool in_list(const char *const *list, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(list[i], s, len))
			return true;
	return false;
}

#define IN(list, s, len) in_list(list, sizeof(list) / sizeof(*list), s, len)

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

static size_t ident_len(const char *p)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return strndup(s, len);
}

/* Past whitespace and comments of either kind: (* herd's *) and C's. */
static const char *skip_comments(const char *p, char **collected)
{
	for (;;) {
		const char *end;

		p = skip_space(p);
		if (!strncmp(p, "(*", 2))
			end = strstr(p + 2, "*)");
		else if (!strncmp(p, "/*", 2))
			end = strstr(p + 2, "*/");
		else if (!strncmp(p, "//", 2))
			end = p + strcspn(p, "\n") - 1;
		else
			return p;
		if (!end)
			return p + strlen(p);
		if (collected)
			xappendf(collected, "%.*s\n", (int)(end - p), p);
		p = end + 2;
	}
}

/* The text between the brace at @p and its match; NULL if unmatched. */
static char *braced(const char *p, const char **after)
{
	int depth = 0;

	for (const char *q = p; *q; q++) {
		if (*q == '{')
			depth++;
		else if (*q == '}' && !--depth) {
			*after = q + 1;
			return strndup(p + 1, q - p - 1);
		}
	}
	return NULL;
}

static void skip_test(struct litmus_test *t, char *why)
{
	if (t->skip)
		free(why);
	else
		t->skip = why;
}

static struct litmus_var *find_var(struct litmus_test *t, const char *name,
				   size_t len)
{
	for (int i = 0; i < t->nr_vars; i++)
		if (strlen(t->vars[i].name) == len &&
		    !strncmp(t->vars[i].name, name, len))
			return &t->vars[i];
	return NULL;
}

static struct litmus_var *add_var(struct litmus_test *t, const char *name,
				  size_t len, const char *type)
{
	struct litmus_var *v = find_var(t, name, len);

	if (v)
		return v;
	t->vars = xrealloc(t->vars, (t->nr_vars + 1) * sizeof(*t->vars));
	v = &t->vars[t->nr_vars++];
	*v = (struct litmus_var){ .name = strndup(name, len), .type = xstrdup(type) };
	return v;
}

/*
 * A register's initial value, "1:r0=x" or "int *1:r1 = y": the address
 * of a variable, or a number.  herd7 types it from the declaration or
 * from its use (find_undeclared()).
 */
static void parse_reg_init(struct litmus_test *t, const char *stmt)
{
	const char *colon = strchr(stmt, ':'), *digits = colon, *eq, *rhs;
	struct litmus_reg_init *ri;
	size_t n;

	while (digits > stmt && isdigit((unsigned char)digits[-1]))
		digits--;
	n = ident_len(colon + 1);
	eq = skip_space(colon + 1 + n);
	if (digits == colon || !n || (*eq && *eq != '=')) {
		skip_test(t, xasprintf("initial state '%s' is not understood", stmt));
		return;
	}
	/* "int *1:r1" alone: a type, no value. */
	rhs = *eq ? skip_space(eq + 1) : "";
	rhs += *rhs == '&';
	t->reg_inits = xrealloc(t->reg_inits, (t->nr_reg_inits + 1) * sizeof(*t->reg_inits));
	ri = &t->reg_inits[t->nr_reg_inits++];
	ri->thread = atoi(digits);
	ri->name = strndup(colon + 1, n);
	ri->type = trimmed(stmt, digits - stmt);
	if (ident_len(rhs) && ident_len(rhs) == strlen(rhs)) {
		ri->init = xasprintf("&kwl_in->%s", rhs);
		add_var(t, rhs, strlen(rhs), "int");
		if (!*ri->type) {
			free(ri->type);
			ri->type = xstrdup("int *");
		}
	} else if (*rhs && strspn(rhs, "-0123456789") == strlen(rhs)) {
		ri->init = xstrdup(rhs);
	} else if (!*rhs) {
		ri->init = NULL;
	} else {
		ri->init = NULL;
		skip_test(t, xasprintf("initial value '%s' is not understood", rhs));
	}
}

/* "int *y = &x", "x=1", "atomic_t v = ATOMIC_INIT(1)", "y=z". */
static void parse_init_one(struct litmus_test *t, char *stmt)
{
	char *eq = strchr(stmt, '='), *lhs, *rhs, *type, *name;
	struct litmus_var *v;
	size_t n;

	if (strchr(stmt, ':')) {
		parse_reg_init(t, stmt);
		return;
	}
	lhs = trimmed(stmt, eq ? (size_t)(eq - stmt) : strlen(stmt));
	rhs = eq ? trimmed(eq + 1, strlen(eq + 1)) : xstrdup("0");
	/* The name is the last word; a type, if any, comes before it. */
	name = lhs + strlen(lhs);
	while (name > lhs && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	type = trimmed(lhs, name - lhs);
	if (!*name) {
		skip_test(t, xasprintf("initial state '%s' is not understood", stmt));
		goto out;
	}
	v = add_var(t, name, strlen(name), *type ? type : "int");
	if (*type && strcmp(v->type, type)) {
		free(v->type);
		v->type = xstrdup(type);
	}
	free(v->init);
	v->init = NULL;
	if (!strncmp(rhs, "ATOMIC_INIT(", 12) && (n = strcspn(rhs + 12, ")")))
		v->init = strndup(rhs + 12, n);
	else if (rhs[0] == '&' && ident_len(skip_space(rhs + 1)))
		v->init = xasprintf("&kwl_in->%s", skip_space(rhs + 1));
	else if (ident_len(rhs) == strlen(rhs))
		v->init = xasprintf("&kwl_in->%s", rhs);
	else if (strspn(rhs, "-0123456789") == strlen(rhs))
		v->init = xstrdup(rhs);
	else
		skip_test(t, xasprintf("initial value '%s' is not understood", rhs));
	if (v->init && v->init[0] == '&')
		add_var(t, v->init + strlen("&kwl_in->"),
			strlen(v->init + strlen("&kwl_in->")), "int");
out:
	free(type);
	free(lhs);
	free(rhs);
}

static char *without_comments(const char *p);

static void parse_init(struct litmus_test *t, const char *block)
{
	char *save = NULL, *text = without_comments(block);

	for (char *s = strtok_r(text, ";\n", &save); s; s = strtok_r(NULL, ";\n", &save)) {
		char *stmt = trimmed(s, strlen(s));

		if (*stmt)
			parse_init_one(t, stmt);
		free(stmt);
	}
	free(text);
}

/* "int *x, int **y": each names a variable, of the type pointed to. */
static void parse_params(struct litmus_test *t, const char *params)
{
	char *copy = xstrdup(params), *save = NULL;

	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char *param = trimmed(p, strlen(p)), *name = param + strlen(param), *type;
		struct litmus_var *v;

		while (name > param && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
			name--;
		type = trimmed(param, name - param);
		if (!*type || type[strlen(type) - 1] != '*') {
			skip_test(t, xasprintf("parameter '%s' is not a pointer", param));
		} else {
			type[strlen(type) - 1] = '\0';
			free(type);
			type = trimmed(param, strrchr(param, '*') - param);
			if (!IN(var_types, type, strlen(type)))
				skip_test(t, xasprintf("variables of type '%s' are not supported", type));
			/* The initial state may name it first, without a type. */
			v = add_var(t, name, strlen(name), type);
			free(v->type);
			v->type = xstrdup(type);
		}
		free(type);
		free(param);
	}
	free(copy);
}

static void add_reg(struct litmus_thread *th, const char *name, size_t len,
		    bool pointer)
{
	th->regs = xrealloc(th->regs, (th->nr_regs + 1) * sizeof(*th->regs));
	th->regs[th->nr_regs++] = (struct litmus_reg){
		.name = strndup(name, len), .pointer = pointer,
	};
}

/* The start of the statement after the one at @p, past comments; NULL at the end. */
static const char *next_statement(const char *p)
{
	p += strcspn(p, ";{}");
	return *p ? skip_comments(p + 1, NULL) : NULL;
}

/* Past a declarator's initializer: at the ',' or ';' that ends it. */
static const char *past_initializer(const char *p)
{
	int depth = 0;

	for (; *p && (depth || (*p != ',' && *p != ';')); p++)
		depth += (*p == '(') - (*p == ')');
	return p;
}

/* Declarations at the start of a statement, "int r0;" or "int *r0, r1 = 0;". */
static void parse_regs(struct litmus_thread *th)
{
	for (const char *p = skip_comments(th->body, NULL); p && *p; p = next_statement(p)) {
		const char *q;
		size_t n = 0;

		for (int i = 0; i < litmus_nr_reg_types; i++)
			if (!strncmp(p, litmus_reg_types[i], strlen(litmus_reg_types[i])) &&
			    !isalnum((unsigned char)p[strlen(litmus_reg_types[i])]) &&
			    p[strlen(litmus_reg_types[i])] != '_')
				n = strlen(litmus_reg_types[i]);
		if (!n)
			continue;
		for (q = p + n;;) {
			bool pointer;

			q = skip_space(q);
			pointer = *q == '*';
			q = skip_space(q + pointer);
			n = ident_len(q);
			if (!n)
				break;
			add_reg(th, q, n, pointer);
			q = past_initializer(q + n);
			if (*q != ',')
				break;
			q++;
		}
	}
}

static struct litmus_reg *thread_reg(struct litmus_thread *th, const char *name,
				     size_t len)
{
	for (int i = 0; i < th->nr_regs; i++)
		if (strlen(th->regs[i].name) == len && !strncmp(th->regs[i].name, name, len))
			return &th->regs[i];
	return NULL;
}

/* The '*'s of parameter @name of @th ("int **y": 2), or -1 if none is so named. */
static int param_stars(const struct litmus_thread *th, const char *name, size_t len)
{
	for (const char *p = th->params; *p; p++) {
		size_t n = ident_len(p);
		int stars = 0;

		if (!n || (p > th->params && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			p += n ? n - 1 : 0;
			continue;
		}
		for (const char *q = p; q > th->params && q[-1] != ','; q--)
			stars += q[-1] == '*';
		if (n == len && !strncmp(p, name, len) && !ident_len(p + n))
			return stars;
		p += n - 1;
	}
	return -1;
}

/* Whether @body has "*NAME": a load or store through it. */
static bool dereferenced(const char *body, const char *name, size_t len)
{
	for (const char *p = body; (p = strchr(p, '*')); p++) {
		const char *q = skip_space(p + 1);

		if (!strncmp(q, name, len) && ident_len(q) == len)
			return true;
	}
	return false;
}

/*
 * A register used without a declaration, as herd7 allows: a pointer if
 * something is loaded or stored through it, or it is given an address
 * (a parameter, or what a pointer to a pointer holds); else an int.
 */
static bool used_as_pointer(const struct litmus_thread *th, const char *name, size_t len)
{
	if (dereferenced(th->body, name, len))
		return true;
	for (const char *p = skip_comments(th->body, NULL); p && *p; p = next_statement(p)) {
		const char *rhs = skip_space(p + len);

		if (strncmp(p, name, len) || ident_len(p) != len || *rhs != '=' || rhs[1] == '=')
			continue;
		for (rhs = skip_space(rhs + 1); *rhs && *rhs != ';'; rhs++) {
			size_t n = ident_len(rhs);
			int stars = n ? param_stars(th, rhs, n) : -1;

			/* A pointer loaded through a pointer to it, or a variable's address. */
			if (stars >= 0)
				return stars >= 2 || *skip_space(rhs + n) == ';';
			rhs += n ? n - 1 : 0;
		}
	}
	return false;
}

static void add_undeclared(struct litmus_thread *th, const char *name, size_t len)
{
	bool pointer = used_as_pointer(th, name, len);

	add_reg(th, name, len, pointer);
	th->regs[th->nr_regs - 1].type = xstrdup(pointer ? "int *" : "int");
}

/* Registers assigned at the start of a statement without a declaration. */
static void find_undeclared(struct litmus_thread *th)
{
	for (const char *p = skip_comments(th->body, NULL); p && *p; p = next_statement(p)) {
		size_t n = ident_len(p);
		const char *eq = skip_space(p + n);

		if (n && *eq == '=' && eq[1] != '=' && !IN(keywords, p, n) &&
		    !thread_reg(th, p, n) && param_stars(th, p, n) < 0)
			add_undeclared(th, p, n);
	}
}

/* The initial state's register values, on the threads now read. */
static void apply_reg_inits(struct litmus_test *t)
{
	for (int i = 0; i < t->nr_reg_inits; i++) {
		struct litmus_reg_init *ri = &t->reg_inits[i];
		struct litmus_thread *th;
		struct litmus_reg *r;

		if (ri->thread < 0 || ri->thread >= t->nr_threads) {
			skip_test(t, xasprintf("the initial state names %d:%s, a thread the test does not have",
					       ri->thread, ri->name));
			continue;
		}
		th = &t->threads[ri->thread];
		r = thread_reg(th, ri->name, strlen(ri->name));
		if (!r) {
			add_undeclared(th, ri->name, strlen(ri->name));
			r = &th->regs[th->nr_regs - 1];
		}
		if (!r->type && !ri->init)
			continue;
		if (!r->type) {
			skip_test(t, xasprintf("%d:%s has an initial value but is declared in its thread's body",
					       ri->thread, ri->name));
			continue;
		}
		if (*ri->type) {
			free(r->type);
			r->type = xstrdup(ri->type);
			r->pointer = strchr(ri->type, '*');
		}
		free(r->init);
		r->init = ri->init ? xstrdup(ri->init) : NULL;
	}
}

/* What each call in @body is, and whether the emulated machine runs it. */
static void check_calls(struct litmus_test *t, const struct litmus_thread *th)
{
	for (const char *p = th->body; *p; p++) {
		size_t n = ident_len(p);
		const struct primitive *found = NULL;

		if (!n || (p > th->body && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			continue;
		if (*skip_space(p + n) == '(' && !IN(keywords, p, n)) {
			for (size_t i = 0; i < sizeof(primitives) / sizeof(*primitives); i++)
				if (strlen(primitives[i].name) == n &&
				    !strncmp(primitives[i].name, p, n))
					found = &primitives[i];
			if (!found)
				skip_test(t, xasprintf("uses %.*s(), which the module does not support", (int)n, p));
			else if (found->not_emulated && !t->skip_emulated)
				t->skip_emulated = xasprintf("%s(): %s", found->name,
							     found->not_emulated);
			if (!strncmp(p, "synchronize_rcu", n))
				t->slow = true;
		}
		p += n - 1;
	}
}

/* @body's C comments blanked out, in place; their newlines stay. */
static void without_c_comments(char *body)
{
	char *p = body;

	while (*p) {
		char *end;

		if (!strncmp(p, "/*", 2)) {
			end = strstr(p + 2, "*/");
			end = end ? end + 2 : p + strlen(p);
		} else if (!strncmp(p, "//", 2)) {
			end = p + strcspn(p, "\n");
		} else {
			p++;
			continue;
		}
		for (; p < end; p++)
			if (*p != '\n')
				*p = ' ';
	}
}

/* "P0(int *x, int *y) // comment\n{ ... }" at @p. */
static const char *parse_thread(struct litmus_test *t, const char *p)
{
	struct litmus_thread *th;
	const char *open = strchr(p, '('), *close = open ? strchr(open, ')') : NULL;
	const char *after = NULL;
	int nr = atoi(p + 1);

	if (!close || nr != t->nr_threads)
		return NULL;
	t->threads = xrealloc(t->threads, (t->nr_threads + 1) * sizeof(*t->threads));
	th = &t->threads[t->nr_threads++];
	memset(th, 0, sizeof(*th));
	th->params = trimmed(open + 1, close - open - 1);
	p = skip_comments(close + 1, NULL);
	if (*p != '{' || !(th->body = braced(p, &after)))
		return NULL;
	/* C's comments go: what they say is neither a call nor a use. */
	without_c_comments(th->body);
	parse_params(t, th->params);
	parse_regs(th);
	find_undeclared(th);
	check_calls(t, th);
	return after;
}

static int find_reg(const struct litmus_test *t, int thread, const char *name,
		    size_t len, bool *pointer)
{
	int index = 0;

	if (thread < 0 || thread >= t->nr_threads)
		return -1;
	for (int i = 0; i < thread; i++)
		index += t->threads[i].nr_regs;
	for (int i = 0; i < t->threads[thread].nr_regs; i++) {
		const struct litmus_reg *r = &t->threads[thread].regs[i];

		if (strlen(r->name) == len && !strncmp(r->name, name, len)) {
			*pointer = r->pointer;
			return index + i;
		}
	}
	return -1;
}

/* One side of an "=": a register, a variable, or a number, as a long. */
static char *exists_value(struct litmus_test *t, const char **pp, bool left)
{
	const char *p = skip_space(*pp);
	size_t n = strspn(p, "-0123456789");
	bool pointer = false;
	char *out = NULL;

	if (n && p[n] == ':') {
		int thread = atoi(p), reg;
		size_t len = ident_len(p + n + 1);

		reg = find_reg(t, thread, p + n + 1, len, &pointer);
		if (reg >= 0)
			out = xasprintf("kwl_in->kwl_out[%d]", reg);
		*pp = p + n + 1 + len;
	} else if (n) {
		out = strndup(p, n);
		*pp = p + n;
	} else if ((n = ident_len(p))) {
		const struct litmus_var *v = find_var(t, p, n);

		if (v && !left)
			out = xasprintf("(long)(uintptr_t)&kwl_in->%s", v->name);
		else if (v && !strcmp(v->type, "atomic_t"))
			out = xasprintf("(long)kwl_in->%s.counter", v->name);
		else if (v && !strcmp(v->type, "int *"))
			out = xasprintf("(long)(uintptr_t)kwl_in->%s", v->name);
		else if (v && !strcmp(v->type, "int"))
			out = xasprintf("(long)kwl_in->%s", v->name);
		*pp = p + n;
	}
	if (!out)
		skip_test(t, xasprintf("exists names '%.*s', which is not a register or variable of the test",
				       (int)strcspn(p, " =)\\/"), p));
	return out;
}

/* Each "N:reg" of an exists clause that its thread does not declare, as herd7 allows. */
static void declare_exists_regs(struct litmus_test *t, const char *text)
{
	for (const char *p = text; *p; p++) {
		size_t digits = strspn(p, "0123456789"), n;
		int thread;

		if (!digits || p[digits] != ':' ||
		    (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			p += digits ? digits - 1 : 0;
			continue;
		}
		thread = atoi(p);
		n = ident_len(p + digits + 1);
		if (n && thread < t->nr_threads &&
		    !thread_reg(&t->threads[thread], p + digits + 1, n))
			add_undeclared(&t->threads[thread], p + digits + 1, n);
		p += digits + n;
	}
}

/* herd's "(0:r0=0 /\ 1:r0=0)", as C over the instance. */
static void parse_exists(struct litmus_test *t, const char *p)
{
	char *out = xstrdup("");
	int negated = 0;

	for (p = skip_space(p); *p; p = skip_space(p)) {
		if (*p == '(' || *p == ')') {
			xappendf(&out, "%c", *p++);
		} else if (!strncmp(p, "/\\", 2) || !strncmp(p, "\\/", 2)) {
			xappendf(&out, " %s ", *p == '/' ? "&&" : "||");
			p += 2;
		} else if (*p == '~') {
			/* herd's ~ binds to the atom after it: "~1:r1=2" is !(r1 == 2). */
			p = skip_space(p + 1);
			xappendf(&out, "!");
			negated += *p != '(';
			if (*p != '(')
				xappendf(&out, "(");
		} else {
			char *lhs = exists_value(t, &p, true), *rhs = NULL;

			p = skip_space(p);
			if (lhs && *p == '=') {
				p++;
				rhs = exists_value(t, &p, false);
			} else if (lhs) {
				skip_test(t, xasprintf("exists: only '=' is supported, at '%.20s'", p));
			}
			if (rhs)
				xappendf(&out, "%s == %s", lhs, rhs);
			for (; rhs && negated; negated--)
				xappendf(&out, ")");
			free(lhs);
			free(rhs);
			if (!rhs)
				break;
		}
	}
	if (t->skip)
		free(out);
	else
		t->exists = out;
}

/* @p without its (* comments *): what is left of a test is no C. */
static char *without_comments(const char *p)
{
	char *out = xstrdup("");

	while (*p) {
		const char *open = strstr(p, "(*"), *end;

		if (!open) {
			xappendf(&out, "%s", p);
			break;
		}
		xappendf(&out, "%.*s", (int)(open - p), p);
		end = strstr(open + 2, "*)");
		p = end ? end + 2 : open + strlen(open);
	}
	return out;
}

/* The end: "locations [...]" to ignore, then "exists (...)". */
static int parse_final(struct litmus_test *t, const char *p, char **error)
{
	char *rest = NULL;

	while (*(p = skip_comments(p, NULL))) {
		size_t n = strcspn(p, "(");

		if (!strncmp(p, "locations", 9)) {
			p += strcspn(p, "]");
			p += *p == ']';
		} else if (!strncmp(p, "exists", 6)) {
			rest = without_comments(p + 6);
			if (!*skip_space(rest)) {
				*error = xasprintf("%s: 'exists' without a condition", t->path);
				free(rest);
				return -1;
			}
			declare_exists_regs(t, rest);
			parse_exists(t, rest);
			free(rest);
			return 0;
		} else {
			skip_test(t, xasprintf("'%.*s' clauses are not supported",
					       (int)ident_len(p) ? (int)ident_len(p) : (int)n, p));
			return 0;
		}
	}
	*error = xasprintf("%s: no 'exists' clause (fix: end the test with exists (...))", t->path);
	return -1;
}

char *litmus_expected(const char *text)
{
	static const char label[] = "\n * Result: ";
	const char *hit = text ? strstr(text, label) : NULL;

	return hit ? strndup(hit + strlen(label), strcspn(hit + strlen(label), " \t\n")) : NULL;
}

int litmus_parse(const char *path, const char *text, struct litmus_test *t,
		 char **error)
{
	char *header = NULL, *init = NULL;
	const char *p = skip_space(text), *after;
	size_t n;

	memset(t, 0, sizeof(*t));
	t->path = xstrdup(path);
	*error = NULL;
	hash_text(text, t->digest);
	n = strcspn(p, " \t\n");
	if (n != 1 || *p != 'C' || !strchr(" \t", p[1])) {
		*error = n && n < 16 && strchr(" \t", p[n]) ?
			 xasprintf("%s: a %.*s test, not the LKMM's C: herd7 reads it with that architecture's model (fix: give kwmatrix tests that begin 'C NAME')",
				   path, (int)n, p) :
			 xasprintf("%s: not an LKMM litmus test: it must begin with 'C NAME'", path);
		return -1;
	}
	p += 1 + strspn(p + 1, " \t");
	if (!(n = strcspn(p, " \t\n"))) {
		*error = xasprintf("%s: not an LKMM litmus test: it must begin with 'C NAME'", path);
		return -1;
	}
	t->name = strndup(p, n);
	p = skip_comments(p + strcspn(p, "\n"), &header);
	/* diy7's lines: a quoted cycle, then "Cycle=...", "Orig=..." and such. */
	while (*p == '"' || (ident_len(p) && p[ident_len(p)] == '='))
		p = skip_comments(p + strcspn(p, "\n"), &header);
	free(header);
	t->result = litmus_expected(text);
	if (*p != '{' || !(init = braced(p, &after))) {
		*error = xasprintf("%s: no initial state '{...}' after the header", path);
		return -1;
	}
	parse_init(t, init);
	free(init);
	for (p = skip_comments(after, NULL); *p == 'P' && isdigit((unsigned char)p[1]);
	     p = skip_comments(p, NULL)) {
		if (t->nr_threads == LITMUS_MAX_THREADS)
			skip_test(t, xasprintf("more than %d threads", LITMUS_MAX_THREADS));
		if (!(p = parse_thread(t, p))) {
			*error = xasprintf("%s: P%d is malformed: expected P%d(params) { body }",
					   path, t->nr_threads - 1 < 0 ? 0 : t->nr_threads - 1,
					   t->nr_threads);
			return -1;
		}
	}
	if (!t->nr_threads) {
		*error = xasprintf("%s: no thread P0(...) { ... }", path);
		return -1;
	}
	apply_reg_inits(t);
	return parse_final(t, p, error);
}

void litmus_test_free(struct litmus_test *t)
{
	for (int i = 0; i < t->nr_vars; i++) {
		free(t->vars[i].name);
		free(t->vars[i].type);
		free(t->vars[i].init);
	}
	for (int i = 0; i < t->nr_threads; i++) {
		for (int r = 0; r < t->threads[i].nr_regs; r++) {
			free(t->threads[i].regs[r].name);
			free(t->threads[i].regs[r].type);
			free(t->threads[i].regs[r].init);
		}
		free(t->threads[i].regs);
		free(t->threads[i].params);
		free(t->threads[i].body);
	}
	for (int i = 0; i < t->nr_reg_inits; i++) {
		free(t->reg_inits[i].name);
		free(t->reg_inits[i].type);
		free(t->reg_inits[i].init);
	}
	free(t->reg_inits);
	free(t->vars);
	free(t->threads);
	free(t->path);
	free(t->file);
	free(t->name);
	free(t->result);
	free(t->result_by);
	free(t->exists);
	free(t->skip);
	free(t->skip_emulated);
	memset(t, 0, sizeof(*t));
}

/*
 * A file that is no test here: one row, named after the file, skipped
 * with *@error (taken) as its reason.
 */
static int skip_file(struct litmus_test *t, const char *path, char **error)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!t->name)
		t->name = strndup(base, strstr(base, ".litmus") ? (size_t)(strstr(base, ".litmus") - base) :
				  strlen(base));
	if (!t->path)
		t->path = xstrdup(path);
	free(t->skip);
	/* The row is named after the file already: its reason without the path. */
	if (!strncmp(*error, path, strlen(path)) && !strncmp(*error + strlen(path), ": ", 2))
		t->skip = xstrdup(*error + strlen(path) + 2);
	else
		t->skip = xstrdup(*error);
	free(*error);
	*error = NULL;
	return -1;
}

/*
 * @path, named in the module and the table from below @root if under it;
 * -1 if it is no test (then skipped, with why).
 */
static int add_file(const char *path, const char *root,
		    struct litmus_test **tests, int *n, char **error)
{
	const char *file = path;
	char *text = read_file(path, NULL);
	size_t len = root ? strlen(root) : 0;
	struct litmus_test *t;
	int ret;

	if (!text) {
		*tests = xrealloc(*tests, (*n + 1) * sizeof(**tests));
		t = &(*tests)[(*n)++];
		memset(t, 0, sizeof(*t));
		*error = xasprintf("cannot read %s (fix: name an existing .litmus file)", path);
		return skip_file(t, path, error);
	}
	*tests = xrealloc(*tests, (*n + 1) * sizeof(**tests));
	if (len && !strncmp(path, root, len) && path[len] == '/')
		path += len + 1;
	t = &(*tests)[(*n)++];
	ret = litmus_parse(path, text, t, error);
	t->file = xstrdup(file);
	free(text);
	return ret ? skip_file(t, path, error) : 0;
}

/* The kernel's own tests, then the project's: each folder sorted. */
static const char *const litmus_folders[] = {
	"%s/tools/memory-model/litmus-tests/*.litmus",
	"%s/Documentation/litmus-tests/*/*.litmus",
};

int litmus_collect(const char *tree, const char *repo, char *const *files,
		   int nr_files, struct litmus_test **tests, int *n, char **error)
{
	int parsed = 0;

	*tests = NULL;
	*n = 0;
	*error = NULL;
	for (int i = 0; files && i < nr_files; i++)
		parsed += !add_file(files[i], NULL, tests, n, error);
	for (size_t f = 0; !files && f <= sizeof(litmus_folders) / sizeof(*litmus_folders); f++) {
		char *pattern = f < sizeof(litmus_folders) / sizeof(*litmus_folders) ?
				xasprintf(litmus_folders[f], tree) :
				xasprintf("%s/litmus/*.litmus", repo);
		glob_t g;

		if (!glob(pattern, 0, NULL, &g))
			for (size_t i = 0; i < g.gl_pathc; i++)
				parsed += !add_file(g.gl_pathv[i], f < sizeof(litmus_folders) /
						    sizeof(*litmus_folders) ? tree : repo,
						    tests, n, error);
		globfree(&g);
		free(pattern);
	}
	if (parsed)
		return 0;
	/* Not one test: the first file's reason says why. */
	*error = *n ? xstrdup((*tests)[0].skip) :
		 xstrdup("no .litmus file found (fix: name LKMM .litmus files)");
	litmus_tests_free(*tests, *n);
	*tests = NULL;
	*n = 0;
	return -1;
}

void litmus_tests_free(struct litmus_test *tests, int n)
{
	for (int i = 0; i < n; i++)
		litmus_test_free(&tests[i]);
	free(tests);
}

size_t litmus_shape_len(const char *test)
{
	size_t len = strcspn(test, "+");

	if (len && strspn(test, "0123456789") == len && test[len])
		len += 1 + strcspn(test + len + 1, "+");
	return len;
}
