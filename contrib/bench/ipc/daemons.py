"""Starting and stopping the two players for the control-socket benchmark: each on its own socket in
the run's scratch directory, its output in a log file there, its pid appended to WORK/pids (run.sh's
exit trap kills whatever is still listed, by pid). Also reads RSS and CPU time from /proc."""
import os
import signal
import socket
import subprocess
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


class Daemon:
    def __init__(self, kind, argv, sock_path, log_path, pid_file):
        self.kind = kind
        self.argv = argv
        self.sock_path = sock_path
        self.log_path = log_path
        self.pid_file = pid_file
        self.proc = None

    @property
    def pid(self):
        return self.proc.pid

    def start(self, wait_s=30.0):
        if os.path.exists(self.sock_path):
            os.unlink(self.sock_path)
        log = open(self.log_path, "ab")
        log.write(("\n$ " + " ".join(self.argv) + "\n").encode())
        log.flush()
        env = dict(os.environ)
        for var in ("DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER"):
            env.pop(var, None)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                     env=env)
        log.close()
        with open(self.pid_file, "a") as f:
            f.write(f"{self.proc.pid}\n")
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.kind} exited with {self.proc.returncode} before its socket was up; "
                                   f"see {self.log_path}:\n{self.log_tail()}")
            if os.path.exists(self.sock_path):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(2)
                try:
                    s.connect(self.sock_path)
                    s.close()
                    return self
                except OSError:
                    s.close()
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.kind}: socket {self.sock_path} not up after {wait_s} s; log:\n{self.log_tail()}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, grace=3.0):
        """SIGTERM, then SIGKILL after `grace` s. Returns how it ended (for the report)."""
        if self.proc is None:
            return "not running"
        how = f"had exited ({self.proc.returncode})"
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGTERM)
                self.proc.wait(grace)
                how = f"exited on SIGTERM ({self.proc.returncode})"
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
                how = f"ignored SIGTERM for {grace:.0f} s, SIGKILLed"
            except ProcessLookupError:
                how = "gone"
        self.proc = None
        return how

    def log_tail(self, n=20):
        try:
            with open(self.log_path, "rb") as f:
                return b"".join(f.readlines()[-n:]).decode(errors="replace")
        except OSError:
            return ""

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def ctx_switches(self):
        """Context switches so far, summed over the process's live threads (voluntary + involuntary)."""
        total = 0
        base = f"/proc/{self.pid}/task"
        for tid in os.listdir(base):
            try:
                with open(f"{base}/{tid}/status") as f:
                    for line in f:
                        if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                            total += int(line.split()[1])
            except OSError:
                pass
        return total

    def cpu_s(self):
        """user+system CPU seconds of the process so far (all its threads)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK


def queued_argv(binary, sock, files=(), loops=None, state=None):
    """state: None for --no-state (a benchmark starts empty), or (directory, sync policy)."""
    argv = [binary, "--socket", sock, "--audio", "null", "--video", "null"]
    argv += ["--no-state"] if state is None else ["--state-dir", state[0], "--sync", state[1]]
    if loops is not None:
        argv += ["--loops", str(loops)]
    return argv + list(files)


def mpv_argv(sock, files=(), loop_file=False, pause=False):
    argv = ["mpv", "--no-config", "--idle=yes", f"--input-ipc-server={sock}", "--vo=null", "--ao=null",
            "--input-terminal=no", "--msg-level=all=warn"]
    if loop_file:
        argv.append("--loop-file=inf")
    if pause:
        argv.append("--pause")
    return argv + list(files)
