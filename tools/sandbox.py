"""Student code in a sandbox: the grading kernel runs inside bubblewrap.

nbgrader runs in the teacher's process, with the teacher's rights; the only
thing that runs a submission's code is the Jupyter kernel it starts. This
module's :class:`SandboxKernelManager` starts that kernel inside ``bwrap``
(Debian/Ubuntu package ``bubblewrap``), so that a submission

* sees a read-only system (``/usr``, the Python installation, the virtualenv,
  the kerasmini package) and nothing else of the machine: no home folder, no
  ``/tmp``, not the course folder (the teacher's ``source/``, the other
  students' work, ``gradebook.db``, ``nbgrader_config.py``), not the
  repository's other files;
* works in a scratch copy of its own folder (regular files only, no symlinks),
  thrown away afterwards: nothing it writes reaches ``autograded/``;
* has no network (its own network namespace, loopback only, nothing on it),
  a clean environment (``HOME``, ``PATH``, ``LANG`` and little else: none of
  the teacher's variables), its own process ids, and no way to the teacher's
  terminal (``--new-session``);
* has limits: memory (address space), CPU seconds, the size of a file it
  writes and the number of open files (rlimits, inherited by the kernel).

The kernel talks to nbgrader over Unix sockets (ZeroMQ's ``ipc`` transport)
in a private folder (mode 0700) made for that kernel alone; its connection
file (with the key that signs the messages) sits there, not in a shared
runtime folder, and the kernel sees only that folder.

What it does not do: it is not a container (the kernel shares the machine's
kernel and CPU), it limits memory by address space, not by a cgroup, and it
cannot stop code from spinning until the CPU limit (nbgrader's cell timeout
interrupts it first). nbgrader's docs say plainly that autograding runs the
students' code as the grader; Otter-Grader runs each submission in a Docker
container for that reason. teachers.md explains the trade.

:func:`probe` says whether bwrap works on this machine (it needs
unprivileged user namespaces, or root).
"""

import atexit
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile

from jupyter_client.manager import AsyncKernelManager
from traitlets import Integer, Unicode

HOME = "/home/student"  # the kernel's home: an empty, private tmpfs
WORK = "/home/student/submission"  # the scratch copy of the submission

# Folders of the system every program needs, read-only (those that exist).
SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]
# Files of /etc that programs read (libraries, fonts, time zone), nothing more:
# no passwords, no keys, no network settings.
ETC = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/fonts",
       "/etc/localtime", "/etc/alternatives", "/etc/mime.types",
       "/etc/matplotlibrc"]


def _kerasmini_dir():
    """The kerasmini package the teacher's Python imports (its folder)."""
    import importlib.util

    spec = importlib.util.find_spec("kerasmini")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("kerasmini is not importable: install it (make venv)")
    return os.path.realpath(list(spec.submodule_search_locations)[0])


def read_only_paths():
    """What the kernel may read: the system, this Python and its virtualenv,
    and the kerasmini package (not the rest of its repository)."""
    paths = [p for p in SYSTEM if os.path.exists(p)]
    for prefix in (sys.base_prefix, sys.prefix, sysconfig.get_paths()["purelib"]):
        real = os.path.realpath(prefix)
        if not any(real == p or real.startswith(p + os.sep) for p in paths):
            paths.append(real)
    paths.append(_kerasmini_dir())
    return paths


def bwrap_command(bound, scratch):
    """The ``bwrap ... --`` prefix: ``bound`` is the folder shared with the
    teacher's process (connection file and sockets), ``scratch`` the copy of
    the submission."""
    command = [shutil.which("bwrap") or "bwrap",
               "--unshare-all", "--die-with-parent", "--new-session",
               "--cap-drop", "ALL", "--hostname", "sandbox",
               # empty folders first: the binds below may sit inside them
               # (a virtualenv in the teacher's home, say)
               "--proc", "/proc", "--dev", "/dev",
               "--tmpfs", "/tmp", "--tmpfs", "/home", "--dir", HOME]
    for path in read_only_paths():
        if os.path.islink(path):  # /bin -> usr/bin on merged-/usr systems
            command += ["--symlink", os.readlink(path), path]
        else:
            command += ["--ro-bind", path, path]
    for path in ETC:
        command += ["--ro-bind-try", path, path]
    kerasmini_parent = os.path.dirname(_kerasmini_dir())
    venv_bin = os.path.dirname(sys.executable)
    command += [
        "--bind", bound, bound,
        "--bind", scratch, WORK, "--chdir", WORK,
        "--clearenv",
        "--setenv", "HOME", HOME, "--setenv", "USER", "student",
        "--setenv", "LOGNAME", "student",
        "--setenv", "PATH", f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
        "--setenv", "LANG", "C.UTF-8", "--setenv", "TMPDIR", "/tmp",
        "--setenv", "PYTHONPATH", kerasmini_parent,
        "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
        "--setenv", "MPLCONFIGDIR", os.path.join(bound, "matplotlib"),
        "--setenv", "OPENBLAS_NUM_THREADS", "1", "--setenv", "OMP_NUM_THREADS", "1",
        "--setenv", "MKL_NUM_THREADS", "1",
        "--",
    ]
    return command


