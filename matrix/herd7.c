// SPDX-License-Identifier: GPL-2.0
/* herd7: run it, and keep what it said as data. */
#define _GNU_SOURCE
#include "herd7.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "fs.h"
#include "hash.h"
#include "proc.h"

#define HERD7		"herd7"
#define HERD7_ARGS	"-conf linux-kernel.cfg"
#define RECORD_FIELDS	8

static const char *const model_suffixes[] = { ".cat", ".bell", ".def", ".cfg" };

static bool is_model_file(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(model_suffixes) / sizeof(*model_suffixes); i++) {
		size_t slen = strlen(model_suffixes[i]);

		if (len > slen && !strcmp(name + len - slen, model_suffixes[i]))
			return true;
	}
	return false;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int model_file(const struct dirent *d)
{
	return is_model_file(d->d_name);
}

char *herd7_model_digest(const char *tree)
{
	char *dir = xasprintf("%s/tools/memory-model", tree), *out = NULL;
	struct dirent **names;
	int n = scandir(dir, &names, model_file, by_name);

	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]->d_name);
		struct kwm_hash *h = hash_new();
		char hex[KWM_HASH_HEX];

		if (!hash_add_file(h, path)) {
			hash_final(h, hex);
			xappendf(&out, "%s%s=%s", out ? "," : "", names[i]->d_name, hex);
		} else {
			hash_final(h, hex);
		}
		free(path);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(dir);
	return out;
}

/* "7.57", of herd7's "7.57, Rev: <commit>". */
char *herd7_version(void)
{
	char *line = in_path(HERD7) ? cmd_output_line(HERD7 " -version 2>&1") : NULL;

	if (line)
		line[strcspn(line, ", \t")] = '\0';
	return line;
}

/* herd7's whole output on @path, run where the model's files are. */
static char *herd7_output(const char *tree, const char *path)
{
	char *cmd = xasprintf("cd '%s/tools/memory-model' && " HERD7 " " HERD7_ARGS " '%s' 2>&1",
			      tree, path);
	FILE *p = popen(cmd, "r");
	char *out = NULL, line[4096];

	free(cmd);
	if (!p)
		return NULL;
	while (fgets(line, sizeof(line), p))
		xappendf(&out, "%s", line);
	pclose(p);
	return out;
}

int herd7_run(const char *tree, const char *path, struct herd7_record *out,
	      char **why)
{
	char *text = herd7_output(tree, path), *states = NULL;
	char name[256], verdict[32];
	int nr_states = -1;
	bool have = false;

	*why = NULL;
	for (char *line = text, *nl; line && *line; line = nl + !!*nl) {
		nl = strchrnul(line, '\n');
		if (nr_states > 0) {
			xappendf(&states, "%s%.*s", states ? " | " : "",
				 (int)(nl - line), line);
			nr_states--;
		} else if (sscanf(line, "States %d", &nr_states) == 1) {
			continue;
		} else if (sscanf(line, "Observation %255s %31s", name, verdict) == 2) {
			have = true;
		}
	}
	if (!have) {
		char *first = text ? strndup(text, strcspn(text, "\n")) : NULL;

		*why = xasprintf("herd7 gave no verdict: %s; a herd7 built by hand needs HERDLIB=<its herd/libdir>",
				 first && *first ? first : "no output");
		free(first);
		free(states);
		free(text);
		return -1;
	}
	/* One line per record: the states' own ";" stay, tabs do not. */
	for (char *c = states; c && *c; c++)
		if (*c == '\t')
			*c = ' ';
	out->verdict = xstrdup(verdict);
	out->states = states ? states : xstrdup("");
	out->herd7 = herd7_version();
	if (!out->herd7)
		out->herd7 = xstrdup("unknown");
	out->command = xstrdup(HERD7_COMMAND);
	free(text);
	return 0;
}

static bool is_hex_hash(const char *s)
{
	return strlen(s) == KWM_HASH_HEX - 1 &&
	       strspn(s, "0123456789abcdef") == KWM_HASH_HEX - 1;
}

static bool is_verdict(const char *s)
{
	return !strcmp(s, "Never") || !strcmp(s, "Sometimes") || !strcmp(s, "Always");
}

