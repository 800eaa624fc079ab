/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Linux-kernel memory model's verdict on each barrier: the litmus test
 * litmus/no-<tag>.litmus states the outcome expected without it in its
 * header ("Result: Sometimes"), and herd7, when installed, checks it
 * against the tree's tools/memory-model.
 */
#ifndef KWM_LKMM_H
#define KWM_LKMM_H

/* The expected verdict in @path's header, or NULL. */
char *litmus_expected(const char *path);

/*
 * One line for the barrier table: "Sometimes (herd7)", or "not run (herd7
 * not installed)" with the expected verdict.
 */
char *lkmm_verdict(const char *repo, const char *tree, const char *tag);

#endif
