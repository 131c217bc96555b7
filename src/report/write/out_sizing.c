/* SPDX-License-Identifier: MIT */
/* out_sizing.c: the recommendations and replays in the --json document
 * and in the terminal report (a line per group, under input its lines on
 * the input size or why it fell back, the savings-and-risk table and the
 * waste-and-failures table per strategy). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/write/sizing_out.h"
#include "basic/xmalloc.h"

const char *rp_rec_none_why(const struct rp_rec *r)
{
	return r->ex.failed && !r->ex.no_memory && !r->ex.absurd ?
	       "every task failed or was stopped at a limit" :
	       "no task ended well with a usable memory figure";
}

const char *rp_rec_floor_why(char *buf, size_t len, const struct rp_rec *r)
{
	char mem[48] = "", wall[48] = "";

	if (!r->raised && !r->from_retry)
		return NULL;
	if (r->floor_memory >= 0)
		snprintf(mem, sizeof(mem), "memory at least %" PRId64 " MB", r->floor_memory);
	if (r->floor_wall_time >= 0)
		snprintf(wall, sizeof(wall), "wall time at least %" PRId64 " min",
			 r->floor_wall_time / 60);
	snprintf(buf, len, "%s%s%s: the retry of %zu task%s stopped at a limit", mem,
		 mem[0] && wall[0] ? " and " : "", wall, r->taught, r->taught == 1 ? "" : "s");
	return buf;
}

static json_t *opt_int(int64_t v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *excluded(const struct rp_excluded *e)
{
	json_t *o = json_object();

	json_object_set_new(o, "failed", json_integer((json_int_t)e->failed));
	json_object_set_new(o, "no_memory", json_integer((json_int_t)e->no_memory));
	json_object_set_new(o, "absurd", json_integer((json_int_t)e->absurd));
	return o;
}

/* One resource's line on the input size: fitted or why not. */
static json_t *line_json(const struct rp_line *l)
{
	json_t *o = json_object();

	json_object_set_new(o, "fitted", json_boolean(l->on));
	json_object_set_new(o, "tasks_with_input", json_integer((json_int_t)l->n));
	json_object_set_new(o, "spearman", isnan(l->rho) ? json_null() : json_real(l->rho));
	if (!l->on) {
		json_object_set_new(o, "fallback", json_string("max"));
		json_object_set_new(o, "why", json_string(l->why ? l->why : "no usable task"));
		return o;
	}
	json_object_set_new(o, "slope", json_real(l->slope));
	json_object_set_new(o, "intercept", json_real(l->icpt));
	json_object_set_new(o, "margin", json_real(l->margin));
	json_object_set_new(o, "floor", json_integer(l->lo));
	json_object_set_new(o, "cap", json_integer(l->hi));
	return o;
}

static json_t *lines_json(const struct rp_rec *r)
{
	json_t *o = json_object();

	json_object_set_new(o, rp_res_fig(RP_MEMORY)->name, line_json(&r->line[RP_L_MEMORY]));
	json_object_set_new(o, rp_res_fig(RP_WALL_TIME)->name,
			    line_json(&r->line[RP_L_WALL_TIME]));
	return o;
}

static json_t *recommend(const struct rp_rec *r)
{
	json_t *o = json_object();
	char sn[64];

	json_object_set_new(o, "strategy", json_string(rp_strat_name(sn, sizeof(sn), &r->strat)));
	json_object_set_new(o, rp_res_fig(RP_CORES)->name, opt_int(r->has ? r->cores : -1));
	json_object_set_new(o, rp_res_fig(RP_MEMORY)->name, opt_int(r->has ? r->memory : -1));
	json_object_set_new(o, rp_res_fig(RP_DISK)->name, opt_int(r->has ? r->disk : -1));
	json_object_set_new(o, rp_res_fig(RP_WALL_TIME)->name, opt_int(r->has ? r->wall_time : -1));
	json_object_set_new(o, "tasks_used", json_integer((json_int_t)r->used));
	if (r->fallback) {
		json_object_set_new(o, "fallback", json_string("max"));
		json_object_set_new(o, "tasks_needed", json_integer((json_int_t)r->need));
	}
	if (r->ex.failed || r->ex.no_memory || r->ex.absurd)
		json_object_set_new(o, "excluded", excluded(&r->ex));
	if (r->strat.s == RP_S_INPUT && r->has)
		json_object_set_new(o, "by_input", lines_json(r));
	if (!r->has) {
		char *note = xasprintf("%s: no recommendation", rp_rec_none_why(r));

		json_object_set_new(o, "note", json_string(note));
		free(note);
	}
	if (r->taught) {
		json_t *fl = json_object();

		json_object_set_new(fl, "tasks", json_integer((json_int_t)r->taught));
		json_object_set_new(fl, res_info(TP_RES_MEMORY)->name, opt_int(r->floor_memory));
		json_object_set_new(fl, res_info(TP_RES_WALL_TIME)->name,
				    opt_int(r->floor_wall_time));
		json_object_set_new(fl, "raised", json_boolean(r->raised || r->from_retry));
		json_object_set_new(o, "retry_floor", fl);
	}
	return o;
}