/* One tab-separated line into @r: 0, or -1 if it is not a record. */
static int record_parse(char *line, struct herd7_record *r)
{
	char *field[RECORD_FIELDS], *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, "\t", &save); tok && n < RECORD_FIELDS;
	     tok = strtok_r(NULL, "\t", &save))
		field[n++] = tok;
	if (n != RECORD_FIELDS || tok || !is_hex_hash(field[0]) ||
	    !is_verdict(field[3]))
		return -1;
	memset(r, 0, sizeof(*r));
	memcpy(r->test, field[0], KWM_HASH_HEX);
	r->lkmm = xstrdup(field[1]);
	r->herd7 = xstrdup(field[2]);
	r->verdict = xstrdup(field[3]);
	r->states = xstrdup(strcmp(field[4], "-") ? field[4] : "");
	r->date = xstrdup(field[5]);
	r->name = xstrdup(field[6]);
	r->command = xstrdup(field[7]);
	return 0;
}

int herd7_records_read(const char *path, struct herd7_records *out, char **why)
{
	char *text = read_file(path, NULL);
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (!text)
		return path_exists(path) ?
		       (*why = xasprintf("cannot read %s: check its permissions", path), -1) : 0;
	for (char *line = text, *next; *line; line = next) {
		struct herd7_record r;
		char *nl = strchrnul(line, '\n');

		next = *nl ? nl + 1 : nl;
		*nl = '\0';
		lineno++;
		if (*line == '#' || !*line)
			continue;
		if (record_parse(line, &r)) {
			/* No parentheses: the text is quoted inside some. */
			*why = xasprintf("%s line %d is not a record of herd7's: git checkout %s, or kwmatrix models --record TREE with herd7 installed",
					 path, lineno, HERD7_RECORDS);
			herd7_records_free(out);
			free(text);
			return -1;
		}
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = r;
	}
	free(text);
	return 0;
}

int herd7_records_write(const char *path, const struct herd7_records *records)
{
	char *text = xstrdup(
		"# herd7's verdicts on litmus tests, kept as data: written where herd7 runs\n"
		"# (`kwmatrix models --record TREE` for litmus/path-*.litmus and their mutants,\n"
		"# `kwmatrix litmus --record TREE FILE...` for a folder of tests), and read\n"
		"# where it does not (a record counts only for the same test on the same model).\n"
		"# Columns: sha256 of the test's text; the sha256 of each of the model's\n"
		"# .cat/.bell/.def/.cfg files in tools/memory-model; herd7's version; its\n"
		"# verdict; the states it listed; the date; the test; the command.\n");
	int ret;

	for (int i = 0; i < records->n; i++) {
		const struct herd7_record *r = &records->v[i];

		xappendf(&text, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r->test, r->lkmm,
			 r->herd7, r->verdict, *r->states ? r->states : "-",
			 r->date, r->name, r->command);
	}
	ret = write_file_atomic(path, text, strlen(text));
	free(text);
	return ret;
}

const struct herd7_record *herd7_records_find(const struct herd7_records *records,
					      const char *test, const char *lkmm)
{
	for (int i = 0; records && test && lkmm && i < records->n; i++)
		if (!strcmp(records->v[i].test, test) && !strcmp(records->v[i].lkmm, lkmm))
			return &records->v[i];
	return NULL;
}

void herd7_records_put(struct herd7_records *records, const struct herd7_record *r)
{
	struct herd7_record copy = *r, *slot;

	copy.lkmm = xstrdup(r->lkmm);
	copy.herd7 = xstrdup(r->herd7);
	copy.verdict = xstrdup(r->verdict);
	copy.states = xstrdup(r->states ? r->states : "");
	copy.date = xstrdup(r->date);
	copy.name = xstrdup(r->name);
	copy.command = xstrdup(r->command);
	slot = (struct herd7_record *)herd7_records_find(records, r->test, r->lkmm);
	if (slot) {
		herd7_record_free(slot);
	} else {
		records->v = xrealloc(records->v, (records->n + 1) * sizeof(*records->v));
		slot = &records->v[records->n++];
	}
	*slot = copy;
}

void herd7_record_free(struct herd7_record *r)
{
	free(r->lkmm);
	free(r->herd7);
	free(r->verdict);
	free(r->states);
	free(r->date);
	free(r->name);
	free(r->command);
	memset(r, 0, sizeof(*r));
}

void herd7_records_free(struct herd7_records *records)
{
	for (int i = 0; i < records->n; i++)
		herd7_record_free(&records->v[i]);
	free(records->v);
	memset(records, 0, sizeof(*records));
}
