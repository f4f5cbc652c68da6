/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static markers (include/optprobe-marker.h): what optprobe keeps of the
 * markers it found, and the probes on them.
 *
 *   markers.c		the registry: every module's records, read into
 *			markers by module and name
 *   marker-format.c	the arguments' types, from a marker's format
 *   marker-module.c	modules coming and going; optprobe's load
 *   marker-probes.c	the public API: probes on markers, one optprobe per
 *			site of the marker (a hook), and the hit that reads
 *			the marker's arguments for the handler; debugfs
 *			"markers"
 *
 * Everything here is under op_marker_mutex, taken before op_mutex.
 */
#ifndef OPTPROBE_MARKERS_H
#define OPTPROBE_MARKERS_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <optprobe.h>
#include <optprobe-marker.h>

struct module;
struct pt_regs;
struct seq_file;

#define OP_MLOC_NO_REG	(-1)

/*
 * Where one argument of a marker site is, decoded from its record: the
 * sum @off + @base's value + (@index's value << @scale) is the argument
 * (a constant: @off alone; a register: @base alone), or with @mem its
 * address.  The backend decodes register numbers (op_arch_marker_loc());
 * markers.c makes them offsets into struct pt_regs, so that a hit reads
 * them with one load.
 */
enum op_marker_how {
	OP_MLOC_REG,		/* @base alone: one load */
	OP_MLOC_CONST,		/* @off alone, extended already */
	OP_MLOC_SUM,		/* the general case, an index or memory */
};

struct op_marker_loc {
	u8 how;			/* enum op_marker_how, from the others at decode time */
	s16 base;		/* byte offset of a register in struct pt_regs, or OP_MLOC_NO_REG */
	s16 index;		/* likewise */
	u8 scale;
	bool mem;
	u8 size;		/* the argument's, in bytes: 4 or 8 */
	u8 shift;		/* 64 - 8 * @size, for the extension to 64 bits */
	bool is_signed;
	long off;
};

struct op_marker_site {
	unsigned long addr;
	bool init;		/* in its module's init text */
	struct op_marker_loc args[OPTPROBE_MARKER_ARGS_MAX];
};

/* A marker: every site of one name in one module. */
struct optprobe_marker {
	struct list_head list;		/* in op_markers */
	struct module *mod;
	const char *name;		/* the module's strings, while it is loaded */
	const char *format;
	unsigned int nargs;
	unsigned int nsites;
	struct op_marker_site *sites;
	struct list_head probes;	/* struct optprobe_marker_probe, registration order */
};

/*
 * Is @site gone with its module's init text?  That text is done once the
 * module is not coming any more: live (before the LIVE notifier runs), or
 * going after a failed init.
 */
static inline bool op_marker_site_gone(const struct optprobe_marker *marker,
				       const struct op_marker_site *site)
{
	return site->init && marker->mod->state != MODULE_STATE_COMING;
}

/* The probe a marker probe has on one site; hooks[] of the marker probe. */
struct op_marker_hook {
	struct optprobe p;
	struct optprobe_marker_probe *mp;
	unsigned int nargs;
	struct op_marker_loc args[OPTPROBE_MARKER_ARGS_MAX];
};

/* optprobe_marker_probe.state */
enum op_mp_state {
	OP_MP_UNREGISTERED,	/* zero-initialised */
	OP_MP_PENDING,		/* on op_marker_pending, its module not loaded */
	OP_MP_ARMED,		/* hooks registered, on its marker's probes */
	OP_MP_GONE,		/* hooks registered but gone, or never armed */
};

extern struct mutex op_marker_mutex;
extern struct list_head op_markers;

/* markers.c */
struct optprobe_marker *op_marker_find(const char *module, const char *name);
bool op_marker_module_known(const char *module);
void op_markers_read(struct module *mod);
int op_markers_read_loaded(void);
void op_markers_drop(struct module *mod);
void op_markers_free(void);

/* marker-module.c */
int op_markers_init(void);
void op_markers_exit(void);

/* marker-probes.c */
void op_marker_probes_coming(struct module *mod);
void op_marker_probes_gone(struct optprobe_marker *marker);
void op_markers_show(struct seq_file *m);

#endif /* OPTPROBE_MARKERS_H */
