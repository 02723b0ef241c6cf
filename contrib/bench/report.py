#!/usr/bin/env python3
"""Formats run.sh's results (key=value lines) as the summary table; prints it and writes it to OUT.
Usage: report.py RESULTS OUT"""
import sys


def load(path):
    values, lists = {}, {}
    for line in open(path):
        key, _, value = line.rstrip("\n").partition("=")
        values[key] = value
        lists.setdefault(key, []).append(value)
    return values, lists


def main():
    r, lists = load(sys.argv[1])
    g = lambda key, default="n/a": r.get(key, default)
    out = []
    p = out.append

    def num(key):
        try:
            value = float(r[key])
            return value if value == value else None
        except (KeyError, ValueError):
            return None

    def ratio(a, b, target=None):
        x, y = num(a), num(b)
        if x is None or y is None or y == 0:
            return "n/a"
        text = f"{x / y:.2f}"
        if target is not None:
            text += f" (target <= {target}: {'met' if x / y <= target else 'NOT met'})"
        return text

    p(f"queued benchmark, {g('meta.date')}")
    p(f"  queued {g('meta.queued_version', '')} at {g('meta.queued_rev')} ({g('meta.queued_bin')}); {g('meta.mpv')}; {g('meta.ffmpeg')}")
    p(f"  {g('meta.cpus')} CPUs; load average before/after: {g('meta.load_before')} / {g('meta.load_after')}")
    p(f"  media: {g('meta.media')}")
    p(f"  mpv video output under Xvfb: --vo={g('meta.mpv_vo')} ({g('meta.mpv_vo_note')})")
    p("")
    p("1. CPU (user+sys seconds) and max RSS, playing long.mp4 (60 s 1080p30 H.264 + AAC) in real time")
    p(f"   {'':34}{'CPU s':>8}{'RSS MB':>9}{'wall s':>8}  exit")
    rows = [("a  queued --audio null --video null", "cpu_null_queued"),
            ("a  mpv --vo=null --ao=null", "cpu_null_mpv"),
            ("b  queued pulse + sdl(x11)", "cpu_x11_queued"),
            (f"b  mpv --ao=pulse --vo={g('meta.mpv_vo')}", "cpu_x11_mpv"),
            ("ref ffmpeg -i FILE -f null -", "cpu_ffmpeg"),
            ("ref queued --untimed, null outputs", "cpu_untimed_queued")]
    for label, key in rows:
        p(f"   {label:34}{g(key + '.cpu'):>8}{g(key + '.rss_mb'):>9}{g(key + '.wall'):>8}  {g(key + '.rc')}")
    p(f"   ratio queued/mpv, null outputs:  CPU {ratio('cpu_null_queued.cpu', 'cpu_null_mpv.cpu', 0.8)}"
      f"; RSS {ratio('cpu_null_queued.rss_mb', 'cpu_null_mpv.rss_mb', 0.8)}")
    p(f"   ratio queued/mpv, x11 + pulse:   CPU {ratio('cpu_x11_queued.cpu', 'cpu_x11_mpv.cpu', 0.8)}"
      f"; RSS {ratio('cpu_x11_queued.rss_mb', 'cpu_x11_mpv.rss_mb', 0.8)}")
    p(f"   ratio queued/ffmpeg decode (CPU): null {ratio('cpu_null_queued.cpu', 'cpu_ffmpeg.cpu')}"
      f", x11+pulse {ratio('cpu_x11_queued.cpu', 'cpu_ffmpeg.cpu')}")
    p("")
    p("2. Start to first frame on screen (s from spawn; median of runs, min-max; long.mp4, Xvfb)")
    for label, key in [("x11 + pulse", "ff_x11"), ("x11 + null audio", "ff_xnull")]:
        for who in ("queued", "mpv"):
            k = f"{key}_{who}"
            p(f"   {label:18} {who:7} median {g(k + '.median'):>6}  ({g(k + '.min')}-{g(k + '.max')}; runs "
              f"{g(k + '.runs')}; missed {g(k + '.missed')})")
        p(f"   {label:18} ratio queued/mpv {ratio(key + '_queued.median', key + '_mpv.median', 1)}")
    for who in ("queued", "mpv"):
        marks = [(k.split(".mark.")[1], v) for k, v in r.items() if k.startswith(f"ff_x11_{who}.mark.")]
        if marks:
            p(f"   x11 + pulse {who} start-up milestones (median s): "
              + ", ".join(f"{name} {v}" for name, v in marks) + f", first frame {g(f'ff_x11_{who}.median')}")
    p("   queued: its first 'started item' log line; mpv: 'first video frame after restart shown' (-v cplayer,")
    p("   logged after vo_wait_frame, i.e. once the VO has put the frame up). Lines stamped on arrival.")
    p("")
    p("3. Audio at item boundaries through PulseAudio (null sink monitor, parec), samples at 48 kHz;")
    p("   +N inserted, -N dropped, per boundary; inner = samples inserted/lost inside items")
    for label, key in [("set a,b,c", "ab_set"), ("loop d x5", "ab_loop")]:
        for who in ("queued", "mpv"):
            k = f"{key}_{who}"
            p(f"   {label:10} {who:7} boundaries {g(k + '.boundaries'):>22}  inner {g(k + '.inner')}"
              f"  found {g(k + '.segments_found')}  glitches: {g(k + '.glitches')}")
            if k + ".error" in r:
                p(f"   {'':18} error: {r[k + '.error']}")
    p("   queued loop: --item-loops 5 --shortest-track (each play = 1.0 s of audio, cut at the video's end);")
    p("   mpv loop: --loop-file=4 (no shortest-track option: each play = the full 1.3 s of audio).")
    p("")
    p("4. Video at item boundaries (x11grab 60 Hz of the stamp strip; +-17 ms; nominal frame 33 ms)")
    for label, key in [("set a,b,c", "vh_set"), ("loop d x5", "vh_loop")]:
        for who in ("queued", "mpv"):
            k = f"{key}_{who}"
            p(f"   {label:10} {who:7} longest hold at boundary {g(k + '.max_boundary_hold_ms'):>5} ms"
              f"  (each: {g(k + '.boundary_holds_ms')}; last/first frame {g(k + '.last_first')};"
              f" inside median/max {g(k + '.inside_median_ms')}/{g(k + '.inside_max_ms')} ms;"
              f" plays {g(k + '.plays_seen')})")
            if k + ".error" in r:
                p(f"   {'':18} error: {r[k + '.error']}")
    p("")
    p("5. queued log problems (warning/error lines) and exits")
    problems = [k for k in r if k.endswith(".log_problems") and r[k] not in ("0", "")]
    for k in problems:
        label = k[:-len(".log_problems")]
        p(f"   {label}: {r[k]} line(s), e.g.")
        for line in lists.get(label + ".log_problem", [])[:3]:
            p(f"     {line}")
    for k in [k for k in r if k.endswith(".term_ignored") and r[k] not in ("0", "")]:
        label = k[:-len(".term_ignored")]
        p(f"   {label}: still running 3 s after SIGTERM in {r[k]} of {g('meta.runs')} runs (SIGKILLed)")
        problems.append(k)
    bad_exit = [k[:-3] for k in r if k.endswith(".rc") and r[k] != "0"]
    for label in bad_exit:
        p(f"   {label}: exit status {r[label + '.rc']} (124 = killed by the time limit)")
    if not problems and not bad_exit:
        p("   none")
    for note in lists.get("note", []):
        p(f"   note: {note}")
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    with open(sys.argv[2], "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
