#!/usr/bin/env python3
"""Picture benchmark for `make bench-pictures`: the largest profile picture the app takes, uploaded
alone and four at once, against the release build, with the server's memory sampled throughout.

  picture   a baseline JPEG just under the 8 MiB limit (PictureProcessor.maximumBytes), made with
            `cjpeg` (libjpeg-turbo-progs) from a PPM this script writes: a colour gradient with
            random grain, the grain's strength searched so the file lands between 7.6 and 8.0 MiB
            at quality 92. Two of them: 24 megapixels (6000 x 4000, a phone camera's) and 40
            megapixels (7744 x 5164, the most the app takes)
  alone     POST /settings/profile/picture (multipart, with the CSRF token), signed in, one at a
            time, BENCH_PICTURE_ROUNDS times (default 5): each request's time, exec of the request
            to its 303; the server decodes the picture once and encodes two JPEGs (256 and 64 px)
  four      four such uploads at once, from four connections of four members: each one's time
            and the server's peak memory while they run (VmHWM, reset with clear_refs just before,
            and VmRSS sampled every 2 ms)

and writes the table to .build/bench/pictures.md, and into Benchmarks/README.md between
<!-- pictures-results:start --> and <!-- pictures-results:end -->. The picture processor works on
one thread with four waiting (PictureProcessor), so four at once are one decoding and three
queued: the last one's time includes the three before it.

Only 127.0.0.1 is ever contacted. Python 3 standard library and cjpeg; reuses bench.py.
Options (environment): BENCH_PICTURE_ROUNDS, BENCH_MACHINE_NOTE (what else the machine ran, for the header), BENCH_UPDATE_README=0, bench.py's BENCH_APP (another build of the
same code: the report names it), BENCH_CONFIG and BENCH_APP_ENV (experiments: the README is left alone).
"""
import datetime
import http.client
import os
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

ROOT, OUT = bench.ROOT, bench.OUT
RUN = os.path.join(OUT, "pictures")
README = bench.README
ROUNDS = int(os.environ.get("BENCH_PICTURE_ROUNDS", "5"))
LIMIT = 8 * 1024 * 1024  # PictureProcessor.maximumBytes
SIZES = [("24 MP", 6000, 4000), ("40 MP", 7744, 5164)]
QUALITY = 92
BUDGET_MS = 400
BUDGET_PEAK_MB = 120
MEMBERS = 4


def log(message):
    print(f"[pictures] {message}", flush=True)


# MARK: - The picture

def write_ppm(path, width, height, grain, seed):
    """A colour gradient (down the picture, and in four bands across it) with grain: each byte is
    the gradient's value plus a random 0..grain-1, made by bytes.translate, so the work is in C."""
    rng = random.Random(seed)
    band = width * 3 // 4
    tables = {}
    with open(path, "wb") as out:
        out.write(f"P6\n{width} {height}\n255\n".encode())
        for y in range(height):
            base = (y * 160) // height
            for column in range(4):
                key = (base + column * 24, grain)
                if key not in tables:
                    tables[key] = bytes((key[0] + b % grain) % 256 for b in range(256))
                size = band if column < 3 else width * 3 - 3 * band
                out.write(rng.randbytes(size).translate(tables[key]))


def make_jpeg(label, width, height):
    """A JPEG of `width` x `height` between 7.6 MiB and the limit, the grain found by bisection."""
    os.makedirs(RUN, exist_ok=True)
    path = os.path.join(RUN, f"{width}x{height}.jpg")
    if os.path.exists(path) and 7.6 * 1024 * 1024 <= os.path.getsize(path) <= LIMIT:
        return path
    ppm = os.path.join(RUN, "source.ppm")
    low, high = 1, 256
    while low < high:
        grain = (low + high + 1) // 2
        write_ppm(ppm, width, height, grain, seed=width)
        subprocess.run(["cjpeg", "-quality", str(QUALITY), "-outfile", path, ppm], check=True)
        size = os.path.getsize(path)
        log(f"{label}: grain {grain} gives {size / 1024 / 1024:.2f} MiB")
        if size > LIMIT:
            high = grain - 1
        elif size < 7.6 * 1024 * 1024:
            low = grain
        else:
            break
    else:
        write_ppm(ppm, width, height, low, seed=width)
        subprocess.run(["cjpeg", "-quality", str(QUALITY), "-outfile", path, ppm], check=True)
    os.remove(ppm)
    if os.path.getsize(path) > LIMIT:
        bench.die(f"could not make a {label} JPEG under {LIMIT} bytes")
    return path


