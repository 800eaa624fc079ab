/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of an emulated mutant's hunt, included after the torture (whose
 * checks it reads) in each module kwmatrix's variants.c makes of it: the
 * first violation decides, the rest of the run would not.  hunt_past
 * names a check that fails anyway (the seed's completion), which does not
 * end the hunt.
 */
#ifndef KW_EMU_HUNT_H
#define KW_EMU_HUNT_H

static char *hunt_past = "";
module_param(hunt_past, charp, 0444);
MODULE_PARM_DESC(hunt_past, "A check whose violations do not end the hunt");

static bool kwt_hunt_over(void)
{
	int i;

	for (i = 0; i < KWT_NR_CHECKS; i++)
		if (atomic_long_read(&kwt_violations[i].count) &&
		    strcmp(kwt_check_names[i], hunt_past))
			return true;
	return false;
}

#endif
