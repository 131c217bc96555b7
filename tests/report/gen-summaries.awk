# SPDX-License-Identifier: MIT
# gen-summaries.awk: random resource summaries for the report's tests.
# awk -v seed=S -v n=N -v dir=D -f gen-summaries.awk writes D/tNNNNNN.summary:
# 3 categories, exit types normal (85%), limits (10%) and signal (5%),
# values on and off bucket edges, some unknown (null) or missing, some 0.
# With -v ties=1, few distinct values (whole cores, 250 MB steps, wall
# times 2 or 4 s), where exact ties between candidate buckets are common.
function pick(a, n) { return a[int(rand() * n) + 1] }
function val(kind,    r) {
	r = rand()
	if (ties) {
		if (kind == "cores") return int(r * 3) + 1
		if (kind == "size") return 250 * (int(r * 3) + 1)
		return r < 0.5 ? 2 : 4
	}
	if (r < 0.05) return "null"
	if (kind == "cores") {
		if (r < 0.3) return int(rand() * 8) + 1
		if (r < 0.35) return 0
		return sprintf("%.3f", rand() * 6)
	}
	if (kind == "size") {
		if (r < 0.3) return 250 * int(rand() * 12)	# bucket edges, 0 included
		if (r < 0.4) return sprintf("%.1f", rand())
		return sprintf("%.3f", rand() * rand() * 3000)
	}
	if (r < 0.1) return 0					# wall time 0
	return sprintf("%.6f", rand() * rand() * 600)
}
function field(name, v, unit) {
	if (v == "null") return "\"" name "\": null"
	return "\"" name "\": [" v ", \"" unit "\"]"
}
BEGIN {
	srand(seed)
	split("align,sort,merge", cats, ",")
	for (i = 0; i < n; i++) {
		f = sprintf("%s/t%06d.summary", dir, i)
		r = rand()
		et = r < 0.85 ? "normal" : (r < 0.95 ? "limits" : "signal")
		printf "{\"category\": \"%s\", \"command\": \"prog%d --in x\", ", pick(cats, 3), i % 4 > f
		printf "\"exit_type\": \"%s\", \"exit_status\": %d, ", et, et == "normal" ? (rand() < 0.1) : 1 > f
		printf "%s, %s, %s, %s",
			field("cores", val("cores"), "cores"),
			field("memory", val("size"), "MB"),
			field("disk", val("size"), "MB"),
			field("wall_time", val("time"), "s") > f
		if (rand() < 0.5)
			printf ", %s", field("gpus", int(rand() * 3), "gpus") > f
		printf ", \"cpu_time\": [%.3f, \"s\"]}\n", rand() * 100 > f
		close(f)
	}
}
