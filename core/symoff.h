/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing of "name+0xOFF/0xSIZE [module]" as printed by sprint_symbol().
 *
 * Freestanding: no kernel or libc headers, so that the host unit tests
 * build exactly this code.
 */
#ifndef OPTPROBE_SYMOFF_H
#define OPTPROBE_SYMOFF_H

/**
 * op_symoff_parse() - split a sprint_symbol() string
 * @s:		the string, e.g. "kallsyms_lookup_name+0xc/0x140"
 * @name:	the symbol name @s must start with
 * @off:	out: the offset
 * @size:	out: the symbol size
 *
 * Return: 0 when @s names exactly @name with a well-formed offset and size,
 * -1 otherwise (another symbol, a raw address, a malformed string).
 */
int op_symoff_parse(const char *s, const char *name,
		    unsigned long *off, unsigned long *size);

#endif /* OPTPROBE_SYMOFF_H */
