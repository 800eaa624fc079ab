/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calibration's figures as the guest's init reads them back from the
 * kernel's log, and the suites they hold back: a suite that needs a
 * shape's weak outcome (KWM_PARAM_NEEDS_WEAK) is not run where the
 * calibration before it saw that shape 0 times.
 */
#ifndef KWM_SHAPES_H
#define KWM_SHAPES_H

#define SHAPES_MAX	32
#define SHAPE_NAME_MAX	48

struct shape_seen {
	char name[SHAPE_NAME_MAX];
	unsigned long runs, weak;
};

struct shape_table {
	struct shape_seen v[SHAPES_MAX];
	int n;
};

/* Keep @record's calibration figure, if it has one: each shape's first. */
void shapes_note(struct shape_table *t, const char *record);

/*
 * The figure of the shape a suite's own @params need, where calibration
 * saw it 0 times: the suite would show nothing.  NULL where it needs
 * none, or saw it, or did not report it.
 */
const struct shape_seen *shapes_unseen_need(const struct shape_table *t,
					    const char *params);

#endif
