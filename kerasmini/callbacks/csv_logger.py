"""``CSVLogger``: one CSV row of logs per epoch."""

import collections
import csv

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import validation
from kerasmini.callbacks.callback import Callback


def _cell(value):
    if isinstance(value, str):
        return value
    if isinstance(value, collections.abc.Iterable) and not (
            isinstance(value, np.ndarray) and value.ndim == 0):
        return f'"[{", ".join(map(str, value))}]"'
    return value


@keras_export("kerasmini.callbacks.CSVLogger")
class CSVLogger(Callback):
    """Write ``epoch`` and the epoch logs to a CSV file, a row per epoch.

    The columns are the sorted log keys of the first epoch; when there is no
    validation yet, ``val_*`` columns are added for them (as Keras does), so
    a later validation has a place.

    Args:
        filename: the CSV file.
        separator: the column separator (default ``","``).
        append: add to an existing file (the header is written only if the
            file is empty).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> logger = CSVLogger(path)
    >>> logger.on_train_begin()
    >>> logger.on_epoch_end(0, {"loss": 0.5, "accuracy": 0.75})
    >>> logger.on_train_end()
    >>> print(open(path).read().strip())
    epoch,accuracy,loss,val_accuracy,val_loss
    0,0.75,0.5,NA,NA
    """

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        # Keras 3 takes None and fails in `fit` (os.fspath); refused at once
        self.filename = validation.check_path(filename, "filename", owner="CSVLogger")
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        mode = "w"
        if self.append:
            try:
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            except FileNotFoundError:
                pass
            mode = "a"
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, mode, newline="")
        self.writer = None
        self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys += [f"val_{k}" for k in self.keys]
        if self.writer is None:
            class Dialect(csv.excel):
                delimiter = self.sep

            self.writer = csv.DictWriter(self.csv_file, dialect=Dialect,
                                         fieldnames=["epoch"] + self.keys)
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((key, _cell(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None
