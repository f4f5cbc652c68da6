// SPDX-License-Identifier: GPL-2.0
/*
 * m: lines' static markers (include/optprobe-marker.h), among those
 * optprobe found (core/markers.c): a marker's format, made the parser's
 * arguments (struct opev_kernel's find_marker), and the probe's format.
 *
 * A marker's format is known only while its module is loaded.  An m:
 * line for a module that is not is parsed against any marker's
 * arguments (parse.c) and waits for the module (module.c); when it
 * comes, the line is parsed again against the marker's format.  An
 * event whose fields depend on the format (events.h: "deferred") takes
 * the fields that gives; one whose fields the line alone decided must
 * get the same fields from it.  From then on the event keeps its
 * fields: a later load of the module whose marker's format would change
 * them leaves the event pending.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "events.h"
#include "markers.h"

static_assert(OPEV_MARKER_ARGS_MAX == OPTPROBE_MARKER_ARGS_MAX);
static_assert(OPEV_MARKER_ARGS_MAX <= OPEV_PROTO_MAX_PARAMS);

/*
 * The format of marker @name of module @module, copied into *@format.
 * Return: 0; 1 if the module's markers are not known (it is not loaded,
 * or is coming and optprobe has not read them yet: its notifier runs
 * before module.c's); -ENOENT if the module has no such marker; -ENOMEM.
 */
static int opev_marker_format(const char *module, const char *name, char **format)
{
	struct optprobe_marker *marker;
	int ret = 0;

	*format = NULL;
	mutex_lock(&op_marker_mutex);
	marker = op_marker_find(module, name);
	if (marker) {
		*format = kstrdup(marker->format, GFP_KERNEL);
		ret = *format ? 0 : -ENOMEM;
	} else {
		ret = op_marker_module_known(module) ? -ENOENT : 1;
	}
	mutex_unlock(&op_marker_mutex);
	return ret;
}

/* struct opev_kernel's find_marker (parse.h) */
int opev_marker_find(const char *module, const char *name, struct opev_proto *proto)
{
	char *format;
	int ret;

	ret = opev_marker_format(module, name, &format);
	if (ret > 0)
		return 1;
	if (!ret) {
		/* the compiler checked it against at most six arguments */
		ret = opev_marker_proto(format, proto);
		if (ret)
			pr_warn_ratelimited("%s:%s: format \"%s\" not understood\n", module, name,
					    format);
		kfree(format);
	}
	return ret ? -1 : 0;
}

static const struct opev_kernel opev_marker_kernel = {
	.find_marker = opev_marker_find,
};

/*
 * A new m: event, parsed: the probe's format where its marker was found,
 * else the event waits for its module.  Return: 0, or -ENOMEM.
 */
int opev_marker_init(struct opev_event *ev)
{
	int ret;

	ev->pending = true;
	/* parsed against any marker's arguments: they are checked as it comes */
	if (ev->def.format_unknown)
		return 0;
	ret = opev_marker_format(ev->def.module, ev->def.symbol, &ev->marker_format);
	/* gone since it was parsed: its going (module.c) waits for this write */
	if (ret && ret != -ENOMEM)
		return 0;
	ev->pending = !!ret;
	return ret;
}

/*
 * @ev's line parsed again against its marker's format (@format, which
 * opev_marker_find() finds again while the module is coming), into a
 * new event laid out; NULL, and the reason in the kernel log, if it
 * does not fit.
 */
static struct opev_event *opev_marker_reparse(struct opev_event *ev, const char *format)
{
	size_t len = strlen(ev->text) + 1;
	struct opev_event *tmp = NULL;
	struct opev_def def = {};
	struct opev_error err;
	unsigned int column;
	int code;

	def.args = kvmalloc_array(OPEV_MAX_ARGS, sizeof(*def.args), GFP_KERNEL);
	def.buf = kmalloc(len, GFP_KERNEL);
	def.proto = kmalloc(sizeof(*def.proto), GFP_KERNEL);
	if (!def.args || !def.buf || !def.proto) {
		pr_warn_ratelimited("event %s/%s stays pending: out of memory\n", ev->def.group,
				    ev->def.event);
		goto out;
	}
	if (opev_parse(ev->text, &def, IS_ENABLED(CONFIG_X86_64) ? OPEV_ARCH_X86_64 :
		       OPEV_ARCH_PPC64, &opev_marker_kernel, &err)) {
		code = err.code;
		column = err.column;
		goto refused;
	}
	tmp = opev_event_alloc(&def, ev->text);
	if (!tmp) {
		pr_warn_ratelimited("event %s/%s stays pending: out of memory\n", ev->def.group,
				    ev->def.event);
		goto out;
	}
	if (!opev_event_layout(tmp, &code, &column))
		goto out;
	opev_event_free(tmp);
	tmp = NULL;
refused:
	pr_warn_ratelimited("event %s/%s stays pending: with %s's format \"%s\", its line's column %u: %s\n",
			    ev->def.group, ev->def.event, ev->def.symbol, format, column,
			    opev_error_text(code));
out:
	kfree(def.proto);
	kfree(def.buf);
	kvfree(def.args);
	return tmp;
}

/*
 * Under opev_mutex, @ev's module coming and @ev pending: the marker's
 * format for its probe, and its fields if they waited for it.  Return:
 * 0, or -ENOENT (no such marker), -EINVAL (its format does not fit the
 * line or the event's fields) or -ENOMEM, and the event stays pending,
 * with the reason in the kernel log.
 */
int opev_marker_resolve(struct opev_event *ev)
{
	struct opev_event *tmp;
	char *format;
	int ret;

	ret = opev_marker_format(ev->def.module, ev->def.symbol, &format);
	if (ret) {
		pr_warn_ratelimited("event %s/%s stays pending: %s has no marker %s (%d)\n",
				    ev->def.group, ev->def.event, ev->def.module, ev->def.symbol,
				    ret);
		return ret > 0 ? -ENOENT : ret;
	}
	if (ev->marker_format && !strcmp(ev->marker_format, format)) {
		kfree(format);
		return 0;
	}
	tmp = opev_marker_reparse(ev, format);
	ret = -EINVAL;
	if (!tmp)
		goto out;
	if (ev->deferred) {
		ret = opev_event_take_layout(ev, tmp);
	} else if (opev_event_same_layout(ev, tmp)) {
		ret = 0;
	} else {
		pr_warn_ratelimited("event %s/%s stays pending: %s's format \"%s\" changes its fields\n",
				    ev->def.group, ev->def.event, ev->def.symbol, format);
	}
	opev_event_free(tmp);
	if (ret)
		goto out;
	kfree(ev->marker_format);
	ev->marker_format = format;
	/* the probe's strings, in the definition taken */
	return opev_event_init_probe(ev);
out:
	kfree(format);
	return ret;
}
