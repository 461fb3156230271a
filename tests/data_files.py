"""Small files in the exact formats of Keras's downloads, and a web server on
127.0.0.1 that serves them in place of the real hosts.

Nothing here reaches the network: ``KERASMINI_DOWNLOAD_MIRROR`` sends every
``get_file`` download to the local server, which answers with the files a
test put there (at the origin's own path), and counts the requests.
"""

import contextlib
import gzip
import hashlib
import http.server
import io
import json
import os
import pickle
import struct
import tarfile
import threading
import urllib.parse

import numpy as np

from kerasmini.datasets import safe_pickle

# ---------------------------------------------------------------- the server


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)
        super().do_GET()


@contextlib.contextmanager
def serve(root):
    """Serve the folder ``root`` on 127.0.0.1 (a free port) while inside."""
    handler = lambda *a, **k: _Handler(*a, directory=str(root), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class Mirror:
    """The served folder: ``put(origin, data)`` makes ``origin`` downloadable."""

    def __init__(self, root, server):
        self.root = root
        self.server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"

    @property
    def requests(self):
        return self.server.requests

    def put(self, origin, data):
        """Serve ``data`` (bytes) at ``origin``'s path; return its sha256."""
        path = self.root / urllib.parse.urlsplit(origin).path.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return hashlib.sha256(data).hexdigest()


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def md5(data):
    return hashlib.md5(data).hexdigest()


# ------------------------------------------------------------------ formats


def npz_bytes(**arrays):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def object_array(lists):
    out = np.empty(len(lists), dtype=object)
    out[:] = [[int(v) for v in x] for x in lists]  # Python ints, as the real files
    return out


def idx_gz(array, magic):
    """gzip'd IDX: magic, the dimensions (big-endian uint32), the bytes."""
    header = struct.pack(">I", magic) + b"".join(struct.pack(">I", d)
                                                 for d in array.shape)
    return gzip.compress(header + array.astype("uint8").tobytes())


class Py2Pickler(pickle._Pickler):
    """Pickles as Python 2's cPickle wrote the CIFAR batches: byte strings as
    ``str`` opcodes, NumPy's reconstructor under ``numpy.core.multiarray``."""

    dispatch = pickle._Pickler.dispatch.copy()

    def save_py2_str(self, obj):
        if len(obj) < 256:
            self.write(pickle.SHORT_BINSTRING + bytes([len(obj)]) + obj)
        else:
            self.write(pickle.BINSTRING + struct.pack("<i", len(obj)) + obj)
        self.memoize(obj)

    dispatch[bytes] = save_py2_str

    def save_global(self, obj, name=None):
        if obj is safe_pickle._RECONSTRUCT:
            self.write(pickle.GLOBAL + b"numpy.core.multiarray\n_reconstruct\n")
            self.memoize(obj)
            return
        super().save_global(obj, name)


def py2_pickle(obj):
    buffer = io.BytesIO()
    Py2Pickler(buffer, protocol=2).dump(obj)
    return buffer.getvalue()


def tar_gz(members):
    """A ``.tar.gz`` of ``{name: bytes}``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def cifar_batch(images, labels, label_keys=(b"labels",)):
    """A CIFAR batch: ``images`` (n, 32, 32, 3) uint8 stored as (n, 3072),
    channel-major, as the real files."""
    data = images.transpose(0, 3, 1, 2).reshape(len(images), -1)
    batch = {b"batch_label": b"testing batch", b"data": data,
             b"filenames": [b"img%d.png" % i for i in range(len(images))]}
    for key, value in zip(label_keys, labels):
        batch[key] = list(int(v) for v in value)
    return py2_pickle(batch)


class Evil:
    """A pickle gadget: unpickling it would run ``os.system``."""

    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


def word_index_json(words):
    return json.dumps({w: i + 1 for i, w in enumerate(words)}).encode()