# MARK: - Uploads

def sign_in_member(port, database, name):
    made = subprocess.run(bench.app_argv("user", "create", name, "--password-stdin", "--database", database), cwd=ROOT,
                          env=bench.clean_environment(), input=bench.PASSWORD + "\n", capture_output=True, text=True)
    if made.returncode != 0 and "exists" not in made.stderr:
        bench.die(f"wishlist user create failed: {made.stderr}")
    cookie = bench.sign_in(port, name)
    status, _, page, _ = bench.http_request(port, "GET", "/settings/profile", {"Cookie": f"wishlist_session={cookie}"})
    if status != 200:
        bench.die(f"/settings/profile answered {status}")
    return cookie, bench.csrf_in(page)


def upload(port, member, picture):
    """Seconds from sending the request to its answer, and the status."""
    cookie, csrf = member
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{csrf}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"camera.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + picture + f"\r\n--{boundary}--\r\n".encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.connect()
    started = time.perf_counter()
    connection.request("POST", "/settings/profile/picture", body=body, headers={
        "Cookie": f"wishlist_session={cookie}", "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Sec-Fetch-Site": "same-origin"})
    response = connection.getresponse()
    response.read()
    seconds = time.perf_counter() - started
    connection.close()
    if response.status != 303:
        bench.die(f"the upload answered {response.status}, not 303")
    return seconds


