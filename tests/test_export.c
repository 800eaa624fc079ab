// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/* JUnit XML, KCIDB JSON and merging shards, from matrix.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "html.h"
#include "junit.h"
#include "kcidb.h"
#include "merge.h"
#include "tmpdir.h"
#include "util.h"

/* A shard's matrix.json with one column of @package and three cells. */
static char *write_shard_of(const char *name, const char *column,
			    const char *package, const char *digest)
{
	char *folder = xasprintf("%s/%s", dir, name);
	char *path = xasprintf("%s/matrix.json", folder);
	char *logs = xasprintf("%s/%s", folder, column);
	char *text = xasprintf(
		"{ \"format\": \"kwmatrix-1\", \"run_id\": \"%s\", \"complete\": true,"
		"  \"started\": \"2026-12-03T10:00:00Z\", \"seconds\": 12.5,"
		"  \"suites\": [ \"kunit\", \"mutant-flush-b1\" ],"
		"  \"targets\": [ { \"target\": \"arm64\", \"arch\": \"arm64\","
		"    \"source_package\": \"%s\", \"source_version\": \"%s.192-3\","
		"    \"series_digest\": \"%s\","
		"    \"kernel\": \"plain\", \"column\": \"%s\", \"unavailable\": null,"
		"    \"build\": { \"status\": \"PASS\", \"toolchain\": \"gcc 12\", \"seconds\": 3.5 },"
		"    \"guest\": { \"qemu_command\": \"qemu-system-aarch64 -M virt\" },"
		"    \"cells\": ["
		"      { \"suite\": \"kunit\", \"status\": \"PASS\", \"reason\": null,"
		"        \"tests\": [ { \"name\": \"kw_worker\", \"status\": \"PASS\","
		"          \"subtests\": [ { \"name\": \"queue.runs\", \"status\": \"PASS\" },"
		"                          { \"name\": \"flush <waits> & \\\"returns\\\"\", \"status\": \"SKIP\" } ] } ] },"
		"      { \"suite\": \"mutant-flush-b1\", \"status\": \"UNOBSERVABLE\","
		"        \"reason\": \"calibration saw MP+wmb 0 times\", \"tests\": [] },"
		"      { \"suite\": \"torture\", \"status\": \"CRASHED\", \"reason\": \"console: <panic>\","
		"        \"excerpt\": \"Kernel panic - not syncing: & <\\u0001>\", \"tests\": [] } ] } ] }",
		name, package, package + strlen("linux-source-"), digest, column);

	assert_int_equal(mkdir_p(logs), 0);
	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	free(text);
	free(logs);
	free(folder);
	return path;
}

static char *write_shard(const char *name, const char *column,
			 const char *digest)
{
	return write_shard_of(name, column, "linux-source-6.1", digest);
}

static int xpath_count(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr res = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	int n = res && res->nodesetval ? res->nodesetval->nodeNr : 0;

	xmlXPathFreeObject(res);
	xmlXPathFreeContext(ctx);
	return n;
}

static void junit_is_valid_xml_with_every_cell(void **state)
{
	char *shard = write_shard("a", "arm64", "d1");
	char *out = xasprintf("%s/junit.xml", dir);
	json_object *m = json_object_from_file(shard);
	xmlDocPtr doc;

	(void)state;
	assert_int_equal(junit_write(m, out), 0);
	doc = xmlReadFile(out, NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	assert_int_equal(xpath_count(doc, "/testsuites/testsuite[@name='arm64']"), 1);
	/* Three cells, and three KTAP cases of kunit. */
	assert_int_equal(xpath_count(doc, "//testcase"), 6);
	assert_int_equal(xpath_count(doc, "//testcase[@name='mutant-flush-b1']/skipped"), 1);
	assert_int_equal(xpath_count(doc, "//testcase[@name='torture']/error"), 1);
	assert_int_equal(xpath_count(doc, "//testsuite[@errors='1'][@skipped='1']"), 1);
	xmlFreeDoc(doc);
	json_object_put(m);
	free(out);
	free(shard);
}

static void kcidb_has_no_nulls_and_known_statuses(void **state)
{
	char *shard = write_shard("k", "arm64+kcsan", "d1");
	char *out = xasprintf("%s/kcidb.json", dir);
	json_object *m = json_object_from_file(shard), *k, *tests, *v;
	const char *text;

	(void)state;
	assert_int_equal(kcidb_write(m, out), 0);
	k = json_object_from_file(out);
	assert_non_null(k);
	text = json_object_to_json_string(k);
	assert_null(strstr(text, "null"));
	assert_true(json_object_object_get_ex(k, "tests", &tests));
	assert_int_equal(json_object_array_length(tests), 6);
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		const char *status = json_object_get_string(json_object_object_get(t, "status"));
		const char *path = json_object_get_string(json_object_object_get(t, "path"));

		assert_non_null(strstr("PASS FAIL ERROR MISS SKIP", status));
		assert_int_equal(strncmp(json_object_get_string(json_object_object_get(t, "id")),
					 KCIDB_ORIGIN ":", strlen(KCIDB_ORIGIN) + 1), 0);
		assert_int_equal(strncmp(path, "kw_worker.", 10), 0);
		assert_null(strchr(path, ' '));
	}
	/* A name's own dot does not make a level. */
	assert_non_null(strstr(text, "kw_worker.kunit.kw_worker.queue_runs"));
	assert_true(json_object_object_get_ex(k, "builds", &v));
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(v, 0), "config_name")), "arm64+kcsan");
	assert_string_equal(kcidb_status("KILLED"), "PASS");
	assert_string_equal(kcidb_status("ERROR"), "MISS");
	assert_string_equal(kcidb_status("SURVIVED"), "FAIL");
	assert_string_equal(kcidb_status("UNDECIDED"), "ERROR");
	json_object_put(k);
	json_object_put(m);
	free(out);
	free(shard);
}