def _limits(memory, cpu_seconds, file_size, open_files):
    """A ``preexec_fn`` that sets the rlimits the kernel inherits."""

    def apply():
        import resource

        for kind, value in ((resource.RLIMIT_AS, memory),
                            (resource.RLIMIT_CPU, cpu_seconds),
                            (resource.RLIMIT_FSIZE, file_size),
                            (resource.RLIMIT_NOFILE, open_files),
                            (resource.RLIMIT_CORE, 0)):
            if value:
                resource.setrlimit(kind, (value, value))

    return apply


_MATPLOTLIB = {}


def matplotlib_cache():
    """A folder holding matplotlib's font list, built once by this (trusted)
    Python: each kernel starts from a copy, instead of spending seconds
    listing the fonts again in its empty home. ``None`` without matplotlib."""
    if "folder" not in _MATPLOTLIB:
        folder = tempfile.mkdtemp(prefix="kerasmini-matplotlib-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        result = subprocess.run(
            [sys.executable, "-c", "import matplotlib.font_manager"],
            env={**os.environ, "MPLCONFIGDIR": folder}, capture_output=True)
        _MATPLOTLIB["folder"] = folder if result.returncode == 0 else None
    return _MATPLOTLIB["folder"]


def copy_submission(source, destination):
    """Copy the regular files and folders of ``source`` into ``destination``;
    symlinks, devices and pipes are left behind. Returns what was left."""
    skipped = []
    for root, folders, files in os.walk(source, followlinks=False):
        relative = os.path.relpath(root, source)
        target = os.path.normpath(os.path.join(destination, relative))
        os.makedirs(target, exist_ok=True)
        for name in folders + files:
            path = os.path.join(root, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISREG(mode):
                shutil.copyfile(path, os.path.join(target, name),
                                follow_symlinks=False)
            elif not stat.S_ISDIR(mode):
                skipped.append(os.path.relpath(path, source))
        folders[:] = [f for f in folders
                      if stat.S_ISDIR(os.lstat(os.path.join(root, f)).st_mode)]
    return skipped


class SandboxKernelManager(AsyncKernelManager):
    """A kernel manager whose kernel runs inside bubblewrap (see the module)."""

    memory = Integer(3 * 2**30, config=True,
                     help="The kernel's address space limit, bytes (RLIMIT_AS).")
    cpu_seconds = Integer(1800, config=True,
                          help="The kernel's CPU time limit, seconds (RLIMIT_CPU).")
    file_size = Integer(256 * 2**20, config=True,
                        help="The largest file the kernel may write, bytes.")
    open_files = Integer(1024, config=True, help="Open files (RLIMIT_NOFILE).")
    runtime_parent = Unicode("", config=True,
                             help="Where the private kernel folders go (default: "
                                  "the system's temporary folder).")

    _folder = None

    async def _async_pre_start_kernel(self, **kw):
        # A private folder for this kernel: connection file and ipc sockets.
        self._folder = tempfile.mkdtemp(prefix="kerasmini-kernel-",
                                        dir=self.runtime_parent or None)
        os.chmod(self._folder, 0o700)
        self.transport = "ipc"
        self.cache_ports = False
        self.ip = os.path.join(self._folder, "kernel")
        self.connection_file = os.path.join(self._folder, "connection.json")
        return await super()._async_pre_start_kernel(**kw)

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        scratch = os.path.join(self._folder, "submission")
        os.makedirs(scratch)
        cwd = kw.get("cwd")
        if cwd and os.path.isdir(cwd):
            copy_submission(cwd, scratch)
        fonts = matplotlib_cache()
        if fonts:
            shutil.copytree(fonts, os.path.join(self._folder, "matplotlib"))
        kw["cwd"] = self._folder
        kw["env"] = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        kw["preexec_fn"] = _limits(self.memory, self.cpu_seconds, self.file_size,
                                   self.open_files)
        command = bwrap_command(self._folder, scratch) + list(kernel_cmd)
        return await super()._async_launch_kernel(command, **kw)

    async def _async_cleanup_resources(self, restart=False):
        await super()._async_cleanup_resources(restart=restart)
        if not restart and self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    # AsyncKernelManager binds this name to its parent's coroutine: a kernel
    # that died is cleaned up through it, and its folder must go too
    cleanup_resources = _async_cleanup_resources


def probe():
    """``(True, "")`` if bwrap can run a Python inside the sandbox here, else
    ``(False, why)``."""
    if shutil.which("bwrap") is None:
        return False, "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    folder = tempfile.mkdtemp(prefix="kerasmini-probe-")
    try:
        scratch = os.path.join(folder, "submission")
        os.makedirs(scratch)
        command = bwrap_command(folder, scratch) + [
            sys.executable, "-c", "import kerasmini, socket; print('ok')"]
        try:
            result = subprocess.run(command, capture_output=True, text=True,
                                    timeout=120, env={"PATH": os.environ.get("PATH", "")})
        except (OSError, subprocess.TimeoutExpired) as error:
            return False, str(error)
        if result.returncode != 0 or result.stdout.strip() != "ok":
            why = (result.stderr.strip().splitlines() or ["no output"])[-1]
            return False, f"bwrap failed here: {why}"
        return True, ""
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    works, why = probe()
    print("the sandbox works" if works else f"no sandbox: {why}")
    sys.exit(0 if works else 1)

