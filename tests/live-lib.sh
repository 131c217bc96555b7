# SPDX-License-Identifier: MIT
# tests/live-lib.sh: sourced by the live tests (tests/live-*.test) after
# init.sh: a private runtime directory, free ports, and the real servers
# (node_exporter, Prometheus, influxd, cctools' catalog_server) started on
# localhost with their data in $tmp, stopped at the end.  Each server
# carries a mark of this test, so tp_cleanup kills one left behind.

TPMON_RUNTIME_DIR=$tmp/rt
export TPMON_RUNTIME_DIR
live_pids=

# live_free_port: a TCP port no socket uses, below the kernel's ephemeral
# range, so that no outgoing connection takes it before a server binds it.
live_free_port()
{
	while :; do
		live_p=$((10000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 22768))
		ss -Htan "sport = :$live_p" 2>/dev/null | grep -q . || {
			echo "$live_p"
			return
		}
	done
}

# live_need PROGRAM PACKAGE: skip unless PROGRAM is installed.
live_need()
{
	command -v "$1" >/dev/null 2>&1 ||
		skip_all "$1 not found (Debian: $2; scripts/install-deps)"
}

# live_daemon NAME CMD...: start a server in the background, its output in
# $tmp/NAME.log.
live_daemon()
{
	live_name=$1
	shift
	TPMON_TEST_MARK=$tp_mark_base.srv. "$@" </dev/null >"$tmp/$live_name.log" 2>&1 &
	live_pids="$live_pids $!"
}

# live_wait_http URL [SECONDS]: 0 once URL answers (any HTTP status), 1
# after SECONDS (default 30).
live_wait_http()
{
	live_end=$(($(date +%s) + ${2:-30}))
	while [ "$(date +%s)" -le "$live_end" ]; do
		curl -s -o /dev/null -m 2 "$1" && return 0
		sleep 0.2
	done
	return 1
}

# live_stop: stop the servers (SIGTERM, SIGKILL after 5 s).
live_stop()
{
	for live_pid in $live_pids; do
		kill "$live_pid" 2>/dev/null
	done
	for live_pid in $live_pids; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$live_pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -9 "$live_pid" 2>/dev/null
		wait "$live_pid" 2>/dev/null
	done
	live_pids=
}
trap 'live_rc=$?; live_stop; (exit $live_rc); tp_cleanup' 0

# live_logs NAME...: the servers' logs into the test's log.
live_logs()
{
	for live_name in "$@"; do
		diag "--- $live_name.log (last lines)"
		diag "$(tail -n 20 "$tmp/$live_name.log" 2>/dev/null)"
	done
}

# live_start_influxd: influxd on private ports with its data in $tmp,
# and a database "tpmon".  Sets INFLUX (its HTTP URL).
live_start_influxd()
{
	live_need influxd influxdb
	live_need curl curl
	live_http=$(live_free_port)
	mkdir -p "$tmp/influx" || bail_out "mkdir"
	cat >"$tmp/influx/influxd.conf" <<EOF2
reporting-disabled = true
bind-address = "127.0.0.1:$(live_free_port)"
[meta]
  dir = "$tmp/influx/meta"
[data]
  dir = "$tmp/influx/data"
  wal-dir = "$tmp/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$live_http"
  log-enabled = false
[continuous_queries]
  enabled = false
EOF2
	live_daemon influxd influxd -config "$tmp/influx/influxd.conf"
	INFLUX=http://127.0.0.1:$live_http
	live_wait_http "$INFLUX/ping" 60 || { live_logs influxd; bail_out "influxd did not start"; }
	curl -s -XPOST "$INFLUX/query" --data-urlencode 'q=CREATE DATABASE tpmon' >/dev/null ||
		bail_out "influxd: CREATE DATABASE failed"
}

# live_influx_query Q: the JSON answer of InfluxQL query Q on "tpmon".
live_influx_query()
{
	curl -s -G "$INFLUX/query" --data-urlencode db=tpmon --data-urlencode "q=$1"
}

# live_start_prometheus DIR: node_exporter with only its textfile
# collector on DIR, and Prometheus scraping it every second.  Sets PROM
# (Prometheus' URL) and NODE (node_exporter's /metrics).
live_start_prometheus()
{
	live_need prometheus-node-exporter prometheus-node-exporter
	live_need prometheus prometheus
	live_need curl curl
	live_node=$(live_free_port)
	live_prom=$(live_free_port)
	live_daemon node_exporter prometheus-node-exporter \
		--web.listen-address="127.0.0.1:$live_node" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$1"
	NODE=http://127.0.0.1:$live_node/metrics
	mkdir -p "$tmp/prom-data" || bail_out "mkdir"
	cat >"$tmp/prometheus.yml" <<EOF2
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$live_node']
EOF2
	live_daemon prometheus prometheus --config.file="$tmp/prometheus.yml" \
		--storage.tsdb.path="$tmp/prom-data" \
		--web.listen-address="127.0.0.1:$live_prom"
	PROM=http://127.0.0.1:$live_prom
	live_wait_http "$NODE" 30 || { live_logs node_exporter; bail_out "node_exporter did not start"; }
	live_wait_http "$PROM/-/ready" 60 || { live_logs prometheus; bail_out "prometheus did not start"; }
}

# live_prom_query Q: the JSON answer of PromQL query Q.
live_prom_query()
{
	curl -s -G "$PROM/api/v1/query" --data-urlencode "query=$1"
}
