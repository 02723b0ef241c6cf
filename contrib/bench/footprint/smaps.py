#!/usr/bin/env python3
"""Where a process's resident memory goes, from /proc/PID/smaps: one line per part, in MB.

Parts: the program's own file; the Swift runtime and Foundation (when linked dynamically); FFmpeg's
libraries (libav*, libsw*); libavfilter's own dependencies (speech voices, LAPACK, Vulkan… — loaded only with
libavfilter); other shared libraries; the heap and anonymous memory (malloc arenas, frame pools, the queue);
thread stacks. Usage: smaps.py PID LABEL  → prints LABEL.part=MB lines (and LABEL.total).
"""
import re
import sys

SWIFT = re.compile(r"lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)")
FFMPEG = re.compile(r"lib(avcodec|avformat|avutil|avfilter|avdevice|swscale|swresample|postproc)\.so")
FILTER_DEPS = re.compile(
    r"lib(flite|blas|lapack|gfortran|quadmath|pocketsphinx|sphinxbase|placebo|vulkan|rubberband|lilv|serd|sord|"
    r"sratom|mysofa|vidstab|zimg|bs2b|ass|epoxy)")


def parts(pid):
    program = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")[0].decode()
    totals = {}
    current = None
    for line in open(f"/proc/{pid}/smaps"):
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            fields = line.split()
            name = fields[5] if len(fields) > 5 else ""
            if name and (name == program or name.endswith("/" + program.split("/")[-1])):
                current = "program"
            elif name.startswith("[stack"):
                current = "stacks"
            elif name in ("", "[heap]") or name.startswith("[anon"):
                current = "heap_anon"
            elif name.startswith("["):
                current = "kernel"
            elif SWIFT.search(name):
                current = "swift_foundation"
            elif FFMPEG.search(name):
                current = "ffmpeg"
            elif FILTER_DEPS.search(name):
                current = "filter_deps"
            else:
                current = "other_libs"
        elif line.startswith("Rss:") and current:
            totals[current] = totals.get(current, 0) + int(line.split()[1])
    return totals


def main():
    pid, label = sys.argv[1], sys.argv[2]
    totals = parts(pid)
    for key in ("program", "swift_foundation", "ffmpeg", "filter_deps", "other_libs", "heap_anon", "stacks", "kernel"):
        print(f"{label}.{key}={totals.get(key, 0) / 1024:.1f}")
    print(f"{label}.total={sum(totals.values()) / 1024:.1f}")


if __name__ == "__main__":
    main()