/* KCIDB's path alphabet is [.a-zA-Z0-9_-]: one stable mapping into it. */
static void kcidb_paths_keep_to_the_schema_alphabet(void **state)
{
	static const char *const cases[][2] = {
		{ "SB+mbs", "SB__mbs" },
		{ "SB+mb-plain+wait", "SB__mb-plain__wait" },
		{ "kw_worker.queue", "kw_worker_queue" },
		{ "a b/c", "a_b_c" },
		{ "", "_" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = kcidb_path_component(cases[i][0]);

		assert_string_equal(got, cases[i][1]);
		for (const char *p = got; *p; p++)
			assert_non_null(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *p));
		free(got);
	}
}

static void html_has_a_cell_per_result_and_escapes(void **state)
{
	char *shard = write_shard("h", "arm64", "d1");
	char *out = xasprintf("%s/index.html", dir);
	json_object *m = json_object_from_file(shard);
	char *text;
	htmlDocPtr doc;

	(void)state;
	assert_int_equal(html_write(m, out), 0);
	text = read_file(out, NULL);
	/* The excerpt's "<" and "&" are text, never markup. */
	assert_non_null(strstr(text, "&amp; &lt;"));
	assert_null(strstr(text, "<panic>"));
	doc = htmlReadFile(out, NULL, HTML_PARSE_NONET | HTML_PARSE_NOERROR);
	assert_non_null(doc);
	/* Two suites asked for, one column; "torture" only in the details. */
	assert_int_equal(xpath_count(doc, "//table[@id='matrix']//td"), 2);
	assert_int_equal(xpath_count(doc, "//td[@class='UNOBSERVABLE']/a[@href='#cell-arm64-mutant-flush-b1']"), 1);
	assert_int_equal(xpath_count(doc, "//details"), 3);
	assert_int_equal(xpath_count(doc, "//details[@id='cell-arm64-torture']/pre"), 1);
	xmlFreeDoc(doc);
	free(text);
	json_object_put(m);
	free(out);
	free(shard);
}

static void shards_merge_into_one_matrix(void **state)
{
	char *a = write_shard("s1", "arm64", "d1"), *b = write_shard("s2", "riscv64", "d1");
	char *c = write_shard("s3", "arm64", "d1"), *d = write_shard("s4", "ppc64le", "d2");
	char *out = xasprintf("%s/merged", dir), *path = xasprintf("%s/matrix.json", out);
	char *logs = xasprintf("%s/riscv64", out);
	const char *two[] = { a, b }, *dup[] = { a, c }, *mixed[] = { a, d };
	const char *missing[] = { a, "/nonexistent/matrix.json" };
	json_object *m;

	(void)state;
	/* The shards have a CRASHED cell: merged, but not green. */
	assert_int_equal(merge_results(two, 2, out), 1);
	m = json_object_from_file(path);
	assert_non_null(m);
	assert_int_equal(json_object_array_length(json_object_object_get(m, "targets")), 2);
	assert_true(path_exists(logs));
	json_object_put(m);
	rm_rf(out);
	assert_int_equal(merge_results(dup, 2, out), 2);
	assert_int_equal(merge_results(mixed, 2, out), 2);
	assert_int_equal(merge_results(missing, 2, out), 2);
	assert_false(path_exists(path));
	free(c);
	/* Two kernel versions, each with its own refresh of the series. */
	c = write_shard_of("s5", "arm64@6.12", "linux-source-6.12", "d3");
	two[1] = c;
	assert_int_equal(merge_results(two, 2, out), 1);
	free(path);
	path = xasprintf("%s/kcidb.json", out);
	m = json_object_from_file(path);
	assert_non_null(m);
	assert_int_equal(json_object_array_length(json_object_object_get(m, "checkouts")), 2);
	json_object_put(m);
	free(a);
	free(b);
	free(c);
	free(d);
	free(out);
	free(path);
	free(logs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(junit_is_valid_xml_with_every_cell),
		cmocka_unit_test(kcidb_has_no_nulls_and_known_statuses),
		cmocka_unit_test(kcidb_paths_keep_to_the_schema_alphabet),
		cmocka_unit_test(html_has_a_cell_per_result_and_escapes),
		cmocka_unit_test(shards_merge_into_one_matrix),
	};

	return cmocka_run_group_tests_name("export", tests, setup, teardown);
}