class MemorySampler(threading.Thread):
    """The server's VmRSS every 2 ms, and its largest."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server, self.largest_kb, self.running = server, 0, True

    def run(self):
        while self.running:
            self.largest_kb = max(self.largest_kb, self.server.status_kb("VmRSS"))
            time.sleep(0.002)


def measure(port, server, members, label, picture):
    alone, cpu = [], []
    for _ in range(ROUNDS):
        before = server.cpu_seconds()
        alone.append(upload(port, members[0], picture))
        cpu.append(server.cpu_seconds() - before)
    log(f"{label} alone: " + ", ".join(f"{s * 1000:.0f} ms ({c * 1000:.0f} ms of CPU)" for s, c in zip(alone, cpu)))
    server.reset_peak()
    before_kb = server.status_kb("VmRSS")
    sampler = MemorySampler(server)
    sampler.start()
    times = [0.0] * len(members)

    def one(index):
        times[index] = upload(port, members[index], picture)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(members))]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    sampler.running = False
    sampler.join()
    peak_mb = max(server.peak_mb(), sampler.largest_kb / 1024)
    log(f"{label} four at once: " + ", ".join(f"{s * 1000:.0f} ms" for s in sorted(times)) + f", peak {peak_mb:.1f} MB")
    return {"bytes": len(picture), "alone_s": alone, "alone_cpu_s": cpu, "four_s": sorted(times), "four_wall_s": wall, "peak_mb": peak_mb,
            "hwm_mb": server.peak_mb(), "sampled_mb": sampler.largest_kb / 1024, "rss_before_mb": before_kb / 1024}


def main():
    for tool, path in [("cjpeg", shutil.which("cjpeg")), ("the app's release build", bench.APP)]:
        if not path or not os.path.exists(path):
            bench.die(f"{tool} is missing; `make bench-pictures` builds the app; cjpeg is Debian's libjpeg-turbo-progs")
    pictures = [(label, width, height, make_jpeg(label, width, height)) for label, width, height in SIZES]
    database = os.path.join(RUN, "pictures.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    port = bench.free_port()
    server = bench.Server("wishlist", bench.app_argv("serve", "--port", str(port), "--database", database), port,
                          os.path.join(RUN, "server.log"), bench.APP_ENV)
    load_before = open("/proc/loadavg").read().split()[:3]
    started_at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    rows = []
    try:
        server.wait_ready(server.start(), "/healthz", timeout=60)
        members = [sign_in_member(port, database, f"picture{n}") for n in range(1, MEMBERS + 1)]
        idle_mb = server.status_kb("VmRSS") / 1024
        for label, width, height, path in pictures:
            with open(path, "rb") as file:
                picture = file.read()
            rows.append((label, width, height, measure(port, server, members, label, picture)))
        load_after = open("/proc/loadavg").read().split()[:3]
    finally:
        server.stop()
    report = render_report(rows, started_at, " ".join(load_before), " ".join(load_after), idle_mb)
    with open(os.path.join(OUT, "pictures.md"), "w") as out:
        out.write(report)
    print()
    print(report)
    if os.environ.get("BENCH_UPDATE_README", "1") != "0" and not any(os.environ.get(k) for k in ("BENCH_CONFIG", "BENCH_APP_ENV")):
        update_readme(report)


def render_report(rows, started, load_before, load_after, idle_mb):
    lines = ["| picture | bytes | alone: median ms (min–max of " + str(ROUNDS) + ") | alone: server CPU ms, median (min–max) "
             "| four at once: each ms | four: all done ms | server peak MB during the four | alone < 400 ms | peak < 120 MB |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for label, width, height, figures in rows:
        alone = figures["alone_s"]
        median = statistics.median(alone) * 1000
        cpu = figures["alone_cpu_s"]
        lines.append(f"| {label} ({width} × {height}) JPEG, quality {QUALITY} | {figures['bytes']:,} | {median:.0f} "
                     f"({min(alone) * 1000:.0f}–{max(alone) * 1000:.0f}) | {statistics.median(cpu) * 1000:.0f} "
                     f"({min(cpu) * 1000:.0f}–{max(cpu) * 1000:.0f}) | "
                     + ", ".join(f"{s * 1000:.0f}" for s in figures["four_s"]) + f" | {figures['four_wall_s'] * 1000:.0f} | "
                     f"{figures['peak_mb']:.1f} | {'**met**' if median < BUDGET_MS else '**missed**'} | "
                     f"{'**met**' if figures['peak_mb'] < BUDGET_PEAK_MB else '**missed**'} |")
    command = os.environ.get("BENCH_COMMAND", "make bench-pictures")
    # What else the machine ran is the person's to say (BENCH_MACHINE_NOTE), not a sentence of the script's.
    machine = os.environ.get("BENCH_MACHINE_NOTE", "what else ran: see the notes below")
    header = (f"Command: `{command}` · {started} · {os.cpu_count()} cores ({machine}; the server at nice {os.nice(0)}); "
              f"load average {load_before} before, {load_after} after · release build"
              + (f" `{bench.APP}`" if os.environ.get("BENCH_APP") else ""))
    notes = [f"- Times are each request's, from sending it on an open connection to its 303 (upload over loopback, "
             f"the multipart parse, the checks, one decode and two encodes, the database write); the server's CPU is its "
             "user + system time over the request (/proc/PID/stat), which a busy machine does not stretch as it stretches "
             f"the wall time. The server held "
             f"{idle_mb:.1f} MB before the first upload; its peak is the larger of VmHWM (reset just before the four) and "
             "VmRSS sampled every 2 ms.",
             "- Four at once: the processor decodes one picture at a time and queues up to four (`PictureProcessor`), "
             "so the times are one picture's, then two, three and four in a row."]
    return header + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"


def update_readme(report):
    start, end = "<!-- pictures-results:start -->", "<!-- pictures-results:end -->"
    text = open(README).read()
    if start not in text or end not in text:
        log(f"{os.path.relpath(README, ROOT)} has no {start} section; left alone")
        return
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    with open(README, "w") as out:
        out.write(before + start + "\n" + report + end + after)
    log(f"updated {os.path.relpath(README, ROOT)}")


if __name__ == "__main__":
    main()
