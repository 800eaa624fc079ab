/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of a C function in a source file, and its digest: a memory
 * model names the functions it describes with their digests ("Code:"),
 * and holds only while the code has that text.
 */
#ifndef KWM_CODE_H
#define KWM_CODE_H

/* The first 12 hex digits of the sha256 of a function's text, and the NUL. */
#define CODE_DIGEST_HEX	13

/*
 * The definition of function @name in @source, from the line that starts
 * it to its closing "}" line (kernel style: the body's braces alone on
 * their lines), or NULL if @source does not define it.
 */
char *code_function(const char *source, const char *name);

/* Its digest into @out; -1 if @source does not define @name. */
int code_function_digest(const char *source, const char *name,
			 char out[CODE_DIGEST_HEX]);

#endif
