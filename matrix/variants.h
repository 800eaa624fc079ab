/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Variants of the subject, built as out-of-tree modules against each
 * target's kernel: the seed (the series without its "# fix" patches) and
 * one mutant per barrier, generated from the patched source by deleting
 * the barrier whose comment carries the tag.
 */
#ifndef KWM_VARIANTS_H
#define KWM_VARIANTS_H

#include <stdbool.h>

#include "kbuild.h"
#include "subject.h"

struct text_edit {
	const char *find;	/* must occur exactly once in the source */
	const char *replace;
};

#define MUTANT_MAX_EDITS	3

/*
 * A variant made by editing text: a break that one check must catch, or
 * delays that widen a race window so that an oracle sees it every run.
 */
struct detector_mutant {
	const char *name;
	bool of_seed;		/* edits the seed, not the patched subject */
	struct text_edit edits[MUTANT_MAX_EDITS];
};

extern const struct detector_mutant kwm_detector_mutants[];
extern const int kwm_nr_detector_mutants;

struct kwm_hash;

/* The tables the variants are made from, for a build's key. */
void variants_hash_tables(struct kwm_hash *h);

/* Every variant's folder name: seed, no-<tag>..., detector mutants. */
void variant_names(struct strlist *names);

/*
 * @source with the barrier tagged @tag removed ("mb flush-b0 paired with
 * ..."): the barrier on the tag's line, or the first one after the comment
 * that holds it.  NULL if there is no such barrier.  @removed gets the
 * line as it was.
 */
char *mutate_remove_barrier(const char *source, const char *tag,
			    char **removed);

/*
 * Why @source has no barrier tagged @tag, in a few words ("no barrier is
 * tagged so", "its tag is in two comments", ...), or NULL if it has one.
 */
const char *barrier_absence(const char *source, const char *tag);

/*
 * @source with the emulated machine's steering sites marked: the start
 * of a flush, and kwe_site("<tag>", work) after each tagged barrier it
 * has (a revision may lack one).  NULL if a flush's start is not there
 * exactly once.
 */
char *mark_barrier_sites(const char *source);

/* Stale module folders that one make can build: no two of one name. */
struct module_group {
	struct strlist dirs, names;
};

/*
 * kbuild refuses two modules of one name in a make (modules-check.sh),
 * and modpost one symbol exported twice; the variants of a module share
 * both.  So @stale goes into as few groups as its commonest name needs
 * (*@groups, the count returned), first come first placed; a folder's
 * name is its Kbuild's.
 */
int variants_group_modules(const struct strlist *stale, struct module_group **groups);
void variants_free_groups(struct module_group *groups, int n);

/*
 * Write each barrier mutant of @subject and of @seed, and each detector
 * mutant of @subject (or of @seed where it says so), under @root, adding
 * the stale ones to @stale.  -1 with @b->error set if one cannot be
 * made: a variant missing is a failed build, never a pass.
 */
int variants_stage_mutants(struct build *b, struct strlist *stale,
			   const char *root, const char *subject, const char *seed);

/*
 * The litmus module's C for @env (its files, or its tree's and the
 * repository's tests), without the tests @refused names (a build's
 * record of tests whose C did not compile; NULL: none): NULL with
 * *@error set (if not NULL) if not one file is a test.
 */
char *litmus_source(const struct build_env *env, const char *refused, char **error);
/*
 * @b's variants this revision cannot have, as its variants build found
 * them (kept in the build folder): for a build whose modules were
 * already made.
 */
void variants_not_applicable_load(struct build *b);

/* The weakly ordered machine in software that emu/ modules are built with. */
#define EMULATION_HEADER	"kw_emu.h"

/*
 * The subject and the torture in one module on that machine
 * (calibrate/kw_emu_subject.h), in emu-series/, emu-no-<tag>/, emu-seed/
 * and emu-seed-no-<tag>/ under @b->dir/kwm/emulated/.
 */
#define EMULATED_SUBJECT_HEADER	"kw_emu_subject.h"
/* The end of a hunt, after the torture: it reads the torture's checks. */
#define EMULATED_HUNT_HEADER	"kw_emu_hunt.h"

/* Every emulated torture's folder name. */
void emulated_names(struct strlist *names);

/*
 * The series edited, then without barrier @tag, on the emulated machine:
 * @edits take away what the model says covers @tag, so it must be killed.
 */
struct emulated_detector {
	const char *name;
	const char *tag;
	struct text_edit edits[MUTANT_MAX_EDITS];
};

extern const struct emulated_detector kwm_emulated_detectors[];
extern const int kwm_nr_emulated_detectors;

/*
 * The modules cut from the subject, one folder per name under /lib/kw:
 * the variants (the subject's module) and the emulated builds (the
 * subject and the torture as one module).
 */
#define VARIANTS_FOLDER	"variants"	/* under <build>/kwm/ */
#define EMULATED_FOLDER	"emulated"

struct module_family {
	void (*names)(struct strlist *names);
	const char *folder;	/* under <build>/kwm/ */
	const char *module;
};

extern const struct module_family kwm_module_families[];
extern const int kwm_nr_module_families;

/*
 * Write every variant under @b->dir/kwm/variants/, and calibrate/ under
 * @b->dir/kwm/calibrate/, and build those that are stale.
 */
int variants_build(struct build *b, const struct build_env *env);

#endif
