#!/usr/bin/env python3
"""bench/follow_latency.py BIN STORE KIND N: the time from a commit in another shell to the
follower's line. A follower runs `audit list --entity product --id 1 --follow -o ndjson`; a writer
sets product 1's stock N times — on PostgreSQL from one psql session (the clock starts as the
UPDATE is sent: an upper bound), on SQLite with `shopsh -c 'products stock 1 =K'` (the clock
starts when that process has exited, its commit done). Prints p50, p99 and the worst, in ms."""
import json, subprocess, sys, threading, time

binary, store, kind, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
arrivals = {}            # stock value -> monotonic time its line arrived
arrived = threading.Condition()

follower = subprocess.Popen([binary, "--no-rc", "--store", store, "-c",
                             "audit list --entity product --id 1 --follow -o ndjson --limit 0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

def read():
    for line in follower.stdout:
        now = time.monotonic()
        try:
            row = json.loads(line)
        except ValueError:
            continue
        stock = (row.get("after") or {}).get("stock")
        with arrived:
            arrivals[stock] = now
            arrived.notify_all()

threading.Thread(target=read, daemon=True).start()
time.sleep(1.5)   # the follower is listening

psql = None
if kind == "postgres":
    psql = subprocess.Popen(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", store], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

latencies = []
base = 500_000
for i in range(count):
    value = base + i
    if psql:
        started = time.monotonic()
        psql.stdin.write(f"UPDATE products SET stock = {value} WHERE id = 1;\n\\echo done\n")
        psql.stdin.flush()
        psql.stdout.readline()
    else:
        subprocess.run([binary, "--no-rc", "--store", store, "-c", f"products stock 1 ={value} --reason recount"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        started = time.monotonic()
    with arrived:
        if not arrived.wait_for(lambda: value in arrivals, timeout=10):
            print(f"{kind}: change {i} never arrived", file=sys.stderr)
            continue
        latencies.append(max(0.0, arrivals[value] - started) * 1000)

follower.terminate()
if psql:
    psql.stdin.close()
    psql.wait()
latencies.sort()
if not latencies:
    sys.exit(f"{kind}: no line arrived")
p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))]
print(f"{kind:<9} {len(latencies)} changes, commit → line: {p(0.5):.1f} ms median, {p(0.99):.1f} ms p99, {latencies[-1]:.1f} ms worst")