static void tally(json_t *o, const struct rp_tally *t)
{
	json_object_set_new(o, "tasks", json_integer((json_int_t)t->tasks));
	json_object_set_new(o, "fit_first_try", json_integer((json_int_t)t->fit));
	json_object_set_new(o, "exceeded_first_try", json_integer((json_int_t)t->exceeded));
	json_object_set_new(o, "failed_after_retries", json_integer((json_int_t)t->failed));
	json_object_set_new(o, "memory_mb_hours_allocated", json_real(t->mem_alloc));
	json_object_set_new(o, "memory_mb_hours_used", json_real(t->mem_used));
	json_object_set_new(o, "core_hours_allocated", json_real(t->core_alloc));
	json_object_set_new(o, "core_hours_used", json_real(t->core_used));
	json_object_set_new(o, "memory_mb_hours_wasted", json_real(t->mem_alloc - t->mem_used));
	json_object_set_new(o, "failed_attempts", json_integer((json_int_t)t->attempts_failed));
	json_object_set_new(o, "hours_lost", json_real(t->lost_h));
}

/* The same under the records' own requests (used: the same as above). */
static void tally_requested(json_t *o, const struct rp_tally *t)
{
	json_object_set_new(o, "tasks_requested", json_integer((json_int_t)t->tasks));
	json_object_set_new(o, "fit_first_try_requested", json_integer((json_int_t)t->fit));
	json_object_set_new(o, "exceeded_first_try_requested",
			    json_integer((json_int_t)t->exceeded));
	json_object_set_new(o, "memory_mb_hours_requested", json_real(t->mem_alloc));
	json_object_set_new(o, "core_hours_requested", json_real(t->core_alloc));
}

static json_t *replay(const struct rp_replay *p)
{
	json_t *o = json_object();

	tally(o, &p->rec);
	if (p->req_tasks == 0)
		return o;
	tally_requested(o, &p->req);
	json_object_set_new(o, "memory_mb_hours_saved",
			    json_real(p->req.mem_alloc - p->rec_same.mem_alloc));
	json_object_set_new(o, "core_hours_saved",
			    json_real(p->req.core_alloc - p->rec_same.core_alloc));
	return o;
}

void rp_sizing_json_group(json_t *o, const struct rp_sizing *z, size_t i)
{
	json_object_set_new(o, "recommend", recommend(&z->rec[0][i]));
	json_object_set_new(o, "replay", replay(&z->rep[0][i]));
}

void rp_sizing_json_root(json_t *root, const struct rp_sizing *z)
{
	json_t *rec = json_object(), *all = json_array();
	char sn[64];
	size_t s;

	json_object_set_new(rec, "strategy", json_string(rp_strat_name(sn, sizeof(sn), &z->strat[0])));
	json_object_set_new(rec, "margin", json_real(z->opts.margin));
	json_object_set_new(root, "recommend", rec);
	json_object_set_new(root, "replay", replay(&z->total[0]));
	for (s = 0; s < z->nstrat; s++) {
		json_t *o = replay(&z->total[s]);

		json_object_set_new(o, "strategy", json_string(rp_strat_name(sn, sizeof(sn), &z->strat[s])));
		json_array_append_new(all, o);
	}
	json_object_set_new(root, "strategies", all);
}

void rp_sizing_text_group(FILE *f, const struct rp_sizing *z, size_t i)
{
	const struct rp_rec *r = &z->rec[0][i];
	const struct rp_replay *p = &z->rep[0][i];
	char sn[64], why[160];

	fprintf(f, "  recommend %s: ", rp_strat_name(sn, sizeof(sn), &r->strat));
	if (!r->has) {
		fprintf(f, "none: %s\n", rp_rec_none_why(r));
	} else {
		fprintf(f, "%" PRId64 " core%s, %" PRId64 " MB", r->cores,
			r->cores == 1 ? "" : "s", r->memory);
		if (r->disk >= 0)
			fprintf(f, ", disk %" PRId64 " MB", r->disk);
		if (r->wall_time >= 0)
			fprintf(f, ", %" PRId64 " min", r->wall_time / 60);
		fprintf(f, "; %zu of %zu tasks over it\n", p->rec.exceeded, p->rec.tasks);
	}
	if (rp_rec_floor_why(why, sizeof(why), r))
		fprintf(f, "    %s\n", why);
	if (r->fallback)
		fprintf(f, "    %zu tasks, fewer than the %zu a quantile of %g needs: max instead\n",
			r->used, r->need, r->strat.q);
	if (r->ex.failed || r->ex.no_memory || r->ex.absurd)
		fprintf(f, "    left out: %zu failed or stopped, %zu without memory, %zu absurd\n",
			r->ex.failed, r->ex.no_memory, r->ex.absurd);
	if (r->ex.absurd)
		fputs("    (absurd: over 1 PB, 100000 cores or a year)\n", f);
	if (r->strat.s == RP_S_INPUT && r->has)
		rp_sizing_text_lines(f, r);
}

/* A resource's line on the input size, or why max instead. */
static void line_text(FILE *f, const char *what, const char *unit, const struct rp_line *l)
{
	if (!l->on) {
		fprintf(f, "    %s: max (fallback): %s (", what, l->why ? l->why : "no usable task");
		if (!isnan(l->rho))
			fprintf(f, "rho %.2f, ", l->rho);
		fprintf(f, "%zu task%s)\n", l->n, l->n == 1 ? "" : "s");
		return;
	}
	fprintf(f, "    %s on input: %.4g %s/MB x input + %.4g %s, +%g%%,\n", what, l->slope,
		unit, l->icpt, unit, l->margin * 100);
	fprintf(f, "      within [%" PRId64 ", %" PRId64 "] %s (rho %.2f, %zu tasks)\n",
		l->lo, l->hi, unit, l->rho, l->n);
}

void rp_sizing_text_lines(FILE *f, const struct rp_rec *r)
{
	line_text(f, rp_res_fig(RP_MEMORY)->name, "MB", &r->line[RP_L_MEMORY]);
	line_text(f, "wall time", "s", &r->line[RP_L_WALL_TIME]);
}

/* "61%", the share of @base that @v saves; "-" without a base. */
static const char *saved(char *buf, size_t len, double v, double base)
{
	if (!(base > 0))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f%%", 100 * (base - v) / base);
	return buf;
}

static void row(FILE *f, const char *name, const struct rp_tally *t, double base)
{
	char s[16];

	fprintf(f, "  %-16s%11.2f%7.0f%%%10.2f%8zu%7zu%7s\n", name, t->mem_alloc / 1024,
		t->mem_alloc > 0 ? 100 * t->mem_used / t->mem_alloc : 0.0, t->core_alloc,
		t->exceeded, t->failed, saved(s, sizeof(s), t->mem_alloc, base));
}

/* The memory hours each strategy wasted, its failed tries and the wall
 * time they lost. */
static void lost_table(FILE *f, const struct rp_sizing *z)
{
	char sn[64];
	size_t s;

	fputs("\nwaste and failures per strategy (the replay's):\n", f);
	fprintf(f, "  %-16s%18s%16s%14s\n", "strategy", "memory GBh wasted", "failed tries",
		"hours lost");
	for (s = 0; s < z->nstrat; s++) {
		const struct rp_tally *t = &z->total[s].rec;

		fprintf(f, "  %-16s%18.2f%16zu%14.2f\n", rp_strat_name(sn, sizeof(sn), &z->strat[s]),
			(t->mem_alloc - t->mem_used) / 1024, t->attempts_failed, t->lost_h);
	}
}

void rp_sizing_text(FILE *f, const struct rp_sizing *z, const struct rp_cat *c)
{
	const struct rp_replay *req = &z->total[0];
	bool with_req = req->req_tasks > 0 && req->req_tasks == req->rec.tasks;
	double base = with_req ? req->req.mem_alloc : z->total[0].rec.mem_alloc;
	char sn[64];
	size_t s;

	(void)c;
	if (!with_req)
		for (s = 0; s < z->nstrat; s++)
			if (z->strat[s].s == RP_S_MAX)
				base = z->total[s].rec.mem_alloc;
	fprintf(f, "\nsavings and risk per strategy, %zu tasks replayed (margin %g%%):\n",
		z->total[0].rec.tasks, z->opts.margin * 100);
	fprintf(f, "  %-16s%11s%8s%10s%8s%7s%7s\n", "strategy", "memory GBh", "used",
		"core h", "retried", "failed", "saved");
	for (s = 0; s < z->nstrat; s++)
		row(f, rp_strat_name(sn, sizeof(sn), &z->strat[s]), &z->total[s].rec, base);
	if (with_req)
		row(f, "requested", &req->req, base);
	fprintf(f, "saved: memory hours saved against %s; the first strategy is --recommend's\n",
		with_req ? "what the records requested" : "max");
	lost_table(f, z);
}
